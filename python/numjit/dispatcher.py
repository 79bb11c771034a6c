"""numjit.dispatcher — the Python face of a compiled function (what @njit returns).

Dispatcher subclasses the C type numjit._numjit.Dispatcher, whose __call__ is the whole hot
path: it classifies the arguments, finds the compiled entry for their types in a small cache
(compiling on a miss), calls it and boxes the result, all in C.  This class adds what is not
hot: binding to the compiled module on the first call (_bind_now, through numjit.source),
folding keyword and default arguments into a positional tuple (_fold_args), eager compilation
of declared signatures, and Numba's introspection (py_func, signatures, inspect_llvm, ...).

Declared signatures (``@njit("float64(float64)")``) are compiled when the function is decorated,
and then, as in Numba, nothing more is: a call of other argument types converts them to the
best declared signature by Numba's conversion rules, or raises its TypeError ("No matching
definition for argument type(s) ...", "Ambiguous overloading for ...").  The choice and the
conversions are made in C (_resolve.c); this file spells the errors.  A declared return type
converts the result (``int32(int32)`` returns an int32 whatever the body computes).
"""

import functools
import inspect

from . import _numjit, source, types
from .errors import UnsupportedError


class Dispatcher(_numjit.Dispatcher):
    """A function compiled by numjit: call it like the Python function it wraps."""

    def __init__(self, py_func, options=None, signatures=()):
        functools.update_wrapper(self, py_func)
        self.py_func = py_func
        self.targetoptions = dict(options or {})
        self._pysig = inspect.signature(py_func)
        for p in self._pysig.parameters.values():
            if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                raise UnsupportedError(
                    f"numjit: parameter '{p.name}' of {py_func.__qualname__}: only plain "
                    "positional parameters are supported (no *args, **kwargs, keyword-only)")
        self._nparams = py_func.__code__.co_argcount
        self._nogil = bool(self.targetoptions.get("nogil", False))
        self._returns = {}
        for sig in signatures:
            self.compile(sig)
        if signatures:
            self._freeze()  # Numba's disable_compile(): declared signatures only

    # -- called from C -------------------------------------------------------------------------
    def _bind_now(self):
        """Compiles (or finds) the module of py_func and attaches the function to it."""
        mod = source.load_module(self.py_func)
        self._bind(mod, self.py_func.__name__, self._nparams, self._nogil)

    def _fold_args(self, args, kwargs):
        """Keywords and defaults → one positional tuple, as Python would bind them."""
        bound = self._pysig.bind(*args, **(kwargs or {}))
        bound.apply_defaults()
        return tuple(bound.args)

    # -- Numba's API ---------------------------------------------------------------------------
    def compile(self, sig):
        """Compiles a signature now: "float64(float64[:], int64)", a Signature, or a tuple
        of argument types; a return type given converts the result to it."""
        if not self._is_bound():
            self._bind_now()
        declared = _declared(sig)
        if declared is None:  # a spelling only the library reads
            self._compile(types.signature_args(sig))
            return
        args, ret = declared
        self._compile(tuple(_spec(a) for a in args), _return_spec(ret))
        if ret is not None:
            self._returns[tuple(args)] = ret

    # -- errors of calls with declared signatures (called from C) ------------------------------
    def _explain_matching_error(self, args, tied=None):
        raise TypeError("No matching definition for argument type(s) "
                        + ", ".join(_type_name(a) for a in args))

    def _explain_ambiguous(self, args, tied):
        sigs = self.signatures
        lines = [f"{tuple(sigs[k])} -> {self._returns.get(tuple(sigs[k]), '?')}" for k in tied]
        names = "(" + ", ".join(_type_name(a) for a in args) + ("," if len(args) == 1 else "") + ")"
        raise TypeError(f"Ambiguous overloading for {self.py_func!r} {names}:\n"
                        + "\n".join(lines))

    @property
    def signatures(self):
        """Argument types of every specialization called so far, as tuples of types."""
        return [tuple(types.from_spelling(p) for p in _split_args(s)) for s in self._signatures()]

    def signature_of(self, *args):
        """The signature string a call with these arguments dispatches to."""
        return self._signature_of(tuple(args))

    def _dumps(self, what, signature):
        if not self._is_bound():
            self._bind_now()
        if signature is not None:
            return self._dump(types.signature_args(signature), what)
        return {s: self._dump(s, what) for s in self._signatures()}

    def inspect_llvm(self, signature=None):
        """Optimized LLVM IR: one string for a signature, else a dict over compiled ones."""
        return self._dumps("llvm", signature)

    def inspect_asm(self, signature=None):
        """x86-64 assembly: one string for a signature, else a dict over compiled ones."""
        return self._dumps("asm", signature)

    def inspect_types(self, signature=None):
        """numjit's typed IR: one string for a signature, else a dict over compiled ones."""
        return self._dumps("typed", signature)

    def __repr__(self):
        return f"<numjit.Dispatcher {self.py_func.__qualname__}>"

    def __reduce__(self):
        return (_rebuild, (self.py_func, self.targetoptions))


def _split_args(spelled):
    """The argument spellings of "(float64[:, ::1], readonly array(uint8, 1d, C))"."""
    parts, depth, cur = [], 0, ""
    for ch in spelled.strip()[1:-1]:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return parts


def _declared(sig):
    """(argument types, return type or None) of a signature, read as Numba's sigutils reads a
    string (evaluated among the type names), else as the library's spelling ("(readonly
    array(uint8, 1d, C))"); None when it is not made of numjit's types."""
    if isinstance(sig, str):
        try:
            sig = eval(sig, {"__builtins__": {}}, vars(types))  # noqa: S307 (Numba does the same)
        except Exception:
            try:
                args = types.signature_args(sig)
                sig = tuple(types.from_spelling(p) for p in _split_args(args))
            except Exception:
                return None
    if isinstance(sig, types.Signature):
        args, ret = tuple(sig.args), sig.return_type
    elif isinstance(sig, tuple):
        args, ret = sig, None
    else:
        return None
    if not all(_spec(a) for a in args) or (ret is not None and _return_spec(ret) is None):
        return None
    return args, ret


def _spec(t):
    """(dtype name, ndim or -1 for a scalar, layout, read-only): a type as _compile takes it."""
    if isinstance(t, types.Scalar):
        return (t.name, -1, "C", False)
    if isinstance(t, types.Array) and isinstance(t.dtype, types.Scalar):
        return (t.dtype.name, t.ndim, t.layout, bool(getattr(t, "readonly", False)))
    return None


def _return_spec(t):
    if t is None:
        return None
    if isinstance(t, types.NoneType):
        return "none"
    return _spec(t)


def _type_name(value):
    """Numba's name of the type of an argument value (its TypeError messages)."""
    try:
        return str(types.from_spelling(_numjit.typeof(value)))
    except Exception:
        pass
    if isinstance(value, str):
        return "unicode_type"
    if value is None:
        return "none"
    return "pyobject"


def _rebuild(py_func, options):
    return Dispatcher(py_func, options)
