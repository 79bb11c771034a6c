"""numjit.ufunc — @vectorize and @guvectorize: NumPy ufuncs and gufuncs compiled by numjit.

``vectorize(sigs)(f)`` and ``guvectorize(sigs, "(n),(n)->()")(f)`` return real
``numpy.ufunc`` objects, as Numba's do: every declared signature's inner loop is compiled when
the decorator runs (nj_ufunc_numpy_loop: exactly the signature's dtypes, any strides; for
target 'parallel' a loop that runs each of NumPy's calls on numjit's thread pool) and handed
to NumPy's C API (_npufunc.c).  NumPy then does everything around the loops: broadcasting,
casting, out=/where=/casting=/dtype=/axes=, reduce/accumulate/reduceat/outer/at, subclasses
and __array_ufunc__.  ``vectorize()(f)`` without signatures gives a DUFunc (Numba's dynamic
ufunc): a numpy.ufunc that starts with no loops and gets one compiled for each new
combination of input dtypes NumPy finds no loop for.

UFunc is the builder behind both: the decorators' arguments (signatures as strings or type
objects, target, identity, options), the binding to the compiled module (numjit.source and
nj_ufunc_new), and the loops.  Called itself, it is numjit's own C call path
(numjit._numjit.Ufunc, see _ufunc.c), kept for programs that construct ``numjit.UFunc``
directly: it classifies the inputs, keys a small cache on their dtypes, converts scalars,
allocates outputs and runs the library's executor (nj_ufunc_call); on a miss it asks
_resolve, NumPy 1.x's linear loop search (or NEP 50's under NumPy 2), and a dynamic UFunc
compiles a loop for the inputs' own types.  reduce and outer are its own too.
"""

import functools

import numpy as _np

from . import _numjit, capture, serialize, source, types
from .errors import TypingError, UnsupportedError

# NjDType order (include/numjit.h); 13 is float16, a value-based type only.
_DTYPE_NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                "uint64", "float32", "float64", "complex64", "complex128")
_NP_DTYPES = tuple(_np.dtype(n) for n in _DTYPE_NAMES)
_CODE = {d: i for i, d in enumerate(_NP_DTYPES)}
_F16 = 13
_ALL = _NP_DTYPES + (_np.dtype("float16"),)
_SAFE = [[bool(_np.can_cast(a, b, "safe")) for b in _NP_DTYPES] for a in _ALL]
_KIND = [0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 3, 2]     # bool < int/uint < float < complex
_UNSIGNED = {5, 6, 7, 8}
_TO_SIGNED = {5: 1, 6: 2, 7: 3, 8: 4}
_TARGETS = {"cpu": 0, "parallel": 1}
# NumPy 2 chooses loops by NEP 50 (weak Python scalars), NumPy 1.x by value (min_scalar_type)
_NEP50 = int(_np.__version__.split(".")[0]) >= 2



def _array_api():
    """NumPy's C-API table (the capsule import_array() reads), or None."""
    import importlib
    for name in ("numpy._core._multiarray_umath", "numpy.core._multiarray_umath"):
        try:
            return importlib.import_module(name)._ARRAY_API
        except (ImportError, AttributeError):
            continue
    return None


_FAST_ALLOC = _numjit._configure_ufunc(_np.empty, _np.asarray, _NP_DTYPES, _array_api())

_SIG_NAMES = {n: getattr(types, n) for n in types.__all__ if isinstance(getattr(types, n),
                                                                         types.Type)}
_SIG_NAMES["types"] = types


def _parse_sig(sig):
    """A Signature (or a tuple of argument types) from a string or type objects."""
    if isinstance(sig, str):
        try:
            sig = eval(sig, {"__builtins__": {}}, _SIG_NAMES)   # type objects only
        except Exception as e:
            raise TypeError(f"numjit: cannot read the signature {sig!r}: {e}") from None
    if isinstance(sig, types.Signature):
        return sig
    if isinstance(sig, tuple) and all(isinstance(a, types.Type) for a in sig):
        return types.Signature(types.void, sig)
    raise TypeError(f"numjit: not a signature: {sig!r}")


def _code_of(t):
    t = t.dtype if isinstance(t, types.Array) else t
    if not isinstance(t, types.Scalar):
        raise TypeError(f"numjit: {t} is not a numeric type")
    return _CODE[t.dtype]


