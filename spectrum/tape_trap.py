"""The instant-load trap: our ROM's LD_BYTES done at once from the tape's next data block, for
--tape instant and the tests. Not the pulses a real load reads (tape_player.py)."""
from typing import TYPE_CHECKING

from spectrum import hw
from spectrum.tape_blocks import checksum
from spectrum.tape_player import TapePlayer

if TYPE_CHECKING:
    from spectrum.z80 import Z80

# What LD_BYTES leaves in A (our ROM's LDERR_* in roms/rom.asm; carry clear on a failure)
LD_OK, LD_BAD_CHECKSUM, LD_RAN_OUT, LD_VERIFY_FAILED = 0, 2, 3, 4


def instant_ld_bytes(cpu: "Z80", memory: bytearray, player: TapePlayer,
                     rom_top: int = hw.ROM_BYTES) -> None:
    """Do what LD_BYTES does, at once: IX = destination, DE = length, A = flag wanted, carry
    set to LOAD (clear to VERIFY: the bytes are compared with memory, none written, and the
    first that differs ends it). Takes the next data block with that flag from the player's
    position (others are passed over), writes the bytes it would have written, sets IX, DE,
    A and the carry as LD_BYTES returns them (carry set: loaded; A = LD_BAD_CHECKSUM,
    LD_RAN_OUT or LD_VERIFY_FAILED), moves the tape past the block, enables interrupts and
    returns (pops PC)."""
    flag, ix, de, verify = cpu.a, cpu.ix, cpu.de, not cpu.f & 1
    index = player.block_index_at(cpu.tstates)
    found = next((i for i in range(index, len(player.blocks))
                  if player.blocks[i].carries_data and player.blocks[i].flag == flag), None)
    if found is None:
        result = LD_RAN_OUT
        player.seek(player.length_tstates, cpu.tstates)
    else:
        payload = player.blocks[found].data[1:]
        count = min(de, len(payload))
        same = _verified(memory, ix, payload[:count]) if verify else count
        if not verify:
            for k in range(count):
                addr = (ix + k) & 0xFFFF
                if addr >= rom_top:
                    memory[addr] = payload[k]
        ix, de = (ix + same) & 0xFFFF, de - same
        if same < count:
            result = LD_VERIFY_FAILED
        elif de == 0 and len(payload) > count:
            ok = checksum(bytes([flag]) + payload[:count + 1]) == 0
            result = LD_OK if ok else LD_BAD_CHECKSUM
        else:
            result = LD_RAN_OUT           # the block ended before its checksum
        player.seek(player.block_end_tstates[found] + 1, cpu.tstates)
    cpu.ix, cpu.de, cpu.a = ix, de, result
    cpu.f = 0x45 if result == LD_OK else (0x10 | (0x04 if result == LD_RAN_OUT else 0))
    cpu.iff1 = cpu.iff2 = 1
    sp = cpu.sp
    cpu.pc = memory[sp] | memory[(sp + 1) & 0xFFFF] << 8
    cpu.sp = (sp + 2) & 0xFFFF


def _verified(memory: bytearray, ix: int, data: bytes) -> int:
    """How many bytes from IX on are the same as data's, before the first that differs."""
    for k, byte in enumerate(data):
        if memory[(ix + k) & 0xFFFF] != byte:
            return k
    return len(data)
