"""The 48K Spectrum's Z80 in pure Python: all documented and undocumented instructions, MEMPTR, Q,
R, IFF/IM/HALT/EI/NMI, the T-state of every bus cycle (FUSE and z80test exact) and, with
contended=True, the 48K's memory and I/O contention (z80_bus). Cold code runs in the interpreter
(z80_interp); code reached often is compiled to Python blocks (z80_compile), cached by address
(docs/Z80.md). It is not the machine: the ULA, ports and frames are spectrum/machine.py."""
from . import hw
from .hw import IM1_VECTOR, NMI_VECTOR
from .z80_bus import CONTENTION_48K, Contention
from .z80_compile import BlockCompiler
from .z80_explain import explain
from .z80_interp import TRANSFER, OpTable
from .z80_passes import walk
from .z80_tables import TABLES

COMPILE_AFTER = 48      # arrivals at an address before its block is compiled (1: compile at once)
NEVER = -(1 << 62)      # heat of an address whose first instruction keeps changing (interpreted)


class _Traps(dict):
    """The traps dict: any change drops the compiled blocks (they stop before trapped addresses)."""
    __slots__ = ("_cpu",)
    _cpu: "Z80"

    def _changed(self):
        self._cpu._flush()

    def __setitem__(self, k, v):
        super().__setitem__(k, v)
        self._changed()

    def __delitem__(self, k):
        super().__delitem__(k)
        self._changed()

    def pop(self, *a):
        r = super().pop(*a)
        self._changed()
        return r

    def popitem(self):
        r = super().popitem()
        self._changed()
        return r

    def clear(self):
        super().clear()
        self._changed()

    def update(self, *a, **k):
        super().update(*a, **k)
        self._changed()

    def setdefault(self, k, v=None):
        r = super().setdefault(k, v)
        self._changed()
        return r


def _default_in(port, tstates):
    return port >> 8


def _default_out(port, value, tstates):
    return None


def _register_pair(hi: str, lo: str) -> property:
    """A 16-bit register pair read and written through its two 8-bit registers."""
    def get(self):
        return getattr(self, hi) << 8 | getattr(self, lo)     # the pair's two registers

    def put(self, v):
        setattr(self, hi, (v >> 8) & 255)
        setattr(self, lo, v & 255)
    return property(get, put)


