"""numba-cuda's host API in numjit.cuda without a GPU: the names a numba-cuda program calls
exist with numba-cuda's signatures, those that need a device fail with a clear
UnsupportedError, and those that can work without one (the device list, pinned_array,
pinned/mapped/defer_cleanup as context managers, close) do.  Device arrays' pure-Python
parts (views, transposes, split, view) are checked over a fake device pointer: nothing is
dereferenced.  cuda.const.array_like is a located error.  tests/gpu/test_cuda_api.py runs
the same API on a GPU."""
import inspect

import numpy as np
import pytest

import numjit
from numjit import cuda
from numjit.errors import TypingError, UnsupportedError

NO_GPU = not cuda.is_available()
need_no_gpu = pytest.mark.skipif(not NO_GPU, reason="this machine has a GPU (tests/gpu covers it)")


def test_names_and_signatures():
    for name in ["event", "event_elapsed_time", "pinned", "mapped", "pinned_array",
                 "mapped_array", "gpus", "current_context", "close", "defer_cleanup",
                 "get_current_device", "select_device", "synchronize", "stream"]:
        assert hasattr(cuda, name), name
        assert name in cuda.__all__, name
    assert list(inspect.signature(cuda.event).parameters) == ["timing"]
    assert inspect.signature(cuda.event).parameters["timing"].default is True
    assert list(inspect.signature(cuda.event_elapsed_time).parameters) == ["evtstart", "evtend"]
    for m in ["record", "synchronize", "wait", "query", "elapsed_time"]:
        assert callable(getattr(cuda.Event, m)), m
    assert inspect.signature(cuda.Event.record).parameters["stream"].default == 0
    assert inspect.signature(cuda.Event.wait).parameters["stream"].default == 0
    for m in ["copy_to_host", "copy_to_device", "getitem", "setitem", "split", "transpose",
              "is_c_contiguous", "is_f_contiguous", "reshape", "ravel", "view", "__array__",
              "__len__"]:
        assert callable(getattr(cuda.DeviceNDArray, m)), m
    assert isinstance(cuda.DeviceNDArray.T, property)
    assert cuda.MemoryInfo(1, 2).total == 2


@need_no_gpu
def test_device_calls_fail_clearly():
    for f in [lambda: cuda.event(), lambda: cuda.event(timing=False),
              lambda: cuda.current_context(), lambda: cuda.get_current_device(),
              lambda: cuda.device_array(4)]:
        with pytest.raises(UnsupportedError) as info:
            f()
        assert "CUDA" in str(info.value) or "driver" in str(info.value)
    with pytest.raises(UnsupportedError):
        with cuda.mapped(np.zeros(4)):
            pass


@need_no_gpu
def test_device_list_without_a_device():
    assert len(cuda.gpus) == 0
    assert list(cuda.gpus) == []
    assert cuda.gpus.current is None
    with pytest.raises(IndexError):
        cuda.gpus[0]


@need_no_gpu
def test_host_side_without_a_device():
    a = cuda.pinned_array((3, 4), dtype=np.float32)
    assert isinstance(a, np.ndarray) and a.shape == (3, 4) and a.dtype == np.float32
    f = cuda.pinned_array(5, order="F")
    assert f.shape == (5,) and f.dtype == np.float64
    m = cuda.mapped_array((2, 2), dtype=np.int32)
    assert m.shape == (2, 2)
    x = np.arange(10.0)
    with cuda.pinned(x, a):
        x += 1
    with cuda.pinned():
        pass
    assert x[0] == 1.0
    with cuda.defer_cleanup():
        with cuda.defer_cleanup():
            pass
    cuda.close()


def test_defer_cleanup_releases_on_error():
    with pytest.raises(RuntimeError):
        with cuda.defer_cleanup():
            raise RuntimeError("inside")
    # the depth is back to 0: one more level enters at 1
    from numjit import _cuda
    assert _cuda.defer(True) == 1
    assert _cuda.defer(False) == 0


def test_event_elapsed_time_needs_events():
    with pytest.raises(TypeError):
        cuda.event_elapsed_time(1, 2)


def _fake(shape, dtype=np.float32, strides=None):
    """A DeviceNDArray over a made-up device address (never dereferenced here)."""
    return cuda.DeviceNDArray(shape, strides, dtype, 0, 1 << 40)


