"""GNU Backgammon playing a match against itself, made on the spot with `gnubg -t`: both players
set to the computer at 0-ply, seeded dice, named by `set defaultnames`, the match exported as
.mat (`export match mat`) and saved as .sgf (`save match`). gnubg's own words on what happened
(who won what, the Crawford game) come back too, to check the files against. For the tests of
game/matchfiles/imports.py and for docs/make_docs.py; not a test itself."""
import os
import re
import shutil
import subprocess
from dataclasses import dataclass

WON = re.compile(r"(\w+) wins an? (single game|gammon|backgammon) and (\d+) points?\.")
NAMES = ("Alice", "Bob")


def gnubg_path():
    """The gnubg binary, or None."""
    return shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg")
                                     else None)


@dataclass
class SelfPlay:
    mat: str
    sgf: str
    said: str                       # all gnubg printed

    def results(self):
        """(winner's name, points) per game, in gnubg's words."""
        return [(m.group(1), int(m.group(3))) for m in WON.finditer(self.said)]


def commands(length: int, seed: int, mat: str, sgf: str, names=NAMES,
             games: int = 3, noise: float = 0.0) -> list[str]:
    """The gnubg command lines: both sides the computer at 0-ply, play, export, save. Length
    0: a money session of `games` games (one a "new game"; gnubg keeps its own names there).
    `noise`: the second player's evaluation noise (0: none), a weaker player."""
    lines = ["set jacoby off", f"set seed {seed}", f"set defaultnames {names[0]} {names[1]}",
             f"set automatic game {'on' if length else 'off'}"]
    for player in (0, 1):
        lines += [f"set player {player} gnubg",
                  f"set player {player} chequerplay evaluation plies 0",
                  f"set player {player} cubedecision evaluation plies 0"]
    if noise:
        lines += [f"set player 1 {kind} evaluation noise {noise:.4f}"
                  for kind in ("chequerplay", "cubedecision")]
    play = [f"new match {length}"] if length else ["new session"] + ["new game"] * (games - 1)
    return lines + ["set display off", *play, f"export match mat {mat}", f"save match {sgf}"]


def self_play(folder, length: int = 7, seed: int = 14, names=NAMES, games: int = 3,
              timeout_s: int = 300, noise: float = 0.0) -> SelfPlay:
    """gnubg -t plays the match (commands on its standard input, so that the computer plays
    every turn of the match before the next command) and writes it to `folder`."""
    binary = gnubg_path()
    if binary is None:
        raise FileNotFoundError("GNU Backgammon (Debian package gnubg) is not installed")
    folder = os.fspath(folder)
    mat, sgf = os.path.join(folder, "gnubg.mat"), os.path.join(folder, "gnubg.sgf")
    script = "".join(f"{line}\n" for line in commands(length, seed, mat, sgf, names, games,
                                                          noise))
    proc = subprocess.run([binary, "-t", "-q"], input=script, capture_output=True, text=True,
                          timeout=timeout_s, cwd=folder, env=dict(os.environ, HOME=folder))
    said = proc.stdout + proc.stderr
    if proc.returncode != 0 or not (os.path.exists(mat) and os.path.exists(sgf)):
        raise RuntimeError(f"gnubg did not write the match (exit {proc.returncode}):\n{said}")
    return SelfPlay(mat, sgf, said)
