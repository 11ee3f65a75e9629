"""The record of a match or money session: each game's starting scores, every roll and
play in standard point numbers ("24/18 13/11*", "bar/22", "6/off"), doubles, takes, drops
and results. Plain data; it neither checks legality (rules.py) nor writes files (matfile.py)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from game.errors import BackgammonError
from game.model.position import ID_FORM
from game.model.rules import Step
from spectrum.quoting import quoted

# A step as format_step takes it: "13/8*", (13, 8) or (13, 8, hit) in standard numbers, a Step
StepLike = str | Step | Sequence[int | str]

BAR, OFF = 25, 0            # standard numbering from the mover's side: 25 = bar, 0 = off


class RecordError(BackgammonError, ValueError):
    """A record entry that cannot be right (a die of 7, a step to point 30, ...)."""


def format_point(point: int | str) -> str:
    """25 or "bar" -> "bar"; 0 or "off" -> "off"; 1..24 -> "1".."24"."""
    if isinstance(point, str):
        word = point.strip().lower()
        if word in ("bar", "off"):
            return word
        if not word.isdigit():
            raise RecordError(f"not a point: {quoted(point)}")
        point = int(word)
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    if not 1 <= point <= 24:
        raise RecordError(f"not a point: {point!r}")
    return str(point)


def format_step(step: StepLike) -> str:
    """One step as "from/to" with "*" when it hits. Accepts "13/8*", (13, 8), (13, 8, hit)
    in standard numbers from the mover's side (25 = bar, 0 = off), or a game.model.rules Step."""
    if isinstance(step, Step):           # row indices 0..23, bar 24, off -1
        step = (BAR if step.from_index == 24 else step.from_index + 1,
                OFF if step.to_index == -1 else step.to_index + 1, step.hit)
    frm: int | str       # the step's ends: numbers, or words ("bar", "off") when typed
    to: int | str
    if isinstance(step, str):
        text = step.strip().lower()
        hit = text.endswith("*")
        parts = text.rstrip("*").split("/")
        if len(parts) != 2:
            raise RecordError(f"a step is from/to, not {quoted(step)}")
        frm, to = parts
    else:
        if len(step) not in (2, 3):
            raise RecordError(f"a step is (from, to[, hit]), not {step!r}")
        frm, to = step[0], step[1]
        hit = bool(step[2]) if len(step) == 3 else False
    a, b = format_point(frm), format_point(to)
    if a == "off" or b == "bar":
        raise RecordError(f"a step cannot start off the board or end on the bar: {step!r}")
    return f"{a}/{b}{'*' if hit else ''}"


def format_play(steps: Iterable[StepLike]) -> str:
    """Steps -> "24/18 18/14*"; an empty play (no legal move) -> ""."""
    return " ".join(format_step(s) for s in steps)


def parse_play(text: str) -> list[str]:
    """"24/18 13/11*" -> ["24/18", "13/11*"] (each checked and normalised)."""
    return [format_step(tok) for tok in text.split()]


def _dice(dice: Iterable[int]) -> tuple[int, int]:
    try:
        a, b = (int(d) for d in dice)
    except (TypeError, ValueError):
        raise RecordError(f"dice are two numbers, not {dice!r}") from None
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise RecordError(f"dice are 1 to 6, not {dice!r}")
    return a, b


ACTIONS = ("move", "roll", "double", "take", "drop", "win")     # the kinds of an Action


@dataclass
class Action:
    """One entry of a game: kind is one of ACTIONS, "move", "roll", "double", "take", "drop",
    "win". move: dice and play; roll: dice thrown but never played (the game ended on them,
    by a resignation); double: value (the cube offered); win: points and how."""
    kind: str
    side: str
    dice: tuple[int, int] | None = None
    play: str = ""
    value: int = 0

    def to_dict(self) -> dict:
        return {"kind": self.kind, "side": self.side,
                "dice": list(self.dice) if self.dice else None,
                "play": self.play, "value": self.value}

    @classmethod
    def from_dict(cls, d: dict) -> Action:
        kind = d["kind"]
        if kind not in ACTIONS:
            raise RecordError(f"unknown action {kind!r}")
        dice = _dice(d["dice"]) if d.get("dice") is not None else None
        if dice is None and kind in ("move", "roll"):
            raise RecordError(f"a {kind} has its dice, not none")
        play = " ".join(parse_play(d.get("play", "")))     # a play from outside: steps only
        return cls(kind, str(d["side"]), dice, play, int(d.get("value", 0)))


