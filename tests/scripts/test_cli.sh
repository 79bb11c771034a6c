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

[ $fail = 0 ] && echo "ok: numjit command"
exit $fail
