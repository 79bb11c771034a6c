"""GPU suite for numba-cuda's host API in numjit.cuda: events (record, synchronize, query,
wait, elapsed time), page-locked memory (pinned_array, cuda.pinned, cuda.mapped,
mapped_array), the device list and contexts (cuda.gpus, current_context, get_memory_info,
reset, close, defer_cleanup, device attributes), DeviceNDArray's copies, indexing, views,
transposes and split, cuda.const.array_like's diagnostic, and reduce of GPU ufuncs against
NumPy (and against numba-cuda's own order of operations, bit for bit).  Kernels and ufuncs
are tests/gpu/api_kernels.py, numba-cuda source.  Skipped without a CUDA driver or device.

Run: PYTHONPATH=build/python python3 -m pytest -v tests/gpu/test_cuda_api.py
Timings print as INFO lines (with -s); none is asserted except that pinned copies are not
slower than pageable ones by more than a wide margin.
"""
import os
import time

import numpy as np
import pytest

import numjit
from numjit import cuda
from numjit.errors import CudaError, TypingError

if not cuda.is_available():
    pytest.skip("no CUDA driver or device", allow_module_level=True)

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2468)

K = numjit.load_numba_module(os.path.join(HERE, "api_kernels.py"), "nj_gpu_api_kernels")


def blocks(n, tpb=256):
    return (n + tpb - 1) // tpb


# ---- events -------------------------------------------------------------------------------------

def test_event_timing_around_kernels():
    n = 1 << 22
    x = rng.standard_normal(n).astype(np.float32)
    dx, dout = cuda.to_device(x), cuda.device_array_like(x)
    s = cuda.stream()
    start, end = cuda.event(), cuda.event(timing=True)
    start.record(s)
    for _ in range(5):
        K.scale[blocks(n), 256, s](dx, dout, np.float32(3.0))
    end.record(stream=s)
    end.synchronize()
    assert end.query() is True and start.query() is True
    ms = cuda.event_elapsed_time(start, end)
    assert isinstance(ms, float) and 0.0 < ms < 10_000.0
    assert start.elapsed_time(end) == ms
    print(f"INFO 5 launches over {n} float32: {ms:.3f} ms between the events")
    np.testing.assert_array_equal(dout.copy_to_host(), x * np.float32(3.0))


def test_event_default_stream_and_no_timing():
    a, b = cuda.event(), cuda.event()
    a.record()
    b.record()
    b.synchronize()
    assert cuda.event_elapsed_time(a, b) >= 0.0
    nt = cuda.event(timing=False)
    nt.record()
    nt.synchronize()
    assert nt.query()
    with pytest.raises(CudaError) as info:
        cuda.event_elapsed_time(a, nt)
    assert "cuEventElapsedTime" in str(info.value)
    assert "CUDA_ERROR_INVALID_HANDLE" in str(info.value)


def test_event_query_while_busy_and_wait_orders_streams():
    n = 1 << 20
    x = np.zeros(n)
    dx = cuda.to_device(x)
    s1, s2 = cuda.stream(), cuda.stream()
    done = cuda.event()
    K.spin_add[blocks(n), 256, s1](dx, 20000)
    done.record(s1)
    busy = not done.query()          # most likely still running; both answers are valid
    print(f"INFO query right after a long kernel: {'not ready' if busy else 'done'}")
    done.wait(s2)                    # s2's later work waits for the kernel on s1
    out = np.empty(n)
    dx.copy_to_host(out, stream=s2)
    s2.synchronize()
    np.testing.assert_array_equal(out, np.full(n, 20000.0))
    assert done.query()


# ---- page-locked memory -------------------------------------------------------------------------

def _copy_time(host, dev, reps=5):
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        dev.copy_to_device(host)
        dev.copy_to_host(host)
        best = min(best, time.perf_counter() - t)
    return best


