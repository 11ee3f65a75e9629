#!/usr/bin/env bash
# CI, after the tests: the player's path (issue 42), as a player on a fresh machine takes it.
# 1. The README's play command, read from the README, in a fresh venv and a fresh HOME, not
#    editable; its last command (the installed console script) started from a folder outside
#    the clone, with headless options so that it ends.
# 2. An sdist, a wheel built from that sdist, installed where no C compiler can run, started.
# 3. Through that installed script: a whole game, its review, the .sgf read back by gnubg,
#    and a game killed with SIGKILL offered again (.ci/player.py).
set -euo pipefail
clone="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/player-path.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
unset PYTHONPATH

play_cmd=$(awk '/<!-- play-command -->/{getline; getline; print; exit}' "$clone/README.md")
[ -n "$play_cmd" ] || { echo "README has no play command" >&2; exit 1; }
setup="${play_cmd% && *}"                 # everything before the last command
script="${play_cmd##* && }"               # the console script the player starts
mkdir -p "$work/home" "$work/outside"
echo "+ (in the clone, HOME=$work/home) $setup"
(cd "$clone" && HOME="$work/home" bash -c "$setup") > "$work/install.log" 2>&1 \
  || { tail -40 "$work/install.log"; exit 1; }
shot="$work/outside/first.png"
echo "+ (in $work/outside) $script --tape instant --screenshot $shot --frames 400 --keys n"
(cd "$work/outside" && HOME="$work/home" bash -c \
  "$script --tape instant --screenshot '$shot' --frames 400 --keys n")
[ -s "$shot" ] || { echo "the installed game wrote no screenshot" >&2; exit 1; }
(cd "$work/outside" && HOME="$work/home" bash -c "$script --version")

echo "+ sdist, then a wheel from the sdist"
"$clone/.venv/bin/python" -m build --outdir "$work/dist" "$clone" > "$work/build.log" 2>&1 \
  || { tail -40 "$work/build.log"; exit 1; }
python3 -m venv "$work/nocc"
echo "+ the wheel installed with CC=/bin/false: $(basename "$work"/dist/*.whl)"
CC=/bin/false CXX=/bin/false "$work/nocc/bin/pip" install -q "$work"/dist/*.whl
mkdir -p "$work/nocc-home"
(cd "$work/outside" && CC=/bin/false HOME="$work/nocc-home" "$work/nocc/bin/spectrum-backgammon" \
  --tape instant --screenshot "$work/outside/nocc.png" --frames 400 --keys n)
[ -s "$work/outside/nocc.png" ] || { echo "the wheel's game wrote no screenshot" >&2; exit 1; }

echo "+ a whole game, its review and .sgf, gnubg reading it, SIGKILL and the offer"
(cd "$work/outside" && CC=/bin/false "$work/nocc/bin/python" "$clone/.ci/player.py" \
  --exe "$work/nocc/bin/spectrum-backgammon" --work "$work/played")
echo "the player's path: all of it works"
