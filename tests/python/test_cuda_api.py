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