class Z80:
    __slots__ = ("a", "f", "b", "c", "d", "e", "h", "l", "a_", "f_", "b_", "c_", "d_", "e_",
                 "h_", "l_", "ix", "iy", "sp", "pc", "_i", "_ic", "_r7", "_rc", "_eir", "_pvr", "q",
                 "iff1", "iff2", "im", "halted", "memptr", "tstates", "memory", "rom_top", "_traps",
                 "_port_in", "_port_out", "_cache", "_g", "_compiler", "_ops", "_heat",
                 "_recompiles", "compile_after", "_volatile", "dump_blocks", "_after_volatile",
                 "_stops", "_block_code", "contended", "screen_writes", "_contention", "_ops_away",
                 "_near")

    def __init__(self, memory: bytearray, port_in=None, port_out=None, rom_top: int = 0,
                 compile_after: int = COMPILE_AFTER, contended=False, dump_blocks=None):
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
        self.a = self.f = self.b = self.c = self.d = self.e = self.h = self.l = 0
        self.a_ = self.f_ = self.b_ = self.c_ = self.d_ = self.e_ = self.h_ = self.l_ = 0
        self.ix = self.iy = self.sp = self.pc = self.memptr = 0
        self._i = self._r7 = self._rc = 0
        self._ic = False         # I holds a contended page: IR cycles wait (contention only)
        self._eir = -1           # R counter right after an EI (or a lone prefix): no interrupt then
        self._pvr = -1           # R counter right after LD A,I / LD A,R: an interrupt resets P/V
        self.q = 0               # the Q latch: F if the last instruction computed the flags, else 0
        self.iff1 = self.iff2 = self.im = self.halted = 0
        self.tstates = 0
        self._cache: dict = {}          # address -> compiled block
        # address -> arrivals by a jump so far (negative: cooling down)
        self._heat: dict[int, int] = {}
        # address -> times its block was dropped because its code changed
        self._recompiles: dict[int, int] = {}
        self.compile_after = compile_after
        # bytes seen to change under a compiled block: blocks stop before
        self._volatile: set[int] = set()
        # the addresses right after the instructions holding them
        self._after_volatile: set[int] = set()
        # where the interpreter looks for blocks: traps, _after_volatile
        self._stops: set[int] = set()
        # address -> [(instruction address, its bytes)] of its block
        self._block_code: dict[int, list] = {}
        self._compiler = BlockCompiler(memory, rom_top, self._contention)
        # debugging: {address: file} -- each block compiled at such an address has its account
        # (bytes, records, passes, code: z80_explain) appended to the file
        self.dump_blocks = dict(dump_blocks or {})
        self._g = dict(TABLES)
        self._g.update(S=self, M=memory)
        if self._contention is not None:
            self._g["D"] = self._contention.delays
        self._ops = OpTable.for_rom_top(rom_top, self._contention)
        # code outside contended memory runs op functions that skip the tests on their own bytes;
        # the interpreter picks the table where a run of code starts, and stops just before
        # contended memory
        self._ops_away = OpTable.for_rom_top(rom_top, self._contention, own_bytes=False)
        cont = self._contention
        self._near = (cont.lo - 4, cont.hi) if cont is not None else (0, 0)
        self._port_in = self._port_out = None
        self.port_in = port_in or _default_in
        self.port_out = port_out or _default_out
        self._traps = _Traps()
        self._traps._cpu = self
        self._flush()

    # ---------------------------------------------------------------- properties
    @property
    def i(self):
        return self._i

    @i.setter
    def i(self, v):
        """Compiled blocks take I's contention as known (no test at run time): they are dropped when
        it changes (LD I,A into or out of 0x40-0x7F; the rest of a block running then keeps the old
        rule)."""
        self._i = v
        cont = self._contention
        ic = cont is not None and cont.lo <= v << 8 < cont.hi
        if ic != self._ic:
            self._ic = ic
            self._compiler.ir_contended = ic
            self._flush()

    @property
    def port_in(self):
        return self._port_in

    @port_in.setter
    def port_in(self, fn):
        self._port_in = fn
        self._g["PIN"] = fn

    @property
    def port_out(self):
        return self._port_out

    @port_out.setter
    def port_out(self, fn):
        self._port_out = fn
        self._g["POUT"] = fn

    @property
    def traps(self):
        return self._traps

    @traps.setter
    def traps(self, d):
        self._traps = _Traps(d)
        self._traps._cpu = self
        self._flush()

    @property
    def r(self):
        return self._r7 | (self._rc & 127)

    @r.setter
    def r(self, v):
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

    # ---------------------------------------------------------------- execution
    def _flush(self):
        self._cache.clear()
        self._block_code.clear()
        self._stops.clear()
        self._stops.update(self._traps)
        self._stops.update(self._after_volatile)
        if self._contention is not None:     # where code running on reaches contended memory
            self._stops.update(range(self._contention.lo - 4, self._contention.lo + 1))

    def flush(self):
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

    def _run(self, limit):
        """The two tiers up to limit (see run). pc lives in a local meanwhile: op functions and
        blocks return the next pc and leave S.pc alone (a block leaving early sets it)."""
        cache, heat, traps, stops = self._cache, self._heat, self._traps, self._stops
        ops_near, ops_away, m = self._ops.table, self._ops_away.table, self.memory
        near_lo, near_hi = self._near
        compile_after = self.compile_after
        pc = self.pc
        near_limit = False      # a block said it cannot finish before limit: interpret to it
        boundary = True         # pc starts a run of code (a jump landed here, a block ended...)
        while True:
            if not near_limit:
                fn = cache.get(pc)
                if fn is not None:
                    pc = fn(limit)          # a block returns the next pc, or a negative code
                    if pc >= 0:
                        boundary = True
                        continue
                    pc, code = self.pc, pc
                    if code == -3:          # HALT
                        return self._idle(limit)
                    near_limit = code == -1     # it would start an instruction at/after limit
                    if not near_limit:      # -2: its code changed
                        self._code_changed(pc)
                    continue
                if boundary:                # count arrivals; compile when hot
                    h = heat.get(pc, 0) + 1
                    if h < compile_after or (traps and pc in traps):
                        heat[pc] = h
                    elif self._compile(pc) is not None:
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
                if r < 0:                   # HALT
                    self.pc = pc
                    return self._idle(limit)
                pc = r
                if pc in stops:             # a trap, or just after an instruction seen to change
                    break
                if self.tstates >= limit:
                    self.pc = pc
                    return
            boundary = True

    def _trap_moves(self, pc):
        """Run the trap at pc; True when it moved pc (the CPU carries on from there)."""
        self.pc = pc
        self._traps[pc](self)
        return self.pc != pc

    def _code_changed(self, pc):
        """The block at pc found its bytes changed: drop it, note which instructions changed (later
        blocks stop before them, leaving them to the interpreter) and make pc cool down before it is
        compiled again."""
        m = self.memory
        for addr, old in self._block_code.pop(pc, ()):
            for k, byte in enumerate(old):
                if m[(addr + k) & 0xFFFF] != byte:
                    self._volatile.add((addr + k) & 0xFFFF)
                    self._stops.add((addr + len(old)) & 0xFFFF)
                    self._after_volatile.add((addr + len(old)) & 0xFFFF)
        del self._cache[pc]
        self._recompiles[pc] = n = self._recompiles.get(pc, 0) + 1
        self._heat[pc] = 0 if n == 1 else -(self.compile_after << min(n, 40))

    def _idle(self, limit):
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

    def _screen_write(self, addr, value, tstates):
        """A write to the screen by contended code: logged with its T-state, then stored."""
        m = self.memory
        self.screen_writes.append((tstates, addr, m[addr]))
        m[addr] = value

    def _push(self, v):
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

    # ---------------------------------------------------------------- compiling blocks
    def _compile(self, pc):
        """Compile the block at pc and cache it (its code bytes kept to tell which changed, should
        they); None when its first instruction keeps changing (pc is then interpreted for good)."""
        fn, block = self._compiler.compile(pc, self._traps, self._volatile, self._g,
                                           self.dump_blocks.get(pc) if self.dump_blocks else None)
        if fn is None:
            self._heat[pc] = NEVER
            return None
        m = self.memory
        self._block_code[pc] = [(s.ins.addr, bytes(m[s.ins.addr:s.ins.addr + s.ins.length]))
                                for s in walk(block.steps)]
        self._heat.pop(pc, None)
        self._cache[pc] = fn
        return fn

    def explain_block(self, pc):
        """The account of the block that would be compiled at pc now (records, passes, code:
        docs/Z80.md)."""
        block = self._compiler.plan(pc, self._traps, self._volatile)
        if block is None:
            return f"{pc:04x}: its first instruction is interpreted (seen to change)"
        return explain(block, self._compiler.emitter.block(block, self.memory), self.memory)
