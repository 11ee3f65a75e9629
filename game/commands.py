"""Small pure helpers behind the commands typed at "Your move?": the pip count (P), the gnubg
position and match IDs (I), the ranked advice (A), the cube advice (A at a cube question) and
a one-line score (S), the version and the weights' checksum (V), each as text that fits the
32-column screen. No drawing, no keys: the scenes (game/scenes/keys.py) show what these return."""
from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from game import __version__
from game.analysis.cube_judgement import cube_verdict, in_emg
from game.analysis.verdicts import Choice
from game.board.lines import fit, wrap
from game.chances import Chances, chances_header, chances_line, chances_note
from game.errors import BackgammonError
from game.model import evaluator
from game.model.match import Match
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import Position
from game.model.rules import Play
from game.words import DEFAULT_NAMES, DEFAULT_WORDS, SIDE_WORDS, play_words

# a play the advice lists: a ranked Candidate, a review's Choice, or a (play, equity) pair
Listed = evaluator.Candidate | Choice | tuple[Play | str, float]

ADVICE_LEVEL = 5                 # advice always comes from the strongest level
ADVICE_COUNT = 5                 # the best play and the next four
NOTATION_WIDTH = 11              # "m4 i4 k4 f4"


def pip_count_text(position: Position, names: Sequence[str] = DEFAULT_WORDS) -> str:
    """The P command's line: "Pips: you 167  me 167". names[0] is the side on roll in
    `position` (the human at "Your move?"), names[1] the other ("White"/"Black" for two
    players)."""
    mover, other = position.pips()
    return fit(f"Pips: {names[0]} {mover}  {names[1]} {other}")


def position_id_text(position: Position, match: Match | None = None,
                     dice: tuple[int, int] | None = None) -> str:
    """The I command's line. Without a match: "Position ID 4HPwATDgc/ABMA". With one (a
    game.match.Match, the side on roll of `position` being its on-roll side): gnubg's
    combined ID "ID 4HPwATDgc/ABMA:cAkAAAAAAAAA" (position:match, the dice if thrown), which
    gnubg's "set gnubgid" reads back."""
    pid = position.position_id
    if match is None:
        return f"Position ID {pid}"
    return f"ID {pid}:{match.match_id(dice)}"


def play_text(play: str | Play | None, mover_is_human: bool = True) -> str:
    """A play in the letter notation the game prints ("h3 f1", "z4 x6"): a rules.Play, an
    evaluator.Candidate's play, or a string already written; "no move" for a forfeit."""
    if isinstance(play, str):
        return play or "no move"
    if play is None or not play.steps:
        return "no move"
    return play_words(play.steps, mover_is_human)


def version_text() -> str:
    """V: the program's version and the checksum of the evaluator's weights (the FNV-1a
    sum stored at the end of the file, which the C side checks on loading)."""
    try:
        evaluator.ensure_loaded()
        with open(evaluator.WEIGHTS_PATH, "rb") as weights:
            weights.seek(-4, os.SEEK_END)
            checksum = int.from_bytes(weights.read(4), "little")
    except (BackgammonError, OSError) as exc:
        return fit(f"Version {__version__}: {exc}")
    return f"Version {__version__}, weights {checksum:08x}"


def _triples(candidates: Iterable[Listed]
             ) -> list[tuple[Play | str, float, int | None, Chances | None]]:
    """(play, equity, ply, chances) of each candidate: an evaluator.Candidate (or a review
    Choice), or a (play, equity) pair whose ply and chances are not known."""
    out: list[tuple[Play | str, float, int | None, Chances | None]] = []
    for item in candidates:
        if isinstance(item, tuple):
            play, equity = item
            out.append((play, float(equity), None, None))
        else:
            out.append((item.play, float(item.equity), item.ply, item.chances))
    return out


def ranked_candidates(position: Position, dice: Sequence[int], level: int = ADVICE_LEVEL,
                      count: int = ADVICE_COUNT,
                      terms: MatchTerms = MONEY) -> evaluator.Candidates:
    """The evaluator's ranked plays for the side on roll (game.model.evaluator.ranked_plays)
    at its `terms` (MONEY: money play)."""
    return evaluator.ranked_plays(position, tuple(dice), level, limit=count, terms=terms)


@dataclass(frozen=True)
class AdviceRow:
    """One play of the advice: its equity, how deeply it was judged (None: not known) and
    the chances that ranked it (None: not known); `shallower` when it was judged less
    deeply than the best, so its depth is shown instead of a difference."""
    play: Play | str
    equity: float
    ply: int | None
    chances: Chances | None
    shallower: bool = False


