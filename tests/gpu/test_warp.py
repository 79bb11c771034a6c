"""GPU suite for numba-cuda's warp, block and bit intrinsics: tests/gpu/warp_kernels.py (plain
numba-cuda source, imported with sys.modules['numba'] = numjit) launched through numjit.cuda
and checked against NumPy and plain-Python references: shuffle reductions (float32 exactly on
integer values, float64 to rounding), every shuffle mode on 32- and 64-bit ints and floats,
ballot/all/any/eq votes, syncthreads_count/and/or, popc/clz/ffs/brev, fma/cbrt/selp, the
wrapping atomic inc/dec and the bitwise atomics, NaN handling of atomic max/min against
nanmax/nanmin, and the lane registers and masks.  Skipped without a CUDA driver or device.

Run: PYTHONPATH=build/python python3 -m pytest -v tests/gpu/test_warp.py
"""
import os
from fractions import Fraction

import numpy as np
import pytest

import numjit
from numjit import cuda

if not cuda.is_available():
    pytest.skip("no CUDA driver or device", allow_module_level=True)

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2024)


K = numjit.load_numba_module(os.path.join(HERE, "warp_kernels.py"), "nj_warp_kernels")


def blocks(n, tpb):
    return (n + tpb - 1) // tpb


# ---- shuffles ----------------------------------------------------------------------------------

def test_reduce_sum_float32_exact():
    # integers: every partial sum is exact in float32, so the result is too
    n = 10_000  # not a multiple of the block: the tail threads add 0
    a = rng.integers(-100, 100, n).astype(np.float32)
    out = np.zeros(1, np.float32)
    K.reduce_sum[blocks(n, 256), 256](a, out)
    assert out[0] == a.astype(np.float64).sum()


def test_reduce_sum_float64():
    n = 100_003
    a = rng.standard_normal(n)
    out = np.zeros(1)
    K.reduce_sum64[blocks(n, 128), 128](a, out)
    np.testing.assert_allclose(out[0], a.sum(), rtol=1e-12, atol=1e-9)


