#!/bin/bash
# tests/run_all.sh — builds numjit twice and runs every test; the last line it prints is the
# total, "N passed, N failed", and it exits non-zero when anything failed.
#
#   1. ./setup.sh (installs missing Debian packages; a no-op when all are there);
#   2. the normal build (`build`, debugoptimized) and a sanitizer build (`build-asan`:
#      -Db_sanitize=address,undefined -Db_lundef=false, buildtype debug), configured when
#      missing and rebuilt with ninja;
#   3. `meson test` in both builds (C unit tests, language, golden and differential tests);
#   4. pytest on tests/python with PYTHONPATH=<normal build>/python and /usr/bin/python3 —
#      only against the normal build: under ASan the interpreter would need libasan preloaded;
#   5. the crash fuzzers (tests/fuzz/run.sh, NJ_FUZZ_SECONDS per target) and the differential
#      program fuzzer (tests/fuzz/progfuzz.py, NJ_PROGFUZZ_COUNT programs);
#   6. published Numba-based libraries' own test suites under Numba and under numjit
#      (tests/pypi/run.sh): a test passing under Numba that fails under numjit and is not in
#      tests/pypi/expected.txt fails; skipped with a message when PyPI cannot be reached (and
#      nothing is cached) or NJ_SKIP_PYPI=1.
#
# Counts come from meson's summary (Ok + Expected Fail pass; Fail, Unexpected Pass and Timeout
# fail; Skipped is neither) and pytest's (passed; failed and errors).  A build that fails to
# configure or compile counts as one failure and its tests are not run.
#
# Environment: NJ_BUILD / NJ_BUILD_ASAN (build directories, default build and build-asan),
# NJ_JOBS (ninja and meson test parallelism, default: all cores).
set -u
cd "$(dirname "$0")/.."

BUILD=${NJ_BUILD:-build}
BUILD_ASAN=${NJ_BUILD_ASAN:-build-asan}
JOBS=${NJ_JOBS:-$(nproc)}
# Meson 1.0 does not look for llvm-config-19 by itself.
export LLVM_CONFIG="${LLVM_CONFIG:-llvm-config-19}"
PY=/usr/bin/python3
LOGDIR=$(mktemp -d "${TMPDIR:-/tmp}/numjit-tests.XXXXXX")

passed=0
failed=0
report=()

note() { printf '\n=== %s\n' "$*"; }

if ! ./setup.sh; then
    echo "run_all.sh: setup.sh failed" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

# build DIR [meson options...]: configures DIR when needed and compiles it.
build() {
    local dir=$1
    shift
    note "build $dir"
    if [ ! -f "$dir/build.ninja" ]; then
        meson setup --native-file llvm19.ini "$dir" "$@" || return 1
    fi
    ninja -C "$dir" -j "$JOBS"
}

# meson_tests DIR: runs meson test and adds its summary to the totals.
meson_tests() {
    local dir=$1 log="$LOGDIR/meson-$(basename "$1").txt"
    note "meson test in $dir"
    # allocator_may_return_null: tests that ask for more memory than exists (an array of 2**60
    # bytes) must see malloc's NULL, as in a normal build, not ASan's abort
    ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
        meson test -C "$dir" --print-errorlogs --num-processes "$JOBS" 2>&1 | tee "$log"
    local ok xfail fail upass tout skip
    ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$log" | tail -1)
    xfail=$(sed -n 's/^Expected Fail: *\([0-9]*\).*/\1/p' "$log" | tail -1)
    fail=$(sed -n 's/^Fail: *\([0-9]*\).*/\1/p' "$log" | tail -1)
    upass=$(sed -n 's/^Unexpected Pass: *\([0-9]*\).*/\1/p' "$log" | tail -1)
    tout=$(sed -n 's/^Timeout: *\([0-9]*\).*/\1/p' "$log" | tail -1)
    skip=$(sed -n 's/^Skipped: *\([0-9]*\).*/\1/p' "$log" | tail -1)
    if [ -z "$ok$fail" ] && ! grep -q "No tests defined" "$log"; then
        report+=("meson test $dir: no summary (meson test itself failed)")
        failed=$((failed + 1))
        return
    fi
    local p=$(( ${ok:-0} + ${xfail:-0} )) f=$(( ${fail:-0} + ${upass:-0} + ${tout:-0} ))
    passed=$((passed + p))
    failed=$((failed + f))
    report+=("meson test $dir: $p passed, $f failed, ${skip:-0} skipped")
}

