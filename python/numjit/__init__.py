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
'parallel'; set_num_threads/get_num_threads size the parallel target's pool); cuda is a
placeholder raising UnsupportedError for now.
"""

import sys as _sys

import numpy as _np

from . import _numjit
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

from . import types  # noqa: E402
from . import cuda
from .errors import (NumjitError, TypingError, NumjitSyntaxError, CompileError,
                     UnsupportedError, NumbaError)
from .types import (boolean, bool_, b1, int8, i1, int16, i2, int32, i4, intc, int64, i8, intp,
                    int_, uint8, u1, byte, uint16, u2, uint32, u4, uintc, uint64, u8, uintp,
                    float32, f4, float64, f8, float_, double, complex64, c8, csingle, complex128,
                    c16, cdouble, void, none)
from .dispatcher import Dispatcher
from .decorators import njit, jit, vectorize, guvectorize
from .ufunc import UFunc, set_num_threads, get_num_threads

__version__ = "0.1.0"
prange = range



def typeof(value):
    """numjit's type for a value, as the dispatcher sees it (numjit.float64[::1], ...)."""
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
    numjit (numba.cuda, numba.types and numba.core.errors too)."""
    import types as _pytypes
    core = _pytypes.ModuleType("numba.core")
    core.errors = errors
    core.types = types
    this = _sys.modules[__name__]
    _sys.modules["numba"] = this
    _sys.modules["numba.cuda"] = cuda
    _sys.modules["numba.cuda.random"] = cuda.random
    _sys.modules["numba.types"] = types
    _sys.modules["numba.core"] = core
    _sys.modules["numba.core.errors"] = errors
    _sys.modules["numba.core.types"] = types
    return this


def load_numba_module(path, name=None):
    """Imports the Numba program at `path` with `numba` (and numba.cuda, numba.cuda.random,
    numba.types, numba.core.errors) meaning numjit while it loads, then puts sys.modules back
    as it was: the drop-in for one module, without changing what `import numba` means for the
    rest of the process.  Returns the module (not added to sys.modules)."""
    import importlib.util as _iu
    import os as _os
    keys = ("numba", "numba.cuda", "numba.cuda.random", "numba.types", "numba.core",
            "numba.core.errors", "numba.core.types")
    saved = {k: _sys.modules.get(k) for k in keys}
    install_as_numba()
    try:
        name = name or _os.path.splitext(_os.path.basename(path))[0]
        spec = _iu.spec_from_file_location(name, path)
        mod = _iu.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        for k, v in saved.items():
            if v is None:
                _sys.modules.pop(k, None)
            else:
                _sys.modules[k] = v


__all__ = ["njit", "jit", "vectorize", "guvectorize", "UFunc", "set_num_threads",
           "get_num_threads", "cuda", "prange", "typeof", "errors",
           "types", "Dispatcher", "NumjitError", "TypingError", "NumjitSyntaxError",
           "CompileError", "UnsupportedError", "NumbaError", "install_as_numba",
           "load_numba_module", "library_version", "parfor_stats", "cache_stats", "boolean", "bool_", "b1",
           "int8", "i1", "int16", "i2", "int32", "i4", "intc", "int64", "i8", "intp", "int_",
           "uint8", "u1", "byte", "uint16", "u2", "uint32", "u4", "uintc", "uint64", "u8",
           "uintp", "float32", "f4", "float64", "f8", "float_", "double", "complex64", "c8",
           "csingle", "complex128", "c16", "cdouble", "void", "none"]
