"""The 48K Spectrum's Z80 in pure Python: all documented and undocumented instructions, MEMPTR, Q, R, IFF/IM/HALT/EI/
NMI, the T-state of every bus cycle (FUSE and z80test exact) and, with contended=True, the 48K's memory and I/O
contention (z80_bus). Cold code runs in the interpreter (z80_interp); code reached often is compiled to Python
blocks, cached by address (docs/Z80.md). It is not the machine: the ULA, ports and frames are spectrum/machine.py."""
import re
from dataclasses import dataclass, replace

from . import z80_codegen as cg
from . import hw
from .hw import IM1_VECTOR, NMI_VECTOR
from .z80_bus import CONTENTION_48K, Contention
from .z80_interp import TRANSFER, OpTable

COMPILE_AFTER = 48      # arrivals at an address before its block is compiled (1: compile at once)
_MAX_BLOCK = 40          # instructions per compiled block at most
_CODE_CACHE = {}         # block source -> code object, shared by all cores (tests build many)
DUMP = None              # set to a list to collect every compiled block's source (debugging)


_NPC_TT_RE = re.compile(r"(?:npc|tt) = ")
_PRUNE_RE = {r: (re.compile(rf"{r} (?:=|\|=|&=|\^=) "), re.compile(rf"{r} = (.*)$"), re.compile(rf"\b{r}\b"))
             for r in ("f", "wz")}


def _prune(lines, reg, live_after):
    """Drop top-level assignments to reg when it is dead after these lines; return (lines, live before)."""
    assign, full, mention = _PRUNE_RE[reg]
    if not live_after:
        lines = [ln for ln in lines if not (isinstance(ln, str) and assign.match(ln))]
    live = live_after
    for ln in reversed(lines):
        if not isinstance(ln, str):
            live = True           # an exit (or an inline side) reads every register
            continue
        m = full.match(ln)
        if m and not mention.search(m.group(1)):
            live = False          # written whole here
        elif mention.search(ln):
            live = True           # read (or a partial/conditional write, which counts as a read)
    return lines, live


class _Traps(dict):
    """The traps dict: any change drops the compiled blocks (blocks stop before trapped addresses)."""
    __slots__ = ("_cpu",)

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


@dataclass(slots=True)
class Exit:
    """A side exit in a block's body: leave for `target` (an address, or "npc"/"v": the local holding it)
    with `t` T-states and `k` M1 cycles counted into the current iteration (plus tt when the target is
    npc), the Q latch then being `q` ("f" or "0")."""
    indent: str
    target: object
    t: int
    k: int
    q: str


@dataclass(slots=True)
class LoopBack:
    """The end of a conditional jump's taken side compiled inline in a looping block: it came back to the
    start after `pre` T-states (to its last instruction's start) and `k` M1 cycles; `guard` lists the
    conditions (writes into the block's code) that make the block leave instead of looping."""
    indent: str
    pre: int
    k: int
    q: str
    guard: object


@dataclass(slots=True)
class _Taken:
    """Where a conditional jump's taken side goes, before T-state and M1 counts are known: an exit to
    `ins`'s target, or (nest) the inline side."""
    indent: str
    ins: object
    nest: object


def _shift(ws, item):
    """A body line, or an Exit/LoopBack, indented by ws more."""
    return ws + item if isinstance(item, str) else replace(item, indent=ws + item.indent)


def _reads_q(ins):
    return "QMASK" in ins.lines[0] if ins.lines else False


def _q(ins):
    """What the Q latch holds after ins: the flags if it computed them, else 0."""
    return "f" if ins.sets_f else "0"


def _default_in(port, tstates):
    return port >> 8


def _default_out(port, value, tstates):
    return None