# pytest_tests DIR: runs the Python package tests against DIR/python.
pytest_tests() {
    local dir=$1 log="$LOGDIR/pytest.txt"
    note "pytest tests/python against $dir/python"
    NUMJIT_BUILD="$dir" PYTHONPATH="$PWD/$dir/python" PYTHONDONTWRITEBYTECODE=1 \
        "$PY" -m pytest -p no:cacheprovider -q tests/python tests/diff 2>&1 | tee "$log"
    local last p f e
    last=$(grep -E '[0-9]+ (passed|failed|errors?|skipped)|no tests ran' "$log" | tail -1)
    p=$(echo "$last" | sed -n 's/.*\b\([0-9][0-9]*\) passed.*/\1/p')
    f=$(echo "$last" | sed -n 's/.*\b\([0-9][0-9]*\) failed.*/\1/p')
    e=$(echo "$last" | sed -n 's/.*\b\([0-9][0-9]*\) errors\{0,1\}\b.*/\1/p')
    if [ -z "$last" ]; then
        report+=("pytest: no summary (pytest itself failed)")
        failed=$((failed + 1))
        return
    fi
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0} + ${e:-0}))
    report+=("pytest: ${p:-0} passed, $(( ${f:-0} + ${e:-0} )) failed")
}

if build "$BUILD"; then
    meson_tests "$BUILD"
    pytest_tests "$BUILD"
else
    report+=("build $BUILD: FAILED")
    failed=$((failed + 1))
fi

if build "$BUILD_ASAN" -Db_sanitize=address,undefined -Db_lundef=false --buildtype=debug; then
    meson_tests "$BUILD_ASAN"
else
    report+=("build $BUILD_ASAN: FAILED")
    failed=$((failed + 1))
fi

# the crash fuzzers (libFuzzer, ASan, UBSan), each target briefly (NJ_FUZZ_SECONDS each,
# default 20; 0 skips): parser, sig, ir, npy, cache, session (tests/fuzz/run.sh).  The test
# command replays each corpus and then walks a fixed mutation sequence (NJ_FUZZ_SEED, default
# 1), so a red run is reproducible and a new find does not turn an unrelated change red at
# random; hunting with fresh seeds is `NJ_FUZZ_SEED=0 tests/fuzz/run.sh build 3600` (0: random).
export NJ_FUZZ_SEED=${NJ_FUZZ_SEED:-1}
if [ "${NJ_FUZZ_SECONDS:-20}" -gt 0 ]; then
    for target in parser sig ir npy cache session; do
        note "fuzz $target for ${NJ_FUZZ_SECONDS:-20} s"
        rc=0
        tests/fuzz/run.sh "$BUILD" "${NJ_FUZZ_SECONDS:-20}" "$target" || rc=$?
        case $rc in
            0) passed=$((passed + 1)); report+=("fuzz $target: clean") ;;
            77) report+=("fuzz $target: skipped (no clang-19/libFuzzer)") ;;
            *) failed=$((failed + 1)); report+=("fuzz $target: FAILED") ;;
        esac
    done
fi

# the differential program fuzzer: NJ_PROGFUZZ_COUNT random @njit programs (default 2000;
# 0 skips) under Numba and numjit; a disagreement fails and prints the minimized program
if [ "${NJ_PROGFUZZ_COUNT:-2000}" -gt 0 ]; then
    note "progfuzz: ${NJ_PROGFUZZ_COUNT:-2000} programs"
    rc=0
    NUMJIT_BUILD="$BUILD" "$PY" tests/fuzz/progfuzz.py --count "${NJ_PROGFUZZ_COUNT:-2000}" \
        --seed "${NJ_PROGFUZZ_SEED:-1}" --stmts 3 --jobs "$JOBS" || rc=$?
    case $rc in
        0) passed=$((passed + 1)); report+=("progfuzz: all agree") ;;
        77) report+=("progfuzz: skipped (no Numba or no numjit package)") ;;
        *) failed=$((failed + 1)); report+=("progfuzz: FAILED (a disagreement with Numba)") ;;
    esac
fi

# published libraries' test suites (tests/pypi/run.sh): counts one pass per test passing under
# Numba and numjit, one failure per unexpected regression or unfinished suite; exit 77 is a skip
note "published libraries' test suites (tests/pypi)"
tests/pypi/run.sh "$BUILD" 2>&1 | tee "$LOGDIR/pypi.txt"
rc=${PIPESTATUS[0]}
last=$(grep -E '^pypi: [0-9]+ passed, [0-9]+ failed' "$LOGDIR/pypi.txt" | tail -1)
if [ "$rc" -eq 77 ]; then
    report+=("pypi suites: $(tail -1 "$LOGDIR/pypi.txt")")
elif [ -n "$last" ]; then
    p=$(echo "$last" | sed -n 's/^pypi: \([0-9]*\) passed, \([0-9]*\) failed.*/\1/p')
    f=$(echo "$last" | sed -n 's/^pypi: \([0-9]*\) passed, \([0-9]*\) failed.*/\2/p')
    passed=$((passed + p))
    failed=$((failed + f))
    report+=("pypi suites: $p passed, $f failed (tests passing under Numba)")
else
    failed=$((failed + 1))
    report+=("pypi suites: no summary (tests/pypi/run.sh itself failed)")
fi

note "summary (logs in $LOGDIR)"
for line in "${report[@]}"; do
    echo "  $line"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
