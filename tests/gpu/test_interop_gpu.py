"""GPU interop with PyTorch, CuPy and JAX: DLPack in both directions (numjit.cuda.from_dlpack of a
tensor or a CuPy array, torch/cupy.from_dlpack of a DeviceNDArray: one memory, no copy),
__cuda_array_interface__ views, and kernels launched on a stream CuPy or PyTorch made
(cuda.external_stream), ordered with work those libraries queue on it.  Skipped without a CUDA
device; each library's tests skip when it is not installed.

Run: PYTHONPATH=build/python python3 -m pytest -v tests/gpu/test_interop_gpu.py
"""
import numpy as np
import pytest

from numjit import cuda

if not cuda.is_available():
    pytest.skip("no CUDA driver or device", allow_module_level=True)


@cuda.jit
def add_one(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += 1


@cuda.jit
def scale(x, k, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * k


def launch(kernel, n, *args, stream=0):
    kernel[(n + 255) // 256, 256, stream](*args)


# ---- PyTorch -------------------------------------------------------------------------------

def test_dlpack_numjit_to_torch_shares_memory():
    torch = pytest.importorskip("torch")
    d = cuda.to_device(np.arange(10.0))
    t = torch.from_dlpack(d)
    assert t.device.type == "cuda" and t.dtype == torch.float64 and tuple(t.shape) == (10,)
    t += 1                                  # torch writes, numjit sees it
    torch.cuda.synchronize()
    np.testing.assert_array_equal(d.copy_to_host(), np.arange(10.0) + 1)
    launch(add_one, 10, d)                  # numjit writes, torch sees it
    cuda.synchronize()
    np.testing.assert_array_equal(t.cpu().numpy(), np.arange(10.0) + 2)


def test_dlpack_torch_to_numjit_strided_and_dtypes():
    torch = pytest.importorskip("torch")
    for dt in (torch.float32, torch.int32, torch.float64, torch.int64):
        base = torch.arange(24, device="cuda").to(dt).reshape(4, 6)
        view = base[:, ::2]
        d = cuda.from_dlpack(view)
        assert d.shape == (4, 3) and d.dtype == np.dtype(str(dt).split(".")[1])
        np.testing.assert_array_equal(d.copy_to_host(), view.cpu().numpy())
    t = torch.zeros(1000, device="cuda", dtype=torch.float32)
    d = cuda.from_dlpack(t)
    launch(add_one, 1000, d)
    cuda.synchronize()
    assert float(t.sum()) == 1000.0
    del d  # the tensor outlives the view; the deleter ran once
    t += 1
    assert float(t.sum()) == 2000.0


def test_torch_external_stream_orders_work():
    torch = pytest.importorskip("torch")
    s = torch.cuda.Stream()
    n = 1 << 20
    x = torch.ones(n, device="cuda", dtype=torch.float32)
    out = torch.empty_like(x)
    with torch.cuda.stream(s):
        x.mul_(3)                            # queued on s before our kernel
    ns = cuda.external_stream(s.cuda_stream)
    launch(scale, n, cuda.as_cuda_array(x), np.float32(2), cuda.as_cuda_array(out), stream=ns)
    s.synchronize()
    assert float(out.min()) == 6.0 and float(out.max()) == 6.0


# ---- CuPy ----------------------------------------------------------------------------------

def test_dlpack_cupy_both_ways():
    cp = pytest.importorskip("cupy")
    a = cp.arange(12, dtype=cp.float32)
    d = cuda.from_dlpack(a)
    launch(add_one, 12, d)
    cuda.synchronize()
    np.testing.assert_array_equal(cp.asnumpy(a), np.arange(12, dtype=np.float32) + 1)
    d2 = cuda.to_device(np.arange(5, dtype=np.int64))
    b = cp.from_dlpack(d2)
    assert b.dtype == cp.int64
    np.testing.assert_array_equal(cp.asnumpy(b), np.arange(5))


def test_cupy_external_stream():
    cp = pytest.importorskip("cupy")
    s = cp.cuda.Stream(non_blocking=True)
    n = 1 << 20
    with s:
        x = cp.ones(n, dtype=cp.float32) * 5
        out = cp.empty_like(x)
    launch(scale, n, x, np.float32(2), out, stream=cuda.external_stream(s.ptr))
    s.synchronize()
    assert float(out.min()) == 10.0 and float(out.max()) == 10.0


def test_cai_views_are_zero_copy():
    cp = pytest.importorskip("cupy")
    a = cp.zeros(100, dtype=cp.float64)
    d = cuda.as_cuda_array(a)
    assert d.device_pointer == a.data.ptr
    launch(add_one, 100, d)
    cuda.synchronize()
    assert float(a.sum()) == 100.0


# ---- JAX -----------------------------------------------------------------------------------

def _jax_gpu():
    jax = pytest.importorskip("jax")
    try:
        gpus = jax.devices("gpu")
    except RuntimeError:
        gpus = []
    if not gpus:
        pytest.skip("JAX has no GPU backend here")
    return jax, gpus[0]


def test_dlpack_jax_to_numjit():
    jax, dev = _jax_gpu()
    import jax.numpy as jnp
    a = jax.device_put(jnp.arange(16, dtype=jnp.float32).reshape(4, 4), dev)
    a.block_until_ready()
    d = cuda.from_dlpack(a)                 # JAX exports its buffer (read by numjit)
    assert d.shape == (4, 4) and d.dtype == np.float32
    np.testing.assert_array_equal(d.copy_to_host(), np.arange(16, dtype=np.float32).reshape(4, 4))
    out = cuda.device_array(16, dtype=np.float32)
    launch(scale, 16, d.reshape(16), np.float32(3), out)
    cuda.synchronize()
    np.testing.assert_array_equal(out.copy_to_host(), np.arange(16, dtype=np.float32) * 3)


def test_dlpack_numjit_to_jax():
    jax, dev = _jax_gpu()
    import jax.numpy as jnp
    d = cuda.to_device(np.arange(10, dtype=np.float32))
    launch(add_one, 10, d)
    cuda.synchronize()
    j = jnp.from_dlpack(d)                  # JAX imports numjit's memory
    assert j.dtype == jnp.float32 and j.shape == (10,)
    np.testing.assert_array_equal(np.asarray(j), np.arange(10, dtype=np.float32) + 1)
