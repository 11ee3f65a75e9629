"""The helpers behind P, I, A and S (game/commands.py): the pip count line, gnubg position and
match IDs, the ranked advice in letter notation with equities, the one-line score; every
line within 32 columns. Positions are built from IDs."""
import base64
import os
import subprocess

from game import commands as C
from game.model.match import Match
from game.model.match_terms import MatchTerms
from game.model.position import Position
from game.model.rules import legal_plays
from gnubg_tools import gnubg_binary

START_ID = "4HPwATDgc/ABMA"


def test_pip_count_of_the_start_is_167_each():
    assert C.pip_count_text(Position.from_id(START_ID)) == "Pips: you 167  me 167"


def test_pip_count_names_the_side_on_roll_first_and_counts_the_bar_as_25():
    position = Position.from_points({"bar": 1, 6: 2}, {1: 3})      # 25 + 12 = 37 v 3
    assert C.pip_count_text(position) == "Pips: you 37  me 3"
    assert C.pip_count_text(position.swapped(), ("Black", "White")) == "Pips: Black 3  White 37"


def test_position_id_alone_reads_back_to_the_same_position():
    racing = Position.from_points({1: 2, 2: 3, 6: 4}, {3: 5, 20: 1})
    text = C.position_id_text(racing)
    assert text == f"Position ID {racing.position_id}"
    assert Position.from_id(text.split()[-1]) == racing


def test_position_id_with_the_match_is_gnubgs_combined_id():
    match = Match(5)
    match.start_game()
    match.start_turn("human")
    match.dice_rolled()
    text = C.position_id_text(Position.from_id(START_ID), match, dice=(3, 1))
    assert len(text) <= 32
    pid, mid = text.removeprefix("ID ").split(":")
    assert pid == START_ID
    assert mid == match.match_id((3, 1)) and len(mid) == 12
    key = base64.b64decode(mid)
    bits = [(byte >> i) & 1 for byte in key for i in range(8)]
    dice = (sum(bits[15 + i] << i for i in range(3)), sum(bits[18 + i] << i for i in range(3)))
    length = sum(bits[21 + i] << i for i in range(15))
    assert dice == (3, 1) and length == 5


def test_position_id_with_the_match_is_read_back_by_gnubg(tmp_path):
    gnubg = gnubg_binary()
    match = Match(5)
    match.start_game()
    match.start_turn("human")
    match.dice_rolled()
    racing = Position.from_points({1: 2, 2: 3, 6: 4}, {3: 5, 20: 1})
    combined = C.position_id_text(racing, match, dice=(3, 1)).removeprefix("ID ")
    commands = tmp_path / "id.txt"
    commands.write_text(f"new match 5\nset gnubgid {combined}\nshow board\n")
    out = subprocess.run([gnubg, "-t", "-q", "-c", str(commands)], capture_output=True,
                         text=True, timeout=60, stdin=subprocess.DEVNULL, cwd=tmp_path,
                         env={**os.environ, "HOME": str(tmp_path)}).stdout
    pid, mid = combined.split(":")
    assert f"Position ID: {pid}" in out and f"Match ID   : {mid}" in out, out
    assert "Rolled 31" in out and "5 points match" in out, out


def test_advice_from_a_given_list_ranks_with_equity_and_difference():
    position = Position.from_id(START_ID)
    plays = legal_plays(position, (3, 1))
    by_text = {C.play_text(p): p for p in plays}
    fake = [(by_text["h3 f1"], 0.2021), (by_text["m3 j1"], 0.031), ("x3 u1", -0.1009)]
    lines = C.advice_lines(position, (3, 1), candidates=fake)
    assert lines[0] == "Best plays for 31, equity:"
    assert lines[2] == "1. h3 f1       +0.202"
    assert lines[3] == "2. m3 j1       +0.031 (-0.171)"
    assert lines[4] == "3. x3 u1       -0.101 (-0.303)"
    assert all(len(line) <= 32 for line in lines)


def test_advice_marks_plays_judged_less_deeply_with_their_ply_not_a_difference():
    from game.model.evaluator import Candidate
    position = Position.from_id(START_ID)
    by_text = {C.play_text(p): p for p in legal_plays(position, (3, 1))}
    fake = [Candidate(by_text["h3 f1"], 0.150, 2), Candidate(by_text["m3 j1"], 0.020, 2),
            Candidate(by_text["x3 u1"], 0.090, 1), Candidate(by_text["f3 c1"], 0.110, 0)]
    lines = C.advice_lines(position, (3, 1), candidates=fake)
    assert lines[2] == "1. h3 f1       +0.150"
    assert lines[3] == "2. m3 j1       +0.020 (-0.130)"
    assert lines[4] == "3. x3 u1       +0.090 (1-ply)"
    assert lines[5] == "4. f3 c1       +0.110 (0-ply)"
    assert lines[-2:] == ["The best were looked at 2", "plies deep, those marked less."]
    assert all(len(line) <= 32 for line in lines)


