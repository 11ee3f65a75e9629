"""Reading GNU Backgammon's .sgf match files (SGF FF[4], backgammon GM[6]; ours from sgf.py
too) into the raw games imports.py checks: one game tree a game, its root
naming the match (MI length, game, ws, bs), the players (PW, PB), the rules (RU Crawford,
CrawfordGame) and the result (RE W+2, B+4R for a resignation, W+R without its points); then a
node per roll and play (W[52mhxv]: the dice and pairs of point letters, a = White's 1-point, y
the bar, z off), per double, take and drop, a roll not played (PL[B]DI[21]: the turn resigned
with it), and setup nodes (AE, AW, AB, PL). Only the main line of a tree is
read (the first variation at each branch); analysis properties are skipped. Reading only:
writing is sgf.py's, legality imports.py's."""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import NoReturn

from game.errors import BackgammonError
from game.matchfiles.rawmatch import (
    FileProblem,
    RawAction,
    RawGame,
    RawMatch,
    RawResult,
    check_length,
    junk_at,
    junk_problem,
)
from game.model.position import BAR, ROW_LEN, Position
from game.model.record import format_step
from spectrum.quoting import quoted

_SPACE = re.compile(r"\s*")
_IDENT = re.compile(r"[A-Za-z]+")
_VALUE = re.compile(r"\[([^\]\\]*(?:\\.[^\]\\]*)*)\]", re.S)
_ESCAPE = re.compile(r"\\(\r\n|\n\r|.)", re.S)
_ROLL = re.compile(r"([1-6])([1-6])((?:[a-z][a-z]){0,4})")
_RESULT = re.compile(r"([WB])\+(\d{0,6})(R|Resign)?(?:T|Time|F|Forfeit)?", re.I)
_NUMBER = re.compile(r"\d{1,6}")


def _after_space(text: str, pos: int) -> int:
    """The first position from pos on that is not white space (_SPACE always matches)."""
    space = _SPACE.match(text, pos)
    return space.end() if space else pos
CUBE_WORDS = ("double", "take", "drop")
SETUP = ("AE", "AW", "AB")
VARIANTS = ("nackgammon", "hypergammon")


@dataclass
class Tree:
    """A game tree's main line: (line, {property: [values]}) per node."""
    line: int
    nodes: list = field(default_factory=list)


def read_sgf(text: str) -> RawMatch:
    """The games of SGF text, as far as they can be read (RawMatch.problem: where not). Binary
    junk ends the text: the game trees closed before it are read."""
    problem = junk_problem(text)
    if problem is None:
        trees, problem = parse_collection(text)
    else:
        trees, _ = parse_collection(text[:text.rfind("\n", 0, junk_at(text)) + 1])
    match = RawMatch()
    try:
        for index, tree in enumerate(trees):
            match.games.append(read_game(tree, match, index))
    except FileProblem as exc:
        problem = exc
    match.problem = problem
    return match


# ---- the SGF syntax ---------------------------------------------------------------------

