"""numjit.extending — Numba's @overload, @overload_method and @overload_attribute.

Libraries built on Numba give compiled code new functions with ``@overload(func)``: the
decorated *typing function* is called with the Numba types of a call's arguments and returns
the Python function to compile for them (the implementation), or None to decline.
``@overload_method(types.Array, "name")`` and ``@overload_attribute(types.Array, "name")`` do
the same for ``a.name(...)`` and ``a.name``, the object's type first.

numjit types a program in C, so the typing function runs when the typer asks: the library's
extension hook (include/numjit.h, nj_set_extension_hook; _extend.c calls ``_hook`` below).
How a name reaches the hook:

  * numjit.source, building the text to compile, finds that a name a compiled def reads is
    bound to an overloaded function (``is_extension``), keeps no def for it and records it
    here under (the compiled file, the name) (``note_name``);
  * the typer, meeting that name where no def, constant, import or builtin binds it, asks the
    hook whether it is an extension (argtypes None), then at each call asks for the
    implementation for the arguments' types (a tuple of spellings, parsed by
    numjit.types.from_spelling into the type objects typing functions test with isinstance);
  * the arguments come positional first, then keywords ("name=TYPE"); a constant argument
    is spelled as its literal ("Literal[int](3)"), and each typing function is called with
    the plain types first and then, if it declines or raises, with the literal types
    (Numba's order; prefer_literal=True reverses it);
  * the typing functions registered for the function are tried in order, those whose
    parameters cannot take the call's arguments skipped (several registered for one function,
    one per arity, as EconForge's interpolation does), and, as in Numba, one that raises
    passes to the next, its error reported only when no other gives an implementation; the
    first that returns a function gives the implementation, whose text numjit.source filters as for any
    compiled function (a def nested in the typing function included) and the library parses
    (a Module, cached by text); the typer compiles its def for the arguments' types.

Methods and attributes are registered per owner: ``"ndarray"`` for types.Array, a scalar
type's name ("float64") for scalar types; a class of types (types.Float) stands for every
scalar type that is an instance of it.  A ``@generated_jit`` function called from compiled code
is the same thing (its generator is the typing function) and goes the same way, and so is an
object whose class has a ``_nj_typing`` method (a ``@stencil``, numjit.stencil).

An intrinsic (``@intrinsic``) builds LLVM IR through llvmlite, which numjit does not have: the
decorator gives an object that raises UnsupportedError when Python calls it, and a compiled
call of it is a located error saying so.
"""

import ast
import functools
import inspect
import threading

from . import _numjit, capture
from . import types as _types
from .errors import UnsupportedError

_lock = threading.RLock()
_overloads = {}      # Python function -> [typing function, ...], in registration order
_methods = {}        # (owner, attribute) -> [typing function, ...]
_attributes = {}     # (owner, attribute) -> [typing function, ...]
_names = {}          # (compiled file, name) -> the extension that name is bound to there
_prefer_literal = set()  # typing functions registered with prefer_literal=True
_installed = False

_FUNC, _METHOD, _ATTR = 0, 1, 2


def _install():
    global _installed
    with _lock:
        if not _installed:
            _numjit.set_extension_hook(_hook)
            _installed = True


class Intrinsic:
    """What @intrinsic gives: Numba's intrinsics write LLVM IR through llvmlite."""

    def __init__(self, func):
        functools.update_wrapper(self, func)
        self._defn = func

    def message(self):
        return (f"numba.extending.intrinsic '{self._defn.__name__}' is not supported by "
                f"numjit: an intrinsic builds LLVM IR through llvmlite and Numba's data "
                f"models, which numjit does not have; write it as a Python function "
                f"(@register_jitable or @overload)")

    def __call__(self, *args, **kwargs):
        raise UnsupportedError(self.message())

    def __repr__(self):
        return f"<numjit intrinsic {self._defn.__qualname__} (not supported)>"


def _jitclass(value):
    from .jitclass import is_jitclass
    return is_jitclass(value)


def _generated(value):
    from .generated import GeneratedDispatcher
    return isinstance(value, GeneratedDispatcher)


def _typed_by_itself(value):
    """An object that answers for its calls itself (a stencil): its _nj_typing method is the
    typing function."""
    return callable(getattr(type(value), "_nj_typing", None))


def is_extension(value):
    """Whether compiled code calling value goes through the extension hook."""
    if isinstance(value, Intrinsic) or _generated(value) or _jitclass(value) or \
            _typed_by_itself(value):
        return True
    try:
        return value in _overloads
    except Exception:  # an unhashable value (an array), or one whose hash raises
        return False


def note_name(filename, name, value):
    """Records that name, in the text compiled under filename, is bound to the extension value."""
    _install()
    with _lock:
        _names[(filename, name)] = value


# ---- the decorators ----------------------------------------------------------------------

