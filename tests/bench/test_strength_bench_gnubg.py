"""bench/strength.py's gnubg0 player (GNU Backgammon's 0-ply net from the optional package
gnubg-nn; gnubg1 and gnubg2 ask it for its own 1- and 2-ply choice): its plays are legal plays of
ours, and a position gnubg-nn refuses or a play our rules do not allow stops the run with a
message naming the position and dice. Also its level5p2/level5p3 players, which meet in one
process, each searching at its own depth."""
import random

import pytest

from conftest import bench_module, outside_module
from game.model.position import Position
from game.model.rules import legal_plays, legal_results
from game.model.search_settings import SearchSettings
from native import lib

strength = bench_module("strength")


class _FakeGnubg:
    """Stands in for gnubg_nn: answers a fixed move, or raises what gnubg-nn might raise."""

    def __init__(self, move=None, error=None):
        self.move, self.error = move, error
        self.plies_asked = []

    def best_move(self, board, die1, die2, plies=0):
        self.plies_asked.append(plies)
        if self.error:
            raise self.error
        return self.move


def _player(monkeypatch, fake, name="gnubg0"):
    monkeypatch.setattr(strength, "_gnubg_module", lambda name: fake)
    return strength.make_player(name)


@pytest.mark.parametrize("name, plies", [("gnubg0", 0), ("gnubg1", 1), ("gnubg2", 2)])
def test_gnubg_players_ask_gnubg_nn_at_their_own_depth(monkeypatch, name, plies):
    fake = _FakeGnubg(move=((8, 5), (6, 5)))                              # 3-1: the 5-point
    player = _player(monkeypatch, fake, name)
    after = player.choose(list(Position.start().board), 3, 1)
    assert fake.plies_asked == [plies] and player.name == name
    assert Position(tuple(after)).position_id in legal_results(Position.start().position_id,
                                                               (3, 1))


def test_a_gnubg_of_three_plies_is_an_unknown_player():
    with pytest.raises(SystemExit, match="unknown player 'gnubg3'"):
        strength.make_player("gnubg3")


def test_a_gnubg_move_from_the_bar_with_a_hit_lands_where_our_rules_put_it():
    pos = Position.from_points({6: 5, 8: 3, 13: 5, 24: 1, "bar": 1},
                               {3: 1, 6: 5, 8: 3, 13: 4, 24: 2})
    after = strength.apply_gnubg_move(list(pos.board), ((25, 22), (22, 16)))
    assert Position(tuple(after)).position_id in legal_results(pos.position_id, (6, 3))
    assert after[25 + 24] == 1          # the blot on our 22-point (its 3) went to its bar


def test_a_play_our_rules_forbid_stops_the_run_naming_the_position(monkeypatch):
    pos = Position.start()
    player = _player(monkeypatch, _FakeGnubg(move=((13, 7), (13, 10))))   # a 6 and a 3
    with pytest.raises(strength.GnubgRejected, match=f"{pos.position_id}, dice 64.*not a legal"):
        player.choose(list(pos.board), 6, 4)


def test_a_move_that_cannot_be_made_is_named(monkeypatch):
    pos = Position.start()
    player = _player(monkeypatch, _FakeGnubg(move=((5, 1), (13, 9))))      # no man on 5
    with pytest.raises(strength.GnubgRejected, match="cannot be made"):
        player.choose(list(pos.board), 4, 4)


def test_an_exception_inside_gnubg_nn_becomes_a_clear_message(monkeypatch):
    pos = Position.start()
    player = _player(monkeypatch, _FakeGnubg(error=ValueError("bad board")))
    with pytest.raises(strength.GnubgRejected, match="gnubg-nn rejected .*dice 31.*bad board"):
        player.choose(list(pos.board), 3, 1)


def test_an_impossible_board_is_never_sent_to_gnubg(monkeypatch):
    player = _player(monkeypatch, _FakeGnubg(error=AssertionError("must not be called")))
    board = [16] + [0] * 49
    with pytest.raises(strength.GnubgRejected, match="not a possible position"):
        player.choose(board, 3, 1)


@pytest.mark.parametrize("name, moves", [("gnubg0", 60), ("gnubg2", 8)])
def test_real_gnubg_plays_are_legal_plays_of_ours(name, moves):
    outside_module("gnubg_nn")
    player = strength.make_player(name)
    rng = random.Random(8)
    pos = Position.start()
    for _ in range(moves):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        after = Position(tuple(player.choose(list(pos.board), *dice)))
        assert after.position_id in legal_results(pos.position_id, dice)
        nxt = rng.choice(legal_plays(pos, dice)).after
        if lib.bg_game_result(nxt.as_c()) != 0:
            pos = Position.start()
        else:
            pos = nxt.swapped()


def test_a_rejected_position_stops_the_run_keeping_the_pairs_already_played(monkeypatch, capsys):
    gnubg_nn = outside_module("gnubg_nn")
    calls = {"n": 0}

    class FlakyGnubg:
        """gnubg-nn's own moves until the 200th question, which it refuses."""
        def best_move(self, board, die1, die2, plies=0):
            calls["n"] += 1
            if calls["n"] >= 200:
                raise RuntimeError("refused")
            return gnubg_nn.best_move(board, die1, die2, plies)

    monkeypatch.setattr(strength, "_gnubg_module", lambda name: FlakyGnubg())
    monkeypatch.setattr("sys.argv", ["strength.py", "level1", "gnubg0", "--games", "40"])
    with pytest.raises(SystemExit, match="stopped early on a position gnubg-nn rejected"):
        strength.main()
    out, err = capsys.readouterr()
    assert "gnubg-nn rejected position" in err and "RuntimeError: refused" in err
    played = int(out.split("games: ")[1].split()[0])
    assert 2 <= played < 40 and played % 2 == 0


def test_level5p2_and_level5p3_each_search_at_their_own_depth_in_one_process():
    from game.model import evaluator as ev
    from shared_cases import positions_from_play as _positions_from_play
    ev.ensure_loaded()
    p2, p3 = strength.make_player("level5p2"), strength.make_player("level5p3")
    differ = 0
    # until the two depths have chosen differently once (at least 4 positions checked; on
    # seed 16 net48's first difference is the 4th position, on seed 23 the 41st)
    for i, pos in enumerate(_positions_from_play(60, seed=16)):
        dice = (6, 5) if i % 2 else (3, 1)
        board = list(pos.as_c())
        by3, by2 = p3.choose(board, *dice), p2.choose(board, *dice)   # alternating calls
        want3 = ev.ranked_plays(pos.position_id, dice, 5, limit=1,
                                search=SearchSettings(plies=3))[0].play.after
        assert Position(tuple(by3)) == want3
        best = ev.ranked_plays(pos.position_id, dice, 5, limit=1)[0]
        assert Position(tuple(by2)) == best.play.after
        differ += by2 != by3
        if differ and i >= 3:
            break
    assert differ >= 1
