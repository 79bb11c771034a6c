"""numjit.source — the source text numjit compiles for a Python function.

A function compiles from the text it had when it was decorated (numjit.capture keeps it), so
an edit of the file or a later def of the same name changes nothing, as under Numba.  The text
handed to the library is that file *filtered* by Python's own parser (the ``ast`` module), line
for line, down to what the function needs:

  * kept as written: imports of math, cmath, numpy, numba, numjit and random; the def of the
    function being compiled; and, transitively, the def of every compiled function (njit, jit,
    vectorize, guvectorize, cuda.jit) a kept def names, found through the *value* the name has
    in that def's globals (or closure) now, on the first compilation, as Numba resolves
    globals: a later redefinition, a function published with ``global`` from inside another
    function, one assigned to the module after the caller was decorated.  An undecorated
    top-level def of the file that a kept def calls is kept too (compiled as njit);
  * module constants: a top-level ``NAME = ...`` whose current value in the module is an int,
    float, bool, NumPy scalar or a tuple of those becomes ``NAME = <that value>`` — Numba
    freezes global values at compile time the same way — and a constant expression not yet
    run (an eager ``@njit(sig)`` during import) is kept as written; a C function given by
    address (a WrapperAddressProtocol object or a ctypes function pointer) becomes
    ``NAME = numjit._address_function(ADDRESS, "SIGNATURE")``, which compiled code calls; a
    NumPy array of numbers becomes ``NAME = numjit._frozen_array(ADDRESS, "DTYPE", SHAPE)``,
    a read-only copy made now (Numba freezes global arrays as read-only constants);
  * every other line becomes an empty line, so a construct numjit cannot parse in a function
    the compiled one does not need never reaches the compiler.

Because lines keep their numbers and columns, every diagnostic points into the user's file.
What cannot stay at its own line is appended after the last one: numeric globals that no
top-level assignment defines (``from config import N``, closure variables), imports a def from
another module needs, and the defs of compiled functions from other files (``core.f(x)``
through an imported module, functions defined inside functions, a redefinition's earlier
body).  Each appended def follows a ``# numjit-source: LINE COLS FILE`` line, from which
diagnostics name the place the def really is (base/diag.c).  An attribute chain through a
module the compiler does not know (``core.f``, ``cfg.N``) is written as one fresh name of the
same length, bound to the function or constant, so the columns of the line stay put.

Decorators: a kept def's jit decorator stays (the compiler reads the options there), with
arguments written as values where they were names (``target=TARGET``); any other decorator (a
library's own, which calls ``guvectorize`` later) is blanked; and a def that
``njit(**options)(f)`` compiled, whose text shows no jit decorator, gets ``@numjit.njit(...)``
with those options, on its first decorator's line or, appended, before its mark.

A function defined inside another function is compiled with its def dedented on its own lines;
its closure variables are constants (numbers) or functions as above.

Compiled modules are cached by (file, filtered text).
"""

import ast
import builtins
import ctypes as _ctypes
import numbers
import re
import sys
import threading
import warnings
import weakref

import numpy as _np

from . import _numjit, capture, extending
from . import types as _types
from .errors import NumjitError, TypingError, UnsupportedError

_JIT_DECORATORS = {"njit", "jit", "vectorize", "guvectorize", "generated_jit"}
_IMPORT_ROOTS = {"math", "cmath", "numpy", "numba", "numjit", "random"}

_lock = threading.RLock()
_module_cache = {}  # (filename, filtered text) -> _numjit.Module
_shipped = weakref.WeakKeyDictionary()  # function -> (filename, text): ship()


def _is_jit_decorator(node):
    """@njit, @numba.njit, @nb.jit(...), @vectorize([...]), @cuda.jit, ..."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id in _JIT_DECORATORS
    if isinstance(node, ast.Attribute):
        return node.attr in _JIT_DECORATORS
    return False


def _keep_import(node):
    if isinstance(node, ast.Import):
        return all(a.name.split(".")[0] in _IMPORT_ROOTS for a in node.names)
    if isinstance(node, ast.ImportFrom):
        return node.level == 0 and (node.module or "").split(".")[0] in _IMPORT_ROOTS
    return False


def _bound_by(value, node):
    """Whether value (a module global) is what import `node` binds: the module or an object
    from it, numba's names counting as numjit's (the drop-in maps one to the other)."""
    if value is None:
        return False
    name = getattr(value, "__name__", None) if isinstance(value, type(ast)) else \
        getattr(value, "__module__", None)
    root = (name or "").split(".")[0]
    if isinstance(node, ast.Import):
        wanted = {a.name.split(".")[0] for a in node.names}
    else:
        wanted = {(node.module or "").split(".")[0]}
    if "numba" in wanted:
        wanted.add("numjit")
    return root in wanted


def _is_const_expr(node):
    """Literals combined with arithmetic: what the compiler folds as a module constant."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (bool, int, float, complex))
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, (ast.USub, ast.UAdd)) and _is_const_expr(node.operand)
    if isinstance(node, ast.BinOp):
        return _is_const_expr(node.left) and _is_const_expr(node.right)
    return False


