"""A save's finished games in little room (save format 2): each game one line of text, its
header and then its entries in a few characters each ("m031 8/5 6/5" for a move), the lines
zlib-compressed and in base64 as one JSON string, and their results beside them; reading
them back checks every line whole. A long money series grew its save by about 4.5 KB a game
as JSON tables, which filled the 1 MiB a save may hold at about 160 games. Not the save's
other entries (savegame.py) and not the record itself (game/model/record.py)."""
from __future__ import annotations

import base64
import binascii
import copy
import re
import zlib

from game.model.match import ENDINGS, MAX_CUBE, MAX_GAMES, MAX_SCORE, GameResult, Match
from game.model.position import ID_FORM
from game.model.record import Action, GameRecord

COMPRESSION_LEVEL = 6               # zlib's default: most of level 9's room, in a third the time
CHUNK_GAMES = 100                   # games compressed together: a save recompresses one chunk
MAX_CHUNK_BYTES = 4 << 20           # a chunk's lines (about 100 KB) stop here when damaged
MAX_UNPACKED_BYTES = 64 << 20       # and all chunks' (a full series: about 2 MB)
KIND_LETTERS = {"move": "m", "roll": "r", "double": "d", "take": "t", "drop": "x", "win": "w"}
LETTER_KINDS = {letter: kind for kind, letter in KIND_LETTERS.items()}
_POINT = r"(?:2[0-4]|1\d|[1-9])"
_STEP = rf"(?:bar|{_POINT})/(?:off|{_POINT})\*?"
_ENTRY = rf"(?:m[01][1-6][1-6](?: {_STEP}){{0,4}}|r[01][1-6][1-6]|[dw][01][1-9]\d{{0,2}}|[tx][01])"
ENTRIES = re.compile(rf"(?:{_ENTRY}(?:,{_ENTRY})*)?")
HEADER = re.compile(rf"[1-9]\d{{0,5}} \d{{1,5}} \d{{1,5}} [01] [01] [1-9]\d{{0,2}} "
                    rf"(?:{'|'.join(ENDINGS)}) [1-9]\d{{0,1}} (?:-|{ID_FORM.pattern})")


class PackError(ValueError):
    """Packed games that cannot be read back: the message names the game line and says why."""


def entry_text(action: Action, sides: tuple[str, str]) -> str:
    """One entry in a few characters: its kind's letter, its side's place in `sides` (0 or
    1), then the dice and play of a move or roll, or the value of a double or win."""
    text = KIND_LETTERS[action.kind] + str(sides.index(action.side))
    if action.kind in ("move", "roll"):
        text += f"{action.dice[0]}{action.dice[1]}" if action.dice else ""
        text += f" {action.play}" if action.play else ""
    elif action.kind in ("double", "win"):
        text += str(action.value)
    return text


def game_line(game: GameRecord, result: GameResult, sides: tuple[str, str]) -> str:
    """A finished game and its result as one line: number, the two scores it began at,
    Crawford 0/1, the winner's place, points, how, the cube, its start (- for the usual),
    then "|" and its entries, comma-separated."""
    if (game.winner, game.how, game.points) != (result.winner, result.kind, result.points):
        raise PackError(f"game {game.number}: its record ({game.winner} {game.how} "
                        f"{game.points}) is not its result ({result.winner} {result.kind} "
                        f"{result.points})")
    head = (f"{game.number} {game.scores[sides[0]]} {game.scores[sides[1]]} "
            f"{int(game.crawford)} {sides.index(result.winner)} {result.points} "
            f"{result.kind} {result.cube} {game.start or '-'}")
    return head + "|" + ",".join(entry_text(action, sides) for action in game.actions)


