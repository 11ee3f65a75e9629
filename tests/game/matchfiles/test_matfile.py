"""The Jellyfish .mat export (game/matchfiles/matfile.py), checked against the format game by game
and imported by GNU Backgammon (`gnubg -t`) with the same moves. The matches are played in code:
random legal plays from game/model/rules.py with seeded dice, random doubles, takes and drops."""
import re

import pytest

from game.matchfiles.matfile import format_mat, parse_mat, write_mat
from game.model import rules
from game.model.match import HUMAN, Match
from game.model.record import MatchRecord, format_step
from gnubg_tools import comparable, gnubg_round_trip
from scripted_matches import NAMES, scripted_match

# ---- the format, game by game --------------------------------------------------------

MOVE_LINE = re.compile(r"^ {0,2}\d{1,3}\) ")
ROLL_CELL = re.compile(r"^[1-6][1-6]:( (bar|[0-9]{1,2})/(off|[0-9]{1,2})\*?)*$")


def cells(line):
    """The non-empty cells of a move line: (column 0/1, text)."""
    body = MOVE_LINE.sub(lambda mm: " " * len(mm.group(0)), line)
    return [(0 if c.start() < 20 else 1, c.group(0))
            for c in re.finditer(r"\S+(?: \S+)*", body)]


def expected_cell(action):
    if action.kind == "move":
        return f"{max(action.dice)}{min(action.dice)}:" + (f" {action.play}" if action.play else "")
    return {"double": f"Doubles => {action.value}", "take": "Takes", "drop": "Drops",
            "win": f"Wins {action.value} point{'s' if action.value != 1 else ''}"}[action.kind]


def check_format(text: str, record: MatchRecord):
    lines = text.splitlines()
    body = [line for line in lines if line.strip() and not line.startswith(";")]
    assert body[0] == f" {record.length} point match"
    games = []
    for line in body[1:]:
        if line.startswith(" Game "):
            games.append([line])
        else:
            games[-1].append(line)
    assert len(games) == len(record.games)
    names = [record.names[s] for s in record.sides]
    for k, (lines_k, game) in enumerate(zip(games, record.games, strict=True), 1):
        assert lines_k[0] == f" Game {k}"
        m = re.match(r"^ (\S+) : (\d+) +(\S+) : (\d+)$", lines_k[1])
        assert m, lines_k[1]
        assert (m.group(1), m.group(3)) == tuple(names)
        assert (int(m.group(2)), int(m.group(4))) == tuple(game.scores[s] for s in record.sides)
        numbers, found = [], []
        for line in lines_k[2:]:
            mm = re.match(r"^ {0,2}(\d{1,3})\) ", line)
            if mm:
                numbers.append(int(mm.group(1)))
            else:                                  # only a result stands without a number
                assert line.strip().startswith("Wins "), line
            for col, cell in cells(line):
                found.append((col, cell))
                if cell[0].isdigit():
                    assert ROLL_CELL.match(cell), cell
        assert numbers == list(range(1, len(numbers) + 1))
        wanted = [(record.sides.index(a.side), expected_cell(a)) for a in game.actions]
        assert found == wanted
        assert found[-1][1].startswith("Wins ")


@pytest.mark.parametrize("length,seed", [(3, 1), (5, 7), (7, 2024)])
def test_mat_export_follows_the_format_game_by_game(length, seed):
    m = scripted_match(length, seed)
    assert m.is_over
    text = format_mat(m.record)
    check_format(text, m.record)
    assert f" {length} point match" in text.splitlines()


def test_mat_export_shows_doubles_takes_drops_and_hits():
    m = scripted_match(7, 5, double_rate=0.08)
    text = format_mat(m.record)
    check_format(text, m.record)
    for word in ("Doubles => 2", "Takes", "Drops", "*", "bar/", "/off", "Wins"):
        assert word in text, word


