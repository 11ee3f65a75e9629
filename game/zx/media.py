"""The game's media and how it puts them in the machine: our ROM (roms/), the machine-code
block (game/zx/mcode.*), the game's tape (roms/backgammon.tap, built by game/zx/make_tape.py).
spectrum/ is given these paths and symbols; it knows no game. Not the file formats."""
from __future__ import annotations

import os
from typing import Any

import roms
from spectrum import loader
from spectrum.machine import RomImage, Spectrum48

GAME_DIR = os.path.dirname(os.path.abspath(__file__))
MCODE_SOURCE = os.path.join(GAME_DIR, "mcode.asm")
MCODE_PATH = os.path.join(GAME_DIR, "mcode.bin")
MCODE_SYMBOLS = os.path.join(GAME_DIR, "mcode.sym")
TAPE_PATH = os.path.join(roms.ROM_DIR, "backgammon.tap")
TAPE_1983_PATH = os.path.join(roms.ROM_DIR, "backgammon-1983.tap")   # no cube in its picture
ROM_PATH = roms.ROM_PATH

_symbols: dict[str, dict] = {}


def tape_for(rules_1983: bool) -> str:
    """The tape a run loads: the 1983 rules' (its loading picture shows no doubling cube,
    as the card has none) or the full game's."""
    return TAPE_1983_PATH if rules_1983 else TAPE_PATH


def mcode_symbols() -> dict:
    """The labels of game/zx/mcode.asm (USR_ENTRY, PARAMS, ...)."""
    if "mcode" not in _symbols:
        _symbols["mcode"] = roms.load_symbols(MCODE_SYMBOLS)
    return _symbols["mcode"]


def load_mcode() -> bytes:
    """The assembled machine-code block (game/zx/mcode.bin)."""
    try:
        with open(MCODE_PATH, "rb") as f:
            return f.read()
    except OSError as exc:
        raise roms.RomFileError(f"machine code {MCODE_PATH}: cannot be read "
                                f"({exc.strerror or exc})") from None


def new_machine(rom: RomImage | None = None) -> Spectrum48:
    """A 48K on our ROM (or the ROM image given: bytes or a path)."""
    return Spectrum48(ROM_PATH if rom is None else rom)


def loading_sequence(machine: Spectrum48, mode: str = "fast",
                     tape: loader.TapeSource | None = None) -> loader.Frames:
    """LOAD "" of the game's tape (or the one given) as a per-frame generator."""
    return loader.loading_sequence(machine, mode, tape or TAPE_PATH, roms.rom_symbols())


def load_headless(machine: Spectrum48, mode: str = "instant",
                  tape: loader.TapeSource | None = None, **options: Any) -> loader.TapeLoader:
    """The whole loading of the game's tape (or the one given) without a window."""
    return loader.load_headless(machine, mode, tape or TAPE_PATH, roms.rom_symbols(), **options)
