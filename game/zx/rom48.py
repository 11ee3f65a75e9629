"""The standard 48K ROM interface the game uses: documented entry points with their register
conventions, and system variables, each with its source. Facts only (addresses, registers,
timings); no ROM code. Not our ROM's own labels (roms/rom.sym), which the game never reads.

Sources:
  [D]  The Complete Spectrum ROM Disassembly (Logan, O'Hara, 1983), as published by SkoolKit:
       https://skoolkid.github.io/rom/asm/<address>.html (routines), .../rom/buffers/sysvars.html
  [M]  Sinclair ZX Spectrum BASIC manual, chapter 25 (system variables)
  [T]  Measured on our Z80 core (uncontended) running the 48K ROM's own BEEPER from SkoolKit's
       resources/48.rom and OpenSE BASIC 3.2.1: both give the figures below
  [S]  docs/HARDWARE.md section 10 (the system variables and USR)
"""
from spectrum.hw import CPU_HZ

# ---------------------------------------------------------------- entry points
# RST 10h, PRINT-A-1 [D 0010]: A = the character or control code to print through the
# current channel (CURCHL). Through the upper-screen channel 'S' (stream 2): 32-127 from
# the font at CHARS+256, 128-143 block graphics, 144-164 UDGs, 6 comma, 8 back, 13 ENTER,
# 16 INK, 17 PAPER, 18 FLASH, 19 BRIGHT, 20 INVERSE, 21 OVER (one operand each), 22 AT
# (line, column), 23 TAB. Colour codes set the temporary ATTR-T/MASK-T/P-FLAG. AT in the
# upper screen takes lines 0-21 only (line 22 with DF-SZ 0; report B beyond) [D 0A87 PO-CONT].
RST_PRINT_A = 0x0010
# IM 1 handler, MASK-INT [D 0038]: FRAMES + 1, then KEYBOARD; every 50 Hz frame.
IM1_MASK_INT = 0x0038
# KEY-SCAN [D 028E]: no input. E = key value 00h-27h of the key pressed, or FFh; D = the
# shift held (27h CAPS SHIFT, 18h SYMBOL SHIFT) or FFh; with both shifts D = 27h, E = 18h.
# Zero flag reset for an invalid combination (three keys, or two without a shift).
# Key value = 27h - half-row (FEFE = 0 ... 7FFE = 7) - 8 * bit (0..4).
KEY_SCAN = 0x028E
KEY_CAPS_SHIFT, KEY_SYMBOL_SHIFT, KEY_NONE = 0x27, 0x18, 0xFF
# KEYBOARD [D 02BF]: called by the IM 1 handler; a new key (or a held one after REPDEL,
# then every REPPER frames) goes to LAST-K as its code, and FLAGS bit 5 is set.
KEYBOARD = 0x02BF
# BEEPER [D 03B5]: DE = number of full cycles - 1, HL = the pitch's timing count.
# Interrupts are off while it sounds and on after it; IX is not kept.
# [T] every half-cycle lasts BEEPER_HALF_FIXED_T + BEEPER_HALF_PER_COUNT_T * HL T-states,
# the first half with the speaker bit (port FEh bit 4) high; DE + 1 full cycles are made.
# ([D 03F8 BEEP] writes it HL = 437500 / f - 30.125, i.e. 120.5 T fixed per half-cycle.)
BEEPER = 0x03B5
BEEPER_HALF_FIXED_T = 118
BEEPER_HALF_PER_COUNT_T = 4
# LD-BYTES [D 0556]: IX = destination, DE = length, A = flag byte wanted (00h header,
# FFh data), carry set = LOAD (reset = VERIFY). Out: carry set = loaded; interrupts on.
LD_BYTES = 0x0556
# LD-EDGE-1's sampling loop, LD-SAMPLE [D 05ED]: INC B ... JR Z,LD-SAMPLE, one pass every
# 59 T with the EAR read 24 T into the pass (timed on our core [T]); B counts the passes.
LD_SAMPLE = 0x05ED
LD_SAMPLE_PASS_T = 59
LD_SAMPLE_READ_T = 24
# CLS [D 0D6B]: CL-ALL, then the lower screen cleared (attributes BORDCR) and stream K open.
CLS = 0x0D6B
# CL-ALL [D 0DAF]: the whole display cleared, attributes from ATTR-P, print position to the
# top left of the upper screen, SCR-CT 1.
CL_ALL = 0x0DAF
# CL-SET [D 0DD9]: B = 24 - line, C = 33 - column: sets the print position (S-POSN and
# DF-CC in the upper screen). With DF-SZ 0 it reaches lines 22 and 23, which AT cannot.
CL_SET = 0x0DD9
# CHAN-OPEN [D 1601]: A = stream number (2 = upper screen 'S', 0/1 = lower 'K', 3 = 'P');
# that stream's channel becomes the current channel (and 'S' resets the temporary colours).
CHAN_OPEN = 0x1601
STREAM_UPPER_SCREEN = 2

