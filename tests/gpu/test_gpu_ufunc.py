"""GPU suite for target='cuda' ufuncs and gufuncs from Python: tests/gpu/ufuncs.py (numba-cuda
source, imported with sys.modules['numba'] = numjit) against NumPy references — host arrays
in and out, numjit device arrays in and out, out= on the device, CuPy and PyTorch arrays
through __cuda_array_interface__ (each skipped when not importable), strided, broadcast,
misaligned and 2-D/3-D inputs, odd lengths, the exact-dtype rule for device arrays, and
gufuncs with and without shared-memory staging.  Skipped without a CUDA driver or device.

Run: PYTHONPATH=build/python python3 -m pytest -v tests/gpu/test_gpu_ufunc.py
"""
import os

import numpy as np
import pytest

import numjit
from numjit import cuda

if not cuda.is_available():
    pytest.skip("no CUDA driver or device", allow_module_level=True)

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(4321)


U = numjit.load_numba_module(os.path.join(HERE, "ufuncs.py"), "nj_gpu_ufuncs")


def rel_ref(x, y):
    return (x - y) / (x + y)


def close(a, b, dtype):
    tol = 2e-6 if np.dtype(dtype) == np.float32 else 1e-14
    np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 3, 4, 5, 17, 1000, 65537, 1 << 20])
def test_rel_host(dtype, n):
    x = rng.random(n).astype(dtype) + 0.5
    y = rng.random(n).astype(dtype) + 0.5
    r = U.rel32(x, y)
    assert isinstance(r, np.ndarray) and r.dtype == dtype and r.shape == (n,)
    close(r, rel_ref(x, y), dtype)


def test_rel_diff_w1_types():
    x = rng.random(1000).astype(np.float32) + 0.5
    y = rng.random(1000).astype(np.float32) + 0.5
    r = U.rel_diff(x, y)
    assert r.dtype == np.float32
    close(r, (2 * (x.astype(np.float64) - y) / (x.astype(np.float64) + y)).astype(np.float32),
          np.float32)


def test_strided_misaligned_broadcast():
    base = rng.random(100003) + 0.5
    x = base[1::3]          # strided and not 16-byte aligned
    y = base[2:2 + x.size]  # contiguous, misaligned
    close(U.rel32(x, y), rel_ref(x, y), np.float64)
    close(U.rel32(x, 2.0), rel_ref(x, 2.0), np.float64)       # broadcast scalar
    close(U.rel32(3.0, y), rel_ref(3.0, y), np.float64)
    close(U.rel32(x[::-1], y), rel_ref(x[::-1], y), np.float64)  # negative stride


def test_broadcast_2d_3d():
    a = rng.random((300, 1))
    b = rng.random((1, 257))
    c = rng.random(257)
    # a * b + c is one fused multiply-add on the GPU, as numba-cuda compiles it
    np.testing.assert_allclose(U.fma3(a, b, c), a * b + c, rtol=5e-16)
    a3 = rng.random((3, 40, 1))
    b3 = rng.random((1, 1, 33))
    np.testing.assert_allclose(U.fma3(a3, b3, 0.5), a3 * b3 + 0.5, rtol=5e-16)
    f = np.asfortranarray(rng.random((70, 90)))
    np.testing.assert_allclose(U.fma3(f, f, f), f * f + f, rtol=5e-16)
    e = np.empty((0, 5))
    assert U.fma3(e, e, e).shape == (0, 5)


def test_scalars_only():
    r = U.rel32(3.0, 1.0)
    assert float(r) == pytest.approx(0.5)


