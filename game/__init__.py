"""The backgammon program that runs on the emulated 48K ("the BASIC listing")."""
__version__ = "0.1.0"             # the one home of the version (setup.py reads it)
