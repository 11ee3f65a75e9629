"""A match played elsewhere, read from its file (.mat: matread.py, .sgf: sgfread.py, both
beside this module) into the MatchRecord our own games use, each game checked by replaying it
(replay.py): the legal plays, the cube, the scores, the Crawford game and the result. Not the
parsing of either format (the raw games they give are rawmatch.py's) and not the screens
(import_pages.py).

A file is refused by its size before it is read. Whatever is wrong with it comes back as one
line naming the file, the line and the fault (Imported.problem); the games before the first
bad one are kept and offered. Nothing here raises on bad input."""
from __future__ import annotations

import os
from dataclasses import dataclass

from game.analysis.replay import ReviewError, replay
from game.errors import BackgammonError
from game.matchfiles import endings, matread, sgfread
from game.matchfiles.rawmatch import (
    FileProblem,
    RawAction,
    RawGame,
    RawMatch,
    junk_problem,
)
from game.model.match_terms import MAX_CUBE
from game.model.names import clean_name
from game.model.record import GameRecord, MatchRecord
from spectrum.quoting import escaped, quoted
from spectrum.safe_read import FileRefused, read_regular
from spectrum.safe_write import PathLike

MAX_FILE_BYTES = 16 << 20        # a long match analysed by gnubg is a few MB: 16 MiB is ample
MAX_MONEY_SCORE = 99999          # points a money session's score may reach
MAX_GAMES = 500                  # games read from one file (each is replayed: ~20 ms)
SIDES = ("white", "black")       # the .mat's left column / the .sgf's White, then the other


@dataclass
class Imported:
    """The games of a file that can be reviewed, and the one line saying what was wrong with
    the rest (None when nothing was)."""
    path: str
    kind: str
    record: MatchRecord
    problem: str | None = None

    @property
    def games(self) -> list:
        return self.record.games


# ---- reading the file ------------------------------------------------------------------------

def read_match_file(path: PathLike, max_bytes: int = MAX_FILE_BYTES) -> Imported:
    """The reviewable games of a .mat or .sgf file (told apart by what is in it)."""
    name = os.fspath(path)
    try:
        data = read_regular(name, max_bytes)
    except FileNotFoundError:
        return _refused(name, "there is no such file")
    except FileRefused as exc:
        return _refused(name, f"refused: {exc}")
    except OSError as exc:
        return _refused(name, f"cannot be read: {exc.strerror or exc}")
    return import_bytes(data, name)


def _refused(name: str, what: str, joint: str = ": ") -> Imported:
    return Imported(name, "", MatchRecord(0, sides=SIDES), f"{escaped(name, None)}{joint}{what}")


def import_bytes(data: bytes, name: str) -> Imported:
    """The file's bytes read as a match: text in UTF-8, else Latin-1 (binary junk is found
    by the readers, line by line: junk_problem)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return import_text(text, name)


def import_text(text: str, name: str = "match") -> Imported:
    """Text read as a match: SGF when it starts with "(", else Jellyfish .mat."""
    body = text.lstrip()
    if body.startswith("("):
        kind, raw = "sgf", sgfread.read_sgf(text)
    elif name.lower().endswith(".sgf"):
        line = text.count("\n", 0, len(text) - len(body)) + 1
        problem = junk_problem(text) or FileProblem(line, "not an SGF file: it does not "
                                                          "start with '('")
        return _refused(name, str(problem), ", ")
    else:
        kind, raw = "mat", matread.read_mat(text)
    return build(raw, name, kind)


# ---- the checks ---------------------------------------------------------------------------------

def build(raw: RawMatch, name: str, kind: str) -> Imported:
    """The record of every game up to the first bad one, and the line saying what is wrong."""
    read = raw.games[0].names if raw.games else ("White", "Black")
    # a name from a file meets the one rule for names from outside (game/model/names.py), as a
    # save's do: what does not print (a right-to-left override too) is left out
    names = [clean_name(each, default) for each, default in zip(read, ("White", "Black"),
                                                                strict=True)]
    record = MatchRecord(raw.length, names=dict(zip(SIDES, names, strict=True)), sides=SIDES)
    problem = None
    for index, game in enumerate(raw.games):
        if index == MAX_GAMES:
            problem = FileProblem(game.line, f"more than {MAX_GAMES} games: the rest are "
                                             f"not read")
            break
        try:
            add_game(record, raw, game)
        except FileProblem as exc:
            problem = exc
            break
        except (BackgammonError, ValueError) as exc:    # a record entry the record refused
            problem = FileProblem(game.line, str(exc))
            break
    if problem is None:
        problem = raw.problem
    if problem is None and record.games and not record.games[-1].finished:
        problem = FileProblem(raw.games[len(record.games) - 1].last_line,
                              f"the file ends before game {record.games[-1].number} is over")
    return Imported(name, kind, record, f"{escaped(name, None)}, {problem}" if problem else None)


def check_scores(length: int, scores: tuple, line: int) -> None:
    for score in scores:
        top = length - 1 if length else MAX_MONEY_SCORE
        if not 0 <= score <= top:
            match = f"a {length}-point match" if length else "money play"
            raise FileProblem(line, f"a score of {score} is out of range in {match}")


def add_game(record: MatchRecord, raw: RawMatch, game: RawGame) -> None:
    """Check one game and add it to the record (FileProblem at the first fault)."""
    check_scores(record.length, game.scores, game.line)
    _check_follows(record, raw, game)
    crawford = _crawford(record, raw, game)
    scores = dict(zip(SIDES, game.scores, strict=True))
    record.start_game(scores, crawford, start=_start_id(game))
    added = record.games[-1]
    if game.number is not None:
        if len(record.games) > 1 and game.number <= record.games[-2].number:
            record.games.pop()
            raise FileProblem(game.line, f"game {game.number} comes after game "
                                         f"{record.games[-1].number}")
        added.number = game.number
    try:
        _fill(record, game, crawford)
    except BaseException:
        record.games.pop()
        raise


def _start_id(game: RawGame) -> str | None:
    """A set-up start as the record keeps it: the first mover on roll (White is on roll in
    game.setup)."""
    if game.setup is None:
        return None
    first = game.actions[0].player if game.actions else 0
    return (game.setup if first == 0 else game.setup.swapped()).position_id


def _check_follows(record: MatchRecord, raw: RawMatch, game: RawGame) -> None:
    """The scores at a game's start are those after the game before it (which, left not
    over, may be scored from them: endings.follows)."""
    if not record.games:
        return
    before = record.games[-1]
    if not before.finished:
        endings.follows(record, raw.games[raw.games.index(game) - 1], game)
        if not before.finished:
            return
    expected = [before.scores[s] + (before.points if s == before.winner else 0)
                for s in SIDES]
    if record.length and max(expected) >= record.length:
        raise FileProblem(game.line, f"the match was over after game {before.number}")
    if list(game.scores) != expected:
        raise FileProblem(game.line, f"the score {game.scores[0]}-{game.scores[1]} does not "
                                     f"follow game {before.number} (it left "
                                     f"{expected[0]}-{expected[1]})")


def _crawford(record: MatchRecord, raw: RawMatch, game: RawGame) -> bool:
    """The Crawford game: the first game (under the Crawford rule) with a side 1 point away.
    A file's first game at such a score counts as Crawford unless someone doubles in it."""
    length = record.length
    at_one = length > 1 and any(s == length - 1 for s in game.scores)
    if game.crawford is not None:
        if game.crawford and not at_one:
            raise FileProblem(game.line, "the Crawford game is played when a side needs one "
                                         "point, not at this score")
        return game.crawford
    if not (raw.crawford_rule and at_one):
        return False
    if record.games:
        return not any(record.games[-1].scores[s] == length - 1 for s in SIDES)
    return not any(a.kind == "double" for a in game.actions)


