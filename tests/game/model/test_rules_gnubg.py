"""Cross-check with the real GNU Backgammon: for positions from seeded random play, gnubg's own
list of legal moves (`hint` at 0-ply, no pruning) has as many entries as our engine has plays.
Skipped on a developer's machine without gnubg (failed in CI); not a substitute for the
brute-force differential test."""
import random
import re
import subprocess

from game.model.position import Position
from game.model.rules import game_result, legal_plays
from gnubg_tools import gnubg_binary

SAMPLE_POSITIONS = 500
SEED = 24
DICE_LINE = re.compile(r"The dice have been set to (\d) and (\d)")
MOVE_LINE = re.compile(r"^\s+\d+\.\s+Cubeful", re.M)


def sample(count, seed):
    rng = random.Random(seed)
    position = Position.start()
    out = []
    while len(out) < count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice)
        out.append((position, dice, len(plays) if plays[0].steps else 0))
        position = rng.choice(plays).after.swapped()
        if game_result(position) != 0:
            position = Position.start()
    return out


def test_move_counts_match_gnubg():
    cases = sample(SAMPLE_POSITIONS, SEED)
    script = ["set player 0 human", "set player 1 human",
              "set evaluation chequerplay evaluation plies 0",
              "set evaluation chequerplay evaluation prune off", "new game"]
    for position, dice, _ in cases:
        script += [f"set board {position.position_id}", f"set dice {dice[0]} {dice[1]}",
                   "hint 5000"]
    run = subprocess.run([gnubg_binary(), "-t", "-q"], input="\n".join(script) + "\n", text=True,
                         capture_output=True, timeout=300)
    segments = DICE_LINE.split(run.stdout)[1:]
    assert len(segments) == 3 * len(cases), run.stdout[-2000:]
    for i, (position, dice, ours) in enumerate(cases):
        die1, die2, text = segments[3 * i:3 * i + 3]
        assert (int(die1), int(die2)) == dice
        theirs = len(MOVE_LINE.findall(text))
        assert theirs == ours, (position.position_id, dice, theirs, ours)
