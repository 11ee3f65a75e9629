"""The evaluator as the game and the tests see it: the trained weights (loaded and checked),
best play and ranked candidates per level, cube decisions and evaluations. Not the USR
block's byte layout (game/zx/usr_layout.py), nor the judgement itself: that is C
(native/src/eval*.c, search.c, cube.c) behind bg.h."""
from __future__ import annotations

import os
import struct
import threading
from collections.abc import Sequence
from dataclasses import astuple, dataclass
from typing import NoReturn

import native
from game.errors import BackgammonError, DiceError, PositionError
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import POSITION_CODES, Position, position_message
from game.model.rules import (
    LazySequence,
    Play,
    Plays,
    c_board,
    check_dice,
    ids_text,
    per_thread,
)
from game.model.search_settings import DEFAULT_SEARCH, SearchSettings
from native import CData, ffi, lib

LEVELS = range(lib.BG_LEVEL_MIN, lib.BG_LEVEL_MAX + 1)
MAX_PLY = lib.BG_JUDGE_MAX_PLY    # the deepest evaluate and judge_plays look: 3 plies
ROLLED_OUT_PLY = lib.BG_PLY_ROLLED_OUT   # a play's "ply" when it was rolled out
WEIGHTS_PATH = os.path.join(os.path.dirname(os.path.abspath(native.__file__)), "evaluator.wts")


class LevelError(BackgammonError, ValueError):
    """A playing level outside 1..5."""


class WeightsError(BackgammonError, RuntimeError):
    """The trained weights file is missing, truncated, of another version or damaged."""


class EvaluatorError(BackgammonError, RuntimeError):
    """Any other refusal of the C evaluator (for example a position that is already over)."""


_WEIGHTS_MESSAGES = {
    lib.BG_ERR_WTS_SIZE: "it has the wrong length (truncated or padded)",
    lib.BG_ERR_WTS_MAGIC: "it is not a Spectrum Backgammon weights file",
    lib.BG_ERR_WTS_VERSION: "it is of another format version or net shape",
    lib.BG_ERR_WTS_CHECKSUM: "its checksum does not match (the file is damaged)",
}
_state: dict[str, str | None] = {"loaded_from": None}


def load_weights(path: str | None = None) -> int:
    """Load and check the weights file (size, version, checksum); returns the number of
    self-play games they were trained on. Raises WeightsError with the reason."""
    path = path or WEIGHTS_PATH
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise WeightsError(f"the evaluator's weights file {path} is missing: reinstall the "
                           f"package or train one with native/tools/train") from None
    except OSError as exc:
        raise WeightsError(f"the evaluator's weights file {path} cannot be read: {exc}") from None
    code = lib.bg_load_weights(ffi.from_buffer("uint8_t[]", data), len(data))
    if code != 0:
        reason = _WEIGHTS_MESSAGES.get(-code, f"error code {-code}")
        raise WeightsError(f"the evaluator's weights file {path} cannot be used: {reason} "
                           f"({len(data)} bytes, expected {lib.bg_weights_expected_size()})")
    _state["loaded_from"] = path
    return lib.bg_weights_games()


_loading = threading.Lock()


def ensure_loaded() -> None:
    """Load the shipped weights once (WeightsError when they are missing or damaged). Threads
    asking at once wait for the first one's load: weights never change under a search."""
    if _state["loaded_from"] is None:
        with _loading:
            if _state["loaded_from"] is None:
                load_weights()


def check_level(level: object) -> int:
    if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
        raise LevelError(f"the level is 1 to 5, not {level!r}")
    return level


def _position(position: Position | str) -> Position:
    if isinstance(position, Position):
        return position
    return Position.from_id(position)


