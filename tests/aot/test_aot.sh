#!/bin/sh
# test_aot.sh — `numjit obj` end to end: examples/aot_obj/kernels.py compiled ahead of time into
# one object file and header, linked into examples/aot_obj/main.c with plain `cc ... -lm` (no
# numjit), run, and compared line for line with the same computations through the JIT
# (kernels.py run by /usr/bin/python3 with the numjit package of the build tree).  Then what
# the linker sees: the object's undefined symbols are all libc/libm ones (none of numjit or
# LLVM), a shared link with --no-undefined needs only libc and libm, and the default (generic
# x86-64) code uses no AVX registers.  Also: --vector-math links with -lmvec and gives the same
# output, --cpu native works, a prange loop of a parallel=True function runs serially with no
# numjit symbol, and bad signatures fail with located messages.
#
#   test_aot.sh NUMJIT EXAMPLE_DIR PYTHON_BUILD_DIR
set -u
NUMJIT=$1
SRC=$2
PYDIR=$3
CC=${CC:-cc}
T=$(mktemp -d "${TMPDIR:-/tmp}/numjit-aot.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

SIGS="axpy(float64, float64[:], float64[:])
dot(float64[:], float64[:])
norm(float64[:])
norm32=norm(float32[:])
matvec(float64[:, ::1], float64[::1], float64[::1])
matvec_any=matvec(float64[:, :], float64[:], float64[:])
safe_div(float64, float64)
mean_max(float64[:])
sin_sum(float64[:])
sin_all(float64[::1], float64[::1])
count_above(float64[:], float64)"

# obj OUT.o [options...]: numjit obj with every signature above
obj() {
    out=$1
    shift
    set -f
    old_ifs=$IFS
    IFS='
'
    set -- $(printf '%s\n' "$SIGS" | sed 's/^/--sig\n/') "$@"
    IFS=$old_ifs
    set +f
    "$NUMJIT" obj "$SRC/kernels.py" -o "$out" "$@"
}

# 0. the example's build.sh, which README.md points at, builds it as documented
mkdir "$T/ex" && cp "$SRC/kernels.py" "$SRC/main.c" "$SRC/build.sh" "$T/ex/" &&
    CC=$CC sh "$T/ex/build.sh" "$(cd "$(dirname "$NUMJIT")" && pwd)/$(basename "$NUMJIT")" \
        > "$T/ex.log" 2>&1 && [ -x "$T/ex/prog" ] ||
    { cat "$T/ex.log"; bad "examples/aot_obj/build.sh"; }

# 1. object + header, plain cc, run
obj "$T/kernels.o" --header "$T/kernels.h" || { echo "FAIL: numjit obj"; exit 1; }
$CC -std=c11 -Wall -Wextra -Werror -I"$T" "$SRC/main.c" "$T/kernels.o" -lm -o "$T/prog" ||
    { echo "FAIL: cc main.c kernels.o -lm"; exit 1; }
"$T/prog" > "$T/c.txt" 2> "$T/c.err" || bad "the C program reported failures: $(cat "$T/c.err")"
grep -q 'kernels.py:[0-9]*:[0-9]*: ZeroDivisionError' "$T/c.err" ||
    bad "no located ZeroDivisionError message: $(cat "$T/c.err")"
echo "C program output:"
cat "$T/c.txt"

# 2. the same values through the JIT: numjit's Python package, or under sanitizers (where
# CPython cannot load the instrumented library) Numba's, which runs kernels.py unchanged
SAN=${NJ_SANITIZE:-none}
if [ "$SAN" != none ] && /usr/bin/python3 -c 'import numba' 2>/dev/null; then
    (cd "$SRC" && /usr/bin/python3 -c 'import sys, runpy; sys.modules["numjit"] = None
runpy.run_path("kernels.py", run_name="__main__")') > "$T/py.txt" || bad "kernels.py under Numba"
    if diff "$T/py.txt" "$T/c.txt"; then
        echo "ok: identical to Numba's JIT output ($(wc -l < "$T/c.txt") lines; sanitized build)"
    else
        bad "the object's results differ from Numba's"
    fi
elif [ "$SAN" = none ] && PYTHONPATH="$PYDIR" /usr/bin/python3 -c 'import numjit' 2>/dev/null; then
    (cd "$SRC" && PYTHONPATH="$PYDIR" /usr/bin/python3 kernels.py) > "$T/py.txt" ||
        bad "kernels.py under the JIT"
    if diff "$T/py.txt" "$T/c.txt"; then
        echo "ok: identical to the JIT's output ($(wc -l < "$T/c.txt") lines)"
    else
        bad "the object's results differ from the JIT's"
    fi
else
    echo "note: no Python JIT to compare with (numjit package in $PYDIR, or Numba): skipped"
fi

# 3. what the linker sees
nm -u "$T/kernels.o" | awk '{print $NF}' > "$T/undef.txt"
echo "undefined symbols: $(tr '\n' ' ' < "$T/undef.txt")"
if grep -Eiq '^(nj_|rt_|cg_|ty_|ir_)|llvm' "$T/undef.txt"; then
    bad "the object needs numjit or LLVM symbols"
fi
libc=$($CC -print-file-name=libc.so.6)
libm=$($CC -print-file-name=libm.so.6)
[ -f "$libc" ] || libc=/lib/x86_64-linux-gnu/libc.so.6
[ -f "$libm" ] || libm=/lib/x86_64-linux-gnu/libm.so.6
nm -D --defined-only "$libc" "$libm" 2>/dev/null | awk 'NF >= 3 {sub(/@.*/, "", $3); print $3}' |
    sort -u > "$T/libcm.txt"
while read -r s; do
    grep -qx "$s" "$T/libcm.txt" || bad "undefined symbol '$s' is not a libc/libm symbol"
done < "$T/undef.txt"
$CC -shared -Wl,--no-undefined "$T/kernels.o" -lm -o "$T/k.so" ||
    bad "ld: a shared link with --no-undefined and only -lm fails"
if [ -f "$T/k.so" ]; then
    needed=$(readelf -d "$T/k.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    echo "ld: k.so needs: $needed"
    for lib in $needed; do
        case $lib in libc.so.*|libm.so.*) ;; *) bad "k.so needs $lib" ;; esac
    done
fi
if command -v objdump > /dev/null; then
    if objdump -d "$T/kernels.o" | grep -Eq '%[yz]mm'; then
        bad "the generic (x86-64 baseline) object uses AVX registers"
    else
        echo "ok: generic object, no AVX registers"
    fi
fi

# 4. --vector-math (libmvec) and --cpu native
obj "$T/kv.o" --vector-math || bad "numjit obj --vector-math"
nm -u "$T/kv.o" | grep -q '_ZGV' || bad "--vector-math made no libmvec call"
$CC -I"$T" "$SRC/main.c" "$T/kv.o" -lm -lmvec -o "$T/progv" && "$T/progv" > "$T/cv.txt" 2>/dev/null ||
    bad "the --vector-math program"
cmp -s "$T/c.txt" "$T/cv.txt" || bad "--vector-math output differs"
obj "$T/kn.o" --cpu native || bad "numjit obj --cpu native"
$CC -I"$T" "$SRC/main.c" "$T/kn.o" -lm -o "$T/progn" && "$T/progn" > "$T/cn.txt" 2>/dev/null ||
    bad "the --cpu native program"
cmp -s "$T/c.txt" "$T/cn.txt" || bad "--cpu native output differs"

# 5. a parallel loop (prange under parallel=True) runs serially in an object: no numjit symbol
cat > "$T/par.py" <<'PY'
from numba import njit, prange

@njit(parallel=True)
def psum(a):
    s = 0.0
    m = -1.0
    for i in prange(a.shape[0]):
        s += a[i]
        m = max(m, a[i])
    return s + m
PY
cat > "$T/par.c" <<'C'
#include <stdio.h>
#include "par.h"
int main(void) {
    double d[5] = {1, 2, 3, 4, 5}, r = 0;
    NjArray a = {0};
    a.data = d, a.ndim = 1, a.dtype = NJ_FLOAT64, a.shape[0] = 5, a.strides[0] = 8;
    int st = psum(&r, &a);
    printf("%d %g\n", st, r);
    return 0;
}
C
if "$NUMJIT" obj "$T/par.py" --sig 'psum(float64[::1])' -o "$T/par.o" --header "$T/par.h"; then
    nm -u "$T/par.o" | grep -q numjit && bad "the parallel loop's object needs numjit"
    $CC -I"$T" "$T/par.c" "$T/par.o" -lm -o "$T/par" && [ "$("$T/par")" = "0 20" ] ||
        bad "the parallel loop's object: $("$T/par" 2>&1)"
else
    bad "numjit obj of a parallel loop"
fi

# 6. errors: located, exit status 1 (2 for usage)
expect_err() { # STATUS PATTERN ARGS...
    want=$1 pat=$2
    shift 2
    "$NUMJIT" obj "$@" > "$T/err.txt" 2>&1
    rc=$?
    [ "$rc" = "$want" ] || bad "numjit obj $* exited $rc, not $want"
    grep -q "$pat" "$T/err.txt" || bad "numjit obj $*: no '$pat' in: $(cat "$T/err.txt")"
}
expect_err 1 "no function named 'nope'" "$SRC/kernels.py" --sig 'nope(float64)' -o "$T/x.o"
expect_err 1 "two signatures export 'norm'" "$SRC/kernels.py" --sig 'norm(float64[:])' \
    --sig 'norm(float32[:])' -o "$T/x.o"
expect_err 1 "takes 2 arguments" "$SRC/kernels.py" --sig 'safe_div(float64)' -o "$T/x.o"
expect_err 1 "unknown CPU" "$SRC/kernels.py" --sig 'safe_div(float64, float64)' --cpu pentium9 \
    -o "$T/x.o"
expect_err 2 "required" "$SRC/kernels.py" --sig 'safe_div(float64, float64)'
[ -e "$T/x.o" ] && bad "a failed run left an object file"

[ $fail = 0 ] && echo "PASS"
exit $fail
