"""A turn typed at the keyboard (the human, or either side with two players): "Your move?",
each step checked by the engine and shown at once, the refusal in a few words, the
commands of the keys table (game/scenes/keys.py), READY? with Confirm turn on."""

from game.errors import BackgammonError, EntryError, IllegalMoveError
from game.interfaces import Frames
from game.model import rules
from game.model.match import HUMAN
from game.model.position import BAR, POINT_LETTERS, Position, parse_entry
from game.pages import menus
from game.scenes import keys, resign, tutor
from game.scenes.state import Game
from game.scenes.timing import STEP_BEEP
from game.words import PRESS_ENTER, play_words, say, step_words


def play(board_game: Game, dice: tuple[int, int], side: str) -> Frames:
    """Returns the steps made (in the mover's numbers), or the GameResult when QUIT was
    typed and the resignation accepted (declined: the turn goes on, its steps kept)."""
    table, state, prompt = board_game.table, board_game.state, board_game.prompt
    basic = table.basic
    turn = rules.Turn(state.held_for(side), dice, mover_is_human=side == state.bottom)
    state.turn = turn
    replay(board_game, turn)
    board_game.saving.autosave()                   # the dice thrown, the steps so far
    yield from board_game.say_save_failure()
    tag = "human" if side == HUMAN else side
    if turn.complete and not turn.made:            # no legal step at all: forfeit
        code = "cannot enter" if turn.start.board[BAR] else "cannot move"
        board_game.message(say(code, side) + PRESS_ENTER)
        board_game.happened(f"{tag} {dice[0]}{dice[1]} forfeit")
        yield from basic.wait_enter()
        return ()
    saved = list(turn.made)
    coach = tutor.start_play(board_game, turn, side)     # None with the Tutor option OFF
    try:
        while True:
            while not turn.complete:
                saved = keep(board_game, turn, saved)
                ahead, prompt.typed_ahead = prompt.typed_ahead, ""
                prompt.entering = True
                try:
                    text = yield from basic.input(say("move?", side), text=ahead)
                finally:
                    prompt.entering = False
                command = keys.command_for(text, table.settings)
                if command:
                    yield from command.handler(board_game, side)
                    if table.settings.rules_1983:  # the options turned to the 1983 rules:
                        return "quit"              # this game left, the next one under them
                    continue
                result = entry(board_game, turn, text)
                if result == "quit":
                    ended = yield from resign.quit_typed(board_game, side, dice)
                    if ended is not None:
                        return ended
                    continue
                if result is not None:            # a message: show it, wait for ENTER
                    board_game.message(result + PRESS_ENTER)
                    yield from basic.wait_enter()
            saved = keep(board_game, turn, saved)
            if (yield from tutor.check_play(board_game, turn, coach)):
                continue                           # taken back after the tutor's warning
            if table.settings.confirm_turn:
                ready = yield from menus.ask_yes_no(basic, "READY?", enter_means=True)
                if not ready:
                    turn.undo_all()
                    board_game.show_turn(turn)
                    continue
            break
    finally:
        if coach is not None:                      # the turn over: its unstarted checks
            coach.close()                          # are dropped
    board_game.happened(f"{tag} {dice[0]}{dice[1]} {play_words(turn.steps)}")
    return tuple(turn.steps)


def keep(board_game: Game, turn: rules.Turn, saved: list) -> list:
    """After a step made or taken back, the turn saved as it now is; returns its steps."""
    if turn.made != saved:
        board_game.saving.autosave()
    return list(turn.made)


def replay(board_game: Game, turn: rules.Turn) -> None:
    """A resumed turn: the steps typed before the program stopped, made again as far as the
    rules allow, and shown."""
    steps, board_game.state.replay = board_game.state.replay, []
    for from_index, die in steps:
        try:
            turn.step(from_index, die)
        except BackgammonError:
            break
    if turn.made:
        board_game.show_turn(turn)


def entry(board_game: Game, turn: rules.Turn, text: str) -> str | None:
    """Act on one typed line: None after a legal step (shown at once), 'quit', or the
    few words saying why nothing was moved. Never raises for any text."""
    if text.strip().upper() == "QUIT":
        return "quit"
    try:
        letter, die = parse_entry(text)
    except EntryError:
        return entry_words(text)
    from_index = Position.index_of_letter(letter, turn.mover_is_human)
    try:
        after = turn.step(from_index, die)
    except IllegalMoveError as why:
        higher = same_man_off_with_higher(turn, from_index, die, why.code)
        if higher is None:
            return step_words(why.code, from_index, die)
        after = turn.step(from_index, higher)
    except BackgammonError as exc:               # pragma: no cover - engine disagreement
        return str(exc)[:19]
    board_game.show(after if turn.mover_is_human else after.swapped())
    board_game.mark_dice(turn)
    board_game.table.basic.beep(*STEP_BEEP)
    return None


def entry_words(text: str) -> str:
    """A few words on why a typed line is not a move at all."""
    squeezed = text.strip()
    if not squeezed:
        return "Type e.g. k4 or 4k"
    if len(squeezed) == 2:
        a, b = squeezed.lower()[0], squeezed.lower()[1]
        letter, digit = (a, b) if a.isalpha() else (b, a)
        if letter.isalpha() and digit.isdigit():
            if letter not in POINT_LETTERS + "z":
                return f"There is no point {letter}"
            return "A die shows 1 to 6"
    return "Not a move, e.g. k4"


def same_man_off_with_higher(turn: rules.Turn, from_index: int, die: int,
                             code: int | None) -> int | None:
    """Rule 4 asks for the higher die when only one can be played; when the typed lower die
    would take the same man off the same point as the higher (the last man home, e.g. a1 with
    3-1), the player meant that: the higher die, or None when the refusal stands."""
    if code != rules.StepCode.HIGHER_DIE:
        return None
    higher = max(turn.dice_left)
    if higher > die and from_index - die < 0:       # both dice bear this man off
        return higher
    return None
