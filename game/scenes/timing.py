"""How long things take and how they sound in the scenes: 50 Hz frames and beeps as (ms, Hz).
Numbers only; no logic. Not the keys the scenes hear (scenes/state.py) nor the tunes
(pages/menus.py)."""
# --- timings, in 50 Hz frames, and sounds (ms, Hz) ---
ROLL_FRAMES = 16                 # dice tumbling before they settle
ROLL_FLICKER_FRAMES = 2          # a new face every 2 frames
RATTLE = (4, 2200)               # one click of the dice rattle
STEP_PAUSE_FRAMES = 12           # between the computer's men
STEP_BEEP = (25, 880)            # a man put down
COMPUTER_BEEP = (35, 587)
READ_FRAMES = 100                # time to read the computer's play (a key cuts it short)
OPENING_READ_FRAMES = 75
INFO_FRAMES = 150                # a message-line answer (P, I) stays this long (a key ends it)
SPEED_PAUSE = {"steps": STEP_PAUSE_FRAMES, "quick": 2, "instant": 0}
SPEED_READ = {"steps": READ_FRAMES, "quick": 50, "instant": 25}
WARNING_FRAMES = 150             # a damaged options or save file's warning stays 3 s
DEMO_NEXT_GAME_FRAMES = 150      # the demo's pause between games (3 s), any key stops it
