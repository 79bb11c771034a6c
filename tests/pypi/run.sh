#!/bin/bash
# tests/pypi/run.sh — runs published Numba-based libraries' own test suites under Numba 0.56
# and under numjit, and fails only on a test that passes under Numba, fails under numjit and is
# not listed in tests/pypi/expected.txt (tests/pypi/suites.py does the work; its docstring says
# how).  The last line is "pypi: N passed, N failed".
#
#   tests/pypi/run.sh [BUILD] [suites.py options...]     BUILD defaults to build
#
# Exit status 77, with a message, when PyPI cannot be reached and the download cache
# (~/.cache/numjit-pypi) lacks a package; NJ_SKIP_PYPI=1 skips it the same way.
set -u
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
[ $# -gt 0 ] && shift
if [ "${NJ_SKIP_PYPI:-0}" = 1 ]; then
    echo "pypi: skipped (NJ_SKIP_PYPI=1)"
    exit 77
fi
if [ ! -d "$BUILD/python/numjit" ]; then
    echo "pypi: no numjit package in $BUILD/python (build first)" >&2
    echo "pypi: 0 passed, 1 failed"
    exit 1
fi
# a guard against a hang only: each suite has its own limit in suites.py
exec timeout 1800 /usr/bin/python3 tests/pypi/suites.py --build "$BUILD" "$@"
