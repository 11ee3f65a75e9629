"""--rom's bad input (game/zx/romcheck.py): a missing file, a file of the wrong size, a ROM that
never reaches a prompt, a ROM whose RST 10h prints nothing or never returns: each a message
naming the file and what is wrong, then the offer to go on with our own ROM. Tiny ROM images
are built here in code; no other ROM is needed."""
import io

import pytest

from game import main as game_main
from game.zx import romcheck
from spectrum import hw
from spectrum.machine import Spectrum48


def rom_image(parts: dict) -> bytes:
    """16 KiB of FFh with the given {address: bytes} written in."""
    image = bytearray(b"\xff" * hw.ROM_BYTES)
    for address, code in parts.items():
        image[address:address + len(code)] = code
    return bytes(image)


# A ROM that starts like a 48K one (IM 1, FRAMES counted by its interrupt, something on the
# screen, then EI; HALT), with RST 10h given as `rst10`.
STARTS = bytes.fromhex("f3"         # di
                       "310000"     # ld sp,0
                       "210040"     # ld hl,4000h
                       "36ff"       # ld (hl),0FFh
                       "ed56"       # im 1
                       "fb76"       # ei; halt
                       "18fd")      # jr to the halt
COUNTS_FRAMES = bytes.fromhex("e5"  # push hl
                              "2a785c23"  # ld hl,(FRAMES); inc hl
                              "22785c"    # ld (FRAMES),hl
                              "e1fbc9")   # pop hl; ei; ret


def starting_rom(rst10: bytes) -> bytes:
    return rom_image({0: STARTS, 0x10: rst10, 0x38: COUNTS_FRAMES, 0x1601: b"\xc9"})


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_missing_file_is_named():
    with pytest.raises(romcheck.RomProblem, match=r"ROM image /no/such/48\.rom: file not found"):
        romcheck.checked_machine("/no/such/48.rom")


def test_wrong_size_is_named_with_its_size(tmp_path):
    path = write(tmp_path, "short.rom", bytes(8192))
    with pytest.raises(romcheck.RomProblem,
                       match=r"short\.rom: 8192 bytes; a 48K ROM image is exactly 16384"):
        romcheck.checked_machine(path)
    path = write(tmp_path, "long.rom", bytes(32768))
    with pytest.raises(romcheck.RomProblem, match=r"long\.rom: more than 16384 bytes"):
        romcheck.checked_machine(path)


def test_a_rom_that_never_reaches_a_prompt_is_refused_within_5_emulated_seconds(tmp_path):
    path = write(tmp_path, "halts.rom", rom_image({0: bytes.fromhex("f376")}))   # DI; HALT
    with pytest.raises(romcheck.RomProblem,
                       match=r"halts\.rom: did not boot to a prompt within 5 s"):
        romcheck.checked_machine(path)


def test_a_rom_whose_rst_10h_prints_nothing_is_refused(tmp_path):
    path = write(tmp_path, "silent.rom", starting_rom(b"\xc9"))                    # RET
    with pytest.raises(romcheck.RomProblem,
                       match=r"silent\.rom: RST 10h did not print 'X' into screen memory"):
        romcheck.checked_machine(path)


def test_a_rom_whose_rst_10h_never_returns_is_refused(tmp_path):
    path = write(tmp_path, "stuck.rom", starting_rom(b"\x18\xfe"))                # JR $
    with pytest.raises(romcheck.RomProblem, match=r"stuck\.rom: RST 10h .* did not return"):
        romcheck.checked_machine(path)


def test_on_a_bad_rom_the_player_is_offered_our_own_rom(tmp_path):
    path = write(tmp_path, "short.rom", bytes(100))
    out = io.StringIO()
    asked = []
    machine = romcheck.machine_for(path, ask=lambda q: asked.append(q) or "", out=out)
    assert "short.rom: 100 bytes" in out.getvalue()
    assert asked == ["Go on with Spectrum Backgammon's own ROM? (Y/n) "]
    assert isinstance(machine, Spectrum48) and romcheck.rom_choice(machine) is None
    assert romcheck.machine_for(path, ask=lambda q: "n", out=io.StringIO()) is None

    def no_stdin(question):
        raise EOFError
    assert romcheck.machine_for(path, ask=no_stdin, out=io.StringIO()) is None


def test_the_console_script_reports_a_missing_rom_and_stops_when_not_told_to_go_on(capsys):
    assert game_main.main(["--rom", "/no/such/48.rom", "--frames", "1"]) == 2
    assert "ROM image /no/such/48.rom: file not found" in capsys.readouterr().err


def test_rom_and_autoload_are_in_the_help(capsys):
    with pytest.raises(SystemExit):
        game_main.parse_args(["--help"])
    text = capsys.readouterr().out
    assert "--rom PATH" in text and "--autoload" in text
