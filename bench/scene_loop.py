"""Benchmark of the scenes' own cost (not a test): whole computer-v-computer games at level 1
(the heuristic, so the evaluator costs little) and instant speed, each to the start of the
next, driven frame by frame on tests/gamedriver.py's stand-in machine (no Z80), so the
figure is the turn loop, the scenes and the board drawing. With --against PATH, the same
games on another checkout, alternating runs in one session, for a before/after ratio.
One figure a line with its unit.
Run: python3 bench/scene_loop.py [--games 20] [--runs 3] [--against /path/to/old/checkout]"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MAX_FRAMES = 200_000


def play_games(games: int) -> dict:
    """Host seconds and frames for `games` seeded games on the tree this process imports."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["SPECTRUM_BACKGAMMON_CONFIG_DIR"] = os.path.join(
        os.environ.get("TMPDIR", "/tmp"), f"sbg-bench-scenes-{os.getpid()}")
    tree = os.environ.get("PYTHONPATH") or ROOT    # the tree run_tree chose
    sys.path[:0] = [tree]
    sys.path.append(os.path.join(tree, "tests"))  # after game/: tests/game is not the package
    from game.files.settings import Settings
    from gamedriver import GameDriver
    frames, seconds = 0, 0.0
    for seed in range(1, games + 1):
        settings = Settings(players="computer-computer", speed="instant", level=1)
        driver = GameDriver(seed=seed, settings=settings)
        started = time.perf_counter()
        for _ in range(MAX_FRAMES):
            if len(driver.games) > 1:       # the demo went on to its next game
                break
            driver.frame()
        else:
            raise SystemExit(f"game {seed} did not end in {MAX_FRAMES} frames")
        seconds += time.perf_counter() - started
        frames += driver.frames
    return {"frames": frames, "seconds": seconds}


def run_tree(tree: str, games: int) -> dict:
    """play_games in a fresh interpreter importing `tree`'s game/ and tests/."""
    env = dict(os.environ, PYTHONPATH=tree)
    done = subprocess.run([sys.executable, os.path.join(HERE, "scene_loop.py"), "--child",
                           "--games", str(games)], env=env, cwd=tree, capture_output=True,
                          text=True)
    if done.returncode:
        raise SystemExit(f"{tree}: the games failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", help="another checkout (its native/_engine built)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(play_games(args.games)))
        return 0
    trees = {"this": ROOT} | ({"against": os.path.abspath(args.against)} if args.against else {})
    per_frame: dict[str, list[float]] = {name: [] for name in trees}
    frames: dict[str, int] = {}
    for _ in range(args.runs):
        for name, tree in trees.items():
            answer = run_tree(tree, args.games)
            frames[name] = answer["frames"]
            per_frame[name].append(1e6 * answer["seconds"] / answer["frames"])
    for name in trees:
        print(f"scene_loop_{name}_frames {frames[name]} frames ({args.games} games)")
        print(f"scene_loop_{name}_per_frame {statistics.median(per_frame[name]):.1f} us "
              f"(median of {args.runs})")
    if args.against:
        ratio = statistics.median(per_frame["this"]) / statistics.median(per_frame["against"])
        print(f"scene_loop_this_over_against {ratio:.3f} x (time a frame; below 1 is faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
