#!/bin/sh
# tests/fuzz/run.sh BUILD SECONDS [TARGET...] — builds the libFuzzer targets with clang-19
# (-fsanitize=fuzzer,address,undefined) and runs each for SECONDS on a copy of its seed corpus.
#
# Targets (tests/fuzz/fuzz_TARGET.c, seeds in tests/fuzz/corpus_TARGET; the parser's in
# tests/fuzz/corpus):
#   parser   source text → fe_parse, ast_print, fe_module_info, diag_render
#   sig      signature strings → ty_parse_sig, ty_from_name
#   ir       IR text → ir_parse, ir_verify, ir_print_program (and parsed back)
#   npy      .npy files → npy_load
#   cache    cache entry files and payloads → rt_cache_load, the payload readers, nj_cache_list
#   session  REPL statements and script files → nj_session_exec / nj_session_command
# The sources a target exercises are compiled here with the sanitizers; the rest of numjit
# comes uninstrumented from BUILD's libnumjit_internal.a (and BUILD's generated parser,
# scanner and stdlib text).  With no TARGET, all of them run, one after the other.
#
# Long runs: SECONDS large, or NJ_FUZZ_RUNS=N (libFuzzer's -runs=N: stop after N inputs),
# NJ_FUZZ_JOBS=J (libFuzzer's -fork=J: J processes).  NJ_FUZZ_SEED=S fixes libFuzzer's
# mutation seed (-seed=S; unset or 0: a random seed, the default for hunting).  A crash leaves its input in
# BUILD/fuzz/TARGET/ (crash-*, leak-*, timeout-*): reproduce with `BUILD/fuzz/fuzz_TARGET FILE`.
# NJ_FUZZ_STATIC=1 links LLVM and the C++ runtime statically (BUILD configured with
# -Dllvm_static=true, e.g. build-static of scripts/pack-static.sh): the targets then run on an
# x86-64 Linux machine without LLVM, where more cores can run the long campaigns.
# Exit status: 0 when every target ran clean; 1 when one failed (its log's tail is printed);
# 77 when clang-19 or its libFuzzer runtime is missing.
set -eu
cd "$(dirname "$0")/../.."
build=${1:-build}
secs=${2:-30}
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
targets=${*:-parser sig ir npy cache session}
command -v clang-19 >/dev/null || { echo "clang-19 not found: fuzzing skipped"; exit 77; }
out=$build/fuzz
mkdir -p "$out"
CFLAGS="-g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined
    -fno-sanitize-recover=undefined -Iinclude -I. -I$build -I$build/frontend"
LIBS="$build/libnumjit_internal.a -L$(llvm-config-19 --libdir) -lLLVM-19 -pthread -lm -ldl"
if [ "${NJ_FUZZ_STATIC:-0}" = 1 ]; then
    LIBS="$build/libnumjit_internal.a -L$(llvm-config-19 --libdir) $(llvm-config-19 --link-static --libs core orcjit x86 nvptx \
        passes bitreader bitwriter linker irreader target analysis mc) -lz -lzstd -Wl,-Bstatic -lstdc++ -Wl,-Bdynamic \
        -static-libgcc -pthread -lm -ldl -lrt"
fi
FRONT="frontend/layout.c frontend/ast.c frontend/module.c frontend/fstring.c frontend/parse_build.c frontend/library.c
    $build/frontend/parser.c
    $build/frontend/scanner.c $build/stdlib/stdlib_text.c"

sources() {
    case $1 in
        parser) echo "$FRONT base/*.c" ;;
        sig) echo "ir/types.c ir/type_names.c base/*.c" ;;
        ir) echo "ir/ir.c ir/ir_parse.c ir/ir_parse_inst.c ir/ir_print.c ir/ir_verify.c ir/ir_verify_types.c ir/types.c ir/type_names.c base/*.c" ;;
        npy) echo "runtime/npy.c base/*.c" ;;
        cache) echo "runtime/cache.c ir/types.c ir/type_names.c base/*.c" ;;
        session) echo "runtime/session*.c runtime/npy.c $FRONT base/*.c" ;;
        *) echo "run.sh: unknown target '$1'" >&2; return 1 ;;
    esac
}

build_target() {
    t=$1
    src=$(sources "$t")
    # shellcheck disable=SC2086
    clang-19 $CFLAGS "tests/fuzz/fuzz_$t.c" $src $([ "$t" = parser ] && echo -lm || echo "$LIBS") \
        -o "$out/fuzz_$t" 2>"$out/build_$t.log"
}

rc=0
for t in $targets; do
    if ! build_target "$t"; then
        if grep -q "libclang_rt.fuzzer\|cannot find -lclang" "$out/build_$t.log"; then
            echo "libFuzzer runtime missing: fuzzing skipped"; exit 77
        fi
        cat "$out/build_$t.log"; rc=1; continue
    fi
    corpus=tests/fuzz/corpus_$t
    [ "$t" = parser ] && corpus=tests/fuzz/corpus
    work=$out/$t
    rm -rf "$work" && mkdir -p "$work" && cp -r "$corpus" "$work/corpus"
    trc=0
    # shellcheck disable=SC2086
    (cd "$work" && ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1} \
        "../fuzz_$t" corpus -max_len=${NJ_FUZZ_MAX_LEN:-4096} -max_total_time="$secs" \
        -timeout=${NJ_FUZZ_TIMEOUT:-10} -rss_limit_mb=4096 -print_final_stats=1 \
        -seed="${NJ_FUZZ_SEED:-0}" ${NJ_FUZZ_RUNS:+-runs=$NJ_FUZZ_RUNS} ${NJ_FUZZ_JOBS:+-fork=$NJ_FUZZ_JOBS} \
        >fuzz.log 2>&1) || trc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log" | tail -1)
    if [ $trc -eq 0 ]; then
        echo "fuzz $t: clean, ${runs:-?} inputs in $secs s"
    elif [ "$t" = session ] && grep -q "ERROR: libFuzzer: timeout" "$work/fuzz.log" &&
        ! grep -q "ERROR: AddressSanitizer\|runtime error:" "$work/fuzz.log"; then
        # a script the watchdog cannot stop (a loop inside a compiled function, which runs
        # unchecked as compiled code does, and may loop forever as it would under Numba)
        echo "fuzz $t: no sanitizer report, ${runs:-?} inputs; stopped at an input slower than" \
            "the timeout, kept as $(ls "$work"/timeout-* | head -1)"
    else
        tail -30 "$work/fuzz.log"
        echo "fuzz $t: FAILED (exit $trc, see $work/fuzz.log)"
        rc=1
    fi
done
exit $rc
