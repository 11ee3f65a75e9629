"""The FUSE Z80 suite (1,356 per-instruction tests) against spectrum.z80: registers incl. MEMPTR, flags,
I/R/IFF/IM/HALT, final T-states and memory changes. Data read from ../shared/z80-tests (GPL, not copied)."""
import pytest

from conftest import SHARED, shared_path
from fuse_vectors import changed_runs, initial_memory, parse_expected, parse_in
from spectrum.z80 import Z80

_IN = SHARED / "z80-tests" / "tests.in"
_EXP = SHARED / "z80-tests" / "tests.expected"
_NAMES = list(parse_in(_IN.read_text())) if _IN.exists() else ["(tests.in missing)"]
_cache = {}


def _vectors():
    if not _cache:
        _cache["in"] = parse_in(shared_path("z80-tests", "tests.in").read_text())
        _cache["exp"] = parse_expected(shared_path("z80-tests", "tests.expected").read_text())
    return _cache["in"], _cache["exp"]


def run_case(name):
    """Run one FUSE case; returns (got, want) dicts of everything compared."""
    tin, texp = _vectors()
    st, ex = tin[name], texp[name]
    mem = initial_memory(st)
    before = bytes(mem)
    cpu = Z80(mem)
    for k, v in st.regs.items():
        setattr(cpu, k, v)
    cpu.i, cpu.r, cpu.iff1, cpu.iff2, cpu.im, cpu.halted = st.i, st.r, st.iff1, st.iff2, st.im, st.halted
    cpu.tstates = 0
    cpu.run(st.tstates)
    got = {k: getattr(cpu, k) for k in ex.regs}
    got.update(i=cpu.i, r=cpu.r, iff1=int(bool(cpu.iff1)), iff2=int(bool(cpu.iff2)), im=cpu.im,
               halted=int(bool(cpu.halted)), tstates=cpu.tstates, memory=changed_runs(before, mem))
    want = dict(ex.regs)
    want.update(i=ex.i, r=ex.r, iff1=ex.iff1, iff2=ex.iff2, im=ex.im, halted=ex.halted, tstates=ex.tstates,
                memory=ex.memory)
    return got, want


@pytest.mark.parametrize("name", _NAMES)
def test_fuse(name):
    tin, _ = _vectors()
    got, want = run_case(name)
    diff = {k: (f"{got[k]:#x}" if isinstance(got[k], int) else got[k],
                f"{want[k]:#x}" if isinstance(want[k], int) else want[k])
            for k in want if got[k] != want[k]}
    assert not diff, f"{name}: got/want {diff}"


def test_suite_size():
    tin, texp = _vectors()
    assert len(tin) == len(texp) == 1356
