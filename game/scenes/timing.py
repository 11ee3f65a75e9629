"""How long things take and how they sound in the scenes: 50 Hz frames, beeps as (ms, Hz),
and the keys heard while a play is shown. Numbers only; no logic."""
# --- timings, in 50 Hz frames, and sounds (ms, Hz) ---
ROLL_FRAMES = 16                 # dice tumbling before they settle
ROLL_FLICKER_FRAMES = 2          # a new face every 2 frames
RATTLE = (4, 2200)               # one click of the dice rattle
STEP_PAUSE_FRAMES = 12           # between the computer's men
STEP_BEEP = (25, 880)            # a man put down
COMPUTER_BEEP = (35, 587)
READ_FRAMES = 100                # time to read the computer's play (a key cuts it short)
OPENING_READ_FRAMES = 75
DOUBLE_KEYS = (ord("d"), ord("D"))
ADVICE_KEYS = (ord("a"), ord("A"))
QUIT_KEYS = (ord("q"), ord("Q"))  # QUIT begun while the computer plays: resign before the throw
ROLL_KEYS = (13, ord(" "))        # ENTER or SPACE rolls at the cube stop
INFO_FRAMES = 150                # a message-line answer (P, I) stays this long (a key ends it)
SPEED_PAUSE = {"steps": STEP_PAUSE_FRAMES, "quick": 2, "instant": 0}
SPEED_READ = {"steps": READ_FRAMES, "quick": 50, "instant": 25}
WARNING_FRAMES = 150             # a damaged options or save file's warning stays 3 s
DEMO_NEXT_GAME_FRAMES = 150      # the demo's pause between games (3 s), any key stops it
WIN_TUNE = ((120, 523), (120, 659), (120, 784), (300, 1047))
LOSE_TUNE = ((200, 392), (200, 330), (400, 262))