# Constants whose type a plain literal would lose are spelled through this import, appended
# to the compiled text (numjit's own type names, which the compiler resolves).
_NJ = "__numjit_types"


def _literal(value):
    """Source text of a numeric value, or None when it has none (nan) or is not numeric.
    A NumPy scalar keeps its type (np.float32(0.1) stays float32), and an integer past int64
    becomes a uint64, as Numba types them."""
    if isinstance(value, _types.WrapperAddressProtocol):
        return _address_function(value)
    if isinstance(value, _ctypes._CFuncPtr):
        return _ctypes_function(value)
    if _is_namedtuple_class(value):
        return _namedtuple(value)
    if isinstance(value, _np.generic) and isinstance(value, (_np.number, _np.bool_)):
        kind = value.dtype.name
        value = value.item()
        if kind not in ("float64", "int64", "bool"):
            inner = _literal(value)
            if inner is None or kind not in _SCALAR_NAMES:
                return None
            if kind == "uint64" and value >= 2**63:
                inner = repr(value - 2**64)
            return f"{_NJ}.{kind}({inner})"
    if isinstance(value, _np.dtype) and value.fields is not None:
        # a record dtype: its Numba spelling, which np.empty(n, dtype=DT) reads back
        try:
            return repr(str(_types._from_numpy_dtype(value)))
        except Exception:
            return None
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, numbers.Integral):
        if 2**63 <= value < 2**64:
            return f"{_NJ}.uint64({value - 2**64})"
        if not -2**63 <= value < 2**63:
            return None
        return repr(int(value))
    if isinstance(value, float):
        if value != value:
            return None
        if value in (float("inf"), float("-inf")):
            return "1e999" if value > 0 else "-1e999"
        return repr(value)
    if isinstance(value, tuple) and value and len(value) <= 64:   # (1, 2.5, (3, 4))
        items = [_literal(v) for v in value]
        if any(i is None for i in items):
            return None
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(value, complex):  # a literal expression the compiler folds: (re + imj)
        re, im = _literal(value.real), _literal(abs(value.imag))
        if re is None or im is None:
            return None
        return f"({re} {'-' if str(value.imag).startswith('-') else '+'} {im}j)"
    return None


# namedtuple classes written into compiled text, by name (the latest of a name): a result of
# that named tuple type is boxed as an instance of the class (namedtuple_class)
_namedtuple_classes = {}


def _is_namedtuple_class(value):
    return isinstance(value, type) and issubclass(value, tuple) and \
        isinstance(getattr(value, "_fields", None), tuple) and \
        all(isinstance(f, str) and f.isidentifier() for f in value._fields)


def _namedtuple(cls):
    """`numjit._namedtuple("results", ("root", ...))` for a collections.namedtuple class,
    which compiled code calls to build a named tuple (lib/namedtuple.c)."""
    if not cls.__name__.isidentifier() or len(cls._fields) > 64:
        return None
    _namedtuple_classes[cls.__name__] = cls
    fields = "".join(f'"{f}", ' for f in cls._fields)
    return f'{_NJ}._namedtuple("{cls.__name__}", ({fields}))'


def namedtuple_class(spelling):
    """The class of a named tuple type spelled "results(float64, int64)", or None."""
    return _namedtuple_classes.get(spelling.split("(", 1)[0])


def _address_function(value):
    """`numjit._address_function(ADDRESS, "float64(float64)")`: a C function given by its
    address, as Numba's WrapperAddressProtocol gives one (numba-stats wraps SciPy's Cython
    special functions so); the compiler calls it through the address (lib/address.c).  The
    object's two methods are asked now, when the caller is first compiled, as Numba asks
    them when it types the global."""
    try:
        addr = value.__wrapper_address__()
        sig = value.signature()
        text = f"{sig.return_type.spelling}{sig.args_spelling}"
    except Exception as e:
        raise NumjitError(f"numjit: the C function {value!r} (a WrapperAddressProtocol) gave "
                          f"no address and signature: {type(e).__name__}: {e}") from None
    if not isinstance(addr, int) or not 0 < addr < 2**63:
        raise NumjitError(f"numjit: the C function {value!r} (a WrapperAddressProtocol) gave "
                          f"{addr!r} as its address, not a positive int")
    return f'{_NJ}._address_function({addr}, "{text}")'


