"""The dice on trial (game/analysis/dicestats.py, dice_pages.py): the chi-square p-value against
the published table, the closed forms and the density integrated numerically, the counts of a
seeded match played in the running program against every face the dice source threw, and the
pages reached from the match-over page and the options between games."""
import math
import re

import numpy as np
import pytest

from game.analysis import dicestats as D
from game.files.settings import Settings
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN
from game.model.record import MatchRecord
from gamedriver import GameDriver

# Upper 5%, 1% and 0.1% points of the chi-square distribution, as printed in the standard
# tables (e.g. NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.4), by d.f.
TABLE = {1: (3.841, 6.635, 10.828), 2: (5.991, 9.210, 13.816), 5: (11.070, 15.086, 20.515),
         10: (18.307, 23.209, 29.588), 20: (31.410, 37.566, 45.315)}


@pytest.mark.parametrize("df", sorted(TABLE))
def test_p_values_at_the_tables_critical_points(df):
    for point, p in zip(TABLE[df], (0.05, 0.01, 0.001), strict=True):
        assert D.chi_square_p(point, df) == pytest.approx(p, rel=2e-3)


def test_p_values_match_the_closed_forms_for_one_two_and_four_degrees_of_freedom():
    for x in (0.01, 0.5, 1.0, 3.0, 7.5, 20.0, 60.0):
        assert D.chi_square_p(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10)
        assert D.chi_square_p(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-10)
        assert D.chi_square_p(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-10)
    assert D.chi_square_p(0.0, 5) == 1.0


def tail_by_integration(x: float, df: int) -> float:
    """The chi-square upper tail worked out another way: the density integrated numerically
    (Simpson's rule) from x outwards, over u = sqrt(t), where the integrand is smooth for every
    d.f.: 2 u^(df-1) exp(-u^2/2) / (2^(df/2) Gamma(df/2))."""
    start, steps = math.sqrt(x), 40_000
    u = np.linspace(start, start + 40.0, steps + 1)
    log_norm = (df / 2) * math.log(2) + math.lgamma(df / 2)
    f = 2.0 * np.exp((df - 1) * np.log(np.maximum(u, 1e-300)) - u * u / 2 - log_norm)
    weights = np.ones(steps + 1)
    weights[1:-1:2], weights[2:-1:2] = 4.0, 2.0
    return float((u[1] - u[0]) / 3 * np.dot(weights, f))


def test_p_values_match_the_density_integrated_numerically():
    for df in range(1, 31):
        for x in (0.05, 0.7, 2.0, 5.0, 9.0, 14.0, 25.0, 40.0, 90.0):
            assert D.chi_square_p(x, df) == pytest.approx(tail_by_integration(x, df), rel=1e-7)


def test_known_counts_give_the_statistic_and_p_value_by_hand():
    # 60 dice: 5, 8, 9, 8, 10, 20 against 10 each: (25+4+1+4+0+100)/10 = 13.4, 5 d.f.
    side = D.SideRolls(rolls=30, numbers=np.array([5, 8, 9, 8, 10, 20]))
    result = D.numbers_trial(side)
    assert result.statistic == pytest.approx(13.4) and result.df == 5 and result.enough
    assert D.chi_square_p(13.4, 5) == pytest.approx(0.01990, abs=5e-5)
    assert D.trial_words(result) == ("Fair dice do this or worse 2 times in 100. "
                                     "Unusual, but luck does it.")
    fair = D.numbers_trial(D.SideRolls(rolls=30, numbers=np.full(6, 10)))
    assert fair.statistic == 0.0 and fair.p == 1.0
    few = D.numbers_trial(D.SideRolls(rolls=5, numbers=np.array([2, 2, 2, 2, 1, 1])))
    assert not few.enough and D.trial_words(few) == "Too few rolls to judge yet."


def test_plain_words_follow_the_p_value():
    assert D.how_often(0.67) == "67 times in 100" and D.how_often(0.012) == "once in 100"
    assert D.how_often(0.004) == "4 times in 1,000"
    assert D.how_often(0.0004) == "under once in 1,000"
    assert D.verdict(0.3) == "Nothing odd." and D.verdict(0.0001).startswith("Very rare")


