"""The bus timing of every instruction (the cycles of its opcode's row, spectrum/z80_bus.py) against
FUSE's event lists: for each of the 1,356 cases, the T-state, kind and address of every memory
contention check (MC), read (MR), write (MW), port contention check (PC), port read (PR) and write
(PW), and the values read and written. Data from ../shared. The cases run in seven groups by
their prefix (one pytest item each, not 1,356: the items' own overhead was twice the work); a group
checks every case and names all that fail."""
import pytest

from fuse_vectors import CASE_NAMES, make_cpu, vectors
from spectrum import z80_bus
from spectrum.z80_bus import TLEN
from spectrum.z80_decode import Decoder

_REGS = ("a", "f", "b", "c", "d", "e", "h", "l", "ix", "iy", "sp")


def _address(cpu, addr, m1):
    """A cycle's address as a number, from the registers as the instruction starts."""
    if isinstance(addr, int):
        return addr
    if addr.kind == "ir":
        r = cpu.r
        return cpu.i << 8 | (r & 128) | ((r + m1) & 127)
    return eval(addr.expr, {}, {k: getattr(cpu, k) for k in _REGS})


def _io_events(t, port, access, lo=0x4000, hi=0x8000):
    """FUSE's events of an I/O cycle starting at t (the 48K rule: the access comes after the first
    step)."""
    out = []
    for n, (contended, length) in enumerate(z80_bus.io_steps(lo <= port < hi, not port & 1)):
        if contended:
            out.append((t, "PC", port, None))
        t += length
        if n == 0:
            out.append((t, *access))
    return out, t


# FUSE's core skips the read of a relative jump's displacement when JR cc / DJNZ is not taken (it
# only contends for it): its log shows that cycle as MC without MR. The hardware reads it; our
# cycles say so.
_UNREAD_DISPLACEMENT = {0x10, 0x20, 0x28, 0x30, 0x38}


def predicted_events(name, lo=0x4000, hi=0x8000):
    """Run the case one instruction at a time (interpreter), predicting each instruction's events
    from its cycles (port checks by the rule for contended memory lo..hi); (ours, FUSE's)."""
    cpu, mem, st, ex = make_cpu(name)
    ports = []
    cpu.port_in = lambda port, t: ports.append(("PR", port, port >> 8)) or port >> 8
    cpu.port_out = lambda port, value, t: ports.append(("PW", port, value))
    events = []
    while cpu.tstates < st.tstates:
        t, pc = cpu.tstates, cpu.pc
        ins = Decoder(mem).decode(pc)
        main, taken = ins.cycles, ins.taken_cycles
        m1 = sum(c.kind == "F" for c in main)
        addrs = [_address(cpu, c.addr, m1) for c in main + taken]
        before = bytes(mem)
        del ports[:]
        took = cpu.step()
        nominal = sum(TLEN[c.kind] for c in main)
        extra = sum(TLEN[c.kind] for c in taken)
        assert took in (nominal, nominal + extra), (name, hex(pc), took, nominal)
        run = main + (taken if took > nominal else [])
        for c, a in zip(run, addrs, strict=False):      # addrs has the taken cycles too
            if c.kind == "IO":
                kind, port, value = ports.pop(0)
                assert port == a, (name, hex(port), hex(a))
                evs, t = _io_events(t, a, (kind, port, value), lo, hi)
                events += evs
                continue
            events.append((t, "MC", a, None))
            t += TLEN[c.kind]
            if c.kind == "R" and took == nominal and before[pc] in _UNREAD_DISPLACEMENT:
                continue
            if c.kind in "FR":
                events.append((t, "MR", a, before[a]))
            elif c.kind == "W":
                events.append((t, "MW", a, mem[a]))
        assert t == cpu.tstates, (name, hex(pc), t, cpu.tstates)
    return events, vectors()[1][name].events


PREFIXES = ("ddcb", "fdcb", "cb", "dd", "ed", "fd")


