"""Hardware constants of the 48K ZX Spectrum, each once, with its source.
Every module of spectrum/ takes its numbers from here; none retypes them.
What they mean and their sources: docs/HARDWARE.md (sections cited as §N below)."""

# --- CPU and frame timing (HARDWARE.md §4; libspectrum timings.c) ---
CPU_HZ = 3_500_000                 # Z80 clock of the 48K
TSTATES_PER_LINE = 224             # 24 left border + 128 screen + 24 right border + 48 retrace
LINES_PER_FRAME = 312
TSTATES_PER_FRAME = 69_888         # 224 * 312
FRAME_HZ = CPU_HZ / TSTATES_PER_FRAME   # 50.08 Hz
FRAME_MS = 1000.0 / FRAME_HZ            # 19.968 ms
INT_LENGTH_TSTATES = 32            # /INT held for 32 T at frame start
FIRST_PIXEL_TSTATES = 14_336       # 64 lines * 224 after the interrupt
LINES_ABOVE_SCREEN = 64

# --- Contention and the ULA's screen fetches ---
# (HARDWARE.md §4a; Fuse's 48K timings, SpectREM's floating bus)
CONTENDED_LO, CONTENDED_HI = 0x4000, 0x8000   # the memory the ULA shares with the CPU
CONTENTION_FIRST_TSTATES = 14_335  # first T-state at which an access to contended memory is held up
# T-states held up, by (T - 14,335) % 8 within a line's screen part
CONTENTION_DELAYS = (6, 5, 4, 3, 2, 1, 0, 0)
CONTENTION_LINE_TSTATES = 128      # the screen part of each line, where the pattern repeats
ULA_FIRST_FETCH_TSTATES = 14_338   # bitmap byte 0 of line 0 is on the data bus (Fuse); every 8 T
#                                    the ULA reads bitmap n, attr n, bitmap n+1, attr n+1, then
#                                    leaves the bus idle 4 T
PORT_SAMPLE_TSTATES = 2            # an IN samples the data bus 2 T after the T-state port_in gets
#                                    (the last T of the I/O cycle; port_in gets the one after the
#                                    cycle's first T)

# --- Memory map (HARDWARE.md §1) ---
MEMORY_BYTES = 65_536
ROM_BYTES = 16_384                 # 0x0000-0x3FFF, writes ignored
SCREEN_ADDR = 0x4000               # bitmap, 6144 bytes
SCREEN_BITMAP_BYTES = 6_144
ATTR_ADDR = 0x5800                 # attributes, 768 bytes
ATTR_BYTES = 768
SCREEN_BYTES = 6_912               # SCREEN$ = bitmap + attributes
ROM_FONT_ADDR = 0x3D00             # the 96 printable characters (32-127), 8 bytes each, top
                                   # row first: where the 48K ROM keeps its character set
                                   # (and ours and OpenSE BASIC theirs; SPECTRUM.md memory map)
UDG_DEFAULT = 0xFF58               # 65368
RAMTOP_DEFAULT = 65_367

# --- Display (HARDWARE.md §2, §3, §5) ---
SCREEN_W, SCREEN_H = 256, 192
BORDER_LEFT_PX = 32                # Fuse / JSSpeccy / SkoolKit convention: 320 x 240
BORDER_TOP_LINES = 24
FRAME_W = SCREEN_W + 2 * BORDER_LEFT_PX   # 320
FRAME_H = SCREEN_H + 2 * BORDER_TOP_LINES  # 240
FLASH_PERIOD_FRAMES = 16           # ink/paper swap every 16 frames
DEFAULT_ATTR = 0x38                # paper white, ink black

# Colour numbers, as INK/PAPER/BORDER take them: colour = G*4 + R*2 + B (HARDWARE.md §3)
BLACK, BLUE, RED, MAGENTA, GREEN, CYAN, YELLOW, WHITE = range(8)
# Palette: Fuse gtkdisplay.c levels, normal 0xC0, bright 0xFF; colour = G*4 + R*2 + B
NORMAL_LEVEL = 0xC0
BRIGHT_LEVEL = 0xFF

# --- Port 0xFE (HARDWARE.md §6) ---
ULA_PORT = 0xFE                    # any even port reaches the ULA
OUT_BORDER_MASK = 0x07
OUT_MIC_BIT = 0x08
OUT_EAR_BIT = 0x10                 # the beeper
IN_EAR_BIT = 0x40
# Keyboard half-rows: (port, keys from bit 0 to bit 4)
KEYBOARD_ROWS = (
    (0xFEFE, ("CAPS SHIFT", "Z", "X", "C", "V")),
    (0xFDFE, ("A", "S", "D", "F", "G")),
    (0xFBFE, ("Q", "W", "E", "R", "T")),
    (0xF7FE, ("1", "2", "3", "4", "5")),
    (0xEFFE, ("0", "9", "8", "7", "6")),
    (0xDFFE, ("P", "O", "I", "U", "Y")),
    (0xBFFE, ("ENTER", "L", "K", "J", "H")),
    (0x7FFE, ("SPACE", "SYMBOL SHIFT", "M", "N", "B")),
)

# --- Interrupts (HARDWARE.md §7) ---
IM1_VECTOR = 0x0038
NMI_VECTOR = 0x0066

# --- Tape, standard ROM timing in T-states (HARDWARE.md §8) ---
PILOT_PULSE_TSTATES = 2168
PILOT_PULSES_HEADER = 8063         # flag < 128
PILOT_PULSES_DATA = 3223           # flag >= 128
SYNC1_TSTATES = 667
SYNC2_TSTATES = 735
BIT0_PULSE_TSTATES = 855
BIT1_PULSE_TSTATES = 1710
BLOCK_PAUSE_MS = 1000

# --- Audio (HARDWARE.md §11) ---
AUDIO_RATE_HZ = 44_100
