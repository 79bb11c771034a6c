"""numjit.cuda — Numba's ``numba.cuda`` on numjit: explicit kernels on NVIDIA GPUs.

    from numba import cuda          # with sys.modules["numba"] = numjit, or: from numjit import cuda

    @cuda.jit
    def axpy(a, x, y):
        i = cuda.grid(1)
        if i < x.shape[0]:
            y[i] = a * x[i] + y[i]

    axpy[blocks, threads](2.0, x, y)             # host arrays: copied in, and back out
    d_x = cuda.to_device(x); axpy[blocks, threads, stream](2.0, d_x, d_y)   # stay on the GPU

A kernel is compiled from its module's source (numjit.source filters the file as for @njit)
on its first launch with new argument types, per device, to PTX that the driver loads; the
launch itself (argument classification, the copies, cuLaunchKernel) runs in C
(numjit._cuda), so a launch from Python costs a few microseconds.  Device arrays are
DeviceNDArray (``to_device``, ``device_array``, ``device_array_like``), and any object with
``__cuda_array_interface__`` (CuPy arrays, PyTorch tensors, numba-cuda arrays) is accepted
as a device argument.  ``threadIdx``, ``grid``, ``shared.array``, ``atomic.add``,
``shfl_down_sync``, ``ballot_sync``, ``popc`` ... exist here only so that kernel modules import: the compiler resolves them inside kernels, and
calling them from Python raises.

Without a CUDA driver or device, ``is_available()`` is False and launches and device memory
raise UnsupportedError (a NotImplementedError) with the reason; ``@cuda.jit`` still
type-checks explicit signatures and ``inspect_ptx`` still works (PTX needs no GPU).

The module is split by concept: devices, contexts, streams and events are numjit.cuda_device,
device and host arrays numjit.cuda_arrays; both are re-exported here, so ``cuda.NAME`` is
Numba's.
"""

import threading as _threading

import numpy as _np

from . import _cuda, capture as _capture, errors as _errors, source as _source
from . import types as _types
from .errors import UnsupportedError, CudaError

_cuda._configure(_errors, _np.ndarray)

__all__ = ["jit", "grid", "gridsize", "threadIdx", "blockIdx", "blockDim", "gridDim",
           "laneid", "warpsize", "shared", "local", "const", "syncthreads", "threadfence",
           "threadfence_block", "threadfence_system", "syncwarp", "shfl_sync", "shfl_up_sync",
           "shfl_down_sync", "shfl_xor_sync", "all_sync", "any_sync", "eq_sync", "ballot_sync",
           "match_any_sync", "match_all_sync", "activemask", "lanemask_lt", "syncthreads_count",
           "syncthreads_and", "syncthreads_or", "popc", "brev", "clz", "ffs", "selp", "fma",
           "cbrt", "atomic", "to_device", "device_array",
           "device_array_like", "pinned_array", "mapped_array", "synchronize", "stream",
           "default_stream", "external_stream", "is_available", "detect", "select_device",
           "get_current_device", "list_devices", "DeviceNDArray", "is_cuda_array", "from_dlpack",
           "as_cuda_array", "CudaSupportError", "event", "event_elapsed_time", "Event",
           "pinned", "mapped", "gpus", "current_context", "close", "defer_cleanup",
           "MemoryInfo", "MappedNDArray"]

CudaSupportError = UnsupportedError

# ---- the names kernels use (resolved by the compiler; here so the module imports) -------------


def _in_kernel_only(name):
    def f(*args, **kwargs):
        raise UnsupportedError(f"cuda.{name}() is only available inside a @cuda.jit kernel or "
                               "device function")
    f.__name__ = name.rsplit(".", 1)[-1]
    return f