def test_the_advice_ranking_is_data_and_the_page_is_made_from_it_alone():
    from game.model.evaluator import Candidate
    position = Position.from_id(START_ID)
    by_text = {C.play_text(p): p for p in legal_plays(position, (3, 1))}
    fake = [Candidate(by_text["h3 f1"], 0.150, 2), Candidate(by_text["m3 j1"], 0.020, 2),
            Candidate(by_text["x3 u1"], 0.090, 1)]
    advice = C.rank_advice(position, (3, 1), candidates=fake, count=2)
    assert advice.dice == (3, 1) and advice.deepest == 2 and advice.terms.money
    assert [(C.play_text(r.play), r.equity, r.ply, r.shallower) for r in advice.rows] == \
        [("h3 f1", 0.150, 2, False), ("m3 j1", 0.020, 2, False)]         # the count asked for
    assert C.advice_page(advice) == C.advice_lines(position, (3, 1), candidates=fake, count=2)
    shallow = C.rank_advice(position, (3, 1), candidates=fake)
    assert [r.shallower for r in shallow.rows] == [False, False, True]


def test_advice_says_ply_for_a_depth_of_one():
    from game.model.evaluator import Candidate
    position = Position.from_id(START_ID)
    by_text = {C.play_text(p): p for p in legal_plays(position, (3, 1))}
    fake = [Candidate(by_text["h3 f1"], 0.15, 1), Candidate(by_text["m3 j1"], 0.2, 0)]
    lines = C.advice_lines(position, (3, 1), candidates=fake)
    assert lines[3] == "2. m3 j1       +0.200 (0-ply)"
    assert lines[-2:] == ["The best were looked at 1", "ply deep, those marked less."]


def test_advice_in_a_match_ranks_for_the_match_score():
    from shared_cases import DMP, find_dmp_case
    DMP_POSITION, DMP_DICE, _, DMP_CHOICE = find_dmp_case()
    position = Position.from_id(DMP_POSITION)
    safe = next(p for p in legal_plays(position, DMP_DICE) if p.after.position_id == DMP_CHOICE)
    lines = C.advice_lines(position, DMP_DICE, level=3, terms=DMP)
    roll = "{}{}".format(*DMP_DICE)
    assert lines[0] == f"Best plays for {roll}, match equity:"
    assert lines[2].startswith("1. " + C.play_text(safe))
    assert "of winning the match, less 1." in lines
    money = C.advice_lines(position, DMP_DICE, level=3)
    assert money[0] == f"Best plays for {roll}, equity:" and money[2] != lines[2]


def test_advice_at_a_score_the_table_cannot_take_falls_back_to_money_ranking():
    lines = C.advice_lines(Position.from_id(START_ID), (3, 1), level=3,
                           terms=MatchTerms(length=40, away_me=30, away_opp=30))
    assert lines[0] == "Best plays for 31, equity:" and lines[2].startswith("1. ")


def test_advice_of_a_double_writes_four_steps_within_32_columns():
    position = Position.from_id(START_ID)
    plays = legal_plays(position, (4, 4))
    fake = [(play, 0.5 - i / 10) for i, play in enumerate(plays[:5])]
    lines = C.advice_lines(position, (4, 4), candidates=fake)
    assert all(len(line) <= 32 for line in lines)
    assert len(lines[2].split()) == 1 + 4 + 1            # rank, four steps, equity


def test_advice_for_the_computers_side_uses_its_letters():
    position = Position.from_id(START_ID)
    play = next(p for p in legal_plays(position, (6, 5)) if C.play_text(p) == "x6 r5")
    assert C.play_text(play, mover_is_human=False) == "a6 g5"


def test_advice_when_no_move_is_possible():
    primed = Position.from_points({8: 15}, {18: 2, 19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 1: 3})
    lines = C.advice_lines(primed, (6, 1), candidates=[])
    assert "No move is possible." in lines


def test_advice_from_the_evaluator_puts_its_best_play_first():
    position = Position.from_id(START_ID)
    lines = C.advice_lines(position, (3, 1), level=1, count=3)
    ranked = [line for line in lines if line[:1].isdigit()]
    assert len(ranked) == 3 and ranked[0].startswith("1. ")
    plays = {C.play_text(p) for p in legal_plays(position, (3, 1))}
    for line in ranked:
        assert line[3:14].strip() in plays
    equities = [float(line[15:21]) for line in ranked]
    assert equities == sorted(equities, reverse=True)


def test_advice_says_why_when_the_evaluator_cannot_answer(monkeypatch):
    from game.model.evaluator import WeightsError

    def refuse(*args, **kwargs):
        raise WeightsError("the evaluator's weights are not loaded")
    monkeypatch.setattr(C, "ranked_candidates", refuse)
    lines = C.advice_lines(Position.from_id(START_ID), (3, 1))
    assert lines[0] == "No advice this time:"
    assert "weights are not loaded" in " ".join(lines)


def test_score_line_fits_the_message_line():
    match = Match(5)
    match.start_game()
    match.end_game("human", "gammon")
    assert C.score_line(match) == "Score: you 2  me 0  (to 5)"
    money = Match(None)
    assert C.score_line(money) == "Score: you 0  me 0"


def test_score_line_marks_the_crawford_game():
    match = Match(3)
    match.start_game()
    match.end_game("computer", "gammon")
    match.start_game()
    assert C.score_line(match) == "Crawford: you 0  me 2  (to 3)"
