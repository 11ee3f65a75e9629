"""Our own 16 KiB Spectrum ROM: where its image, source and symbol table live, and the
readers for them (the image, and pasmo's symbol files as name -> address dicts).
Not the emulator (spectrum/) and not the Sinclair ROM, which this project never ships."""
import os
import re

ROM_DIR = os.path.dirname(os.path.abspath(__file__))
ROM_PATH = os.path.join(ROM_DIR, "rom.bin")
ROM_SOURCE = os.path.join(ROM_DIR, "rom.asm")
ROM_SYMBOLS = os.path.join(ROM_DIR, "rom.sym")
ROM_BYTES = 16_384

GAME_DIR = os.path.join(os.path.dirname(ROM_DIR), "game")
MCODE_SOURCE = os.path.join(GAME_DIR, "mcode.asm")
MCODE_PATH = os.path.join(GAME_DIR, "mcode.bin")
MCODE_SYMBOLS = os.path.join(GAME_DIR, "mcode.sym")
TAPE_PATH = os.path.join(ROM_DIR, "backgammon.tap")


class RomFileError(ValueError):
    """A ROM image or symbol file is missing or malformed; the message names the file."""


def load_rom(path: str = ROM_PATH) -> bytes:
    """The ROM image: exactly 16,384 bytes, or RomFileError naming the file."""
    try:
        with open(path, "rb") as f:
            data = f.read(ROM_BYTES + 1)
    except OSError as exc:
        raise RomFileError(f"ROM image {path}: cannot be read ({exc.strerror or exc}); "
                           f"rebuild it with: pasmo --bin roms/rom.asm roms/rom.bin roms/rom.sym") from None
    if len(data) != ROM_BYTES:
        size = f"{len(data)} bytes" if len(data) <= ROM_BYTES else f"more than {ROM_BYTES} bytes"
        raise RomFileError(f"ROM image {path}: {size}; it must be exactly {ROM_BYTES} bytes")
    return data


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


_cache = {}


def rom_symbols() -> dict:
    """Every label and EQU of roms/rom.asm: entry points and system variables."""
    if "rom" not in _cache:
        _cache["rom"] = load_symbols(ROM_SYMBOLS)
    return _cache["rom"]


def mcode_symbols() -> dict:
    """The labels of game/mcode.asm (USR_ENTRY, PARAMS, ...)."""
    if "mcode" not in _cache:
        _cache["mcode"] = load_symbols(MCODE_SYMBOLS)
    return _cache["mcode"]


def load_mcode() -> bytes:
    """The assembled machine-code block (game/mcode.bin)."""
    try:
        with open(MCODE_PATH, "rb") as f:
            return f.read()
    except OSError as exc:
        raise RomFileError(f"machine code {MCODE_PATH}: cannot be read ({exc.strerror or exc})") from None
