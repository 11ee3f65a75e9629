"""GNU Backgammon's .sgf match files: a MatchRecord written as one SGF game tree per game
(GM[6]), each roll, play, double, take and drop a node, with the review's analysis in gnubg's
own properties (A: the plays judged, DA: the cube, LU: the luck, DO/BM: the marks). Writing
only; not a reader, and not the .mat export (game/matchfiles/matfile.py), which stays as it is.
Each play's equity is level 5's (a checked error's plays at the depth of the check, 3 plies,
and the check in a C[] comment); the five chances beside it are the evaluator's 1-ply view
(about a millisecond each, where 2-ply would take seconds for a game)."""
from __future__ import annotations

import os
import time
from collections.abc import Iterable

from game.analysis.checking import ROLL_GAMES
from game.analysis.judge import Reviewer
from game.analysis.replay import apply_play, replay
from game.analysis.verdicts import BAD, DOUBTFUL, CubeReview, MoveReview, Review
from game.matchfiles.writing import writable_name, write_text
from game.model import evaluator, rules
from game.model.position import BAR, Position
from game.model.record import GameRecord, MatchRecord
from spectrum.safe_write import PathLike

APPLICATION = "Spectrum Backgammon:1"
VERY_BAD = 0.16                 # gnubg's "very bad" (BM[2]); its "bad" and "doubtful" are
                                # our ?? (BAD, BM[1]) and ? (DOUBTFUL, DO[])
OFF_LETTER, BAR_LETTER = "z", "y"
ANALYSIS_VERSION = 3            # the "ver" gnubg 1.07 writes and reads
CHANCES_PLY = 1                 # the chances written beside each play's equity


def point_letter(index: int, white: bool) -> str:
    """A mover's row index (0..23, bar 24, off -1) as gnubg's SGF letter: the board seen from
    White (player 0, the record's first side), a = White's 1-point, y the bar, z off."""
    if index == BAR:
        return BAR_LETTER
    if index < 0:
        return OFF_LETTER
    return chr(ord("a") + (index if white else 23 - index))


def play_letters(steps: Iterable[rules.Step], white: bool) -> str:
    return "".join(point_letter(s.from_index, white) + point_letter(s.to_index, white)
                   for s in steps)