def c_error(code: int, refused: type[BackgammonError] = EvaluatorError, *,
            who: str = "the evaluator", task: str = "the request",
            level: str = "the level is 1 to 5",
            game_over: str = "the game in that position is already over",
            position: type[BackgammonError] = PositionError) -> BackgammonError:
    """The exception for a refusal of the C engine, `code` as its call returned it (a negative
    bg.h code): the one mapping of bg.h's codes, for the evaluator and the rollouts alike.
    `refused` is the type of a refusal of the task itself (a game already over, a code not
    named here); a caller words the task, a bad level and a finished game its own way."""
    code = -code
    if code == lib.BG_BAD_DICE:
        return DiceError("a die shows 1 to 6")
    if code in POSITION_CODES:
        return position(position_message(code))
    if code == lib.BG_ERR_BAD_LEVEL:
        return LevelError(level)
    if code == lib.BG_ERR_NO_WEIGHTS:
        return WeightsError("the evaluator's weights are not loaded")
    if code == lib.BG_ERR_GAME_OVER:
        return refused(game_over)
    if code == lib.BG_ERR_RESOURCES:
        return EvaluatorError(f"no memory or no thread could be had for {task}")
    if code == lib.BG_ERR_BAD_CUBE:
        return refused(f"{who} refused {task}: the cube is impossible (a value of 1, 2, 4 .. "
                       f"{lib.BG_CUBE_MAX}, centred or owned by a side, and 1 and centred in "
                       f"the Crawford game)")
    if code == lib.BG_ERR_BAD_SCORE:
        return refused(f"{who} refused {task}: the score is impossible (a match of 1 to "
                       f"{lib.BG_MET_MAX} points, each side needing 1 to its length, a "
                       f"Crawford state only with a side 1-away)")
    return refused(f"{who} refused {task} (code {code})")


def _raise_for(code: int) -> NoReturn:
    raise c_error(code)


@dataclass(frozen=True)
class Candidate:
    """One legal play as a level judged it: equity is the mover's cubeless equity after the
    play in points per game (level 1: its heuristic score instead); chances the mover's
    Probabilities after it from the same judgement (None: level 1, or not known)."""
    play: Play
    equity: float
    ply: int = 0    # how deeply the level judged it: 0, 1, 2, 3 plies (level 1: -1)
    chances: Probabilities | None = None

    @property
    def position_id(self) -> str:
        return self.play.after.position_id


class _Buffers:
    """The C calls' output, one set per thread (_mine): threads may rank and judge side by
    side (the review does), each reading only what its own calls wrote. A ranking's bg_play
    array and its bg_ranking header, and the cube's answer."""
    __slots__ = ("plays", "ranking", "probs")

    def __init__(self) -> None:
        self.plays = ffi.new("bg_play[]", lib.BG_MAX_PLAYS)
        self.ranking = ffi.new("bg_ranking *")
        self.ranking.plays = self.plays
        self.probs = ffi.new("float[]", lib.BG_CUBE_OUT_LEN)


_mine = per_thread(_Buffers)
# one bg_play as bytes: board, steps, nsteps, ply, equity, the five chances (no padding)
_PLAY = struct.Struct(f"={lib.BG_BOARD_LEN}s{lib.BG_MAX_STEPS * lib.BG_STEP_FIELDS}sbbf"
                      f"{lib.BG_N_PROBS}f")
assert _PLAY.size == ffi.sizeof("bg_play"), "bg_play's layout is the one read here"


class Candidates(LazySequence[Candidate]):
    """ranked_plays' answer: Candidate objects, best first, each made from the engine's
    answer (one bg_play each) only when asked for."""

    __slots__ = ("_plays", "_rows", "work")

    def __init__(self, raw: bytes, work: int = 0):
        self._rows = list(_PLAY.iter_unpack(raw))
        self._plays = Plays(len(self._rows), b"".join(r[0] for r in self._rows),
                            b"".join(r[1] for r in self._rows),
                            bytes(r[2] for r in self._rows))
        self.work = work                   # positions the ranking evaluated at 0-ply

    def __len__(self) -> int:
        return len(self._rows)

    def _item(self, i: int) -> Candidate:
        row = self._rows[i]
        ply = row[3]
        chances = Probabilities(*row[5:]) if ply >= 0 else None   # level 1's heuristic: none
        return Candidate(self._plays[i], row[4], ply, chances)


