"""DLPack's capsule protocol (numjit.dlpack), checked on the CPU: an export read back by the
consumer side gives the same shape, strides, dtype and address; the producer stays alive until
the consumer lets go, and an unconsumed capsule releases its tensor when collected.  The GPU
exchange with PyTorch and CuPy is tests/gpu/test_dlpack_gpu.py."""
import gc

import numpy as np
import pytest

from numjit import dlpack


class FakeDeviceArray:
    """What export() reads of a DeviceNDArray: shape, strides (bytes), dtype, device_pointer."""

    def __init__(self, host):
        self.host = host
        self.shape, self.strides, self.dtype = host.shape, host.strides, host.dtype
        self.device_pointer = host.ctypes.data

    def __dlpack_device__(self):
        return (dlpack.KDL_CUDA, 0)

    def __dlpack__(self, stream=None):
        self.stream_seen = stream
        return dlpack.export(self, 0, stream, wait=lambda s: setattr(self, "waited", s))


def made(shape, strides, dtype, ptr, owner):
    return dict(shape=shape, strides=strides, dtype=dtype, ptr=ptr, owner=owner)


@pytest.mark.parametrize("dtype", ["f8", "f4", "i4", "u1", "c16", "?", "i8"])
def test_round_trip(dtype):
    host = np.arange(24).astype(dtype).reshape(4, 6)[:, ::2]  # strided view
    src = FakeDeviceArray(host)
    got = dlpack.consume(src, made)
    assert got["shape"] == host.shape and got["strides"] == host.strides
    assert got["dtype"] == host.dtype and got["ptr"] == host.ctypes.data
    assert src.stream_seen == 1 and src.waited == 1  # the legacy default stream
    assert len(dlpack._exported) == 1  # the producer is held while the view lives
    del got
    gc.collect()
    assert not dlpack._exported


def test_unconsumed_capsule_releases():
    src = FakeDeviceArray(np.zeros(3))
    cap = src.__dlpack__()
    assert len(dlpack._exported) == 1
    del cap
    gc.collect()
    assert not dlpack._exported


def test_no_wait_without_stream():
    src = FakeDeviceArray(np.zeros(3))
    cap = src.__dlpack__(stream=None)
    assert not hasattr(src, "waited")
    del cap


def test_cpu_producer_refused():
    with pytest.raises(BufferError, match="not a CUDA device"):
        dlpack.consume(np.zeros(3), made)


def test_unsupported_dtype_refused():
    src = FakeDeviceArray(np.zeros(3, dtype=">f8"))
    with pytest.raises(BufferError, match="cannot describe the dtype"):
        src.__dlpack__()
    src = FakeDeviceArray(np.zeros(3, dtype="M8[s]"))
    with pytest.raises(BufferError, match="cannot describe the dtype"):
        src.__dlpack__()


def test_not_a_producer():
    with pytest.raises(TypeError, match="has no __dlpack__"):
        dlpack.consume(3, made)
