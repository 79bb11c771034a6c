"""GPU suite for explicit kernels from Python: tests/gpu/kernels.py (unchanged numba-cuda
source, imported with sys.modules['numba'] = numjit) launched through numjit.cuda and checked
against NumPy; device arrays, streams, __cuda_array_interface__ interop with CuPy and PyTorch
(each skipped when not importable), and the same kernels under numba-cuda as a differential
oracle (skipped when numba-cuda is not installed).  The whole module is skipped without a
CUDA driver or device.

Run: PYTHONPATH=build/python python3 -m pytest -v tests/gpu/test_kernels.py
Every check prints PASS/FAIL lines through pytest's own report; timings print as INFO.
"""
import math
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import numjit
from numjit import cuda

if not cuda.is_available():
    pytest.skip("no CUDA driver or device", allow_module_level=True)

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(1234)


K = numjit.load_numba_module(os.path.join(HERE, "kernels.py"), "nj_gpu_kernels")


def test_kernel_objects():
    assert isinstance(K.axpy, cuda.Kernel)
    assert isinstance(K.clamp, cuda.DeviceFunction)
    assert K.sig_copy.signatures == ["void(float32[:], float32[:])"]
    dev = cuda.get_current_device()
    print("INFO device:", dev.name, dev.compute_capability)


