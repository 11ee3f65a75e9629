"""The backgammon program that runs on the emulated 48K ("the BASIC listing")."""
