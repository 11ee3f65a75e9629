"""The FUSE Z80 test vectors (tests.in / tests.expected, format in shared/z80-tests/README.md):
their parser, the cases' names, and a Z80 set up at one case's start state. Our own code; the
data files stay in ../shared (GPL) and are never copied into this repo. Not a test."""
from dataclasses import dataclass, field

from conftest import SHARED, shared_path
from spectrum.z80 import Z80

REG_NAMES = ("af", "bc", "de", "hl", "af_", "bc_", "de_", "hl_", "ix", "iy", "sp", "pc", "memptr")


@dataclass
class State:
    regs: dict                      # the 13 sixteen-bit words by name (REG_NAMES)
    i: int
    r: int
    iff1: int
    iff2: int
    im: int
    halted: int
    tstates: int
    memory: list = field(default_factory=list)   # [(address, bytes)]
    # tests.expected only: [(tstates, kind, address, value|None)]
    events: list = field(default_factory=list)


def _blocks(text):
    """Split into lines per test; tests.expected separates tests by blank lines, tests.in by
    '-1'."""
    return [ln.rstrip("\n") for ln in text.splitlines()]


def _state_lines(l1, l2):
    words = [int(x, 16) for x in l1.split()]
    s = l2.split()
    return (dict(zip(REG_NAMES, words, strict=True)), int(s[0], 16), int(s[1], 16), int(s[2]),
            int(s[3]), int(s[4]), int(s[5]), int(s[6]))


def _mem_line(line):
    parts = line.split()
    assert parts[-1] == "-1", line
    return int(parts[0], 16), bytes(int(x, 16) for x in parts[1:-1])


def parse_in(text):
    """tests.in -> {name: State} in file order."""
    lines = [ln for ln in _blocks(text)]
    out = {}
    k = 0
    while k < len(lines):
        if not lines[k].strip():
            k += 1
            continue
        name = lines[k].strip()
        regs, i, r, iff1, iff2, im, halted, ts = _state_lines(lines[k + 1], lines[k + 2])
        k += 3
        mem = []
        while lines[k].strip() != "-1":
            mem.append(_mem_line(lines[k]))
            k += 1
        k += 1
        out[name] = State(regs, i, r, iff1, iff2, im, halted, ts, mem)
    return out


def _event(line):
    parts = line.split()
    return int(parts[0]), parts[1], int(parts[2], 16), int(parts[3], 16) if len(parts) > 3 else None


def parse_expected(text):
    """tests.expected -> {name: State}; the bus-event lines (indented) go to State.events."""
    out = {}
    for chunk in text.split("\n\n"):
        lines = [ln for ln in chunk.splitlines() if ln.strip()]
        if not lines:
            continue
        name = lines[0].strip()
        rest = [ln for ln in lines[1:] if not ln.startswith(" ")]
        regs, i, r, iff1, iff2, im, halted, ts = _state_lines(rest[0], rest[1])
        mem = [_mem_line(ln) for ln in rest[2:]]
        events = [_event(ln) for ln in lines[1:] if ln.startswith(" ")]
        out[name] = State(regs, i, r, iff1, iff2, im, halted, ts, mem, events)
    return out


def initial_memory(state):
    """64K filled with DE AD BE EF, then the test's memory lines (FUSE's test driver does the
    same)."""
    mem = bytearray(b"\xde\xad\xbe\xef" * 16384)
    for addr, data in state.memory:
        for k, v in enumerate(data):
            mem[(addr + k) & 0xFFFF] = v
    return mem


def changed_runs(before, after):
    """Maximal runs of addresses whose value differs, as [(address, bytes)]."""
    import numpy as np
    idx = np.flatnonzero(np.frombuffer(bytes(before), np.uint8)
                         != np.frombuffer(bytes(after), np.uint8))
    runs = []
    for k in idx.tolist():
        if runs and runs[-1][0] + len(runs[-1][1]) == k:
            runs[-1] = (runs[-1][0], runs[-1][1] + bytes([after[k]]))
        else:
            runs.append((k, bytes([after[k]])))
    return runs


_IN = SHARED / "z80-tests" / "tests.in"
# the cases by name, in file order (a stand-in name when ../shared is missing, so the
# parametrized tests still collect and then skip, or fail in CI, in shared_path)
CASE_NAMES = list(parse_in(_IN.read_text())) if _IN.exists() else ["(tests.in missing)"]
_cache: dict = {}


def vectors():
    """(tests.in, tests.expected) parsed, once: {name: State} each."""
    if not _cache:
        _cache["in"] = parse_in(shared_path("z80-tests", "tests.in").read_text())
        _cache["exp"] = parse_expected(shared_path("z80-tests", "tests.expected").read_text())
    return _cache["in"], _cache["exp"]


def make_cpu(name, **options):
    """(cpu, its memory, the case's start state, its expected end state) for one FUSE case, ready to
    run."""
    tin, texp = vectors()
    st, ex = tin[name], texp[name]
    mem = initial_memory(st)
    cpu = Z80(mem, **options)
    for k, v in st.regs.items():
        setattr(cpu, k, v)
    cpu.i, cpu.r, cpu.iff1, cpu.iff2 = st.i, st.r, st.iff1, st.iff2
    cpu.im, cpu.halted = st.im, st.halted
    cpu.tstates = 0
    return cpu, mem, st, ex
