"""The ways a tape can load (the console's --tape), each with what it means, in a module of
their own so that the console can name them in --help without loading the tape code (numpy).
Not the loading (spectrum/loader.py)."""

TAPE_MODES = {
    "fast": "sped up",          # the real pulse stream through the ROM's loader, as many
                                # emulated frames as fit in a displayed one
    "real": "as in 1983",       # one emulated frame a displayed frame
    "instant": "at once",       # the LD_BYTES trap copies each block
}
