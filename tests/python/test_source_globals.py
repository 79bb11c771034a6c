"""Where the source and the globals of a compiled function come from (numjit.source,
numjit.capture), with Numba 0.56 as the oracle: a small package written to a temporary folder
runs under Numba and under numjit and prints the same.  It covers compiled functions reached
through an imported module (`from . import core`, `import pkg.core as core`), module
attributes as constants (`cfg.N`), functions built at run time by exec() of a string and by
compile() of an AST, a def under a library's own decorator that compiles it later, and a file
edited on disk between decoration and the first call."""
import os
import subprocess
import sys
import textwrap

import pytest

RUNNER = """import runpy, sys
sys.path.insert(0, sys.argv[3])
if sys.argv[1] == "numjit":
    import numjit
    sys.modules["numba"] = numjit
runpy.run_path(sys.argv[2], run_name="__main__")
"""

FILES = {
    "mypkg/__init__.py": "",
    "mypkg/cfg.py": """
        import numpy as np
        N = 4
        SCALE = 2.5
        WEIGHTS = np.array([100.0, 200.0])
        """,
    "mypkg/core.py": """
        import numpy as npx
        from numba import njit

        BIAS = 7

        @njit
        def f(x):
            return x * 2 + BIAS

        @njit(fastmath=False)
        def total(a):
            s = 0.0
            for v in a:
                s += npx.sqrt(v)
            return s

        @njit
        def bad(x):
            return x + undefined_thing

        import math
        from math import sqrt as msqrt
        from numba import prange
        import numba as nb

        @nb.njit
        def norm(a):
            s = 0.0
            for i in prange(a.shape[0]):
                s += a[i] * a[i]
            return msqrt(s) + math.floor(0.5)

        CORE_TABLE = npx.array([1.0, 2.0])

        @njit
        def look(i):
            return CORE_TABLE[i]
        """,
    "mypkg/api.py": """
        from numba import njit
        from . import core
        from . import cfg
        import mypkg.core as core2

        @njit
        def g(x):
            return core.f(x) + core2.f(1) + cfg.N * cfg.SCALE

        @njit
        def h(a):
            return core.total(a)

        @njit
        def uses_bad(x):
            return core.bad(x)

        @njit
        def n2(a):
            return core2.norm(a) * 2

        import numpy as np
        TABLE = np.array([10.0, 20.0])

        @njit
        def tables(i):
            # three global arrays: this module's, core's (read by core.look) and one reached
            # through a module
            return TABLE[i] + core.look(i) + cfg.WEIGHTS[i]
        """,
    "mypkg/runtime.py": """
        import ast
        from numba import njit

        SRC = '''
        def twice(x):
            return 2 * x + OFFSET
        '''

        def build_exec():
            ns = {"OFFSET": 3}
            exec(SRC, ns)
            return njit(ns["twice"])

        def build_ast():
            tree = ast.parse("def cube(x):\\n    return x * x * x\\n")
            tree.body[0].name = "__transformed_cube"
            code = compile(tree, "<ast>", "exec")
            ns = {}
            exec(code, ns)
            return njit(ns["__transformed_cube"])
        """,
    "mypkg/deco.py": """
        import numba

        def lazy_gufunc(sigs, layout):
            \"\"\"A library's own decorator: guvectorize runs at the first use.\"\"\"
            def wrap(func):
                cell = []

                def run(*args):
                    if not cell:
                        cell.append(numba.guvectorize(sigs, layout, nopython=True)(func))
                    return cell[0](*args)
                return run
            return wrap
        """,
    "mypkg/kernels.py": """
        from .deco import lazy_gufunc

        @lazy_gufunc(["void(float64[:], float64[:])"],
                     "(n)->(n)")
        def running_sum(a, out):
            s = 0.0
            for i in range(a.shape[0]):
                s += a[i]
                out[i] = s
        """,
    "main.py": """
        import numpy as np
        from mypkg import api, runtime, kernels

        print(api.g(3))
        print(repr(api.h(np.array([1.0, 4.0, 9.0]))))
        print(repr(api.n2(np.array([3.0, 4.0]))))
        print(api.tables(0), api.tables(1))
        print(kernels.running_sum(np.arange(5.0)).tolist())
        print(runtime.build_exec()(5))
        print(runtime.build_ast()(3))
        try:
            api.uses_bad(1)
        except Exception as e:
            print(type(e).__name__)
        """,
}