def _layout_counts(layout):
    """(inputs, outputs) of a gufunc layout.  Without '->' every operand is an input and there
    is no output, as Numba's sigparse reads it: the kernel writes into an argument
    ('(a),(a),(z)' of numbagg's grouped reductions, '(n), (k)' of quantecon)."""
    if not isinstance(layout, str) or "(" not in layout:
        raise ValueError(f"numjit: a gufunc layout looks like '(n),(n)->()', not {layout!r}")
    ins, _, outs = layout.replace(" ", "").partition("->")
    return ins.count("("), outs.count("(")


class UFunc(_numjit.Ufunc):
    """A ufunc or gufunc compiled by numjit; call it like a NumPy ufunc."""

    def __new__(cls, py_func, signatures=(), layout=None, target="cpu", identity=None,
                options=None):
        if target == "cuda":  # generated GPU kernels: numjit.gpu_ufunc
            from .gpu_ufunc import GpuUFunc
            return GpuUFunc(py_func, signatures, layout, identity, options)
        return super().__new__(cls)

    def __init__(self, py_func, signatures=(), layout=None, target="cpu", identity=None,
                 options=None):
        functools.update_wrapper(self, py_func)
        self.py_func = py_func
        capture.capture(py_func)
        self.targetoptions = dict(options or {})
        if target not in _TARGETS:
            raise ValueError(f"numjit: unknown target {target!r} ('cpu', 'parallel' or 'cuda')")
        self.target = target
        self._identity = identity
        self.signature = layout
        sigs = [_parse_sig(s) for s in signatures]
        self._dynamic = not sigs
        nparams = py_func.__code__.co_argcount
        if layout is not None:
            self.nin, self.nout = _layout_counts(layout)
            if not sigs:
                raise UnsupportedError("numjit: @guvectorize needs a list of signatures")
            texts = ["void(" + ", ".join(a.spelling for a in s.args) + ")" for s in sigs]
            self._loops = [tuple(_code_of(a) for a in s.args[:self.nin]) for s in sigs]
            self._outs = [tuple(_code_of(a) for a in s.args[self.nin:]) for s in sigs]
        else:
            self.nin, self.nout = nparams, 1
            for s in sigs:
                if not isinstance(s.return_type, types.Scalar):
                    raise TypeError(f"numjit: a @vectorize signature names its return type, "
                                    f"as in 'float64(float64, float64)': {s}")
            texts = [f"{s.return_type.name}(" + ", ".join(a.spelling for a in s.args) + ")"
                     for s in sigs]
            self._loops = [tuple(_code_of(a) for a in s.args) for s in sigs]
            self._outs = [(_code_of(s.return_type),) for s in sigs]
        self._sig_texts = texts
        self.nargs = self.nin + self.nout

    # -- called from C -------------------------------------------------------------------------
    def _bind_now(self):
        mod = source.load_module(self.py_func)
        self._bind(mod, self.py_func.__name__, list(self._sig_texts), self.signature,
                   _TARGETS[self.target])

    def _resolve(self, desc):
        """NumPy's loop search for the inputs described by desc (see the module doc)."""
        ins = desc[:self.nin]
        arrays = [d for d in ins if not d[0]]
        scalars = [d for d in ins if d[0]]
        if _NEP50:
            # NumPy 2: Python numbers are weak (they take any loop type of their kind or a
            # higher one) unless every input is one; NumPy scalars and 0-d arrays are strong
            # (their own dtype, never their value)
            weak = not all(d[0] and d[4] for d in ins)
            for loop in self._loops:
                if all(self._casts_nep50(d, t, weak) for d, t in zip(ins, loop)):
                    return loop
        else:
            use_min = (self.nin > 1 and arrays and scalars and
                       max(_KIND[d[1]] for d in arrays) >= max(_KIND[d[1]] for d in scalars))
            for loop in self._loops:
                if all(self._casts(d, t, use_min) for d, t in zip(ins, loop)):
                    return loop
        if self._dynamic:
            return tuple(d[1] for d in ins)
        got = ", ".join(_DTYPE_NAMES[d[1]] for d in ins)
        raise TypingError(
            f"ufunc '{self.__name__}' not supported for the input types ({got}), and the "
            f"inputs could not be safely coerced to any supported types according to the "
            f"casting rule 'safe'; declared: {', '.join(self._sig_texts)}")

    @staticmethod
    def _casts_nep50(d, to, weak):
        is_scalar, dt, _, _, is_py = d
        if is_scalar and is_py and weak:
            return _KIND[to] >= _KIND[dt]
        return _SAFE[dt][to]

    @staticmethod
    def _casts(d, to, use_min):
        is_scalar, dt, mindt, small, _ = d
        if _SAFE[dt][to]:
            return True
        if not (is_scalar and use_min):
            return False
        if small and to not in _UNSIGNED:
            mindt = _TO_SIGNED.get(mindt, mindt)
        return _SAFE[mindt][to]

    def _record_loop(self, loop, outs):
        if self._dynamic and loop not in self._loops:
            self._loops.append(loop)
            self._outs.append(outs)

    # -- NumPy's ufunc API ---------------------------------------------------------------------
    @property
    def identity(self):
        return None if self._identity == "reorderable" else self._identity

    @property
    def ntypes(self):
        return len(self._loops)

    @property
    def types(self):
        ch = lambda c: _NP_DTYPES[c].char
        return ["".join(map(ch, i)) + "->" + "".join(map(ch, o))
                for i, o in zip(self._loops, self._outs)]

    def _ensure_bound(self):
        if not self._is_bound():
            self._bind_now()

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False):
        """Reduces a binary ufunc along axis (an int, a tuple, or None for all axes)."""
        if self.signature is not None or self.nin != 2 or self.nout != 1:
            raise ValueError("reduce only supported for binary functions")
        self._ensure_bound()
        a = _np.asarray(array)
        if dtype is not None:
            a = a.astype(dtype)
        if a.ndim == 0:
            if axis not in (None, 0, ()):
                raise _np.AxisError(axis, 0)
            return a[()] if out is None else _store(out, a)
        if axis is None:
            axes = tuple(range(a.ndim))
        elif isinstance(axis, tuple):
            axes = tuple(_np.core.multiarray.normalize_axis_index(x, a.ndim) for x in axis)
        else:
            axes = (_np.core.multiarray.normalize_axis_index(axis, a.ndim),)
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        if len(axes) > 1 and self._identity is None:
            raise ValueError(f"reduction operation '{self.__name__}' is not reorderable, so at "
                             "most one axis may be specified")
        r = a
        for ax in sorted(axes, reverse=True):
            r = self._reduce_one(r, ax)
        if keepdims:
            r = _np.expand_dims(r, tuple(sorted(axes)))
        if out is not None:
            return _store(out, r)
        return r[()] if r.ndim == 0 else r

    def _reduce_one(self, a, ax):
        if a.dtype not in _CODE:
            raise TypingError(f"{self.__name__}.reduce: unsupported dtype {a.dtype}")
        rd = _NP_DTYPES[self._result_dtype(_CODE[a.dtype], _CODE[a.dtype])]
        # NumPy resolves a reduction as if out= were the input: the loop's result must cast
        # to the input's dtype under 'same_kind'; the result keeps the loop's dtype.
        if not _np.can_cast(rd, a.dtype, "same_kind"):
            raise TypingError("No loop matching the specified signature and casting was found "
                              f"for ufunc {self.__name__}")
        shape = a.shape[:ax] + a.shape[ax + 1:]
        if a.shape[ax] == 0:
            if self.identity is None:
                raise ValueError(f"zero-size array to reduction operation {self.__name__} "
                                 "which has no identity")
            return _np.full(shape, self.identity, dtype=rd)
        r = _np.empty(shape, rd)
        self._reduce(a, ax, r)
        return r

    def outer(self, a, b):
        """f.outer(a, b)[i..., j...] = f(a[i...], b[j...])."""
        if self.nin != 2 or self.signature is not None:
            raise ValueError("outer product only supported for binary functions")
        a, b = _np.asarray(a), _np.asarray(b)
        return self(a.reshape(a.shape + (1,) * b.ndim), b)

    def accumulate(self, *args, **kwargs):
        raise UnsupportedError("numjit: ufunc.accumulate is not supported yet")

    def at(self, *args, **kwargs):
        raise UnsupportedError("numjit: ufunc.at is not supported yet")

    def __repr__(self):
        kind = "gufunc" if self.signature is not None else "ufunc"
        return f"<numjit {kind} '{self.__name__}'>"


