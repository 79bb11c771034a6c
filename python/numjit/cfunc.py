"""numjit.cfunc — Numba's @cfunc: a compiled function with a C signature, for C code to call.

    @cfunc("float64(float64, float64)")
    def add(x, y):
        return x + y

    add.address          # the C function's address: double add(double, double)
    add.ctypes           # a ctypes function pointer calling it
    scipy.integrate.quad(scipy.LowLevelCallable(f.ctypes), 0, 1)

The decorator compiles at once (as Numba's does): the function is specialized for the
signature's argument types like any @njit function, and the library (nj_function_cfunc,
codegen/cfunc.c) links a wrapper of the C signature around that specialization.  Pointer
types of the signature (``types.CPointer(types.float64)``, ``types.voidptr``) are passed to
the library as one-dimensional C arrays (``float64[::1]``, ``uint8[::1]`` for void *): compiled
code indexes a pointer (``out[0] = x``) or views it with ``numba.carray(p, shape)`` /
``numba.farray``.  Calling the object from Python runs the Python function, as Numba's
``CFunc.__call__`` does; calling it from compiled code is an extension (numjit.extending's
hook) whose implementation converts the arguments and the result to the declared types
around a call of the compiled function.
"""

import ctypes
import itertools
import threading

from . import types as _types
from .dispatcher import Dispatcher
from .errors import UnsupportedError

_count = itertools.count(1)
_lock = threading.Lock()

_CTYPES = {
    "bool": ctypes.c_bool, "int8": ctypes.c_int8, "int16": ctypes.c_int16,
    "int32": ctypes.c_int32, "int64": ctypes.c_int64, "uint8": ctypes.c_uint8,
    "uint16": ctypes.c_uint16, "uint32": ctypes.c_uint32, "uint64": ctypes.c_uint64,
    "float32": ctypes.c_float, "float64": ctypes.c_double,
}


def _ctype(t):
    """The ctypes type of a signature's type (Numba's to_ctypes)."""
    if t is None or isinstance(t, _types.NoneType):
        return None
    if isinstance(t, _types.VoidPointer):
        return ctypes.c_void_p
    if isinstance(t, _types.CPointer):
        return ctypes.POINTER(_CTYPES[t.dtype.name])
    if isinstance(t, _types.Scalar) and t.name in _CTYPES:
        return _CTYPES[t.name]
    raise TypeError(f"unsupported type {t} for a C callback")


def _signature(sig):
    """(argument types, result type) of "float64(float64, intc)" or a Signature."""
    if isinstance(sig, str):     # read as Numba's sigutils reads it: among the type names
        try:
            sig = eval(sig, {"__builtins__": {}}, vars(_types))  # noqa: S307
        except Exception as e:
            raise TypeError(f"cannot read the signature {sig!r}: {e}") from None
    if isinstance(sig, _types.Signature):
        args, ret = sig.args, sig.return_type
    elif isinstance(sig, tuple) and all(isinstance(a, _types.Type) for a in sig):
        args, ret = sig, None          # argument types alone, as Numba's sigutils reads them
    else:
        raise TypeError(f"invalid signature {sig!r} for @cfunc")
    if ret is None:
        raise TypeError("C callback needs an explicit return type")
    return tuple(args), ret


def _spelled(t):
    return "void" if isinstance(t, _types.NoneType) else t.spelling


