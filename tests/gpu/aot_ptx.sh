#!/bin/sh
# aot_ptx.sh — the ahead-of-time road end to end: `numjit ptx` writes PTX for the kernels of
# examples/aot_ptx/kernels.py, ptxas assembles it when present, and the plain driver-API
# program examples/aot_ptx/main.c (built only where the toolkit's cuda.h is found) loads and
# launches it.  Exit 0 when everything ran and passed, 77 (skipped) when the program cannot run
# here (not built, no libcuda.so.1, no device), 1 on a failure.
#
# Usage: aot_ptx.sh NUMJIT EXAMPLE_DIR [AOT_PROGRAM]
set -u
numjit=$1
src=$2
prog=${3:-}
out=$(mktemp -d /tmp/numjit_aot_XXXXXX)
trap 'rm -rf "$out"' EXIT

"$numjit" ptx "$src/kernels.py" --sig 'axpy(float32, float32[:], float32[:])' -o "$out/axpy.ptx" ||
    { echo "FAIL numjit ptx axpy"; exit 1; }
"$numjit" ptx "$src/kernels.py" --sig 'scale2d(float64[:, :], float64)' --arch sm_80 \
    -o "$out/scale2d.ptx" || { echo "FAIL numjit ptx scale2d"; exit 1; }
grep -q '.visible .entry axpy(' "$out/axpy.ptx" || { echo "FAIL: no .entry axpy"; exit 1; }
grep -q '.target sm_80' "$out/scale2d.ptx" || { echo "FAIL: scale2d is not sm_80"; exit 1; }
echo "PASS numjit ptx wrote axpy.ptx and scale2d.ptx"

ptxas=$(command -v ptxas || true)
[ -z "$ptxas" ] && [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" ] && ptxas=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
if [ -n "$ptxas" ]; then
    "$ptxas" -arch=sm_90 "$out/axpy.ptx" -o "$out/axpy.cubin" || { echo "FAIL ptxas axpy"; exit 1; }
    "$ptxas" -arch=sm_80 "$out/scale2d.ptx" -o "$out/scale2d.cubin" || { echo "FAIL ptxas scale2d"; exit 1; }
    echo "PASS ptxas accepts both"
fi

if [ -z "$prog" ] || [ ! -x "$prog" ]; then
    echo "SKIP: the example program was not built (no cuda.h)"
    exit 77
fi
"$prog" "$out/axpy.ptx" "$out/scale2d.ptx"
rc=$?
case $rc in
    0) exit 0 ;;
    77|127) echo "SKIP: no CUDA driver or device to run the example"; exit 77 ;;
    *) echo "FAIL the example program exited $rc"; exit 1 ;;
esac
