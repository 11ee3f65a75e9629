"""The commands at "Your move?", one row each in COMMANDS: the words typed, the handler
and the help line. A new command is a row here and its handler below. Not the moves
themselves (game/scenes/human_turn.py)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from game import commands
from game.board.lines import COLUMNS
from game.files.export import export_match
from game.files.settings import Settings
from game.interfaces import Frames
from game.model.match import HUMAN
from game.pages import menus, options_page, rollout_pages
from game.scenes.state import Game
from game.scenes.timing import INFO_FRAMES
from game.words import DEFAULT_WORDS, PRESS_ENTER, chance_names


@dataclass(frozen=True)
class Command:
    words: tuple[str, ...]       # what may be typed (upper case)
    handler: Callable[[Game, str], Frames]   # a generator; the turn in state.turn
    help_lines: tuple[str, ...]  # on the help page, 32 columns at most


def show_help(board_game: Game, side: str) -> Frames:
    yield from menus.help_screens(board_game.table.basic, HELP_PAGES)
    board_game.redraw()


def options(board_game: Game, side: str) -> Frames:
    table, m = board_game.table, board_game.state.match
    out = yield from options_page.options_menu(table.basic, table.settings, match=m)
    board_game.apply_style()
    if "cube" in out.changed and not m.results and m.cube_value == 1 and m.cube_owner is None:
        m.cube_enabled = table.settings.cube      # nothing turned on it yet
    board_game.redraw()


def score(board_game: Game, side: str) -> Frames:
    yield from menus.score_screen(board_game.table.basic, board_game.state.match)
    board_game.redraw()


def pips(board_game: Game, side: str) -> Frames:
    names = DEFAULT_WORDS if side == HUMAN else (side.capitalize(),
                                                  board_game.state.match.other(side).capitalize())
    board_game.message(commands.pip_count_text(board_game.state.typed_turn().position, names))
    yield from info_pause(board_game)


def ids(board_game: Game, side: str) -> Frames:
    turn = board_game.state.typed_turn()
    board_game.message(commands.position_id_text(turn.start, board_game.state.match, turn.dice))
    yield from info_pause(board_game)


def advice(board_game: Game, side: str) -> Frames:
    turn = board_game.state.typed_turn()
    yield from rollout_pages.advice_with_rollout(board_game.table.basic, turn.start, turn.dice,
                                                  mover_is_human=turn.mover_is_human,
                                                  terms=board_game.state.match.terms(side),
                                                  names=chance_names(board_game.state.match, side))
    board_game.redraw()
    board_game.mark_dice(turn)


def takeback(board_game: Game, side: str) -> Frames:
    turn = board_game.state.typed_turn()
    if turn.made:
        turn.undo()
        board_game.show_turn(turn)
    else:
        board_game.message("No man moved yet" + PRESS_ENTER)
        yield from board_game.table.basic.wait_enter()


def undo(board_game: Game, side: str) -> Frames:
    turn = board_game.state.typed_turn()
    turn.undo_all()
    board_game.show_turn(turn)
    yield from ()


def double(board_game: Game, side: str) -> Frames:
    ok, why = board_game.state.match.can_double(side)
    yield from menus.tell(board_game.table.basic, why or "You may only double before you roll",
                          redraw=board_game.redraw)
    board_game.mark_dice(board_game.state.typed_turn())


def version(board_game: Game, side: str) -> Frames:
    board_game.message(commands.version_text())
    yield from info_pause(board_game)


def export_now(board_game: Game, side: str) -> Frames:
    words = export_match(board_game.state.match.record, board_game.saving.export_dir)
    if len(words) > COLUMNS:                       # a reason too long for the line: whole
        yield from menus.tell(board_game.table.basic, words, redraw=board_game.redraw)
        board_game.mark_dice(board_game.state.typed_turn())
        return
    board_game.message(words)
    yield from info_pause(board_game)


# In the order of the help page; each help line at most 32 columns
COMMAND_ROWS = (
    Command(("D", "DOUBLE"), double, ("D/DOUBLE  double: D at the cube",
                                      "          stop, or in my play; A",
                                      "          then: cube advice")),
    Command(("A",), advice, ("A         advice (R: roll out)",)),
    Command(("P",), pips, ("P         pip count, both sides",)),
    Command(("T",), takeback, ("T         take back the last man",)),
    Command(("U",), undo, ("U         undo the whole turn",)),
    Command(("S",), score, ("S         the score",)),
    Command(("I",), ids, ("I         position and match ID",
                          "          (paste into GNU bg)")),
    Command(("O",), options, ("O         the options menu",)),
    Command(("H", "HELP"), show_help, ("H         this help",)),
    Command(("X",), export_now, ("X         export the match as a",
                                 "          .mat file for analysis")),
    Command(("V",), version, ("V         version, weights sum",)),
)
COMMANDS = {word: row for row in COMMAND_ROWS for word in row.words}
HELP_PAGES = (("KEYS  (1/4)", [*menus.HELP_TYPING,
                               *(line for row in COMMAND_ROWS for line in row.help_lines),
                               menus.HELP_QUIT]),
              menus.HELP_MORE, menus.HELP_MOUSE,
              ("ROLLOUTS  (4/4)", list(rollout_pages.HELP_LINES)))


def command_for(text: str, settings: Settings) -> Command | None:
    """The command a line typed at "Your move?" names, or None. Under the 1983 rules there
    are none: the 1983 program took a command it did not know as an illegal entry."""
    return None if settings.rules_1983 else COMMANDS.get(text.strip().upper())


def info_pause(board_game: Game) -> Frames:
    """A message-line answer stays a while; a key ends it, and a letter or digit typed
    then starts the next entry (the player typing the move at once loses nothing)."""
    key = yield from board_game.table.basic.pause(INFO_FRAMES)
    if key is not None and 33 <= key < 128:
        board_game.prompt.typed_ahead = chr(key)

