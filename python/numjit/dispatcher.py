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

import numpy as _np

from . import _numjit, capture, objblocks, source, types
from .errors import UnsupportedError


class Dispatcher(_numjit.Dispatcher):
    """A function compiled by numjit: call it like the Python function it wraps."""

    def __init__(self, py_func, options=None, signatures=()):
        functools.update_wrapper(self, py_func)
        self.py_func = py_func
        self.targetoptions = dict(options or {})
        capture.capture(py_func)   # the text it has now is the text it compiles
        objblocks.rewrite(py_func)  # `with objmode(...)` blocks cut out of that text
        self._pysig = inspect.signature(py_func)
        # refused when first compiled, not here: Numba compiles lazily, and a library's module
        # must import although one of its functions (never called) has such parameters
        self._refusal = None
        self._star = False
        params = list(self._pysig.parameters.values())
        for i, p in enumerate(params):
            if p.kind == p.VAR_POSITIONAL and i == len(params) - 1:
                self._star = True      # *args: the extra arguments, passed as one tuple
            elif p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                self._refusal = (
                    f"numjit: parameter '{p.name}' of {py_func.__qualname__}: only positional "
                    "parameters and *args are supported (no **kwargs, keyword-only)")
                break
        self._nparams = py_func.__code__.co_argcount + self._star
        if self._star:
            self.__class__ = _StarDispatcher
        self._nogil = bool(self.targetoptions.get("nogil", False))
        self._returns = {}
        self._declared_sigs = tuple(signatures)  # shipped by pickling (serialize.py)
        self._compile_disabled = False
        for sig in signatures:
            self.compile(sig)
        if signatures:
            self._freeze()  # Numba's disable_compile(): declared signatures only
            self._compile_disabled = True
        if inspect.isgeneratorfunction(py_func):
            self.__class__ = _GeneratorDispatcher
            self._mark_generator()

    # -- called from C -------------------------------------------------------------------------
    def _bind_now(self):
        """Compiles (or finds) the module of py_func and attaches the function to it."""
        if self._refusal:
            raise UnsupportedError(self._refusal)
        mod = source.load_module(self.py_func, self.targetoptions)
        self._bind(mod, self.py_func.__name__, self._nparams, self._nogil)

    def _fold_args(self, args, kwargs):
        """Keywords and defaults → one positional tuple, bound as Numba's dispatcher binds
        them, with its messages: the count first ("too many arguments: expected 2, got 3",
        "not enough arguments: expected at least 1, got 0"), then each parameter left from
        the keywords or its default ("missing argument 'x'"), and keywords naming no such
        parameter last ("some keyword arguments unexpected")."""
        params = list(self._pysig.parameters.values())
        kwargs = dict(kwargs or {})
        rest = ()
        if self._star:                 # def f(a, *args): f(1, 2, 3) is f(1, (2, 3))
            params.pop()
            rest, args = tuple(args[len(params):]), tuple(args[:len(params)])
        nreq = sum(1 for p in params if p.default is p.empty)
        given = len(args) + len(kwargs)
        if given > len(params):
            raise TypeError(f"too many arguments: expected {len(params)}, got {given}")
        if given < nreq:
            least = "" if nreq == len(params) else "at least "
            raise TypeError(f"not enough arguments: expected {least}{nreq}, got {given}")
        out = list(args)
        for p in params[len(args):]:
            if p.name in kwargs:
                out.append(kwargs.pop(p.name))
            elif p.default is not p.empty:
                out.append(p.default)
            else:
                raise TypeError(f"missing argument '{p.name}'")
        if kwargs:
            raise TypeError("some keyword arguments unexpected")
        return tuple(out) + ((rest,) if self._star else ())

    def _call_with_functions(self, args):
        """A call whose arguments hold jitted functions (called from C when classifying
        them failed): through a variant compiled per function, numjit.funcargs."""
        from . import funcargs
        return funcargs.call(self, tuple(args))

    # -- Numba's API ---------------------------------------------------------------------------
    def compile(self, sig):
        """Compiles a signature now: "float64(float64[:], int64)", a Signature, or a tuple
        of argument types; a return type given converts the result to it.  Returns the entry
        point, as Numba does: a callable running that specialization (see CompiledEntry).
        With declared signatures or after disable_compile(), RuntimeError, as Numba's."""
        if self.__dict__.get("_compile_disabled"):
            raise RuntimeError("compilation disabled")
        if not self._is_bound():
            self._bind_now()
        declared = _declared(sig)
        if declared is None:  # a spelling only the library reads
            spelling = types.signature_args(sig)
            self._compile(spelling)
            argtypes = _parse_args(spelling)
        else:
            argtypes, ret = declared
            argtypes = tuple(argtypes)
            self._compile(tuple(_spec(a) for a in argtypes), _return_spec(ret))
            if ret is not None:
                self._returns[argtypes] = ret
            spelling = "(" + ", ".join(str(a) for a in argtypes) + ")"
        explicit = self.__dict__.setdefault("_explicit", [])
        if spelling not in explicit:
            explicit.append(spelling)
        return CompiledEntry(self, argtypes, spelling)

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
        """Argument types of every specialization compiled so far (by calls, by compile() or
        declared), as tuples of types."""
        return [tuple(types.from_spelling(p) for p in _split_args(s)) for s in self._spellings()]

    def _spellings(self):
        out = []
        for s in list(self._signatures()) + list(self.__dict__.get("_explicit", ())):
            if s not in out and not any(_same_spelling(s, o) for o in out):
                out.append(s)
        return out

    def signature_of(self, *args):
        """The signature string a call with these arguments dispatches to."""
        return self._signature_of(tuple(args))

    def _dumps(self, what, signature):
        if not self._is_bound():
            self._bind_now()
        if signature is not None:
            return self._dump(types.signature_args(signature), what)
        return {_parse_args(s): self._dump(s, what) for s in self._spellings()}

    def inspect_llvm(self, signature=None):
        """Optimized LLVM IR: one string for a signature (a tuple of argument types, as in
        .signatures), else a dict over the compiled ones."""
        return self._dumps("llvm", signature)

    def inspect_asm(self, signature=None):
        """x86-64 assembly: one string for a signature, else a dict over compiled ones."""
        return self._dumps("asm", signature)

    def inspect_types(self, file=None, signature=None, pretty=False, style="default",
                      **kwargs):
        """Prints numjit's typed IR of each compiled signature (or of one) to file (standard
        output), as Numba prints its typed annotation; returns None."""
        import sys
        file = file or sys.stdout
        texts = self._dumps("typed", signature)
        if signature is not None:
            texts = {types.signature_args(signature): texts}
        for sig, text in texts.items():
            spelled = sig if isinstance(sig, str) else \
                "(" + ", ".join(str(t) for t in sig) + ")"
            print(f"{self.py_func.__name__} {spelled}", file=file)
            print("-" * 80, file=file)
            print(text, file=file)
            print("=" * 80, file=file)

    # -- the rest of Numba's dispatcher API ----------------------------------------------------
    @property
    def nopython_signatures(self):
        """Signature objects (result type included) of the compiled specializations."""
        return [types.Signature(_return_type(self._dump(s, "typed")), _parse_args(s))
                for s in self._spellings()]

    @property
    def overloads(self):
        """{argument types: entry point} of the compiled specializations."""
        return {_parse_args(s): CompiledEntry(self, _parse_args(s), s)
                for s in self._spellings()}

    def disable_compile(self, val=True):
        """After this, a call whose argument types have no compiled specialization raises
        TypeError instead of compiling one, as in Numba; disable_compile(False) undoes it."""
        self.__class__ = _FrozenDispatcher if val else \
            _StarDispatcher if self._star else Dispatcher
        self._compile_disabled = bool(val)

    def recompile(self):
        raise UnsupportedError(
            f"numjit: {self.py_func.__qualname__}.recompile() is not supported: numjit reads "
            "a function's globals at its first compilation; make a new dispatcher instead "
            "(numba.njit(f.py_func))")

    def __repr__(self):
        return f"<numjit.Dispatcher {self.py_func.__qualname__}>"

    def __reduce__(self):
        """Pickles by value: source text, options (numjit.serialize)."""
        from . import serialize
        return serialize.reduce_dispatcher(self)


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


