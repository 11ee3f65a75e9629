"""The Z80 interpreter: one small Python function per opcode (per prefix + opcode), made on first use from the
same decoder that feeds the block compiler, reading its operands from memory each time it runs. It runs code
that is cold, run once or rewritten as it runs; it is not the block compiler and keeps no per-address state.

An op function is `op(pc) -> next pc`, plus 0x10000 when the instruction may have jumped (the CPU counts
those arrivals to find hot code), or -3 for HALT. Source text is made once per process and opcode; each CPU
execs it into its own globals (S = the CPU, M = its memory)."""
from . import z80_codegen as cg

_SOURCES = {}            # (opcode bytes, rom_top) -> code object, shared by every CPU of the process
TRANSFER = 0x10000       # added to the returned pc by instructions that can jump


def opcode_bytes(memory, pc):
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


def op_source(key_bytes, rom_top):
    """Python source of the op function for one opcode (see the module docstring)."""
    template = cg.Template(key_bytes)
    ins = cg.Decoder(template, rom_top).decode(cg.Expr("pc", 0))
    body = [f"o{k} = M[(pc + {k}) & 65535]" for k in sorted(template.operands)]   # read before any write
    for line in ins.lines:
        body.append(line.replace("{T}", "0").replace("{K}", str(ins.m1)).replace("QMASK", "~S.q"))
    if ins.kind == cg.SEQ:
        t_end, npc, ret = str(ins.t), f"(pc + {ins.length}) & 65535", "npc"
        body.append(f"npc = {npc}")
    else:
        t_end, ret = "tt", ("-3" if ins.kind == cg.HALT else f"npc + {TRANSFER}")
    text = "\n".join(body)
    used, written = cg.registers_in(text)
    out = ["def op(pc):", "    t = S.tstates"]
    out += [f"    {r} = S.{cg.cpu_name(r)}" for r in used]
    out += ["    " + ln for ln in body]
    out.append(f"    S.tstates = t + {t_end}; S._rc += {ins.m1}; S.q = {'f' if ins.sets_f else 0}")
    out += [f"    S.{cg.cpu_name(r)} = {r}" for r in written]
    out.append("    S.pc = npc")
    if ins.post:
        out.append(f"    {ins.post}")
    out.append(f"    return {ret}")
    return "\n".join(out) + "\n"


class OpTable:
    """One CPU's dispatch: `table[memory[pc]](pc)` runs the instruction at pc. Prefix bytes map to small
    dispatchers on the next opcode byte; every slot starts as a stub that builds the real function."""

    def __init__(self, memory, globals_, rom_top):
        self.memory, self.g, self.rom_top = memory, globals_, rom_top
        self.sub = {}                                   # prefix key -> its 256-slot table
        self.table = [self._stub((op,)) for op in range(256)]
        for prefix in (0xCB, 0xED, 0xDD, 0xFD):
            self.table[prefix] = self._dispatcher((prefix,), 1)
        for prefix in (0xDD, 0xFD):                     # DD CB d op: the opcode is the fourth byte
            self.sub[(prefix,)][0xCB] = self._dispatcher((prefix, 0xCB), 3)

    def _dispatcher(self, key, offset):
        slots = self.sub[key] = [self._stub(key + (op,)) for op in range(256)]
        m = self.memory

        def dispatch(pc):
            return slots[m[(pc + offset) & 0xFFFF]](pc)
        return dispatch

    def _stub(self, key):
        def build(pc):
            fn = self._build(pc)
            slots = self.table if len(key) == 1 else self.sub[key[:-1]]
            slots[key[-1]] = fn
            return fn(pc)
        return build

    def _build(self, pc):
        kb = opcode_bytes(self.memory, pc)
        ck = (tuple(sorted(kb.items())), self.rom_top)
        code = _SOURCES.get(ck)
        if code is None:
            code = _SOURCES[ck] = compile(op_source(kb, self.rom_top), f"<z80 op {bytes(kb.values()).hex()}>",
                                          "exec")
        exec(code, self.g)
        return self.g.pop("op")
