"""bench/chance_bias.py's kinds on tiny inputs: a contact position is put in the band of the
side on roll's win chance that the referee gives, and a race in none. They check the bench's
logic, not its figures."""
from conftest import bench_module
from game.model.position import Position

bench = bench_module("chance_bias")


def kinds_at(position: Position, win: float) -> list[str]:
    return bench.position_kinds(list(position.mover) + list(position.opponent), position, win)


def test_a_contact_position_goes_in_the_win_band_the_referee_gives_and_no_other():
    start = Position.start()
    favourite, underdog = (f"contact, {name}" for name, _, _ in bench.WIN_BANDS)
    assert favourite in kinds_at(start, 0.75) and underdog not in kinds_at(start, 0.75)
    assert underdog in kinds_at(start, 0.2) and favourite not in kinds_at(start, 0.2)
    assert not {favourite, underdog} & set(kinds_at(start, 0.5))


def test_a_race_is_in_no_win_band():
    race = Position.from_points({6: 8, 5: 7}, {6: 8, 5: 7})
    assert kinds_at(race, 0.8) == ["all", "race"]
