"""The Z80 block compiler: the passes (z80_passes.py) over the one decoder's records, then the
emitter (z80_emit.py), then Python's compile; compiled code is shared by source text across CPUs. On
request (the CPU's dump_blocks), a block's account -- bytes, records, passes, code -- is written to
a file (z80_explain.py). It runs nothing: spectrum/z80.py decides when to compile and runs the
blocks."""
import os
from collections.abc import Callable, Collection
from types import CodeType
from typing import Any

from . import z80_passes as passes
from .z80_bus import Contention
from .z80_decode import Decoder
from .z80_emit import Emitter
from .z80_explain import explain
from .z80_records import Instr
from .z80_timing import Timing, timing

MAX_BLOCK = 40           # instructions per compiled block at most (a nested side: half that)
MAX_CACHED = 20_000      # compiled sources kept (self-modifying code can make endless variants)
# block source -> code object, shared by all CPUs (the tests build many)
_CODE_CACHE: dict[str, CodeType] = {}


class BlockCompiler:
    """Compiles blocks of one CPU's memory: knows its ROM's top and contention, and whether I is
    contended (the CPU drops every block when that changes)."""

    def __init__(self, memory: bytearray, rom_top: int, contention: Contention | None) -> None:
        self.memory = memory
        self.rom_top = rom_top
        self.contention = contention
        self.decode = Decoder(memory).decode
        self.emitter = Emitter(rom_top, contention)
        self.ir_contended = False

    def timing(self, ins: Instr) -> Timing:
        return timing(ins, self.contention, self.ir_contended)

    def plan(self, start: int, traps: Collection[int],
             volatile: Collection[int]) -> passes.Block | None:
        """The Block plan of the block at start, or None when its first instruction is volatile."""
        path = passes.trace(self.decode, start, start, MAX_BLOCK, traps, volatile)
        if not path:
            return None
        loop = passes.loops(path, start, traps)
        sides = {}
        if loop:
            def side_path(p: int, calls: list[object]) -> list[Instr]:
                return passes.trace(self.decode, p, start, MAX_BLOCK // 2, traps, volatile, calls)
            sides = passes.nested_sides(path, start, side_path, traps)
        steps = passes.place(path, self.timing, sides)
        ranges = passes.code_ranges([path] + list(sides.values()))
        passes.guard_writes(steps, ranges, self.rom_top)
        passes.make_exits(steps, loop)
        passes.dead_values(steps)
        loads, stores = passes.registers(steps)
        longest = self.contention.longest if self.contention is not None else 0
        return passes.Block(start, steps, loop, ranges, loads, stores, passes.room(steps, longest),
                            bulk_copy=loop and len(path) == 1 and path[0].mn == "LDIR")

    def compile(self, start: int, traps: Collection[int], volatile: Collection[int],
                globals_: dict[str, Any], dump_to: str | os.PathLike[str] | None = None
                ) -> tuple[Callable[[int], int], passes.Block] | tuple[None, None]:
        """(blk function, its plan) for the block at start, or (None, None); blk is made in globals_
        (the CPU's: S, M, the flag tables, the ports, the delays). dump_to: a file to append its
        account to."""
        block = self.plan(start, traps, volatile)
        if block is None:
            return None, None
        src = self.emitter.block(block, self.memory)
        if dump_to is not None:
            with open(dump_to, "a", encoding="utf-8") as out:
                out.write(explain(block, src, self.memory) + "\n")
        code = _CODE_CACHE.get(src)
        if code is None:
            if len(_CODE_CACHE) > MAX_CACHED:
                _CODE_CACHE.clear()
            code = _CODE_CACHE[src] = compile(src, f"<z80 block {start:04x}>", "exec")
        exec(code, globals_)
        return globals_.pop("blk"), block