# ---------------------------------------------------------------- system variables [M] [S]
LAST_K = 0x5C08        # 23560: the last key pressed (code)
REPDEL = 0x5C09        # 23561: frames a key is held before it repeats
REPPER = 0x5C0A        # 23562: frames between repeats
ERR_NR = 0x5C3A        # 23610: report code - 1; BASIC keeps IY here
FLAGS = 0x5C3B         # 23611: bit 5 set = a new key in LAST-K; bit 3 set = L mode [D 5C3B]
FLAGS_NEW_KEY = 0x20
FLAGS_L_MODE = 0x08    # reset (K mode, as the editor leaves it): KEYBOARD gives letters as
                       # keyword tokens; set: as letters [D 0333 K-DECODE]
MODE = 0x5C41          # 23617: 0 = K/L/C mode, 1 = E, 2 = G [D 0333]
TV_FLAG = 0x5C3C       # 23612
BORDCR = 0x5C48        # 23624: border colour * 8, and the lower screen's attribute
CHARS = 0x5C36         # 23606: 256 less than the address of the font
DF_SZ = 0x5C6B         # 23659: lines in the lower part of the screen
FRAMES = 0x5C78        # 23672: 3-byte frame counter, incremented by the IM 1 handler
UDG = 0x5C7B           # 23675: the first user-defined graphic
S_POSN = 0x5C88        # 23688: 33 - column, 24 - line of the upper screen's print position
ATTR_P = 0x5C8D        # 23693: permanent colours
MASK_P = 0x5C8E        # 23694
ATTR_T = 0x5C8F        # 23695: temporary colours (what RST 10h prints with)
MASK_T = 0x5C90        # 23696
P_FLAG = 0x5C91        # 23697
RAMTOP = 0x5CB2        # 23730
E_LINE = 0x5C59        # 23641: address of the line being edited (keywords as tokens)

ENTRY_POINTS = {
    "RST_PRINT_A": RST_PRINT_A, "IM1_MASK_INT": IM1_MASK_INT, "KEY_SCAN": KEY_SCAN,
    "KEYBOARD": KEYBOARD, "BEEPER": BEEPER, "LD_BYTES": LD_BYTES, "CLS": CLS,
    "CL_ALL": CL_ALL, "CL_SET": CL_SET, "CHAN_OPEN": CHAN_OPEN,
}
SYSTEM_VARIABLES = {
    "LAST_K": LAST_K, "REPDEL": REPDEL, "REPPER": REPPER, "ERR_NR": ERR_NR, "FLAGS": FLAGS,
    "MODE": MODE, "TV_FLAG": TV_FLAG, "BORDCR": BORDCR, "CHARS": CHARS, "DF_SZ": DF_SZ,
    "FRAMES": FRAMES,
    "UDG": UDG, "S_POSN": S_POSN, "ATTR_P": ATTR_P, "MASK_P": MASK_P, "ATTR_T": ATTR_T,
    "MASK_T": MASK_T, "P_FLAG": P_FLAG, "RAMTOP": RAMTOP, "E_LINE": E_LINE,
}
STANDARD = {**ENTRY_POINTS, **SYSTEM_VARIABLES}


def beeper_registers(ms: float, hz: float) -> tuple[int, int]:
    """(DE, HL) for BEEPER to sound `hz` for `ms` milliseconds on the 48K's clock, from its
    timing above."""
    cycles = max(1, round(hz * ms / 1000))
    half_t = CPU_HZ / hz / 2
    count = round((half_t - BEEPER_HALF_FIXED_T) / BEEPER_HALF_PER_COUNT_T)
    return cycles - 1, max(0, min(0xFFFF, count))


def beeper_cycle_tstates(hl: int) -> int:
    """T-states of one full BEEPER cycle for the timing count HL."""
    return 2 * (BEEPER_HALF_FIXED_T + BEEPER_HALF_PER_COUNT_T * hl)