def _rank(position_id: Position | str, dice: Sequence[int], level: int, limit: int | None,
          terms: MatchTerms,
          search: SearchSettings) -> tuple[int, _Buffers]:
    """bg_rank_plays into this thread's buffers: (the number of plays returned, the
    buffers), or the error raised."""
    level = check_level(level)
    die1, die2 = check_dice(dice)
    board = c_board(position_id)
    if level > 1:
        ensure_loaded()
    want = lib.BG_MAX_PLAYS if limit is None else max(1, min(int(limit), lib.BG_MAX_PLAYS))
    out = _mine()
    out.ranking.max_plays = want
    count = lib.bg_rank_plays(board, die1, die2, level, terms.as_c(), search.as_c(),
                              out.ranking)
    if count < 0:
        _raise_for(count)
    return count, out


def ranked_plays(position_id: Position | str, dice: Sequence[int], level: int,
                 limit: int | None = None,
                 terms: MatchTerms = MONEY,
                 search: SearchSettings = DEFAULT_SEARCH) -> Candidates:
    """The legal plays of the roll, best first, with the level's equities (for ADVICE) and
    the chances each was judged by (Candidate.chances, cubeless, the mover's).
    terms: the mover's (MONEY: money play); in match play the plays are ranked by match
    winning chance and equity is 2*mwc-1 (a match past the table: money, terms.judged).
    search: this call's search settings (levels 4 and 5); the answer's `work` is the
    positions it evaluated."""
    count, out = _rank(position_id, dice, level, limit, terms, search)
    return Candidates(ffi.buffer(out.plays, count * _PLAY.size)[:], out.ranking.work)


def best_play(position_id: Position | str, dice: Sequence[int], level: int,
              terms: MatchTerms = MONEY,
              search: SearchSettings = DEFAULT_SEARCH) -> str:
    """The gnubg position ID after the level's chosen play, the mover still on roll (one of
    game.model.rules.legal_results(position_id, dice)). terms and search as in
    ranked_plays."""
    _, out = _rank(position_id, dice, level, 1, terms, search)
    return ids_text(out.plays[0].board, 1)[:lib.BG_ID_LEN]


@dataclass(frozen=True)
class Probabilities:
    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    def flipped(self) -> Probabilities:
        """The same chances seen from the other side."""
        return Probabilities(1.0 - self.win, self.lose_gammon, self.lose_backgammon,
                             self.win_gammon, self.win_backgammon)

    @property
    def equity(self) -> float:
        """Cubeless money equity for the side on roll, points per game."""
        return (2 * self.win - 1 + self.win_gammon - self.lose_gammon
                + self.win_backgammon - self.lose_backgammon)


def _check_ply(ply: object) -> int:
    if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= MAX_PLY:
        raise ValueError(f"ply is 0 to {MAX_PLY}, not {ply!r}")
    return ply


def evaluate(position_id: Position | str, ply: int = 0,
             search: SearchSettings = DEFAULT_SEARCH) -> Probabilities:
    """The side on roll's chances (before its roll) at ply 0 to MAX_PLY (3: as level 5's
    3-ply pass judges, a second or so; search: its cache switch)."""
    _check_ply(ply)
    position = _position(position_id)
    ensure_loaded()
    out = ffi.new("float[]", lib.BG_N_PROBS)
    code = lib.bg_evaluate(position.as_c(), ply, search.as_c(), out)
    if code < 0:
        _raise_for(code)
    return Probabilities(*ffi.unpack(out, lib.BG_N_PROBS))


