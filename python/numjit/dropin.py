"""numjit.dropin — Numba's module tree, answered by numjit.

A program written for Numba imports more than ``numba``: ``from numba.core.errors import
TypingError``, ``from numba.np.numpy_support import as_dtype``, ``from numba.extending import
register_jitable``, ``numba.config.NUMBA_NUM_THREADS``.  When ``sys.modules["numba"]`` is numjit
(``numjit.install_as_numba()``, ``python3 -m numjit``, or a plain ``sys.modules["numba"] =
numjit``), the import system asks numjit's package for ``numba.core`` and finds nothing; so
numjit puts a finder on ``sys.meta_path`` (_Finder) that answers every ``numba.X`` name in the
table below with a module built here, and only while ``numba`` means numjit: with real Numba
imported it stays out of the way.  A ``numba.X`` that numjit does not provide is a
ModuleNotFoundError naming it and pointing at docs/python.md, at the import line.

The modules are built once, on first import:

  * numba.core.config (also numba.config): Numba 0.56's settings, read from the NUMBA_*
    environment variables with Numba's defaults (again on config.reload_config()).  Where numjit has the same setting, the
    Numba one is handed over at import: NUMBA_NUM_THREADS sizes numjit's pool,
    NUMBA_CACHE_DIR becomes NUMJIT_CACHE_DIR (unless the numjit one is set), NUMBA_DISABLE_JIT
    makes the decorators return the Python function, as Numba's do, and NUMBA_BOUNDSCHECK (0
    or 1) becomes NUMJIT_BOUNDSCHECK, which overrides every function's boundscheck option;
  * numba.core.errors, numba.core.types / numba.types: numjit.errors and numjit.types, whose
    submodules in Numba (numba.core.types.misc, .scalars, .npytypes, ...: `from
    numba.core.types.misc import NoneType` in EconForge's interpolation) are numjit.types too;
  * numba.np.numpy_support: as_dtype, from_dtype (and numba.np.ufunc: the ufunc decorators;
    numba.np.linalg: its private _LAPACK and _BLAS, refusing where made);
  * numba.extending, numba.core.extending: register_jitable, get_cython_function_address
    (Cython exports' addresses, read through ctypes), overload, overload_method,
    overload_attribute (numjit.extending), intrinsic (refused where a call uses it); the rest
    of Numba's extension API (lowering and typing hooks) raises UnsupportedError where it is
    used, naming the hook;
  * numba.experimental: jitclass (numjit.jitclass); structref's names raise UnsupportedError
    where used;
  * numba.typed: List and Dict (numjit.typed);
  * numba.core.decorators; numba.core.imputils, numba.core.typing(.templates),
    numba.core.cgutils (what extension code imports): importable, every name refusing where
    it is used (templates.signature builds a Signature);
  * numba.cuda, numba.cuda.random: numjit.cuda.
"""

import importlib.abc
import importlib.machinery
import os
import sys
import types as _pytypes

from . import errors as _errors
from . import types as _types
from .errors import UnsupportedError

_DOC = "docs/python.md lists what numjit provides of Numba's API"


# ---- numba.core.config --------------------------------------------------------------------

def _readenv(environ, name, ctor, default):
    value = environ.get(name)
    if value is None:
        return default
    try:
        return ctor(value)
    except (TypeError, ValueError):
        import warnings
        warnings.warn(f"environ {name} defined but failed to parse '{value}'", RuntimeWarning)
        return default


def _default_threads():
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