def _escape(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace("]", "\\]")


def _name(name: object) -> str:
    """A player's name as PW/PB hold it: writable (writing.py), escaped; "Player" if empty."""
    return _escape(writable_name(name) or "Player")


def _f(value: float) -> str:
    return f"{value:.6f}"


def _probabilities_after(play: rules.Play, ply: int = CHANCES_PLY) -> tuple:
    """The mover's five chances after a play (win, win g, win bg, lose g, lose bg) at `ply`."""
    result = rules.game_result(play.after)
    if result:
        won = abs(result)
        return (1.0, float(won >= 2), float(won >= 3), 0.0, 0.0)
    theirs = evaluator.evaluate(play.after.swapped(), max(0, min(2, ply)))
    return (1.0 - theirs.win, theirs.lose_gammon, theirs.lose_backgammon,
            theirs.win_gammon, theirs.win_backgammon)


def _eval_tail(ply: int) -> str:
    """gnubg's evaluation setup after the numbers: plies (cubeless: no C), not pruned,
    deterministic, no noise, one search candidate."""
    return f"{max(0, ply)} 0 1 0.000000 1"


def move_analysis(item: MoveReview, white: bool) -> str:
    """A[index of the play made][plays E ver 3 five chances, equity, setup]...: the best plays
    and the play made, judged by level 5; the equity in EMG at a match score, as gnubg reads
    and writes it (its errors the review's)."""
    listed = list(item.candidates)
    if all(c.play.after != item.played.play.after for c in listed):
        listed.append(item.played)
    chosen = next(i for i, c in enumerate(listed) if c.play.after == item.played.play.after)
    if listed[chosen] is not item.played:
        listed[chosen] = item.played          # the play made as deeply as it was judged
    entries = []
    for choice in listed:
        chances = _probabilities_after(choice.play, min(choice.ply, CHANCES_PLY))
        equity = choice.equity if item.emg is None else item.emg.of(choice.equity)
        numbers = " ".join(_f(v) for v in (*chances, equity))
        entries.append(f"[{play_letters(choice.play.steps, white)} E ver {ANALYSIS_VERSION} "
                       f"{numbers} {_eval_tail(choice.ply)}]")
    return f"A[{chosen}]" + "".join(entries)


def cube_analysis(decision: evaluator.CubeDecision, match_play: bool, ply: int = 2) -> str:
    """DA[E ver 3 setup, then no double and double/take: five chances, cubeless equity,
    cubeful equity] (money: points for a cube of 1; match: the match winning chance, which
    gnubg turns into EMG with its own table, as the review does with ours). The backgammon
    chances are not part of a cube decision: written as 0."""
    chances = (decision.win, decision.win_gammon, 0.0, decision.lose_gammon, 0.0)
    cubeless = 2 * decision.win - 1 + decision.win_gammon - decision.lose_gammon

    def cubeful(equity: float) -> float:
        return (equity + 1) / 2 if match_play else equity

    parts = []
    for equity in (decision.no_double_equity, decision.double_take_equity):
        parts += [_f(v) for v in chances] + [_f(cubeless), _f(cubeful(equity))]
    return f"DA[E ver {ANALYSIS_VERSION} {ply}C 1 0.000000 1 " + " ".join(parts) + "]"


def analysis_of(item: CubeReview) -> str:
    """A judged cube decision's DA[...] in the units of the terms it was judged at; none for
    a match past the match table, judged as money play, whose equities a reader would take
    for match winning chances."""
    if item.terms.past_table:
        return ""
    ply = 2 if item.check is None else item.check.ply
    return cube_analysis(item.decision, not item.terms.judged.money, ply)


def check_comment(items: Iterable[MoveReview | CubeReview]) -> str:
    """C[...] saying how the node's checked errors were checked (none unchecked: "")."""
    said = [item.check.account() for item in items if item.check is not None]
    return f"C[{_escape('; '.join(said))}]" if said else ""


def _skill(loss: float, cube: bool = False) -> str:
    """The mark as gnubg's property: DO (doubtful, our ?), BM[1] (bad, our ??), BM[2] (very
    bad); for the cube before a roll DC / BC."""
    if loss > VERY_BAD:
        return "BC[2]" if cube else "BM[2]"
    if loss > BAD:
        return "BC[1]" if cube else "BM[1]"
    if loss > DOUBTFUL:
        return "DC[]" if cube else "DO[]"
    return ""


def _root(record: MatchRecord, game: GameRecord) -> str:
    white, black = record.sides
    info = (f"MI[length:{record.length}][game:{game.number - 1}]"
            f"[ws:{game.scores[white]}][bs:{game.scores[black]}]")
    rules_text = ""
    if record.length:
        rules_text = "RU[Crawford:CrawfordGame]" if game.crawford else "RU[Crawford]"
    result = ""
    if game.winner is not None:
        resigned = "R" if game.how == "resign" else ""          # an imported game's
        result = f"RE[{'W' if game.winner == white else 'B'}+{game.points}{resigned}]"
    return (f"(;FF[4]GM[6]CA[UTF-8]AP[{APPLICATION}]{info}"
            f"PW[{_name(record.names[white])}]PB[{_name(record.names[black])}]"
            f"DT[{time.strftime('%Y-%m-%d')}]{rules_text}{result}")


def _start_node(game: GameRecord, white_first: bool) -> str:
    """A game from a set-up board: clear it, put every man, say who is on roll."""
    position = Position.from_id(game.start)  # type: ignore[arg-type]  # set: format_game checks
    whites, blacks = ((position.mover, position.opponent) if white_first
                      else (position.opponent, position.mover))
    aw = "".join(f"[{point_letter(i, True)}]" for i in range(25) for _ in range(whites[i]))
    ab = "".join(f"[{point_letter(i, False)}]" for i in range(25) for _ in range(blacks[i]))
    return (";AE[a:y]" + (f"AW{aw}" if aw else "") + (f"AB{ab}" if ab else "")
            + f"PL[{'W' if white_first else 'B'}]")


def format_game(record: MatchRecord, game: GameRecord, review: Review | None = None) -> str:
    """One game as an SGF game tree; the analysis of `review` (of this game) on its nodes."""
    white = record.sides[0]
    by_number: dict[int, list] = {}
    for item in (review.items if review is not None else ()):
        by_number.setdefault(item.number, []).append(item)
    nodes = [_root(record, game)]
    if review is not None and review.match_play:      # the unit the marks and errors are in
        nodes[0] += "C[Errors in EMG, the equivalent money game.]"
    first = next((a for a in game.actions if a.kind != "win"), None)
    if game.start and first is not None:          # a game starts with a roll or a double
        nodes.append(_start_node(game, first.side == white))
    replayed = None                   # the plays of a game without its review, when needed
    for number, action in enumerate(game.actions, start=1):
        colour = "W" if action.side == white else "B"
        items = by_number.get(number, [])
        if action.kind == "win":
            continue
        if action.kind == "roll":             # thrown, never played: gnubg's own form
            nodes.append(f";PL[{colour}]DI[{action.dice[0]}{action.dice[1]}]")
            continue
        if action.kind == "move":
            move = next((i for i in items if i.kind == "move"), None)
            if move is not None:
                steps = move.played.play.steps
            else:
                if replayed is None:
                    replayed = _steps_by_number(record, game)
                steps = replayed[number]
            node = f";{colour}[{action.dice[0]}{action.dice[1]}" \
                   f"{play_letters(steps, action.side == white)}]"
            cube = next((i for i in items if i.kind == "no double"), None)
            if cube is not None:
                node += analysis_of(cube) + _skill(cube.loss, True)
            if move is not None:
                node += move_analysis(move, action.side == white)
                node += _skill(move.loss) if not move.forced else ""
                node += f"LU[{move.luck:.5f}]"
            node += check_comment(i for i in (cube, move) if i is not None)
        else:
            node = f";{colour}[{action.kind}]"
            judged = next((i for i in items if i.kind == action.kind), None)
            if judged is not None:
                node += analysis_of(judged) + _skill(judged.loss) + check_comment([judged])
        nodes.append(node)
    return "\n".join(nodes) + ")\n"


def _steps_by_number(record: MatchRecord, game: GameRecord) -> dict:
    """{entry number: steps} of every move, from the replay (the legal play each names)."""
    out = {}
    for turn in replay(record, game):
        if turn.action.kind == "move":
            after = apply_play(turn.before, turn.action.play)
            out[turn.index + 1] = next(p.steps for p in turn.legal if p.after == after)
    return out


def format_sgf(record: MatchRecord, reviews: dict | None = None,
               games: Iterable[int] | None = None) -> str:
    """The match as .sgf text: every game (or the numbers in `games`), each with the analysis
    in reviews[game number] when given."""
    reviews = reviews or {}
    chosen = [g for g in record.games if games is None or g.number in set(games)]
    return "".join(format_game(record, g, reviews.get(g.number)) for g in chosen)


def analyse(record: MatchRecord, games: Iterable[int] | None = None, cube: bool = True,
            level: int = 5, checked: bool = True, roll_games: int = ROLL_GAMES) -> dict:
    """{game number: Review} for the chosen games, each reviewed whole (at level 5; checked:
    each charged error checked, as the Review option CHECKED, its rollouts of `roll_games`)."""
    chosen = [g.number for g in record.games if games is None or g.number in set(games)]
    return {n: Reviewer(record, n, level=level, cube=cube, checked=checked,
                        roll_games=roll_games).run()
            for n in chosen}


def write_sgf(record: MatchRecord, path: PathLike, reviews: dict | None = None,
              games: Iterable[int] | None = None) -> str:
    """Write the .sgf (a temporary file, then a rename; none left on a failure); returns
    the path. OSError when the disk refuses it."""
    return write_text(path, format_sgf(record, reviews, games))


def export_review(record: MatchRecord, review: Review, folder: PathLike) -> str:
    """The reviewed game alone, with the analysis done so far, as gameN-YYYYMMDD-HHMMSS.sgf
    in `folder`; returns the path (OSError when it cannot be written)."""
    number = review.game.number
    name = time.strftime(f"game{number}-%Y%m%d-%H%M%S.sgf")
    return write_sgf(record, os.path.join(os.fspath(folder), name), {number: review},
                     games=[number])