def _same_spelling(a, b):
    """Whether two argument spellings name the same types."""
    try:
        return [str(types.from_spelling(p)) for p in _split_args(a)] == \
            [str(types.from_spelling(p)) for p in _split_args(b)]
    except Exception:
        return False


class _StarDispatcher(Dispatcher):
    """A Dispatcher of a function with *args, which compiled code takes as its last parameter,
    a tuple of the extra positional arguments (as Numba passes them)."""

    def __call__(self, *args, **kwargs):
        return Dispatcher.__call__(self, *self._fold_args(args, kwargs))


class _Generator:
    """What calling a jitted generator of strings from Python gives: an iterator over the
    values, which numjit computes all at the call (the compiled function returns their list,
    typer_gen.c).  A generator of numbers gives _numjit.Generator instead, which runs the
    compiled coroutine to each next value (_gen.c, codegen/genobj.c), as Numba's does."""

    __slots__ = ("_it",)

    def __init__(self, values):
        self._it = iter(values)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)


class _GeneratorDispatcher(Dispatcher):
    """A Dispatcher of a def with yield: a call returns a generator object (the C dispatcher
    makes the lazy one itself; a list of values is wrapped here)."""

    def __call__(self, *args, **kwargs):
        r = Dispatcher.__call__(self, *args, **kwargs)
        return r if type(r) is _numjit.Generator else _Generator(r)