# (attribute, environment variable, type, default) of Numba 0.56's numba.core.config that
# programs read; defaults are Numba's.  None as type: the value is kept as a string or None.
_SETTINGS = [
    ("DEVELOPER_MODE", "NUMBA_DEVELOPER_MODE", int, 0),
    ("DISABLE_PERFORMANCE_WARNINGS", "NUMBA_DISABLE_PERFORMANCE_WARNINGS", int, 0),
    ("FULL_TRACEBACKS", "NUMBA_FULL_TRACEBACKS", int, 0),
    ("SHOW_HELP", "NUMBA_SHOW_HELP", int, 0),
    ("COLOR_SCHEME", "NUMBA_COLOR_SCHEME", str, "no_color"),
    ("BOUNDSCHECK", "NUMBA_BOUNDSCHECK", int, None),
    ("DEBUG", "NUMBA_DEBUG", int, 0),
    ("DEBUG_JIT", "NUMBA_DEBUG_JIT", int, 0),
    ("DEBUG_FRONTEND", "NUMBA_DEBUG_FRONTEND", int, 0),
    ("DEBUG_TYPEINFER", "NUMBA_DEBUG_TYPEINFER", int, 0),
    ("FUNCTION_CACHE_SIZE", "NUMBA_FUNCTION_CACHE_SIZE", int, 128),
    ("CACHE_DIR", "NUMBA_CACHE_DIR", str, ""),
    ("TRACE", "NUMBA_TRACE", int, 0),
    ("CPU_NAME", "NUMBA_CPU_NAME", str, None),
    ("CPU_FEATURES", "NUMBA_CPU_FEATURES", str, None),
    ("OPT", "NUMBA_OPT", int, 3),
    ("PARALLEL_DIAGNOSTICS", "NUMBA_PARALLEL_DIAGNOSTICS", int, 0),
    ("LOOP_VECTORIZE", "NUMBA_LOOP_VECTORIZE", int, 1),
    ("SLP_VECTORIZE", "NUMBA_SLP_VECTORIZE", int, 1),
    ("ENABLE_AVX", "NUMBA_ENABLE_AVX", int, 1),
    ("DISABLE_INTEL_SVML", "NUMBA_DISABLE_INTEL_SVML", int, 0),
    ("DISABLE_JIT", "NUMBA_DISABLE_JIT", int, 0),
    ("THREADING_LAYER", "NUMBA_THREADING_LAYER", str, "default"),
    ("DISABLE_CUDA", "NUMBA_DISABLE_CUDA", int, 0),
    ("ENABLE_CUDASIM", "NUMBA_ENABLE_CUDASIM", int, 0),
    ("CUDA_LOG_LEVEL", "NUMBA_CUDA_LOG_LEVEL", str, ""),
    ("DEBUGINFO_DEFAULT", "NUMBA_DEBUGINFO", int, 0),
    ("CUDA_DEBUGINFO_DEFAULT", "NUMBA_CUDA_DEBUGINFO", int, 0),
]
_DEBUG_DEPENDENT = [("DEBUG_CACHE", "NUMBA_DEBUG_CACHE"), ("DUMP_LLVM", "NUMBA_DUMP_LLVM"),
                    ("DUMP_FUNC_OPT", "NUMBA_DUMP_FUNC_OPT"),
                    ("DUMP_OPTIMIZED", "NUMBA_DUMP_OPTIMIZED"),
                    ("DUMP_ASSEMBLY", "NUMBA_DUMP_ASSEMBLY")]
_FRONTEND_DEPENDENT = [("DUMP_BYTECODE", "NUMBA_DUMP_BYTECODE"), ("DUMP_CFG", "NUMBA_DUMP_CFG"),
                       ("DUMP_IR", "NUMBA_DUMP_IR"), ("DUMP_SSA", "NUMBA_DUMP_SSA")]


def _make_config():
    cfg = _pytypes.ModuleType("numba.core.config", "Numba's settings (NUMBA_* environment "
                              "variables), as numjit reads and honours them.")
    cfg.reload_config = lambda: _fill_config(cfg)
    return _fill_config(cfg)


def _fill_config(cfg):
    """Reads the settings into cfg (again, for numba.core.config.reload_config())."""
    env = os.environ
    for attr, var, ctor, default in _SETTINGS:
        setattr(cfg, attr, _readenv(env, var, ctor, default))
    for attr, var in _DEBUG_DEPENDENT:
        setattr(cfg, attr, _readenv(env, var, int, cfg.DEBUG))
    for attr, var in _FRONTEND_DEPENDENT:
        setattr(cfg, attr, _readenv(env, var, int, cfg.DEBUG_FRONTEND))
    cfg.IS_WIN32 = sys.platform.startswith("win32")
    cfg.IS_OSX = sys.platform.startswith("darwin")
    cfg.MACHINE_BITS = tuple.__itemsize__ * 8
    cfg.IS_32BITS = cfg.MACHINE_BITS == 32
    cfg.PYVERSION = sys.version_info[:2]
    cfg.NUMBA_DEFAULT_NUM_THREADS = _default_threads()
    cfg.NUMBA_NUM_THREADS = _readenv(env, "NUMBA_NUM_THREADS", int,
                                     cfg.NUMBA_DEFAULT_NUM_THREADS)
    cfg.USING_SVML = False
    cfg.ENABLE_PROFILING = 0
    cfg.RUNNING_UNDER_PROFILER = "VS_PROFILER" in env
    # the settings numjit shares: handed to numjit's own
    if "NUMBA_CACHE_DIR" in env and not env.get("NUMJIT_CACHE_DIR"):
        os.environ["NUMJIT_CACHE_DIR"] = cfg.CACHE_DIR
    if cfg.BOUNDSCHECK is not None and "NUMJIT_BOUNDSCHECK" not in env:
        os.environ["NUMJIT_BOUNDSCHECK"] = "1" if cfg.BOUNDSCHECK else "0"
    if "NUMBA_NUM_THREADS" in env:
        from . import _numjit
        _numjit.set_num_threads(max(1, cfg.NUMBA_NUM_THREADS))
    return cfg


