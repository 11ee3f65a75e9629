"""The offer of a saved match at start-up (Y resumes it, a damaged save set aside with a
warning), and a long warning's short form for the message line. What a save holds is
game/files/session.py's; the file itself game/files/savegame.py's."""
from game.board import screen as S
from game.files import savegame
from game.files.session import Session, facts, typed_steps
from game.interfaces import Frames
from game.model.position import Position
from game.pages import menus
from game.scenes.timing import WARNING_FRAMES
from game.zx.basic import Basic
from spectrum.safe_write import PathLike


def offer_resume(basic: Basic, screen: S.Screen, session: Session,
                 path: PathLike | None = None) -> Frames:
    """At start-up: a saved match is offered (Y resumes it); a damaged save is set aside
    (kept) with a warning, and its backup offered if that is whole. Nothing is deleted
    here: the resumed game's first save replaces the file; N forgets it. Returns
    (match, position, side, dice, typed steps), ('between', match) or None."""
    if not savegame.has_save(path):
        return None
    saved, warning = savegame.load_game(path, warn=session.say)   # the whole one: stderr
    if warning:
        words = "Save damaged: backup offered" if saved else "Saved game damaged: set aside"
        screen.message(short_warning(warning, words))
        yield from basic.pause(WARNING_FRAMES)
    if saved is None:
        return None
    session.tell("offer", facts(saved))
    m = saved.match
    score = f" {m.score[m.sides[0]]}-{m.score[m.sides[1]]}" if any(m.score.values()) else ""
    resume = yield from menus.ask_yes_no(basic, f"Resume saved game{score}?")
    if not resume:
        session.forget()
        return None
    m.offered_by, m.rolled = None, False
    if saved.extra.get("between_games"):
        m.in_game = False
        return "between", m
    position = Position.from_id(saved.position_id)
    return m, position, saved.turn, saved.dice, typed_steps(saved)


def short_warning(warning: str, words: str) -> str:
    """The message line's version of a long warning (the whole one goes to stderr)."""
    return warning if len(warning) <= S.COLS else words