# Global arrays frozen so far: id of the array -> (the array, its copy).  Both live as long as
# the process (compiled code may read the copy at any time; the original keeps its id from
# being reused).  A global changed since it was frozen is frozen again for a later compile.
_frozen = {}
_FROZEN_KINDS = "biufc"


def _frozen_array(value):
    """`numjit._frozen_array(ADDRESS, "float64", (4, 4))` for a global NumPy array, as Numba
    freezes one when the caller is first compiled: a read-only C-ordered copy, made once and
    never freed, at whose address compiled code reads it (lib/address.c).  None for a dtype
    that is not a number or a boolean.  The address is part of the text, so the in-memory and
    disk caches, keyed by text, only give back code that reads this process's copy."""
    if value.dtype.kind not in _FROZEN_KINDS or value.dtype.byteorder == ">":
        return None
    try:
        dtype = str(_types._from_numpy_dtype(value.dtype))
    except Exception:
        return None
    with _lock:
        got = _frozen.get(id(value))
        if got is None or got[0] is not value or got[1].shape != value.shape or \
                not _np.array_equal(got[1], value, equal_nan=value.dtype.kind in "fc"):
            copy = _np.array(value, order="C", copy=True)
            if copy.size == 0:           # an address that is not NULL, never read
                copy = _np.empty(1, value.dtype)[:0].reshape(value.shape)
            copy.flags.writeable = False
            _numjit._note_frozen(copy.ctypes.data, copy.nbytes)
            got = _frozen[id(value)] = (value, copy)
    copy = got[1]
    shape = "(" + "".join(f"{n}, " for n in copy.shape).rstrip(" ") + ")"
    return f'{_NJ}._frozen_array({copy.ctypes.data}, "{dtype}", {shape})'


# Numba's _FROM_CTYPES (numba/core/typing/ctypes_utils.py) less what numjit's C calls cannot
# pass (bool, pointers, py_object); c_int, c_long, ... are these classes under other names
_FROM_CTYPES = {_ctypes.c_int8: "int8", _ctypes.c_int16: "int16", _ctypes.c_int32: "int32",
                _ctypes.c_int64: "int64", _ctypes.c_uint8: "uint8", _ctypes.c_uint16: "uint16",
                _ctypes.c_uint32: "uint32", _ctypes.c_uint64: "uint64",
                _ctypes.c_float: "float32", _ctypes.c_double: "float64"}


def _ctypes_function(fnptr):
    """`numjit._address_function(ADDRESS, "float64(float64)")` for a ctypes function pointer
    (`libm.cos` with its argtypes and restype set), which Numba calls from compiled code too."""
    name = getattr(fnptr, "__name__", repr(fnptr))
    if fnptr.argtypes is None:
        raise TypingError(f"ctypes function '{name}' doesn't define its argument types; "
                          f"consider setting the `argtypes` attribute")
    types_ = list(fnptr.argtypes) + [fnptr.restype]
    spelled = [_FROM_CTYPES.get(t) if t is not None else "void" for t in types_]
    if any(t is None for t in spelled[:-1]) or spelled[-1] is None:
        bad = next(t for t, n in zip(types_, spelled) if n is None)
        raise UnsupportedError(f"numjit calls ctypes functions of integers and floats only; "
                               f"'{name}' has {bad.__name__}")
    addr = _ctypes.cast(fnptr, _ctypes.c_void_p).value
    return f'{_NJ}._address_function({addr}, "{spelled[-1]}({", ".join(spelled[:-1])})")'


_SCALAR_NAMES = {"int8", "int16", "int32", "uint8", "uint16", "uint32", "uint64", "float32"}


def _decorator_value(node, module_globals):
    """The value of a decorator argument written as a name, attribute or subscript chain
    (`target=TARGET`, `cfg.FAST`, `sys.argv[2]`), looked up in the module; or None."""
    if isinstance(node, ast.Constant) or any(isinstance(n, (ast.Call, ast.Lambda, ast.NamedExpr))
                                             for n in ast.walk(node)):
        return None
    if not isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
        return None
    try:
        value = eval(compile(ast.Expression(node), "<decorator>", "eval"),  # noqa: S307
                     dict(module_globals))
    except Exception:
        return None
    ok = (str, bool, int, float, type(None))
    if isinstance(value, ok) or (isinstance(value, (list, tuple)) and
                                 all(isinstance(v, str) for v in value)):
        return repr(list(value) if isinstance(value, tuple) else value)
    return None