def test_device_array_views_without_a_device():
    d = _fake((3, 4))
    assert d.shape == (3, 4) and d.size == 12 and d.nbytes == 48 and len(d) == 3
    assert d.dtype == np.float32 and d.is_c_contiguous() and not d.is_f_contiguous()
    t = d.T
    assert t.shape == (4, 3) and t.strides == (4, 16) and t.is_f_contiguous()
    assert t.device_pointer == d.device_pointer
    assert d.transpose((0, 1)) is d
    assert d.transpose((1, 0)).shape == (4, 3)
    with pytest.raises(ValueError):
        d.transpose((0, 0))
    e = _fake((2, 3, 4), np.float64)
    assert e.T.shape == (4, 3, 2) and e.T.strides == (8, 32, 96)
    assert e.transpose((1, 0, 2)).strides == (32, 96, 8)
    row = d[1]
    assert row.shape == (4,) and row.device_pointer == d.device_pointer + 16
    col = d[:, 2]
    assert col.shape == (3,) and col.strides == (16,)


def test_split_and_view_without_a_device():
    d = _fake(10, np.float64)
    parts = list(d.split(4))
    assert [p.shape for p in parts] == [(4,), (4,), (2,)]
    assert [p.device_pointer - d.device_pointer for p in parts] == [0, 32, 64]
    fat, thin = d.split(9)
    assert fat.shape == (9,) and thin.shape == (1,)
    with pytest.raises(ValueError):
        list(_fake((2, 2)).split(1))
    with pytest.raises(ValueError):
        list(d[::2].split(1))
    v = d.view(np.int64)
    assert v.dtype == np.int64 and v.shape == (10,)
    w = d.view(np.float32)
    assert w.shape == (20,) and w.strides == (4,)
    assert d.device_ctypes_pointer.value == d.device_pointer


def test_const_array_like_is_a_located_error(make_module):
    mod = make_module("nj_const_array_like", """
        import numpy as np
        from numjit import cuda

        TABLE = np.arange(16, dtype=np.float32)

        @cuda.jit
        def lookup(out):
            t = cuda.const.array_like(TABLE)
            i = cuda.grid(1)
            if i < out.size:
                out[i] = t[i]
        """)
    with pytest.raises(TypingError) as info:
        mod.lookup.inspect_ptx("void(float32[:])")
    msg = str(info.value)
    assert "nj_const_array_like.py:9:" in msg
    assert "cuda.const.array_like() is not supported" in msg
    assert "argument" in msg and "cuda.to_device" in msg


def test_gpu_ufunc_reduce_checks():
    def add(a, b):
        return a + b

    def neg(a):
        return -a
    gadd = numjit.vectorize(["float32(float32, float32)"], target="cuda")(add)
    gneg = numjit.vectorize(["float32(float32)"], target="cuda")(neg)
    assert callable(gadd.reduce)
    with pytest.raises(TypeError, match="binary ufunc"):
        gneg.reduce(np.ones(4, np.float32))
    with pytest.raises(ValueError, match="1-d"):
        gadd.reduce(np.ones((2, 2), np.float32))
    with pytest.raises(TypeError, match="empty"):
        gadd.reduce(np.ones(0, np.float32))
    assert gadd.reduce(np.array([2.5], np.float32)) == 2.5  # one element: no device needed
    if NO_GPU:
        with pytest.raises(UnsupportedError):
            gadd.reduce(np.ones(8, np.float32))


# ---- DeviceNDArray's copies over a fake device: host memory standing in for the GPU's --------