def _fill(record: MatchRecord, game: RawGame, crawford: bool) -> None:
    """The game's entries into the record, replayed and checked; the roll in hand at a
    resignation; then its result (a game may be no more than its result: resigned before a
    roll, which gnubg's .sgf keeps and its .mat cannot)."""
    added = record.games[-1]
    if not game.actions and game.result is None:
        raise FileProblem(game.line, f"game {added.number} has no moves")
    last = endings.unplayed(game)
    for action in game.actions[:-1] if last is not None else game.actions:
        side = SIDES[action.player]
        if action.kind == "roll":
            raise FileProblem(action.line, "dice thrown and not played, and the game goes on")
        try:
            if action.kind == "move":
                record.move(side, action.dice, action.play)
            elif action.kind == "double":
                record.double(side, action.value)
            elif action.kind == "take":
                record.take(side)
            else:
                record.drop(side)
        except (BackgammonError, ValueError) as exc:
            raise FileProblem(action.line, str(exc)) from None
    turns = replayed(record, added, game) if endings.has_turns(added) else []
    entries = len(game.actions)
    if last is not None:
        try:
            if endings.roll_in_hand(record, added, turns, last):
                entries -= 1
            else:
                turns = replayed(record, added, game)
        except (BackgammonError, ValueError) as exc:
            if isinstance(exc, FileProblem):
                raise
            raise FileProblem(last.line, str(exc)) from None
    _check_cube(record, game, turns, crawford)
    endings.settle(record, game, turns, entries)


def replayed(record: MatchRecord, added: GameRecord, game: RawGame) -> list:
    """replay() of the added game; at a fault, the line of the first entry that cannot have
    happened (the shortest failing start of the game, found by halving)."""
    try:
        return replay(record, added)
    except ReviewError as exc:
        reason = str(exc)
    actions = added.actions
    good, bad = 0, len(actions)            # replay(actions[:good]) works, [:bad] fails
    while bad - good > 1:
        middle = (good + bad) // 2
        added.actions = actions[:middle]
        try:
            replay(record, added)
            good = middle
        except ReviewError as exc:
            bad, reason = middle, str(exc)
    added.actions = actions
    raw = game.actions[bad - 1]
    raise FileProblem(raw.line, f"{_describe(raw, record.names)}: "
                                f"{reason.rsplit('): ', 1)[-1]}")


def _describe(action: RawAction, names: dict) -> str:
    who = escaped(names[SIDES[action.player]])
    if action.kind == "move" and action.dice is not None:
        play = quoted(action.play) if action.play else "(no move)"
        return f"{who}'s {action.dice[0]}{action.dice[1]}: {play}"
    return f"{who}'s {action.kind}"


def _check_cube(record: MatchRecord, game: RawGame, turns: list, crawford: bool) -> None:
    """Each double names the cube it makes; none in the Crawford game; none past MAX_CUBE."""
    for turn in turns:
        if turn.action.kind != "double":
            continue
        raw = game.actions[turn.index]
        if crawford:
            raise FileProblem(raw.line, "a double in the Crawford game")
        value = 2 * turn.cube_value
        if value > MAX_CUBE:
            raise FileProblem(raw.line, f"a double to {value}: the review takes the cube to "
                                        f"{MAX_CUBE} at most")
        if raw.value and raw.value != value:
            raise FileProblem(raw.line, f"a double to {raw.value} with the cube on "
                                        f"{turn.cube_value}")
        turn.action.value = value
