#!/bin/sh
# scripts/wheel-static.sh [OUTDIR] — a wheel of numjit that installs on an x86-64 Linux machine
# without LLVM: `pip wheel .` (pyproject.toml, meson-python) with LLVM linked statically
# (-Dllvm_static=true: X86 and NVPTX only), then tagged cp311-abi3 (default OUTDIR dist/wheel).
#
# The extensions are built against CPython's limited API of 3.11 (Py_LIMITED_API=0x030B0000,
# named *.abi3.so) and NumPy is reached through its Python-level API and its ufunc capsule only
# (python/numjit/_npufunc.c), so one wheel serves CPython 3.11 and later and NumPy 1.x and 2.x;
# meson-python tags it for the building interpreter alone (cp311-cp311), which is what the
# retagging corrects.  Install it where there is no package index with
#   pip install --no-deps --no-index dist/wheel/numjit-*-cp311-abi3-linux_x86_64.whl
# The result needs glibc >= 2.36, zlib and libzstd.so.1, as the static archive of
# scripts/pack-static.sh.
set -eu
cd "$(dirname "$0")/.."
out=${1:-dist/wheel}
py=${PYTHON:-/usr/bin/python3}
mkdir -p "$out"
export LLVM_CONFIG=${LLVM_CONFIG:-llvm-config-19}
rm -f "$out"/numjit-*.whl
"$py" -m pip wheel . --no-build-isolation --no-deps --no-index \
    --config-settings=setup-args=-Dllvm_static=true -w "$out"
whl=$(ls "$out"/numjit-*.whl)
tmp=$(mktemp -d)
"$py" -m wheel unpack -d "$tmp" "$whl"
info=$(ls -d "$tmp"/numjit-*/numjit-*.dist-info)
sed -i 's/^Tag: .*/Tag: cp311-abi3-linux_x86_64/' "$info/WHEEL"
chmod +x "$tmp"/numjit-*/numjit-*.data/scripts/*  # unpack drops the mode pip installs with
rm -f "$whl"
"$py" -m wheel pack -d "$out" "$tmp"/numjit-*/
rm -rf "$tmp"
ls -la "$out"/numjit-*.whl
