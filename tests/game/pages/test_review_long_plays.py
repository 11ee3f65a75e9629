"""A review move page shows every step of the play and the player's name whole (issue 59 item
1): 55 played as m5 m5 h5 h5 in a match, marked ??, showed as "5 Y 55: m5 m5 h5 ?? -0.163
-4.1%", the fourth step gone and "You" cut to "Y". When the headline cannot hold the play
beside its figures, the figures go to the front of the message line. Records are played in
code and judged at level 3 (the screen is under test, not the judge)."""
import functools
import re

import pytest

from game.analysis import checking
from game.analysis.judge import review_game
from game.board import lines, message_rows
from game.board import screen as S
from game.model.match import COMPUTER, HUMAN
from game.model.record import MatchRecord
from game.pages.review_pages import message_lines, page_lines
from page_drivers import ReviewDriver as Driver
from review_records import FEW_GAMES, one_game, played_out

LEVEL = 3


@pytest.fixture
def cuts(monkeypatch):
    lost: list[str] = []
    monkeypatch.setattr(lines, "CUT_LISTENERS", [lost.append])
    return lost


def doubles_game(record):
    """The opening 31, the computer's 64, then your 55 as 13/8(2) 8/3(2): m5 m5 h5 h5."""
    first, second = record.sides
    record.move(first, (3, 1), "8/5 6/5")
    record.move(second, (6, 4), "24/18 13/9")
    record.move(first, (5, 5), "13/8 13/8 8/3 8/3")
    return record


@functools.cache
def doubles_review(length: int, checked: bool):
    """doubles_game at `length` (0: money) and its review at LEVEL (rollout checks of
    FEW_GAMES), reviewed once a worker: several tests read the same pages of it."""
    record = doubles_game(one_game(length=length))
    return record, review_game(record, level=LEVEL, checked=checked, roll_games=FEW_GAMES)


def the_55(record, names=None, review=None):
    if review is None:
        review = review_game(record, level=LEVEL, roll_games=FEW_GAMES)
    item = next(i for i in review.items if i.kind == "move" and i.dice == (5, 5))
    return item, page_lines(item, record.sides[0], names or review.names)


def test_a_55_in_four_steps_in_a_match_shows_every_step_the_name_and_its_figures(cuts):
    record, review = doubles_review(5, checked=True)
    item, (head, message) = the_55(record, review=review)
    assert item.mark == "??" and item.mwc_loss is not None
    assert head.startswith("3 You 55: m5 m5 h5 h5") and head.rstrip().endswith("??")
    assert message.startswith(f"-{item.loss:.3f} {-item.mwc_loss:.1f}% Best ")
    assert len(head) <= S.COLS and len(message) <= S.COLS and cuts == []


def test_a_long_imported_name_is_shown_whole_to_its_eight_letters_beside_four_steps(cuts):
    record = doubles_game(one_game_named("Mochizuki", "Ochs"))
    quick = review_game(record, level=LEVEL, checked=False)     # the 55's lines are laid out
    item, (head, message) = the_55(record, review=quick)        # as the CHECKED review's are
    assert head.startswith("3 Mochizuk 55: m5 m5 h5 h5")
    assert f"-{item.loss:.3f}" in message and f"{-item.mwc_loss:.1f}%" in message
    assert cuts == []


def one_game_named(first: str, second: str) -> MatchRecord:
    record = MatchRecord(5, names={"white": first, "black": second}, sides=("white", "black"))
    record.start_game({"white": 0, "black": 0})
    return record


def the_55_checked_at_3_plies(length):
    """doubles_game at `length` and its 55's item as the 3-ply check leaves it
    (checking.check_move of the QUICK review's: what the review charges an error of
    0.01-0.02, and the tutor says), and the review's names. A CHECKED review rolls this one
    out (test_a_move_page_says_its_depth_as_n_ply_never_2p)."""
    record, review = doubles_review(length, checked=False)
    quick = next(i for i in review.items if i.kind == "move" and i.dice == (5, 5))
    item = checking.check_move(quick)
    return record, item, review.names


