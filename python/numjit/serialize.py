"""numjit.serialize — numjit functions pickled by value, for other processes and machines.

A compiled function (an @njit/@jit Dispatcher, a @vectorize/@guvectorize numpy.ufunc, a
DUFunc, a target='cuda' ufunc or gufunc, a @cuda.jit Kernel) pickles as what is needed to compile it again anywhere: the
source text numjit.source captured for it (the module file filtered as numjit compiles it,
with its global numbers frozen into it: ``source.filtered_source``), the file name it came
from, the function's name, defaults and docstring, and the decorator's signatures, target,
identity and options.  The receiving process (a multiprocessing or
concurrent.futures worker, a Dask worker) needs numjit and NumPy, not the user's module.

Unpickling rebuilds the object with the same decorator, once per process (the same pickle
loaded again gives the same object); its py_func is made by running the
shipped text with every decorator removed (``import numba`` read as numjit, so a worker needs
no Numba), and ``source.ship`` records the text so that numjit compiles exactly it.  Because
the on-disk cache keys an entry on the file name and that text (runtime/cache.c), a worker
compiling a function that any process of the machine compiled before with ``cache=True``
(or ``NUMJIT_CACHE=1``) loads it from the cache: N workers compile once.

Both ``pickle`` and ``cloudpickle`` use these reducers: Dispatcher, DUFunc and Kernel define
``__reduce__``; numpy.ufunc objects go through ``copyreg`` (installed by ``install()``): a
ufunc numjit made pickles by value, any other as NumPy pickles it (by name).
"""

import ast
import copyreg
import threading

import numpy as _np

from . import source

_lock = threading.Lock()
_ufuncs = {}         # id(numpy.ufunc) -> (ufunc, builder): ufuncs numjit made (they live forever)
_functions = {}      # (filename, text, name) -> py_func made from shipped text
_rebuilt = {}        # (kind, state) -> the object rebuilt from it (one per process)


def capture(py_func):
    """What pickling ships for py_func (a plain dict of picklable values)."""
    filename, text = source.filtered_source(py_func)
    return {"filename": filename, "text": text, "name": py_func.__name__,
            "qualname": py_func.__qualname__, "module": py_func.__module__,
            "defaults": py_func.__defaults__, "doc": py_func.__doc__}


class _Undecorate(ast.NodeTransformer):
    """Drops decorators and reads `numba` imports as numjit (a worker may have no Numba)."""

    def visit_FunctionDef(self, node):
        node.decorator_list = []
        self.generic_visit(node)
        return node

    def visit_Import(self, node):
        names = []
        for a in node.names:
            if a.name == "numba" or a.name.startswith("numba."):
                rest = a.name[len("numba"):]
                if a.asname or not rest:          # `import numba [as nb]`, `... as cuda`
                    names.append(ast.alias("numjit" + rest, a.asname or "numba"))
                else:                              # `import numba.cuda` binds `numba`
                    names += [ast.alias("numjit" + rest, None), ast.alias("numjit", "numba")]
            else:
                names.append(a)
        node.names = names
        return node

    def visit_ImportFrom(self, node):
        if node.module and (node.module == "numba" or node.module.startswith("numba.")):
            node.module = "numjit" + node.module[len("numba"):]
        return node


def function(shipped):
    """The Python function for shipped text (made once per process), registered with
    numjit.source so that compiling it compiles exactly that text."""
    key = (shipped["filename"], shipped["text"], shipped["name"])
    with _lock:
        f = _functions.get(key)
    if f is not None:
        return f
    tree = _Undecorate().visit(ast.parse(shipped["text"], shipped["filename"]))
    ast.fix_missing_locations(tree)
    ns = {"__name__": shipped["module"], "__builtins__": __builtins__}
    exec(compile(tree, shipped["filename"], "exec"), ns)
    f = ns[shipped["name"]]
    f.__qualname__ = shipped["qualname"]
    f.__defaults__ = shipped["defaults"]
    f.__doc__ = shipped["doc"]
    source.ship(f, shipped["filename"], shipped["text"])
    with _lock:
        f = _functions.setdefault(key, f)
    return f


