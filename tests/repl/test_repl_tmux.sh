#!/bin/sh
# test_repl_tmux.sh NUMJIT — drives the numjit REPL through a real terminal (tmux): defines a
# function, evaluates fused expressions on 10^7-element arrays, prints results, shows :ir and
# :ptx, recovers from a typo with a caret-marked error, completes a name with Tab, survives
# Ctrl-C at the prompt and in a running loop, and keeps history across sessions.  Exit 77
# (skip) when tmux is missing.
numjit=$1
command -v tmux >/dev/null 2>&1 || { echo "skip: tmux is not installed"; exit 77; }
[ -x "$numjit" ] || { echo "usage: $0 path/to/numjit"; exit 2; }
work=$(mktemp -d)
sock="njrepl$$"
T="tmux -L $sock"
cleanup() { $T kill-server >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT
fail=0

start() {
    $T new-session -d -s t -x 200 -y 60 \
        "env NUMJIT_HISTORY=$work/history TERM=xterm $numjit; echo NUMJIT-EXITED; sleep 30"
    $T set-option -t t history-limit 5000 >/dev/null
}
send() { $T send-keys -t t -l -- "$1"; $T send-keys -t t Enter; }
pane() { $T capture-pane -p -J -S -5000 -t t > "$work/pane.txt"; }
# wait_for TEXT [SECONDS]: until the screen shows TEXT
wait_for() {
    n=$(( ${2:-20} * 5 ))
    while [ $n -gt 0 ]; do
        pane
        grep -qF -- "$1" "$work/pane.txt" && return 0
        sleep 0.2
        n=$((n - 1))
    done
    echo "FAIL: the terminal never showed: $1"
    echo "----- screen -----"; tail -40 "$work/pane.txt"; echo "------------------"
    fail=1
    return 1
}

start
wait_for ">>> " 30
# a function, typed as a block ended by an empty line
send "def rel(a, b):"
wait_for "... "
send "    return 2*(a - b)/(a + b)"
send ""
send "x = np.random.uniform(0, 1, 10**7, seed=1)"
send "z = np.random.uniform(1, 2, 10**7, seed=2)"
# fused expressions on 10^7 elements
send "y = 2*(x - z)/(x + z)"
send "y"
wait_for "array([-0.4423656 , -1.07311256, -0.69378055, ..., -1.38236176," 60
send "w = np.sin(x)**2 + np.cos(x)**2"
send "print(w.min() > 0.999999, w.max() < 1.000001, w.size)"
wait_for "True True 10000000" 60
send "r = rel(x, z)"
send "print('max diff', (r - y).max(), 'sum', round(y.sum(), 3))"
wait_for "max diff 0.0 sum -10460980.225" 60
# inspection: :ir and :ptx (no GPU needed)
send ":ir rel"
wait_for "func @rel" 30
send ":ptx rel"
wait_for ".target sm_90" 30
wait_for ".visible .func" 5
# a typo: caret-marked error, then the session goes on
send "q = x +* 2"
wait_for "error: expected an expression" 10
wait_for "q = x +* 2" 5
pane
grep -q '^ *| *\^' "$work/pane.txt" || { echo "FAIL: no caret line under the typo"; fail=1; }
send "print('still alive', y[:2])"
wait_for "still alive [-0.4423656  -1.07311256]" 20
send ":time y = 2*(x - z)/(x + z)"
wait_for "median" 60
# tab completion of a NumPy name
$T send-keys -t t -l -- "v = np.linsp"
$T send-keys -t t Tab
wait_for "v = np.linspace" 10
$T send-keys -t t -l -- "(0, 1, 5)"
$T send-keys -t t Enter
send "print(v, 6 * 7)"
wait_for "[0.   0.25 0.5  0.75 1.  ] 42" 20
# Ctrl-C at the prompt drops the pending block; during a loop it stops the loop, not the REPL
send "if True:"
$T send-keys -t t C-c
wait_for "KeyboardInterrupt" 10
send "spin = 0"
send "while True:"
send "    spin += 1"
send ""
sleep 1
$T send-keys -t t C-c
wait_for "error: KeyboardInterrupt" 10
send "print('interrupted after', spin > 0)"
wait_for "interrupted after True" 20
# leave, start again: the last line comes back with the Up arrow
$T send-keys -t t C-d
wait_for "NUMJIT-EXITED" 20
$T kill-server >/dev/null 2>&1
sleep 0.3
start
wait_for ">>> " 30
$T send-keys -t t Up
wait_for ">>> print('interrupted after', spin > 0)" 10
$T send-keys -t t C-u
send "print('second session', 6 * 7)"
wait_for "second session 42" 20
$T send-keys -t t C-d
wait_for "NUMJIT-EXITED" 20
grep -q "rel(x," "$work/history" || { echo "FAIL: history file lacks the first session's lines"; fail=1; }
[ $fail = 0 ] && echo "ok: REPL through tmux"
exit $fail
