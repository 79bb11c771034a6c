#!/bin/sh
# tests/fuzz/run.sh BUILD SECONDS — builds the parser fuzz target with clang-19 (libFuzzer,
# ASan, UBSan) from the frontend and base sources plus BUILD's generated parser, scanner and
# stdlib text, and runs it for SECONDS on a copy of the seed corpus.  Exit status:
# libFuzzer's (0 = clean); 77 when clang-19 or its libFuzzer runtime is missing.
set -eu
cd "$(dirname "$0")/../.."
build=${1:-build}
secs=${2:-30}
command -v clang-19 >/dev/null || { echo "clang-19 not found: fuzzing skipped"; exit 77; }
out=$build/fuzz
mkdir -p "$out"
clang-19 -g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -Iinclude -I. -I"$build" \
    tests/fuzz/fuzz_parser.c frontend/layout.c frontend/ast.c frontend/module.c \
    "$build/frontend/parser.c" "$build/frontend/scanner.c" "$build/stdlib/stdlib_text.c" base/*.c \
    -o "$out/fuzz_parser" -lm 2>"$out/build.log" || {
    if grep -q "libclang_rt.fuzzer\|cannot find" "$out/build.log"; then
        echo "libFuzzer runtime missing: fuzzing skipped"; exit 77
    fi
    cat "$out/build.log"; exit 1
}
rm -rf "$out/corpus" && cp -r tests/fuzz/corpus "$out/corpus"
rc=0
"$out/fuzz_parser" "$out/corpus" -max_len=4096 -max_total_time="$secs" -timeout=10 \
    -print_final_stats=1 >"$out/fuzz.log" 2>&1 || rc=$?
tail -8 "$out/fuzz.log"
[ $rc -eq 0 ] && echo "fuzz: clean" || echo "fuzz: FAILED (exit $rc, see $out/fuzz.log)"
exit $rc
