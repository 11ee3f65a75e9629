"""The Z80 interpreter: one small Python function per opcode (per prefix + opcode), made on first
use from the same decoder that feeds the block compiler, reading its operands from memory each time
it runs. It runs code that is cold, run once or rewritten as it runs; it is not the block compiler
and keeps no per-address state.

An op function is `op(S, M, pc) -> next pc`, plus 0x10000 when the instruction may have jumped (the
CPU counts those arrivals to find hot code), or BlockExit.HALT; it leaves S.pc to the caller. Each
is made once per process (per rom_top and contention, and with or without the tests on its own
bytes) and shared by every CPU."""
from collections.abc import Callable
from typing import Any

from .z80_bus import Contention
from .z80_decode import Decoder
from .z80_emit import TRANSFER, Emitter
from .z80_operands import Expr, Template
from .z80_tables import TABLES
from .z80_timing import timing

__all__ = ["TRANSFER", "OpTable", "op_source", "opcode_bytes"]

Op = Callable[[Any, bytearray, int], int]     # op(S, M, pc) -> next pc (+ TRANSFER), or HALT


def opcode_bytes(memory: bytearray, pc: int) -> dict[int, int]:
    """The bytes that select the instruction at pc, as {offset: value} (operands left out)."""
    b0 = memory[pc]
    if b0 in (0xCB, 0xED):
        return {0: b0, 1: memory[(pc + 1) & 0xFFFF]}
    if b0 in (0xDD, 0xFD):
        b1 = memory[(pc + 1) & 0xFFFF]
        if b1 == 0xCB:
            return {0: b0, 1: b1, 3: memory[(pc + 3) & 0xFFFF]}
        return {0: b0, 1: b1}
    return {0: b0}


def op_source(key_bytes: dict[int, int], rom_top: int, contention: Contention | None = None,
              own_bytes: bool = True) -> str:
    """Python source of the op function for one opcode (see the module docstring). own_bytes=False:
    for code outside contended memory (no tests on the instruction's own bytes)."""
    ins = Decoder(Template(key_bytes)).decode(Expr("pc", 0))
    operands = [k for k in range(1, ins.length) if k not in key_bytes]
    waits = timing(ins, contention, "S._ic", own_bytes)
    return Emitter(rom_top, contention).op_function(ins, waits, operands)


class OpTable:
    """The dispatch for one rom_top, shared by every CPU of the process: `table[M[pc]](S, M, pc)`
    runs the instruction at pc on CPU S with memory M. Prefix bytes map to small dispatchers on the
    next opcode byte; every slot starts as a stub that builds the real function on first use."""
    _shared: dict[tuple, "OpTable"] = {}

    @classmethod
    def for_rom_top(cls, rom_top: int, contention: Contention | None = None,
                    own_bytes: bool = True) -> "OpTable":
        own_bytes = own_bytes or contention is None
        table = cls._shared.get((rom_top, contention, own_bytes))
        if table is None:
            table = cls(rom_top, contention, own_bytes)
            cls._shared[(rom_top, contention, own_bytes)] = table
        return table

    def __init__(self, rom_top: int, contention: Contention | None = None,
                 own_bytes: bool = True) -> None:
        self.rom_top = rom_top
        self.contention = contention
        self.own_bytes = own_bytes
        self.g: dict[str, Any] = dict(TABLES)    # the op functions' globals: the flag tables
        if contention is not None:
            self.g["D"] = contention.delays             # ... and the waits by T-state
        self.sub: dict[tuple, list] = {}                # prefix key -> its 256-slot table
        self.table = [self._stub((op,)) for op in range(256)]
        for prefix in (0xCB, 0xED, 0xDD, 0xFD):
            self.table[prefix] = self._dispatcher((prefix,), 1)
        for prefix in (0xDD, 0xFD):                     # DD CB d op: the opcode is the fourth byte
            self.sub[(prefix,)][0xCB] = self._dispatcher((prefix, 0xCB), 3)

    def _dispatcher(self, key: tuple[int, ...], offset: int) -> Op:
        slots = self.sub[key] = [self._stub(key + (op,)) for op in range(256)]

        def dispatch(S: Any, M: bytearray, pc: int) -> int:
            return slots[M[(pc + offset) & 0xFFFF]](S, M, pc)
        return dispatch

    def _stub(self, key: tuple[int, ...]) -> Op:
        def build(S: Any, M: bytearray, pc: int) -> int:
            kb = opcode_bytes(M, pc)
            code = compile(op_source(kb, self.rom_top, self.contention, self.own_bytes),
                           f"<z80 op {bytes(kb.values()).hex()}>", "exec")
            exec(code, self.g)
            fn = self.g.pop("op")
            slots = self.table if len(key) == 1 else self.sub[key[:-1]]
            slots[key[-1]] = fn
            return fn(S, M, pc)
        return build