def test_pinned_array_copies_and_speed():
    n = 64 << 20  # 256 MiB of float32
    p = cuda.pinned_array(n, dtype=np.float32)
    assert isinstance(p, np.ndarray) and p.shape == (n,) and p.dtype == np.float32
    assert p.flags.c_contiguous and p.flags.writeable
    p[:] = np.arange(n, dtype=np.float32)
    d = cuda.device_array(n, np.float32)
    d.copy_to_device(p)
    back = cuda.pinned_array((n,), np.float32)
    d.copy_to_host(back)
    np.testing.assert_array_equal(back, p)
    pageable = np.array(p)
    t_pin = _copy_time(p, d)
    t_page = _copy_time(pageable, d)
    gbs = lambda t: 2 * p.nbytes / t / 1e9  # noqa: E731
    print(f"INFO 256 MiB there and back: pinned {gbs(t_pin):.1f} GB/s, pageable {gbs(t_page):.1f} GB/s")
    assert t_pin < 2.0 * t_page
    f = cuda.pinned_array((300, 7), dtype=np.float64, order="F")
    assert f.flags.f_contiguous and f.shape == (300, 7)
    f[...] = rng.standard_normal((300, 7))
    np.testing.assert_array_equal(cuda.to_device(f).copy_to_host(), f)


def test_pinned_arrays_are_freed():
    # 24 x 256 MiB = 6 GiB of page-locked memory in turn: each goes back when its array dies
    for i in range(24):
        a = cuda.pinned_array(64 << 20, dtype=np.float32)
        a[10:20] = i
        v = a[10:20]                 # a view keeps the memory alive after `a` is gone
        del a
        assert (v == i).all()
    del v


def test_pinned_context_manager():
    x = rng.standard_normal(1 << 20)
    y = np.zeros((512, 513))[:, :512]            # not contiguous: its byte span is pinned
    with cuda.pinned(x, y):
        d = cuda.to_device(x)
        np.testing.assert_array_equal(d.copy_to_host(), x)
        with cuda.pinned(x):                      # pinned already: a no-op, undone by nobody
            pass
        dy = cuda.to_device(np.ascontiguousarray(y) + 1.0)
        y[...] = dy.copy_to_host()
    np.testing.assert_array_equal(y, np.ones((512, 512)))
    x[0] = 5.0                                    # still an ordinary array afterwards
    with cuda.pinned():
        pass


def test_mapped_context_manager():
    # arrays of a few MiB: malloc maps each on pages of its own, so no two registrations
    # share a page
    x = np.arange(1 << 18, dtype=np.float64)
    with cuda.mapped(x) as dx:
        assert isinstance(dx, cuda.DeviceNDArray) and dx.shape == x.shape
        K.add_one_inplace[blocks(x.size), 256](dx)
        cuda.synchronize()
    np.testing.assert_array_equal(x, np.arange(1 << 18) + 1.0)
    a, b = np.zeros(1 << 20, np.int32), np.zeros(1 << 19, np.int32)
    with cuda.mapped(a, b) as (da, db):
        K.add_one_inplace[blocks(a.size), 256](da)
        K.add_one_inplace[blocks(b.size), 256](db)
        cuda.synchronize()
    assert (a == 1).all() and (b == 1).all()


def test_mapped_array_zero_copy():
    m = cuda.mapped_array(4096, dtype=np.float32)
    assert isinstance(m, np.ndarray) and isinstance(m, cuda.MappedNDArray)
    m[:] = 2.0
    K.add_one_inplace[blocks(m.size), 256](m)     # a device argument: no copy, asynchronous
    cuda.synchronize()
    np.testing.assert_array_equal(np.asarray(m), np.full(4096, 3.0, np.float32))
    assert m.__cuda_array_interface__["data"][0] != 0


# ---- devices and contexts -----------------------------------------------------------------------

def test_gpus_and_device_attributes():
    n = len(cuda.gpus)
    assert n >= 1
    g = cuda.gpus[0]
    assert g.id == 0
    assert [d.id for d in cuda.gpus] == list(range(n))
    with cuda.gpus[0]:
        dev = cuda.get_current_device()
        assert dev.id == 0
        assert cuda.gpus.current.id == 0
    assert isinstance(dev.name, bytes) and dev.name
    ma, mi = dev.compute_capability
    assert ma >= 3 and mi >= 0
    assert dev.MULTIPROCESSOR_COUNT > 0
    assert dev.MAX_THREADS_PER_BLOCK >= 1024
    assert dev.WARP_SIZE == 32
    assert dev.COMPUTE_CAPABILITY_MAJOR == ma and dev.COMPUTE_CAPABILITY_MINOR == mi
    assert dev.MAX_SHARED_MEMORY_PER_BLOCK == 48 * 1024
    assert dev.MAX_BLOCK_DIM_X >= 1024 and dev.MAX_GRID_DIM_X >= 65535
    assert g.MULTIPROCESSOR_COUNT == dev.MULTIPROCESSOR_COUNT
    assert cuda.get_current_device() is dev
    with pytest.raises(AttributeError):
        dev.NO_SUCH_ATTRIBUTE
    print(f"INFO device 0: {dev.name.decode()} sm_{ma}{mi}, {dev.MULTIPROCESSOR_COUNT} SMs")
    if n > 1:
        with cuda.gpus[1]:
            assert cuda.get_current_device().id == 1
        assert cuda.get_current_device().id == 0