# ---- numba.np.numpy_support ---------------------------------------------------------------

def _make_numpy_support():
    m = _pytypes.ModuleType("numba.np.numpy_support", "NumPy dtypes <-> numjit's types.")

    def as_dtype(nbtype):
        """The NumPy dtype of a scalar type: as_dtype(types.float32) is dtype('float32')."""
        return _types._as_numpy_dtype(nbtype)

    from .cfunc import carray, farray

    m.as_dtype = as_dtype
    m.from_dtype = _types._from_numpy_dtype
    m.carray, m.farray = carray, farray
    m.__all__ = ["as_dtype", "from_dtype", "carray", "farray"]
    return m


# ---- numba.extending ----------------------------------------------------------------------

def register_jitable(*args, **kwargs):
    """Numba's register_jitable: the function stays a Python function, and compiled code
    that calls it compiles it with the caller (numjit compiles every plain def a compiled
    def calls, so the decorator only has to leave the function as it is).  Options are
    accepted and have no effect, as in Numba where they only reach the inner njit."""
    if len(args) == 1 and not kwargs and callable(args[0]):
        return args[0]
    return lambda fn: fn


def get_cython_function_address(module_name, function_name):
    """Numba's get_cython_function_address: the address (an int) of a function a Cython
    module exports through its ``__pyx_capi__`` (scipy.special.cython_special's, for
    instance), for ctypes or WrapperAddressProtocol; the same errors as Numba's."""
    import ctypes
    import importlib
    capi = importlib.import_module(module_name).__pyx_capi__
    try:
        capsule = capi[function_name]
    except (KeyError, TypeError):
        raise ValueError(f"No function '{function_name}' found in __pyx_capi__ of "
                         f"'{module_name}'") from None
    api = ctypes.pythonapi
    api.PyCapsule_GetName.restype = ctypes.c_char_p
    api.PyCapsule_GetName.argtypes = [ctypes.py_object]
    api.PyCapsule_GetPointer.restype = ctypes.c_void_p
    api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return api.PyCapsule_GetPointer(capsule, api.PyCapsule_GetName(capsule))


class _UnsupportedHook:
    """numba.extending.NAME that numjit lacks: calling it or reading its attributes
    (typeof_impl.register, models.StructModel) raises UnsupportedError naming it."""

    def __init__(self, name, what):
        self.__name__ = self.__qualname__ = name
        self._what = what

    def _refuse(self):
        raise UnsupportedError(
            f"numjit does not support numba.extending.{self.__name__} ({self._what}); {_DOC}")

    def __call__(self, *args, **kwargs):
        self._refuse()

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        self._refuse()


def _unsupported_hook(name, what):
    return _UnsupportedHook(name, what)


_EXTENSION_HOOKS = {
    "overload_classmethod": "Python implementations of class methods for compiled code",
    "lower_builtin": "lowering through llvmlite, which numjit does not use",
    "lower_cast": "lowering through llvmlite, which numjit does not use",
    "lower_getattr": "lowering through llvmlite, which numjit does not use",
    "lower_getattr_generic": "lowering through llvmlite, which numjit does not use",
    "lower_setattr": "lowering through llvmlite, which numjit does not use",
    "lower_setattr_generic": "lowering through llvmlite, which numjit does not use",
    "type_callable": "typing templates of Numba's type inference",
    "infer_getattr": "typing templates of Numba's type inference",
    "typeof_impl": "typeof of new Python types",
    "register_model": "data models of new types",
    "make_attribute_wrapper": "data models of new types",
    "box": "boxing of new types",
    "unbox": "unboxing of new types",
    "NativeValue": "unboxing of new types",
    "models": "data models of new types",
    "sentry_literal_args": "literal dispatch",
}


