#!/bin/sh
# test_install.sh — `meson install` into a temporary DESTDIR, then everything used from there:
#   - the files: bin/numjit, libnumjit.so, include/numjit.h, pkgconfig/numjit.pc and the
#     Python package (pure modules and both abi3 extensions) in the interpreter's site dir;
#   - numjit.pc: Cflags -I${includedir}, Libs -L${libdir} -lnumjit, nothing of LLVM;
#   - examples/embed_c built with `cc main.c $(pkg-config --cflags --libs numjit)` against the
#     installed tree (pkg-config's prefix pointed at the DESTDIR copy) and run;
#   - the installed numjit command, run with no LD_LIBRARY_PATH: its $ORIGIN rpath finds the
#     installed libnumjit.so (not the build tree's), also after the whole tree is moved; and
#     `numjit obj` from there;
#   - the installed Python package imported with PYTHONPATH at the installed site dir: it
#     loads the installed extension, which finds the installed libnumjit.so, and runs @njit;
#     `python3 -m numjit` from there answers `import numba`, in its child processes too.
#
#   test_install.sh BUILD_DIR SOURCE_DIR PREFIX LIBDIR [PYTHON_SITE_DIR]
set -u
BUILD=$1
SRC=$2
PREFIX=$3
LIBDIR=$4
SITE=${5:-}
CC=${CC:-cc}
T=$(mktemp -d "${TMPDIR:-/tmp}/numjit-install.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
unset LD_LIBRARY_PATH

case $LIBDIR in /*) ;; *) LIBDIR=$PREFIX/$LIBDIR ;; esac
D=$T/dest
meson install -C "$BUILD" --destdir "$D" --no-rebuild --quiet > "$T/install.log" 2>&1 ||
    { cat "$T/install.log"; echo "FAIL: meson install"; exit 1; }
R=$D$PREFIX
L=$D$LIBDIR

for f in "$R/bin/numjit" "$L/libnumjit.so" "$R/include/numjit.h" "$L/pkgconfig/numjit.pc"; do
    [ -f "$f" ] && echo "installed: ${f#$D}" || bad "not installed: ${f#$D}"
done
[ -x "$R/bin/numjit" ] || bad "bin/numjit is not executable"

# numjit.pc, read with its prefix moved to the DESTDIR copy
PC="env PKG_CONFIG_PATH=$L/pkgconfig PKG_CONFIG_LIBDIR=$L/pkgconfig pkg-config --define-variable=prefix=$R"
cflags=$($PC --cflags numjit) || bad "pkg-config --cflags numjit"
libs=$($PC --libs numjit) || bad "pkg-config --libs numjit"
echo "pkg-config: Cflags: $cflags; Libs: $libs"
# dir_of FLAG WORDS...: the directory of the first -I or -L word, resolved
dir_of() {
    f=$1
    shift
    for w in "$@"; do
        case $w in "$f"*) (cd "${w#"$f"}" 2>/dev/null && pwd -P); return ;; esac
    done
}
real_r=$(cd "$R" && pwd -P)
real_l=$(cd "$L" && pwd -P)
# shellcheck disable=SC2086
[ "$(dir_of -I $cflags)" = "$real_r/include" ] || bad "Cflags lack -I\${includedir}: $cflags"
# shellcheck disable=SC2086
[ "$(dir_of -L $libs)" = "$real_l" ] || bad "Libs lack -L\${libdir}: $libs"
# --define-prefix guesses the prefix from the file's place: the paths must not depend on it
dp="env PKG_CONFIG_PATH=$L/pkgconfig PKG_CONFIG_LIBDIR=$L/pkgconfig pkg-config --define-prefix"
# shellcheck disable=SC2046
[ "$(dir_of -I $($dp --cflags numjit))" = "$real_r/include" ] ||
    bad "pkg-config --define-prefix --cflags numjit: $($dp --cflags numjit)"
# shellcheck disable=SC2046
[ "$(dir_of -L $($dp --libs numjit))" = "$real_l" ] ||
    bad "pkg-config --define-prefix --libs numjit: $($dp --libs numjit)"
case " $libs " in *" -lnumjit "*) ;; *) bad "Libs lack -lnumjit" ;; esac
case "$cflags $libs" in *LLVM*|*llvm*) bad "numjit.pc exposes LLVM to users" ;; esac
[ "$($PC --modversion numjit)" = "$("$BUILD/numjit" version | sed 's/^numjit \([^ ]*\).*/\1/')" ] ||
    bad "numjit.pc's version differs from the library's"

# examples/embed_c against the installed tree (a sanitized library needs a sanitized program)
SAN=${NJ_SANITIZE:-none}
sanflags=
[ "$SAN" != none ] && sanflags="-fsanitize=$SAN"
$CC -std=c11 -Wall -Wextra -Werror $sanflags "$SRC/examples/embed_c/main.c" $cflags $libs -lm \
    -Wl,-rpath,"$L" -o "$T/embed" || bad "cc examples/embed_c/main.c \$(pkg-config ...)"
if [ -x "$T/embed" ]; then
    "$T/embed" > "$T/embed.txt" 2>&1 || bad "embed_c: $(cat "$T/embed.txt")"
    grep -q '^PASS$' "$T/embed.txt" && echo "ok: examples/embed_c built with pkg-config and ran"
    ldd "$T/embed" | grep -q "libnumjit.so => $L/libnumjit.so" ||
        bad "embed_c does not load the installed libnumjit.so: $(ldd "$T/embed" | grep numjit)"
fi

# the installed command: rpath ($ORIGIN) finds the installed library, wherever the tree is
"$R/bin/numjit" version > "$T/v.txt" 2>&1 || bad "installed numjit: $(cat "$T/v.txt")"
ldd "$R/bin/numjit" | grep -q "libnumjit.so => $R/bin/../" ||
    bad "installed numjit does not load the installed library: $(ldd "$R/bin/numjit" | grep numjit)"
(cd "$SRC/examples/aot_obj" &&
 "$R/bin/numjit" obj kernels.py --sig 'safe_div(float64, float64)' -o "$T/k.o" --header "$T/k.h") ||
    bad "installed numjit obj"
mv "$D" "$T/moved"
R2=$T/moved$PREFIX
"$R2/bin/numjit" version > /dev/null 2>&1 || bad "numjit does not run from a moved install tree"
mv "$T/moved" "$D"
echo "ok: installed numjit runs (also moved) without LD_LIBRARY_PATH: $(cat "$T/v.txt")"

# the Python package
if [ -n "$SITE" ] && [ "$SAN" != none ]; then
    for f in __init__.py _numjit.abi3.so _cuda.abi3.so; do
        [ -f "$D$SITE/numjit/$f" ] || bad "not installed: $SITE/numjit/$f"
    done
    echo "note: sanitized build: the installed Python package is not imported (CPython would need the sanitizer preloaded)"
elif [ -n "$SITE" ]; then
    S=$D$SITE
    for f in __init__.py _numjit.abi3.so _cuda.abi3.so; do
        [ -f "$S/numjit/$f" ] || bad "not installed: $SITE/numjit/$f"
    done
    /usr/bin/python3 -c "import sys; sys.exit(0 if '$SITE' in sys.path else 1)" ||
        echo "note: $SITE is not on /usr/bin/python3's default path (prefix $PREFIX)"
    cat > "$T/check.py" <<'PYEOF'
import os, sys
import numpy as np
import numjit
from numjit import njit

site, libdir = sys.argv[1], sys.argv[2]
assert numjit.__file__.startswith(site), numjit.__file__
maps = open("/proc/self/maps").read()
libs = {l.split()[-1] for l in maps.splitlines() if "libnumjit.so" in l}
assert libs == {os.path.join(libdir, "libnumjit.so")}, libs

@njit
def total(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s

x = np.arange(10.0)
assert total(x) == 45.0
print("ok: import numjit from", os.path.dirname(numjit.__file__), "- libnumjit from", libs.pop())
PYEOF
    (cd "$T" && PYTHONPATH="$S" /usr/bin/python3 check.py "$S" "$L" > "$T/py.txt" 2>&1) || bad "the installed Python package: $(cat "$T/py.txt")"
    cat "$T/py.txt"
    # python3 -m numjit: numjit answers `import numba`, here and in the processes it starts
    dp=$(PYTHONPATH="$S" /usr/bin/python3 -m numjit --path) || bad "python3 -m numjit --path"
    [ -f "$dp/numba/__init__.py" ] || bad "not installed: $dp/numba/__init__.py"
    (cd "$T" && PYTHONPATH="$S" /usr/bin/python3 -m numjit -c 'import subprocess, sys
import numba.core.errors
assert numba.__name__ == "numjit"
r = subprocess.run([sys.executable, "-c", "import numba; print(numba.__name__)"],
                   capture_output=True, text=True)
assert r.stdout == "numjit\n", r' > "$T/m.txt" 2>&1) ||
        bad "python3 -m numjit from the installed package: $(cat "$T/m.txt")"
else
    echo "note: the Python package is not built: not checked"
fi

[ $fail = 0 ] && echo "PASS"
exit $fail
