"""What the match-file import tests compare and read: each game of a record as a comparable
key (entries, scores, result and every position its replay passes through), and an import's
fault split into its line number and words, checked to be one line naming the file. Not a
test."""
import re

from game.analysis.replay import replay
from game.matchfiles.imports import SIDES

LINE = re.compile(r"^(?P<name>\S+), line (?P<line>\d+): (?P<what>[^\n]+)$")


def game_key(record, game):
    """A game as a comparable value, the sides by their order in the record: its number,
    scores, Crawford flag, result and entries (dice in either order; the hit marks, which
    SGF does not keep, left out), and every position the replay passes through."""
    side_of = dict(zip(record.sides, SIDES, strict=True))
    entries = [(a.kind, side_of[a.side], tuple(sorted(a.dice)) if a.dice else None,
                a.play.replace("*", ""), a.value if a.kind == "double" else 0)
               for a in game.actions if a.kind != "win"]
    positions = [t.before.position_id for t in replay(record, game)]
    return (game.number, tuple(game.scores[s] for s in record.sides), game.crawford,
            side_of.get(game.winner), game.points, game.how, entries, positions)


def match_keys(record):
    return [game_key(record, g) for g in record.games]


def fault(imported, name):
    """The problem's line number and words, checked to be one line naming the file."""
    found = LINE.match(imported.problem or "")
    assert found and found.group("name") == name, imported.problem
    return int(found.group("line")), found.group("what")