def overload(func, jit_options=None, strict=True, inline="never", prefer_literal=False,
             **kwargs):
    """Numba's @overload(func): the decorated typing function is called with the argument
    types of each call of func in compiled code and returns the implementation (or None)."""
    if inline not in ("never", "always") and not callable(inline):
        raise ValueError(f"inline must be 'never', 'always' or a callable, not {inline!r}")

    def decorate(typing_func):
        _install()
        with _lock:
            _overloads.setdefault(func, []).append(typing_func)
            if prefer_literal:
                _prefer_literal.add(typing_func)
        return typing_func
    return decorate


def _owners(typ):
    """The owner names a type class (or a type) stands for: "ndarray", "float64", ..."""
    if isinstance(typ, type):
        if issubclass(typ, _types.Array):
            return ["ndarray"]
        return [t.name for t in _types._SCALARS.values() if isinstance(t, typ)]
    if isinstance(typ, _types.Array):
        return ["ndarray"]
    if isinstance(typ, _types.Scalar):
        return [typ.name]
    return []


def _register(table, what, typ, attr):
    owners = _owners(typ)
    if not owners:
        raise UnsupportedError(
            f"numjit supports {what} on array and scalar types (types.Array, types.Float, "
            f"types.Integer, ...), not on {typ!r}")
    if not isinstance(attr, str) or not attr.isidentifier():
        raise TypeError(f"{what}: the attribute must be a name, not {attr!r}")

    def decorate(typing_func):
        _install()
        with _lock:
            for o in owners:
                table.setdefault((o, attr), []).append(typing_func)
        return typing_func
    return decorate


def register_owner(owner, methods, attributes):
    """Methods and attributes of the type spelled owner (a jitclass's record type,
    numjit.jitclass): a Python function is its own implementation, whatever the argument
    types; any other callable is the typing function."""
    _install()
    with _lock:
        for table, funcs in ((_methods, methods), (_attributes, attributes)):
            for attr, fn in funcs.items():
                table[(owner, attr)] = [(lambda fn: lambda *types: fn)(fn)
                                        if inspect.isfunction(fn) else fn]


def overload_method(typ, attr, **kwargs):
    """Numba's @overload_method(types.Array, "name"): a.name(...) in compiled code."""
    return _register(_methods, "overload_method", typ, attr)


def overload_attribute(typ, attr, **kwargs):
    """Numba's @overload_attribute(types.Array, "name"): a.name in compiled code."""
    return _register(_attributes, "overload_attribute", typ, attr)


def intrinsic(*args, **kwargs):
    """Numba's @intrinsic: an object that refuses to be called (see the module doc)."""
    if len(args) == 1 and not kwargs and callable(args[0]):
        return Intrinsic(args[0])
    return lambda func: Intrinsic(func)


# ---- the hook ------------------------------------------------------------------------------

def _lambda_def(fn):
    """A def standing for the lambda fn (numjit compiles defs from source): its text puts
    the lambda's expression on the lambda's own line and column, in a file of the lambda's
    name, so diagnostics point into the user's file; its closure and globals are the lambda's.
    None when the lambda's source cannot be found."""
    got = capture.snapshot_of(fn)
    if got is None:
        return None
    snap, first = got
    code = fn.__code__
    node = next((n for n in ast.walk(snap.tree()) if isinstance(n, ast.Lambda) and
                 n.lineno == first and len(n.args.args) == code.co_argcount), None)
    if node is None:
        return None
    lines = snap.text.splitlines()
    body = node.body
    expr = [lines[body.lineno - 1].encode()[body.col_offset:].decode()]
    expr += lines[body.lineno:body.end_lineno]
    if body.end_lineno > body.lineno:
        expr[-1] = lines[body.end_lineno - 1].encode()[:body.end_col_offset].decode()
    else:
        expr[0] = lines[body.lineno - 1].encode()[body.col_offset:body.end_col_offset].decode()
    col = len(lines[body.lineno - 1].encode()[:body.col_offset].decode())
    free = list(code.co_freevars)
    head = [f"def _nj_make({', '.join(free)}):",
            f" def _nj_lambda({ast.unparse(node.args)}):", "  return ("]
    pad = max(0, body.lineno - 1 - len(head))
    text = "\n" * pad + "\n".join(head) + "\n" + " " * col + "\n".join(expr) + ")\n" + \
        " return _nj_lambda\n"
    made = {}
    exec(capture._orig_compile(text, snap.filename, "exec", dont_inherit=True), fn.__globals__,
         made)
    cells = [c.cell_contents for c in fn.__closure__ or ()]
    lam = made["_nj_make"](*cells)
    lam.__defaults__ = fn.__defaults__
    capture._record(made["_nj_make"].__code__, capture.Snapshot(snap.filename, text))
    # _record keys the functions inside the code it is given: the lambda's def
    return lam


def _implementation(impl):
    """(Module, def name) of an implementation a typing function returned."""
    from . import source
    fn = getattr(impl, "py_func", impl)
    if not inspect.isfunction(fn):
        raise TypeError(f"an implementation must be a Python function, not {impl!r}")
    if fn.__name__ == "<lambda>":
        lam = _lambda_def(fn)
        if lam is not None:
            fn = lam
    return source.load_module(fn), fn.__name__


