"""A player for the real console script, outside its process: it starts the game with
--keys-from and --trace, reads each save the game writes (gnubg position and match IDs,
turn, dice, steps typed) and types what a player would: the next step of a legal play on
the human's turn, ENTER between games, Y to the computer's resignation. Used by
tests/game/test_kill_resume.py and by CI's run of the installed game (.ci/player.py). Not
a test, and no pytest here."""
from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from game.model import rules
from game.model.position import Position

POLL_S = 0.005


class Run:
    """One start of the game: the process, its key feed and its trace read line by line.
    `command` is how to start the console script; the game's own options are added."""

    def __init__(self, folder: Path, seed: int, command: list, env: dict, cwd=None,
                 options=("--tape", "instant", "--mute")):
        self.keys = folder / "keys"
        self.trace = folder / "trace"
        self.keys.write_text("")
        self.trace.write_text("")
        self.process = subprocess.Popen(
            [*command, *options, "--seed", str(seed), "--keys-from", str(self.keys),
             "--trace", str(self.trace)],
            cwd=cwd or folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True)
        self.read_upto = 0
        self.lines: list[tuple[str, dict]] = []
        self.answered = 0                    # lines the player has acted on

    def type(self, keys: str) -> None:
        with open(self.keys, "a") as feed:
            feed.write(keys)

    def new_lines(self) -> list[tuple[str, dict]]:
        """Whole lines added to the trace since the last call."""
        text = self.trace.read_text()
        end = text.rfind("\n") + 1
        fresh = text[self.read_upto:end]
        self.read_upto = end
        out = []
        for line in fresh.splitlines():
            kind, _, body = line.partition(" ")
            out.append((kind, json.loads(body)))
        self.lines += out
        return out

    def saves(self) -> list[dict]:
        return [facts for kind, facts in self.lines if kind == "saved"]

    def stop(self, sig) -> str:
        self.process.send_signal(sig)
        _out, err = self.process.communicate(timeout=60)
        self.new_lines()
        return err


def next_keys(saved: dict) -> str:
    """What a player types on seeing this save: the next step of a legal play on the
    human's turn (ENTER when it has none), a key for the next game between games."""
    if saved["between_games"]:
        return "\n"
    if saved["turn"] != "human" or saved["dice"] is None:
        return ""
    turn = rules.Turn(Position.from_id(saved["id"].split(":")[0]), saved["dice"])
    for from_index, die in saved["typed"]:
        turn.step(from_index, die)
    if turn.complete:
        return "" if turn.made else "\n"         # a forfeit: ENTER
    from_index, die = turn.allowed_steps()[0]
    return f"{Position.letter_of_index(from_index)}{die}\n"


def play_until(run: Run, stop_at_s: float, until=None, between_games: str | None = None):
    """The player: each save seen answered with its keys, until the clock says stop, or
    until a save satisfies `until` (that one is left unanswered: the game waits).
    `between_games`: what to type at the end of a game instead of ENTER."""
    while time.monotonic() < stop_at_s and run.process.poll() is None:
        run.new_lines()
        while run.answered < len(run.lines):
            kind, saved = run.lines[run.answered]
            if kind == "saved" and until and until(saved):
                return saved
            run.answered += 1
            if kind == "prompt" and saved.get("asks") == "resignation":
                run.type("y")                     # the computer resigns: accepted
            if kind == "saved":
                keys = next_keys(saved)
                if saved["between_games"] and between_games is not None:
                    keys = between_games
                run.type(keys)
        time.sleep(POLL_S)
    return None
