"""Random numbers in compiled code: the state around the draws (tests/lang has the sequences).

np.random and random in @njit code draw from two Mersenne Twister states per thread, shared by
every compiled function of the process and seeded from the system's entropy on first use.
Here: threads calling a nogil=True function at the same time neither crash nor share a
state; a seed in one thread leaves the others alone; unseeded processes differ; a function
from the on-disk cache links to the runtime's generators in a fresh process; `numjit obj`
refuses random numbers and CUDA kernels point to numba.cuda.random, both with a location.
"""
import json
import os
import pathlib
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import numjit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(ROOT, os.environ.get("NUMJIT_BUILD", "build"))

MODULE = """
import random
import numpy as np
from numjit import njit


@njit(nogil=True)
def total(n):
    s = 0.0
    for i in range(n):
        s += np.random.random() + random.random() + np.random.normal(0.0, 1.0) * 0.0
    return s


@njit(nogil=True)
def seeded(seed, n):
    np.random.seed(seed)
    out = np.empty(n)
    for i in range(n):
        out[i] = np.random.random()
    return out


@njit(cache=True)
def cached_draws(seed):
    np.random.seed(seed)
    random.seed(seed)
    return np.random.normal(0.0, 1.0, size=4), random.randint(1, 100)


@njit
def unseeded():
    return np.random.random(3)
"""


@pytest.fixture
def mod(make_module):
    return make_module("randmod", MODULE)


def test_threads_draw_without_crashing(mod):
    n = 200000
    results, errors = [], []

    def work():
        try:
            for _ in range(3):
                results.append(mod.total(n))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(results) == 12
    for r in results:
        assert 0.8 * n < r < 1.2 * n  # two uniforms of mean 0.5 per step


def test_each_thread_has_its_own_state(mod):
    want = mod.seeded(7, 1000)
    got = [None] * 4

    def work(k):
        for _ in range(20):
            got[k] = mod.seeded(7, 1000)  # seeds and draws in this thread only

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for g in got:
        assert np.array_equal(g, want)
    # the main thread's state went on from its own seed, untouched by the threads
    np.testing.assert_array_equal(mod.seeded(7, 1000), want)


def _package_path():
    return str(pathlib.Path(numjit.__file__).resolve().parent.parent)


def _run(src, env, code):
    p = subprocess.run([sys.executable, "-c", code], cwd=src, env=env, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return p


def test_unseeded_processes_differ_and_cached_code_links(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "randmod2.py").write_text(textwrap.dedent(MODULE))
    env = dict(os.environ)
    env["NUMJIT_CACHE_DIR"] = str(tmp_path / "cache")
    env["NUMJIT_CACHE_DEBUG"] = "1"
    env.pop("NUMJIT_CACHE", None)
    env["PYTHONPATH"] = _package_path() + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    code = ("import json, randmod2 as m\n"
            "u = m.unseeded().tolist()\n"   # before any seed
            "a, k = m.cached_draws(5)\n"
            "print(json.dumps([a.tolist(), k, u]))\n")
    first = _run(src, env, code)
    second = _run(src, env, code)
    assert "stored" in first.stderr
    assert "hit" in second.stderr, second.stderr
    a1, a2 = json.loads(first.stdout), json.loads(second.stdout)
    assert a1[:2] == a2[:2]            # the same seed, fresh code and cached code
    assert a1[2] != a2[2]              # seeded from entropy in each process
    assert all(0.0 <= x < 1.0 for x in a1[2] + a2[2])


def _numjit_command():
    exe = os.path.join(BUILD, "numjit")
    if not os.path.exists(exe):
        pytest.skip("no numjit command in the build")
    return exe


def test_aot_object_refuses_random_numbers(tmp_path):
    exe = _numjit_command()
    path = tmp_path / "aotrand.py"
    path.write_text(textwrap.dedent("""\
        import numpy as np
        from numba import njit


        @njit
        def noisy(x):
            return x + np.random.normal(0.0, 1.0)
        """))
    p = subprocess.run([exe, "obj", str(path), "--sig", "noisy(float64)", "-o",
                        str(tmp_path / "x.o")], capture_output=True, text=True)
    assert p.returncode == 1
    assert "aotrand.py:7:16: error: noisy() draws random numbers" in p.stderr, p.stderr
    assert "^~~" in p.stderr
    assert not (tmp_path / "x.o").exists()


def test_cuda_kernels_point_to_cuda_random(tmp_path):
    exe = _numjit_command()
    path = tmp_path / "kernrand.py"
    path.write_text(textwrap.dedent("""\
        import random
        from numba import cuda


        @cuda.jit
        def noise(out):
            i = cuda.grid(1)
            if i < out.shape[0]:
                out[i] = random.random()
        """))
    p = subprocess.run([exe, "ptx", str(path), "--sig", "noise(float64[:])"],
                       capture_output=True, text=True)
    assert p.returncode == 1
    assert "kernrand.py:9:18: error: random.random is not available in CUDA kernels" \
        in p.stderr, p.stderr
    assert "numba.cuda.random" in p.stderr


def test_typing_errors_are_located(make_module):
    m = make_module("randbad", """
        import random
        import numpy as np
        from numjit import njit


        @njit
        def size_for_python():
            return random.random(3)


        @njit
        def normal_size_alone():
            return np.random.normal(size=3)


        @njit
        def array_bound(a):
            return np.random.randint(0, a)


        @njit
        def unknown():
            return np.random.bytes(3)
        """)
    cases = [(m.size_for_python, (), "9:12: error: random.random() takes at most 0 arguments"),
             (m.normal_size_alone, (), "14:34: error: np.random.normal() with a size needs "
                                       "the argument 'loc'"),
             (m.array_bound, (np.zeros(2),), "19:33: error: the argument 'high' of "
                                             "np.random.randint() must be a number"),
             (m.unknown, (), "24:12: error: np.random.bytes is not supported")]
    for f, args, text in cases:
        with pytest.raises(numjit.errors.TypingError) as e:
            f(*args)
        assert text in str(e.value), str(e.value)
