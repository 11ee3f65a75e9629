"""The emulated 48K ZX Spectrum. It knows nothing of backgammon."""
