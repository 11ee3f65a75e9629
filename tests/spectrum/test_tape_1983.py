"""The 1983 rules load a tape whose loading picture shows no doubling cube (issue 59 item 6):
the card has no cube, yet the one picture showed a cube marked 64 on the bar. make_tape
builds both tapes; a run under the 1983 rules (the option, --1983) loads its own; the full
game's picture keeps its cube. Both rebuild byte for byte and list in tzxlist."""
import pathlib

import pytest

from game import main as console
from game.zx import make_tape, media
from game.zx.romcheck import machine_for
from spectrum import hw
from spectrum import tape as T
from tape_listers import tzxlist

CUBE_CELLS = [(row, col) for row in (10, 11) for col in (15, 16)]   # on the bar


def cells(screen: bytes, row: int, col: int) -> tuple:
    """A character cell of a SCREEN$: its attribute and its 8 pixel bytes."""
    attr = screen[hw.SCREEN_BYTES - 768 + 32 * row + col]
    pixels = tuple(screen[(row // 8) << 11 | (row & 7) << 5 | line << 8 | col]
                   for line in range(8))
    return attr, pixels


def test_the_1983_picture_has_no_cube_and_the_full_picture_keeps_its_64():
    full, card = make_tape.loading_picture(), make_tape.loading_picture(cube=False)
    bar = cells(card, 12, 15)                       # the bar below the cube's place
    assert all(cells(card, r, c)[0] == bar[0] and not any(cells(card, r, c)[1])
               for r, c in CUBE_CELLS)              # the bar's colour, nothing drawn
    assert any(cells(full, 10, col)[1] != cells(card, 10, col)[1] for col in (15, 16))
    differ = [i for i in range(hw.SCREEN_BYTES) if full[i] != card[i]]
    cube_bytes = {hw.SCREEN_BYTES - 768 + 32 * r + c for r, c in CUBE_CELLS} | {
        (r // 8) << 11 | (r & 7) << 5 | line << 8 | c for r, c in CUBE_CELLS
        for line in range(8)}
    assert differ and set(differ) <= cube_bytes     # nothing else of the picture changes


@pytest.mark.parametrize("rules_1983", [False, True])
def test_each_tape_rebuilds_byte_for_byte(rules_1983):
    path = media.tape_for(rules_1983)
    assert make_tape.build_tape(rules_1983) == pathlib.Path(path).read_bytes()


def test_tzxlist_lists_the_1983_tape_as_the_full_one_with_passing_checksums():
    out = tzxlist(media.TAPE_1983_PATH)
    blocks = T.read_tape(media.TAPE_1983_PATH).blocks
    assert 'Program: "BACKGAMMON" LINE 10' in out
    assert 'Bytes: "bgscreen  " SCREEN$  16384, 6912' in out
    sums = [line for line in out.splitlines() if "Checksum" in line]
    assert len(sums) == len(blocks) == 6 and all("PASS" in line for line in sums)


def loaded_screen(runner) -> bytes:
    """The Runner's loading sequence run to its end: the screen as the game finds it."""
    machine = runner.machine
    for _ in range(10_000):
        try:
            next(runner.loading)
        except StopIteration:
            break
        machine.run_frame()
    return bytes(machine.memory[hw.SCREEN_ADDR:hw.SCREEN_ADDR + hw.SCREEN_BYTES])


@pytest.mark.parametrize("rules, cube", [("1983", False), ("full", True)])
def test_a_run_loads_the_tape_of_its_rules(config, rules, cube):
    runner = console.Runner(machine_for(None, False), "instant", rules=rules, resume=False)
    screen = loaded_screen(runner)
    picture = make_tape.loading_picture(cube=cube)
    assert all(cells(screen, r, c) == cells(picture, r, c) for r, c in CUBE_CELLS)
