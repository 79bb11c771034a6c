"""numjit — a just-in-time compiler for numeric Python functions; a drop-in for Numba's @njit.

    from numjit import njit          # or: import numjit; sys.modules["numba"] = numjit

    @njit
    def rel_diff(x, y):
        return 2 * (x - y) / (x + y)

The first call with new argument types compiles the function's module (see numjit.source) to
machine code through LLVM; later calls with the same types go straight to it from C
(numjit._numjit).  A float result comes back as a Python float, an int as an int, a bool as a
bool, as Numba returns them.

What is here: njit/jit (Dispatcher), the type objects (numjit.float64, numjit.int32[:], ...),
numjit.errors, typeof, prange (range), and install_as_numba() for the drop-in trick.
vectorize and guvectorize (numjit.ufunc: NumPy ufuncs and gufuncs, targets 'cpu' and
'parallel'; set_num_threads/get_num_threads size the parallel target's pool); numjit.cuda.
The rest of Numba's top-level names (config, from_dtype, threading_layer, version_info, ...)
are here too, and numjit.dropin answers Numba's submodules (numba.core.errors,
numba.np.numpy_support, numba.extending, ...) while ``numba`` means numjit.
``python3 -m numjit PROGRAM.py`` runs a Numba program that way (numjit.__main__).
"""

import collections as _collections
import sys as _sys

import numpy as _np

from . import _numjit
from . import capture
from . import errors


def _probe_arrays():
    """Arrays of every dtype and layout on which the extension checks its fast array road."""
    out = []
    for dt in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
               "uint64", "float32", "float64", "complex64", "complex128", "intc", "uintc",
               "longlong", "ulonglong"):
        base = _np.zeros((4, 6), dtype=dt)
        out += [base, _np.asfortranarray(base), base[::2, 1::3], base[::-1], base[0],
                base[:, 0], base[:1], _np.zeros((), dtype=dt), _np.zeros((0, 3), dtype=dt),
                _np.zeros((2, 1, 3, 1), dtype=dt)[..., ::-1]]
    return out


# before the modules below: ufunc.py's set-up reads what this verifies
_fast_arrays = _numjit._configure(errors, _np.ndarray, _probe_arrays())
_numjit._prepare()  # the JIT starts on another thread while the rest of the program loads
capture.record_sources()  # while numjit is `numba`, code built by exec()/compile() keeps its text

from . import types  # noqa: E402
from . import cuda
from . import dropin as _dropin
from .errors import (NumjitError, TypingError, NumjitSyntaxError, CompileError,
                     UnsupportedError, NumbaError)
from .types import (boolean, bool_, b1, int8, i1, int16, i2, int32, i4, intc, int64, i8, intp,
                    int_, uint8, u1, byte, uint16, u2, uint32, u4, uintc, uint64, u8, uintp,
                    float32, f4, float64, f8, float_, double, complex64, c8, csingle, complex128,
                    c16, cdouble, void, none)
from .dispatcher import Dispatcher
from .decorators import njit, jit, vectorize, guvectorize
from .ufunc import UFunc, get_num_threads
from .generated import generated_jit
from .stencil import stencil
from .cfunc import cfunc, carray, farray

# Numba's version whose API numjit answers to, with numjit's own as the local part: programs
# that check `numba.__version__` or `numba.version_info` see the Numba they were written for.
NUMJIT_VERSION = "0.1.0"
__version__ = "0.56.4+numjit" + NUMJIT_VERSION
version_info = _collections.namedtuple(
    "version_info", "major minor patch short full string tuple git_revision")(
    0, 56, 4, (0, 56), (0, 56, 4), __version__, ("0", "56", "4"), None)
prange = range
pndindex = _np.ndindex
config = _dropin.config()       # numba.config; NUMBA_* settings numjit shares take effect here
from_dtype = types._from_numpy_dtype
_dropin.install_finder()
# numba.<error or warning>, numba.<type alias>: Numba exports numba.core.errors and
# numba.core.types at its top level
globals().update({n: getattr(errors, n) for n in errors.NUMBA_NAMES})
globals().update({n: getattr(types, n) for n in ("char", "short", "long_", "longlong",
                                                 "ssize_t", "uchar", "ushort", "uint", "ulong",
                                                 "ulonglong", "size_t", "single")})