class FakeDevice:
    """Device memory simulated in a host buffer: htod/dtoh/dtod of numjit._cuda replaced by
    memmoves, so that the byte ranges DeviceNDArray copies (and the bytes it must leave alone)
    are checked without a GPU."""

    def __init__(self, nbytes=1 << 16):
        import ctypes
        self.ct = ctypes
        self.mem = np.full(nbytes, 0xEE, np.uint8)
        self.base = self.mem.__array_interface__["data"][0]
        self.top = 256

    def alloc(self, host):
        """A device array holding a copy of `host` (C order), at a fresh address."""
        host = np.ascontiguousarray(host)
        p = self.base + self.top
        self.top += (host.nbytes + 255) // 256 * 256
        self.ct.memmove(p, host.ctypes.data, host.nbytes)
        return cuda.DeviceNDArray(host.shape, None, host.dtype, 0, p)

    def host_of(self, d):
        """What the device holds for d, read straight from the fake memory."""
        raw = self.mem[d.device_pointer - self.base + d._lo:][:max(d._nbytes_span, 1)]
        return np.ndarray(d.shape, d.dtype, raw, -d._lo, d.strides).copy()

    def install(self, monkeypatch):
        from numjit import _cuda
        ct = self.ct

        def addr(obj, lo):
            return np.asarray(obj).__array_interface__["data"][0] + lo

        monkeypatch.setattr(_cuda, "htod", lambda dp, obj, lo, n, s: ct.memmove(dp, addr(obj, lo), n))
        monkeypatch.setattr(_cuda, "dtoh", lambda dp, obj, lo, n, s: ct.memmove(addr(obj, lo), dp, n))
        monkeypatch.setattr(_cuda, "dtod", lambda dst, src, n, s: ct.memmove(dst, src, n))
        monkeypatch.setattr(_cuda, "stream_sync", lambda h: None)


@pytest.fixture
def fake(monkeypatch):
    f = FakeDevice()
    f.install(monkeypatch)
    return f


def test_fake_copies_and_indexing(fake):
    h = np.arange(100, dtype=np.int64).reshape(10, 10)
    d = fake.alloc(h)
    np.testing.assert_array_equal(d.copy_to_host(), h)
    np.testing.assert_array_equal(np.asarray(d), h)
    assert d[3, 4] == 34 and d[-1, -1] == 99 and d.getitem((2, 2)) == 22
    np.testing.assert_array_equal(d[1:7:2, ::3].copy_to_host(), h[1:7:2, ::3])
    np.testing.assert_array_equal(d.T.copy_to_host(), h.T)
    want = h.copy()
    d[0, 0] = -1
    want[0, 0] = -1
    d[9] = np.arange(10) * 7
    want[9] = np.arange(10) * 7
    d[4:6, 2:4] = 0                      # a strided view: the elements between stay
    want[4:6, 2:4] = 0
    d[::3, 1] = np.array([5, 6, 7, 8])
    want[::3, 1] = [5, 6, 7, 8]
    d.T[2, 7] = 1000
    want.T[2, 7] = 1000
    d.setitem((8, 8), 123)
    want[8, 8] = 123
    np.testing.assert_array_equal(fake.host_of(d), want)
    np.testing.assert_array_equal(d.copy_to_host(), want)


def test_fake_copy_to_host_into_strided_views(fake):
    h = np.arange(40, dtype=np.float64)
    d = fake.alloc(h)
    out = np.full(40, -1.0)
    d[::2].copy_to_host(out[::2])        # the odd elements of `out` are not the device's to write
    want = np.full(40, -1.0)
    want[::2] = h[::2]
    np.testing.assert_array_equal(out, want)
    whole = np.empty(40)
    assert d.copy_to_host(whole) is whole
    np.testing.assert_array_equal(whole, h)


def test_fake_device_to_device_views(fake):
    a = fake.alloc(np.arange(20, dtype=np.float32))
    b = fake.alloc(np.zeros(20, np.float32))
    b[::2].copy_to_device(a[::2])        # strided device to device: b's odd elements stay 0
    want = np.zeros(20, np.float32)
    want[::2] = np.arange(0, 20, 2)
    np.testing.assert_array_equal(fake.host_of(b), want)
    c = fake.alloc(np.zeros(20, np.float32))
    c.copy_to_device(a)
    np.testing.assert_array_equal(fake.host_of(c), np.arange(20, dtype=np.float32))
    parts = list(c.split(6))
    assert [p.size for p in parts] == [6, 6, 6, 2]
    parts[3][1] = 99.0
    assert c[19] == 99.0


def test_gufunc_without_outputs_refused_on_cuda():
    """A layout without '->' (nout 0: the kernel writes into an argument) runs on the CPU
    targets; on target 'cuda' it is refused at decoration with a message, not a ValueError
    of unpacking."""
    with pytest.raises(UnsupportedError, match="without outputs.*'cuda'"):
        numjit.guvectorize(["void(float64[:], float64[:])"], "(n),(n)",
                           target="cuda")(lambda a, out: None)