def _freeze_decorator_args(node, out, module_globals, options=None):
    """Writes the values of a kept def's non-literal decorator arguments into its decorator
    line (`@vectorize(SIGS, target=TARGET)` becomes `@vectorize([...], target='cpu')`): the
    decorator has already run with those values, and the compiler reads the line.  A keyword
    naming a local of an enclosing function (`@njit(parallel=parallel)` inside a test) is not
    in the module; its value is the one the decorator gave the dispatcher (options)."""
    edits = {}
    for d in node.decorator_list:
        if not isinstance(d, ast.Call):
            continue
        named = [(None, a) for a in d.args] + [(k.arg, k.value) for k in d.keywords]
        for key, arg in named:
            if arg.lineno != arg.end_lineno:
                continue
            text = _decorator_value(arg, module_globals)
            if text is None and options and key in _TEXT_OPTIONS and \
                    isinstance(arg, ast.Name) and isinstance(options.get(key), (bool, str)):
                text = repr(options[key])
            if text is not None:
                edits.setdefault(arg.lineno - 1, []).append((arg.col_offset, arg.end_col_offset,
                                                             text))
    for i, spans in edits.items():
        line = out[i].encode()
        for a, b, text in sorted(spans, reverse=True):
            line = line[:a] + text.encode() + line[b:]
        out[i] = line.decode()


def _locals_of(node):
    """Names a def binds itself (parameters and assignment targets): never module globals."""
    names = {a.arg for a in node.args.args + node.args.posonlyargs + node.args.kwonlyargs}
    names |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and
              isinstance(n.ctx, (ast.Store, ast.Del))}
    return names