def _typings(kind, file, name, attr):
    """The typing functions for the question, or None when it is not an extension."""
    with _lock:
        if kind == _FUNC:
            value = _names.get((file, name))
            if value is None:
                return None
            if isinstance(value, Intrinsic) or _jitclass(value):
                return value
            if _generated(value):
                return [value.py_func]
            if _typed_by_itself(value):
                return [value._nj_typing]
            return list(_overloads.get(value, ()))
        table = _methods if kind == _METHOD else _attributes
        got = table.get((name, attr))
        return list(got) if got else None


def _takes(typing, n, kws):
    """Whether typing can be called with n positional arguments and the keywords kws (its
    signature binds them)."""
    try:
        inspect.signature(typing).bind(*range(n), **dict.fromkeys(kws, 0))
    except TypeError:
        return False
    except ValueError:   # no signature to read (a builtin): let the call decide
        return True
    return True


def _arguments(argtypes):
    """The positional types and the keyword types ({name: type}) of the typer's spellings
    ("int64", "order=Literal[int](1)")."""
    args, kws = [], {}
    for s in argtypes:
        head, eq, rest = s.partition("=")
        if eq and head.isidentifier() and not head.startswith("Literal"):
            kws[head] = _types.from_spelling(rest)
        else:
            args.append(_types.from_spelling(s))
    return tuple(args), kws


def _tries(typing, args, kws):
    """The argument types typing is called with, in Numba's order: without literals first,
    then (if some argument is a literal) with them; the reverse for prefer_literal."""
    plain = (tuple(_types.unliteral(t) for t in args),
             {k: _types.unliteral(t) for k, t in kws.items()})
    if plain == (args, kws):
        return [plain]
    return [(args, kws), plain] if typing in _prefer_literal else [plain, (args, kws)]


def _hook(kind, file, name, attr, argtypes):
    """The answer to the typer (see _extend.c for the protocol)."""
    typings = _typings(kind, file, name, attr or None)
    if not typings:
        return None
    if argtypes is None:
        return True
    if isinstance(typings, Intrinsic):
        raise UnsupportedError(typings.message())
    if _jitclass(typings):   # a jitclass called in compiled code: its constructor
        from .jitclass import constructor
        return _implementation(constructor(typings, len(argtypes)))
    args, kws = _arguments(argtypes)
    failed = None
    for typing in typings:
        if not _takes(typing, len(args), kws):
            continue      # another arity: Numba's template does not match, the next is tried
        for a, k in _tries(typing, args, kws):
            try:
                impl = typing(*a, **k)
            except Exception as e:   # as Numba: the next is tried, the first error reported
                failed = failed or e
                continue
            if impl is not None:
                return _implementation(impl)
    if failed is not None:
        raise failed
    return ("declined", None)


# ---- Numba's lower-level extension API --------------------------------------------------------
# Libraries teach Numba a Python class of their own (sparse's COO) through typeof_impl, a data
# model and @box/@unbox/lower_constant functions that build LLVM IR with llvmlite; Numba loads
# them from the "numba_extensions" entry points of installed packages.  numjit has none of that
# (numjit.dropin refuses those modules and hooks), so such a value cannot be passed to compiled
# code; lower_refusal says so, naming what the library's extension needed, when an argument or
# a global has a class whose package registers such an extension.

_extensions = None   # top-level package -> (entry point, what loading it under numjit raised)


def _load_extensions():
    global _extensions
    if _extensions is not None:
        return _extensions
    _extensions = {}
    try:
        from importlib.metadata import entry_points
        eps = entry_points(group="numba_extensions")
    except Exception:   # no metadata to read: nothing registered
        return _extensions
    for ep in eps:
        top = ep.value.split(":")[0].split(".")[0]
        try:
            ep.load()()
            failed = None
        except Exception as e:   # the lower-level API numjit refuses (or a missing module)
            failed = e
        _extensions[top] = (ep, failed)
    return _extensions


def _where(exc):
    """file:line of the library's statement that raised exc (its last frame outside numjit)."""
    import traceback
    here = __file__.rsplit("/", 1)[0]
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if not f.filename.startswith(here) and not f.filename.startswith("<frozen")]
    return f"{frames[-1].filename}:{frames[-1].lineno}" if frames else None


def lower_refusal(value):
    """Why value (an argument, a global, a class called in compiled code) cannot be used by
    numjit, when its class belongs to a package with a Numba extension; else None."""
    cls = value if isinstance(value, type) else type(value)
    top = (getattr(cls, "__module__", None) or "").split(".")[0]
    if not top or top in ("numpy", "builtins", "numjit", "numba"):
        return None
    with _lock:
        got = _load_extensions().get(top)
    if got is None:
        return None
    ep, failed = got
    why = f": {failed}" if failed is not None else ""
    where = _where(failed) if failed is not None else None
    return (f"{cls.__name__} is a type that {ep.dist.name if ep.dist else top}'s Numba extension "
            f"({ep.value}) defines through Numba's lower-level extension API (typeof_impl, a "
            f"data model, numba.extending.unbox/box and lower_constant written with llvmlite's "
            f"IR builder), which numjit does not support{why}"
            + (f" (at {where})" if where else "")
            + "; pass its arrays and numbers to compiled code instead")
