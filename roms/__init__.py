"""Our own 16 KiB Spectrum ROM: where its image, source and symbol table live, and the
readers for them (the image, and pasmo's symbol files as name -> address dicts).
Not the emulator (spectrum/), not the game's files (game/zx/media.py), and not the Sinclair
ROM, which this project never ships."""
import os
import re

from spectrum.machine import RomImageError, load_rom_image

ROM_DIR = os.path.dirname(os.path.abspath(__file__))
ROM_PATH = os.path.join(ROM_DIR, "rom.bin")
ROM_SOURCE = os.path.join(ROM_DIR, "rom.asm")
ROM_SYMBOLS = os.path.join(ROM_DIR, "rom.sym")


class RomFileError(RomImageError):
    """A ROM image or symbol file is missing or malformed; the message names the file."""


def load_rom(path: str = ROM_PATH) -> bytes:
    """The ROM image (spectrum.machine's reader: exactly 16,384 bytes), or RomFileError
    naming the file and how to rebuild it."""
    try:
        return load_rom_image(path)
    except RomImageError as exc:
        raise RomFileError(f"{exc}; rebuild it with: pasmo --bin roms/rom.asm roms/rom.bin "
                           f"roms/rom.sym") from None


_SYMBOL_LINE = re.compile(r"^(\w+)\s+EQU\s+0*([0-9A-Fa-f]+)H\s*$")


def parse_symbols(text: str, name: str = "symbol file") -> dict:
    """pasmo's symbol output ('NAME<tab>EQU 01234H' a line) -> {NAME: value}."""
    symbols = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        match = _SYMBOL_LINE.match(line.strip())
        if not match:
            raise RomFileError(f"{name} line {number}: not a pasmo symbol line: {line!r}")
        symbols[match.group(1)] = int(match.group(2) or "0", 16)
    return symbols


def load_symbols(path: str) -> dict:
    try:
        with open(path, encoding="ascii") as f:
            return parse_symbols(f.read(), path)
    except OSError as exc:
        raise RomFileError(f"symbol file {path}: cannot be read ({exc.strerror or exc})") from None


_cache: dict[str, dict] = {}


def rom_symbols() -> dict:
    """Every label and EQU of roms/rom.asm: entry points and system variables."""
    if "rom" not in _cache:
        _cache["rom"] = load_symbols(ROM_SYMBOLS)
    return _cache["rom"]

