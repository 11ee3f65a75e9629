"""bench/disputed_plays.py on one real dispute (a 7-point match, 7-away/6-away, the opponent
owning the cube at 2; gnubg's analysis charged the play made 0.003 EMG at 2-ply): the set-up
gnubg is given, its hint read back, the plays it names found among ours, and a short rollout
read (36 games, to keep CI cheap: the bench's own figures use 648). The bench's logic, not its
figures."""
from types import SimpleNamespace

import pytest

from conftest import bench_module
from game.model import rules
from game.model.match_terms import MatchTerms
from game.model.position import Position
from game.model.record import format_play
from gnubg_tools import gnubg_binary

bench = bench_module("disputed_plays")

BEFORE, DICE = "zG4LAShsewMAQw", (6, 2)
TERMS = MatchTerms(cube_value=2, cube_owner=2, length=7, away_me=7, away_opp=6)


def test_one_play_written_in_either_programs_notation_has_one_signature():
    same = [("13/7 7/1*", "13/7/1*"), ("13/7/1*", "13/1*"), ("24/18(2)", "24/18 24/18"),
            ("bar/23 21/15", "21/15 bar/23"), ("8/4(2) 6/2(2)", "6/2 8/4 6/2 8/4"),
            ("bar/21* bar/21 13/9 13/9", "bar/21*(2) 13/9(2)")]   # the point is hit once
    for ours, theirs in same:
        assert bench.signature(ours) == bench.signature(theirs), (ours, theirs)
    # a man hit on the way is another play, though the men end where they would have
    assert bench.signature("13/7* 7/1*") != bench.signature("13/1*")
    assert bench.signature("24/18 13/7") != bench.signature("24/18(2)")


def gnubg_after_set_up(terms: MatchTerms, on_roll_is_mover: bool) -> str:
    """What gnubg says of the score, the cube and the turn after the bench's set-up (its
    player 0, "gnubg", is the mover's opponent; player 1, "root", the mover)."""
    gnubg_binary()                          # a skip without gnubg, a failure in CI
    said = bench.run_gnubg(["set player 0 human", "set player 1 human",
                            *bench.set_up(terms, on_roll_is_mover), "show score", "show cube",
                            "show turn"], 60)
    return " ".join(said.split())


def test_the_set_up_gives_gnubg_the_movers_score_cube_and_crawford_state():
    said = gnubg_after_set_up(TERMS, on_roll_is_mover=True)
    assert "is: gnubg 1, root 0 (match to 7 points)" in said    # player 0 is the opponent
    assert "The cube is at 2, and is owned by gnubg." in said  # the opponent owns it
    assert "root in on roll." in said and "Crawford" not in said
    crawford = gnubg_after_set_up(MatchTerms(1, 0, 5, 1, 3, 1), on_roll_is_mover=False)
    assert "is: gnubg 2, root 4 (match to 5 points, Crawford game)" in crawford
    assert "gnubg in on roll." in crawford
    money = gnubg_after_set_up(MatchTerms(4, 1, 0, 0, 0, 0), True)
    assert "(money session, without Jacoby rule)" in money        # as the bench's games
    assert "The cube is at 4, and is owned by root." in money


@pytest.fixture(scope="module")
def dispute():
    gnubg_binary()                          # a skip without gnubg, a failure in CI
    position = Position.from_id(BEFORE)
    plays = {format_play(p.steps): p for p in rules.legal_plays(position, DICE)}
    choice = {words: SimpleNamespace(words=words, play=play) for words, play in plays.items()}
    item = SimpleNamespace(before=position, dice=DICE, terms=TERMS, check=None,
                           played=choice["bar/23 21/15"], best=choice["bar/23 21/15"])
    found = bench.Dispute(item, ours=0.0, gnubg=0.003)
    bench.judge(found, trials=36, seed=1, threads=2)
    return found


def test_gnubgs_hint_in_the_set_up_charges_the_play_as_its_analysis_did(dispute):
    assert dispute.note == ""               # gnubg's best play was found among ours
    assert dispute.hinted == pytest.approx(0.003, abs=0.0015)


def test_the_rollout_judges_the_play_made_against_gnubgs_best(dispute):
    assert dispute.rolled is not None and dispute.rolled >= 0.0
    assert 0.0 < dispute.rolled_se < 0.2 or dispute.rolled == 0.0