def _names_read(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _span(node):
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return first, node.end_lineno


def _find_def(tree, name, first_line):
    """The FunctionDef named name whose lines hold first_line: top level first, else anywhere
    (a function defined inside a function); and whether it is top level."""
    for top, nodes in ((True, tree.body), (False, ast.walk(tree))):
        for node in nodes:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                first, last = _span(node)
                if first <= first_line <= last:
                    return node, top
    return None, False


def _jitted(value):
    """The Python function behind a compiled function (a Dispatcher, a ufunc, a CUDA kernel or
    device function: anything of numjit's with a py_func), else None."""
    fn = getattr(value, "py_func", None) if not isinstance(value, type) else None
    if isinstance(fn, _FunctionType) and type(value).__module__.startswith("numjit"):
        return fn
    if isinstance(value, _np.ufunc):  # a @vectorize/@guvectorize result is NumPy's own type
        from . import serialize
        builder = serialize.builder_of(value)
        fn = getattr(builder, "py_func", None)
        if isinstance(fn, _FunctionType):
            return fn
    return None


def ship(func, filename, text):
    """Records that func is to be compiled from (filename, text): a function rebuilt from
    pickled source (numjit.serialize) compiles exactly the text it was shipped with."""
    with _lock:
        _shipped[func] = (filename, text)


_FunctionType = type(_jitted)
_MISSING = object()


def _closure_of(fn):
    out = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            out[name] = cell.cell_contents
        except ValueError:
            pass
    return out


def _chains(node):
    """Attribute chains `a.b.c` on one line whose root is a plain name, outermost only:
    (ast node, [root name, attr, ...])."""
    out, inner = [], set()
    for n in ast.walk(node):
        if not isinstance(n, ast.Attribute) or id(n) in inner or n.lineno != n.end_lineno:
            continue
        parts, x = [], n
        while isinstance(x, ast.Attribute):
            parts.append(x.attr)
            x = x.value
            inner.add(id(x))
        if isinstance(x, ast.Name) and isinstance(n.ctx, ast.Load):
            out.append((n, [x.id] + parts[::-1]))
    return out


def _canonical(value):
    """"numpy.isclose": where a function lives, as the compiler spells a module's name."""
    mod = getattr(value, "__module__", None) or ""
    mod = "numba" + mod[6:] if mod.split(".")[0] == "numjit" else mod
    return f"{mod}.{getattr(value, '__name__', '')}"


def _import_line(name, value):
    """An import that binds name to value (a module or a name of one the compiler knows), or
    None: `import numpy as np`, `from math import sqrt as sqrt`."""
    if getattr(builtins, name, None) is value:  # str, len, ...: no import
        return None
    if isinstance(value, type(ast)):
        if value.__name__.split(".")[0] in _IMPORT_ROOTS:
            return f"import {value.__name__} as {name}"
        return None
    own = getattr(value, "__name__", None)
    for attr in (name, own) if isinstance(own, str) and own != name else (name,):
        for modname in ("numjit", "numjit.cuda", "numpy", "math", "cmath", "random",
                        "numpy.random"):
            mod = sys.modules.get(modname)
            try:
                with warnings.catch_warnings():  # np.str and the like warn when read
                    warnings.simplefilter("ignore")
                    found = getattr(mod, attr, None) if mod is not None else None
                if found is value:
                    return f"from {modname} import {attr} as {name}"
            except Exception:  # a module attribute that raises when read
                continue
    if value is range:  # numba.prange is range in Python: `from numba import prange as _p`
        return f"from numjit import prange as {name}"
    return None


class _Kept:
    """A def the compiled text holds: where it comes from, the names it sees, how it is named."""
    __slots__ = ("fn", "snap", "node", "ns", "closure", "name", "inplace", "dedent", "edits",
                 "deco", "options")

    def __init__(self, fn, snap, node, ns, closure, name, inplace, dedent=0):
        self.fn, self.snap, self.node, self.ns, self.closure = fn, snap, node, ns, closure
        self.name, self.inplace, self.dedent = name, inplace, dedent
        self.edits = {}    # line index -> [(start byte, end byte, text)]
        self.deco = None   # a decorator line to write, when the text has no jit decorator
        self.options = None  # the dispatcher's options, where the caller knows them


class _Builder:
    """The compiled text for one function: its file filtered (see the module doc), plus what
    it needs from elsewhere appended after the last line, each piece marked with its origin."""

    def __init__(self, snap, func):
        self.snap, self.func = snap, func
        self.src_lines = snap.text.splitlines(keepends=True)
        self.out = ["\n"] * len(self.src_lines)
        self.defined = set()     # names the text binds
        self.consts = {}         # name -> literal text, of constants the text binds
        self.funcs = {}          # name -> identity of the function bound to it
        self.used = set()        # line indexes of the file taken by kept defs
        self.kept = []
        self.todo = []
        self.tail = []           # lines after the file's: imports and constants
        self.pieces = []         # appended defs: (origin mark, lines)
        self.alive = []          # functions whose id() is a key above
        self.node_keys = {}      # id of a def node -> identity of its function
        self.idents = set(re.findall(r"[A-Za-z_]\w*", snap.text))
        self.nalias = 0
        self.ext_seen = {}       # name -> where the extension it is bound to lives

    # -- what gets kept ----------------------------------------------------------------------
    def add(self, fn, name, snap=None, node=None, ns=None, top=True, options=None):
        """Keeps fn's def (or, with fn None, a def of the file that no global binds yet) under
        name, once per (function, name); options: those of njit(**options)(fn)."""
        key = id(fn) if fn is not None else self.node_keys.get(id(node), id(node))
        have = self.funcs.get(name)
        if have is not None:
            if have != key:
                where = getattr(fn, "__qualname__", name)
                raise NumjitError(
                    f"numjit: the name '{name}' stands for two different functions in the code "
                    f"that {self.func.__qualname__} calls ({where} is one); give them distinct "
                    f"names")
            return
        self.funcs[name] = key
        self.alive.append(fn if fn is not None else node)
        if fn is not None:
            got = capture.snapshot_of(fn)
            if got is None:
                raise _no_source(fn)
            snap, first = got
            node, top = _find_def(snap.tree(), fn.__name__, first)
            if node is None:
                raise NumjitError(f"numjit: cannot find the def of {fn.__qualname__!r} in "
                                  f"{snap.filename}")
            ns, closure = fn.__globals__, _closure_of(fn)
            self.node_keys.setdefault(id(node), key)
        else:
            closure = {}
        first, last = _span(node)
        lines = set(range(first - 1, last))
        deco = _options_decorator(options, node)
        inplace = snap is self.snap and (top or fn is self.func) and node.name == name and \
            not lines & self.used and (deco is None or node.decorator_list)
        if inplace:
            self.used |= lines
        kept = _Kept(fn, snap, node, ns, closure, name, inplace,
                     0 if top else node.col_offset)
        kept.deco = deco
        kept.options = options
        self.kept.append(kept)
        self.todo.append(kept)
        self.defined.add(name)

    def resolve(self, kept, name):
        if name in kept.closure:
            return kept.closure[name]
        return kept.ns.get(name, _MISSING)

    def scan(self, kept):
        """Follows what kept's def names: functions (kept too), constants, modules."""
        local = _locals_of(kept.node)
        for name in sorted(_names_read(kept.node) - local):
            value = self.resolve(kept, name)
            if extending.is_extension(value):
                # @overload'ed, @generated_jit, @intrinsic: typed by the extension hook;
                # `from numpy import isclose` reaches it as numpy.isclose
                extending.note_name(self.snap.filename, name, value)
                extending.note_name(self.snap.filename, _canonical(value), value)
                self.ext_seen[name] = _canonical(value)
                self.defined.add(name)
                continue
            fn = _jitted(value)
            if fn is not None:
                self.add(fn, name, options=_njit_options(value))
            elif kept.snap is self.snap and name in self.tops and (
                    value is _MISSING or (isinstance(value, _FunctionType) and _find_def(
                        self.tree, value.__name__, value.__code__.co_firstlineno)[0] is
                        self.tops[name])):
                # a def of the file that no global binds yet (an eager compile during the
                # import), or an undecorated helper (compiled as njit)
                self.add(None, name, self.snap, self.tops[name], kept.ns)
            else:
                self.bind(kept, name, value)
        for node, parts in _chains(kept.node):
            if parts[0] in local:
                continue
            self.chain(kept, node, parts)

    def bind(self, kept, name, value):
        """Binds a global or closure variable kept's def reads: a constant or an import."""
        if name in self.consts:
            lit = _frozen_array(value) if isinstance(value, _np.ndarray) else _literal(value)
            if lit is not None and lit != self.consts[name]:
                raise NumjitError(
                    f"numjit: '{name}' is {self.consts[name]} for one function and {lit} for "
                    f"another of those {self.func.__qualname__} calls; give them distinct names")
            return
        if name in self.defined:
            return
        if isinstance(value, _np.ndarray) and not _only_const_array_like(kept.node, name):
            lit = _frozen_array(value)
            if lit is None:
                raise UnsupportedError(_located(
                    kept, name, f"global NumPy array '{name}' of dtype {value.dtype} is not "
                    f"supported by numjit (it freezes global arrays of numbers and booleans): "
                    f"pass it as an argument"))
        else:
            lit = _literal(value)
        if lit is not None:
            self.tail.append(f"{name} = {lit}\n")
            self.consts[name] = lit
            self.defined.add(name)
            return
        line = _import_line(name, value)
        if line is None:
            why = extending.lower_refusal(value)   # a library's Numba extension type
            if why is not None:
                raise UnsupportedError(_located(kept, name, f"'{name}' is a constant here, "
                                                f"and {why}"))
        if line is not None:
            free = next((i for i in range(self.first_def - 1)
                         if self.out[i] == "\n" and i not in self.used), None)
            if free is not None:
                self.out[free] = line + "\n"
                self.used.add(free)
            else:
                self.tail.append(line + "\n")
            self.defined.add(name)

    def alias(self, length):
        """A fresh name of exactly length characters (length >= 3)."""
        while True:
            self.nalias += 1
            name = f"_{self.nalias:x}".ljust(length, "_")
            if len(name) == length and name not in self.idents and name not in self.defined:
                self.idents.add(name)
                return name

    def chain(self, kept, node, parts):
        """`core.f(x)`, `cfg.N`: a compiled function or a constant reached through a module
        other than those the compiler knows; the chain is written as one name of the same
        length (columns stay put), bound to that function or constant."""
        value = self.resolve(kept, parts[0])
        if isinstance(value, type(ast)) and value.__name__.split(".")[0] in _IMPORT_ROOTS:
            # np.isclose with an @overload of its own: the compiler asks the hook for it
            # (when it has no numpy.isclose itself) by its full name
            fn = value
            for attr in parts[1:]:
                try:
                    fn = getattr(fn, attr, None)
                except Exception:  # cuda.threadIdx.x and its kind refuse outside kernels
                    return
            if extending.is_extension(fn):
                root = "numba" if value.__name__ == "numjit" else value.__name__
                extending.note_name(self.snap.filename, ".".join([root] + parts[1:]), fn)
            return
        if not isinstance(value, type(ast)):
            return
        for attr in parts[1:]:
            try:
                value = getattr(value, attr)
            except Exception:  # AttributeError, or a name that refuses outside compiled code
                return
        ext = extending.is_extension(value)
        why = extending.lower_refusal(value) if not ext and isinstance(value, type) else None
        if why is not None:
            raise UnsupportedError(_located(kept, parts[0], f"{'.'.join(parts)}: {why}"))
        fn = _jitted(value) if not ext else None
        lit = _literal(value) if fn is None and not ext else None
        if lit is None and isinstance(value, _np.ndarray):   # cfg.TABLE: frozen as a global
            lit = _frozen_array(value)
        if (fn is None and lit is None and not ext) or \
                node.end_col_offset - node.col_offset < 3:
            return
        name = self.alias(node.end_col_offset - node.col_offset)
        kept.edits.setdefault(node.lineno - 1, []).append(
            (node.col_offset, node.end_col_offset, name))
        if ext:
            extending.note_name(self.snap.filename, name, value)
            self.ext_seen[name] = _canonical(value)
            self.defined.add(name)
        elif fn is not None:
            self.add(fn, name, options=_njit_options(value))
        else:
            self.tail.append(f"{name} = {lit}\n")
            self.consts[name] = lit
            self.defined.add(name)

    # -- the text ----------------------------------------------------------------------------
    def def_lines(self, kept):
        """kept's def as lines, its decorator arguments frozen, its chains renamed, dedented."""
        lines = kept.snap.text.splitlines(keepends=True) if kept.snap is not self.snap \
            else list(self.src_lines)
        _freeze_decorator_args(kept.node, lines, kept.ns, kept.options)
        for d in kept.node.decorator_list:
            # a library's own decorator (numbagg's @ndmoving, which calls guvectorize later)
            # is not the compiler's business: the def compiles as the caller asks
            if not _is_jit_decorator(d):
                for i in range(d.lineno - 1, d.end_lineno):
                    lines[i] = "\n"
        if kept.deco is not None and kept.node.decorator_list:
            at = kept.node.decorator_list[0].lineno - 1
            lines[at] = " " * kept.node.col_offset + kept.deco + "\n"
        for i, spans in kept.edits.items():
            line = lines[i].encode()
            for a, b, text in sorted(spans, reverse=True):
                line = line[:a] + text.encode() + line[b:]
            lines[i] = line.decode()
        first, last = _span(kept.node)
        out = []
        for line in lines[first - 1:last]:
            if kept.dedent and line[:kept.dedent].strip() == "":
                line = line[kept.dedent:]
            out.append(line if line.endswith("\n") else line + "\n")
        if kept.name != kept.node.name:
            i = kept.node.lineno - first
            out[i] = re.sub(r"\bdef(\s+)" + re.escape(kept.node.name) + r"\b",
                            lambda m: "def" + m.group(1) + kept.name, out[i], count=1)
        return first, out

    def emit(self, kept):
        first, lines = self.def_lines(kept)
        if kept.inplace:
            self.out[first - 1:first - 1 + len(lines)] = lines
        else:
            mark = f"# numjit-source: {first} {kept.dedent} {kept.snap.filename}\n"
            deco = [kept.deco + "\n"] if kept.deco is not None and \
                not kept.node.decorator_list else []
            self.pieces.append(deco + [mark] + lines)

    def text(self):
        text = "".join(self.out) + "".join(self.tail)
        if f"{_NJ}." in text or any(f"{_NJ}." in "".join(p) for p in self.pieces):
            # above the first def when a line is free there (a decorator may name it)
            free = next((i for i in range(self.first_def - 1)
                         if self.out[i] == "\n" and i not in self.used), None)
            if free is not None:
                self.out[free] = f"import numjit as {_NJ}\n"
                text = "".join(self.out) + "".join(self.tail)
            else:
                text += f"import numjit as {_NJ}\n"
        text += "".join("".join(p) for p in self.pieces)
        if self.ext_seen:
            # the same def, its name bound to another extension (a closure over norm.pdf, then
            # over norm.logpdf), is another text: the module cache must not hand back the first
            text += "# numjit-extensions: " + ", ".join(
                f"{k}={v}" for k, v in sorted(self.ext_seen.items())) + "\n"
        return text

    # -- the file's own lines ----------------------------------------------------------------
    def imports(self, module_globals):
        """The file's imports of modules the compiler knows, kept where they are."""
        tree, src_lines, out = self.tree, self.src_lines, self.out
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)) and _keep_import(node):
                for i in range(node.lineno - 1, node.end_lineno):
                    out[i] = src_lines[i] if src_lines[i].endswith("\n") else src_lines[i] + "\n"
                self.defined.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, ast.Import) and node.lineno == node.end_lineno:
                # `import math, time, sys`: keep the modules the compiler knows, on that line
                known = [a for a in node.names if a.name.split(".")[0] in _IMPORT_ROOTS]
                if known:
                    out[node.lineno - 1] = " " * node.col_offset + "import " + ", ".join(
                        a.name + (f" as {a.asname}" if a.asname else "") for a in known) + "\n"
                    self.defined.update((a.asname or a.name).split(".")[0] for a in known)
        # imports under a top-level `if` or `try` (`try: import numba as nb`): each one-line
        # import whose names the module really bound to that module, on its line, dedented
        for node in tree.body:
            if not isinstance(node, (ast.If, ast.Try)):
                continue
            for sub in ast.walk(node):
                if not (isinstance(sub, (ast.Import, ast.ImportFrom)) and _keep_import(sub) and
                        sub.lineno == sub.end_lineno):
                    continue
                names = [(a.asname or a.name).split(".")[0] for a in sub.names]
                if any(n in self.defined or not _bound_by(module_globals.get(n), sub)
                       for n in names):
                    continue
                out[sub.lineno - 1] = src_lines[sub.lineno - 1].lstrip()
                self.defined.update(names)

    def constants(self, module_globals):
        """Top-level `NAME = ...` of the file whose value now is a number (or a tuple of
        numbers): written as that value where the assignment was (see the module doc)."""
        for node in self.tree.body:
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            names = []
            for t in targets:
                if isinstance(t, ast.Name):
                    names.append(t.id)
                elif isinstance(t, ast.Tuple) and all(isinstance(e, ast.Name) for e in t.elts):
                    names.extend(e.id for e in t.elts)
            simple = len(names) == 1 and isinstance(targets[0], ast.Name)
            for name in names:
                lit = _literal(module_globals[name]) if name in module_globals else None
                if lit is None and simple and name not in module_globals and \
                        _is_const_expr(value):
                    for i in range(node.lineno - 1, node.end_lineno):   # eager compile
                        self.out[i] = self.src_lines[i]             # during import: not run yet
                    self.defined.add(name)
                elif lit is not None and simple and node.lineno == node.end_lineno:
                    self.out[node.lineno - 1] = f"{name} = {lit}\n"
                    self.defined.add(name)
                    self.consts[name] = lit


