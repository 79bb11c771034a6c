"""numjit.decorators — njit and jit, Numba's spellings; vectorize and guvectorize from ufunc.py.

``@njit``, ``@njit()``, ``@njit(**options)``, ``@njit(sig)``, ``@njit([sig, ...])`` and ``njit(f)``
all give a Dispatcher.  Options are Numba's; the compiler reads them from the decorator in the
source (a decorator is part of the text numjit compiles; for ``njit(**options)(f)`` numjit.source
writes one from the options), so here they are only checked.
``@jit`` is ``@njit``: numjit has no object mode, so ``jit`` without ``nopython=True`` compiles
in nopython mode too.  ``forceobj=True`` asks for Numba's object mode, whose values are Python
objects and whose results are the interpreter's: numjit runs the Python function itself there
(without Numba's lifting of loops into nopython code, so such loops run at Python's speed).  With NUMBA_DISABLE_JIT=1 in the
environment both return the Python function itself, as Numba's do.

vectorize and guvectorize (ufuncs and gufuncs, targets 'cpu' and 'parallel') live in
numjit.ufunc and are re-exported here; target='cuda' raises UnsupportedError for now.
"""

import functools

from .dispatcher import Dispatcher
from .dropin import config
from .errors import UnsupportedError
from .types import Signature, Type

_OPTIONS = {"nopython", "cache", "fastmath", "error_model", "boundscheck", "parallel", "nogil",
            "inline", "looplift", "forceobj", "locals", "no_cpython_wrapper", "no_cfunc_wrapper",
            "debug", "_nrt", "target", "pipeline_class"}


def _is_sigs(x):
    return isinstance(x, (str, Signature)) or (
        isinstance(x, (list, tuple)) and all(isinstance(s, (str, Signature, tuple)) for s in x)
        and not (isinstance(x, tuple) and all(isinstance(s, Type) for s in x)))


def _check_options(options, who):
    for k in options:
        if k not in _OPTIONS:
            raise TypeError(f"{who}() got an unexpected option {k!r}")
    if options.get("pipeline_class") is not None:
        raise UnsupportedError("numjit has its own compiler pipeline: pipeline_class= "
                               "(Numba's compiler passes) is not supported")
    if options.get("target", "cpu") != "cpu":
        raise UnsupportedError(f"{who}(target={options['target']!r}): numjit compiles "
                               "@jit functions for the CPU; use numba.cuda.jit for the GPU")
    em = options.get("error_model", "python")
    if em not in ("python", "numpy"):
        raise ValueError(f"error_model must be 'python' or 'numpy', not {em!r}")


class ObjectModeFunction:
    """What ``@jit(forceobj=True)`` gives: object mode, the Python function run as it is."""

    def __init__(self, py_func):
        functools.update_wrapper(self, py_func)
        self.py_func = py_func

    def __call__(self, *args, **kws):
        return self.py_func(*args, **kws)


def njit(signature_or_function=None, **options):
    """Compile a function to machine code on its first call (or now, given signatures).

    Use as ``@njit``, ``@njit(fastmath=True)``, ``@njit("float64(float64[:])")`` or
    ``njit(f)``.  The result is called like ``f``; ``.py_func`` is the original function."""
    _check_options(options, "njit")
    make = Dispatcher
    if options.get("forceobj"):
        make = lambda f, *rest: ObjectModeFunction(f)  # noqa: E731
    if config().DISABLE_JIT:      # NUMBA_DISABLE_JIT=1: the Python function itself, as Numba
        make = lambda f, *rest: f  # noqa: E731
    if signature_or_function is None:
        return lambda f: make(f, options)
    if callable(signature_or_function) and not isinstance(signature_or_function, Type):
        return make(signature_or_function, options)
    if _is_sigs(signature_or_function):
        sigs = signature_or_function
        if isinstance(sigs, (str, Signature)):
            sigs = [sigs]
        return lambda f: make(f, options, list(sigs))
    raise TypeError(f"njit: expected a function or signatures, not {signature_or_function!r}")


def jit(signature_or_function=None, **options):
    """Numba's @jit: the same as njit here (numjit always compiles in nopython mode)."""
    _check_options(options, "jit")
    return njit(signature_or_function, **options)


from .ufunc import vectorize, guvectorize  # noqa: E402  (re-exported: ufuncs live in ufunc.py)
