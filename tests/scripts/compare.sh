#!/bin/sh
# compare.sh NUMJIT SCRIPT... — runs each script with `numjit run` and with CPython + NumPy
# and compares their outputs line by line (they must be identical).  Exit 77 (skip) when
# CPython with NumPy and Numba is not installed.
numjit=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
py=${PYTHON:-/usr/bin/python3}
"$py" -c 'import numpy, numba' 2>/dev/null || { echo "skip: no python3 with numpy and numba"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for f in "$@"; do
    name=$(basename "$f" .py)
    (cd "$work" && "$numjit" run "$f") > "$work/$name.nj" 2>&1 || { echo "FAIL $name: numjit run failed"; cat "$work/$name.nj"; status=1; continue; }
    (cd "$work" && "$py" "$f") > "$work/$name.py.out" 2>&1 || { echo "FAIL $name: python failed"; cat "$work/$name.py.out"; status=1; continue; }
    if diff -u "$work/$name.py.out" "$work/$name.nj" > "$work/$name.diff"; then
        echo "ok   $name"
    else
        echo "FAIL $name: outputs differ (- CPython, + numjit)"
        cat "$work/$name.diff"
        status=1
    fi
done
exit $status
