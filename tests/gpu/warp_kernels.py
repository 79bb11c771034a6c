"""Kernels with numba-cuda's warp, block and bit intrinsics (valid numba-cuda code).

tests/unit/test_warp.c compiles each to PTX (substring checks, ptxas -arch=sm_90);
tests/gpu/test_warp.py launches them on a GPU and compares with NumPy references.
Every kernel is written for one warp per 32 threads and a block size that is a multiple of 32.
"""
from numba import cuda, float32, int32

FULL = 0xffffffff


@cuda.jit(device=True)
def warp_reduce(v):
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(0xffffffff, v, offset)
        offset //= 2
    return v


@cuda.jit
def reduce_sum(a, out):
    """out[0] += the sum of a: a shuffle reduction per warp, one atomic per warp."""
    i = cuda.grid(1)
    v = float32(0.0)
    if i < a.size:
        v = a[i]
    v = warp_reduce(v)
    if cuda.laneid == 0:
        cuda.atomic.add(out, 0, v)


@cuda.jit
def reduce_sum64(a, out):
    """The same in float64: each shuffle moves two 32-bit halves."""
    i = cuda.grid(1)
    v = 0.0
    if i < a.size:
        v = a[i]
    v = warp_reduce(v)
    if cuda.laneid == 0:
        cuda.atomic.add(out, 0, v)


@cuda.jit
def shuffles(a, idx, up, down, xor):
    """Each shuffle of a[i] within its warp (a's length is a multiple of 32)."""
    i = cuda.grid(1)
    if i < a.size:
        v = a[i]
        lane = cuda.laneid
        idx[i] = cuda.shfl_sync(FULL, v, (lane + 5) % 32)
        up[i] = cuda.shfl_up_sync(FULL, v, 3)
        down[i] = cuda.shfl_down_sync(FULL, v, 3)
        xor[i] = cuda.shfl_xor_sync(FULL, v, 6)


@cuda.jit
def votes(a, ballot, flags):
    """ballot_sync of a[i] > 0 for each thread; flags: all, any, eq as 0/1 in columns."""
    i = cuda.grid(1)
    if i < a.size:
        p = a[i] > 0
        ballot[i] = cuda.ballot_sync(FULL, p)
        flags[i, 0] = 1 if cuda.all_sync(FULL, p) else 0
        flags[i, 1] = 1 if cuda.any_sync(FULL, p) else 0
        flags[i, 2] = 1 if cuda.eq_sync(FULL, p) else 0


@cuda.jit
def block_votes(a, out):
    """syncthreads_count/and/or of a[i] > 0 per block: out[block] = (count, and, or)."""
    i = cuda.grid(1)
    p = 0
    if i < a.size and a[i] > 0:
        p = 1
    c = cuda.syncthreads_count(p)
    al = cuda.syncthreads_and(p)
    an = cuda.syncthreads_or(p)
    if cuda.threadIdx.x == 0:
        out[cuda.blockIdx.x, 0] = c
        out[cuda.blockIdx.x, 1] = al
        out[cuda.blockIdx.x, 2] = an


@cuda.jit
def bits32(a, pop, lz, fs, rev):
    """popc, clz, ffs and brev of uint32 values."""
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        pop[i] = cuda.popc(x)
        lz[i] = cuda.clz(x)
        fs[i] = cuda.ffs(x)
        rev[i] = cuda.brev(x)


@cuda.jit
def bits64(a, pop, lz, fs):
    """popc, clz and ffs of int64 values (popc and clz keep the type, ffs gives uint32)."""
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        pop[i] = cuda.popc(x)
        lz[i] = cuda.clz(x)
        fs[i] = cuda.ffs(x)


@cuda.jit
def brev64(a, rev):
    i = cuda.grid(1)
    if i < a.size:
        rev[i] = cuda.brev(a[i])


@cuda.jit
def arith(a, b, c, out_fma, out_cbrt, out_selp):
    """fma(a, b, c), cbrt(a) and selp(a > b, a, b) of float arrays."""
    i = cuda.grid(1)
    if i < a.size:
        out_fma[i] = cuda.fma(a[i], b[i], c[i])
        out_cbrt[i] = cuda.cbrt(a[i])
        out_selp[i] = cuda.selp(a[i] > b[i], a[i], b[i])


@cuda.jit
def atomics_bits(counters, bits, out):
    """inc/dec wrap at counters[0..1] = limit, and_/or_/xor of one bit per thread."""
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i, 0] = cuda.atomic.inc(counters, 0, 9)
        out[i, 1] = cuda.atomic.dec(counters, 1, 9)
        bit = 1 << (i % 32)
        cuda.atomic.and_(bits, 0, ~bit)
        cuda.atomic.or_(bits, 1, bit)
        cuda.atomic.xor(bits, 2, bit)


@cuda.jit
def atomics_nan(a, out):
    """out[0] = max, out[1] = min, out[2] = nanmax, out[3] = nanmin of a (NaN included)."""
    i = cuda.grid(1)
    if i < a.size:
        cuda.atomic.max(out, 0, a[i])
        cuda.atomic.min(out, 1, a[i])
        cuda.atomic.nanmax(out, 2, a[i])
        cuda.atomic.nanmin(out, 3, a[i])


@cuda.jit
def lanes(a, out):
    """Per thread: laneid, warpsize, lanemask_lt, activemask, match_any_sync of a[i],
    match_all_sync's mask and flag, after a syncwarp (with and without a mask) and fences."""
    i = cuda.grid(1)
    if i < out.shape[0]:
        cuda.syncwarp()
        cuda.syncwarp(FULL)
        cuda.threadfence_block()
        cuda.threadfence_system()
        out[i, 0] = cuda.laneid
        out[i, 1] = cuda.warpsize
        out[i, 2] = cuda.lanemask_lt()
        out[i, 3] = cuda.activemask()
        out[i, 4] = cuda.match_any_sync(FULL, a[i])
        m, pred = cuda.match_all_sync(FULL, a[i])
        out[i, 5] = m
        out[i, 6] = 1 if pred else 0
