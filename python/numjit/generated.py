"""numjit.generated — Numba's @generated_jit: the decorated function picks the implementation.

``@generated_jit`` decorates a function that is called with the numba *types* of the
arguments and returns the function to compile for them (usually a def nested in it).  A
GeneratedDispatcher does what Numba's does at a call: it binds the arguments (keywords and
defaults folded in, as Python binds them), takes their types (numba.typeof), asks the
generator once per distinct tuple of types for the implementation, compiles that with
numjit (a Dispatcher with the decorator's options; a nested def compiles on its own, its
numeric closure variables as constants) and calls it.  The generator runs in Python; calling
a generated function from compiled code is not supported (the compiler sees the generator's
def as plain Python and reports the call).
"""

import functools
import inspect

from .dispatcher import Dispatcher
from .errors import TypingError, UnsupportedError


class GeneratedDispatcher:
    """What @generated_jit returns: call it like the decorated function."""

    def __init__(self, py_func, options=None):
        functools.update_wrapper(self, py_func)
        self.py_func = py_func
        self.targetoptions = dict(options or {})
        self._pysig = inspect.signature(py_func)
        self._impls = {}       # tuple of argument types -> Dispatcher of the implementation

    def _implementation(self, argtypes):
        disp = self._impls.get(argtypes)
        if disp is None:
            impl = self.py_func(*argtypes)
            if not inspect.isfunction(impl):
                raise TypingError(
                    f"generated_jit function {self.py_func.__qualname__} returned "
                    f"{impl!r} for the argument types ({', '.join(map(str, argtypes))}); it "
                    "must return a Python function to compile")
            disp = self._impls[argtypes] = Dispatcher(impl, self.targetoptions)
        return disp

    def __call__(self, *args, **kwargs):
        bound = self._pysig.bind(*args, **kwargs)
        bound.apply_defaults()
        folded = tuple(bound.args)
        from . import typeof
        argtypes = tuple(typeof(a) for a in folded)
        return self._implementation(argtypes)(*folded)

    @property
    def signatures(self):
        return list(self._impls)

    def __repr__(self):
        return f"<numjit generated_jit {self.py_func.__qualname__}>"


def generated_jit(function=None, **options):
    """Numba's @generated_jit, ``@generated_jit`` or ``@generated_jit(nopython=True, ...)``."""
    from .decorators import _check_options
    _check_options(options, "generated_jit")
    if options.get("nopython") is False:
        raise UnsupportedError("numjit has no object mode: nopython=False is not supported")
    if function is None:
        return lambda f: GeneratedDispatcher(f, options)
    if not inspect.isfunction(function):
        raise TypeError(f"generated_jit: expected a function, not {function!r}")
    return GeneratedDispatcher(function, options)