def test_money_session_exports_as_zero_point_match():
    m = scripted_match(None, 3, max_games=3)
    text = format_mat(m.record)
    check_format(text, m.record)
    assert " 0 point match" in text


def test_parse_mat_reads_back_what_was_written(tmp_path):
    m = scripted_match(5, 11, double_rate=0.15)
    path = write_mat(m.record, tmp_path / "match.mat")
    parsed = parse_mat(open(path).read())
    assert parsed.length == 5 and len(parsed.games) == len(m.record.games)
    for pg, game in zip(parsed.games, m.record.games, strict=True):
        assert pg.scores == tuple(game.scores[s] for s in m.record.sides)
        assert [(p, k) for p, k, _ in pg.actions] == [
            (m.record.sides.index(a.side), a.kind) for a in game.actions]


def test_standard_point_numbers_from_the_movers_side():
    assert format_step((24, 18)) == "24/18"
    assert format_step((25, 22, True)) == "bar/22*"
    assert format_step((6, 0)) == "6/off"
    assert format_step(rules.Step(24, 21, 4, False)) == "bar/22"
    assert format_step(rules.Step(5, -1, 6, False)) == "6/off"
    assert format_step(rules.Step(12, 7, 5, True)) == "13/8*"


def test_crawford_game_of_the_scripted_match_has_no_double():
    m = scripted_match(3, 4, double_rate=0.5)
    crawford = [g for g in m.record.games if g.crawford]
    assert len(crawford) <= 1
    for g in crawford:
        assert all(a.kind != "double" for a in g.actions)


# ---- GNU Backgammon imports it ------------------------------------------------------

@pytest.mark.parametrize("length,seed,double_rate", [
    pytest.param(5, 7, 0.06, id="5-point"),
    pytest.param(7, 5, 0.2, id="7-point-cube-to-16"),
    pytest.param(3, 4, 0.5, id="3-point-crawford-then-post-crawford-double"),
    pytest.param(1, 8, 0.3, id="1-point"),
    pytest.param(None, 6, 0.03, id="money-gammons-on-cubes-2-and-4"),
    pytest.param(None, 4, 0.03, id="money-backgammon-on-2"),
    pytest.param(None, 3, 0.1, id="money-drops")])
def test_gnubg_imports_the_mat_file_without_errors_and_with_the_same_moves(
        tmp_path, length, seed, double_rate):
    m = scripted_match(length, seed, double_rate=double_rate, max_games=4)
    ours = write_mat(m.record, tmp_path / "ours.mat")
    theirs = tmp_path / "gnubg.mat"
    code, output = gnubg_round_trip(ours, theirs, tmp_path)
    assert code == 0, output
    for bad in ("WARNING", "Unrecognised", "not a valid", "Invalid", "doesn't follow",
                "rror"):
        assert bad not in output, output
    assert theirs.exists(), output
    mine = parse_mat(open(ours).read())
    gnubg = parse_mat(open(theirs).read())
    assert gnubg.length == (length or 0)
    assert len(gnubg.games) == len(mine.games) == len(m.record.games)
    for k, (a, b) in enumerate(zip(comparable(mine), comparable(gnubg), strict=True), 1):
        assert a == b, f"game {k} differs after gnubg's import"


def test_single_game_export_and_game_in_progress(tmp_path):
    m = scripted_match(7, 1)
    assert len(m.record.games) >= 2
    text = format_mat(m.record, games=[2])
    parsed = parse_mat(text)
    assert [g.number for g in parsed.games] == [2]
    assert parsed.games[0].scores == tuple(m.record.games[1].scores[s] for s in m.record.sides)

    live = Match(5, names=NAMES)
    live.start_game()
    live.start_turn(HUMAN)
    live.dice_rolled()
    live.record_move(HUMAN, (3, 1), "8/5 6/5")
    parsed = parse_mat(format_mat(live.record))
    assert parsed.games[0].actions == [(0, "move", ((3, 1), ("8/5", "6/5")))]
