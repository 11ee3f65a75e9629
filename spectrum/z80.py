"""The 48K Spectrum's Z80 in pure Python: all documented and undocumented instructions, MEMPTR, Q,
R, IFF/IM/HALT/EI/NMI, the T-state of every bus cycle (FUSE and z80test exact) and, with
contended=True, the 48K's memory and I/O contention (z80_bus). This is the runner: the state it
runs is z80_state.Z80State (its base), the blocks it runs z80_cache.BlockCache's. Cold code runs in
the interpreter (z80_interp); code reached often is compiled to Python blocks (docs/Z80.md). It is
not the machine: the ULA, ports and frames are spectrum/machine.py."""
from collections.abc import Callable
from typing import Any

from . import hw
from .hw import IM1_VECTOR, NMI_VECTOR
from .z80_bus import CONTENTION_48K, Contention
from .z80_cache import COMPILE_AFTER, NEVER, BlockCache
from .z80_interp import TRANSFER, OpTable
from .z80_state import BlockExit, Z80Snapshot, Z80State
from .z80_tables import TABLES

__all__ = ["COMPILE_AFTER", "NEVER", "BlockExit", "PortIn", "PortOut", "Trap", "Z80", "Z80Snapshot",
           "Z80State"]

PortIn = Callable[[int, int], int]              # (port, T-state) -> the byte read
PortOut = Callable[[int, int, int], object]     # (port, byte, T-state)
Trap = Callable[["Z80"], object]                # runs with the CPU when pc reaches its address
LIMIT, CHANGED, HALT = BlockExit.LIMIT, BlockExit.CHANGED, BlockExit.HALT


class _Traps(dict[int, Trap]):
    """The traps dict: any change drops the compiled blocks (they stop before trapped addresses)."""
    __slots__ = ("_cpu",)
    _cpu: "Z80"

    def _changed(self) -> None:
        self._cpu._flush()

    def __setitem__(self, k: int, v: Trap) -> None:
        super().__setitem__(k, v)
        self._changed()

    def __delitem__(self, k: int) -> None:
        super().__delitem__(k)
        self._changed()

    def pop(self, *a: Any) -> Any:
        r = super().pop(*a)
        self._changed()
        return r

    def popitem(self) -> tuple[int, Trap]:
        r = super().popitem()
        self._changed()
        return r

    def clear(self) -> None:
        super().clear()
        self._changed()

    def update(self, *a: Any, **k: Any) -> None:
        super().update(*a, **k)
        self._changed()

    def setdefault(self, k: int, v: Any = None) -> Any:
        r = super().setdefault(k, v)
        self._changed()
        return r


def _default_in(port: int, tstates: int) -> int:
    return port >> 8


def _default_out(port: int, value: int, tstates: int) -> None:
    return None


