"""Small pure helpers behind the commands typed at "Your move?": the pip count (P), the gnubg
position and match IDs (I), the ranked advice (A) and a one-line score (S), each as text that
fits the 32-column screen. No drawing, no keys: program.py shows what these return."""
from __future__ import annotations

from collections.abc import Sequence

from game import screen as S
from game.errors import BackgammonError
from game.position import Position

ADVICE_LEVEL = 5                 # advice always comes from the strongest level
ADVICE_COUNT = 5                 # the best play and the next four
NOTATION_WIDTH = 11              # "m4 i4 k4 f4"
SIDE_WORDS = {"human": "you", "computer": "me"}


def pip_count_text(position: Position, names: Sequence[str] = ("you", "me")) -> str:
    """The P command's line: "Pips: you 167  me 167". names[0] is the side on roll in
    `position` (the human at "Your move?"), names[1] the other ("White"/"Black" for two
    players)."""
    mover, other = position.pips()
    return f"Pips: {names[0]} {mover}  {names[1]} {other}"[:S.COLS]


def position_id_text(position: Position, match=None, dice=None) -> str:
    """The I command's line. Without a match: "Position ID 4HPwATDgc/ABMA". With one (a
    game.match.Match, the side on roll of `position` being its on-roll side): gnubg's
    combined ID "ID 4HPwATDgc/ABMA:cAkAAAAAAAAA" (position:match, the dice if thrown), which
    gnubg's "set gnubgid" reads back."""
    pid = position.position_id
    if match is None:
        return f"Position ID {pid}"
    return f"ID {pid}:{match.match_id(dice)}"


def play_text(play, mover_is_human: bool = True) -> str:
    """A play in the letter notation the game prints ("h3 f1", "z4 x6"): a rules.Play, an
    evaluator.Candidate's play, or a string already written; "no move" for a forfeit."""
    if isinstance(play, str):
        return play or "no move"
    steps = getattr(play, "steps", ())
    if not steps:
        return "no move"
    return " ".join(f"{Position.letter_of_index(s.from_index, mover_is_human)}{s.die}"
                    for s in steps)


def _pairs(candidates) -> list[tuple[object, float]]:
    pairs = []
    for item in candidates:
        if hasattr(item, "play") and hasattr(item, "equity"):
            pairs.append((item.play, float(item.equity)))
        else:
            play, equity = item
            pairs.append((play, float(equity)))
    return pairs


def ranked_candidates(position: Position, dice, level: int = ADVICE_LEVEL,
                      count: int = ADVICE_COUNT):
    """The evaluator's ranked plays for the side on roll (game.evaluator.ranked_plays)."""
    from game import evaluator
    return evaluator.ranked_plays(position, tuple(dice), level, limit=count)


def advice_lines(position: Position, dice, candidates=None, level: int = ADVICE_LEVEL,
                 count: int = ADVICE_COUNT, mover_is_human: bool = True) -> list[str]:
    """The A command's page: the best plays for `dice`, best first, each with its equity
    and, after the first, how much worse it is, e.g.
        "1. h3 f1        +0.202"
        "2. m3 j1        +0.031 (-0.171)"
    Candidates come from the evaluator at `level` (5, the strongest, whatever level is being
    played), or are given as evaluator.Candidate objects or (play, equity) pairs. Every
    line fits 32 columns. If the evaluator cannot answer, the lines say why."""
    if candidates is None:
        try:
            candidates = ranked_candidates(position, dice, level, count)
        except BackgammonError as exc:
            from game.instructions import wrap
            return ["No advice this time:"] + wrap(str(exc))
    pairs = _pairs(candidates)[:count]
    d1, d2 = dice
    lines = [f"Best plays for {d1}{d2}, equity:"]
    if not pairs:
        return lines + ["", "No move is possible."]
    lines.append("")
    best = pairs[0][1]
    for rank, (play, equity) in enumerate(pairs, start=1):
        words = play_text(play, mover_is_human)
        if len(words) > NOTATION_WIDTH:
            words = words[:NOTATION_WIDTH - 1] + "+"
        line = f"{rank}. {words:<{NOTATION_WIDTH}} {equity:+.3f}"
        if rank > 1:
            line += f" ({equity - best:+.3f})"
        lines.append(line[:S.COLS])
    lines += ["", "Equity: what each play is worth", "to the mover, in points a game."]
    return lines


def score_line(match) -> str:
    """The score on one message line: "Score: you 2  me 1  (to 5)"; in the Crawford game
    "Crawford: you 0  me 2  (to 3)"; money play shows the running totals."""
    a, b = match.sides
    name = lambda side: SIDE_WORDS.get(side, match.record.names.get(side, side))  # noqa: E731
    head = "Crawford" if match.crawford_game else "Score"
    text = f"{head}: {name(a)} {match.score[a]}  {name(b)} {match.score[b]}"
    if match.length:
        text += f"  (to {match.length})"
    return text[:S.COLS]
