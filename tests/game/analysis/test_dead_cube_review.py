"""A dead cube gives the review no decision (issue 57 item 3): at 2-away/2-away with the cube
at 2 the owner's rolls were each judged as a "no double" and counted (at level 5, 23 of them in
the game below, 24 cube decisions where GNU Backgammon counts 2). The review asks the one rule
(MatchTerms.double_refused), so the dead cube's rolls make no item, no count and no page, and
the turns with a cube decision are GNU Backgammon's. Records are played in code."""
import re

import pytest

from game.analysis.judge import review_game
from game.matchfiles.matfile import write_mat
from game.model.match import COMPUTER, HUMAN
from game.model.record import MatchRecord
from game.pages.review_pages import shown_items
from gnubg_tools import run_gnubg_commands
from review_records import QUICK, played_out

# the score (human, computer) of a match, the turn the human doubles at (the computer takes;
# then level 3's best, now and then one of its next three, seeded dice, to the end)
GAMES = {
    "2-away/2-away": (3, {HUMAN: 1, COMPUTER: 1}, 3),
    "the trailer doubles after Crawford": (5, {HUMAN: 1, COMPUTER: 4}, 3),
}


@pytest.fixture(scope="module")
def reviews():
    out = {}
    for name, (length, score, at) in GAMES.items():
        record = played_out(1, length=length, score=score, double_at=at)   # the human doubles
        out[name] = record, review_game(record, level=QUICK, checked=False)
    return out


def after_the_take(review) -> list:
    kinds = [i.kind for i in review.items]
    return review.items[kinds.index("take") + 1:]


def test_dead_cube_at_two_away_two_away_review_counts_no_decision(reviews):
    _, review = reviews["2-away/2-away"]
    owners_rolls = [i for i in after_the_take(review) if i.kind == "move" and i.side == COMPUTER]
    assert len(owners_rolls) >= 20                     # each was a "no double" before
    assert [i for i in after_the_take(review) if i.kind != "move"] == []
    cube = [(i.side, i.kind) for i in review.items if i.kind != "move"]
    assert cube == [(COMPUTER, "no double"), (HUMAN, "double"), (COMPUTER, "take")]
    assert review.summary()[COMPUTER].cube_decisions <= 2


def test_dead_cube_review_shows_no_move_page_for_it(reviews):
    for _, review in reviews.values():
        pages = shown_items(review, (HUMAN, COMPUTER))
        assert not any(i.kind == "no double" for i in after_the_take(review) if i in pages)


def test_dead_cube_after_crawford_the_leader_has_no_decision_at_all(reviews):
    """4-away against 1-away after the Crawford game: the leader's cube is dead from the
    start (1-away, cube 1), the trailer's once the leader owns 2."""
    _, review = reviews["the trailer doubles after Crawford"]
    cube = [(i.side, i.kind) for i in review.items if i.kind != "move"]
    assert (COMPUTER, "no double") not in cube and cube[-2:] == [(HUMAN, "double"),
                                                                 (COMPUTER, "take")]


def gnubg_cube_decisions(record: MatchRecord, tmp_path) -> dict:
    """GNU Backgammon's "Total cube decisions" per side (every turn it judged a cube at,
    close or not) in its 0-ply analysis of `record` as a .mat."""
    mat = tmp_path / "game.mat"
    write_mat(record, mat)
    code, said = run_gnubg_commands(tmp_path, [
        f"import mat {mat}", "set analysis chequerplay evaluation plies 0",
        "set analysis cubedecision evaluation plies 0", "analyse match",
        "show statistics match"])
    assert code == 0, said
    header = re.search(r"^Player\s+(\S+)\s+(\S+)", said, re.M)
    row = re.search(r"^Total cube decisions\s+(\d+)\s+(\d+)", said, re.M)
    assert header and row, said
    names = {record.names[side]: side for side in record.sides}
    return {names[header.group(k)]: int(row.group(k)) for k in (1, 2)}


@pytest.mark.parametrize("name", list(GAMES))
def test_dead_cube_review_has_a_cube_decision_where_gnubg_judges_one(name, reviews, tmp_path):
    record, review = reviews[name]
    ours = {side: sum(1 for i in review.items if i.kind != "move" and i.side == side)
            for side in record.sides}
    assert ours == gnubg_cube_decisions(record, tmp_path)