def _only_const_array_like(node, name):
    """Whether every read of name in node is the argument of `cuda.const.array_like(...)`,
    which the compiler reports with its own message."""
    inside = {id(a) for c in ast.walk(node) if isinstance(c, ast.Call) and
              isinstance(c.func, ast.Attribute) and c.func.attr == "array_like" for a in c.args}
    reads = [n for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == name]
    return bool(reads) and all(id(n) in inside for n in reads)


def _located(kept, name, message):
    """A diagnostic in the house format at the first read of name in kept's def."""
    node = next((n for n in ast.walk(kept.node) if isinstance(n, ast.Name) and n.id == name),
                kept.node)
    line = kept.snap.text.splitlines()[node.lineno - 1]
    col = len(line.encode()[:node.col_offset].decode(errors="replace")) + 1
    width = max(1, len(name))
    return (f"{kept.snap.filename}:{node.lineno}:{col}: error: {message}\n"
            f"{node.lineno:5d} | {line}\n      | {' ' * (col - 1)}^{'~' * (width - 1)}\n")


_TEXT_OPTIONS = ("cache", "fastmath", "error_model", "boundscheck", "parallel")


def _njit_options(value):
    """The options of an njit Dispatcher (`njit(boundscheck=True)(f)`), else None."""
    if type(value).__module__ == "numjit.dispatcher":
        return getattr(value, "targetoptions", None)
    return None


