#!/bin/sh
# tsan_check.sh: builds the whole C side with ThreadSanitizer and runs threadfuzz: three threads
# rank (levels 3-5), evaluate (plies 0-2) and judge the cube at once on the same positions, with
# two different search settings side by side, against one thread's answers at each. Exit status
# 0 = no race reported and every answer the same as one thread's at its settings.
# Usage (from anywhere): sh native/tools/tsan_check.sh [CASES]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
native=$(dirname "$here")
out=${TMPDIR:-/tmp}/threadfuzz_tsan.$$
${CC:-gcc} -O2 -g -std=gnu11 -Wall -Wextra -Werror -pthread -fsanitize=thread -fno-omit-frame-pointer \
    -I"$native/src" -I"$native" -o "$out" "$here/threadfuzz.c" "$here/toolutil.c" "$native"/src/*.c -lm
status=0
TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$out" "$native/evaluator.wts" "${1:-60}" || status=$?
rm -f "$out"
echo "tsan_findings: $([ $status -eq 0 ] && echo none || echo "exit $status") (threadfuzz)"
exit $status