def test_counts_split_by_side_and_a_games_first_roll_is_no_double():
    record = MatchRecord(0)
    record.start_game({HUMAN: 0, COMPUTER: 0})
    record.move(HUMAN, (3, 1), "8/5 6/5")
    record.move(COMPUTER, (4, 4), "24/20 24/20 13/9 13/9")
    record.move(HUMAN, (6, 6), "24/18 24/18 13/7 13/7")
    counts = D.count_rolls(record)
    you, me = counts[HUMAN], counts[COMPUTER]
    assert (you.rolls, me.rolls) == (2, 1)
    assert list(you.numbers) == [1, 0, 1, 0, 0, 2] and list(me.numbers) == [0, 0, 0, 2, 0, 0]
    assert (you.pair_rolls, list(you.doubles)) == (1, [0, 0, 0, 0, 0, 1])
    assert me.all_doubles == 1


def test_the_source_is_named():
    assert D.source_words(Dice(1983)) == "Dice: seeded with 1983"
    assert D.source_words(Dice()) == "Dice: the system's random source"
    assert D.source_words(Dice(5), set_dice=True) == "Dice: typed in (Set dice is ON)"


def page_numbers(lines, first_word):
    """{label: (seen, seen)} of a counts table on a page, from the row after its header."""
    start = next(i for i, line in enumerate(lines) if line.startswith(first_word))
    out = {}
    for line in lines[start + 1:start + 8]:
        parts = line.split()
        if len(parts) == 5:
            out[parts[0]] = (int(parts[1]), int(parts[3]))
    return out


def test_the_pages_count_every_roll_of_a_seeded_match():
    settings = Settings(players="computer-computer", match_length=3, who_starts="human",
                        speed="instant")
    driver = GameDriver(dice=Dice(44), settings=settings)
    driver.until("Press any key", max_frames=300000)
    driver.type(" ")
    driver.until("T: the dice", max_frames=5000)
    record = driver.game.state.match.record
    assert driver.game.state.match.is_over
    driver.type("t")
    driver.until("THE DICE ON TRIAL (1/3)", max_frames=20000)
    page = driver.text()
    assert "Dice: seeded with 44" in page[2]
    thrown = driver.dice.thrown                  # every face the source gave, in order
    rolls = [a.dice for g in record.games for a in g.actions if a.kind == "move"]
    assert [face for roll in rolls for face in roll] == thrown    # no throw left out
    white, black = record.sides
    seen = page_numbers(page, "Number")
    for face in range(1, 7):
        assert sum(seen[str(face)]) == thrown.count(face)
    per_side = {side: sum(1 for g in record.games for a in g.actions
                          if a.kind == "move" and a.side == side) for side in record.sides}
    assert re.search(rf"white {per_side[white]}, black {per_side[black]}", page[3])
    driver.type("\n")
    driver.until("THE DICE ON TRIAL (2/3)")
    assert sum("p = " in line for line in driver.text()) == 4
    driver.type("\n")
    driver.until("THE DICE ON TRIAL (3/3)")
    games = [line for line in driver.text() if re.match(r"\s+\d+\s+[+-]\d", line)]
    assert len(games) == len(record.games)
    driver.type("\n")
    driver.until("T: the dice", max_frames=5000)            # back on the match-over page


def test_the_options_between_games_offer_the_dice():
    driver = GameDriver(dice=Dice(3), settings=Settings(players="computer-computer",
                                                        speed="instant"))
    driver.until("Demo: any key", max_frames=300000)
    driver.type(" ")
    driver.until("OPTIONS", max_frames=5000)
    assert any("T The dice on trial" in line for line in driver.text())
    driver.type("t")
    driver.until("THE DICE ON TRIAL (1/3)", max_frames=20000)
    for _ in range(3):
        driver.type("\n")
        driver.run(4)
    driver.until("OPTIONS", max_frames=5000)