class _Dim3Name:
    """threadIdx / blockIdx / blockDim / gridDim: .x .y .z inside kernels only."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        if attr in ("x", "y", "z"):
            raise UnsupportedError(f"cuda.{self._name}.{attr} is only available inside a "
                                   "@cuda.jit kernel or device function")
        raise AttributeError(attr)

    def __repr__(self):
        return f"cuda.{self._name}"


threadIdx = _Dim3Name("threadIdx")
blockIdx = _Dim3Name("blockIdx")
blockDim = _Dim3Name("blockDim")
gridDim = _Dim3Name("gridDim")
laneid = _Dim3Name("laneid")
warpsize = 32
grid = _in_kernel_only("grid")
gridsize = _in_kernel_only("gridsize")
syncthreads = _in_kernel_only("syncthreads")
threadfence = _in_kernel_only("threadfence")
threadfence_block = _in_kernel_only("threadfence_block")
threadfence_system = _in_kernel_only("threadfence_system")

# warp, block and bit intrinsics (numba-cuda's names and typing; docs/cuda.md lists them)
_INTRINSICS = ["syncwarp", "shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync",
               "all_sync", "any_sync", "eq_sync", "ballot_sync", "match_any_sync",
               "match_all_sync", "activemask", "lanemask_lt", "syncthreads_count",
               "syncthreads_and", "syncthreads_or", "popc", "brev", "clz", "ffs", "selp", "fma",
               "cbrt"]
for _name in _INTRINSICS:
    globals()[_name] = _in_kernel_only(_name)
del _name


class _Namespace:
    def __init__(self, name, members):
        self.__name__ = name
        for m in members:
            setattr(self, m, _in_kernel_only(f"{name}.{m}"))


shared = _Namespace("shared", ["array"])
local = _Namespace("local", ["array"])
const = _Namespace("const", ["array_like"])
atomic = _Namespace("atomic", ["add", "sub", "max", "min", "exch", "cas", "and_", "or_",
                               "xor", "inc", "dec", "nanmax", "nanmin"])

# ---- devices, contexts, streams, events (cuda_device.py) and arrays (cuda_arrays.py) ---------

from .cuda_device import (  # noqa: E402
    is_available, detect, select_device, get_current_device, list_devices, gpus, MemoryInfo,
    current_context, close, defer_cleanup, synchronize, Stream, stream, default_stream,
    legacy_default_stream, external_stream, Event, event, event_elapsed_time, _handle)
from .cuda_arrays import (  # noqa: E402
    DeviceNDArray, device_array, device_array_like, to_device, pinned_array, MappedNDArray,
    mapped_array, pinned, mapped, is_cuda_array, from_dlpack, as_cuda_array)


# ---- kernels ----------------------------------------------------------------------------------

_lock = _threading.RLock()
_modules = {}  # (filename, filtered text) -> _cuda.Module


def _load_module(py_func):
    filename, text = _source.filtered_source(py_func)
    key = (filename, text)
    with _lock:
        mod = _modules.get(key)
        if mod is None:
            mod = _modules[key] = _cuda.compile_source(filename, text)
    return mod


def _sig_text(sig):
    """A signature (string or numjit Signature) as text: 'void(float32[:], int64)'."""
    if isinstance(sig, str):
        return sig
    if isinstance(sig, _types.Signature):
        return str(sig)
    if isinstance(sig, tuple):
        return "(" + ", ".join(str(t) for t in sig) + ")"
    return str(sig)


class Kernel(_cuda.Kernel):
    """A @cuda.jit kernel: launch with ``kernel[griddim, blockdim](args)`` or
    ``kernel[griddim, blockdim, stream, sharedmem](args)``."""

    def __init__(self, py_func, signatures=(), options=None):
        self.py_func = py_func
        _capture.capture(py_func)
        self.__name__ = py_func.__name__
        self.__qualname__ = py_func.__qualname__
        self.__doc__ = py_func.__doc__
        self.__module__ = py_func.__module__
        self.targetoptions = dict(options or {})
        self._signatures = [_sig_text(s) for s in signatures]
        for s in self._signatures:
            self._compile(s)

    def _bind_now(self):
        self._bind(_load_module(self.py_func), self.py_func.__name__)

    def __call__(self, *args, **kwargs):
        raise ValueError(f"kernel {self.__name__}: no launch configuration given; launch it "
                         f"as {self.__name__}[blocks, threads](...)")

    def configure(self, griddim, blockdim, stream=0, sharedmem=0):
        return self[griddim, blockdim, stream, sharedmem]

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A launch covering ntasks threads (for grid-stride or one-per-element kernels)."""
        tpb = tpb or 128
        return self[max(1, (ntasks + tpb - 1) // tpb), tpb, stream, sharedmem]

    def specialize(self, *args):
        return self

    def inspect_ptx(self, signature=None, arch=None):
        """PTX (text) for a signature such as 'void(float32[:], float32[:])' or an argument
        tuple; arch defaults to sm_90.  Needs no GPU."""
        if signature is None:
            if not self._signatures:
                raise ValueError("inspect_ptx needs a signature for a lazily compiled kernel")
            return {s: self.inspect_ptx(s, arch) for s in self._signatures}
        text = _sig_text(signature)
        args = text[text.index("("):]
        return self._ptx(self.__name__ + args, arch)

    inspect_asm = inspect_ptx

    @property
    def signatures(self):
        return list(self._signatures)

    def __repr__(self):
        return f"<numjit.cuda.Kernel {self.__qualname__}>"

    def __reduce__(self):
        """Pickles by value: source text, signatures, options (numjit.serialize)."""
        from . import serialize
        return serialize.reduce_kernel(self)


class DeviceFunction:
    """A @cuda.jit(device=True) function: called from kernels (compiled with them)."""

    def __init__(self, py_func, options=None):
        self.py_func = py_func
        _capture.capture(py_func)
        self.__name__ = py_func.__name__
        self.__doc__ = py_func.__doc__
        self.targetoptions = dict(options or {})

    def __call__(self, *args, **kwargs):
        raise UnsupportedError(f"device function {self.__name__} can only be called from a "
                               "@cuda.jit kernel or another device function")

    def __repr__(self):
        return f"<numjit.cuda.DeviceFunction {self.py_func.__qualname__}>"


_JIT_OPTIONS = {"device", "fastmath", "debug", "lineinfo", "inline", "opt", "cache",
                "max_registers", "link", "boundscheck", "forceinline", "lto", "extensions"}


def jit(func_or_sig=None, device=False, **options):
    """Numba's @cuda.jit: ``@cuda.jit``, ``@cuda.jit(device=True)``, ``@cuda.jit(fastmath=True)``,
    ``@cuda.jit('void(float32[:], float32[:])')`` (compiled now), or a list of signatures."""
    for k in options:
        if k not in _JIT_OPTIONS:
            raise TypeError(f"cuda.jit() got an unexpected option {k!r}")
    options["device"] = device

    def wrap(f, sigs=()):
        if device:
            return DeviceFunction(f, options)
        return Kernel(f, sigs, options)

    if func_or_sig is None:
        return lambda f: wrap(f)
    if callable(func_or_sig) and not isinstance(func_or_sig, (str, _types.Signature, _types.Type)):
        return wrap(func_or_sig)
    sigs = func_or_sig if isinstance(func_or_sig, list) else [func_or_sig]
    return lambda f: wrap(f, () if device else sigs)


# numba.cuda.random: `from numjit.cuda.random import ...` and `cuda.random.<name>`
import sys as _sys  # noqa: E402
from . import cuda_random as random  # noqa: E402
_sys.modules[__name__ + ".random"] = random
