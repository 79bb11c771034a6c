"""GPU: numba.cuda.random under numjit — a Monte Carlo estimate of pi with one xoroshiro128+
generator per thread.  Each thread's count must equal the one computed on the host from the
same states (the library's functions compiled for the CPU), and, where numba-cuda is
installed, numba-cuda's own result for the same seed, bit for bit.  Skipped without a GPU.

Run: PYTHONPATH=build/python python3 -m pytest -v tests/gpu/test_gpu_random.py
"""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import numjit
from numjit import cuda
from numjit.cuda import random as njr

if not cuda.is_available():
    pytest.skip("no CUDA driver or device", allow_module_level=True)

RUN = textwrap.dedent('''
    import sys, numpy as np
    np.row_stack = np.vstack
    import importlib.util
    spec = importlib.util.spec_from_file_location("m", sys.argv[1])
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
    states = m.create_xoroshiro128p_states(256 * 4, seed=1)
    out = np.zeros(256 * 4, dtype=np.float32)
    m.compute_pi[4, 256](states, 500, out)
    np.save(sys.argv[2], out)
''')


HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "mc_pi.py")


@pytest.fixture(scope="module")
def prog():
    return PROGRAM, numjit.load_numba_module(PROGRAM, "nj_mc_pi")


def test_monte_carlo_pi_matches_host(prog):
    _, m = prog
    threads, blocks, iters = 256, 4, 500
    n = threads * blocks
    states = m.create_xoroshiro128p_states(n, seed=1)
    host = states.copy_to_host()
    out = np.zeros(n, dtype=np.float32)
    m.compute_pi[blocks, threads](states, iters, out)
    assert abs(out.mean() - np.pi) < 0.02
    for t in (0, 1, 255, 256, n - 1):
        inside = 0
        for _ in range(iters):
            x = njr.xoroshiro128p_uniform_float32(host, t)
            y = njr.xoroshiro128p_uniform_float32(host, t)
            inside += np.float32(x) ** 2 + np.float32(y) ** 2 <= 1.0
        assert out[t] == np.float32(4.0 * inside / iters), t
    after = states.copy_to_host()          # the kernel advanced every generator in place
    assert np.array_equal(after[[0, 1, 255, 256, n - 1]], host[[0, 1, 255, 256, n - 1]])
    z = np.zeros(n, dtype=np.float32)
    m.normals_kernel[blocks, threads](states, z)
    assert abs(z.mean()) < 0.15 and abs(z.std() - 1.0) < 0.1


def test_same_as_numba_cuda(prog, tmp_path):
    path, m = prog
    runner = tmp_path / "run.py"
    runner.write_text(RUN)
    ref = tmp_path / "ref.npy"
    r = subprocess.run([sys.executable, str(runner), str(path), str(ref)], capture_output=True,
                       text=True, env=dict(os.environ, PYTHONPATH=""))
    if r.returncode != 0:   # no numba-cuda in this interpreter, or it could not run
        pytest.skip("numba-cuda could not run: " + r.stderr[-300:])
    want = np.load(ref)
    states = m.create_xoroshiro128p_states(256 * 4, seed=1)
    got = np.zeros(256 * 4, dtype=np.float32)
    m.compute_pi[4, 256](states, 500, got)
    assert np.array_equal(got, want)
