"""Match and money-game state: scores, the doubling cube, the Crawford rule, who starts.
Pure bookkeeping with no board, dice or screen: the game flow asks it what is allowed
and tells it what happened; rules.py decides how a game ends (single/gammon/backgammon)."""
from __future__ import annotations

import base64
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from game.errors import MatchError
from game.model.match_terms import MAX_CUBE, MatchTerms
from game.model.record import MatchRecord, StepLike

HUMAN, COMPUTER = "human", "computer"
WHITE, BLACK = "white", "black"


def sides_for(players: str) -> tuple[str, str]:
    """The match's two sides, the bottom one (who types at the keys) first: you and the
    computer, or White and Black when two people (or the demo's two computers) play."""
    return (HUMAN, COMPUTER) if players == "human-computer" else (WHITE, BLACK)
MAX_LENGTH = 25
MAX_SCORE = (1 << 15) - 1    # a side's score stops here: gnubg's match ID holds 15 bits of it
# A money series stops at the most a save holds (game/files/savegame.py, at most 1 MiB): its
# games, and its record's entries (finished games packed, game/files/packed_games.py: about
# 7 bytes an entry at the most varied, so 120,000 of them, some 2,000 games, leave room for
# the game in progress). The match-over page then offers its export.
MAX_GAMES = 100_000
MAX_RECORD_ENTRIES = 120_000
KINDS = {"single": 1, "gammon": 2, "backgammon": 3}   # a game played out, by its multiple
KIND_NAMES = {points: kind for kind, points in KINDS.items()}
DROP = "drop"                # a game ended by a double dropped
RESIGN = "resign"            # a game ended by a resignation accepted (1, 2 or 3 x the cube)
ENDINGS = (*KINDS, DROP, RESIGN)     # every kind of GameResult


class DoubleRefused(MatchError):
    """A double that may not be offered now (not the owner, Crawford, cube off, rolled)."""


class BadMatchLength(MatchError, ValueError):
    """A match length other than 1..25 or unlimited."""


@dataclass(frozen=True)
class Decision:
    """The answer to "may I?": truthy when allowed, else `reason` says why not."""
    allowed: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.allowed

    # allows `ok, why = match.can_double(side)`: (allowed, reason), a bool then a str, which
    # an Iterator's one item type cannot tell apart, hence Any
    def __iter__(self) -> Iterator[Any]:
        return iter((self.allowed, self.reason))


@dataclass(frozen=True)
class GameResult:
    """How one game ended: who won, how (single/gammon/backgammon/drop), for how much."""
    winner: str
    kind: str
    cube: int
    points: int


@dataclass(frozen=True)
class OpeningThrow:
    """Who plays first. `dice` are the two single dice of the opening throw (the first
    player plays them), or None when the starter was chosen and rolls normally.
    `throws` lists every throw made, ties included, as (first side's die, other's)."""
    first: str
    dice: tuple[int, int] | None
    throws: tuple[tuple[int, int], ...] = ()


