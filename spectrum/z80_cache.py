"""The Z80 runner's block cache: which addresses are hot, their compiled blocks, the bytes each was
compiled from, and the bytes seen to change under one (blocks then stop before them). Not the
compiler itself (z80_compile.py) nor the registers (z80_state.py); the runner (z80.py) asks it for
the block at an address and tells it when one found its code changed."""
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from .z80_bus import Contention
from .z80_compile import BlockCompiler
from .z80_explain import explain
from .z80_passes import walk

COMPILE_AFTER = 48      # arrivals at an address before its block is compiled (1: compile at once)
NEVER = -(1 << 62)      # heat of an address whose first instruction keeps changing (interpreted)

Block = Callable[[int], int]    # blk(limit) -> next pc, or a BlockExit


class BlockCache:
    """Compiled blocks by address for one CPU's memory. `g` is the blocks' namespace (the CPU
    as S, memory as M, the flag tables, the ports); `stops` are the addresses where the
    interpreter must look for a block or a trap (traps, just after a changed instruction)."""
    __slots__ = ("by_addr", "heat", "recompiles", "compile_after", "volatile", "after_volatile",
                 "stops", "block_code", "compiler", "dump_blocks", "memory", "g", "_always")

    def __init__(self, memory: bytearray, rom_top: int, contention: Contention | None,
                 g: dict[str, Any], compile_after: int = COMPILE_AFTER,
                 dump_blocks: dict[int, str | Path] | None = None) -> None:
        self.memory = memory
        self.g = g
        self.by_addr: dict[int, Block] = {}        # address -> compiled block
        self.heat: dict[int, int] = {}             # address -> arrivals so far (< 0: cooling)
        self.recompiles: dict[int, int] = {}       # address -> times its block was dropped
        self.compile_after = compile_after
        self.volatile: set[int] = set()            # bytes seen to change under a block
        self.after_volatile: set[int] = set()      # the addresses right after their instructions
        self.stops: set[int] = set()               # traps and after_volatile
        # address -> [(instruction address, its bytes)] of its block
        self.block_code: dict[int, list[tuple[int, bytes]]] = {}
        self.compiler = BlockCompiler(memory, rom_top, contention)
        # debugging: {address: file} -- each block compiled at such an address has its account
        # (bytes, records, passes, code: z80_explain) appended to the file
        self.dump_blocks = dict(dump_blocks or {})
        # where code running on reaches contended memory: the interpreter changes tables there
        self._always = (set(range(contention.lo - 4, contention.lo + 1))
                        if contention is not None else set())

    def flush(self, traps: Iterable[int]) -> None:
        """Forget every compiled block (the traps, now these, are stops)."""
        self.by_addr.clear()
        self.block_code.clear()
        self.stops.clear()
        self.stops.update(traps)
        self.stops.update(self.after_volatile)
        self.stops.update(self._always)

    def compile(self, pc: int, traps: dict[int, Any]) -> Block | None:
        """Compile the block at pc and cache it (its code bytes kept to tell which changed, should
        they); None when its first instruction keeps changing (pc is then interpreted for good)."""
        fn, block = self.compiler.compile(pc, traps, self.volatile, self.g,
                                          self.dump_blocks.get(pc) if self.dump_blocks else None)
        if fn is None or block is None:
            self.heat[pc] = NEVER
            return None
        m = self.memory
        self.block_code[pc] = [(s.ins.at, bytes(m[s.ins.at:s.ins.at + s.ins.length]))
                               for s in walk(block.steps)]
        self.heat.pop(pc, None)
        self.by_addr[pc] = fn
        return fn

    def code_changed(self, pc: int) -> None:
        """The block at pc found its bytes changed: drop it, note which instructions changed (later
        blocks stop before them, leaving them to the interpreter) and make pc cool down before it is
        compiled again."""
        m = self.memory
        for addr, old in self.block_code.pop(pc, ()):
            for k, byte in enumerate(old):
                if m[(addr + k) & 0xFFFF] != byte:
                    self.volatile.add((addr + k) & 0xFFFF)
                    self.stops.add((addr + len(old)) & 0xFFFF)
                    self.after_volatile.add((addr + len(old)) & 0xFFFF)
        del self.by_addr[pc]
        self.recompiles[pc] = n = self.recompiles.get(pc, 0) + 1
        self.heat[pc] = 0 if n == 1 else -(self.compile_after << min(n, 40))

    def explain(self, pc: int, traps: dict[int, Any]) -> str:
        """The account of the block that would be compiled at pc now (records, passes, code:
        docs/Z80.md)."""
        block = self.compiler.plan(pc, traps, self.volatile)
        if block is None:
            return f"{pc:04x}: its first instruction is interpreted (seen to change)"
        return explain(block, self.compiler.emitter.block(block, self.memory), self.memory)