def _make_extending(name):
    from . import extending
    m = _pytypes.ModuleType(name, "Numba's extension API as numjit provides it: "
                                  "register_jitable, overload, overload_method and "
                                  "overload_attribute work; intrinsic refuses where it is "
                                  "used; the rest raises UnsupportedError.")
    m.register_jitable = register_jitable
    m.get_cython_function_address = get_cython_function_address
    own = ("overload", "overload_method", "overload_attribute", "intrinsic")
    for hook in own:
        setattr(m, hook, getattr(extending, hook))
    for hook, what in _EXTENSION_HOOKS.items():
        setattr(m, hook, _unsupported_hook(hook, what))
    m.__all__ = ["register_jitable", "get_cython_function_address", *own] + list(_EXTENSION_HOOKS)
    return m


# ---- numba.experimental, numba.typed ------------------------------------------------------

def _unsupported_name(module, name, what):
    def refuse(*args, **kwargs):
        raise UnsupportedError(f"numjit does not support {module}.{name} ({what}); {_DOC}")
    refuse.__name__ = name
    refuse.__qualname__ = name
    return refuse


def _make_experimental():
    m = _pytypes.ModuleType("numba.experimental", "Numba's experimental features: jitclass "
                                                  "(numjit.jitclass); structref refused "
                                                  "(UnsupportedError).")
    from .jitclass import jitclass
    m.jitclass = jitclass
    m.structref = _pytypes.ModuleType("numba.experimental.structref")
    for n in ("register", "define_proxy", "define_constructor", "define_boxing",
              "define_attributes", "new"):
        setattr(m.structref, n, _unsupported_name("numba.experimental.structref", n,
                                                  "mutable structures"))
    refuse = _unsupported_name("numba.experimental.structref", "StructRefProxy",
                               "mutable structures")

    class StructRefProxy:
        """Refused where a program subclasses or makes one (the class statement)."""
        def __init_subclass__(cls, **kwargs):
            refuse()

        def __new__(cls, *args, **kwargs):
            refuse()
    m.structref.StructRefProxy = StructRefProxy
    m.__all__ = ["jitclass", "structref"]
    return m


def _make_typed():
    m = _pytypes.ModuleType("numba.typed", "Numba's typed containers: List and Dict "
                                           "(numjit.typed).")
    from .typed import Dict, List
    m.List = List
    m.Dict = Dict
    m.typedlist = m.typeddict = m
    m.__all__ = ["List", "Dict"]
    return m


# ---- Numba's compiler internals that extension code imports ------------------------------

def _refusing_class(module, name, what):
    def refuse(cls, *args, **kwargs):
        raise UnsupportedError(f"numjit does not support {module}.{name} ({what}); {_DOC}")
    return type(name, (), {"__new__": refuse, "__module__": module})


_INTERNALS = {
    # module: (what it is, functions, classes)
    "numba.core.imputils": ("lowering through llvmlite, which numjit does not use",
                            "lower_builtin lower_cast lower_getattr lower_getattr_generic "
                            "lower_setattr lower_setattr_generic lower_constant "
                            "impl_ret_new_ref impl_ret_borrowed impl_ret_untracked "
                            "iternext_impl call_getiter call_iternext", "Registry"),
    "numba.core.typing.templates": ("typing templates of Numba's type inference",
                                    "infer infer_global infer_getattr bound_function "
                                    "make_overload_template",
                                    "AbstractTemplate ConcreteTemplate CallableTemplate "
                                    "AttributeTemplate Registry"),
    "numba.core.cgutils": ("LLVM IR building helpers of llvmlite",
                           "create_struct_proxy alloca_once alloca_once_value if_likely "
                           "if_unlikely for_range pack_array unpack_tuple get_null_value "
                           "is_null printf", ""),
}


def _make_internals(name):
    what, funcs, classes = _INTERNALS[name]
    m = _pytypes.ModuleType(name, f"{name}: {what}; importable, refused where used.")
    for n in funcs.split():
        setattr(m, n, _unsupported_name(name, n, what))
    for n in classes.split():
        setattr(m, n, _refusing_class(name, n, what))
    if name == "numba.core.typing.templates":
        m.signature = lambda return_type, *args: _types.Signature(return_type, args)
    return m


def _make_typing():
    m = _pytypes.ModuleType("numba.core.typing", "numba.core.typing as numjit answers it.")
    m.__path__ = []
    m.templates = _module("numba.core.typing.templates")
    m.signature = m.templates.signature
    return m


def _make_decorators():
    import numjit
    m = _pytypes.ModuleType("numba.core.decorators", "Numba's decorators.")
    for n in ("jit", "njit", "generated_jit", "cfunc", "stencil", "jit_module"):
        setattr(m, n, getattr(numjit, n))
    return m


# ---- the table and the finder -------------------------------------------------------------