def parse_match_length(value: object) -> int | None:
    """1..25 -> that length; None, "", "U" or "unlimited" -> None (money play).
    Anything else (0, 26, "abc", 2.5) raises BadMatchLength with the reason."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip().upper()
        if text in ("", "U", "UNLIMITED", "MONEY", "NONE"):
            return None
        if not text.isdigit():
            raise BadMatchLength(f"Match length must be a number from 1 to {MAX_LENGTH}, "
                                 f"or U for unlimited")
        value = int(text)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadMatchLength(f"Match length must be a number from 1 to {MAX_LENGTH}")
    if not 1 <= value <= MAX_LENGTH:
        raise BadMatchLength(f"Match length must be 1 to {MAX_LENGTH} points (not {value})")
    return value


def opening_throw(who_starts: str, sides: tuple[str, str],
                  roll_die: Callable[[], int]) -> OpeningThrow:
    """Decide who plays first. who_starts is "roll" (each side throws one die, ties throw
    again, the higher plays both numbers) or one of the two sides, which then starts and
    rolls its own dice."""
    if who_starts in sides:
        return OpeningThrow(who_starts, None, ())
    if who_starts != "roll":
        raise MatchError(f"Who starts must be roll, {sides[0]} or {sides[1]}")
    throws = []
    while True:
        a, b = roll_die(), roll_die()
        throws.append((a, b))
        if a != b:
            first = sides[0] if a > b else sides[1]
            dice = (a, b) if a > b else (b, a)
            return OpeningThrow(first, dice, tuple(throws))


class Match:
    """A match to `length` points (1..25) or, with length None, money play: a running
    total across games with no end. Sides are two names, by default human/computer
    (white/black suits two-player mode). The first side named is player 0 in exports."""

    def __init__(self, length: int | str | None = None, *,
                 sides: tuple[str, str] = (HUMAN, COMPUTER),
                 cube: bool = True, names: dict | None = None) -> None:
        self.length: int | None = parse_match_length(length)
        if len(sides) != 2 or sides[0] == sides[1]:
            raise MatchError("A match needs two different sides")
        self.sides: tuple[str, str] = (sides[0], sides[1])
        self.cube_enabled: bool = bool(cube)
        self.score: dict[str, int] = {s: 0 for s in self.sides}
        self.cube_value: int = 1
        self.cube_owner: str | None = None      # None = centred
        self.offered_by: str | None = None      # a double waiting for take/drop
        self.on_roll: str | None = None
        self.rolled: bool = False
        self.game_number: int = 0                  # 1 for the first game once started
        self.in_game: bool = False
        self.crawford_game: bool = False           # this game is the Crawford game
        self.crawford_done: bool = False           # the Crawford game has been reached
        self.results: list[GameResult] = []
        self.record = MatchRecord(length=self.length or 0,
                                  names={s: (names or {}).get(s, s.capitalize())
                                         for s in self.sides},
                                  sides=self.sides)

    # ---- the sides -------------------------------------------------------------------
    def other(self, side: str) -> str:
        self._check_side(side)
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def _check_side(self, side: str) -> None:
        if side not in self.sides:
            raise MatchError(f"No such side: {side!r} (the sides are "
                             f"{self.sides[0]} and {self.sides[1]})")

    # ---- the match as a whole --------------------------------------------------------
    @property
    def is_money(self) -> bool:
        return self.length is None

    @property
    def is_over(self) -> bool:
        if self.length is None:
            return self.series_full
        return max(self.score.values()) >= self.length

    @property
    def series_full(self) -> bool:
        """Money play between games whose record holds the most a save can (MAX_GAMES
        games, or MAX_RECORD_ENTRIES entries): the series is over, as a match is at its
        length."""
        return (self.length is None and not self.in_game
                and (self.game_number >= MAX_GAMES or self.record.entries >= MAX_RECORD_ENTRIES))

    @property
    def winner(self) -> str | None:
        """The match winner once the match is over, else None."""
        if not self.is_over:
            return None
        return max(self.sides, key=lambda s: self.score[s])

    @property
    def post_crawford(self) -> bool:
        return self.crawford_done and not self.crawford_game

    def away(self, side: str) -> int | None:
        """Points `side` still needs to win the match (None in money play)."""
        self._check_side(side)
        if self.length is None:
            return None
        return max(0, self.length - self.score[side])

    def terms(self, side: str) -> MatchTerms:
        """The cube and the score as `side` sees them (the one place they are made from a
        match): what the evaluator ranks `side`'s plays and decides its cube at."""
        owner = 0 if self.cube_owner is None else (1 if self.cube_owner == side else 2)
        if self.length is None:
            return MatchTerms(self.cube_value, owner)
        crawford = 1 if self.crawford_game else (2 if self.post_crawford else 0)
        return MatchTerms(self.cube_value, owner, self.length, self.away(side) or 0,
                          self.away(self.other(side)) or 0, crawford)

    @property
    def score_capped(self) -> bool:
        """A side's (money) score is at MAX_SCORE: the points it wins add no more."""
        return max(self.score.values()) >= MAX_SCORE

    def balance(self, side: str) -> int:
        """Money play: `side`'s running total, won minus lost, across all games."""
        return self.score[side] - self.score[self.other(side)]

    def score_text(self) -> str:
        """One line for the S command, e.g. "Human 2  Computer 1  (match to 3)"."""
        a, b = self.sides
        names = self.record.names
        text = f"{names[a]} {self.score[a]}  {names[b]} {self.score[b]}"
        if self.length is None:
            return text + "  (money play)"
        text += f"  (match to {self.length})"
        if self.crawford_game:
            text += " Crawford game"
        return text

    # ---- games -----------------------------------------------------------------------
    def start_game(self) -> None:
        """Begin the next game: cube back to 1 in the centre; decides the Crawford game."""
        if self.is_over:
            raise MatchError("The match is over")
        if self.in_game:
            raise MatchError("A game is already in progress")
        self.game_number += 1
        self.in_game = True
        self.cube_value, self.cube_owner, self.offered_by = 1, None, None
        self.on_roll, self.rolled = None, False
        self.crawford_game = False
        if self.length is not None and not self.crawford_done:
            at_match_point = [self.score[s] == self.length - 1 for s in self.sides]
            if at_match_point[0] != at_match_point[1]:      # one side only (not 1-point)
                self.crawford_game = True
                self.crawford_done = True
        self.record.start_game(dict(self.score), crawford=self.crawford_game)

    def start_turn(self, side: str) -> None:
        """`side` is now on roll and has not yet rolled (doubling is still possible)."""
        self._check_side(side)
        self.on_roll, self.rolled = side, False

    def dice_rolled(self) -> None:
        """The side on roll has rolled: no more doubling this turn."""
        self.rolled = True

    def record_move(self, side: str, dice: Sequence[int], steps: str | Iterable[StepLike]) -> None:
        """Add a turn's roll and play (steps from rules, in `side`'s point numbers)."""
        self._check_side(side)
        self.record.move(side, dice, steps)

    def points_for(self, kind: str | int) -> int:
        """What a game ended as `kind` (single/gammon/backgammon or 1/2/3) is worth now."""
        if isinstance(kind, str):
            if kind not in KINDS:
                raise MatchError(f"A game ends as single, gammon or backgammon, not {kind!r}")
            mult = KINDS[kind]
        else:
            mult = int(kind)
            if mult not in KIND_NAMES:
                raise MatchError(f"A game is worth 1, 2 or 3 times the cube, not {kind!r}")
        return mult * self.cube_value

    def end_game(self, winner: str, kind: str | int = "single") -> GameResult:
        """The game was played out: `winner` scores 1/2/3 x the cube."""
        self._check_side(winner)
        if not self.in_game:
            raise MatchError("No game is in progress")
        if self.offered_by is not None:
            raise MatchError("A double is waiting for an answer")
        points = self.points_for(kind)
        kind_name = kind if isinstance(kind, str) else KIND_NAMES[int(kind)]
        return self._finish(GameResult(winner, kind_name, self.cube_value, points))

    def _finish(self, result: GameResult) -> GameResult:
        self.score[result.winner] = min(MAX_SCORE, self.score[result.winner] + result.points)
        self.results.append(result)
        self.in_game = False
        self.on_roll, self.rolled = None, False
        self.record.win(result.winner, result.points, result.kind)
        return result

    def resign(self, loser: str, kind: str | int, dice: Sequence[int] | None = None) -> GameResult:
        """`loser` resigned a single, gammon or backgammon (1/2/3) and it was accepted: the
        other side scores that many times the cube. `dice`: the roll in hand, thrown by the
        side on roll and not played, which the record keeps (as GNU Backgammon does)."""
        winner = self.other(loser)
        if not self.in_game:
            raise MatchError("No game is in progress")
        points = self.points_for(kind)
        self.offered_by = None
        if dice is not None and self.rolled and self.on_roll is not None:
            self.record.roll(self.on_roll, dice)
        return self._finish(GameResult(winner, RESIGN, self.cube_value, points))

    # ---- the cube --------------------------------------------------------------------
    def can_double(self, side: str) -> Decision:
        """May `side` offer a double now? Decision(False, reason) says why not: the cube
        switched off, no game, a double waiting, then the cube and the score, which hold for
        the whole game (MatchTerms.double_refused: the Crawford game, the opponent's cube, the
        cube at MAX_CUBE, a dead cube), then not `side`'s turn or already rolled."""
        self._check_side(side)
        if not self.cube_enabled:
            return Decision(False, "The doubling cube is switched off")
        if not self.in_game:
            return Decision(False, "No game is in progress")
        if self.offered_by is not None:
            return Decision(False, "A double is already waiting for an answer")
        # the reasons that hold for the whole game (the cube and the score: the one rule) come
        # before this turn's, so a D after the throw in the Crawford game names the Crawford game
        why = self.terms(side).double_refused()
        if why:
            return Decision(False, why)
        if self.on_roll is not None and side != self.on_roll:
            return Decision(False, "You may only double on your own turn")
        if self.rolled:
            return Decision(False, "You may only double before you roll")
        return Decision(True)

    def double(self, side: str) -> int:
        """`side` offers the cube; returns the value offered. Raises DoubleRefused."""
        decision = self.can_double(side)
        if not decision:
            raise DoubleRefused(decision.reason)
        self.offered_by = side
        self.record.double(side, self.cube_value * 2)
        return self.cube_value * 2

    def take(self) -> int:
        """The receiver accepts: stakes double and the cube goes to the taker."""
        if self.offered_by is None:
            raise MatchError("There is no double to take")
        taker = self.other(self.offered_by)
        self.cube_value *= 2
        self.cube_owner = taker
        self.offered_by = None
        self.record.take(taker)
        return self.cube_value

    def drop(self) -> GameResult:
        """The receiver refuses: the doubler wins the cube value before the double."""
        if self.offered_by is None:
            raise MatchError("There is no double to drop")
        doubler = self.offered_by
        self.offered_by = None
        self.record.drop(self.other(doubler))
        return self._finish(GameResult(doubler, DROP, self.cube_value, self.cube_value))

    # ---- gnubg's match ID ---------------------------------------------------------------
    def match_id(self, dice: Sequence[int] | None = None) -> str:
        """The gnubg match ID (12 characters) of this state: cube, owner, side on roll,
        Crawford, game state, a double waiting, the dice if rolled, length and scores.
        The first side is gnubg's player 0. Paste it beside the position ID into gnubg."""
        fields: list[int] = []

        def put(value: int, width: int) -> None:
            if not 0 <= value < 1 << width:            # never a field's low bits only
                raise MatchError(f"{value} does not fit the match ID's {width} bits")
            fields.extend((value >> i) & 1 for i in range(width))

        index = self.sides.index
        on_roll = index(self.on_roll) if self.on_roll is not None else 0
        if self.in_game:
            state = 1                                  # playing
        elif not self.results:
            state = 0                                  # no game yet
        else:
            state = {DROP: 4, RESIGN: 3}.get(self.results[-1].kind, 2)
        turn = index(self.other(self.offered_by)) if self.offered_by else on_roll
        d1, d2 = (max(dice), min(dice)) if dice else (0, 0)   # gnubg: higher die first
        put(self.cube_value.bit_length() - 1, 4)
        put(3 if self.cube_owner is None else index(self.cube_owner), 2)
        put(on_roll, 1)
        put(int(self.crawford_game), 1)
        put(state, 3)
        put(turn, 1)
        put(int(self.offered_by is not None), 1)
        put(0, 2)                                      # no resignation offered
        put(d1, 3)
        put(d2, 3)
        put(self.length or 0, 15)
        put(self.score[self.sides[0]], 15)
        put(self.score[self.sides[1]], 15)
        fields += [0] * (72 - len(fields))
        key = bytes(sum(fields[8 * i + j] << j for j in range(8)) for i in range(9))
        return base64.b64encode(key).decode("ascii")

    # ---- saving ----------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "length": self.length, "sides": list(self.sides), "cube_enabled": self.cube_enabled,
            "score": dict(self.score), "cube_value": self.cube_value,
            "cube_owner": self.cube_owner, "offered_by": self.offered_by,
            "on_roll": self.on_roll, "rolled": self.rolled,
            "game_number": self.game_number, "in_game": self.in_game,
            "crawford_game": self.crawford_game, "crawford_done": self.crawford_done,
            "results": [r.__dict__ for r in self.results],
            "record": self.record.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict) -> Match:
        """Rebuild a match saved by to_dict(); raises MatchError on inconsistent data."""
        try:
            sides = tuple(data["sides"])
            match = cls(data["length"], sides=sides, cube=bool(data["cube_enabled"]))
            score = {s: int(data["score"][s]) for s in sides}
            if any(v < 0 for v in score.values()):
                raise MatchError("negative score")
            match.score = score
            value = int(data["cube_value"])
            if value < 1 or value > MAX_CUBE or value & (value - 1):
                raise MatchError(f"bad cube value {value}")
            match.cube_value = value
            for key in ("cube_owner", "offered_by", "on_roll"):
                v = data[key]
                if v is not None and v not in sides:
                    raise MatchError(f"bad {key} {v!r}")
                setattr(match, key, v)
            match.rolled = bool(data["rolled"])
            match.game_number = int(data["game_number"])
            match.in_game = bool(data["in_game"])
            match.crawford_game = bool(data["crawford_game"])
            match.crawford_done = bool(data["crawford_done"])
            match.results = [GameResult(**r) for r in data["results"]]
            match.record = MatchRecord.from_dict(data["record"])
        except MatchError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise MatchError(f"damaged match data ({exc.__class__.__name__}: {exc})") from None
        return match
