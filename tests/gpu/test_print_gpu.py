"""print() in a CUDA kernel: vprintf with numba-cuda's formats, flushed when the host syncs.
Run in a child process (the device's printf buffer goes straight to file descriptor 1).
Skipped without a CUDA driver or device."""
import os
import subprocess
import sys
import textwrap

import pytest

from numjit import cuda

if not cuda.is_available():
    pytest.skip("no CUDA driver or device", allow_module_level=True)

PROGRAM = textwrap.dedent("""
    import numpy as np
    from numba import cuda

    @cuda.jit
    def show(a):
        i = cuda.grid(1)
        if i < a.shape[0]:
            print("thread", i, a[i], i < 2, 50)

    a = np.arange(3, dtype=np.float64) * 0.5
    show[1, 3](a)
    cuda.synchronize()
    print("done")
    """)


def test_kernel_print(tmp_path):
    prog = tmp_path / "kprint.py"
    prog.write_text(PROGRAM)
    runner = tmp_path / "runner.py"
    runner.write_text("import runpy, sys, numjit\nsys.modules['numba'] = numjit\n"
                      "runpy.run_path(sys.argv[1], run_name='__main__')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, str(runner), str(prog)], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert sorted(lines[:3]) == ["thread 0 0.000000 True 50", "thread 1 0.500000 True 50",
                                 "thread 2 1.000000 False 50"]
    assert lines[3] == "done"