class CFunc:
    """What @cfunc gives (Numba's CFunc)."""

    def __init__(self, pyfunc, sig, options):
        self._pyfunc = pyfunc
        self.__name__ = pyfunc.__name__
        self.__qualname__ = pyfunc.__qualname__
        self.__doc__ = pyfunc.__doc__
        self.__wrapped__ = pyfunc
        args, ret = _signature(sig)
        self._sig = _types.Signature(ret, args)
        self._argtypes, self._ret = args, ret
        self._dispatcher = Dispatcher(pyfunc, options)
        self._cache_hits = 0
        self._address = None
        self._ctypes = None
        self._native_name = None
        self._caller = None
        self.compile()

    def compile(self):
        """Compiles the callback (done by the decorator; a second call does nothing)."""
        if self._address is not None:
            return
        d = self._dispatcher
        if not d._is_bound():
            d._bind_now()
        spelling = f"{_spelled(self._ret)}({', '.join(_spelled(a) for a in self._argtypes)})"
        with _lock:
            n = next(_count)
        name = f"cfunc.{self.__qualname__}${n}".replace("<", "_").replace(">", "_")
        self._address = d._cfunc(spelling, name)
        self._native_name = name

    @property
    def native_name(self):
        """The process-wide symbol the C callback has in the JIT."""
        return self._native_name

    @property
    def address(self):
        """The address of the C callback."""
        return self._address

    @property
    def ctypes(self):
        """A ctypes function pointer calling the C callback."""
        if self._ctypes is None:
            functype = ctypes.CFUNCTYPE(_ctype(self._ret), *[_ctype(a) for a in self._argtypes])
            self._ctypes = functype(self._address)
        return self._ctypes

    @property
    def cffi(self):
        raise UnsupportedError("numjit's C callbacks have no cffi pointer (cffi is not "
                               "supported); use .ctypes or .address")

    def enable_caching(self):
        """Numba's cache=True: numjit's specialization goes through its own disk cache."""
        return self

    def inspect_llvm(self):
        """The LLVM IR of the compiled function the C callback runs."""
        spelling = "(" + ", ".join(_spelled(a) for a in self._argtypes) + ")"
        return self._dispatcher._dump(spelling, "llvm")

    @property
    def cache_hits(self):
        return self._cache_hits

    def __call__(self, *args, **kwargs):
        return self._pyfunc(*args, **kwargs)

    def __repr__(self):
        return f"<Numba C callback {self.__qualname__!r}>"

    def _nj_typing(self, *argtypes):
        """A call from compiled code (numjit.extending's hook): a def that converts the
        arguments to the declared types, calls the compiled function and converts its result,
        as a call through the C signature does.  Pointer signatures are declined."""
        if len(argtypes) != len(self._argtypes) or \
                any(isinstance(t, _types.CPointer) for t in self._argtypes):
            return None
        if self._caller is None:
            self._caller = self._make_caller()
        return self._caller

    def _make_caller(self):
        from . import capture

        def conv(t, e):
            return f"bool({e})" if t.name == "bool" else f"numjit.{t.name}({e})"
        params = [f"__nj_a{k}" for k in range(len(self._argtypes))]
        call = "__nj_target(" + ", ".join(conv(t, p) for t, p in zip(self._argtypes, params)) + ")"
        with _lock:
            n = next(_count)
        name = f"__nj_cfunc_{self.__name__}_{n}"
        body = f"    {call}\n" if isinstance(self._ret, _types.NoneType) else \
            f"    return {conv(self._ret, call)}\n"
        text = f"import numjit\n\n\ndef {name}({', '.join(params)}):\n" + body
        filename = self._pyfunc.__code__.co_filename
        code = capture._orig_compile(text, filename, "exec", dont_inherit=True)
        capture._record(code, capture.Snapshot(filename, text))
        import numjit
        scope = {"numjit": numjit, "__nj_target": self._dispatcher}
        exec(code, scope)
        return scope[name]


def cfunc(sig, locals=None, cache=False, pipeline_class=None, **options):
    """Numba's @cfunc(sig, nopython=True, cache=False, ...)."""
    from .decorators import _check_options
    _check_options(options, "cfunc")
    if options.get("nopython") is False or options.get("forceobj"):
        raise UnsupportedError("numjit has no object mode: a C callback compiles in nopython "
                               "mode only")
    opts = {k: v for k, v in options.items() if k not in ("nopython",)}
    if cache:
        opts["cache"] = True

    def wrapper(func):
        return CFunc(func, sig, opts)
    return wrapper


def carray(ptr, shape, dtype=None):
    """numba.carray in Python: a C-ordered array view of shape at ptr, a ctypes pointer (or
    an object with ctypes.data, as Numba takes); dtype is required for a void pointer."""
    return _view(ptr, shape, dtype, "C")


def farray(ptr, shape, dtype=None):
    """numba.farray in Python: the Fortran-ordered view."""
    return _view(ptr, shape, dtype, "F")


def _view(ptr, shape, dtype, order):
    import numpy as np
    if isinstance(shape, int):
        shape = (shape,)
    pointee = None
    if isinstance(ptr, ctypes._Pointer):
        pointee = np.dtype(ptr._type_)
        addr = ctypes.cast(ptr, ctypes.c_void_p).value
    elif isinstance(ptr, ctypes.c_void_p):
        addr = ptr.value
    elif isinstance(ptr, int):
        addr = ptr
    else:
        raise TypeError(f"expected a ctypes pointer, got {ptr!r}")
    if dtype is None:
        if pointee is None:
            raise TypeError("explicit dtype required for void* argument")
        dt = pointee
    else:
        dt = dtype.dtype if isinstance(dtype, _types.Scalar) else np.dtype(dtype)
        if pointee is not None and dt != pointee:
            raise TypeError(f"mismatching dtype '{dtype}' for pointer {ptr!r}")
    n = int(np.prod(shape)) if shape else 1
    buf = (ctypes.c_byte * (n * dt.itemsize)).from_address(addr)
    return np.frombuffer(buf, dtype=dt).reshape(shape, order=order)
