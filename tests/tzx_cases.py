"""A TZX made in code with each block kind spectrum/tzx.py's read_tzx keeps, for the tape's,
the loader's and the tape tools' tests. Not a test."""
from spectrum import hw
from spectrum.tape_blocks import Block, header_payload, make_tap_block


def every_supported_tzx_block():
    """A TZX made in code with each block kind read_tzx keeps."""
    return [
        Block(0x30, pause_ms=0, text="Made by test_tape"),
        Block(0x32, pause_ms=0, archive=((0x00, "A title"), (0x02, "Spectrum Backgammon"))),
        Block(0x10, make_tap_block(0x00, header_payload(3, "tzxbytes", 4, 0x8000, 32768)),
                500),
        Block(0x11, make_tap_block(0xFF, b"\x01\x02\x03\x04"), 200, pilot_pulses=3223),
        Block(0x20, pause_ms=300),
        Block(0x12, pause_ms=0, pulses_tstates=(hw.PILOT_PULSE_TSTATES,) * 3223),
        Block(0x13, pause_ms=0, pulses_tstates=(hw.SYNC1_TSTATES, hw.SYNC2_TSTATES)),
        Block(0x14, make_tap_block(0xFF, b"pure data"), 400, pilot_pulses=0),
    ]
