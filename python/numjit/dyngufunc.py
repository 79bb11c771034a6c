"""numjit.dyngufunc — dynamic gufuncs: ``@guvectorize("(n),(m)->(m)")`` without signatures.

Numba's dynamic GUFunc compiles a loop for each new combination of argument dtypes met at a
call, and so does this one.  Numba's rules, followed here: every argument is passed,
outputs included (``f(a, b, out)`` or ``f(a, b, out=out)``; ``out = f(a, b)`` is a TypeError
with Numba's message), and the signature of a new loop is made from the arguments: an input
of a ``()`` core layout is a scalar of its dtype, any other an array ``dtype[:, ...]`` of its
core dimensions with layout 'A', the output an array of the output's dtype with at least one
dimension.  Each loop is an ordinary numjit gufunc (numjit.ufunc.UFunc) with that one
signature; the object keeps them by the dtypes of the arguments.  ``disable_compile()``
freezes the set of loops, and ``add(sig)`` / ``build_ufunc()`` compile loops ahead of the
calls, as in Numba.
"""

import functools

import numpy as _np

from . import types as _types
from .ufunc import UFunc, _layout_counts


def _core_ndims(layout):
    """Core dimensions of each argument: "(n),(n,m)->(m)" -> [1, 2, 1]."""
    out = []
    for side in layout.replace(" ", "").split("->"):
        for group in side.split(")")[:-1]:
            inner = group.lstrip(",").lstrip("(")
            out.append(len([d for d in inner.split(",") if d]))
    return out


class DynamicGUFunc:
    """A gufunc whose loops are compiled per argument dtypes (Numba's dynamic GUFunc)."""

    def __init__(self, py_func, layout, target="cpu", identity=None, options=None):
        functools.update_wrapper(self, py_func)
        self.py_func = py_func
        self.nin, self.nout = _layout_counts(layout)
        self.nargs = self.nin + self.nout
        self.signature = layout
        self._ndims = _core_ndims(layout)
        self._target, self._identity, self._options = target, identity, dict(options or {})
        self._loops = {}       # tuple of argument dtypes -> UFunc
        self._frozen = False

    @property
    def is_dynamic(self):
        return True

    def _loop_signature(self, dtypes):
        parts = []
        for i, (dt, nd) in enumerate(zip(dtypes, self._ndims)):
            t = _types._from_numpy_dtype(dt)
            if i >= self.nin:
                nd = max(nd, 1)
            parts.append(t if nd == 0 else _types.Array(t, nd, "A"))
        return _types.void(*parts)

    def __call__(self, *args, **kwargs):
        if "out" in kwargs:
            args += (kwargs.pop("out"),)
        if len(args) != self.nargs:
            raise TypeError(
                f"Too few arguments for function '{self.__name__}'. Note that the pattern "
                "`out = gufunc(Arg1, Arg2, ..., ArgN)` is not allowed. Use "
                "`gufunc(Arg1, Arg2, ..., ArgN, out) instead.")
        dtypes = tuple(_np.asarray(a).dtype for a in args)
        loop = self._loops.get(dtypes)
        if loop is None:
            if self._frozen:
                raise TypeError(f"gufunc '{self.__name__}': compilation is disabled and no "
                                f"loop takes ({', '.join(map(str, dtypes))})")
            loop = UFunc(self.py_func, [self._loop_signature(dtypes)], self.signature,
                         self._target, self._identity, self._options)
            self._loops[dtypes] = loop
        return loop(*args, **kwargs)

    def add(self, sig):
        """Compiles the loop of one signature now ("void(float64[:], float64[:])" or type
        objects), as Numba's GUFunc.add; calls with its argument dtypes then use it."""
        from .ufunc import _parse_sig
        parsed = _parse_sig(sig)
        if len(parsed.args) != self.nargs:
            raise TypeError(f"gufunc '{self.__name__}' takes {self.nargs} arguments "
                            f"(inputs and outputs); the signature {sig!r} has "
                            f"{len(parsed.args)}")
        dtypes = tuple((a.dtype if isinstance(a, _types.Array) else a).dtype
                       for a in parsed.args)
        loop = UFunc(self.py_func, [parsed], self.signature, self._target, self._identity,
                     self._options)
        loop._ensure_bound()
        self._loops[dtypes] = loop

    def build_ufunc(self):
        """Numba's GUFunc.build_ufunc: the loops added are ready; returns the gufunc."""
        return self

    def disable_compile(self):
        """Calls with new argument dtypes raise TypeError from now on (Numba's GUFunc)."""
        if not self._loops:
            raise AssertionError("disable_compile() on a gufunc with no loops")
        self._frozen = True

    @property
    def ntypes(self):
        return len(self._loops)

    @property
    def types(self):
        return [t for loop in self._loops.values() for t in loop.types]

    @property
    def identity(self):
        return None if self._identity == "reorderable" else self._identity

    def __repr__(self):
        return f"<numjit dynamic gufunc '{self.__name__}'>"
