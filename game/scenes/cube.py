"""The doubling cube before a throw: the computer's own double, a person's D (during the last
shown play, at the cube stop "ENTER rolls, D doubles" before every throw where a double is
possible (may_double), or after the tutor's missed-double warning), the take or drop, the
cube advice on A. Not the cube's rules (game/model/match.py) nor its maths."""

from game import commands
from game.analysis.cube_judgement import CUBE_SCREEN_LEVEL, worth_a_look
from game.board.lines import wrap
from game.errors import BackgammonError
from game.interfaces import Frames
from game.model import evaluator
from game.pages import menus, rollout_pages
from game.scenes import tutor
from game.scenes.state import ADVICE_KEYS, DOUBLE_KEYS, QUIT_KEYS, ROLL_KEYS, Game
from game.scenes.timing import COMPUTER_BEEP, OPENING_READ_FRAMES
from game.words import chance_names, say


def may_double(board_game: Game, side: str) -> bool:
    """Could `side` double at the start of its next turn (before its throw)? Match.can_double
    at that moment: the cube on and the one rule of the cube and the score
    (MatchTerms.double_refused: not the Crawford game, the cube centred or its own, under
    64, not dead). Where it cannot there is no decision: no stop, no "D doubles"."""
    m = board_game.state.match
    was = (m.on_roll, m.rolled)
    m.on_roll, m.rolled = side, False
    try:
        return bool(m.can_double(side))
    finally:
        m.on_roll, m.rolled = was


def stop_wanted(board_game: Game, side: str) -> Frames:
    """Stop at "ENTER rolls, D doubles" before `side`'s throw? Where it may double
    (may_double); with the Cube stop option WHEN CLOSE only when the quick judgement the
    tutor screens with (CUBE_SCREEN_LEVEL, in a thread while frames run) does not call no
    double clearly right."""
    if not may_double(board_game, side):
        return False
    if board_game.table.settings.cube_stop == "always":
        return True
    state = board_game.state
    position, terms = state.held_for(side), state.match.terms(side)
    quick = yield from tutor.finished(tutor.Job(lambda: evaluator.cube_decision(
        position, CUBE_SCREEN_LEVEL, terms)))
    return quick is None or worth_a_look(quick, terms)      # the review's and tutor's screen


def refuse(board_game: Game, why: str) -> Frames:
    """A reason too long for the message line, then the board back."""
    yield from menus.tell(board_game.table.basic, why, redraw=board_game.redraw)


def before_roll(board_game: Game, side: str) -> Frames:
    """The cube before `side` rolls: the computer's own double, or the double a person
    asked for (D while the last play was shown, at the "ENTER rolls" prompt, or after the
    tutor's warning of a missed double). Returns a GameResult when a double was dropped,
    else None."""
    state, prompt, policy = board_game.state, board_game.prompt, board_game.table.cube_policy
    m = state.match
    if not state.typed[side]:
        if not (policy and m.can_double(side)):
            return None
        decision = policy(state.held_for(side), m, side)   # None: no answer
        if decision is None or not decision.double or decision.too_good:
            return None
        return (yield from offer_double(board_game, side))
    # the tutor's judgement of a roll without a double, started now (None: OFF, no cube)
    missed = None if prompt.double_wanted else tutor.no_double_judge(board_game, side)
    ask = False
    if prompt.cube_advice_wanted:
        prompt.cube_advice_wanted = False
        ok, why = m.can_double(side)
        if not ok:
            yield from refuse(board_game, f"No cube advice: {why[:1].lower()}{why[1:]}.")
        elif not prompt.double_wanted:
            yield from cube_advice(board_game, side, offered=False)
            ask = True
    if not prompt.double_wanted and (ask or (yield from stop_wanted(board_game, side))):
        yield from roll_or_double(board_game, side)
        if prompt.resign_wanted:                    # Q: resign.before_throw asks
            return None
    if not prompt.double_wanted:
        if (yield from tutor.check_no_double(board_game, missed)):
            return (yield from offer_double(board_game, side))  # the double the tutor recommended
        return None
    prompt.double_wanted = False
    ok, why = m.can_double(side)
    if not ok:
        yield from refuse(board_game, why)
        return None
    if (yield from tutor.check_double(board_game, side)):
        return None                               # taken back after the tutor's warning
    return (yield from offer_double(board_game, side))


