"""basic.beep through the real machine's ROM BEEPER: the pitch and length heard on the beeper
(the EAR bit of port FE) are what was asked for, with the 48K BEEPER's timing (game/zx/rom48.py)."""
import pytest

import roms
from game.zx import rom48
from game.zx.basic import Basic
from gamedriver import rom_symbols
from spectrum import hw
from spectrum.hw import CPU_HZ
from spectrum.machine import Spectrum48


def booted_basic():
    machine = Spectrum48(roms.ROM_PATH)
    symbols = rom_symbols()
    for _ in range(60):
        machine.run_frame()
        if symbols["IDLE"] <= machine.cpu.pc <= symbols["IDLE_END"]:
            break
    return machine, Basic(machine, symbols)


def beeper_rises(machine, basic, ms, hz):
    """T-state times of each rising EAR edge while basic.beep(ms, hz) sounds."""
    edges = []
    out = machine.ula.port_out

    def spy(port, value, tstates):
        if not port & 1:
            edges.append((tstates + machine.frame_count * hw.TSTATES_PER_FRAME, value & 0x10))
        out(port, value, tstates)
    machine.cpu.port_out = spy
    basic.beep(ms, hz)
    machine.cpu.port_out = out
    changes, level = [], 0
    for t, bit in edges:
        if bit != level:
            changes.append((t, bit))
            level = bit
    return [t for t, bit in changes if bit]


@pytest.mark.parametrize("ms, hz", [(500, 440), (100, 880), (25, 587), (3, 1500)])
def test_beep_sounds_the_pitch_and_length_asked(ms, hz):
    machine, basic = booted_basic()
    rises = beeper_rises(machine, basic, ms, hz)
    assert len(rises) >= 2
    period = (rises[-1] - rises[0]) / (len(rises) - 1)
    heard_hz = CPU_HZ / period
    heard_s = len(rises) * period / CPU_HZ
    assert abs(heard_hz - hz) / hz < 0.01, heard_hz
    assert abs(heard_s - ms / 1000) <= max(0.01 * ms / 1000, 1.5 / hz), heard_s


def test_beep_half_second_a_is_440_hz_from_the_48k_beeper_timing():
    machine, basic = booted_basic()
    rises = beeper_rises(machine, basic, 500, 440)
    period = (rises[-1] - rises[0]) / (len(rises) - 1)
    de, hl = rom48.beeper_registers(500, 440)
    assert (de, hl) == (219, 965)                     # 220 cycles; half-cycle 118 + 4 * 965 T
    assert rom48.beeper_cycle_tstates(hl) == 7956
    # the ULA holds each OUT 0-6 T while it fetches the screen (I/O contention): a cycle is never
    # shorter
    assert 7956 <= period <= 7956 + 2 * max(hw.CONTENTION_DELAYS)
    assert 439 < CPU_HZ / period < 442
    assert abs(len(rises) * period / CPU_HZ - 0.5) < 0.003


def test_silent_basic_sounds_nothing():
    machine, basic = booted_basic()
    basic.silent = True
    heard = []
    basic.on_beep = lambda ms, hz: heard.append((ms, hz))
    assert beeper_rises(machine, basic, 100, 440) == []
    assert heard == [(100, 440)]                      # the beep was asked for, and not sounded