# ---- numpy.ufunc objects ---------------------------------------------------------------------
# NumPy's identity codes (PyUFunc_Zero, _One, _None, _ReorderableNone, _IdentityValue)
_ID_ZERO, _ID_ONE, _ID_NONE, _ID_REORDERABLE, _ID_VALUE = 0, 1, -1, -2, -3
_NP_NUM = tuple(d.num for d in _NP_DTYPES)
# The builders that own the compiled code (and, where _npufunc.c could not hand it to the
# ufunc itself, the capsule that owns what NumPy was given), for as long as the process:
# numpy.ufunc has no weak references, and a ufunc is usually a module global that lives that
# long anyway.  The compiled code lives with its module, which numjit.source keeps as long.
_KEEPALIVE = []


def _identity_code(ident):
    if ident is None:
        return _ID_NONE, None
    if ident == "reorderable":
        return _ID_REORDERABLE, None
    if ident is True or ident is False or not isinstance(ident, (int, float)):
        return _ID_VALUE, ident
    if ident == 0 and isinstance(ident, int):
        return _ID_ZERO, None
    if ident == 1 and isinstance(ident, int):
        return _ID_ONE, None
    return _ID_VALUE, ident


def _build_numpy_ufunc(b, loops):
    """A numpy.ufunc of builder b (a bound UFunc) over loops: (dtypes, loop, data) each."""
    code, value = _identity_code(b._identity)
    typenums = bytes(_NP_NUM[d] for dts, _, _ in loops for d in dts)
    doc = b.py_func.__doc__ or ""
    uf, keep = _numjit._numpy_ufunc(b.py_func.__name__, doc, b.nin, b.nout, code, value,
                                    b.signature, typenums, [(f, d) for _, f, d in loops])
    _KEEPALIVE.append((keep, b) if keep is not None else b)
    serialize.register_ufunc(uf, b)
    return uf


