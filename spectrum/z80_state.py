"""The Z80's architectural state: the registers, I and R, IFF1/2, IM, HALT, the Q latch, MEMPTR and
the T-state count, with the 16-bit pairs by name, and a frozen snapshot of it to keep and put back.
Not the runner (spectrum/z80.py: bus wiring, traps, the two tiers) nor its block cache
(spectrum/z80_cache.py); the generated code reads and writes these slots directly."""
import dataclasses
from enum import IntEnum

# The slots, in the order a snapshot lists them. R is kept as R's bit 7 (_r7) and a counter of M1
# cycles (_rc: R's low 7 bits are its own); _eir and _pvr are the counter's values right after an EI
# (no interrupt then) and right after LD A,I / LD A,R (an interrupt then resets P/V).
STATE_SLOTS = ("a", "f", "b", "c", "d", "e", "h", "l", "a_", "f_", "b_", "c_", "d_", "e_", "h_",
               "l_", "ix", "iy", "sp", "pc", "_i", "_r7", "_rc", "_eir", "_pvr", "q", "iff1",
               "iff2", "im", "halted", "memptr", "tstates")


class BlockExit(IntEnum):
    """What a compiled block (or an op function, for HALT) returns instead of the next pc."""
    LIMIT = -1      # its last instruction would start at or after the limit: nothing was run
    CHANGED = -2    # memory no longer holds the bytes it was compiled from: nothing was run
    HALT = -3       # it ran a HALT (pc is left on the HALT)


@dataclasses.dataclass(frozen=True)
class Z80Snapshot:
    """Every slot of a Z80State at one moment (names as STATE_SLOTS, without the underscore);
    `Z80State.restore` puts it back, `as_dict` / `Z80Snapshot(**d)` round-trip it."""
    a: int
    f: int
    b: int
    c: int
    d: int
    e: int
    h: int
    l: int  # noqa: E741 -- the register's name
    a_: int
    f_: int
    b_: int
    c_: int
    d_: int
    e_: int
    h_: int
    l_: int
    ix: int
    iy: int
    sp: int
    pc: int
    i: int
    r7: int
    rc: int
    eir: int
    pvr: int
    q: int
    iff1: int
    iff2: int
    im: int
    halted: int
    memptr: int
    tstates: int

    def as_dict(self) -> dict[str, int]:
        return dataclasses.asdict(self)


def _register_pair(hi: str, lo: str) -> property:
    """A 16-bit register pair read and written through its two 8-bit registers."""
    def get(self: "Z80State") -> int:
        return getattr(self, hi) << 8 | getattr(self, lo)     # the pair's two registers

    def put(self: "Z80State", v: int) -> None:
        setattr(self, hi, (v >> 8) & 255)
        setattr(self, lo, v & 255)
    return property(get, put)


class Z80State:
    """The registers and flags of one Z80, all zero at first (as the tests and FUSE's vectors
    set them; a real Z80 powers up with AF and SP at FFFF)."""
    __slots__ = STATE_SLOTS
    a: int
    f: int
    b: int
    c: int
    d: int
    e: int
    h: int
    l: int  # noqa: E741 -- the register's name
    a_: int
    f_: int
    b_: int
    c_: int
    d_: int
    e_: int
    h_: int
    l_: int
    ix: int
    iy: int
    sp: int
    pc: int
    _i: int
    _r7: int
    _rc: int
    _eir: int
    _pvr: int
    q: int              # the Q latch: F if the last instruction computed the flags, else 0
    iff1: int
    iff2: int
    im: int
    halted: int
    memptr: int
    tstates: int

    def __init__(self) -> None:
        for name in STATE_SLOTS:
            setattr(self, name, 0)
        self._eir = -1      # R counter right after an EI (or a lone prefix): no interrupt then
        self._pvr = -1      # R counter right after LD A,I / LD A,R: an interrupt resets P/V

    @property
    def i(self) -> int:
        return self._i

    @i.setter
    def i(self, v: int) -> None:
        self._i = v

    @property
    def r(self) -> int:
        return self._r7 | (self._rc & 127)

    @r.setter
    def r(self, v: int) -> None:
        self._r7 = v & 128
        self._rc = v & 127
        self._eir = -1

    af = _register_pair("a", "f")
    bc = _register_pair("b", "c")
    de = _register_pair("d", "e")
    hl = _register_pair("h", "l")
    af_ = _register_pair("a_", "f_")
    bc_ = _register_pair("b_", "c_")
    de_ = _register_pair("d_", "e_")
    hl_ = _register_pair("h_", "l_")

    def snapshot(self) -> Z80Snapshot:
        """Every slot now, frozen: what `restore` puts back, bit for bit."""
        return Z80Snapshot(*(getattr(self, name) for name in STATE_SLOTS))   # every slot, by name

    def restore(self, snap: Z80Snapshot) -> None:
        """Put back a snapshot's every slot (I through its setter, so a runner that tracks I's
        contention sees the change)."""
        for name, value in zip(STATE_SLOTS, dataclasses.astuple(snap), strict=True):
            if name == "_i":
                self.i = value
            else:
                setattr(self, name, value)
