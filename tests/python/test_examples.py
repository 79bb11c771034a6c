"""The Python examples in examples/ run to the end and their own checks pass (the GPU part of
ufuncs_and_kernels.py only where a GPU is present)."""
import os
import subprocess
import sys

import numjit

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PKG = os.path.dirname(os.path.dirname(os.path.abspath(numjit.__file__)))


def run(name, *args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in [PKG, os.environ.get("PYTHONPATH", "")] if p))
    return subprocess.run([sys.executable, os.path.join(ROOT, "examples", name), *args],
                          capture_output=True, text=True, env=env, timeout=300)


def test_rel_diff_example():
    r = run("rel_diff.py", "200000")
    assert r.returncode == 0, r.stdout + r.stderr


def test_ufuncs_and_kernels_example():
    r = run("ufuncs_and_kernels.py")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "CPU results match NumPy" in r.stdout


def test_multi_gpu_example():
    """Every GPU of the host (one where that is all): the split result equals one GPU's."""
    import pytest
    from numjit import cuda
    if not cuda.is_available():
        pytest.skip("no CUDA driver or device")
    r = run("multi_gpu.py", "--log2n", "22", "--repeat", "3", "--steps", "2")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "results equal (correct)" in r.stdout


def test_dask_multi_gpu_example():
    """One Dask worker per GPU (skips without a GPU or without Dask's distributed): every
    chunk's sums equal the one-worker run's and are right."""
    import pytest
    from numjit import cuda
    if not cuda.is_available():
        pytest.skip("no CUDA driver or device")
    pytest.importorskip("distributed")
    r = run("dask_multi_gpu.py", "--log2n", "22", "--chunks", "4", "--steps", "2",
            "--repeat", "1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "results equal (correct" in r.stdout