def judge_plays(afters: Sequence, ply: int, terms: MatchTerms = MONEY,
                search: SearchSettings = DEFAULT_SEARCH) -> list[tuple]:
    """The plays reaching `afters` (Positions or IDs, each the result of a play, its mover
    still on roll) judged at `ply` 0..MAX_PLY as a ranking judges a candidate at that depth
    (3: as level 5's 3-ply pass), by the mover at `terms` as ranked_plays scores them (search:
    its cache switch): a list of (equity: cubeless money, or 2*mwc-1; the mover's
    Probabilities), one a play. The review checks an error with it
    (game/analysis/checking.py)."""
    _check_ply(ply)
    boards = [_position(a) for a in afters]
    if not boards:
        return []
    ensure_loaded()
    n = len(boards)
    c_boards = ffi.new("int8_t[]", [c for b in boards for c in b.board])
    probs, equity = ffi.new("float[]", n * lib.BG_N_PROBS), ffi.new("float[]", n)
    code = lib.bg_judge_plays(c_boards, n, ply, terms.as_c(), search.as_c(), probs, equity)
    if code < 0:
        _raise_for(code)
    k = lib.BG_N_PROBS
    return [(float(equity[i]), Probabilities(*probs[k * i:k * i + k])) for i in range(n)]


def _check_miss_ply(ply: object) -> None:
    """The plies of a search for the cube formula's miss: 0 (none) to bg.h's most."""
    if not isinstance(ply, int) or isinstance(ply, bool) or not (
            0 <= ply <= lib.BG_CUBE_MISS_MAX_PLY):
        raise ValueError(f"the cube formula's miss is searched 0 to "
                         f"{lib.BG_CUBE_MISS_MAX_PLY} plies deep, not {ply!r}")


def cubeful_plays(afters: Sequence, chances: Sequence[Probabilities],
                  terms: MatchTerms = MONEY, ply: int = 0) -> list[float]:
    """The cubeful value of each play reaching `afters` (Positions or IDs, the mover still on
    roll) for its mover at `terms`, from the mover's cubeless `chances` after it (any
    judgement's): the opponent, then on roll, weighs its cube by the live/dead cube formula
    at its position's efficiency (bg.h bg_cubeful_plays), as GNU Backgammon values a play
    with the cube in play; with `ply` 1 or 2, the formula's miss found by searching the
    opponent's cube that deep is added. Money points with the cube included, or 2*mwc-1."""
    _check_miss_ply(ply)
    boards = [_position(a) for a in afters]
    if len(boards) != len(chances):
        raise ValueError(f"{len(boards)} plays and {len(chances)} chances")
    if not boards:
        return []
    n = len(boards)
    c_boards = ffi.new("int8_t[]", [c for b in boards for c in b.board])
    c_probs = ffi.new("float[]", [x for p in chances for x in astuple(p)])
    out = ffi.new("float[]", n)
    code = lib.bg_cubeful_plays(c_boards, n, c_probs, terms.as_c(), ply, out)
    if code == -lib.BG_ERR_BAD_ARG:
        raise EvaluatorError("the evaluator refused cubeful values of impossible chances "
                             "(each 0 to 1, the gammons within the wins, the backgammons "
                             "within the gammons)")
    if code < 0:
        _raise_for(code)
    return [float(out[i]) for i in range(n)]


def cube_misses(afters: Sequence, terms: MatchTerms = MONEY, ply: int = 0) -> list[float]:
    """What `ply` (1 or 2) adds to each play's cubeful_plays value at 0 plies: the cube
    formula's miss after the play, found by searching the opponent's cube that deep (0 at
    ply 0, or where the play ends the game). It depends on the play and the mover's `terms`,
    not on the chances, so one search serves every judgement of the play: cubeful_plays at
    `ply` is, to the bit, its value at 0 plus this, added in float32 (bg.h bg_cube_misses)."""
    _check_miss_ply(ply)
    boards = [_position(a) for a in afters]
    if not boards:
        return []
    n = len(boards)
    out = ffi.new("float[]", n)
    code = lib.bg_cube_misses(ffi.new("int8_t[]", [c for b in boards for c in b.board]), n,
                              terms.as_c(), ply, out)
    if code < 0:
        _raise_for(code)
    return [float(out[i]) for i in range(n)]