class _FrozenDispatcher(Dispatcher):
    """A Dispatcher after disable_compile(): calls only what is compiled."""

    def __call__(self, *args, **kwargs):
        folded = self._fold_args(args, kwargs) if kwargs or len(args) != self._nparams \
            else args
        sig = self.signature_of(*folded)
        known = self._spellings()
        if sig in known:
            return Dispatcher.__call__(self, *folded)
        # as Numba: the first compiled signature every argument converts to safely
        got = [typeof_value(a) for a in folded]
        for s in known:
            want = _parse_args(s)
            if all(_converts(g, w) for g, w in zip(got, want)):
                return CompiledEntry(self, want, s)(*folded)
        raise TypeError("No matching definition for argument type(s) "
                        + ", ".join(str(g) for g in got))


def _converts(got, want):
    """Whether a value of type `got` may run a specialization for `want` (Numba's safe
    conversions: scalars by NumPy's 'safe' casting, arrays of the same dtype and ndim into
    layout 'A' or their own)."""
    if isinstance(want, types.Scalar) and isinstance(got, types.Scalar):
        return bool(_np.can_cast(got.dtype, want.dtype, "safe"))
    if isinstance(want, types.Array) and isinstance(got, types.Array):
        return got.dtype == want.dtype and got.ndim == want.ndim and \
            want.layout in ("A", got.layout)
    return got == want


def typeof_value(v):
    return types.from_spelling(_numjit.typeof(v))


class CompiledEntry:
    """What Dispatcher.compile(sig) returns (Numba's entry point): called with arguments
    of the signature's types (scalars are converted to them, as Numba's entry point converts
    on unboxing), it runs that specialization; arrays must have its dtype and ndim."""

    def __init__(self, dispatcher, argtypes, spelling):
        self._dispatcher = dispatcher
        self.argtypes = argtypes
        self.signature = spelling
        self.__name__ = dispatcher.py_func.__name__

    def __call__(self, *args):
        if len(args) != len(self.argtypes):
            raise TypeError(f"{self.__name__}{self.signature} takes {len(self.argtypes)} "
                            f"arguments, got {len(args)}")
        conv = []
        for a, t in zip(args, self.argtypes):
            if isinstance(t, types.Scalar):
                a = t(a)
            elif isinstance(t, types.Array):
                got = typeof_value(a)
                if not isinstance(got, types.Array) or got.dtype != t.dtype or \
                        got.ndim != t.ndim:
                    raise TypeError(f"{self.__name__}{self.signature}: {got} given for {t}")
            conv.append(a)
        return Dispatcher.__call__(self._dispatcher, *conv)

    def __repr__(self):
        return f"<numjit entry point {self.__name__}{self.signature}>"


def _parse_args(spelling):
    """"(float64[::1], int64)" -> (float64[::1], int64) as types."""
    return tuple(types.from_spelling(p) for p in types._split_top(spelling.strip()[1:-1]))


def _return_type(typed_ir):
    """The result type named on the first `func` line of a typed-IR dump."""
    for line in typed_ir.splitlines():
        if line.startswith("func "):
            head = line.split(") -> ", 1)[1]
            depth = 0
            for i, ch in enumerate(head):
                if ch in "([":
                    depth += 1
                elif ch in ")]":
                    depth -= 1
                elif ch == " " and depth == 0:
                    return types.from_spelling(head[:i])
            return types.from_spelling(head)
    raise ValueError("no function in the typed IR")
