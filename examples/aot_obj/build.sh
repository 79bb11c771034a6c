#!/bin/sh
# build.sh [NUMJIT] — builds this example as README.md shows: kernels.py's @njit functions
# ahead of time into kernels.o and kernels.h, then main.c with plain cc into ./prog.
set -e
numjit=${1:-numjit}
cd "$(dirname "$0")"
"$numjit" obj kernels.py -o kernels.o --header kernels.h \
    --sig 'axpy(float64, float64[:], float64[:])' --sig 'dot(float64[:], float64[:])' \
    --sig 'norm(float64[:])' --sig 'norm32=norm(float32[:])' \
    --sig 'matvec(float64[:, ::1], float64[::1], float64[::1])' \
    --sig 'matvec_any=matvec(float64[:, :], float64[:], float64[:])' \
    --sig 'safe_div(float64, float64)' --sig 'mean_max(float64[:])' \
    --sig 'sin_sum(float64[:])' --sig 'sin_all(float64[::1], float64[::1])' \
    --sig 'count_above(float64[:], float64)'
${CC:-cc} main.c kernels.o -lm -o prog