@dataclass(frozen=True)
class CubeDecision:
    """The side on roll's doubling decision and the opponent's proper answer. Equities are
    for the side on roll: money points (cube included), or 2*mwc-1 in match play."""
    double: bool
    take: bool
    too_good: bool
    no_double_equity: float
    double_take_equity: float
    double_pass_equity: float
    win: float
    win_gammon: float
    lose_gammon: float


def _cube_answer(bits: int, out: CData) -> CubeDecision:
    if bits < 0:
        _raise_for(bits)
    return CubeDecision(bool(bits & lib.BG_CUBE_DOUBLE), bool(bits & lib.BG_CUBE_TAKE),
                        bool(bits & lib.BG_CUBE_TOO_GOOD), *(float(out[i]) for i in range(6)))


def cube_decision(position_id: Position | str, level: int = 5, terms: MatchTerms = MONEY,
                  search: SearchSettings = DEFAULT_SEARCH) -> CubeDecision:
    """Double/no double for the side on roll and take/pass for its opponent, at the side on
    roll's terms (the cube and the score as it sees them; MONEY: money play, centred cube
    of 1; a match past the table: money, terms.judged)."""
    level = check_level(level)
    position = _position(position_id)
    ensure_loaded()
    out = _mine().probs
    return _cube_answer(lib.bg_cube_decision(position.as_c(), level, terms.as_c(), search.as_c(),
                                            out), out)


def cube_decision_for(chances: Probabilities | Sequence[float],
                      terms: MatchTerms = MONEY,
                      position: Position | str | None = None, ply: int = 0) -> CubeDecision:
    """The same decision from given chances (win, win gammon, win backgammon, lose gammon,
    lose backgammon for the side on roll) instead of a position's own: the cube theory
    alone; with `position`, at that position's cube efficiency (by its class, as levels 1-3
    weigh their own chances), e.g. for a rollout's mean chances, and with `ply` 1 or 2 the
    formula's miss found by searching the position that deep added (bg.h
    bg_cube_from_probs_at)."""
    _check_miss_ply(ply)
    if ply and position is None:
        raise ValueError("the formula's miss is searched in a position: give it")
    if isinstance(chances, Probabilities):
        chances = (chances.win, chances.win_gammon, chances.win_backgammon,
                   chances.lose_gammon, chances.lose_backgammon)
    try:
        chances = tuple(chances)
    except TypeError:
        raise ValueError(f"chances are {lib.BG_N_PROBS} numbers, not {chances!r}") from None
    if len(chances) != lib.BG_N_PROBS or not all(
            isinstance(c, (int, float)) and not isinstance(c, bool) for c in chances):
        raise ValueError(f"chances are {lib.BG_N_PROBS} numbers, not {chances!r}")
    win, win_g, win_bg, lose_g, lose_bg = chances
    if not (all(0.0 <= c <= 1.0 for c in chances) and win_bg <= win_g <= win + 1e-6
            and lose_bg <= lose_g <= 1.0 - win + 1e-6):
        raise ValueError(f"chances must lie in 0..1 with gammons within the wins or losses "
                         f"and backgammons within the gammons: {chances!r}")
    out = ffi.new("float[]", lib.BG_CUBE_OUT_LEN)
    probs = ffi.new("float[]", [float(c) for c in chances])
    if position is None:
        bits = lib.bg_cube_from_probs(probs, terms.as_c(), out)
    else:
        bits = lib.bg_cube_from_probs_at(_position(position).as_c(), probs, terms.as_c(), ply,
                                         out)
    return _cube_answer(bits, out)


def match_equity_table() -> list[list[float]]:
    """met[i-1][j-1] = chance to win the match needing i points against one needing j."""
    n = lib.BG_MET_MAX
    out = ffi.new("float[]", n * n)
    lib.bg_met_table(out)
    return [[float(out[i * n + j]) for j in range(n)] for i in range(n)]