def set_num_threads(n):
    """Threads of parallel loops and target='parallel' ufuncs: 1 ... config.NUMBA_NUM_THREADS,
    as in Numba (numjit also takes 0: back to the default)."""
    if not isinstance(n, (int, _np.integer)) or isinstance(n, bool):
        raise TypeError("The number of threads specified must be an integer")
    if not 0 <= n <= config.NUMBA_NUM_THREADS:
        raise ValueError(f"The number of threads must be between 1 and "
                         f"{config.NUMBA_NUM_THREADS}")
    _numjit.set_num_threads(int(n))


def threading_layer():
    """The threading layer of parallel code: numjit's own pool, which Numba would call
    'workqueue'; as in Numba, a ValueError before the first parallel loop has run."""
    if _numjit.parfor_stats()["loops"] == 0:
        raise ValueError("Threading layer is not initialized.")
    return "workqueue"


def get_thread_id():
    """The id of the calling thread within a parallel region: 0 outside one, as in Numba."""
    return 0


_chunksize = 0


def set_parallel_chunksize(n):
    """Numba's chunk-size hint for parallel loops; numjit sizes its chunks itself, so the
    value is only kept (and returned by get_parallel_chunksize).  Returns the previous one."""
    global _chunksize
    if not isinstance(n, (int, _np.integer)) or n < 0:
        raise ValueError("chunksize must be greater than or equal to zero")
    old, _chunksize = _chunksize, int(n)
    return old


def get_parallel_chunksize():
    return _chunksize


class parallel_chunksize:
    """Numba's ``with parallel_chunksize(n):`` in Python: sets the kept chunk size for the
    block and puts the previous one back (numjit sizes its chunks itself)."""

    def __init__(self, chunksize):
        self._chunksize = chunksize

    def __enter__(self):
        self._old = set_parallel_chunksize(self._chunksize)

    def __exit__(self, *exc):
        set_parallel_chunksize(self._old)


class _ObjMode:
    """numba.objmode.  In Python (a function's py_func, NUMBA_DISABLE_JIT=1) it is a context
    manager that does nothing, as Numba's is; in a compiled function numjit.objblocks cuts the
    `with objmode(...):` block out and runs it in the interpreter."""

    def __call__(self, *args, **kwargs):
        return self

    def __enter__(self):
        return None

    def __exit__(self, typ, val, tb):
        return None

    def __repr__(self):
        return "<numjit objmode>"


objmode = _ObjMode()


def literally(obj):
    """Numba's literally(): in Python, the value itself."""
    return obj


def literal_unroll(container):
    """Numba's literal_unroll(): in Python, the container itself."""
    return container


def _refuse(name, what):
    def refuse(*args, **kwargs):
        raise UnsupportedError(f"numjit does not support numba.{name} ({what}); "
                               "docs/python.md lists what numjit provides of Numba's API")
    refuse.__name__ = refuse.__qualname__ = name
    return refuse


jit_module = _refuse("jit_module", "compiling a whole module")
optional = _refuse("optional", "Optional types in signatures")
deferred_type = types.deferred_type
gdb = _refuse("gdb", "debugging compiled code in gdb")
gdb_init = _refuse("gdb_init", "debugging compiled code in gdb")
gdb_breakpoint = _refuse("gdb_breakpoint", "debugging compiled code in gdb")
ffi = types.ffi                                   # Numba's cffi types: refused where used
ffi_forced_object = types.ffi_forced_object


def __getattr__(name):
    """numba.experimental, numba.typed, numba.np, ...: Numba's submodules as attributes of
    the package, as `import numba` gives them (numjit.dropin builds them on first use)."""
    full = "numba." + name
    if full in _dropin._MAKERS:
        return _dropin._module(full)
    raise AttributeError(f"module 'numjit' has no attribute {name!r}")