def _group(name):
    return next((p for p in PREFIXES if name.startswith(p)), "unprefixed")


GROUPS = {g: [n for n in CASE_NAMES if _group(n) == g] for g in ("unprefixed", *PREFIXES)}
GROUPS = {g: names for g, names in GROUPS.items() if names}


def check_each(names, check):
    """check(name) for every case; asserts at the end, naming every case that failed and why."""
    failed = {}
    for name in names:
        try:
            check(name)
        except (AssertionError, pytest.fail.Exception) as exc:
            failed[name] = str(exc)[:800]
    assert not failed, f"{len(failed)} of {len(names)} cases: " + "\n".join(
        f"{name}: {why}" for name, why in list(failed.items())[:10])


def _events_text(events):
    return [f"{t:5d} {k} {a:04x}" + (f" {v:02x}" if v is not None else "") for t, k, a, v in events]


@pytest.mark.parametrize("group", GROUPS)
def test_fuse_bus_events_match_instruction_by_instruction(group):
    def check(name):
        ours, fuse = predicted_events(name)
        assert _events_text(ours) == _events_text(fuse)
    check_each(GROUPS[group], check)


# ---------------------------------------------------------------- the waits, on both tiers
WAITS = bytes((t * 7 + 3) % 8 for t in range(8192))       # a wait at (nearly) every T-state, varied


def replay(events, end_tstates, contention):
    """The T-state a case ends at when every contended access (MC on lo..hi, every PC) waits
    contention.delays[T] at its contended T-state: the events' own times shift by the waits before
    them."""
    waited = 0
    for t, kind, addr, _ in events:
        if kind == "PC" or (kind == "MC" and contention.lo <= addr < contention.hi):
            waited += contention.delays[t + waited]
    return end_tstates + waited


class _End(Exception):
    pass


def run_contended(name, contention, tier, limit):
    """The T-state the case ends at. The compiled tier runs with room to spare and a trap at the
    case's final pc (a block stops before a trap, so the case's instructions run compiled; a block
    near its limit would leave them to the interpreter); cases that end where they started run to
    the limit instead."""
    options = {"compile_after": 1} if tier == "compiled" else {}
    cpu, mem, st, ex = make_cpu(name, contended=contention, **options)
    end_pc = ex.regs["pc"]
    if tier == "interpreted" or end_pc == st.regs["pc"]:
        cpu.run(limit)
        return cpu.tstates

    def stop(c):
        raise _End
    cpu.traps[end_pc] = stop
    with pytest.raises(_End):
        cpu.run(limit + 2000)
    assert cpu.blocks.by_addr, "no block was compiled"
    return cpu.tstates


@pytest.mark.parametrize("tier", ["interpreted", "compiled"])
@pytest.mark.parametrize("group", GROUPS)
def test_contention_waits_where_fuse_events_say_on_both_tiers(group, tier):
    """The 48K's rule (0x4000-0x7FFF, the port rule) with a wait at every T-state: the run ends
    where FUSE's own event list, replayed with those waits, says."""
    contention = z80_bus.Contention(WAITS)
    texp = vectors()[1]

    def check(name):
        want = replay(texp[name].events, texp[name].tstates, contention)
        assert run_contended(name, contention, tier, want) == want
    check_each(GROUPS[group], check)


@pytest.mark.parametrize("tier", ["interpreted", "compiled"])
@pytest.mark.parametrize("group", GROUPS)
def test_contention_of_every_cycle_when_all_memory_is_contended(group, tier):
    """Every address contended (so the code's own fetches and operands wait too): the run ends where
    our cycles (proved equal to FUSE's events above), replayed with the waits, say."""
    contention = z80_bus.Contention(WAITS, 0, 0x10000)

    def check(name):
        ours, _ = predicted_events(name, 0, 0x10000)
        want = replay(ours, vectors()[1][name].tstates, contention)
        assert run_contended(name, contention, tier, want) == want
    check_each(GROUPS[group], check)
