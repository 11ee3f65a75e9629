"""Save and resume: what the program is doing (the options, the match, the game in
progress) for the console to save on closing the window, and the offer of a saved match at
start-up. The file format is game/savegame.py's; this module only decides what goes in."""
from game import menus, savegame
from game import screen as S
from game.basic import Basic
from game.match import Match
from game.position import Position
from game.scenes.timing import WARNING_FRAMES
from game.settings import Settings


class Session:
    """What the program is doing, for the console to save on closing the window: the
    options, the match and the game in progress."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.match: Match | None = None
        self.game = None                 # the scenes' Game in progress


def save_session(session: Session, path=None):
    """Save the match in progress (savegame.save_game) at the start of the turn being
    played; returns the path, or None when there is nothing to save."""
    game, match = session.game, session.match
    if game is None or match is None or not match.in_game:
        return None
    position, side, dice = game.at
    if side is None:
        return None
    saved = savegame.SavedGame(match, position.position_id, side, tuple(dice) if dice else None,
                               session.settings, extra={"held": "bottom"})
    return savegame.save_game(saved, path)


def offer_resume(basic: Basic, screen: S.Screen, session: Session, path=None):
    """At start-up: a saved match is offered (Y resumes it); a damaged save is set aside
    (kept) with a warning and a fresh start. Returns (match, position, side, dice) or None."""
    if not savegame.has_save(path):
        return None
    saved, warning = savegame.load_game(path, warn=None)
    if warning:                                 # set aside (kept), and a fresh start
        screen.message(short_warning(warning, "Saved game damaged: set aside"))
        yield from basic.pause(WARNING_FRAMES)
        return None
    if saved is None:
        return None
    m = saved.match
    score = f" {m.score[m.sides[0]]}-{m.score[m.sides[1]]}" if any(m.score.values()) else ""
    resume = yield from menus.ask_yes_no(basic, f"Resume saved game{score}?")
    savegame.discard_save(path)
    if not resume:
        return None
    m.offered_by, m.rolled = None, False
    position = Position.from_id(saved.position_id)
    return m, position, saved.turn, saved.dice


def short_warning(warning: str, words: str) -> str:
    """The message line's version of a long warning (the whole one goes to stderr)."""
    return warning if len(warning) <= S.COLS else words