class _Scanner:
    """Walks the text token by token, keeping the main line of each game tree."""

    def __init__(self, text: str):
        self.text, self.pos = text, 0
        self.newlines = [m.start() for m in re.finditer("\n", text)]
        self.trees: list[Tree] = []
        self.tree = Tree(0)              # the game tree being read (each game's '(' starts one)
        self.frames: list[list[bool]] = []   # per open "(": [on the main line, has a subtree]
        self.strays = 0                  # stray '(' before a game not yet closed

    def line_at(self, pos: int) -> int:
        return bisect.bisect_right(self.newlines, pos - 1) + 1

    def fail(self, what: str, pos: int | None = None) -> NoReturn:
        raise FileProblem(self.line_at(self.pos if pos is None else pos), what)

    def run(self) -> None:
        text = self.text
        while True:
            self.pos = _after_space(text, self.pos)
            if self.pos >= len(text):
                break
            char = text[self.pos]
            if char == "(":
                self._open()
            elif char == ")":
                self._close()
            elif char == ";" and self.frames:
                self._node()
            else:
                self.fail(f"expected '(' , ')' or ';', found "
                          f"{quoted(text[self.pos:self.pos + 40])}")
        if self.frames:
            self.fail(f"the file ends before game {len(self.trees) + 1} is closed with ')'")

    def _open(self) -> None:
        if not self.frames and self.text.startswith("(", _after_space(self.text, self.pos + 1)):
            self.strays += 1             # "((;...": a stray '(' before a game, passed over
            self.pos += 1                # as gnubg passes it (every game still loads)
            return
        if not self.frames:
            self.tree = Tree(self.line_at(self.pos))
            self.frames.append([True, False])
        else:
            parent = self.frames[-1]
            self.frames.append([parent[0] and not parent[1], False])
            parent[1] = True
        self.pos += 1

    def _close(self) -> None:
        if not self.frames and self.strays:
            self.strays -= 1             # the ')' of a stray '(' (a wrapper round the games)
            self.pos += 1
            return
        if not self.frames:
            self.fail("a ')' closes no game")
        self.frames.pop()
        self.pos += 1
        if not self.frames:
            if not self.tree.nodes:
                self.fail("an empty game tree")
            self.trees.append(self.tree)

    def _node(self) -> None:
        if self.frames[-1][1]:
            self.fail("a node after a variation")
        line = self.line_at(self.pos)
        self.pos += 1
        props: dict[str, list[str]] = {}
        while True:
            self.pos = _after_space(self.text, self.pos)
            ident = _IDENT.match(self.text, self.pos)
            if not ident:
                break
            name = "".join(ch for ch in ident.group() if ch.isupper())
            self.pos = ident.end()
            props.setdefault(name, []).extend(self._values(name))
        if self.frames[-1][0]:
            self.tree.nodes.append((line, props))

    def _values(self, name: str) -> list:
        values = []
        while True:
            self.pos = _after_space(self.text, self.pos)
            value = _VALUE.match(self.text, self.pos)
            if not value:
                break
            values.append(_ESCAPE.sub(_unescape, value.group(1)))
            self.pos = value.end()
        if self.text.startswith("[", self.pos):          # a '[' that no ']' closes
            self.fail(f"the file ends inside a value of {name} (cut short?)")
        if values:
            return values
        self.fail(f"the property {name} has no value")


def _unescape(escape: re.Match) -> str:
    char = escape.group(1)
    return "" if char in ("\n", "\r\n", "\n\r") else char       # a soft line break


def parse_collection(text: str) -> tuple[list[Tree], FileProblem | None]:
    """(the game trees read, the FileProblem that stopped the reading or None)."""
    scanner = _Scanner(text)
    try:
        scanner.run()
    except FileProblem as exc:
        return scanner.trees, exc
    if not scanner.trees:
        return [], FileProblem(1, "no game in the file")
    return scanner.trees, None


# ---- a game tree as a game ---------------------------------------------------------------

def read_game(tree: Tree, match: RawMatch, index: int) -> RawGame:
    line, root = tree.nodes[0]
    game_type = root.get("GM", ["1"])[0].strip()
    if game_type != "6":
        raise FileProblem(line, f"GM {quoted(game_type)}: not a backgammon game "
                                f"(backgammon is GM[6])")
    info = _match_info(root, line)
    length = check_length(info.get("length", 0), line)
    if index == 0:
        match.length = length
    elif length != match.length:
        raise FileProblem(line, f"a {length}-point game in a {match.length}-point match")
    game = RawGame(line, info["game"] + 1 if "game" in info else None,
                   (_name(root, "PW", "White"), _name(root, "PB", "Black")),
                   (info.get("ws", 0), info.get("bs", 0)), _crawford(root, line, length),
                   last_line=tree.nodes[-1][0])
    game.result = _result(root, line)
    _read_nodes(tree, game)
    return game


def _match_info(root: dict, line: int) -> dict:
    """MI's numbers: length, game, ws, bs (other tags ignored, as the standard asks)."""
    info = {}
    for value in root.get("MI", []):
        tag, _, number = value.partition(":")
        tag = tag.strip().lower()
        if tag in ("length", "game", "ws", "bs"):
            if not _NUMBER.fullmatch(number.strip()):
                raise FileProblem(line, f"MI {quoted(value)}: not a number")
            info[tag] = int(number)
    return info


def _name(root: dict, prop: str, default: str) -> str:
    words = " ".join(root.get(prop, [""])[0].split())
    return words or default


def _crawford(root: dict, line: int, length: int) -> bool:
    """RU: Crawford (the rule is on) and CrawfordGame (this is the Crawford game)."""
    words = {w.strip().lower() for value in root.get("RU", []) for w in value.split(":")}
    for word in words:
        if word.startswith(VARIANTS):
            raise FileProblem(line, f"a game of {word}: only backgammon can be reviewed")
    return bool(length) and "crawfordgame" in words


