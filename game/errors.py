"""The project's exception types. Every message is written for the player: str(error) can go
straight onto the message line. Not a place for logic: the modules that detect a problem
raise these; nothing here decides what is legal."""


class BackgammonError(Exception):
    """Base of every error the game reports to a player or to a caller."""


class PositionError(BackgammonError, ValueError):
    """A board that cannot happen: wrong number of men, both colours on a point, a negative
    count, or a position ID that does not decode."""


class PositionIdError(PositionError):
    """A gnubg position ID that is malformed (wrong length, a character outside Base64, too
    many men encoded)."""


class DiceError(BackgammonError, ValueError):
    """Dice that are not two numbers from 1 to 6."""


class EntryError(BackgammonError, ValueError):
    """A typed move that cannot be read: not a point letter a..x (or z for the bar) with a
    die number, such as "K4" or "4K"."""


class MatchError(BackgammonError, ValueError):
    """Something a match does not allow: a double that may not be offered, a bad length or
    score, or MatchTerms that cannot be (game/model/match_terms.py: checked when made, the
    message naming the bad value), which the C engine would refuse too."""


class IllegalMoveError(EntryError):
    """A typed move that can be read but breaks a rule for this roll in this position.
    `code` is the C engine's BG_STEP_* reason (native/bg.h); the message line words it
    from the code (game/words.py), never from this sentence."""

    def __init__(self, message: str, code: int | None = None):
        super().__init__(message)
        self.code = code