def test_a_headline_that_fits_keeps_its_figures_and_the_message_its_depth(cuts):
    record, item, names = the_55_checked_at_3_plies(length=0)          # money: no MWC
    head, message = page_lines(item, record.sides[0], names)
    assert head.startswith("3 You 55: m5 m5 h5 h5") and \
        head.rstrip().endswith(f"?? -{item.loss:.3f}")
    assert message.startswith("Best ") and message.endswith(f" {item.best.ply}-ply")
    assert item.best.ply == checking.CHECK_PLY and cuts == []


def test_the_review_page_on_the_screen_shows_the_four_steps_and_the_figures(cuts):
    driver = Driver(doubles_game(one_game(length=5)), checked=False)   # QUICK: the 55 is ??
    driver.until("ENTER: moves", row=S.ROWS - 1)                   # there too, figures alike
    driver.type("\n")
    while "55:" not in driver.text()[11]:
        driver.type("\n")
        driver.run(2)
    assert driver.text()[11].startswith("3 You 55: m5 m5 h5 h5")
    assert "??" in driver.text()[11]
    assert "% Best " in driver.text()[S.MESSAGE_ROW]
    assert cuts == []
    assert COMPUTER and HUMAN


DEPTH_CUT = re.compile(r"(^|\s)\d+p(\s|$)")          # "2p": the old shortened depth


# a whole game played out at level 3 (47 turns: its 9 doubles, and CHECKED, 9 plays rolled out
# and 2 checked at 3 plies), the pages of every kind a played game gives; seed 7's 84 turns gave
# the same kinds at twice the review's cost
WHOLE_GAME_SEED = 42


def move_pages(record, checked: bool, review=None):
    """(item, its message rows) of every move page of the record's game."""
    if review is None:
        review = review_game(record, level=LEVEL, checked=checked, roll_games=FEW_GAMES)
    return [(item, message_lines(item, record.sides[0], review.names))
            for item in review.items if item.kind == "move"]


@pytest.mark.parametrize("length", [0, 5])
@pytest.mark.parametrize("checked", [False, True])
def test_a_move_page_says_its_depth_as_n_ply_never_2p(cuts, length, checked):
    """The message line shortened the depth to "2p" where "2-ply" had no room (a 55 in four
    steps, a long best play); the depth is said one way, "2-ply", on the message line or
    on the row above it (a play rolled out by its check: "324 games" on that row)."""
    record, review = doubles_review(length, checked)
    pages = move_pages(record, checked, review)
    if length or not checked:        # a whole game checked: once, in the match (the longer lines)
        pages += move_pages(played_out(WHOLE_GAME_SEED, level=LEVEL, length=length), checked)
    for item, rows in pages:
        assert not any(DEPTH_CUT.search(row) for row in rows), rows
        rolled = item.check is not None and item.check.games
        depth = f"{item.check.games} games" if rolled else f"{item.best.ply}-ply"
        assert depth in " ".join(rows), rows                           # every time
        if item.check is None:                 # and the luck
            assert f"luck {item.luck:+.2f}" in " ".join(rows), rows
        assert len(rows[-1]) <= S.COLS and all(len(row) <= message_rows.ROW_COLS
                                               for row in rows[:-1])
    assert cuts == []


def test_the_55_in_a_match_unchecked_has_its_depth_and_luck_on_the_row_above(cuts):
    record, review = doubles_review(5, checked=False)
    item = next(i for i in review.items if i.kind == "move" and i.dice == (5, 5))
    above, message = message_lines(item, record.sides[0], review.names)
    assert message.startswith(f"-{item.loss:.3f} {-item.mwc_loss:.1f}% Best ")
    assert above == f"{item.best.ply}-ply luck {item.luck:+.2f}"
    assert cuts == []


def test_the_55_in_a_match_checked_says_its_depth_in_the_check_row(cuts):
    record, item, names = the_55_checked_at_3_plies(length=5)
    above, message = message_lines(item, record.sides[0], names)
    assert message.startswith(f"-{item.loss:.3f} {-item.mwc_loss:.1f}% Best ")  # the checked
    assert above == f"checked {item.check.ply}-ply (was {-item.check.quick:+.3f})"
    assert item.loss == pytest.approx(-item.check.error) and cuts == []