def _numpy_ufunc(self):
    """The numpy.ufunc of a ufunc or gufunc with declared signatures: every signature's loop
    compiled now (as Numba compiles at decoration), in declared order."""
    self._ensure_bound()
    loops = []
    for i in range(len(self._sig_texts)):
        _, dts, fn, data = self._numpy_loop(i, [])
        loops.append((tuple(dts), fn, data))
    return _build_numpy_ufunc(self, loops)


UFunc._numpy_ufunc = _numpy_ufunc
class DUFunc:
    """Numba's DUFunc: a dynamic ufunc.  It holds a numpy.ufunc (``.ufunc``) that starts with
    no loops; a call NumPy finds no loop for compiles one for the inputs' own dtypes (an
    array's dtype, a Python int int64, float float64, bool bool), appends it to the
    numpy.ufunc's loops in place, as Numba does (NumPy's choice of loop for later calls then
    follows Numba's), and calls again.  reduce, accumulate, outer, at and the attributes are
    the current numpy.ufunc's."""

    def __init__(self, builder):
        self._builder = builder
        self._loops = []
        self._frozen = False
        self._keep = []    # every loop array the ufunc had (a call may still be using one)
        functools.update_wrapper(self, builder.py_func)
        self.ufunc = _build_numpy_ufunc(builder, [])

    @property
    def py_func(self):
        """The Python function, as compiled code that calls this ufunc finds it (source.py)."""
        return self._builder.py_func

    def __call__(self, *args, **kws):
        try:
            return self.ufunc(*args, **kws)
        except TypeError:   # no loop for these inputs (Numba's DUFunc catches the same)
            if self._frozen or not self._add_for(args):
                raise
        return self.ufunc(*args, **kws)

    def _add_for(self, args):
        """Compiles the loop for the inputs' dtypes; False when there is none to add."""
        nin = self._builder.nin
        codes = []
        for a in args[:nin]:
            dt = getattr(a, "dtype", None)
            if not isinstance(dt, _np.dtype):
                dt = _np.asarray(a).dtype
            if dt not in _CODE:
                return False
            codes.append(_CODE[dt])
        return len(codes) == nin and self._add_codes(codes)

    def _add_codes(self, codes):
        """Compiles the loop for input dtypes `codes` (NjDType numbers) and appends it."""
        self._builder._ensure_bound()
        sig, dts, fn, data = self._builder._numpy_loop(-1, codes)
        if any(s == sig for s, _ in self._loops):
            return False
        self._loops.append((sig, (tuple(dts), fn, data)))
        loops = [l for _, l in self._loops]
        keep = _numjit._numpy_ufunc_set_loops(
            self.ufunc, bytes(_NP_NUM[d] for dts, _, _ in loops for d in dts),
            [(f, d) for _, f, d in loops])
        if keep is None:
            self.ufunc = _build_numpy_ufunc(self._builder, loops)
        else:
            self._keep.append(keep)
        return True

    def add(self, sig):
        """Compiles the loop of sig (a signature string or object) ahead of calls."""
        s = _parse_sig(sig)
        self._add_for([_np.zeros(1, _NP_DTYPES[_code_of(a)]) for a in s.args])

    def disable_compile(self):
        self._frozen = True

    def __getattr__(self, name):
        if name in ("nin", "nout", "nargs", "ntypes", "types", "identity", "signature",
                    "reduce", "accumulate", "reduceat", "outer", "at"):
            return getattr(self.ufunc, name)
        raise AttributeError(name)

    def __repr__(self):
        return f"<numjit DUFunc '{self.__name__}'>"

    def __reduce__(self):
        """Pickles by value: source text, options, the loops compiled so far."""
        return serialize.reduce_dufunc(self)