def test_context_memory_info_and_reset():
    ctx = cuda.current_context()
    ctx.reset()                                   # nothing cached that `big` could reuse
    free0, total = ctx.get_memory_info()
    assert 0 < free0 <= total
    mi = ctx.get_memory_info()
    assert mi.total == total and mi.free <= total
    big = cuda.device_array(1 << 28, np.uint8)    # 256 MiB
    free1 = ctx.get_memory_info().free
    assert free0 - free1 >= (1 << 28) - (64 << 20)
    del big                                       # cached by numjit's allocator
    ctx.reset()                                   # ... and given back to the driver
    free2 = ctx.get_memory_info().free
    assert free2 >= free1 + (1 << 28) - (64 << 20)
    ctx.deallocations.clear()
    d = cuda.to_device(np.arange(5))
    cuda.close()                                  # numjit keeps arrays and kernels usable
    np.testing.assert_array_equal(d.copy_to_host(), np.arange(5))
    assert cuda.current_context(0).device.id == 0


def test_defer_cleanup():
    ctx = cuda.current_context()
    ctx.reset()
    free0 = ctx.get_memory_info().free
    with cuda.defer_cleanup():
        a = cuda.device_array(1 << 28, np.uint8)
        a.copy_to_device(np.zeros(1 << 28, np.uint8))
        del a                                     # held back, not reused inside the block
        b = cuda.device_array(1 << 28, np.uint8)
        assert ctx.get_memory_info().free <= free0 - 2 * (1 << 28) + (64 << 20)
        del b
    ctx.reset()
    assert ctx.get_memory_info().free >= free0 - (64 << 20)


# ---- device arrays ------------------------------------------------------------------------------

def test_device_array_copies():
    h = rng.standard_normal((64, 48))
    d = cuda.to_device(h)
    out = np.empty_like(h)
    r = d.copy_to_host(out)
    assert r is out
    np.testing.assert_array_equal(out, h)
    d2 = cuda.device_array_like(h)
    d2.copy_to_device(d)                          # device to device
    np.testing.assert_array_equal(d2.copy_to_host(), h)
    np.testing.assert_array_equal(np.asarray(d2), h)
    np.testing.assert_array_equal(np.asarray(d2, dtype=np.float32), h.astype(np.float32))
    assert len(d) == 64 and d.size == h.size and d.nbytes == h.nbytes and d.shape == h.shape
    assert d.dtype == h.dtype and d.is_c_contiguous()
    with pytest.raises(ValueError):
        d.copy_to_host(np.empty((48, 64)))


def test_device_array_indexing():
    h = np.arange(100, dtype=np.int64).reshape(10, 10)
    d = cuda.to_device(h)
    v = d[3, 4]
    assert v == 34 and isinstance(v, np.integer)
    assert d[-1, -1] == 99
    assert d.getitem((2, 2)) == 22
    np.testing.assert_array_equal(d[2].copy_to_host(), h[2])
    np.testing.assert_array_equal(d[1:7:2, ::3].copy_to_host(), h[1:7:2, ::3])
    np.testing.assert_array_equal(d[:, 5].copy_to_host(), h[:, 5])
    d[0, 0] = -1
    d[9] = np.arange(10) * 7
    d[4:6, 2:4] = 0                               # strided: the elements between stay
    d.setitem((8, 8), 123)
    want = h.copy()
    want[0, 0] = -1
    want[9] = np.arange(10) * 7
    want[4:6, 2:4] = 0
    want[8, 8] = 123
    buf = np.full((10, 10), -1, np.int64)
    d[:, 3].copy_to_host(buf[:, 3])               # into a strided host view: the rest stays
    np.testing.assert_array_equal(buf[:, 3], want[:, 3])
    assert (np.delete(buf, 3, axis=1) == -1).all()
    np.testing.assert_array_equal(d.copy_to_host(), want)


