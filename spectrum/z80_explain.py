"""A compiled block's account, for people: its bytes, the decoder's records, what each pass decided,
and the code emitted, as plain text (the CPU's dump_blocks writes it to a file; docs/Z80.md shows
one). It reads the plan the passes made; it decides nothing."""
from .z80_passes import walk
from .z80_timing import Flag, Mark, PortWait, Wait, Within


def timing_text(steps):
    """A Timing's steps in a few words: '+4 if 64 <= d < 128; twa = +7'."""
    out = []
    for s in steps:
        if isinstance(s, Wait):
            at = ",".join(f"+{o}" for o in s.offsets)
            out.append(f"wait {at}" + ("" if s.cond is True else f" if {s.cond}"))
        elif isinstance(s, Mark):
            out.append(f"{s.name} = +{s.offset}")
        elif isinstance(s, Flag):
            out.append(f"{s.name} = {s.cond}")
        elif isinstance(s, Within):
            out.append(f"if {s.cond}: ({timing_text(s.steps)})")
        elif isinstance(s, PortWait):
            out.append(f"port rule for {s.port} at +{s.offset}")
    return "; ".join(out)


def _step_text(step, memory, depth):
    ins = step.ins
    code = " ".join(f"{memory[(ins.addr + k) & 0xFFFF]:02x}" for k in range(ins.length))
    pad = "  " * depth
    dead = [what for what, kept, has in (("flags", step.keep_flags, ins.flags_written),
                                         ("MEMPTR", step.keep_memptr, "wz" in ins.writes))
            if has and not kept]
    out = [f"{pad}{ins.addr:04x}  {code:<11}  {ins.describe()}",
           f"{pad}      placed: +{step.at} T, M1 {step.m1}, then {step.then}"
           + (f"; dead: {' and '.join(dead)} (left out)" if dead else "")]
    waits = timing_text(step.timing.before)
    if step.timing.taken:
        waits += ("; " if waits else "") + "taken side: " + timing_text(step.timing.taken)
    if waits:
        out.append(f"{pad}      contention: {waits}")
    if step.guard or step.side_guard:
        out.append(f"{pad}      its writes may hit the block's code: leave if "
                   f"{' or '.join(step.guard + step.side_guard)}")
    for side in step.side:
        out += _step_text(side, memory, depth + 1)
    return out


def explain(block, source, memory):
    """The account of one block: bytes and records, passes, code."""
    spans = ", ".join(f"{lo:04x}-{hi - 1:04x}" for lo, hi in block.ranges)
    n = sum(1 for _ in walk(block.steps))
    out = [f"block {block.start:04x}: {n} instructions from {spans}; "
           f"{'loops back to its start' if block.loop else 'runs through once'}",
           "", "records (address, bytes, what the decoder says) and passes (under each):"]
    for step in block.steps:
        out += _step_text(step, memory, 1)
    out += ["", f"registers kept in locals: {' '.join(block.loads) or '-'}; written back: "
            f"{' '.join(block.stores) or '-'}",
            f"room before the limit: {block.room} T-states", "", "code:", source]
    return "\n".join(out)
