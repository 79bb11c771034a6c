"""numjit.funcargs — jitted functions passed from Python as arguments of a jitted function.

Numba types a dispatcher argument as a Dispatcher type of its own (``type(CPUDispatcher(<function
f>))``) and compiles the callee once per function passed.  numjit compiles from source, so the
callee's text must hold the def of the function passed; inside compiled code that is already
so (a function named in the caller's text is part of its compilation, and its value has a type
naming it).  A call from Python with such arguments is therefore turned into a call from
compiled code: for each combination of functions (by identity, at each argument position, in
tuples too) a small variant is generated once,

    def __nj_fv_apply_1(p0):
        return __nj_callee(__nj_fn0, p0)

whose globals bind ``__nj_callee`` to the dispatcher and ``__nj_fn0`` to the function passed;
its text is registered with linecache under a ``<numjit-variant N>`` name, so the source taken
at compilation finds it and, through the globals, the defs of both.  The variant is an
ordinary Dispatcher, so each combination has its own specializations by the other arguments'
types, and the C hot path of the original dispatcher is untouched: only an argument its
classification refuses (a function, or a tuple holding one) comes here.

What it costs: a call with function arguments goes through Python once more (a dictionary
lookup by the functions' identities and one extra call), and the variant holds the functions
passed alive as long as the dispatcher lives, as Numba's typing cache does.
"""

import itertools
import linecache
import threading

_lock = threading.Lock()
_serial = itertools.count(1)


def is_function(value):
    """A jitted function (a Dispatcher) or a @cfunc: what compiled code may call as a value."""
    from .dispatcher import Dispatcher
    return isinstance(value, Dispatcher) or hasattr(type(value), "_numjit_function_value")


def _shape(value):
    """The key part of an argument: None for a plain value, ('f', id) for a function, a tuple
    of parts for a tuple holding a function."""
    if is_function(value):
        return ("f", id(value))
    if isinstance(value, tuple) and any(_shape(v) is not None for v in value):
        return ("t",) + tuple(_shape(v) for v in value)
    return None


def _spell(value, shape, fnames, functions, params, plain):
    """The variant's expression for one argument; fills the globals and the plain values."""
    if shape is None:
        name = f"p{len(params)}"
        params.append(name)
        plain.append(value)
        return name
    if shape[0] == "f":
        name = f"__nj_fn{len(fnames)}"
        fnames.append(name)
        functions[name] = value
        return name
    items = [_spell(v, s, fnames, functions, params, plain) for v, s in zip(value, shape[1:])]
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def _plain(value, shape, out):
    if shape is None:
        out.append(value)
    elif shape[0] == "t":
        for v, s in zip(value, shape[1:]):
            _plain(v, s, out)


def _variant(dispatcher, args, shapes):
    from .dispatcher import Dispatcher
    fnames, functions, params, plain = [], {}, [], []
    exprs = [_spell(a, s, fnames, functions, params, plain) for a, s in zip(args, shapes)]
    name = f"__nj_fv_{dispatcher.py_func.__name__}_{next(_serial)}"
    text = (f"def {name}({', '.join(params)}):\n"
            f"    return __nj_callee({', '.join(exprs)})\n")
    filename = f"<numjit-variant {name}>"
    lines = text.splitlines(True)
    linecache.cache[filename] = (len(text), None, lines, filename)
    scope = dict(dispatcher.py_func.__globals__)
    scope.update(functions)
    scope["__nj_callee"] = dispatcher
    code = compile(text, filename, "exec")
    ns = {}
    exec(code, scope, ns)  # noqa: S102 (the text above, made of names only)
    fn = ns[name]
    fn.__module__ = dispatcher.py_func.__module__
    return Dispatcher(fn, options=dispatcher.targetoptions), tuple(functions.values())


def call(dispatcher, args):
    """Calls dispatcher with args, some of which are functions (see the module's text)."""
    shapes = tuple(_shape(a) for a in args)
    variants = dispatcher.__dict__.setdefault("_variants", {})
    hit = variants.get(shapes)
    if hit is None:
        with _lock:
            hit = variants.get(shapes)
            if hit is None:
                hit = variants[shapes] = _variant(dispatcher, args, shapes)
    plain = []
    for a, s in zip(args, shapes):
        _plain(a, s, plain)
    return hit[0](*plain)