def typeof(value):
    """numjit's type for a value, as the dispatcher sees it (numjit.float64[::1], ...); a
    tuple's is a Tuple or UniTuple of its items' types, and None's is ``none``, as Numba's."""
    if value is None:
        return types.none
    class_type = getattr(type(value), "class_type", None)
    if isinstance(class_type, types.ClassType):   # a jitclass instance
        return class_type.instance_type
    if isinstance(value, tuple):
        return types.Tuple([typeof(v) for v in value])
    return types.from_spelling(_numjit.typeof(value))


def parfor_stats():
    """What the parallel loops (``prange`` in ``@njit(parallel=True)`` functions) of this process
    did: ``{"loops": loops run, "pooled": of those, run on the thread pool, "chunks": the last
    loop's chunks, "threads": distinct threads that ran them}``.  numjit's own diagnostic."""
    return _numjit.parfor_stats()


def cache_stats():
    """What the on-disk cache did in this process: ``{"hits": entries loaded, "misses":
    looked for and not found, "stores": written}`` (a hit compiled nothing).  numjit's own."""
    return _numjit.cache_stats()


def library_version():
    """Version of libnumjit and of the LLVM it was built with: "0.1.0 (LLVM 19.1.7)"."""
    return _numjit.version()


def install_as_numba():
    """The drop-in trick: after this, ``import numba`` / ``from numba import njit`` give
    numjit, and Numba's submodules (numba.core.errors, numba.np.numpy_support,
    numba.extending, numba.cuda, ...; numjit.dropin lists them) numjit's answers."""
    this = _sys.modules[__name__]
    _sys.modules["numba"] = this
    _dropin.install_finder()
    for name in _dropin.EAGER:
        _sys.modules[name] = mod = _dropin._module(name)
        parent, _, child = name.rpartition(".")
        setattr(_sys.modules[parent], child, mod)    # `import numba.core.errors as e` reads it
    return this


def load_numba_module(path, name=None):
    """Imports the Numba program at `path` with `numba` (and numba.cuda, numba.cuda.random,
    numba.types, numba.core.errors) meaning numjit while it loads, then puts sys.modules back
    as it was: the drop-in for one module, without changing what `import numba` means for the
    rest of the process.  Returns the module (not added to sys.modules)."""
    import importlib.util as _iu
    import os as _os
    saved = {k: v for k, v in _sys.modules.items() if k == "numba" or k.startswith("numba.")}
    install_as_numba()
    try:
        name = name or _os.path.splitext(_os.path.basename(path))[0]
        spec = _iu.spec_from_file_location(name, path)
        mod = _iu.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        for k in [k for k in _sys.modules if k == "numba" or k.startswith("numba.")]:
            if k not in saved:
                del _sys.modules[k]
        _sys.modules.update(saved)


__all__ = ["njit", "jit", "vectorize", "guvectorize", "UFunc", "set_num_threads",
           "get_num_threads", "cuda", "prange", "typeof", "errors",
           "types", "Dispatcher", "NumjitError", "TypingError", "NumjitSyntaxError",
           "CompileError", "UnsupportedError", "NumbaError", "install_as_numba",
           "load_numba_module", "library_version", "parfor_stats", "cache_stats", "boolean", "bool_", "b1",
           "int8", "i1", "int16", "i2", "int32", "i4", "intc", "int64", "i8", "intp", "int_",
           "uint8", "u1", "byte", "uint16", "u2", "uint32", "u4", "uintc", "uint64", "u8",
           "uintp", "float32", "f4", "float64", "f8", "float_", "double", "complex64", "c8",
           "csingle", "complex128", "c16", "cdouble", "void", "none", "config", "from_dtype",
           "threading_layer", "get_thread_id", "set_parallel_chunksize",
           "get_parallel_chunksize", "literally", "literal_unroll", "pndindex", "version_info",
           "generated_jit", "cfunc", "stencil", "jit_module", "objmode", "carray", "farray", "optional",
           "parallel_chunksize", "deferred_type", "gdb", "gdb_init", "gdb_breakpoint"]
