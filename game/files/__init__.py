"""The player's files: settings, the saved game and its autosave (savegame, session), the
checks every entry read passes (validate), the save on the way out (shutdown) and the match
exported as a .mat file (export).
Not what the files' values mean to the game, and not the tapes (spectrum/tape.py)."""
