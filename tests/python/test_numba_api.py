"""Numba's Python API as numjit answers it: `python3 -m numjit`, the environment route for
child processes, numba.config and the NUMBA_* settings numjit honours, Numba's submodules and
the clear errors for what numjit does not provide.  Behaviour is checked against real Numba
0.56 where it has it (the same snippet run under both)."""
import os
import subprocess
import sys
import textwrap

import pytest

import numjit

ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))


def run(args, env=None, ok=True, cwd=None):
    r = subprocess.run([sys.executable] + args, capture_output=True, text=True,
                       env=env or ENV, timeout=300, cwd=cwd)
    if ok:
        assert r.returncode == 0, r.stderr
    return r


PROGRAM = textwrap.dedent("""
    import sys
    import numpy as np
    import numba
    from numba import njit
    from numba.core.errors import TypingError
    from numba.np.numpy_support import as_dtype
    import numba.core.config

    @njit
    def total(a):
        s = 0
        for v in a:
            s += v
        return s

    print(type(total).__module__.split(".")[0], sys.argv[1:])
    print(total(np.arange(int(sys.argv[1]))), as_dtype(numba.int16))
""")


def test_python_m_numjit_runs_a_numba_program(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(PROGRAM)
    got = run(["-m", "numjit", str(prog), "5", "x"]).stdout.split("\n")
    want = run([str(prog), "5", "x"]).stdout.split("\n")
    assert got[0] == "numjit ['5', 'x']" and want[0] == "numba ['5', 'x']"
    assert got[1:] == want[1:] == ["10 int16", ""]


def test_python_m_numjit_module_and_code(tmp_path):
    (tmp_path / "mymod.py").write_text(PROGRAM)
    env = dict(ENV, PYTHONPATH=str(tmp_path) + os.pathsep + ENV["PYTHONPATH"])
    out = run(["-m", "numjit", "-m", "mymod", "4"], env=env).stdout
    assert out.startswith("numjit ['4']\n6 int16")
    out = run(["-m", "numjit", "-c", "import numba, sys; print(numba.__name__, sys.argv[1:])",
               "a"]).stdout
    assert out == "numjit ['a']\n"
    r = run(["-m", "numjit", str(tmp_path / "missing.py")], ok=False)
    assert r.returncode == 2 and "can't open file" in r.stderr


def test_children_inherit_numjit_as_numba(tmp_path):
    """A process the program starts (pytest workers, multiprocessing) sees numjit too, through
    PYTHONPATH and NUMJIT_AS_NUMBA; NUMJIT_AS_NUMBA=0 gives the real Numba back."""
    prog = tmp_path / "parent.py"
    prog.write_text(textwrap.dedent("""
        import os, subprocess, sys
        code = "import numba; print(numba.__name__)"
        print(subprocess.run([sys.executable, "-c", code], capture_output=True,
                             text=True).stdout.strip())
        env = dict(os.environ, NUMJIT_AS_NUMBA="0")
        print(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env).stdout.strip())
    """))
    assert run(["-m", "numjit", str(prog)]).stdout.split() == ["numjit", "numba"]
    path = run(["-m", "numjit", "--path"]).stdout.strip()
    assert os.path.isfile(os.path.join(path, "numba", "__init__.py"))
    env = dict(ENV, PYTHONPATH=path + os.pathsep + ENV["PYTHONPATH"])
    out = run(["-c", "import numba.core.errors as e, numba; print(numba.__name__, "
                     "e.TypingError.__module__)"], env=env).stdout
    assert out == "numjit numjit.errors\n"


SUBMODULES = textwrap.dedent("""
    import numba
    from numba.core.errors import TypingError, NumbaWarning, NumbaPerformanceWarning
    from numba.core.errors import NumbaDeprecationWarning, LoweringError, NumbaIndexError
    from numba.core import types as ct, config as cc
    from numba.np.numpy_support import as_dtype, from_dtype
    from numba.extending import register_jitable, overload, intrinsic
    from numba.experimental import jitclass
    from numba.typed import List, Dict
    from numba import types, typeof, config, cuda
    import numba.np.ufunc
    print(ct is types, cc is config, numba.config.OPT, numba.config.DISABLE_JIT)
    print(sorted(n for n in dir(numba.core.errors) if n.startswith("Numba"))[:6])
""")


def test_submodules_import_as_under_numba(run_program, numba056):
    got = run_program("numjit", SUBMODULES).stdout
    want = run_program("numba", SUBMODULES).stdout
    assert got == want


def test_unknown_submodule_is_a_clear_import_error(run_program):
    r = run_program("numjit", "import numba\nimport numba.misc.special\n", ok=False)
    assert "ModuleNotFoundError" in r.stderr and "numba.misc" in r.stderr
    assert "docs/python.md" in r.stderr


@pytest.mark.parametrize("snippet,name", [
    ("from numba.extending import intrinsic\nf = intrinsic(lambda typingctx, x: None)\nf(1)\n",
     "intrinsic"),
    ("import numba\nnumba.jit_module(nopython=True)\n", "jit_module"),
])
def test_unprovided_names_raise_where_used(run_program, snippet, name):
    r = run_program("numjit", snippet, ok=False)
    assert "UnsupportedError" in r.stderr and name in r.stderr, r.stderr
    line = [ln for ln in r.stderr.splitlines() if 'File "' in ln and "prog_numjit" in ln][-1]
    assert "line 2" in line or "line 3" in line      # the line that uses it


CONFIG = textwrap.dedent("""
    import os
    import numba
    from numba import njit
    print(numba.config.NUMBA_NUM_THREADS, numba.get_num_threads(), numba.config.CACHE_DIR,
          numba.config.DEBUG, numba.config.BOUNDSCHECK)

    @njit
    def f(x):
        return x + 1

    print("plain function" if type(f).__name__ == "function" else "dispatcher", f(1))
    try:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS + 1)
    except ValueError as e:
        print("ValueError", e)
    try:
        numba.set_num_threads(1.5)
    except TypeError as e:
        print("TypeError", e)
    numba.set_num_threads(1)
    print(numba.get_num_threads())
""")


def test_numba_environment_settings(run_program, numba056, tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_NUM_THREADS", "2")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "nbcache"))
    monkeypatch.setenv("NUMBA_BOUNDSCHECK", "1")
    monkeypatch.delenv("NUMJIT_NUM_THREADS", raising=False)
    got = run_program("numjit", CONFIG).stdout
    want = run_program("numba", CONFIG).stdout
    assert got == want and "dispatcher 2" in got
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    got = run_program("numjit", CONFIG).stdout
    want = run_program("numba", CONFIG).stdout
    assert got == want and "plain function 2" in got


def test_numba_cache_dir_is_numjits(tmp_path, monkeypatch):
    """NUMBA_CACHE_DIR, when NUMJIT_CACHE_DIR is not set, is where cache=True functions go."""
    prog = tmp_path / "cached.py"
    prog.write_text("from numba import njit\n\n@njit(cache=True)\ndef g(x):\n"
                    "    return x * 2\n\nprint(g(21))\n")
    env = dict(ENV, NUMBA_CACHE_DIR=str(tmp_path / "cc"))
    env.pop("NUMJIT_CACHE_DIR", None)
    env.pop("NUMJIT_CACHE", None)
    assert run(["-m", "numjit", str(prog)], env=env).stdout == "42\n"
    assert os.listdir(tmp_path / "cc")


def test_threading_layer_and_versions(numba056):
    assert numjit.version_info[:3] == (0, 56, 4)
    assert numjit.__version__.startswith("0.56.4+numjit")
    assert numjit.get_thread_id() == 0
    assert numjit.set_parallel_chunksize(8) == 0 and numjit.get_parallel_chunksize() == 8
    numjit.set_parallel_chunksize(0)


def test_frozen_dispatcher_and_recompile(make_module):
    mod = make_module("nj_api_frozen", """
        from numjit import njit

        @njit
        def f(x):
            return x * 2
        """)
    assert mod.f(2) == 4
    mod.f.disable_compile()
    assert mod.f(3) == 6
    with pytest.raises(TypeError, match="No matching definition"):
        mod.f(1.5)
    mod.f.disable_compile(False)
    assert mod.f(1.5) == 3.0
    with pytest.raises(numjit.UnsupportedError, match="recompile"):
        mod.f.recompile()
    assert "float64" in str(mod.f.nopython_signatures[-1])


def test_fastmath_flag_sets_and_locals(make_module):
    """fastmath={...} sets only those LLVM fast-math flags, as Numba's; a dict of flags and
    locals={...} (accepted, numjit infers types) are read from the decorator line."""
    mod = make_module("nj_api_fastmath", """
        from numjit import njit, float64

        @njit(fastmath={"nsz", "arcp"})
        def some(x, y):
            return x * y / 3.0

        @njit(fastmath={"fast": True, "nnan": False}, locals={"s": float64})
        def every(x, y):
            s = x * y
            return s

        @njit(fastmath={}, locals={})
        def none_(x, y):
            return x * y

        @njit(fastmath={"nsz": False})
        def off(x, y):
            return x * y
        """)
    assert mod.some(2.0, 3.0) == 2.0 and mod.every(2.0, 3.0) == 6.0
    llvm = mod.some.inspect_llvm(mod.some.signatures[0])
    assert "fmul nsz arcp double" in llvm and " fast " not in llvm
    assert "fmul fast double" in mod.every.inspect_llvm(mod.every.signatures[0])
    assert mod.none_(1.0, 2.0) == 2.0
    assert "fmul double" in mod.none_.inspect_llvm(mod.none_.signatures[0])
    assert mod.off(2.0, 3.0) == 6.0
    assert "fmul double" in mod.off.inspect_llvm(mod.off.signatures[0])


def test_fastmath_unknown_flag_is_a_located_error(make_module):
    mod = make_module("nj_api_fastmath_bad", """
        from numjit import njit

        @njit(fastmath={"nsz", "quick"})
        def f(x):
            return x * 2.0
        """)
    with pytest.raises(numjit.NumjitSyntaxError, match="unrecognized fastmath flag") as e:
        mod.f(1.0)
    assert ":4:" in str(e.value) and "^" in str(e.value)


def test_dict_displays_in_function_bodies_are_typed_dicts(make_module):
    mod = make_module("nj_api_dict_body", """
        from numjit import njit

        @njit
        def f(x):
            d = {"a": x}
            return d["a"] + len(d)
        """)
    assert mod.f(1.5) == 2.5


BOUNDS = textwrap.dedent("""
    import numpy as np
    from numba import njit

    @njit
    def at(a, i):
        return a[i]

    @njit(boundscheck=True)
    def at_checked(a, i):
        return a[i]

    a = np.arange(4.0)
    for f in (at, at_checked):
        try:
            print(f(a, 2), end=" ")
            print(f(a, 7))
        except IndexError:
            print("IndexError")
""")


def test_numba_boundscheck_setting(run_program, numba056, monkeypatch):
    """NUMBA_BOUNDSCHECK=1 checks every function's indices, as under Numba; without it only
    boundscheck=True functions do (the unchecked read is not run)."""
    monkeypatch.setenv("NUMBA_BOUNDSCHECK", "1")
    monkeypatch.delenv("NUMJIT_BOUNDSCHECK", raising=False)
    got = run_program("numjit", BOUNDS).stdout
    assert got == run_program("numba", BOUNDS).stdout == "2.0 IndexError\n2.0 IndexError\n"


TYPE_NAMES = textwrap.dedent("""
    from numba.core.types import unicode_type, ListType, DictType, Literal, Optional, voidptr
    from numba.types import optional, unliteral, real_domain, integer_domain
    from numba import types
    print(isinstance(types.float64, Literal), isinstance(types.int32[:], Optional),
          unliteral(types.int64), types.float32 in real_domain, types.uint8 in integer_domain)
""")


def test_numba_type_names_import_and_refuse_use(run_program, numba056):
    """Names of numba.types numjit lacks import as under Numba; using one is an
    UnsupportedError that names it."""
    assert run_program("numjit", TYPE_NAMES).stdout == run_program("numba", TYPE_NAMES).stdout
    r = run_program("numjit", TYPE_NAMES + "types.ListType(types.int64)\n", ok=False)
    assert "UnsupportedError: numjit has no type numba.types.ListType" in r.stderr
    r = run_program("numjit", TYPE_NAMES + "from numba import njit\n"
                    "njit(unicode_type(unicode_type))\n", ok=False)
    assert "numba.types.unicode_type" in r.stderr
    with pytest.raises(AttributeError):
        numjit.types.no_such_type_name


def test_generated_jit_called_from_compiled_code(make_module):
    mod = make_module("nj_api_generated_caller", """
        from numjit import njit, generated_jit

        @generated_jit(nopython=True)
        def g(x):
            def impl(x):
                return x + 1
            return impl

        @njit
        def caller(x):
            return g(x) * 2
        """)
    assert mod.g(3) == 4 and mod.g(1.5) == 2.5 and len(mod.g.signatures) == 2
    # compiled code asks the generator through the extension hook, as for an @overload
    assert mod.caller(3) == 8 and mod.caller(0.25) == 2.5
    assert type(mod.caller(3)) is int and type(mod.caller(0.25)) is float


def test_python_m_numjit_runs_a_numba_test_suite(tmp_path):
    """python3 -m numjit -m pytest: a Numba-based test file runs unchanged, its numba being
    numjit."""
    (tmp_path / "test_user.py").write_text(textwrap.dedent("""
        import numpy as np
        import numba
        from numba import njit

        @njit
        def cumsum(a):
            out = np.empty_like(a)
            s = 0.0
            for i in range(a.shape[0]):
                s += a[i]
                out[i] = s
            return out

        def test_cumsum():
            assert numba.__name__ == "numjit"
            assert cumsum(np.arange(4.0)).tolist() == [0.0, 1.0, 3.0, 6.0]
    """))
    r = run(["-m", "numjit", "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_user.py"],
            cwd=tmp_path)
    assert "1 passed" in r.stdout


INTERNALS = textwrap.dedent("""
    from numba.core.imputils import lower_builtin
    from numba.core.typing.templates import AbstractTemplate, signature, infer_global
    from numba.core import cgutils
    from numba.core.decorators import njit
    from numba import types

    class LenTemplate(AbstractTemplate):
        pass

    print(signature(types.float64, types.int64))
""")


def test_extension_internals_import_and_refuse_use(run_program, numba056):
    """What extension code imports from Numba's internals imports under numjit too; using
    a hook raises UnsupportedError naming it, at the line that uses it."""
    assert run_program("numjit", INTERNALS).stdout == run_program("numba", INTERNALS).stdout
    r = run_program("numjit", INTERNALS + "@lower_builtin(len, types.int64)\n"
                    "def f(context, builder, sig, args):\n    pass\n", ok=False)
    assert "numba.core.imputils.lower_builtin" in r.stderr and "line 12" in r.stderr
    r = run_program("numjit", INTERNALS + "LenTemplate(None)\n", ok=False)
    assert "numba.core.typing.templates.AbstractTemplate" in r.stderr


def test_every_top_level_name_of_numba_exists(numba056):
    """Each name of Numba 0.56's numba.__all__ is there (working, or refusing where used),
    so `from numba import X` never fails at the import line."""
    import numba as real_numba
    if real_numba is numjit:
        pytest.skip("the real Numba is not importable in this process")
    assert [n for n in real_numba.__all__ if not hasattr(numjit, n)] == []
    assert numjit.experimental.jitclass.__name__ == "jitclass"
    with numjit.parallel_chunksize(4):
        assert numjit.get_parallel_chunksize() == 4
    assert numjit.get_parallel_chunksize() == 0
    with pytest.raises(numjit.UnsupportedError, match="gdb"):
        numjit.gdb()


RELOAD = textwrap.dedent("""
    import os
    import numba
    from numba.core import config
    print(config.DISABLE_JIT, config.BOUNDSCHECK)
    os.environ["NUMBA_DISABLE_JIT"] = "1"
    os.environ["NUMBA_BOUNDSCHECK"] = "0"
    config.reload_config()
    print(config.DISABLE_JIT, config.BOUNDSCHECK, numba.config.DISABLE_JIT)

    @numba.njit
    def f(x):
        return x

    print(type(f).__name__)
""")


def test_config_reload(run_program, numba056, monkeypatch):
    """numba.core.config.reload_config() reads the environment again, as Numba's does."""
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.delenv("NUMBA_BOUNDSCHECK", raising=False)
    got = run_program("numjit", RELOAD).stdout
    assert got == run_program("numba", RELOAD).stdout == "0 None\n1 0 1\nfunction\n"


LINALG_INTERNALS = textwrap.dedent("""
    try:
        from numba.np.linalg import _LAPACK
    except ModuleNotFoundError:
        from numba.targets.linalg import _LAPACK
    from numba.np.linalg import _BLAS
    print(_LAPACK.__name__, _BLAS.__name__)
""")


def test_numba_np_linalg_imports_and_refuses_use(run_program, numba056):
    """quantecon.util.numba imports Numba's private LAPACK bindings at import (using them
    only inside generated_jit code): the import works as under Numba; making one is an
    UnsupportedError naming it."""
    assert run_program("numjit", LINALG_INTERNALS).stdout == \
        run_program("numba", LINALG_INTERNALS).stdout
    r = run_program("numjit", LINALG_INTERNALS + "_LAPACK()\n", ok=False)
    assert "numba.np.linalg._LAPACK" in r.stderr and "UnsupportedError" in r.stderr


TYPES_SUBMODULES = textwrap.dedent("""
    from numba.core.types.misc import NoneType as none
    from numba.core.types.scalars import Integer, Float
    from numba.core.types.npytypes import Array
    import numba.core.types
    from numba import types, typeof
    print(none.__name__, isinstance(typeof(3), Integer), isinstance(typeof(2.5), Float))
    print(isinstance(typeof(None), none), Array is types.Array)
""")


def test_numba_core_types_submodules(run_program, numba056):
    """Numba's types live in numba/core/types/*.py and libraries import them from there
    (EconForge's interpolation: `from numba.core.types.misc import NoneType`): under numjit
    each is numjit.types."""
    assert run_program("numjit", TYPES_SUBMODULES).stdout == \
        run_program("numba", TYPES_SUBMODULES).stdout == "NoneType True True\nTrue True\n"


CTYPES_NO_ARGTYPES = textwrap.dedent("""
    import ctypes, ctypes.util
    from numba import njit
    c_cos = ctypes.CDLL(ctypes.util.find_library("m")).cos
    c_cos.restype = ctypes.c_double

    @njit
    def f(x):
        return c_cos(x)

    try:
        f(1.0)
    except TypeError as e:
        print(type(e).__name__ in ("TypingError", "TypeError"),
              "ctypes function 'cos' doesn't define its argument types" in str(e))
""")


def test_ctypes_function_without_argtypes(run_program, numba056):
    """A ctypes function called from compiled code needs its argtypes, as Numba says."""
    assert run_program("numjit", CTYPES_NO_ARGTYPES).stdout == \
        run_program("numba", CTYPES_NO_ARGTYPES).stdout == "True True\n"


EXT_PKG = {
    "fakeext/__init__.py": "class Thing:\n    def __init__(self, v):\n        self.v = v\n",
    "fakeext/_numba_ext.py": textwrap.dedent("""
        def init():
            from numba.extending import typeof_impl
            from fakeext import Thing
            typeof_impl.register(Thing)(lambda val, c: None)
    """),
    "fakeext-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: fakeext\nVersion: 0.1\n",
    "fakeext-0.1.dist-info/entry_points.txt": "[numba_extensions]\n"
                                              "init = fakeext._numba_ext:init\n",
}

EXT_PROGRAM = textwrap.dedent("""
    import numba
    from fakeext import Thing
    import fakeext

    @numba.njit
    def ident(x):
        return x

    t = Thing(1.0)

    @numba.njit
    def frozen():
        return t

    @numba.njit
    def make(v):
        return fakeext.Thing(v)

    for f, args in ((ident, (t,)), (frozen, ()), (make, (1.0,))):
        try:
            f(*args)
        except Exception as e:
            print(type(e).__name__, str(e).splitlines()[0])
""")


def test_library_extension_types_are_refused_by_name(tmp_path):
    """A class a package teaches Numba through its "numba_extensions" entry point (typeof_impl,
    data models, @box/@unbox: sparse's COO) is refused where it reaches compiled code, as an
    argument, a frozen global or a constructor call, naming the extension and what it uses."""
    for path, text in EXT_PKG.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    (tmp_path / "prog.py").write_text(EXT_PROGRAM)
    env = dict(ENV, PYTHONPATH=str(tmp_path) + os.pathsep + ENV["PYTHONPATH"])
    out = run(["-m", "numjit", str(tmp_path / "prog.py")], env=env).stdout.splitlines()
    assert len(out) == 3, out
    why = "Thing is a type that fakeext's Numba extension (fakeext._numba_ext:init)"
    assert out[0].startswith("TypingError argument 1: " + why), out[0]
    assert "does not support numba.extending.typeof_impl" in out[0] and \
        "_numba_ext.py:5" in out[0], out[0]
    assert out[1].startswith("UnsupportedError ") and "prog.py:14:12: error: 't' is a " \
        "constant here, and " + why in out[1], out[1]
    assert "prog.py:18:12: error: fakeext.Thing: " + why in out[2], out[2]
