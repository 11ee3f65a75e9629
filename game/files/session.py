"""Save and resume: what the program is doing (the options, the match, the turn in progress
with the steps typed so far) written to the autosave slot at the start of every turn and
after every typed step; what a save says and which typed steps it holds. The file format is
game/files/savegame.py's, the offer at start-up game/scenes/resume.py's; this module only
decides what goes in."""
from __future__ import annotations

import pathlib
from collections.abc import Callable
from typing import Any

from game.files import savegame
from game.files.settings import Settings
from game.files.validate import Invalid, list_of, whole
from game.model.match import Match
from game.model.position import BAR, Position
from spectrum.quoting import os_words, short_path
from spectrum.quoting import say as quoting_say
from spectrum.safe_write import PathLike

HELD = "bottom"                  # a save's position is held with the bottom side on roll
MAX_TYPED = 4                    # steps in a turn: a double's four
SAVE_FAILED_WORDS = "Cannot save: play goes on"   # the whole reason goes to stderr


class Session:
    """What the program is doing: the options, the match and the game in progress, and
    where it is saved. `slot` (a savegame.Autosave) is written at the start of every turn
    and after every typed step; None saves nothing (tests, the headless screenshot run).
    `trace(kind, facts)`, if given, hears of every save (and of every one that failed:
    "unsaved", after the failure was said), of the resume offer, of the first question
    asked and of the computer's resignation offered (the console's --trace, for tests and
    bench/startup.py); `say`
    reports a failed save (stderr)."""

    def __init__(self, settings: Settings, slot: savegame.Autosave | None = None,
                 trace: Callable[[str, dict], None] | None = None,
                 say: Callable[[str], None] | None = None) -> None:
        self.settings = settings
        self.match: Match | None = None
        # the scenes' Game in progress (a layer above: not imported here)
        self.game: Any = None
        self.slot = slot
        self.trace = trace
        self.say = say or quoting_say
        self.failed = False              # a save failed: said once until one works again
        self.refused: str | None = None  # why the latest state could not be saved at all
        self.problem: str | None = None  # why the latest write failed (a full disk, ...)
        self.unsaid: str | None = None   # that failure in a few words, for the message line
        self.closed = False              # close() has run: a second call does nothing
        # the latest state while its write has not finished (a stop signal can come in the
        # middle of it) or after it failed to write: what the close tries to write first
        self.unwritten: savegame.SavedGame | None = None

    def snapshot(self, between_games: bool = False) -> savegame.SavedGame | None:
        """The match at the start of the turn being played (with the steps typed so far),
        or between games (the game just ended, the next not begun); None when there is
        nothing to save (no match, the demo, no turn begun)."""
        board_game, match = self.game, self.match
        if board_game is None or match is None or not any(board_game.state.typed.values()):
            return None
        position, side, dice = board_game.state.at
        extra: dict[str, object] = {"held": HELD}
        if between_games:
            side, dice, extra["between_games"] = match.sides[0], None, True
        elif not match.in_game or side is None:
            return None
        elif board_game.state.turn is not None and dice is not None:
            extra["typed"] = [list(step) for step in board_game.state.turn.made]
        return savegame.SavedGame(match, position.position_id, side,
                                  tuple(dice) if dice else None, self.settings, extra=extra)

    def autosave(self, between_games: bool = False) -> None:
        """Write the snapshot to the slot. A failure to write (a full disk, a folder gone)
        is said once and play goes on; it never stops the game."""
        slot = self.keeping
        saved = self.snapshot(between_games) if slot is not None else None
        if slot is None or saved is None:
            return
        self.unwritten = saved
        if self.trace:
            self.tell("saving", facts(saved))
        try:
            self.refused = None
            slot.write(saved)
        except (OSError, savegame.SaveError) as exc:
            why = self.note_problem(exc)
            if isinstance(exc, savegame.SaveError):   # not in the slot: never written again
                self.unwritten = None
            if not self.failed:
                self.say(f"the game could not be saved (play goes on): {why}")
                self.unsaid = SAVE_FAILED_WORDS
            self.failed = True
            self.tell("unsaved", {"why": why})
            return
        self.failed, self.problem, self.unwritten = False, None, None
        if self.trace:
            self.tell("saved", facts(saved))

    @property
    def keeping(self) -> savegame.Autosave | None:
        """The slot saves go to; None under the 1983 rules, which keep no save and leave
        a FULL match's save as it is (game/files/rules1983.py)."""
        return None if self.settings.rules_1983 else self.slot

    def take_unsaid(self) -> str | None:
        """The words of a save failure not yet shown on the screen (once), else None."""
        words, self.unsaid = self.unsaid, None
        return words

    def tell(self, kind: str, what: dict) -> None:
        """One line for the --trace, if there is one."""
        if self.trace:
            self.trace(kind, what)

    def save_again(self) -> pathlib.Path | None:
        """The last save written once more (closing the window, SIGTERM, SIGHUP): a state
        taken at a turn's start or step, never a match caught half-way through a change.
        A state whose write a stop signal cut short, or whose write failed, is tried first,
        then the last one written. Returns the path, or None (nothing saved yet, or the
        write failed: kept in `problem` for closing_words to say)."""
        if self.slot is None:
            return None
        if self.unwritten is not None:
            try:
                path = self.slot.write(self.unwritten)
                self.unwritten, self.problem = None, None
                return path
            except (OSError, savegame.SaveError) as exc:
                self.note_problem(exc)
        try:
            return self.slot.write_again()
        except (OSError, savegame.SaveError) as exc:
            self.note_problem(exc)
            return None

    def note_problem(self, exc: OSError | savegame.SaveError) -> str:
        """Why a write failed, kept for closing_words and returned: an OSError in the
        system's words (`problem`), a refusal (the save cannot hold the state) in its own
        (`refused`)."""
        if isinstance(exc, OSError):
            self.problem = os_words(exc)
            return self.problem
        self.refused = str(exc)
        return self.refused

    def close(self) -> str | None:
        """The close (the window, a stop signal): save_again() and the one line that says
        what the next start finds (closing_words). Once: a second call (the stop signal's
        close, then the window's) writes nothing and says nothing."""
        if self.closed:
            return None
        self.closed = True
        return self.closing_words(self.save_again())

    def closing_words(self, path: pathlib.Path | None) -> str | None:
        """What the close says of save_again()'s `path`: the state that file really holds,
        and the latest state when it could not be saved; when nothing could be written,
        why, and what the next start offers instead. None when there was nothing to save
        and nothing went wrong."""
        kept = self.slot.last_saved if self.slot is not None else None
        if path and kept is not None:
            held = f"{short_path(path)} holds {saved_words(kept)}; it is offered at the next start"
            why_not = self.refused or (self.problem if self.unwritten is not None else None)
            if why_not:
                return f"the latest state could not be saved ({why_not}): {held}"
            return f"game saved: {held}"
        why = self.problem or self.refused
        if why is None or self.slot is None:
            return None
        return f"the game could not be saved ({why}); {offered_words(self.slot.path)}"

    def forget(self) -> None:
        """The match is over, or the player started afresh: no save to offer any more."""
        if self.keeping is not None:
            try:
                self.keeping.forget()
            except OSError as exc:
                self.say(f"the old save could not be removed: {os_words(exc)}")


