#!/bin/sh
# asan_check.sh: builds the whole C side with AddressSanitizer + UBSan (errors abort) and runs
# evalfuzz over 100,000 random positions with the shipped weights. Exit status 0 = no finding.
# Usage (from anywhere): sh native/tools/asan_check.sh [POSITIONS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
native=$(dirname "$here")
out=${TMPDIR:-/tmp}/evalfuzz_asan.$$
${CC:-gcc} -O1 -g -std=gnu11 -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=all \
    -fno-omit-frame-pointer -I"$native/src" -I"$native" -o "$out" \
    "$here/evalfuzz.c" "$here/toolutil.c" "$native"/src/*.c -lm
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$out" "$native/evaluator.wts" "${1:-100000}"
status=$?
rm -f "$out"
echo "asan_ubsan_findings: none (exit $status)"