class Z80(Z80State):
    """Runs a Z80State on a 64K memory: the bus wiring (ports, contention, the screen-write log),
    the traps, and the two tiers (op functions; blocks from its BlockCache, `blocks`)."""
    __slots__ = ("memory", "rom_top", "contended", "screen_writes", "_contention", "_ic",
                 "_traps", "_port_in", "_port_out", "_g", "_ops", "_ops_away", "_near", "blocks")

    def __init__(self, memory: bytearray, port_in: PortIn | None = None,
                 port_out: PortOut | None = None, rom_top: int = 0,
                 compile_after: int = COMPILE_AFTER, contended: bool | Contention = False,
                 dump_blocks: dict[int, Any] | None = None) -> None:
        super().__init__()
        self.memory = memory
        # contended: True for the 48K's memory and I/O contention (z80_bus.CONTENTION_48K; or a
        # z80_bus.Contention of one's own) and the screen-write log: every write to the screen
        # (0x4000-0x5AFF) appends (T-state of the write, address, old byte) to screen_writes, which
        # the machine takes at each frame's end (the ULA renders from it). A contended CPU runs a
        # frame at a time.
        if not isinstance(contended, (bool, Contention)):
            raise TypeError("contended must be True, False or a z80_bus.Contention, "
                            f"not {contended!r}")
        self._contention = CONTENTION_48K if contended is True else (contended or None)
        self.contended = self._contention is not None
        self.screen_writes: list[tuple[int, int, int]] = []
        self.rom_top = rom_top
        self._ic = False         # I holds a contended page: IR cycles wait (contention only)
        self._g: dict[str, Any] = dict(TABLES)    # the blocks' namespace
        self._g.update(S=self, M=memory)
        if self._contention is not None:
            self._g["D"] = self._contention.delays
        self.blocks = BlockCache(memory, rom_top, self._contention, self._g, compile_after,
                                 dump_blocks)
        self._ops = OpTable.for_rom_top(rom_top, self._contention)
        # code outside contended memory runs op functions that skip the tests on their own bytes;
        # the interpreter picks the table where a run of code starts, and stops just before
        # contended memory
        self._ops_away = OpTable.for_rom_top(rom_top, self._contention, own_bytes=False)
        cont = self._contention
        self._near = (cont.lo - 4, cont.hi) if cont is not None else (0, 0)
        self.port_in = port_in or _default_in
        self.port_out = port_out or _default_out
        self._traps = _Traps()
        self._traps._cpu = self
        self._flush()

    # ---------------------------------------------------------------- properties
    @property
    def i(self) -> int:
        return self._i

    @i.setter
    def i(self, v: int) -> None:
        """Compiled blocks take I's contention as known (no test at run time): they are dropped when
        it changes (LD I,A into or out of 0x40-0x7F; the rest of a block running then keeps the old
        rule)."""
        self._i = v
        cont = self._contention
        ic = cont is not None and cont.lo <= v << 8 < cont.hi
        if ic != self._ic:
            self._ic = ic
            self.blocks.compiler.ir_contended = ic
            self._flush()

    @property
    def port_in(self) -> PortIn:
        return self._port_in

    @port_in.setter
    def port_in(self, fn: PortIn) -> None:
        self._port_in = fn
        self._g["PIN"] = fn

    @property
    def port_out(self) -> PortOut:
        return self._port_out

    @port_out.setter
    def port_out(self, fn: PortOut) -> None:
        self._port_out = fn
        self._g["POUT"] = fn

    @property
    def traps(self) -> "_Traps":
        return self._traps

    @traps.setter
    def traps(self, d: dict[int, Trap]) -> None:
        self._traps = _Traps(d)
        self._traps._cpu = self
        self._flush()

    # ---------------------------------------------------------------- execution
    def _flush(self) -> None:
        self.blocks.flush(self._traps)

    def flush(self) -> None:
        """Forget every compiled block. Blocks in RAM re-check their bytes before each run, but
        blocks wholly below rom_top do not (the CPU cannot write there): call this after rewriting
        the ROM area from outside."""
        self._flush()

    def run(self, limit: int) -> None:
        """Execute whole instructions while tstates < limit; a halted CPU idles to limit in 4-T
        steps.

        Two tiers: the interpreter (one op function per opcode) runs whatever has no compiled block,
        and counts each address that control jumps to; an address reached `compile_after` times gets
        a compiled block. A block whose bytes changed under it is dropped, and its address must then
        get twice as hot again before it is compiled again, so code that keeps rewriting itself
        stays with the interpreter."""
        if self._contention is not None and limit > len(self._contention.delays) - 64:
            raise ValueError("a contended Z80 runs at most a frame at a time "
                             f"(limit {limit} T-states)")
        if self._rc > 0x3FFFFFFF:          # keep the R counter a small int (bit pattern kept)
            k = self._rc & ~127
            self._rc -= k
            self._eir -= k
            self._pvr -= k
        if self.halted:
            self._idle(limit)
        else:
            self._run(limit)

    def _run(self, limit: int) -> None:
        """The two tiers up to limit (see run). pc lives in a local meanwhile: op functions and
        blocks return the next pc and leave S.pc alone (a block leaving early sets it)."""
        blocks = self.blocks
        cache, heat, traps, stops = blocks.by_addr, blocks.heat, self._traps, blocks.stops
        ops_near, ops_away, m = self._ops.table, self._ops_away.table, self.memory
        near_lo, near_hi = self._near
        compile_after = blocks.compile_after
        pc = self.pc
        near_limit = False      # a block said it cannot finish before limit: interpret to it
        boundary = True         # pc starts a run of code (a jump landed here, a block ended...)
        while True:
            if not near_limit:
                fn = cache.get(pc)
                if fn is not None:
                    pc = fn(limit)          # a block returns the next pc, or a BlockExit
                    if pc >= 0:
                        boundary = True
                        continue
                    pc, code = self.pc, pc
                    if code == HALT:
                        return self._idle(limit)
                    near_limit = code == LIMIT  # it would start an instruction at/after limit
                    if code == CHANGED:
                        blocks.code_changed(pc)
                    continue
                if boundary:                # count arrivals; compile when hot
                    h = heat.get(pc, 0) + 1
                    if h < compile_after or (traps and pc in traps):
                        heat[pc] = h
                    elif blocks.compile(pc, traps) is not None:
                        continue
            if self.tstates >= limit:
                self.pc = pc
                return
            if traps and pc in traps and self._trap_moves(pc):
                pc, boundary = self.pc, True
                continue
            ops = ops_near if near_lo <= pc < near_hi else ops_away
            while True:         # interpret up to the next boundary (blocks start only there)
                r = ops[m[pc]](self, m, pc)
                if r >= TRANSFER:
                    pc = r & 0xFFFF
                    break
                if r < 0:                   # BlockExit.HALT
                    self.pc = pc
                    return self._idle(limit)
                pc = r
                if pc in stops:             # a trap, or just after an instruction seen to change
                    break
                if self.tstates >= limit:
                    self.pc = pc
                    return
            boundary = True

    def _trap_moves(self, pc: int) -> bool:
        """Run the trap at pc; True when it moved pc (the CPU carries on from there)."""
        self.pc = pc
        self._traps[pc](self)
        return self.pc != pc

    def _idle(self, limit: int) -> None:
        """HALT: 4-T fetches of the HALT itself until limit (each waits like any fetch when the HALT
        is in contended memory, which moves the T-state the interrupt finds)."""
        t = self.tstates
        if t < limit:
            cont = self._contention
            if cont is not None and cont.lo <= self.pc < cont.hi:
                wait, n = cont.delays, 0
                while t < limit:
                    t += wait[t] + 4
                    n += 1
                self.tstates = t
                self._rc += n
                return
            n = (limit - t + 3) >> 2
            self.tstates = t + 4 * n
            self._rc += n

    def step(self) -> int:
        """One instruction (or one HALT cycle); returns its T-states. A trap at pc runs first; if it
        moves pc, the step ends there (returning the T-states the trap added)."""
        t0 = self.tstates
        if self.halted:
            self._idle(t0 + 1)
            return self.tstates - t0
        pc = self.pc
        if self._traps and pc in self._traps:
            self._traps[pc](self)
            if self.pc != pc:
                return self.tstates - t0
        r = self._ops.table[self.memory[pc]](self, self.memory, pc)
        self.pc = pc if r < 0 else r & 0xFFFF
        return self.tstates - t0

    def _screen_write(self, addr: int, value: int, tstates: int) -> None:
        """A write to the screen by contended code: logged with its T-state, then stored."""
        m = self.memory
        self.screen_writes.append((tstates, addr, m[addr]))
        m[addr] = value

    def _push(self, v: int) -> None:
        m = self.memory
        sp = self.sp
        for byte in (v >> 8, v & 255):
            sp = (sp - 1) & 0xFFFF
            if self.contended and hw.SCREEN_ADDR <= sp < hw.SCREEN_ADDR + hw.SCREEN_BYTES:
                self._screen_write(sp, byte, self.tstates)
            elif sp >= self.rom_top:
                m[sp] = byte
        self.sp = sp

    def interrupt(self, data: int = 0xFF) -> bool:
        """Maskable /INT: accepted iff IFF1 is set and the last instruction was not EI."""
        if not self.iff1 or self._eir == self._rc:
            return False
        if self._pvr == self._rc:
            self.f &= 0xFB                      # LD A,I / LD A,R interrupted: P/V reads as reset
        self.q = 0
        if self.halted:
            self.halted = 0
            self.pc = (self.pc + 1) & 0xFFFF
        self.iff1 = self.iff2 = 0
        self._rc += 1
        self._push(self.pc)
        if self.im == 2:
            v = (self.i << 8) | (data & 255)
            m = self.memory
            self.pc = m[v] | m[(v + 1) & 0xFFFF] << 8
            self.tstates += 19
        else:
            # IM 1, or IM 0 with an RST on the bus (0xFF = RST 38h); other IM 0 bytes are taken
            # as RST 38h
            self.pc = data & 0x38 if self.im == 0 and (data & 0xC7) == 0xC7 else IM1_VECTOR
            self.tstates += 13
        self.memptr = self.pc
        return True

    def nmi(self) -> None:
        self.q = 0
        if self.halted:
            self.halted = 0
            self.pc = (self.pc + 1) & 0xFFFF
        self.iff1 = 0
        self._rc += 1
        self._push(self.pc)
        self.pc = NMI_VECTOR
        self.memptr = NMI_VECTOR
        self.tstates += 11

    def explain_block(self, pc: int) -> str:
        """The account of the block that would be compiled at pc now (records, passes, code:
        docs/Z80.md)."""
        return self.blocks.explain(pc, self._traps)