def offered_words(path: PathLike) -> str:
    """What the next start offers from the save at `path` (or its backup), in words: what
    was saved before, or that there is none."""
    for each in (path, savegame.backup_path(path)):
        try:
            saved = savegame.read_save(each)
        except savegame.SaveError:
            continue
        if saved is not None:
            return (f"{short_path(each)} holds {saved_words(saved)}, saved before; it is "
                    f"offered at the next start")
    return "no saved game is offered at the next start"


def save_session(session: Session, path: PathLike | None = None) -> pathlib.Path | None:
    """Save the match in progress (savegame.save_game) as the autosave would; returns the
    path, or None when there is nothing to save."""
    saved = session.snapshot()
    return None if saved is None else savegame.save_game(saved, path)


def facts(saved: savegame.SavedGame) -> dict:
    """What a save says, as gnubg would name it: the side on roll's position ID and the
    match ID (scores, cube, dice), the turn, the dice and the steps typed."""
    m = saved.match
    position = Position.from_id(saved.position_id)
    on_roll = position if saved.turn == m.sides[0] else position.swapped()
    return {"id": f"{on_roll.position_id}:{m.match_id(saved.dice)}", "turn": saved.turn,
            "dice": list(saved.dice) if saved.dice else None, "score": dict(m.score),
            "typed": saved.extra.get("typed", []),
            "between_games": bool(saved.extra.get("between_games"))}


def saved_words(saved: savegame.SavedGame) -> str:
    """A save in a few words: the game, the score, and whose turn or that it is between
    games ("game 4, score 32767-32767, between games")."""
    m = saved.match
    a, b = (m.score[side] for side in m.sides)
    when = ("between games" if saved.extra.get("between_games")
            else f"{m.record.names.get(saved.turn, saved.turn)} to play")
    return f"game {m.game_number}, score {a}-{b}, {when}"


def typed_steps(saved: savegame.SavedGame) -> list[tuple[int, int]]:
    """The steps typed in the saved turn, as (from index, die); [] when they are not
    there or not steps at all (they are replayed only as far as the rules allow)."""
    typed = saved.extra.get("typed", [])
    try:
        list_of(list_of(whole(0, BAR), 2, 2), 0, MAX_TYPED)(typed, "extra.typed")
    except Invalid:
        return []
    if not saved.dice or not all(1 <= die <= 6 for _frm, die in typed):
        return []
    return [(frm, die) for frm, die in typed]