def roll_or_double(board_game: Game, side: str) -> Frames:
    """The cube stop: 'ENTER rolls, D doubles' until one of them (SPACE or a click on the
    dice rolls too, a click on the cube doubles; A shows the cube advice meanwhile)."""
    prompt = board_game.prompt
    board_game.message(say("roll or double", side))
    prompt.board_clicks = {"cube": "d", "dice": " "}
    try:
        while True:
            key = yield from board_game.table.basic.inkey()
            if key in DOUBLE_KEYS:
                prompt.double_wanted = True
                return
            if key in ROLL_KEYS:
                return
            if key in QUIT_KEYS:                  # QUIT begun: the resignation question
                prompt.resign_wanted = True
                return
            if key in ADVICE_KEYS:
                yield from cube_advice(board_game, side, offered=False)
                board_game.message(say("roll or double", side))
    finally:
        prompt.board_clicks = {}
        board_game.message("")                     # answered: the stop's words go


def cube_advice(board_game: Game, doubler: str, offered: bool) -> Frames:
    """A at a cube question: the evaluator's view of the cube for `doubler` at the
    strongest level (the match score through its table) on a page, then the board."""
    board_game.message("Thinking...")
    yield
    basic, m = board_game.table.basic, board_game.state.match
    position, terms = board_game.state.held_for(doubler), m.terms(doubler)
    try:
        decision = evaluator.cube_decision(position, commands.ADVICE_LEVEL, terms)
        lines = commands.cube_advice_lines(decision, say("who", doubler), offered, terms)
    except (BackgammonError, ValueError) as exc:
        lines = ["No advice this time:"] + wrap(str(exc))
        yield from menus.cube_advice_screen(basic, lines)
    else:
        key = yield from menus.cube_advice_screen(basic, lines, "ENTER back  R roll out",
                                                  rollout_pages.ROLL_KEYS)
        if key in rollout_pages.ROLL_KEYS:
            job = rollout_pages.cube_job(position, terms, names=chance_names(m, doubler))
            yield from rollout_pages.roll_out(basic, job)
    board_game.redraw()


def offer_double(board_game: Game, doubler: str) -> Frames:
    """`doubler` doubles: the other side takes or drops (a person answers Y/N, A for the
    advice). Returns the match's GameResult after a drop, else None."""
    table, state = board_game.table, board_game.state
    m = state.match
    value = m.double(doubler)
    receiver = m.other(doubler)
    board_game.happened(f"{doubler} doubles to {value}")
    if state.typed[receiver]:
        table.basic.beep(*COMPUTER_BEEP)
        judge = tutor.cube_judge(board_game, doubler)   # None with the Tutor option OFF
        while True:
            take = yield from menus.ask_yes_no(table.basic, say("doubles, take?", doubler,
                                                                value=value), other_keys="A")
            if take == "A":
                yield from cube_advice(board_game, doubler, offered=True)
            elif not (yield from tutor.check_cube(board_game, judge, "take" if take else "drop")):
                break
    else:
        said = say("doubles", doubler, value=value)
        board_game.message(said + ". Thinking...")
        yield
        decision = table.cube_policy(state.held_for(doubler), m, doubler) \
            if table.cube_policy else None
        take = True if decision is None else decision.take
        board_game.message(f"{said}: {say('takes' if take else 'drops', receiver)}")
    if take:
        m.take()
        board_game.happened(f"{receiver} takes {value}")
        board_game.draw_cube()
        result = None
    else:
        board_game.happened(f"{receiver} drops")
        result = m.drop()
    if not state.typed[receiver]:
        yield from table.basic.pause(OPENING_READ_FRAMES)
    return result