@dataclass(frozen=True)
class Advice:
    """The A command's ranking before it is a page: the plays best first (at most the count
    asked for), the terms they were ranked for (as judged: money play for a match past the
    table) and the best's depth."""
    dice: tuple[int, ...]                   # the two dice
    rows: tuple[AdviceRow, ...]
    terms: MatchTerms = MONEY
    deepest: int | None = None

    @property
    def with_chances(self) -> bool:
        return all(row.chances is not None for row in self.rows)


def rank_advice(position: Position, dice: Sequence[int],
                candidates: Sequence[Listed] | None = None, level: int = ADVICE_LEVEL,
                count: int = ADVICE_COUNT, terms: MatchTerms = MONEY) -> Advice:
    """The best plays for `dice` as data (advice_lines words them): from the evaluator at
    `level`, or `candidates` as given (evaluator.Candidate objects or (play, equity) pairs).
    A match score the table cannot take is ranked as money play. BackgammonError when the
    evaluator cannot answer."""
    terms = terms.judged                    # a score the table cannot take: money ranking
    if candidates is None:
        candidates = ranked_candidates(position, dice, level, count, terms)
    triples = _triples(candidates)[:count]
    deepest = triples[0][2] if triples else None
    rows = tuple(AdviceRow(play, equity, ply, odds, rank > 1 and ply is not None
                           and deepest is not None and 0 <= ply < deepest)
                 for rank, (play, equity, ply, odds) in enumerate(triples, start=1))
    return Advice(tuple(dice), rows, terms, deepest)


def advice_lines(position: Position, dice: Sequence[int],
                 candidates: Sequence[Listed] | None = None, level: int = ADVICE_LEVEL,
                 count: int = ADVICE_COUNT, mover_is_human: bool = True,
                 terms: MatchTerms = MONEY,
                 names: tuple[str, str] = DEFAULT_NAMES) -> list[str]:
    """The A command's page: the best plays for `dice`, best first, each with its equity
    and, after the first, how much worse it is, e.g.
        "1. h3 f1        +0.202"
        "2. m3 j1        +0.031 (-0.171)"
    Candidates come from the evaluator at `level` (5, the strongest, whatever level is being
    played), or are given as evaluator.Candidate objects or (play, equity) pairs. The
    evaluator looks at its best few plays more deeply than the rest and ranks those first;
    a play judged less deeply than the best shows its depth, "(1-ply)", instead of a
    difference, since the two numbers are not alike. In a match (the mover's `terms`, as in
    ranked_candidates) the plays are ranked for the match and equity is 2 x the mover's
    match winning chance - 1. When the candidates carry their chances (the evaluator's do),
    each play has a second line: the win, gammon and backgammon chances of the mover and of
    the other side (`names`, mover first) in percent, from the judgement that ranked it
    (game/chances.py). Every line fits 32 columns. If the evaluator cannot answer, the
    lines say why."""
    try:
        advice = rank_advice(position, dice, candidates, level, count, terms)
    except BackgammonError as exc:
        return ["No advice this time:"] + wrap(str(exc))
    return advice_page(advice, mover_is_human, names)


def advice_page(advice: Advice, mover_is_human: bool = True,
                names: tuple[str, str] = DEFAULT_NAMES) -> list[str]:
    """rank_advice's answer as the A command's page (advice_lines says how it reads)."""
    d1, d2 = advice.dice
    lines = [f"Best plays for {d1}{d2}, " + ("equity:" if advice.terms.money else "match equity:")]
    if not advice.rows:
        return lines + ["", "No move is possible."]
    with_chances = advice.with_chances
    lines.append(chances_header(names) if with_chances else "")
    best, deepest = advice.rows[0].equity, advice.deepest
    for rank, row in enumerate(advice.rows, start=1):
        words = play_text(row.play, mover_is_human)
        if len(words) > NOTATION_WIDTH:
            words = words[:NOTATION_WIDTH - 1] + "+"
        line = f"{rank}. {words:<{NOTATION_WIDTH}} {row.equity:+.3f}"
        if rank > 1:
            line += f" ({row.ply}-ply)" if row.shallower else f" ({row.equity - best:+.3f})"
        lines.append(fit(line))
        if with_chances:
            lines.append(chances_line(row.chances))  # type: ignore[arg-type]  # with_chances
    if not advice.terms.money:
        lines += ["", "Equity: 2 x the mover's chance", "of winning the match, less 1."]
    else:
        lines += ["", "Equity: what each play is worth", "to the mover, in points a game."]
    if any(row.shallower for row in advice.rows):
        unit = "ply" if deepest == 1 else "plies"
        lines += ["", "The best were rolled out,", "those marked judged less deeply."] \
            if (deepest or 0) >= evaluator.ROLLED_OUT_PLY else \
            ["", f"The best were looked at {deepest}", f"{unit} deep, those marked less."]
    if with_chances:
        lines += [""] + chances_note()
    return lines