def _make_core():
    core = _pytypes.ModuleType("numba.core", "numba.core as numjit answers it.")
    core.__path__ = []
    core.errors = _errors
    core.types = _types
    core.config = _module("numba.core.config")
    core.extending = _module("numba.core.extending")
    return core


def _make_np():
    np_ = _pytypes.ModuleType("numba.np", "numba.np as numjit answers it.")
    np_.__path__ = []
    np_.numpy_support = _module("numba.np.numpy_support")
    np_.ufunc = _module("numba.np.ufunc")
    return np_


def _make_np_linalg():
    """numba.np.linalg: Numba's implementation module of np.linalg, whose private LAPACK and
    BLAS bindings (_LAPACK, _BLAS) libraries import to call from generated_jit or overload
    code (quantecon.util.numba does at import).  The module imports; making one of them is an
    UnsupportedError naming it (numjit calls LAPACK itself for np.linalg.*)."""
    m = _pytypes.ModuleType("numba.np.linalg", "numba.np.linalg as numjit answers it.")
    for n in ("_LAPACK", "_BLAS"):
        setattr(m, n, _refusing_class("numba.np.linalg", n,
                                      "Numba's private LAPACK/BLAS bindings through llvmlite"))
    return m


def _make_np_ufunc():
    from . import ufunc
    m = _pytypes.ModuleType("numba.np.ufunc", "Numba's ufunc decorators.")
    m.vectorize, m.guvectorize = ufunc.vectorize, ufunc.guvectorize
    m.__all__ = ["vectorize", "guvectorize"]
    return m


def _cuda():
    from . import cuda
    return cuda


# Numba 0.56's numba/core/types/*.py: every name they define is numjit.types'
_TYPES_SUBMODULES = ("abstract", "common", "containers", "functions", "iterators", "misc",
                     "npytypes", "scalars")


def _types_package():
    """numjit.types, importable as a package (``numba.core.types.misc``): the same module
    answers for each submodule."""
    if not hasattr(_types, "__path__"):
        _types.__path__ = []
    return _types


_MAKERS = {
    "numba.core": _make_core,
    "numba.core.errors": lambda: _errors,
    "numba.core.types": _types_package,
    "numba.types": _types_package,
    **{f"numba.core.types.{n}": _types_package for n in _TYPES_SUBMODULES},
    "numba.core.config": _make_config,
    "numba.config": lambda: _module("numba.core.config"),
    "numba.core.extending": lambda: _module("numba.extending"),
    "numba.extending": lambda: _make_extending("numba.extending"),
    "numba.np": _make_np,
    "numba.np.numpy_support": _make_numpy_support,
    "numba.np.ufunc": _make_np_ufunc,
    "numba.np.linalg": _make_np_linalg,
    "numba.experimental": _make_experimental,
    "numba.experimental.structref": lambda: _module("numba.experimental").structref,
    "numba.typed": _make_typed,
    "numba.core.decorators": _make_decorators,
    "numba.core.imputils": lambda: _make_internals("numba.core.imputils"),
    "numba.core.typing": _make_typing,
    "numba.core.typing.templates": lambda: _make_internals("numba.core.typing.templates"),
    "numba.core.cgutils": lambda: _make_internals("numba.core.cgutils"),
    "numba.cuda": _cuda,
    "numba.cuda.random": lambda: _cuda().random,
}
_built = {}


def _module(name):
    """The module numjit answers for `name` (built on first use)."""
    m = _built.get(name)
    if m is None:
        m = _built[name] = _MAKERS[name]()
    return m


def config():
    """numba.config as numjit reads it (built, and its settings handed over, on first use)."""
    return _module("numba.core.config")


class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        return _module(spec.name)

    def exec_module(self, module):
        pass


class _Finder(importlib.abc.MetaPathFinder):
    """Answers numba.X while sys.modules['numba'] is numjit."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith("numba.") or sys.modules.get("numba") is not \
                sys.modules.get("numjit"):
            return None
        if fullname not in _MAKERS:
            raise ModuleNotFoundError(
                f"No module named '{fullname}': numjit answers for numba and does not "
                f"provide {fullname}; {_DOC}", name=fullname)
        return importlib.machinery.ModuleSpec(fullname, _Loader())


_finder = _Finder()


def install_finder():
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)


# The submodules install_as_numba puts into sys.modules at once (the rest come on import,
# through the finder, and leave nothing behind in a process that never imports them).
EAGER = ("numba.core", "numba.core.errors", "numba.core.types", "numba.types", "numba.cuda",
         "numba.cuda.random")