def _result(root: dict, line: int) -> RawResult | None:
    """RE[W+2] / RE[B+4R] (R or Resign: the loser resigned); RE[W+R], RE[W+Resign] name the
    winner of a resignation without its points, RE[W+T] / RE[W+F] (time, forfeit) the winner
    alone (points None: the board or the next game's score says how many). RE[Void], RE[?],
    RE[0], RE[] and any other text give no result: the game is read as not over, as gnubg
    reads it, and the games after it are still read."""
    for value in root.get("RE", []):
        result = _RESULT.fullmatch(value.strip())
        if result:
            player = "WB".index(result.group(1).upper())
            points = int(result.group(2)) if result.group(2) else None
            return RawResult(line, player, points, bool(result.group(3)))
    return None


def _read_nodes(tree: Tree, game: RawGame) -> None:
    """The setup before the first entry, then one entry a node."""
    for line, props in tree.nodes:
        movers = [p for p in ("W", "B") if p in props]
        if any(p in props for p in SETUP):
            if game.actions:
                raise FileProblem(line, "a board set up in the middle of a game")
            game.setup = _setup(game.setup, props, line)
        if "CV" in props and props["CV"][0].strip() not in ("", "1"):
            raise FileProblem(line, f"the cube on {quoted(props['CV'][0])} at the start: "
                                    f"the review starts with the cube on 1")
        if len(movers) > 1 or (movers and len(props[movers[0]]) > 1):
            raise FileProblem(line, "two moves in one node")
        if movers:
            player = "WB".index(movers[0])
            game.actions.append(_entry(props[movers[0]][0], player, line))
        elif "DI" in props:
            game.actions.append(_roll(props, game, line))


def _roll(props: dict, game: RawGame, line: int) -> RawAction:
    """PL[B]DI[21]: dice thrown and not played (gnubg's node for a turn resigned with the
    roll in hand). Without PL, the side after the last move (or the doubler after a take)."""
    dice = props["DI"][0].strip()
    if not re.fullmatch("[1-6][1-6]", dice):
        raise FileProblem(line, f"cannot read the dice {quoted(props['DI'][0])}")
    if "PL" in props and props["PL"][0].strip().upper() in ("W", "B"):
        player = "WB".index(props["PL"][0].strip().upper())
    elif game.actions and game.actions[-1].kind in ("move", "take"):
        player = 1 - game.actions[-1].player
    else:
        raise FileProblem(line, "dice (DI) with no side on roll (PL)")
    return RawAction(line, player, "roll", (int(dice[0]), int(dice[1])))


def _entry(value: str, player: int, line: int) -> RawAction:
    word = value.strip().lower()
    if word in CUBE_WORDS:
        return RawAction(line, player, word)
    roll = _ROLL.fullmatch(value.strip())
    if not roll:
        raise FileProblem(line, f"cannot read the move {quoted(value)}")
    letters = roll.group(3)
    words = [_point_word(letters[i], player) + "/" + _point_word(letters[i + 1], player)
             for i in range(0, len(letters), 2)]
    try:
        play = " ".join(format_step(step) for step in words)
    except BackgammonError as exc:
        raise FileProblem(line, f"{quoted(value)}: {exc}") from None
    return RawAction(line, player, "move", (int(roll.group(1)), int(roll.group(2))), play)


def _point_word(letter: str, player: int) -> str:
    """A point letter as the mover's point number (White counts from a, Black from x)."""
    if letter == "y":
        return "bar"
    if letter == "z":
        return "off"
    index = ord(letter) - ord("a")
    return str(index + 1 if player == 0 else 24 - index)


def _letters(values: list, line: int) -> list:
    """A setup property's points, ranges ("a:f") spread out, a letter once a man."""
    out = []
    for value in values:
        first, _, last = value.strip().partition(":")
        last = last or first
        if not (re.fullmatch("[a-y]", first) and re.fullmatch("[a-y]", last)) or last < first:
            raise FileProblem(line, f"cannot read the point {quoted(value)}")
        out += [chr(c) for c in range(ord(first), ord(last) + 1)]
    return out


def _setup(before: Position | None, props: dict, line: int) -> Position:
    """AE clears points, AW and AB put a man each (White's row then Black's, each from its
    own side); the result with White on roll. A board that cannot occur is refused."""
    start = before or Position.start()
    white, black = list(start.mover), list(start.opponent)
    for letter in _letters(props.get("AE", []), line):
        index = ord(letter) - ord("a")
        white[index] = 0
        black[BAR if index == BAR else 23 - index] = 0
    for prop, row in (("AW", white), ("AB", black)):
        for letter in _letters(props.get(prop, []), line):
            index = ord(letter) - ord("a")
            row[index if index == BAR or row is white else 23 - index] += 1
    try:
        return Position(tuple(white[:ROW_LEN] + black[:ROW_LEN]))
    except BackgammonError as exc:
        raise FileProblem(line, f"a position that cannot occur: {exc}") from None