def _options_decorator(options, node):
    """`@numjit.njit(boundscheck=True)` for a def that `njit(**options)(f)` compiled and whose
    text has no jit decorator to read the options from (the compiler reads them there); None
    when none is needed."""
    if not options or any(_is_jit_decorator(d) for d in node.decorator_list):
        return None
    args = [f"{k}={options[k]!r}" for k in _TEXT_OPTIONS
            if isinstance(options.get(k), (bool, str))]
    return f"@{_NJ}.njit({', '.join(args)})" if args else None


def _no_source(func):
    filename = func.__code__.co_filename
    return NumjitError(
        f"numjit: cannot find the source of {func.__qualname__!r} (defined in {filename}); "
        f"numjit compiles functions from source: a file, a linecache entry, or text given to "
        f"exec() or compile() while numjit answers `import numba`")


def filtered_source(func, options=None):
    """(filename, text) of the source to compile for func (see the module doc); options: those
    of `njit(**options)(func)`, written as its decorator where its text has none."""
    with _lock:
        got = _shipped.get(func)
    if got is not None:  # rebuilt from pickled source (numjit.serialize): exactly that text
        return got
    code = getattr(func, "__code__", None)
    if code is None:
        raise UnsupportedError(f"numjit compiles Python functions, not {type(func).__name__}")
    if func.__name__ == "<lambda>":
        raise UnsupportedError("numjit compiles functions defined with 'def', not lambdas")
    got = capture.snapshot_of(func)
    if got is None:
        raise _no_source(func)
    snap, first = got
    tree = snap.tree()
    target, top = _find_def(tree, func.__name__, first)
    if target is None:
        raise NumjitError(f"numjit: cannot find the def of {func.__qualname__!r} in "
                          f"{snap.filename}")
    module_globals = getattr(func, "__globals__", {})
    b = _Builder(snap, func)
    b.tree = tree
    b.tops = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    b.first_def = _span(target)[0]
    b.imports(module_globals)
    b.constants(module_globals)
    b.add(func, func.__name__, options=options)
    while b.todo:
        kept = b.todo.pop(0)
        b.first_def = min([b.first_def] + [_span(k.node)[0] for k in b.kept if k.inplace])
        b.scan(kept)
    for kept in b.kept:
        b.emit(kept)
    return snap.filename, b.text()


def load_module(func, options=None):
    """The compiled module holding func (compiled once per distinct filtered text)."""
    filename, text = filtered_source(func, options)
    key = (filename, text)
    with _lock:
        mod = _module_cache.get(key)
    if mod is None:
        mod = _numjit.compile_source(filename, text)
        with _lock:
            mod = _module_cache.setdefault(key, mod)
    return mod