class Packer:
    """Packs finished games into chunks of CHUNK_GAMES lines, each compressed on its own, and
    reads them back, remembering what the last save packed and read so that a save costs
    about its newest games, not the whole series: a finished game's line (its record no
    longer changes), a chunk's base64 text by its lines and its games read back by that
    text. The Autosave keeps one; a fresh one remembers nothing."""

    def __init__(self) -> None:
        self.lines: dict[int, tuple[GameRecord, GameResult, int, str]] = {}
        self.chunks: dict[str, str] = {}
        self.readings: dict[tuple[tuple[str, str], str],
                            list[tuple[GameRecord, GameResult]]] = {}

    def _line(self, game: GameRecord, result: GameResult, sides: tuple[str, str],
              known_lines: dict[int, tuple[GameRecord, GameResult, int, str]]) -> str:
        """game_line, as the last pack made it for this game and result while its entries
        stay as many."""
        known = known_lines.get(id(game))
        if known is not None and known[0] is game and known[1] is result \
                and known[2] == len(game.actions):
            return known[3]
        text = game_line(game, result, sides)
        self.lines[id(game)] = (game, result, len(game.actions), text)
        return text

    def pack(self, games: list[GameRecord], results: list[GameResult],
             sides: tuple[str, str]) -> list[str]:
        """The finished games (each with its result, in order) as base64 texts of their
        compressed lines, CHUNK_GAMES lines each. PackError when a game and its result
        disagree."""
        if len(games) != len(results):
            raise PackError(f"{len(games)} finished games but {len(results)} results")
        known_lines, self.lines = self.lines, {}
        lines = [self._line(g, r, sides, known_lines)
                 for g, r in zip(games, results, strict=True)]
        texts = ["\n".join(lines[at:at + CHUNK_GAMES]) for at in range(0, len(lines), CHUNK_GAMES)]
        known, self.chunks = self.chunks, {}
        for text in texts:
            self.chunks[text] = known.get(text) or squeezed(text)
        return [self.chunks[text] for text in texts]

    def unpack(self, chunks: list[str],
               sides: tuple[str, str]) -> tuple[list[GameRecord], list[GameResult]]:
        """pack's games and results read back, every line checked whole (PackError, one line
        naming the game line and what is wrong)."""
        games: list[GameRecord] = []
        results: list[GameResult] = []
        known, self.readings = self.readings, {}
        unpacked = 0                                # bytes of lines read, known chunks apart
        for chunk in chunks:
            readings = known.get((sides, chunk))
            if readings is None:
                lines = unsqueezed(chunk)
                unpacked += sum(len(line) + 1 for line in lines)
                if len(lines) > CHUNK_GAMES or unpacked > MAX_UNPACKED_BYTES:
                    raise PackError(f"a chunk of {len(lines):,} games (at most {CHUNK_GAMES}), "
                                    f"or more than {MAX_UNPACKED_BYTES:,} bytes of games")
                readings = [read_line(line, len(games) + at, sides)
                            for at, line in enumerate(lines, start=1)]
            self.readings[(sides, chunk)] = readings
            games += [game for game, _result in readings]
            results += [result for _game, result in readings]
            if len(games) > MAX_GAMES:
                raise PackError(f"more than {MAX_GAMES:,} games")
        return games, results


def squeezed(text: str) -> str:
    """Lines of text compressed, in base64."""
    return base64.b64encode(zlib.compress(text.encode("ascii"), COMPRESSION_LEVEL)).decode()


def unsqueezed(chunk: str) -> list[str]:
    """squeezed's lines back (PackError when the text is not such a chunk)."""
    try:
        unzip = zlib.decompressobj()
        raw = unzip.decompress(base64.b64decode(chunk.encode("ascii"), validate=True),
                               MAX_CHUNK_BYTES)
        if unzip.unconsumed_tail:
            raise PackError(f"a chunk of more than {MAX_CHUNK_BYTES:,} bytes")
        if not unzip.eof:
            raise PackError("a chunk cut short")
        return raw.decode("ascii").split("\n")
    except (binascii.Error, zlib.error, UnicodeError) as exc:
        raise PackError(f"not packed games ({exc.__class__.__name__})") from None


def read_line(line: str, number: int, sides: tuple[str, str]) -> tuple[GameRecord, GameResult]:
    """One game_line read back (the `number`-th line), or PackError naming it."""
    head, bar, body = line.partition("|")
    if not bar or not HEADER.fullmatch(head) or not ENTRIES.fullmatch(body):
        shown = line if len(line) <= 40 else line[:37] + "..."
        raise PackError(f"game line {number} is not a packed game: {shown!r}")
    num, score_a, score_b, crawford, winner_at, points, how, cube, start = head.split(" ")
    if max(int(score_a), int(score_b)) > MAX_SCORE or int(cube) > MAX_CUBE \
            or int(cube) & (int(cube) - 1):
        raise PackError(f"game line {number}: a score over {MAX_SCORE} or a cube of {cube}")
    winner = sides[int(winner_at)]
    actions = [_action(entry, sides) for entry in body.split(",")] if body else []
    game = GameRecord(int(num), {sides[0]: int(score_a), sides[1]: int(score_b)},
                      crawford == "1", actions, winner, int(points), how,
                      None if start == "-" else start)
    return game, GameResult(winner, how, int(cube), int(points))


def _action(entry: str, sides: tuple[str, str]) -> Action:
    """One entry the ENTRIES pattern has already checked."""
    kind, side = LETTER_KINDS[entry[0]], sides[int(entry[1])]
    if kind in ("move", "roll"):
        return Action(kind, side, (int(entry[2]), int(entry[3])), entry[5:], 0)
    if kind in ("double", "win"):
        return Action(kind, side, None, "", int(entry[2:]))
    return Action(kind, side, None, "", 0)


def finished_count(match: Match) -> int:
    """How many of the record's games, from the first, are finished: the ones a save packs
    (after them only the game in progress, if any)."""
    count = 0
    for game in match.record.games:
        if not game.finished:
            break
        count += 1
    return count


def packed_match(match: Match, packer: Packer) -> dict:
    """Match.to_dict with its finished games and their results packed (record "played", a
    list of chunks): the record's "games" and the match's "results" keep only what follows
    them (the game in progress). Only that rest goes through to_dict."""
    done = finished_count(match)
    rest = copy.copy(match)
    rest.record = copy.copy(match.record)
    rest.record.games, rest.results = match.record.games[done:], match.results[done:]
    data = rest.to_dict()
    data["record"]["played"] = packer.pack(match.record.games[:done], match.results[:done],
                                           match.sides)
    return data


def unpack_into(match: Match, chunks: list[str], packer: Packer) -> None:
    """The packed games and results put back before the ones `match` was read with."""
    games, results = packer.unpack(chunks, match.sides)
    match.record.games[:0] = games
    match.results[:0] = results