def test_math_and_ints():
    x = np.linspace(-40, 40, 100001)
    np.testing.assert_allclose(U.trig(x), np.sin(x) ** 2 + np.cos(x) ** 2, rtol=0, atol=1e-14)
    x32 = x.astype(np.float32)
    np.testing.assert_allclose(U.trig(x32), np.ones_like(x32), atol=1e-5)
    a = (np.arange(70001) * 37).astype(np.int8)
    b = (np.arange(70001) * 1013 - 40000).astype(np.int16)
    r = U.imix(a, b)
    assert r.dtype == np.int32
    A, B = a.astype(np.int64), b.astype(np.int64)
    np.testing.assert_array_equal(r, (A * 3 + B // 2 - A % 5).astype(np.int32))
    c = U.close(np.arange(10.0), np.arange(10.0) + np.array([0, 1e-4] * 5))
    assert c.dtype == np.bool_ and c.all()


def test_safe_cast_host_inputs():
    # int32 host arrays take the float64 loop (safe cast), converted in the kernel
    a = np.arange(1000, dtype=np.int32) + 1
    r = U.rel32(a, a * 2)
    assert r.dtype == np.float64
    close(r, rel_ref(a.astype(np.float64), a * 2.0), np.float64)


def test_device_arrays_in_and_out():
    x = rng.random(1 << 18) + 0.5
    y = rng.random(1 << 18) + 0.5
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    dr = U.rel32(dx, dy)
    assert isinstance(dr, cuda.DeviceNDArray) and dr.shape == x.shape and dr.dtype == x.dtype
    close(dr.copy_to_host(), rel_ref(x, y), np.float64)
    out = cuda.device_array_like(x)
    r2 = U.rel32(dy, dx, out=out)
    assert r2 is out
    close(out.copy_to_host(), rel_ref(y, x), np.float64)
    # a device view (strided, misaligned)
    v = dx[1::2]
    close(U.rel32(v, 2.0).copy_to_host(), rel_ref(x[1::2], 2.0), np.float64)
    # a stream
    s = cuda.stream()
    dr = U.rel32(dx, dy, stream=s)
    s.synchronize()
    close(dr.copy_to_host(), rel_ref(x, y), np.float64)


def test_device_exact_dtype():
    d = cuda.to_device(np.arange(10, dtype=np.int32))
    with pytest.raises(numjit.TypingError, match="exact"):
        U.rel32(d, d)


def test_gufunc_rowdot():
    for rows, k in [(10007, 64), (1000, 3), (1, 64), (5, 1000)]:
        a = rng.random((rows, k))
        b = rng.random((rows, k))
        r = U.rowdot(a, b)
        np.testing.assert_allclose(r, (a * b).sum(axis=1), rtol=1e-12)
    a = np.asfortranarray(rng.random((999, 64)))
    np.testing.assert_allclose(U.rowdot(a, a), (a * a).sum(axis=1), rtol=1e-12)
    a32 = rng.random((4099, 64)).astype(np.float32)
    np.testing.assert_allclose(U.rowdot(a32, a32), (a32 * a32).sum(axis=1), rtol=1e-5)
    # broadcasting an outer dimension
    a = rng.random((7, 1, 16))
    b = rng.random((1, 9, 16))
    np.testing.assert_allclose(U.rowdot(a, b), (a * b).sum(axis=-1), rtol=1e-12)


def test_gufunc_device_and_unstaged(monkeypatch):
    a = rng.random((20000, 64))
    da = cuda.to_device(a)
    dr = U.rowdot(da, da)
    assert isinstance(dr, cuda.DeviceNDArray)
    np.testing.assert_allclose(dr.copy_to_host(), (a * a).sum(axis=1), rtol=1e-12)
    monkeypatch.setenv("NUMJIT_GU_STAGE", "0")
    np.testing.assert_allclose(U.rowdot(a, a), (a * a).sum(axis=1), rtol=1e-12)


def test_gufunc_outputs():
    x = rng.random((513, 40))
    r = U.axpy_rows(x, 3.0)
    np.testing.assert_allclose(r, 3.0 * x + np.arange(40), rtol=5e-16)  # fused multiply-add
    a = rng.random((50, 4, 6)).astype(np.float32)
    b = rng.random((50, 6, 5)).astype(np.float32)
    np.testing.assert_allclose(U.matmul_core(a, b), a @ b, rtol=1e-5)


def test_cupy_interop():
    cp = pytest.importorskip("cupy")
    x = cp.random.random(100000) + 0.5
    y = cp.random.random(100000) + 0.5
    r = U.rel32(x, y)
    np.testing.assert_allclose(r.copy_to_host(), cp.asnumpy((x - y) / (x + y)), rtol=1e-14)
    out = cp.empty_like(x)
    U.rel32(x, y, out=out)
    np.testing.assert_allclose(cp.asnumpy(out), cp.asnumpy((x - y) / (x + y)), rtol=1e-14)


def test_torch_interop():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    x = torch.rand(100000, device="cuda", dtype=torch.float32) + 0.5
    y = torch.rand(100000, device="cuda", dtype=torch.float32) + 0.5
    r = U.rel32(x, y)
    np.testing.assert_allclose(r.copy_to_host(), ((x - y) / (x + y)).cpu().numpy(), rtol=2e-6)
