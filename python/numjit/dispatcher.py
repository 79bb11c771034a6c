"""numjit.dispatcher — the Python face of a compiled function (what @njit returns).

Dispatcher subclasses the C type numjit._numjit.Dispatcher, whose __call__ is the whole hot
path: it classifies the arguments, finds the compiled entry for their types in a small cache
(compiling on a miss), calls it and boxes the result, all in C.  This class adds what is not
hot: binding to the compiled module on the first call (_bind_now, through numjit.source),
folding keyword and default arguments into a positional tuple (_fold_args), eager compilation
of declared signatures, and Numba's introspection (py_func, signatures, inspect_llvm, ...).
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
        for sig in signatures:
            self.compile(sig)

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
        of argument types."""
        if not self._is_bound():
            self._bind_now()
        self._compile(types.signature_args(sig))

    @property
    def signatures(self):
        """Argument types of every specialization called so far, as tuples of types."""
        out = []
        for s in self._signatures():
            inner = s[1:-1]
            parts, depth, cur = [], 0, ""
            for ch in inner:
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
            out.append(tuple(types.from_spelling(p) for p in parts))
        return out

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
        """Pickles by value: source text, options (numjit.serialize)."""
        from . import serialize
        return serialize.reduce_dispatcher(self)
