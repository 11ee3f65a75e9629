"""Our own 16 KiB Spectrum ROM: where its image, source and symbol table live.
Not the emulator (spectrum/) and not the Sinclair ROM, which this project never ships."""
import os

ROM_DIR = os.path.dirname(os.path.abspath(__file__))
