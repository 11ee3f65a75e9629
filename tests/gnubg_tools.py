"""GNU Backgammon (`gnubg -t`) as the tests' referee for match files: where its binary is (a
missing one fails in CI, skips elsewhere), its commands run in a scratch HOME, a .mat round
trip, and a parsed match put in a form two programs' files can be compared by. Not a test."""
import os
import subprocess
from collections import Counter

from conftest import missing_tool
from gnubg_selfplay import gnubg_path


def gnubg_binary():
    """The gnubg binary (missing_tool when it is not installed)."""
    path = gnubg_path()
    if path is None:
        missing_tool("GNU Backgammon (Debian package gnubg) is not installed: "
                     "apt-get install gnubg")
    return path


def run_gnubg_commands(tmp_path, lines, timeout_s=120):
    """Run gnubg -t on these command lines (jacoby off first), in tmp_path with its own HOME;
    returns (exit code, what it printed)."""
    commands = tmp_path / "commands.txt"
    commands.write_text("".join(f"{line}\n" for line in ["set jacoby off", *lines]))
    proc = subprocess.run([gnubg_binary(), "-t", "-q", "-c", str(commands)],
                          capture_output=True, text=True, timeout=timeout_s,
                          stdin=subprocess.DEVNULL, cwd=tmp_path,
                          env=dict(os.environ, HOME=str(tmp_path)))
    return proc.returncode, proc.stdout + proc.stderr


def gnubg_round_trip(mat_path, out_path, tmp_path):
    """Import our file into gnubg -t and have gnubg export what it read as .mat."""
    return run_gnubg_commands(tmp_path, [f"import mat {mat_path}", f"export match mat {out_path}"])


def comparable(parsed):
    """Per game: names, scores and actions, each play as a multiset of its steps and of the
    points where it hit (gnubg may list a play's steps in another order, and so mark the
    hit on the other of two men that land on the same point)."""
    out = []
    for g in parsed.games:
        acts = []
        for player, kind, detail in g.actions:
            if kind == "move":
                dice, steps = detail
                plain = Counter(step.rstrip("*") for step in steps)
                hits = Counter(step.rstrip("*").split("/")[1] for step in steps
                               if step.endswith("*"))    # which of two men landing hit
                detail = (tuple(sorted(dice)), sorted(plain.items()), sorted(hits.items()))
            acts.append((player, kind, detail))
        out.append((g.names, g.scores, acts))
    return out


def run_gnubg(tmp_path, sgf_path):
    """gnubg -t loads the .sgf and exports what it read, as .mat and as text."""
    return run_gnubg_commands(tmp_path, [f"load match {sgf_path}",
                                         f"export match mat {tmp_path / 'gnubg.mat'}",
                                         f"export match text {tmp_path / 'gnubg.txt'}"],
                              timeout_s=300)