def test_axpy_host_arrays():
    n = 100_003
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    want = np.float32(2.5) * x + y
    K.axpy[(n + 255) // 256, 256](np.float32(2.5), x, y)
    # a*x + y is one fused multiply-add on the GPU (as numba-cuda compiles it): within an ulp
    # of float32 of the unfused NumPy result, absolute where terms cancel
    np.testing.assert_allclose(y, want, rtol=1e-6, atol=1e-6)


def test_axpy_strided_and_readonly_views():
    n = 10_001
    x = rng.standard_normal(n).astype(np.float32)
    y = np.zeros(n, np.float32)
    xv, yv = x[::-2], y[::-2]
    K.axpy[(len(xv) + 127) // 128, 128](np.float32(1.0), xv, yv)
    want = np.zeros(n, np.float32)
    want[::-2] = x[::-2]
    np.testing.assert_array_equal(y, want)
    ro = x.copy()
    ro.flags.writeable = False
    out = np.zeros(n, np.float32)
    K.axpy[(n + 127) // 128, 128](np.float32(1.0), ro, out)   # read-only input is fine
    np.testing.assert_array_equal(out, x)


def test_add2d_device_arrays_and_stream():
    a = rng.standard_normal((300, 517))
    b = rng.standard_normal((300, 517))
    s = cuda.stream()
    da, db = cuda.to_device(a, stream=s), cuda.to_device(b, stream=s)
    dout = cuda.device_array_like(a)
    K.add2d[((300 + 15) // 16, (517 + 15) // 16), (16, 16), s](da, db, dout)
    out = dout.copy_to_host(stream=s)
    s.synchronize()
    np.testing.assert_array_equal(out, a + 2 * b)
    assert dout.shape == (300, 517) and dout.dtype == np.float64 and dout.size == 300 * 517
    assert dout.ndim == 2 and dout.nbytes == a.nbytes


def test_grid_stride_loop():
    x = rng.standard_normal(1 << 20)
    out = np.zeros_like(x)
    K.scale_stride[7, 96](x, out, -1.5)
    np.testing.assert_array_equal(out, x * -1.5)


def test_tiled_matmul():
    TPB = K.TPB
    A = rng.standard_normal((96, 80)).astype(np.float32)
    B = rng.standard_normal((80, 112)).astype(np.float32)
    C = np.zeros((96, 112), np.float32)
    g = (max(A.shape + B.shape) + TPB - 1) // TPB
    K.matmul[(g, g), (TPB, TPB)](A, B, C)
    np.testing.assert_allclose(C, A.astype(np.float64) @ B, rtol=1e-4, atol=1e-4)


def test_block_reduction():
    n = 128 * 50 + 17
    x = ((np.arange(n) % 7) - 3).astype(np.float32)
    nb = (n + 127) // 128
    out = np.zeros(nb, np.float32)
    K.block_sum[nb, 128](x, out)
    want = np.add.reduceat(x, np.arange(0, n, 128))
    np.testing.assert_array_equal(out, want)


def test_atomic_histogram():
    x = rng.integers(0, 256, 200_000).astype(np.uint8)
    bins = np.zeros(256, np.int32)
    K.histogram[(len(x) + 255) // 256, 256](x, bins)
    np.testing.assert_array_equal(bins, np.bincount(x, minlength=256))


def test_atomic_minmax():
    x = rng.standard_normal(50_000) * 1000
    out = np.array([-1e300, 1e300])
    K.atomic_minmax[(len(x) + 255) // 256, 256](x, out)
    assert out[0] == x.max() and out[1] == x.min()


def test_device_functions():
    x = rng.standard_normal(4099) * 4
    out = np.zeros_like(x)
    K.apply_dev[(len(x) + 127) // 128, 128](x, out)
    np.testing.assert_allclose(out, np.clip(1.0 + x * (0.5 + x * 0.25), -2, 2), rtol=1e-15)


def test_local_array():
    x = rng.standard_normal((1000, 4))
    out = np.zeros_like(x)
    K.local_rev[(1000 + 63) // 64, 64](x, out)
    np.testing.assert_array_equal(out, x[:, ::-1])


def test_fastmath_float32():
    x = np.linspace(0.01, 2, 1000, dtype=np.float32)
    out = np.zeros_like(x)
    K.fast_f32[8, 128](x, out)
    want = np.sin(x) * np.exp(x) + np.sqrt(x)
    np.testing.assert_allclose(out, want, rtol=1e-4)


def test_libdevice_float64():
    x = rng.standard_normal(4099) * 4
    out = np.zeros_like(x)
    K.trig64[(len(x) + 127) // 128, 128](x, out)
    np.testing.assert_allclose(out, np.sin(x) ** 2 + np.cos(x) ** 2 - 1 + np.tanh(x),
                               rtol=1e-14, atol=1e-15)


def test_explicit_signature():
    x = np.arange(300, dtype=np.float32) * 0.5
    out = np.zeros_like(x)
    K.sig_copy[3, 128](x, out)
    np.testing.assert_array_equal(out, x)
    with pytest.raises(TypeError, match="no declared signature"):
        K.sig_copy[1, 32](np.zeros(4), np.zeros(4))


def test_scalar_kinds():
    out = np.zeros(257)
    K.scalars[3, 128](out, 3, 0.25, True)
    np.testing.assert_array_equal(out, -(np.arange(257) * 3 + 0.25))
    K.scalars[3, 128](out, np.int32(2), np.float32(0.5), np.bool_(False))
    np.testing.assert_array_equal(out, np.arange(257) * 2 + 0.5)


def test_3d_grid():
    out = np.zeros((5, 9, 33), np.int64)
    K.idx3d[((33 + 7) // 8, (9 + 3) // 4, (5 + 1) // 2), (8, 4, 2)](out)
    np.testing.assert_array_equal(out.ravel(), np.arange(out.size))


def test_device_array_api():
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    d = cuda.to_device(a)
    np.testing.assert_array_equal(d.copy_to_host(), a)
    cai = d.__cuda_array_interface__
    assert cai["version"] == 3 and cai["shape"] == (4, 6) and cai["typestr"] == "<f4"
    assert cai["data"][0] == d.device_pointer and cai["strides"] is None
    np.testing.assert_array_equal(d[1].copy_to_host(), a[1])
    np.testing.assert_array_equal(d[:, 2:5].copy_to_host(), a[:, 2:5])
    assert d[2, 3] == a[2, 3]
    d[0] = 7
    host = np.empty_like(a)
    d.copy_to_host(host)
    assert (host[0] == 7).all() and (host[1:] == a[1:]).all()
    e = cuda.device_array((3, 5), dtype=np.int32)
    e.copy_to_device(np.full((3, 5), 4, np.int32))
    assert (e.copy_to_host() == 4).all()
    f = cuda.device_array_like(np.asfortranarray(a))
    assert f.is_f_contiguous() and not f.is_c_contiguous()
    r = d.reshape(24)
    np.testing.assert_array_equal(r.copy_to_host(), host.ravel())  # d[0] = 7 above
    cuda.synchronize()


def test_launch_errors():
    x = np.zeros(4, np.float32)
    with pytest.raises(Exception, match="axpy"):
        K.axpy[1, 4096](np.float32(1), x, x)     # too many threads: an error, not a crash
    with pytest.raises(TypeError):
        K.axpy[1, 32](np.float32(1), x)           # wrong argument count
    with pytest.raises(ValueError):
        K.axpy(np.float32(1), x, x)              # no launch configuration


def test_launch_overhead():
    dx, dy = cuda.device_array(4, np.float32), cuda.device_array(4, np.float32)
    launch = K.axpy[1, 32]
    launch(np.float32(1), dx, dy)
    cuda.synchronize()
    reps = 3000
    t0 = time.perf_counter()
    for _ in range(reps):
        K.axpy[1, 32](np.float32(1), dx, dy)
        cuda.synchronize()
    dt = (time.perf_counter() - t0) / reps * 1e6
    print(f"INFO launch + synchronize round trip from Python: {dt:.2f} us")


def test_cupy_interop():
    cp = pytest.importorskip("cupy")
    x = cp.arange(1000, dtype=cp.float32)
    y = cp.ones(1000, dtype=cp.float32)
    K.axpy[8, 128](np.float32(2), x, y)
    cp.cuda.runtime.deviceSynchronize()
    np.testing.assert_array_equal(cp.asnumpy(y), 2 * np.arange(1000, dtype=np.float32) + 1)
    d = cuda.to_device(np.arange(10, dtype=np.float64))
    c = cp.asarray(d)                       # our __cuda_array_interface__ read by CuPy
    np.testing.assert_array_equal(cp.asnumpy(c), np.arange(10))
    s = cp.cuda.Stream(non_blocking=True)
    K.axpy[8, 128, s](np.float32(1), x, y)   # a CuPy stream (.ptr)
    s.synchronize()
    np.testing.assert_array_equal(cp.asnumpy(y), 3 * np.arange(1000, dtype=np.float32) + 1)


def test_torch_interop():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    x = torch.arange(1000, dtype=torch.float32, device="cuda")
    y = torch.ones(1000, dtype=torch.float32, device="cuda")
    K.axpy[8, 128](np.float32(2), x, y)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(y.cpu().numpy(), 2 * np.arange(1000, dtype=np.float32) + 1)
    t = torch.as_tensor(cuda.to_device(np.arange(6.0)), device="cuda")
    np.testing.assert_array_equal(t.cpu().numpy(), np.arange(6.0))


_NUMBA_SCRIPT = textwrap.dedent("""
    import sys, numpy as np
    np.row_stack = np.vstack
    sys.path.insert(0, sys.argv[1])
    import kernels as K
    from numba import cuda
    rng = np.random.default_rng(7)
    A = rng.standard_normal((64, 48)).astype(np.float32)
    B = rng.standard_normal((48, 80)).astype(np.float32)
    C = np.zeros((64, 80), np.float32)
    g = (80 + K.TPB - 1) // K.TPB
    K.matmul[(g, g), (K.TPB, K.TPB)](A, B, C)
    x = rng.standard_normal(5000) * 4
    o = np.zeros_like(x)
    K.apply_dev[40, 128](x, o)
    t = np.zeros_like(x)
    K.trig64[40, 128](x, t)
    np.savez(sys.argv[2], C=C, o=o, t=t)
""")


def test_same_as_numba_cuda(tmp_path):
    """The same file under numba-cuda (subprocess) and numjit: the same results."""
    probe = subprocess.run([sys.executable, "-c", "import numpy as np; np.row_stack = "
                            "np.vstack; import numba.cuda as c; assert c.is_available()"],
                           capture_output=True)
    if probe.returncode:
        pytest.skip("numba-cuda not importable/usable here")
    script = tmp_path / "run_numba.py"
    script.write_text(_NUMBA_SCRIPT)
    out = tmp_path / "numba.npz"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, str(script), HERE, str(out)], capture_output=True,
                       text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    ref = np.load(out)
    rng2 = np.random.default_rng(7)
    A = rng2.standard_normal((64, 48)).astype(np.float32)
    B = rng2.standard_normal((48, 80)).astype(np.float32)
    C = np.zeros((64, 80), np.float32)
    g = (80 + K.TPB - 1) // K.TPB
    K.matmul[(g, g), (K.TPB, K.TPB)](A, B, C)
    x = rng2.standard_normal(5000) * 4
    o = np.zeros_like(x)
    K.apply_dev[40, 128](x, o)
    t = np.zeros_like(x)
    K.trig64[40, 128](x, t)
    np.testing.assert_allclose(C, ref["C"], rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(o, ref["o"])
    np.testing.assert_allclose(t, ref["t"], rtol=1e-14, atol=1e-15)


def test_numba_cuda_program_runs_unchanged(tmp_path):
    """A plain numba-cuda script, run with sys.modules['numba'] = numjit."""
    prog = tmp_path / "prog.py"
    prog.write_text(textwrap.dedent("""
        import sys, numjit
        sys.modules["numba"] = numjit
        import numpy as np
        from numba import cuda

        @cuda.jit
        def increment_by_one(an_array):
            pos = cuda.grid(1)
            if pos < an_array.size:
                an_array[pos] += 1

        a = np.arange(1000.0)
        d = cuda.to_device(a)
        threadsperblock = 32
        blockspergrid = (a.size + (threadsperblock - 1)) // threadsperblock
        increment_by_one[blockspergrid, threadsperblock](d)
        assert (d.copy_to_host() == a + 1).all()
        print("OK")
    """))
    r = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True)
    assert r.returncode == 0 and "OK" in r.stdout, r.stderr