def _shuffle_refs(a):
    n = len(a)
    i = np.arange(n)
    lane = i % 32
    base = i - lane
    idx = a[base + (lane + 5) % 32]
    up = np.where(lane >= 3, a[np.maximum(i - 3, 0)], a)       # below lane 0: own value
    down = np.where(lane + 3 <= 31, a[np.minimum(i + 3, n - 1)], a)  # past lane 31: own value
    xor = a[base + (lane ^ 6)]
    return idx, up, down, xor


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32", "uint64", "float32", "float64"])
def test_shuffles(dtype):
    n = 32 * 64
    dt = np.dtype(dtype)
    if dt.kind == "f":
        a = (rng.standard_normal(n) * 1e6).astype(dt)
    elif dt.kind == "i":
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    else:  # both halves of a 64-bit value must travel
        a = rng.integers(0, np.iinfo(dt).max, n, dtype=dt, endpoint=True)
    outs = [np.zeros_like(a) for _ in range(4)]
    K.shuffles[n // 128, 128](a, *outs)
    for got, want, name in zip(outs, _shuffle_refs(a), ("idx", "up", "down", "xor")):
        np.testing.assert_array_equal(got, want, err_msg=f"shfl {name} {dtype}")


# ---- votes -------------------------------------------------------------------------------------

def test_votes():
    n = 32 * 40
    a = rng.standard_normal(n).astype(np.float32)
    a[0:32] = np.abs(a[0:32]) + 1      # warp 0: all true
    a[32:64] = -np.abs(a[32:64])       # warp 1: all false
    a[64:96] = -1
    a[64 + 31] = 1                     # warp 2: only lane 31 (the ballot's sign bit)
    ballot = np.zeros(n, np.int64)
    flags = np.zeros((n, 3), np.int32)
    K.votes[n // 64, 64](a, ballot, flags)
    p = (a > 0).reshape(-1, 32)
    bits = (p.astype(np.uint64) << np.arange(32, dtype=np.uint64)).sum(axis=1)
    want_ballot = bits.astype(np.uint32).view(np.int32).astype(np.int64)  # int32, as numba-cuda
    np.testing.assert_array_equal(ballot, np.repeat(want_ballot, 32))
    assert ballot[64] == -(2**31)
    np.testing.assert_array_equal(flags[:, 0], np.repeat(p.all(axis=1), 32))
    np.testing.assert_array_equal(flags[:, 1], np.repeat(p.any(axis=1), 32))
    np.testing.assert_array_equal(flags[:, 2], np.repeat(p.all(axis=1) | ~p.any(axis=1), 32))
    # popcount of the ballot is the warp's count
    counts = [bin(int(b) & 0xffffffff).count("1") for b in want_ballot]
    assert counts == list(p.sum(axis=1))


def test_block_votes():
    n, tpb = 1000, 128  # 8 blocks, the last one part-full (its missing threads vote 0)
    a = rng.standard_normal(n).astype(np.float32)
    a[0:128] = np.abs(a[0:128]) + 1     # block 0: all true
    a[128:256] = -np.abs(a[128:256])    # block 1: none
    nb = blocks(n, tpb)
    out = np.zeros((nb, 3), np.int32)
    K.block_votes[nb, tpb](a, out)
    p = np.zeros(nb * tpb, bool)
    p[:n] = a > 0
    p = p.reshape(nb, tpb)
    np.testing.assert_array_equal(out[:, 0], p.sum(axis=1))
    np.testing.assert_array_equal(out[:, 1], p.all(axis=1).astype(np.int32))
    np.testing.assert_array_equal(out[:, 2], p.any(axis=1).astype(np.int32))


# ---- bit intrinsics ----------------------------------------------------------------------------

def _ffs(x, bits):
    x &= (1 << bits) - 1
    return (x & -x).bit_length()


def _clz(x, bits):
    x &= (1 << bits) - 1
    return bits - x.bit_length()


def _brev(x, bits):
    return int(format(x, f"0{bits}b")[::-1], 2)


def test_bits32():
    a = rng.integers(0, 2**32, 1000, dtype=np.uint64).astype(np.uint32)
    a[:6] = [0, 1, 0xffffffff, 0x80000000, 0x00010000, 6]
    pop, lz, fs = (np.zeros(len(a), np.int64) for _ in range(3))
    rev = np.zeros_like(a)
    K.bits32[blocks(len(a), 128), 128](a, pop, lz, fs, rev)
    xs = [int(x) for x in a]
    np.testing.assert_array_equal(pop, [bin(x).count("1") for x in xs])
    np.testing.assert_array_equal(lz, [_clz(x, 32) for x in xs])
    np.testing.assert_array_equal(fs, [_ffs(x, 32) for x in xs])
    np.testing.assert_array_equal(rev, np.array([_brev(x, 32) for x in xs], np.uint32))


def test_bits64():
    a = rng.integers(-2**63, 2**63 - 1, 1000, dtype=np.int64)
    a[:6] = [0, 1, -1, -2**63, 2**40, 96]
    pop, lz, fs = (np.zeros(len(a), np.int64) for _ in range(3))
    K.bits64[blocks(len(a), 128), 128](a, pop, lz, fs)
    xs = [int(x) & (2**64 - 1) for x in a]  # two's complement bits
    np.testing.assert_array_equal(pop, [bin(x).count("1") for x in xs])
    np.testing.assert_array_equal(lz, [_clz(x, 64) for x in xs])
    np.testing.assert_array_equal(fs, [_ffs(x, 64) for x in xs])
    b = a.view(np.uint64)
    rev = np.zeros_like(b)
    K.brev64[blocks(len(b), 128), 128](b, rev)
    np.testing.assert_array_equal(rev, np.array([_brev(int(x), 64) for x in b], np.uint64))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fma_cbrt_selp(dtype):
    n = 2000
    a, b, c = (rng.uniform(-3, 3, n).astype(dtype) for _ in range(3))
    out_fma, out_cbrt, out_selp = (np.zeros(n, dtype) for _ in range(3))
    K.arith[blocks(n, 128), 128](a, b, c, out_fma, out_cbrt, out_selp)
    # the exact a*b + c, rounded once (via float64 for float32: at most 1 ulp apart)
    exact = np.array([float(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
                      for x, y, z in zip(a, b, c)]).astype(dtype)
    if dtype == "float64":
        np.testing.assert_array_equal(out_fma, exact)
    else:
        np.testing.assert_array_max_ulp(out_fma, exact, maxulp=1)
    np.testing.assert_array_max_ulp(out_cbrt, np.cbrt(a), maxulp=2)
    np.testing.assert_array_equal(out_selp, np.where(a > b, a, b))


# ---- atomics -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["uint32", "uint64"])
def test_atomic_inc_dec_bits(dtype):
    n = 1000
    dt = np.dtype(dtype)
    counters = np.zeros(2, dt)
    ones = np.iinfo(dt).max
    bits = np.array([ones, 0, 0], dt)
    out = np.zeros((n, 2), np.int64)
    K.atomics_bits[blocks(n, 128), 128](counters, bits, out)
    # inc: 0 1 ... 9 0 1 ... (wraps to 0 past 9); dec: 0 9 8 ... 1 0 9 ... (0 or >9 -> 9)
    np.testing.assert_array_equal(np.bincount(out[:, 0], minlength=10), [n // 10] * 10)
    np.testing.assert_array_equal(np.bincount(out[:, 1], minlength=10), [n // 10] * 10)
    np.testing.assert_array_equal(counters, [n % 10, (10 - n % 10) % 10])
    # and_ clears bit i % 32, or_ sets it, xor toggles it (bits 0..7 toggled 32 times, the
    # rest 31 times, for n = 1000)
    assert int(bits[0]) == ones & ~0xffffffff
    assert int(bits[1]) == 0xffffffff
    assert int(bits[2]) == 0xffffff00


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_atomic_max_min_nan(dtype):
    n = 5000
    a = rng.standard_normal(n).astype(dtype)
    a[::97] = np.nan
    # nothing stored is NaN: all four ignore the NaN values
    out = np.array([-np.inf, np.inf, -np.inf, np.inf], dtype)
    K.atomics_nan[blocks(n, 128), 128](a, out)
    np.testing.assert_array_equal(out, [np.nanmax(a), np.nanmin(a), np.nanmax(a), np.nanmin(a)])
    # a stored NaN: max and min keep it (numba-cuda's rule), nanmax and nanmin replace it
    out = np.full(4, np.nan, dtype)
    K.atomics_nan[blocks(n, 128), 128](a, out)
    assert np.isnan(out[0]) and np.isnan(out[1])
    assert out[2] == np.nanmax(a) and out[3] == np.nanmin(a)


# ---- lanes and masks ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_lanes_and_match(dtype):
    n = 32 * 8
    a = (np.arange(n) % 3).astype(dtype)   # three groups per warp
    a[32:64] = 7                           # warp 1: every lane equal
    out = np.zeros((n, 7), np.int64)
    K.lanes[n // 64, 64](a, out)
    lane = np.arange(n) % 32
    np.testing.assert_array_equal(out[:, 0], lane)
    np.testing.assert_array_equal(out[:, 1], 32)
    np.testing.assert_array_equal(out[:, 2], (1 << lane) - 1)
    np.testing.assert_array_equal(out[:, 3], 0xffffffff)
    w = a.reshape(-1, 32)
    want_any = np.zeros(n, np.int64)
    for i in range(n):
        same = w[i // 32] == a[i]
        m = int((same.astype(np.uint64) << np.arange(32, dtype=np.uint64)).sum())
        want_any[i] = np.int64(np.uint32(m).view(np.int32))  # int32, as numba-cuda
    np.testing.assert_array_equal(out[:, 4], want_any)
    uniform = np.repeat((w == w[:, :1]).all(axis=1), 32)
    np.testing.assert_array_equal(out[:, 6], uniform.astype(np.int64))
    # match_all's mask: the member mask when all agree, else 0
    np.testing.assert_array_equal(out[:, 5], np.where(uniform, -1, 0))
