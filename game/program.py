"""The program that runs on the 48K, as the 1983 BASIC listing did: the instructions, then
game after game of a match until the machine is switched off. A generator: one `yield` is
one 50 Hz frame. The scenes are game/scenes/; rules from game/model/rules.py, drawing from
game/board/screen.py."""
from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from game.board import screen as S
from game.files import rules1983, savegame
from game.files.session import Session
from game.files.settings import Settings, short_words
from game.interfaces import Chooser, CubePolicy, Frames
from game.model import rules
from game.model.dice import Dice
from game.model.evaluator import CubeDecision
from game.model.match import Match
from game.model.position import Position
from game.pages import instructions
from game.scenes import match_end, turn_loop
from game.scenes.game_over import game_over
from game.scenes.resume import offer_resume, short_warning
from game.scenes.state import Game, Saving, Table
from game.scenes.timing import WARNING_FRAMES
from game.zx.basic import Basic
from game.zx.usr import first_legal_play


@dataclass
class Run:
    """What a run of the program is given besides the machine, as game/main.py, the tests and
    docs/make_docs.py give it. The computer: its plays (`chooser`) and its cube decisions
    (`cube_policy`, game/zx/usr.py evaluator_cube; None: it never doubles and always takes);
    `dice`, seeded for a replay. The player's: the options (`settings`, game/files/settings.py)
    and `warning`, a line shown first (a damaged settings file); `session`, kept up to date
    and autosaving into its slot; `export_dir`, where exports go. At start-up: the
    instructions offered, and with `resume` a saved game first (a session without a slot
    then gets the default one, so the match goes on being saved). Where play begins: `start`,
    the first game's position (human on roll) or the first games' in order, later games from
    the usual one; `match`, a match already under way (a game started in it keeps its cube).
    `on_game` is told of each game as it begins (the scenes' Game, scenes/state.py)."""
    dice: Dice = field(default_factory=Dice)
    chooser: Chooser[rules.Play] = first_legal_play
    cube_policy: CubePolicy[CubeDecision | None] | None = None
    settings: Settings = field(default_factory=Settings)
    warning: str | None = None
    session: Session | None = None
    export_dir: str | None = None
    ask_instructions: bool = True
    resume: bool = False
    start: Position | list[Position] | None = None
    match: Match | None = None
    on_game: Callable[[Game], None] | None = None


def program(basic: Basic, run: Run | None = None) -> Frames:
    """The whole program after the tape has loaded; runs until the machine is switched off.
    The computer's level is the chooser's and the options' business."""
    run = run or Run()
    settings, match = run.settings, run.match
    session = run.session or Session(settings)
    session.settings = settings
    if run.resume and session.slot is None:
        session.slot = savegame.Autosave()
    basic.silent = basic.silent or not settings.sound
    screen = S.Screen(basic.memory, basic.print_at)
    if run.warning:                             # a damaged settings file: the defaults
        screen.message(short_warning(run.warning, short_words(run.warning)))
        yield from basic.pause(WARNING_FRAMES)
    carry_on = (yield from offer_resume(basic, screen, session)) \
        if run.resume and not settings.rules_1983 else None      # 1983: no save offered
    if run.ask_instructions and carry_on is None:
        session.tell("prompt", {"asks": "instructions"})
        yield from instructions.offer(basic, card=settings.rules_1983)
    saving = Saving(keeper=session, export_dir=run.export_dir)
    starts = list(run.start) if isinstance(run.start, (list, tuple)) else [run.start]
    while True:
        start = starts.pop(0) if starts else None
        resume_turn = None
        if carry_on is not None and carry_on[0] == "between":
            match, carry_on = carry_on[1], None          # resumed between two games
        elif carry_on is not None:
            match, start, side, saved_dice, typed = carry_on
            resume_turn, carry_on = (side, saved_dice, typed), None
        elif match is None or not match.in_game and match.is_over:
            if session.game is not None:                 # the last one over or left
                session.forget()
            match = match_end.new_match(rules1983.played(settings))
        session.match = match
        table = Table(basic, screen, run.dice, run.chooser,
                      rules1983.played(settings),   # the 1983 rules: the card's game
                      run.cube_policy)
        board_game = Game(table, saving, start=start, match=match, resume=resume_turn)
        session.game = board_game
        if run.on_game is not None:
            run.on_game(board_game)
        match = yield from after_game(board_game, (yield from turn_loop.play(board_game)), starts)


def after_game(board_game: Game, result: Any,
               starts: list[Any]) -> Generator[None, None, Match | None]:
    """What follows a game's end (a result, 'quit' or 'stop'): the banner, the match-over
    page, the options between games. Returns the match to play on in, or None for a new
    one; a board set up between games goes to the front of `starts`."""
    table, match = board_game.table, board_game.state.match
    basic, screen, settings = table.basic, table.screen, table.settings
    if result in ("quit", "stop"):
        match_end.abandon(match)
    if match.is_over:
        board_game.saving.forget()
    else:
        board_game.saving.autosave(between_games=True)
    if result == "quit":
        yield from match_end.abandoned(basic, screen)
        return match if match_end.fits(match, settings) else None
    key = "stop" if result == "stop" else (yield from game_over(basic, screen, result, board_game))
    if key == "stop":                           # a key stopped the demo
        yield from match_end.demo_over(basic, screen, settings)
        starts[:0] = [(yield from match_end.between_games(basic, screen, settings, board_game))]
        return None
    if match.is_over:
        yield from match_end.match_over(basic, screen, board_game)
        return None
    if key in (ord("o"), ord("O")):
        starts[:0] = [(yield from match_end.between_games(basic, screen, settings, board_game))]
    return match if match_end.fits(match, settings) else None