def write_package(root):
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def run(root, which, script="main.py", ok=True):
    runner = root / "runner.py"
    runner.write_text(RUNNER)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, str(runner), which, str(root / script), str(root)],
                       capture_output=True, text=True, env=env, timeout=300)
    if ok:
        assert r.returncode == 0, r.stderr
    return r


def test_package_matches_numba(tmp_path, numba056):
    write_package(tmp_path)
    got = run(tmp_path, "numjit").stdout
    want = run(tmp_path, "numba").stdout
    assert got == want
    assert got.splitlines()[-1] == "TypingError"


def test_one_name_for_two_global_arrays_is_refused(tmp_path):
    """Two global arrays of one name among the functions a compilation needs are refused, as
    two numbers of one name are (the text has one NAME = line): never one array for both."""
    write_package(tmp_path)
    (tmp_path / "mypkg" / "t1.py").write_text(textwrap.dedent("""
        import numpy as np
        from numba import njit
        TABLE = np.array([1.0, 2.0])

        @njit
        def look(i):
            return TABLE[i]
        """))
    (tmp_path / "mypkg" / "t2.py").write_text(textwrap.dedent("""
        import numpy as np
        from numba import njit
        from . import t1
        TABLE = np.array([10.0, 20.0])

        @njit
        def both(i):
            return TABLE[i] + t1.look(i)
        """))
    (tmp_path / "clash.py").write_text("from mypkg import t2\nprint(t2.both(1))\n")
    r = run(tmp_path, "numjit", "clash.py", ok=False)
    assert "'TABLE' is __numjit_types._frozen_array(" in r.stderr, r.stderr
    assert "give them distinct names" in r.stderr


def test_error_in_another_file_points_there(tmp_path):
    """A callee appended from another file is reported at its own file, line and column."""
    write_package(tmp_path)
    (tmp_path / "err.py").write_text(textwrap.dedent("""
        from mypkg import api
        api.uses_bad(1)
        """))
    r = run(tmp_path, "numjit", "err.py", ok=False)
    core = str(tmp_path / "mypkg" / "core.py")
    assert f"{core}:20:16: error: name 'undefined_thing' is not defined" in r.stderr, r.stderr
    assert "   20 |     return x + undefined_thing" in r.stderr


EDITED = """
from numba import njit

@njit
def k(x):
    return x * 2

@njit
def k_later(x):
    return x * 2

if __name__ == "__main__":
    import pathlib
    here = pathlib.Path(__file__)
    here.write_text(here.read_text().replace("x * 2", "x * 5"))
    import linecache
    linecache.checkcache()     # as printing any traceback does
    print(k(1), k_later(1), k.py_func(1))
"""


@pytest.mark.parametrize("which", ["numjit", "numba"])
def test_file_edited_after_decoration(tmp_path, which, numba056):
    """The body that runs is the one Python ran at import, not the file's later text."""
    (tmp_path / "prog.py").write_text(EDITED)
    assert run(tmp_path, which, "prog.py").stdout.split() == ["2", "2", "2"]


def test_redefinition_in_process(make_module):
    mod = make_module("nj_redef", """
        from numjit import njit

        @njit
        def k(x):
            return x * 2

        k1 = k

        @njit
        def k(x):
            return x * 3
        """)
    assert (mod.k1(1), mod.k(1)) == (2, 3)
    assert mod.k1.py_func(1) == 2