@dataclass
class GameRecord:
    """One game: number (1-based), the scores when it began, its actions in order. `start`:
    the gnubg position ID it began from, the first mover on roll (None: the usual start)."""
    number: int
    scores: dict
    crawford: bool = False
    actions: list = field(default_factory=list)
    winner: str | None = None
    points: int = 0
    how: str = ""          # single / gammon / backgammon / drop / resign
    start: str | None = None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def to_dict(self) -> dict:
        return {"number": self.number, "scores": dict(self.scores), "crawford": self.crawford,
                "actions": [a.to_dict() for a in self.actions], "winner": self.winner,
                "points": self.points, "how": self.how,
                **({"start": self.start} if self.start else {})}

    @classmethod
    def from_dict(cls, d: dict) -> GameRecord:
        start = d.get("start")
        if start is not None and (not isinstance(start, str) or not ID_FORM.fullmatch(start)):
            raise RecordError(f"a game's start is a position ID, not {quoted(start)}")
        return cls(int(d["number"]), {str(k): int(v) for k, v in d["scores"].items()},
                   bool(d.get("crawford", False)),
                   [Action.from_dict(a) for a in d["actions"]],
                   d.get("winner"), int(d.get("points", 0)), str(d.get("how", "")), start)


class MatchRecord:
    """Every game of a match (length 1..25) or money session (length 0). `sides` gives
    the order of the players (the first is the left column of a .mat file) and `names`
    what to call them there."""

    def __init__(self, length: int = 0, names: dict | None = None,
                 sides: tuple = ("human", "computer")):
        self.length = int(length)
        self.sides = tuple(sides)
        self.names = dict(names or {s: s.capitalize() for s in self.sides})
        self.games: list[GameRecord] = []

    @property
    def entries(self) -> int:
        """How many entries (moves, doubles, takes, drops, wins) the games hold."""
        return sum(len(game.actions) for game in self.games)

    @property
    def current(self) -> GameRecord:
        if not self.games or self.games[-1].finished:
            raise RecordError("no game in progress")
        return self.games[-1]

    def _side(self, side: str) -> str:
        if side not in self.sides:
            raise RecordError(f"no such side {side!r}")
        return side

    def start_game(self, scores: dict, crawford: bool = False,
                   start: str | None = None) -> GameRecord:
        """A new game; `start` the position ID it begins from (None: the usual start)."""
        game = GameRecord(len(self.games) + 1, {s: int(scores[s]) for s in self.sides},
                          crawford, start=start)
        self.games.append(game)
        return game

    def begin_from(self, position_id: str) -> None:
        """The current game began from a set-up board: its position ID with the first mover
        on roll (known once the opening throw is over, after start_game)."""
        self.current.start = position_id

    def move(self, side: str, dice: Iterable[int], steps: str | Iterable[StepLike]) -> None:
        """A turn: the roll and its play (steps, or a play string; empty = no move)."""
        play = parse_play(steps) if isinstance(steps, str) else [format_step(s) for s in steps]
        self.current.actions.append(Action("move", self._side(side), _dice(dice),
                                           " ".join(play)))

    def roll(self, side: str, dice: Iterable[int]) -> None:
        """Dice thrown and not played: the game ends on them (a resignation with the roll in
        hand, which GNU Backgammon's files keep as the roll alone)."""
        self.current.actions.append(Action("roll", self._side(side), _dice(dice)))

    def double(self, side: str, value: int) -> None:
        self.current.actions.append(Action("double", self._side(side), value=int(value)))

    def take(self, side: str) -> None:
        self.current.actions.append(Action("take", self._side(side)))

    def drop(self, side: str) -> None:
        self.current.actions.append(Action("drop", self._side(side)))

    def win(self, side: str, points: int, how: str = "single") -> None:
        game = self.current
        game.actions.append(Action("win", self._side(side), value=int(points)))
        game.winner, game.points, game.how = side, int(points), how

    def to_dict(self) -> dict:
        return {"length": self.length, "sides": list(self.sides), "names": dict(self.names),
                "games": [g.to_dict() for g in self.games]}

    @classmethod
    def from_dict(cls, d: dict) -> MatchRecord:
        rec = cls(int(d["length"]), {str(k): str(v) for k, v in d["names"].items()},
                  tuple(d["sides"]))
        if len(rec.sides) != 2 or any(s not in rec.names for s in rec.sides):
            raise RecordError("a record needs two named sides")
        rec.games = [GameRecord.from_dict(g) for g in d["games"]]
        return rec