def test_transpose_view_split():
    h = rng.standard_normal((33, 70)).astype(np.float32)
    d = cuda.to_device(h)
    t = d.T
    assert t.shape == (70, 33) and not t.is_c_contiguous() and t.is_f_contiguous()
    np.testing.assert_array_equal(t.copy_to_host(), h.T)
    np.testing.assert_array_equal(np.asarray(d.transpose()), h.T)
    out = cuda.device_array((70, 33), np.float32)
    K.copy2d[(5, 3), (16, 16)](t, out)            # a kernel reads the strided view
    np.testing.assert_array_equal(out.copy_to_host(), h.T)
    x = np.arange(1000, dtype=np.float64)
    dx = cuda.to_device(x)
    parts = list(dx.split(300))
    assert [p.shape[0] for p in parts] == [300, 300, 300, 100]
    for k, p in enumerate(parts):
        np.testing.assert_array_equal(p.copy_to_host(), x[300 * k:300 * (k + 1)])
    parts[1][0] = -5.0
    assert dx[300] == -5.0
    bits = dx.view(np.int64)
    np.testing.assert_array_equal(bits.copy_to_host(), dx.copy_to_host().view(np.int64))


# ---- cuda.const.array_like ----------------------------------------------------------------------

def test_const_array_like_diagnostic(tmp_path):
    src = tmp_path / "nj_const_gpu.py"
    src.write_text(
        "import numpy as np\nfrom numba import cuda\nT = np.arange(8.0)\n\n@cuda.jit\n"
        "def k(out):\n    t = cuda.const.array_like(T)\n    out[0] = t[0]\n")
    mod = numjit.load_numba_module(str(src))
    with pytest.raises(TypingError) as info:
        mod.k[1, 1](np.zeros(1))
    assert "nj_const_gpu.py:7:" in str(info.value)
    assert "cuda.const.array_like() is not supported" in str(info.value)


# ---- reduce of GPU ufuncs -----------------------------------------------------------------------

def numba_order_reduce(f, a):
    """numba-cuda's reduce, on the host with NumPy: pairwise halving in place, the odd last
    element folded into the reduced even part."""
    a = np.array(a)

    def rec(m):
        n = m.shape[0]
        if n % 2:
            out = rec(m[:n - 1])
            out[:] = f(out, m[n - 1:])
            return out
        left, right = m[:n // 2], m[n // 2:]
        left[:] = f(left, right)
        return rec(left) if n // 2 > 1 else left
    return rec(a)[0] if a.shape[0] > 1 else a[0]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 1000, 4097, (1 << 20) + 3])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_reduce_sum_float(n, dtype):
    x = rng.standard_normal(n).astype(dtype)
    got = K.gadd.reduce(x)
    assert np.asarray(got).dtype == dtype
    assert got == numba_order_reduce(np.add, x)          # the same additions, bit for bit
    tol = 1e-4 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(got, x.astype(np.float64).sum(), rtol=tol, atol=tol * np.sqrt(n))


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_reduce_sum_int_and_device_input(dtype):
    x = rng.integers(-1000, 1000, 123_457).astype(dtype)
    assert K.gadd.reduce(x) == x.sum(dtype=dtype)
    dx = cuda.to_device(x)
    s = cuda.stream()
    assert K.gadd.reduce(dx, stream=s) == x.sum(dtype=dtype)
    np.testing.assert_array_equal(dx.copy_to_host(), x)   # the caller's array is untouched


def test_reduce_max_and_views():
    x = rng.standard_normal(100_001)
    assert K.gmax.reduce(x) == x.max()
    assert K.gmax.reduce(x[::3]) == x[::3].max()          # a strided host view
    dx = cuda.to_device(x)
    assert K.gmax.reduce(dx[::2]) == x[::2].max()         # a strided device view
    assert K.gmax.reduce(np.arange(10, dtype=np.int64)) == 9
    with pytest.raises(TypeError):
        K.gneg.reduce(x)
    with pytest.raises(ValueError):
        K.gadd.reduce(np.ones((4, 4)))
