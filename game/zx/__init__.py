"""The BASIC layer on the machine: PRINT, INKEY$, BEEP and USR through the ROM (basic, rom48,
usr), the game's media and tape (media, make_tape, mcode.*) and the ROM check (romcheck).
Not the emulator (spectrum/), not what is drawn where (game/board/), not the rules."""
