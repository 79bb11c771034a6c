"""`pip install .` (pyproject.toml, meson-python) into a fresh virtual environment gives a
working `import numjit` and `numjit` command, both from the environment, not the build tree.

It builds the whole project once more (several minutes on a small machine), so it is one
test, run once per pytest session (tests/run_all.sh runs tests/python once, on the normal
build); it skips where the build dependencies for a wheel are missing (meson-python, venv,
patchelf, llvm-config-19).  NUMJIT_SKIP_PIP=1 skips it for quick runs.
"""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

pytestmark = pytest.mark.skipif(os.environ.get("NUMJIT_SKIP_PIP") == "1",
                                reason="NUMJIT_SKIP_PIP=1")


def test_pip_install_into_a_fresh_venv(tmp_path):
    pytest.importorskip("mesonpy")
    pytest.importorskip("venv")
    if not shutil.which("patchelf") or not shutil.which("llvm-config-19"):
        pytest.skip("patchelf and llvm-config-19 are needed to build the wheel")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True, timeout=120)
    py = str(venv / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMJIT_BUILD")}
    env["LLVM_CONFIG"] = "llvm-config-19"
    r = subprocess.run([py, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
                        "--no-index", ROOT], capture_output=True, text=True, env=env,
                       cwd=str(tmp_path), timeout=2400)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    code = textwrap.dedent('''
        import numpy as np, numjit
        @numjit.njit
        def f(x):
            return x.sum() * 2
        @numjit.vectorize(["float64(float64)"])
        def g(x):
            return x + 1
        print(numjit.__file__)
        print(f(np.arange(4.0)), g(np.arange(3.0)).tolist(), isinstance(g, np.ufunc))
    ''')
    (tmp_path / "prog.py").write_text(code)
    r = subprocess.run([py, str(tmp_path / "prog.py")], capture_output=True, text=True,
                       env=env, cwd=str(tmp_path), timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith(str(venv)), lines[0]          # the installed package
    assert lines[1] == "12.0 [1.0, 2.0, 3.0] True"
    cmd = venv / "bin" / "numjit"
    assert cmd.exists()
    r = subprocess.run([str(cmd), "version"], capture_output=True, text=True, env=env,
                       timeout=60)
    assert r.returncode == 0 and "LLVM 19" in r.stdout + r.stderr, r.stdout + r.stderr