def cube_advice_lines(decision: evaluator.CubeDecision, doubler: str = "You", offered: bool = False,
                      terms: MatchTerms = MONEY, per_unit: bool = False) -> list[str]:
    """The cube advice page (A at a cube question, and a review cube page's A): the doubler's
    chances and the three equities from the evaluator's game.model.evaluator.CubeDecision at
    the doubler's `terms`, then the proper action. `doubler` names the side on roll ("You",
    "I", "White"); `offered` True when the double has been made and the question is take or
    pass. Money play: the equities in points a game, cube included (`per_unit` when they have
    been divided by a cube above 1, the review's units). At a match score (terms as judged)
    the equities in EMG with the doubler's match winning chance beside, as the review's
    headlines and summary say them. Every line fits 32 columns, e.g.
        "Chances for you:"  ...  "No double     +0.412"  ..."""
    possessive = {"You": "your", "I": "my"}.get(doubler, f"{doubler}'s")
    object_ = {"You": "you", "I": "me"}.get(doubler, doubler)
    lines = [f"Chances for {object_}:",
             f"  win {100 * decision.win:.1f}%, gammons {100 * decision.win_gammon:.1f}%",
             f"  lose gammons {100 * decision.lose_gammon:.1f}%",
             "", *cube_equity_lines(decision, terms), "",
             f"Proper: {cube_verdict(decision)}."]
    if offered:
        answer = "a take" if decision.take else "a pass"
        if decision.double:
            lines.append(f"Right to double; it is {answer}.")
        else:
            lines.append("Too good to double: too late;" if decision.too_good
                         else "The double is too early;")
            lines.append(f"still, it is {answer}.")
    if not terms.judged.money:
        lines += ["", "EMG: GNU Backgammon's units, the", "equivalent money game; MWC:",
                  fit(f"{possessive} match winning chance.")]
    elif per_unit:
        lines += ["", f"Equity: {possessive} points a game", "per unit of cube, cube included."]
    else:
        lines += ["", f"Equity: {possessive} points a game,", "cube included."]
    return lines


def cube_equity_lines(decision: evaluator.CubeDecision, terms: MatchTerms = MONEY) -> list[str]:
    """The three cube actions' equities: money points as they are; at a match score (the
    doubler's terms, as judged) in EMG (cube_judgement.in_emg) with the match winning chance
    of each beside (from the decision's 2 x MWC - 1), under a header."""
    actions = ("No double", "Double, take", "Double, pass")
    raw = (decision.no_double_equity, decision.double_take_equity,
           decision.double_pass_equity)
    if terms.judged.money:
        return [f"{label:<14}{equity:+.3f}" for label, equity in zip(actions, raw, strict=True)]
    emg = in_emg(decision, terms)
    shown = (emg.no_double_equity, emg.double_take_equity, emg.double_pass_equity)
    return [f"{'':14}{'EMG':>6}{'MWC':>8}"] + [
        f"{label:<14}{equity:+.3f}  {50.0 * (match + 1.0):5.1f}%"
        for label, equity, match in zip(actions, shown, raw, strict=True)]


def score_line(match: Match) -> str:
    """The score on one message line: "Score: you 2  me 1  (to 5)"; in the Crawford game
    "Crawford: you 0  me 2  (to 3)"; money play shows the running totals."""
    a, b = match.sides

    def name(side: str) -> str:
        # (the type: ignore: mypy reads this get as the one that may give None; the
        # default, the record's name or the side itself, is a str)
        return SIDE_WORDS.get(side, match.record.names.get(side, side))  # type: ignore[return-value]
    head = "Crawford" if match.crawford_game else "Score"
    text = f"{head}: {name(a)} {match.score[a]}  {name(b)} {match.score[b]}"
    if match.length:
        text += f"  (to {match.length})"
    return fit(text)