def test_global_array_is_frozen_when_first_compiled(make_module):
    """Numba freezes a global array as a read-only constant when the caller is first compiled:
    a later change is not seen by that function, a function compiled after it sees the new
    contents, and an array returned from the constant is read-only."""
    mod = make_module("nj_global_array", """
        import numpy as np
        from numjit import njit

        TABLE = np.arange(4.0)

        @njit
        def look(i):
            return TABLE[i]

        @njit
        def look_later(i):
            return TABLE[i]

        @njit
        def whole():
            return TABLE
        """)
    assert mod.look(1) == 1.0
    mod.TABLE[1] = 10.0
    assert mod.look(1) == 1.0                 # frozen with look's first compilation
    assert mod.look_later(1) == 10.0          # frozen later, with the new contents
    w = mod.whole()
    assert w.tolist() == [0.0, 10.0, 2.0, 3.0] and not w.flags.writeable
    with pytest.raises(ValueError):
        w[0] = 5.0
    assert mod.look_later(0) == 0.0


def test_global_array_of_strings_is_a_located_error(make_module):
    """A global array numjit cannot freeze (strings here) is refused where it is read."""
    mod = make_module("nj_global_str_array", """
        import numpy as np
        from numjit import njit

        NAMES = np.array(["a", "b"])

        @njit
        def look(i):
            return len(NAMES[i])
        """)
    with pytest.raises(NotImplementedError) as info:
        mod.look(1)
    text = str(info.value)
    assert "nj_global_str_array.py:9:16: error: global NumPy array 'NAMES' of dtype <U1" in text
    assert "    9 |     return len(NAMES[i])" in text and "^~~~~" in text


def test_global_array_with_the_disk_cache(tmp_path):
    """cache=True: a second process compiles the same function again or loads code that reads
    its own copy of the global (the copy's address is part of the cached text)."""
    src = tmp_path / "nj_global_cached.py"
    src.write_text("import numpy as np\nfrom numba import njit\n\n"
                   "W = np.array([0.25, 0.5, 0.25])\n\n"
                   "@njit(cache=True)\ndef smooth(a):\n"
                   "    out = np.zeros(a.size - 2)\n"
                   "    for i in range(a.size - 2):\n"
                   "        for k in range(3):\n"
                   "            out[i] += W[k] * a[i + k]\n"
                   "    return out\n\n"
                   "print(smooth(np.arange(6.0)).tolist())\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    for _ in range(2):
        r = subprocess.run([sys.executable, "-m", "numjit", str(src)], env=env,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == "[1.0, 2.0, 3.0, 4.0]"


def test_exec_text_is_kept_only_while_numjit_is_numba(monkeypatch):
    import numjit
    from numjit import njit

    src = "def add3(x):\n    return x + 3\n"
    monkeypatch.setitem(sys.modules, "numba", object())   # some other numba
    ns = {}
    exec(src, ns)
    with pytest.raises(numjit.NumjitError, match="cannot find the source of 'add3'"):
        njit(ns["add3"])(1)
    monkeypatch.setitem(sys.modules, "numba", numjit)      # the drop-in
    ns = {}
    exec(src, ns)
    assert njit(ns["add3"])(1) == 4


def test_equal_code_objects_keep_their_own_text(monkeypatch):
    """Two functions of equal code (one text given to exec twice): code objects compare by
    value, and the recorded text of the second must outlive the first."""
    import gc
    import numjit
    from numjit import njit

    monkeypatch.setitem(sys.modules, "numba", numjit)
    src = "def add4(x):\n    return x + 4\n"
    first, second = {}, {}
    exec(src, first)
    exec(src, second)
    assert first["add4"].__code__ == second["add4"].__code__
    assert first["add4"].__code__ is not second["add4"].__code__
    del first
    gc.collect()
    assert njit(second["add4"])(1) == 5
