"""docs/Z80.md stays true to the code: its worked block is what the compiler makes for our ROM's
BORDER routine now (cpu.explain_block), and the modules and passes it names exist."""
import re

import roms
from repo import REPO
from spectrum import z80_passes
from spectrum.machine import Spectrum48

DOC = REPO / "docs" / "Z80.md"
MARKER = "<!-- worked-block 1a34"


def worked_block_text():
    """The three text blocks after the marker, joined by blank lines (as explain_block prints)."""
    after = DOC.read_text().split(MARKER, 1)[1]
    blocks = re.findall(r"```text\n(.*?)\n```", after, re.S)[:3]
    return "\n\n".join(blocks)


def test_the_worked_block_in_docs_z80_md_is_what_the_compiler_makes_for_border():
    machine = Spectrum48(roms.ROM_PATH)
    assert roms.rom_symbols()["BORDER"] == 0x1A34
    assert worked_block_text() == machine.cpu.explain_block(0x1A34)


def test_every_module_and_pass_docs_z80_md_names_exists():
    text = DOC.read_text()
    named = set(re.findall(r"spectrum/(z80\w*)\.py", text))
    named |= set(re.findall(r"`(z80_\w+)\.py", text))
    assert {"z80", "z80_passes", "z80_emit", "z80_timing"} <= named
    for module in named:
        assert (REPO / "spectrum" / f"{module}.py").exists(), module
    for name in ("trace", "loops", "nested_sides", "place", "guard_writes", "make_exits",
                 "dead_values", "registers", "room"):
        assert f"**`{name}`**" in text and callable(vars(z80_passes)[name]), name