class Z80:
    __slots__ = ("a", "f", "b", "c", "d", "e", "h", "l", "a_", "f_", "b_", "c_", "d_", "e_", "h_", "l_",
                 "ix", "iy", "sp", "pc", "_i", "_ic", "_r7", "_rc", "_eir", "_pvr", "q", "iff1", "iff2", "im",
                 "halted", "memptr",
                 "tstates", "memory", "rom_top", "_traps", "_port_in", "_port_out", "_cache", "_g",
                 "_dec", "_ops", "_heat", "_recompiles", "compile_after", "_volatile",
                 "_after_volatile", "_stops", "_block_code", "contended", "screen_writes", "_contention", "_ops_away",
                 "_near")

    def __init__(self, memory: bytearray, port_in=None, port_out=None, rom_top: int = 0,
                 compile_after: int = COMPILE_AFTER, contended=False):
        self.memory = memory
        # contended: True for the 48K's memory and I/O contention (z80_bus.CONTENTION_48K; or a
        # z80_bus.Contention of one's own) and the screen-write log: every write to the screen
        # (0x4000-0x5AFF) appends (T-state of the write, address, old byte) to screen_writes, which the
        # machine takes at each frame's end (the ULA renders from it). A contended CPU runs a frame at a time.
        if not isinstance(contended, (bool, Contention)):
            raise TypeError(f"contended must be True, False or a z80_bus.Contention, not {contended!r}")
        self._contention = CONTENTION_48K if contended is True else (contended or None)
        self.contended = self._contention is not None
        self.screen_writes = []
        self.rom_top = rom_top
        self.a = self.f = self.b = self.c = self.d = self.e = self.h = self.l = 0
        self.a_ = self.f_ = self.b_ = self.c_ = self.d_ = self.e_ = self.h_ = self.l_ = 0
        self.ix = self.iy = self.sp = self.pc = self.memptr = 0
        self._i = self._r7 = self._rc = 0
        self._ic = False         # I holds a contended page: cycles with IR on the bus wait (contention only)
        self._eir = -1           # R counter value right after an EI (or a lone prefix): no interrupt then
        self._pvr = -1           # R counter value right after LD A,I / LD A,R: an interrupt then resets P/V
        self.q = 0               # the Q latch: F if the last instruction computed the flags, else 0
        self.iff1 = self.iff2 = self.im = self.halted = 0
        self.tstates = 0
        self._cache = {}         # address -> compiled block
        self._heat = {}          # address -> arrivals by a jump so far (negative: must first cool down)
        self._recompiles = {}    # address -> times its block was dropped because its code changed
        self.compile_after = compile_after
        self._volatile = set()   # bytes seen to change under a compiled block: blocks stop before them
        self._after_volatile = set()     # the addresses right after the instructions holding them
        self._stops = set()      # where the interpreter stops to look for blocks: traps and _after_volatile
        self._block_code = {}    # address -> [(instruction address, its bytes)] of the compiled block there
        self._dec = cg.Decoder(memory, rom_top, self._contention)
        self._g = dict(cg.TABLES)
        self._g.update(S=self, M=memory)
        if self._contention is not None:
            self._g["D"] = self._contention.delays
        self._ops = OpTable.for_rom_top(rom_top, self._contention)
        # code outside contended memory runs op functions that skip the tests on their own bytes; the
        # interpreter picks the table where a run of code starts, and stops just before contended memory
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
        """Compiled blocks take I's contention as known (no test at run time): they are dropped when it
        changes (LD I,A into or out of 0x40-0x7F; the rest of a block running then keeps the old rule)."""
        self._i = v
        cont = self._contention
        ic = cont is not None and cont.lo <= v << 8 < cont.hi
        if ic != self._ic:
            self._ic = ic
            self._dec.ir_contended = ic
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

    def _pair(hi, lo):
        def get(self):
            return getattr(self, hi) << 8 | getattr(self, lo)

        def put(self, v):
            setattr(self, hi, (v >> 8) & 255)
            setattr(self, lo, v & 255)
        return property(get, put)

    af = _pair("a", "f")
    bc = _pair("b", "c")
    de = _pair("d", "e")
    hl = _pair("h", "l")
    af_ = _pair("a_", "f_")
    bc_ = _pair("b_", "c_")
    de_ = _pair("d_", "e_")
    hl_ = _pair("h_", "l_")
    del _pair

    # ---------------------------------------------------------------- execution
    def _flush(self):
        self._cache.clear()
        self._block_code.clear()
        self._stops.clear()
        self._stops.update(self._traps)
        self._stops.update(self._after_volatile)
        if self._contention is not None:     # where sequential code reaches contended memory from below
            self._stops.update(range(self._contention.lo - 4, self._contention.lo + 1))

    def flush(self):
        """Forget every compiled block. Blocks in RAM re-check their bytes before each run, but blocks wholly
        below rom_top do not (the CPU cannot write there): call this after rewriting the ROM area from outside."""
        self._flush()

    def run(self, limit: int) -> None:
        """Execute whole instructions while tstates < limit; a halted CPU idles to limit in 4-T steps.

        Two tiers: the interpreter (one op function per opcode) runs whatever has no compiled block, and counts
        each address that control jumps to; an address reached `compile_after` times gets a compiled block.
        A block whose bytes changed under it is dropped, and its address must then get twice as hot again
        before it is compiled again, so code that keeps rewriting itself stays with the interpreter."""
        if self._contention is not None and limit > len(self._contention.delays) - 64:
            raise ValueError(f"a contended Z80 runs at most a frame at a time (limit {limit} T-states)")
        if self._rc > 0x3FFFFFFF:          # keep the R counter a small int (bit pattern kept)
            k = self._rc & ~127
            self._rc -= k
            self._eir -= k
            self._pvr -= k
        if self.halted:
            self._idle(limit)
            return
        cache, heat, traps, stops = self._cache, self._heat, self._traps, self._stops
        ops_near, ops_away, m = self._ops.table, self._ops_away.table, self.memory
        near_lo, near_hi = self._near
        compile_after = self.compile_after
        pc = self.pc
        near_limit = False                  # a block said it cannot finish before limit: interpret to it
        boundary = True                     # pc starts a run of code (a jump landed here, a block ended...)
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
                        self._idle(limit)
                        return
                    if code == -1:          # would start its last instruction at/after limit
                        near_limit = True
                    else:                   # -2: its code changed
                        self._code_changed(pc)
                    continue
                if boundary:                # count arrivals; compile when hot
                    h = heat.get(pc, 0) + 1
                    if h >= compile_after and not (traps and pc in traps):
                        fn = self._compile(pc)
                        if fn is None:      # its first instruction keeps changing: interpret it for good
                            heat[pc] = -(1 << 62)
                        else:
                            heat.pop(pc, None)
                            cache[pc] = fn
                            continue
                    else:
                        heat[pc] = h
            if self.tstates >= limit:       # (op functions leave S.pc alone: pc lives here meanwhile)
                self.pc = pc
                return
            if traps and pc in traps:
                self.pc = pc
                traps[pc](self)
                if self.pc != pc:           # the trap moved pc: carry on from there
                    pc = self.pc
                    boundary = True
                    continue
            ops = ops_near if near_lo <= pc < near_hi else ops_away
            while True:                     # interpret up to the next boundary (blocks start only there)
                r = ops[m[pc]](self, m, pc)
                if r >= TRANSFER:
                    pc = r & 0xFFFF
                    break
                if r < 0:                   # HALT
                    self.pc = pc
                    self._idle(limit)
                    return
                pc = r
                if pc in stops:             # a trap, or just after an instruction seen to change
                    break
                if self.tstates >= limit:
                    self.pc = pc
                    return
            boundary = True

    def _code_changed(self, pc):
        """The block at pc found its bytes changed: drop it, note which instructions changed (later blocks stop
        before them, leaving them to the interpreter) and make pc cool down before it is compiled again."""
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
        """HALT: 4-T fetches of the HALT itself until limit (each waits like any fetch when the HALT is in
        contended memory, which moves the T-state the interrupt finds)."""
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
        """One instruction (or one HALT cycle); returns its T-states. A trap at pc runs first; if it moves pc,
        the step ends there (returning the T-states the trap added)."""
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
            # IM 1, or IM 0 with an RST on the bus (0xFF = RST 38h); other IM 0 bytes are taken as RST 38h
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

    # ---------------------------------------------------------------- block translator
    def _path(self, p, start, budget, calls=None):
        """A linear run of instructions from p: follows unconditional jumps, calls and predicted returns, and
        the fall-through side of conditional jumps; stops at a jump back to start, a trap, or budget."""
        dec = self._dec
        traps = self._traps
        instrs = []
        seen = set()
        calls = list(calls or ())   # return addresses of CALLs followed inside this path
        volatile = self._volatile
        while True:
            ins = dec.decode(p)
            if instrs and p + ins.length > 0x10000:
                break
            if volatile and any((p + k) & 0xFFFF in volatile for k in range(ins.length)):
                break                                   # code seen to change: the interpreter runs it
            instrs.append(ins)
            seen.add(p)
            if len(instrs) >= budget or ins.kind == cg.HALT or ins.kind == cg.EI:
                break
            fall = p + ins.length
            if ins.kind == cg.SEQ:
                nxt = fall
            elif ins.target == start:
                break                                   # back edge to the start: the block loops
            elif ins.tn is None and ins.target is not None:
                nxt = ins.target                        # JP / JR / CALL / RST: follow
                if ins.callret is not None:
                    calls.append(ins.callret)
            elif ins.tn is not None and (ins.target is None or ins.target != fall & 0xFFFF):
                nxt = fall                              # conditional: go on with the fall-through side
            elif ins.ret and calls:
                nxt = calls.pop()                       # RET from a CALL followed here: predict it
            else:
                break
            if nxt >= 0x10000 or nxt in seen or nxt in traps or nxt == start:
                break
            p = nxt
        return instrs

    def _compile(self, pc):
        """Compile the block starting at pc (see _path). When the block loops back to pc, the taken side of
        its conditional jumps is compiled inline too if that side also comes back to pc (a loop with an
        if/else inside runs without leaving the block)."""
        instrs = self._path(pc, pc, _MAX_BLOCK)
        if not instrs:
            return None
        nested = {}
        last = instrs[-1]
        if last.kind == cg.JUMP and last.target == pc and pc not in self._traps \
                and not _reads_q(instrs[0]):
            for n, ins in enumerate(instrs[:-1]):
                if ins.branch and ins.tn is not None and ins.target is not None \
                        and ins.target != (ins.addr + ins.length) & 0xFFFF and ins.target not in self._traps:
                    side = self._path(ins.target, pc, _MAX_BLOCK // 2,
                                      [ins.callret] if ins.callret is not None else None)
                    if side and side[-1].kind == cg.JUMP and side[-1].target == pc:
                        nested[n] = side
        src = self._source(pc, instrs, nested)
        if DUMP is not None:
            DUMP.append(src)
        code = _CODE_CACHE.get(src)
        if code is None:
            if len(_CODE_CACHE) > 20000:          # bounded (self-modifying code can make endless variants)
                _CODE_CACHE.clear()
            code = _CODE_CACHE[src] = compile(src, f"<z80 block {pc:04x}>", "exec")
        m = self.memory
        self._block_code[pc] = [(i.addr, bytes(m[i.addr:i.addr + i.length]))
                                for i in instrs + [i for side in nested.values() for i in side]]
        g = self._g
        exec(code, g)
        return g.pop("blk")

    def _ldir_bulk(self, s, ranges):
        """LDIR fast path: copy as many bytes as fit before limit with one slice move, when that is exactly
        what the byte loop would do (no wrap, no forward overlap, no ROM, not over the block's own code)."""
        code_ok = " and ".join(f"(de + n <= {lo} or de >= {hi})" for lo, hi in ranges)
        cont = self._contention
        if cont is not None:            # only where nothing waits: the code, source and destination uncontended
            if any(lo < cont.hi and hi > cont.lo for lo, hi in ranges):
                return []
            code_ok += "".join(f" and ({r} + n <= {cont.lo} or {r} >= {cont.hi})" for r in ("hl", "de"))
        return [
            "    hl = h << 8 | l; de = d << 8 | e; bc = (b << 8 | c) or 65536",
            "    n = (limit - t + 20) // 21",
            "    if n > bc: n = bc",
            f"    if n > 1 and hl + n <= 65536 and de + n <= 65536 and de >= {self.rom_top} "
            f"and not (hl < de < hl + n) and {code_ok}:",
            "        M[de:de + n] = M[hl:hl + n]",
            "        v = M[de + n - 1]",
            "        hl += n; de += n; bc -= n",
            "        t += 21 * n",
            "        if not bc: t -= 5",
            f"        if bc or n > 1: wz = {(s + 1) & 0xFFFF}",
            "        x = v + a",
            f"        f = (f & 193) | 4 | {(s >> 8) & 40} if bc else (f & 193) | (x & 8) | ((x << 4) & 32)",
            f"        npc = {s} if bc else {(s + 2) & 0xFFFF}",
            "        S.tstates = t; S._rc += 2 * n",
            "        S.h = hl >> 8; S.l = hl & 255; S.d = de >> 8; S.e = de & 255; S.b = bc >> 8; S.c = bc & 255",
            "        S.f = f; S.q = f; S.memptr = wz; S.pc = npc",
            "        return npc",
        ]

    def _source(self, s, instrs, nested=None):
        """Python source of one block: def blk(limit) -> next pc, or -1 (too close to limit), -2 (code
        changed), -3 (HALT). A block whose last instruction jumps back to its start loops in place;
        nested maps a conditional jump's index to the inline code of its taken side (which loops back too)."""
        nested = nested or {}
        m = self.memory
        last = instrs[-1]
        loop = last.kind == cg.JUMP and last.target == s and s not in self._traps \
            and not _reads_q(instrs[0])
        # the memory ranges the block's code occupies
        spans = sorted((i.addr, i.addr + i.length) for i in instrs + [i for p in nested.values() for i in p])
        ranges = []
        for a, b in spans:
            if ranges and a <= ranges[-1][1]:
                ranges[-1][1] = max(ranges[-1][1], b)
            else:
                ranges.append([a, b])
        rom_top = self.rom_top

        def guards(ins):
            conds = []
            for var, _ in ins.writes:
                if isinstance(var, int):
                    if any(lo <= var < hi for lo, hi in ranges) and var >= rom_top:
                        conds.append("True")
                elif len(ranges) == 1:
                    conds.append(f"{ranges[0][0]} <= {var} < {ranges[0][1]}")
                else:                  # one cheap test of the whole span first, then the exact ranges
                    exact = " or ".join(f"{lo} <= {var} < {hi}" for lo, hi in ranges)
                    conds.append(f"({ranges[0][0]} <= {var} < {ranges[-1][1]} and ({exact}))")
            return conds

        def followed(ins):
            return ins.kind != cg.SEQ and ins.tn is None and ins.target is not None

        def emit(path, T, K, nest_of, prev=None):
            """Lines of a linear path (all but the last instruction's exit handling), starting T-states T
            and M1 count K into the iteration; returns (lines, T at the last instruction, K, tail guards)."""
            plast = path[-1]
            # dead-store elimination for F and MEMPTR: a value overwritten before any read or exit
            code_lines = [None] * len(path)
            live = {"f": True, "wz": True}
            for n in range(len(path) - 1, -1, -1):
                ins = path[n]
                lines = ins.lines
                exit_here = ins is plast or bool(ins.writes)
                if ins is not plast:
                    if followed(ins):           # JP/JR/CALL/RST followed inline: no npc/tt needed
                        lines = [ln for ln in lines if not _NPC_TT_RE.match(ln)]
                    elif ins.branch and ins.tn is not None:   # conditional: fall through, taken side apart
                        pre_l, cond, taken, target = ins.branch
                        lines = pre_l + [f"if {cond}:"] + ["    " + x for x in taken] + \
                            [_Taken("    ", ins, n in nest_of)]
                        exit_here = True
                    else:
                        exit_here = True
                for reg in ("f", "wz"):
                    if exit_here:
                        live[reg] = True
                    lines, live[reg] = _prune(lines, reg, live[reg])
                code_lines[n] = lines
            body = []
            tail_guard = []
            for n, ins in enumerate(path):
                K += ins.m1
                body.append(f"# {ins.addr:04x}: {ins.mn}")
                before = path[n - 1] if n else prev
                qmask = "~S.q" if before is None else ("0" if before.sets_f else "255")
                for line in code_lines[n]:
                    if isinstance(line, str):
                        body.append(cg.fold(line.replace("QMASK", qmask).replace("{T}", str(T))
                                            .replace("{K}", str(K))))
                    elif not line.nest:         # the taken side leaves the block
                        body.append(Exit(line.indent, ins.branch[3], T + ins.tk, K, _q(ins)))
                    else:                       # the taken side, inline, loops back to the start
                        ws = line.indent
                        side = nest_of[n]
                        sub, spre, sk, sguard = emit(side, T + ins.tk, K, {}, ins)
                        conds = guards(ins)         # a CALL cc taken inline: its pushes may hit our code
                        if conds:
                            body.append(f"{ws}if {' or '.join(conds)}:")
                            body.append(Exit(ws + "    ", ins.branch[3], T + ins.tk, K, _q(ins)))
                        body += [_shift(ws, x) for x in sub]
                        body.append(LoopBack(ws, spre, sk, _q(side[-1]), sguard))
                conds = guards(ins)
                if ins is plast:
                    tail_guard = conds
                    break
                cont = path[n + 1].addr
                if ins.kind == cg.SEQ:
                    t_next = T + ins.t
                    nxt = f"{cont}"
                elif followed(ins):
                    t_next = T + ins.tk                     # followed unconditional jump
                    nxt = f"{cont}"
                elif ins.branch and ins.tn is not None:
                    t_next = T + ins.tn                     # conditional: taken side handled in its lines
                    nxt = f"{cont}"
                else:                                       # predicted RET
                    t_next = T + ins.tk
                    body.append(f"if npc != {cont}:")
                    body.append(Exit("    ", "npc", T, K, "0"))
                    nxt = "npc"
                if conds and not (ins.kind == cg.JUMP and ins.tn is not None):   # CALL cc not taken: no write
                    body.append(f"if {' or '.join(conds)}:")
                    body.append(Exit("    ", nxt, t_next if nxt != "npc" else T, K, _q(ins)))
                T = t_next
            return body, T, K, tail_guard

        body, pre, K, tail_guard = emit(instrs, 0, 0, nested if loop else {})
        # the latest start of a last instruction over all paths (every path starts all its instructions
        # before limit when t + pre < limit)
        pre_all = max([pre] + [x.pre for x in body if isinstance(x, LoopBack)])
        if self._contention is not None:    # room for every wait too, so no instruction starts at/after limit
            waits = sum(str(x).count("D[") for x in body if isinstance(x, str))
            pre_all += waits * self._contention.longest
        if not loop:
            tail_guard = []
        rc = "rc + " if loop else ""
        scaffold = loop or any(isinstance(x, Exit) for x in body)   # exits 'break' to one shared tail
        ind = "        " if scaffold else "    "
        rendered = []
        for item in body:
            if isinstance(item, str):
                rendered.append(ind + item)
            elif isinstance(item, Exit):
                tt = " + tt" if item.target == "npc" else ""
                rendered.append(f"{ind}{item.indent}S.q = {item.q}; npc = {item.target}; tx = {item.t}{tt}; "
                                f"kx = {rc}{item.k}; break")
            else:                               # LoopBack: the inline taken side came back to the start
                brk = [f"npc != {s}", f"t + {pre_all} >= limit"] + item.guard
                ws = ind + item.indent
                rendered += [f"{ws}t += {item.pre} + tt", f"{ws}rc += {item.k}",
                             f"{ws}if {' or '.join(brk)}: S.q = {item.q}; tx = 0; kx = rc; break",
                             f"{ws}continue"]
        text = "\n".join(ln for ln in rendered if not ln.lstrip().startswith("#")) + "\n" + \
            " ".join(tail_guard)
        used, written = cg.registers_in(text)
        loads = [f"    {r} = S.{cg.cpu_name(r)}" for r in used]
        stores = [f"S.{cg.cpu_name(r)} = {r}" for r in written]
        out = ["def blk(limit):", "    t = S.tstates", f"    if t + {pre_all} >= limit: S.pc = {s}; return -1"]
        for a, b in ranges:
            if b <= rom_top:
                continue
            if b <= 0x10000:
                code = bytes(m[a:b])
                if len(code) == 1:
                    out.append(f"    if M[{a}] != {code[0]}: S.pc = {s}; return -2")
                else:
                    out.append(f"    if M[{a}:{b}] != {code!r}: S.pc = {s}; return -2")
            else:
                for k in range(a, b):
                    out.append(f"    if M[{k & 0xFFFF}] != {m[k & 0xFFFF]}: S.pc = {s}; return -2")
        out += loads
        if loop and ("wb" in text or "wa" in text):
            out.append("    wa = wb = -1")             # a conditional CALL looping to the start may not write
        if loop and len(instrs) == 1 and last.mn == "LDIR":
            out += self._ldir_bulk(s, ranges)
        if loop:
            out.append("    rc = 0")
        if scaffold:
            out.append("    while True:")
        out += rendered
        if last.kind == cg.SEQ:
            end_pc, end_t = (last.addr + last.length) & 0xFFFF, f"{pre + last.t}"
        else:
            end_pc, end_t = "npc", f"{pre} + tt"
        if loop:
            out.append(f"        t += {pre} + tt")
            out.append(f"        rc += {K}")
            brk = [f"npc != {s}", f"t + {pre_all} >= limit"] + tail_guard
            out.append(f"        if {' or '.join(brk)}: S.q = {_q(last)}; tx = 0; kx = rc; break")
        elif last.kind == cg.HALT:
            out.append(f"{ind}S.tstates = t + {end_t}; S._rc += {K}; S.q = 0")
            out += [ind + st for st in stores]
            out.append(f"{ind}S.pc = npc; return -3")
        elif scaffold:
            if last.post:
                out.append(f"{ind}{last.post} + {K}")
            out.append(f"{ind}S.q = {_q(last)}; npc = {end_pc}; tx = {end_t}; kx = {K}; break")
        else:
            out.append(f"    S.tstates = t + {end_t}; S._rc += {K}; S.q = {_q(last)}")
            out += ["    " + st for st in stores]
            out.append(f"    S.pc = {end_pc}")
            if last.post:
                out.append(f"    {last.post}")
            out.append(f"    return {end_pc}")
        if scaffold:
            out.append("    S.tstates = t + tx; S._rc += kx")
            out += ["    " + st for st in stores]
            out.append("    S.pc = npc")
            out.append("    return npc")
        return "\n".join(out) + "\n"
