#!/bin/sh
# test_cli.sh NUMJIT — the numjit command's own behaviour, case by case: what it prints and its
# exit status for interrupted runs and for bad command lines and inputs.
numjit=$1
[ -x "$numjit" ] || { echo "usage: $0 path/to/numjit"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
# expect STATUS TEXT: the last command's status and a line of its stderr
expect() {
    [ "$rc" = "$1" ] || { echo "FAIL ($case): exit status $rc, want $1"; cat "$work/err"; fail=1; return; }
    [ -z "$2" ] || grep -qF -- "$2" "$work/err" ||
        { echo "FAIL ($case): stderr lacks: $2"; cat "$work/err"; fail=1; }
}

# Ctrl-C in `numjit run`: the statement it stopped, and 130
case="run interrupted"
printf 'print("start")\nn = 0\nwhile True:\n    n += 1\n' > "$work/spin.py"
"$numjit" run "$work/spin.py" > "$work/out" 2> "$work/err" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
rc=$?
expect 130 "spin.py:4:5: error: KeyboardInterrupt"
grep -qx start "$work/out" || { echo "FAIL ($case): what ran before was not printed"; fail=1; }

# numjit check --sig types that specialization: undefined names, type errors
printf 'def f(x):\n    return x + yy\n\ndef g(a):\n    return a * 2\n' > "$work/und.py"
case="check --sig"
"$numjit" check "$work/und.py" --sig 'f(float64)' 2> "$work/err"; rc=$?
expect 1 "und.py:2:16: error: name 'yy' is not defined"
case="check --sig of a good function"
"$numjit" check "$work/und.py" --sig 'g(float64)' 2> "$work/err"; rc=$?
expect 0 ""
case="check --sig of a missing function"
"$numjit" check "$work/und.py" --sig 'h(float64)' 2> "$work/err"; rc=$?
expect 1 "no function named 'h'"

# numjit run of a directory is an error, not an empty run
case="run DIR"
mkdir "$work/dir"
"$numjit" run "$work/dir" > "$work/out" 2> "$work/err"; rc=$?
expect 1 "cannot read '$work/dir': Is a directory"

# numjit obj: no C keyword as an exported name; nothing left behind when the header fails
printf 'from numba import njit\n\n@njit\ndef f(x):\n    return x + 1\n' > "$work/k.py"
case="obj with a C keyword"
"$numjit" obj "$work/k.py" --sig 'int=f(float64)' -o "$work/k.o" 2> "$work/err"; rc=$?
expect 1 "'int' is a C keyword"
case="obj with a bad identifier"
"$numjit" obj "$work/k.py" --sig '2x=f(float64)' -o "$work/k.o" 2> "$work/err"; rc=$?
expect 1 "(C identifiers), not '2x=f(float64)'"
grep -q "(null)" "$work/err" && { echo "FAIL (obj): (null) in a message"; fail=1; }
case="obj whose header cannot be written"
"$numjit" obj "$work/k.py" --sig 'f(float64)' -o "$work/k.o" --header "$work/nodir/k.h" \
    2> "$work/err"; rc=$?
expect 1 "cannot write '$work/nodir/k.h'"
ls "$work"/k.o* >/dev/null 2>&1 && { echo "FAIL ($case): the object was left behind"; fail=1; }
case="obj"
"$numjit" obj "$work/k.py" --sig 'f(float64)' -o "$work/k.o" --header "$work/k.h" \
    2> "$work/err"; rc=$?
expect 0 ""
[ -f "$work/k.o" ] && [ -f "$work/k.h" ] || { echo "FAIL ($case): no object or header"; fail=1; }

[ $fail = 0 ] && echo "ok: numjit command"
exit $fail