def _store(out, r):
    out[...] = r
    return out


_OPTIONS = {"target", "identity", "cache", "fastmath", "nopython", "forceobj", "boundscheck",
            "error_model", "nogil", "writable_args", "locals"}


def _check(kws, who):
    for k in kws:
        if k not in _OPTIONS:
            raise TypeError(f"{who}() got an unexpected keyword argument {k!r}")
    if kws.get("forceobj"):
        raise UnsupportedError("numjit has no object mode: forceobj=True is not supported")
    if kws.get("nopython") is False:
        raise UnsupportedError("numjit has no object mode: nopython=False is not supported")
    ident = kws.get("identity")
    if ident not in (None, 0, 1, "reorderable") and not isinstance(ident, (int, float)):
        raise ValueError(f"{who}: identity must be 0, 1, None or 'reorderable'")


def _is_sig(x):
    return isinstance(x, (str, types.Signature)) or (
        isinstance(x, tuple) and all(isinstance(a, types.Type) for a in x))


def vectorize(ftylist_or_function=(), **kws):
    """Numba's @vectorize: ``@vectorize``, ``@vectorize(["float64(float64, float64)", ...],
    target='cpu'|'parallel'|'cuda', identity=..., cache=..., fastmath=...)``.

    With signatures the result is a numpy.ufunc whose loops are compiled now, as Numba's is;
    without, a DUFunc that compiles a loop for each new combination of input types."""
    _check(kws, "vectorize")

    def make(f, sigs):
        u = UFunc(f, sigs, None, kws.get("target", "cpu"), kws.get("identity"), kws)
        if not isinstance(u, UFunc):     # target='cuda': numjit.gpu_ufunc
            return u
        return _as_numpy(u, lambda: u._numpy_ufunc() if sigs else DUFunc(u))

    if callable(ftylist_or_function) and not isinstance(ftylist_or_function, types.Type):
        return make(ftylist_or_function, [])
    sigs = ftylist_or_function
    if _is_sig(sigs) and sigs != ():     # () is "no signatures": @vectorize(nopython=True)
        sigs = [sigs]
    sigs = list(sigs)
    return lambda f: make(f, sigs)


_numpy_api_ok = True


def _as_numpy(u, build):
    """build() (the numpy.ufunc or DUFunc over builder u), or u itself where the running NumPy
    is not the major version the extension was compiled against (a package built with NumPy
    1.x headers under NumPy 2 raises ImportError on NumPy's C API): u is then numjit's own
    ufunc object, with its own C call path, as before numjit made numpy.ufunc objects."""
    global _numpy_api_ok
    if _numpy_api_ok:
        try:
            return build()
        except ImportError:
            _numpy_api_ok = False
    return u


def guvectorize(*args, **kws):
    """Numba's @guvectorize: ``@guvectorize([sig, ...], "(n),(n)->()", target=...)``.

    Arguments are inputs then outputs; the function writes its outputs.  A "()" output is
    declared as a 1-d array and written as ``out[0]``; a "()" input may be a scalar type.
    The result is a numpy.ufunc with that core signature (target 'cuda': numjit.gpu_ufunc)."""
    _check(kws, "guvectorize")
    if len(args) == 1 and isinstance(args[0], str) and "->" in args[0]:
        from .dyngufunc import DynamicGUFunc    # a layout alone: loops compiled per dtypes
        _layout_counts(args[0])
        return lambda f: DynamicGUFunc(f, args[0], kws.get("target", "cpu"),
                                       kws.get("identity"), kws)
    if len(args) != 2:
        raise TypeError("guvectorize(signatures, layout, **options) takes two arguments")
    sigs, layout = args
    if "signature" in kws:
        raise TypeError("guvectorize: give the layout as the second argument")
    if _is_sig(sigs):
        sigs = [sigs]
    sigs = list(sigs)

    def make(f):
        u = UFunc(f, sigs, layout, kws.get("target", "cpu"), kws.get("identity"), kws)
        return _as_numpy(u, u._numpy_ufunc) if isinstance(u, UFunc) else u
    return make


serialize.install()
set_num_threads = _numjit.set_num_threads
get_num_threads = _numjit.get_num_threads