def _once(kind, state, make):
    """The object rebuilt from (kind, state), made once per process: a Dask worker unpickles
    a task's function for every task, and each rebuild would otherwise compile again."""
    key = (kind, repr(state))
    with _lock:
        obj = _rebuilt.get(key)
    if obj is None:
        obj = make()
        with _lock:
            obj = _rebuilt.setdefault(key, obj)
    return obj


# ---- @njit / @jit ---------------------------------------------------------------------------
def reduce_dispatcher(d):
    sigs = tuple(getattr(d, "_declared_sigs", ()))
    return (_rebuild_dispatcher, (capture(d.py_func), dict(d.targetoptions), sigs))


def _rebuild_dispatcher(shipped, options, sigs=()):
    """The declared signatures come along: the rebuilt dispatcher compiles them and no others,
    as the original did."""
    from .dispatcher import Dispatcher
    return _once("njit", (shipped, options, sigs),
                 lambda: Dispatcher(function(shipped), options, sigs))


# ---- @vectorize / @guvectorize ----------------------------------------------------------------
def register_ufunc(uf, builder):
    """Records that numjit made numpy.ufunc uf from builder (ufunc.py's UFunc)."""
    with _lock:
        _ufuncs[id(uf)] = (uf, builder)


def builder_of(value):
    """The builder (ufunc.py's UFunc) of a numpy.ufunc numjit made, else None."""
    with _lock:
        got = _ufuncs.get(id(value))
    return got[1] if got is not None and got[0] is value else None


def _builder_state(b):
    return (capture(b.py_func), list(b._sig_texts), b.signature, b.target, b._identity,
            dict(b.targetoptions))


def _reduce_ufunc(uf):
    with _lock:
        got = _ufuncs.get(id(uf))
    if got is None or got[0] is not uf:
        return _numpy_reduce(uf)
    return (_rebuild_ufunc, _builder_state(got[1]))


def _rebuild_ufunc(shipped, sigs, layout, target, identity, options):
    from .ufunc import UFunc
    return _once("ufunc", (shipped, sigs, layout, target, identity, options), lambda: UFunc(
        function(shipped), sigs, layout, target, identity, options)._numpy_ufunc())


def reduce_dufunc(f):
    codes = [dts[:f._builder.nin] for _, (dts, _, _) in f._loops]
    return (_rebuild_dufunc, _builder_state(f._builder)[:1] + (
        f._builder.target, f._builder._identity, dict(f._builder.targetoptions), codes,
        f._frozen))


def _rebuild_dufunc(shipped, target, identity, options, codes, frozen):
    from .ufunc import DUFunc, UFunc
    f = _once("dufunc", (shipped, target, identity, options), lambda: DUFunc(
        UFunc(function(shipped), (), None, target, identity, options)))
    for c in codes:
        f._add_codes(list(c))
    f._frozen = frozen
    return f


def _numpy_reduce(uf):
    """NumPy's own reduction of a ufunc (by name), wherever this NumPy keeps it."""
    for mod in ("numpy._core", "numpy.core"):
        try:
            return __import__(mod, fromlist=["_ufunc_reduce"])._ufunc_reduce(uf)
        except (ImportError, AttributeError):
            continue
    return uf.__name__


# ---- target='cuda' ufuncs and gufuncs ------------------------------------------------------------
def reduce_gpu_ufunc(g):
    return (_rebuild_gpu_ufunc, (capture(g.py_func), list(g._texts), g.signature, g._identity,
                                 dict(g.targetoptions)))


def _rebuild_gpu_ufunc(shipped, sigs, layout, identity, options):
    from .gpu_ufunc import GpuUFunc
    return _once("gpu_ufunc", (shipped, sigs, layout, identity, options),
                 lambda: GpuUFunc(function(shipped), sigs, layout, identity, options))


# ---- @cuda.jit ----------------------------------------------------------------------------------
def reduce_kernel(k):
    return (_rebuild_kernel, (capture(k.py_func), list(k._signatures), dict(k.targetoptions)))


def _rebuild_kernel(shipped, sigs, options):
    from .cuda import Kernel
    return _once("kernel", (shipped, sigs, options),
                 lambda: Kernel(function(shipped), sigs, options))


def install():
    """numpy.ufunc objects numjit made pickle by value (copyreg, used by pickle and
    cloudpickle alike); the rest as before."""
    copyreg.pickle(_np.ufunc, _reduce_ufunc)
