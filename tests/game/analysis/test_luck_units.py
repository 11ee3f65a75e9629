"""One unit on a page (issue 58 item 4): the dice pages' luck per game is the review's own
luck of that game, in the review's units (EMG at the game's score in a match, points a game
per unit of cube in money play), so the figure a player reads on the dice page is the one the
review's summary gives beside the errors, and the page names the unit. Records are played in
code (test_review's played_out)."""
import pytest

from game.analysis import dicestats as D
from game.analysis.judge import luck_of, review_game
from game.analysis.replay import replay
from game.model.match import COMPUTER, HUMAN
from game.model.record import MatchRecord
from game.pages.dice_pages import luck_lines
from review_records import QUICK, played_out


def money_luck(record: MatchRecord) -> dict:
    """The luck as the dice pages said it before: cubeless money points at any score."""
    out = {side: 0.0 for side in record.sides}
    for turn in replay(record, record.games[0]):
        if turn.action.kind == "move":
            out[turn.action.side] += luck_of(turn.before, turn.action.dice)
    return out


@pytest.mark.parametrize("length", [0, 7])
def test_dice_pages_luck_of_a_game_is_its_reviews_luck_in_the_reviews_units(length):
    record = played_out(8, length=length)
    summary = review_game(record, level=QUICK, checked=False).summary()
    luck = D.luck_by_game(record, record.games[0])
    for side in (HUMAN, COMPUTER):
        assert luck[side] == pytest.approx(summary[side].luck, abs=1e-9)
    if length:                       # a match: EMG at the score, not the money figure
        assert luck != pytest.approx(money_luck(record), abs=1e-3)
    else:
        assert luck == pytest.approx(money_luck(record), abs=1e-9)


def test_the_luck_page_names_the_reviews_unit():
    match, money = played_out(8, length=7), played_out(8)
    lucks = [(1, D.luck_by_game(match, match.games[0]))]
    page = " ".join(luck_lines(match, lucks))
    assert "in EMG at each game's score" in page and "review's summary" in page
    assert "cubeless" not in page and "points a game" not in page
    page = " ".join(luck_lines(money, [(1, D.luck_by_game(money, money.games[0]))]))
    assert "points a game per unit of cube" in page and "EMG" not in page
    past_table = played_out(8, length=31)            # judged as money play: its units
    assert "points a game" in " ".join(luck_lines(past_table, []))
