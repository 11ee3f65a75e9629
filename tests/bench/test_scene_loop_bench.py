"""bench/scene_loop.py (the scenes' own cost, before against after): run against this very
checkout, both sides play the same seeded game to the same number of frames, and each figure
is printed once with its unit."""
import subprocess
import sys

from repo import REPO


def test_the_same_games_take_the_same_frames_on_both_trees_and_each_figure_prints_once():
    done = subprocess.run([sys.executable, str(REPO / "bench" / "scene_loop.py"), "--games", "1",
                           "--runs", "1", "--against", str(REPO)], capture_output=True,
                          text=True, timeout=300, check=True)
    figures = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert set(figures) == {"scene_loop_this_frames", "scene_loop_this_per_frame",
                            "scene_loop_against_frames", "scene_loop_against_per_frame",
                            "scene_loop_this_over_against"}
    this_frames = int(figures["scene_loop_this_frames"].split()[0])
    assert this_frames > 500                       # a whole game: dozens of throws and plays
    assert figures["scene_loop_against_frames"] == figures["scene_loop_this_frames"]
    assert figures["scene_loop_this_per_frame"].split()[1] == "us"
