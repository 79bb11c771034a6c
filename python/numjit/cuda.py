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
"""

import collections as _collections
import contextlib as _contextlib
import threading as _threading

import numpy as _np

from . import _cuda, capture as _capture, dlpack as _dlpack, errors as _errors, source as _source
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

# ---- devices ----------------------------------------------------------------------------------


def is_available():
    """True when a CUDA driver and at least one device are present."""
    try:
        return _cuda.device_count() > 0
    except Exception:
        return False


def detect():
    """Prints the devices found (as numba.cuda.detect does); True when there is one."""
    n = _cuda.device_count()
    if n == 0:
        print(f"numjit.cuda: no CUDA device ({_cuda.last_error() or 'none found'})")
        return False
    print(f"Found {n} CUDA device(s)")
    cur = _cuda.device_info()[0]
    for i in range(n):
        _cuda.set_device(i)
        _, name, ma, mi = _cuda.device_info()
        print(f"id {i}    {name!s:>40}    [SUPPORTED] compute capability {ma}.{mi}")
    _cuda.set_device(cur)
    return True


def _require():
    if _cuda.device_count() == 0:
        raise UnsupportedError("numjit.cuda: " + (_cuda.last_error() or "no CUDA device"))


# CUdevice_attribute numbers (the driver's ABI) under numba-cuda's attribute names
_DEVICE_ATTRIBUTES = {
    "MAX_THREADS_PER_BLOCK": 1, "MAX_BLOCK_DIM_X": 2, "MAX_BLOCK_DIM_Y": 3, "MAX_BLOCK_DIM_Z": 4,
    "MAX_GRID_DIM_X": 5, "MAX_GRID_DIM_Y": 6, "MAX_GRID_DIM_Z": 7,
    "MAX_SHARED_MEMORY_PER_BLOCK": 8, "TOTAL_CONSTANT_MEMORY": 9, "WARP_SIZE": 10,
    "MAX_PITCH": 11, "MAX_REGISTERS_PER_BLOCK": 12, "CLOCK_RATE": 13, "TEXTURE_ALIGNMENT": 14,
    "GPU_OVERLAP": 15, "MULTIPROCESSOR_COUNT": 16, "KERNEL_EXEC_TIMEOUT": 17, "INTEGRATED": 18,
    "CAN_MAP_HOST_MEMORY": 19, "COMPUTE_MODE": 20, "CONCURRENT_KERNELS": 31, "ECC_ENABLED": 32,
    "PCI_BUS_ID": 33, "PCI_DEVICE_ID": 34, "TCC_DRIVER": 35, "MEMORY_CLOCK_RATE": 36,
    "GLOBAL_MEMORY_BUS_WIDTH": 37, "L2_CACHE_SIZE": 38, "MAX_THREADS_PER_MULTI_PROCESSOR": 39,
    "MAX_THREADS_PER_MULTIPROCESSOR": 39, "ASYNC_ENGINE_COUNT": 40, "UNIFIED_ADDRESSING": 41,
    "PCI_DOMAIN_ID": 50, "COMPUTE_CAPABILITY_MAJOR": 75, "COMPUTE_CAPABILITY_MINOR": 76,
    "STREAM_PRIORITIES_SUPPORTED": 78, "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR": 81,
    "MAX_REGISTERS_PER_MULTIPROCESSOR": 82, "MANAGED_MEMORY": 83, "MULTI_GPU_BOARD": 84,
    "COOPERATIVE_LAUNCH": 95, "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 97,
}


def _on_device(ordinal, f):
    """f() with device `ordinal` current on this thread, the current device restored after."""
    cur = _cuda.device_info()[0]
    if cur == ordinal:
        return f()
    _cuda.set_device(ordinal)
    try:
        return f()
    finally:
        _cuda.set_device(cur)


class _Device:
    """A CUDA device (numba.cuda's Device): ``id``, ``name`` (bytes), ``compute_capability``
    and every attribute of numba-cuda's list by its name (``MULTIPROCESSOR_COUNT``,
    ``MAX_THREADS_PER_BLOCK``, ``WARP_SIZE``, ...: cuDeviceGetAttribute, read once)."""

    def __init__(self, ordinal, name, ma, mi):
        self.id = ordinal
        self.name = name.encode() if isinstance(name, str) else name
        self.compute_capability = (ma, mi)

    def __getattr__(self, attr):
        code = _DEVICE_ATTRIBUTES.get(attr)
        if code is None:
            raise AttributeError(f"{type(self).__name__} has no attribute {attr!r}")
        value = _on_device(self.id, lambda: _cuda.device_attribute(code))
        setattr(self, attr, value)
        return value

    def get_primary_context(self):
        return _Context(self)

    def reset(self):
        """Returns the memory numjit keeps cached on this device to the driver (arrays still
        alive stay valid; numjit never destroys the primary context it shares)."""
        _on_device(self.id, _Context(self).reset)

    def __eq__(self, other):
        return isinstance(other, _Device) and other.id == self.id

    def __hash__(self):
        return hash(("numjit.cuda.Device", self.id))

    def __repr__(self):
        return f"<CUDA device {self.id} '{self.name.decode()}'>"


_devices = {}


def _device(ordinal=None):
    """The _Device of this ordinal (the current device when None), one object per ordinal."""
    if ordinal is None:
        info = _cuda.device_info()
    else:
        info = _on_device(int(ordinal), _cuda.device_info)
    d = _devices.get(info[0])
    if d is None:
        d = _devices[info[0]] = _Device(*info)
    return d


def select_device(ordinal):
    """Makes device `ordinal` the calling thread's current device."""
    _cuda.set_device(int(ordinal))
    return get_current_device()


def get_current_device():
    """The calling thread's current device (name, compute_capability, id, attributes)."""
    _require()
    return _device()


def list_devices():
    return [_device(i) for i in range(_cuda.device_count())]


class _DeviceContextManager:
    """An entry of ``cuda.gpus``: the device's attributes, and ``with cuda.gpus[i]:`` makes it
    the current device of the thread for the block."""

    def __init__(self, ordinal):
        self.id = ordinal
        self._saved = []

    @property
    def _device(self):
        return _device(self.id)

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return getattr(self._device, attr)

    def __enter__(self):
        self._saved.append(_cuda.device_info()[0])
        _cuda.set_device(self.id)
        return self

    def __exit__(self, *exc):
        _cuda.set_device(self._saved.pop())
        return False

    def __eq__(self, other):
        return getattr(other, "id", None) == self.id and isinstance(
            other, (_DeviceContextManager, _Device))

    def __hash__(self):
        return hash(("numjit.cuda.Device", self.id))

    def __str__(self):
        return f"<Managed Device {self.id}>"

    __repr__ = __str__


class _DeviceList:
    """``cuda.gpus``: ``len(cuda.gpus)``, ``cuda.gpus[i]``, iteration, ``cuda.gpus.current``.
    Without a driver or device the list is empty."""

    def __len__(self):
        return _cuda.device_count()

    def __getitem__(self, i):
        n = len(self)
        if isinstance(i, slice):
            return [self[k] for k in range(n)[i]]
        i = int(i)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"cuda.gpus[{i}]: this machine has {n} CUDA device(s)")
        return _DeviceContextManager(i)

    def __iter__(self):
        return iter([self[i] for i in range(len(self))])

    @property
    def current(self):
        """The calling thread's current device, None where there is no device."""
        return self[_cuda.device_info()[0]] if len(self) else None

    def __repr__(self):
        return "<Managed Device List: " + ", ".join(str(d) for d in self) + ">"


gpus = _DeviceList()

MemoryInfo = _collections.namedtuple("MemoryInfo", "free,total")


class _Deallocations:
    """``context.deallocations``: the device frees that ``defer_cleanup`` holds back."""

    def clear(self):
        _cuda.flush_deferred()

    @_contextlib.contextmanager
    def disable(self):
        with defer_cleanup():
            yield


class _Context:
    """``cuda.current_context()``: the device's primary context, shared with every other user
    of the driver API in the process."""

    def __init__(self, device):
        self.device = device
        self.deallocations = _Deallocations()

    @property
    def id(self):
        return self.device.id

    def get_memory_info(self):
        """(free, total) bytes of the device's memory, as the driver reports them."""
        return MemoryInfo(*_on_device(self.device.id, _cuda.mem_info))

    def synchronize(self):
        _on_device(self.device.id, _cuda.synchronize)

    def reset(self):
        """Waits for the device, frees what deferral holds and returns the blocks numjit's
        allocator keeps cached to the driver.  Arrays still alive stay valid."""
        def run():
            _cuda.synchronize()
            _cuda.flush_deferred()
            _cuda.mem_trim()
        _on_device(self.device.id, run)

    def __repr__(self):
        return f"<CUDA context of device {self.device.id}>"


def current_context(devnum=None):
    """The primary context of the current device (of device `devnum` when given)."""
    _require()
    return _Context(_device(devnum))


def close():
    """numba-cuda's cuda.close(): numjit waits for the current device and gives its cached
    memory back to the driver.  The primary context stays (numjit shares it with CuPy,
    PyTorch...); kernels and arrays stay usable."""
    if is_available():
        current_context().reset()


@_contextlib.contextmanager
def defer_cleanup():
    """Inside the block, device memory of arrays that die is not freed (nor reused) until the
    outermost block exits: asynchronous work on a stream may still read it."""
    _cuda.defer(True)
    try:
        yield
    finally:
        _cuda.defer(False)


def synchronize():
    """Waits until every kernel and copy on the current device has finished."""
    _cuda.synchronize()


# ---- streams ----------------------------------------------------------------------------------


class Stream:
    """A CUDA stream.  ``handle`` is the CUstream as an int (0: the default stream)."""

    def __init__(self, handle=0, owned=False):
        self.handle = handle
        self._owned = owned

    def synchronize(self):
        _cuda.stream_sync(self.handle)

    def auto_synchronize(self):
        """``with stream.auto_synchronize():`` synchronizes the stream on exit."""
        stream = self

        class _Sync:
            def __enter__(self):
                return stream

            def __exit__(self, *exc):
                stream.synchronize()
                return False
        return _Sync()

    def __int__(self):
        return self.handle

    def __del__(self):
        if getattr(self, "_owned", False) and self.handle:
            try:
                _cuda.stream_free(self.handle)
            except Exception:
                pass

    def __repr__(self):
        return f"<numjit.cuda.Stream {self.handle:#x}>"


def stream():
    """A new stream (asynchronous with respect to the default stream)."""
    return Stream(_cuda.stream_new(), owned=True)


def default_stream():
    return Stream(0)


legacy_default_stream = default_stream


def external_stream(ptr):
    """A stream made elsewhere (CuPy's ``.ptr``, PyTorch's ``.cuda_stream``)."""
    return Stream(int(ptr))


def _handle(s):
    if s is None or s == 0:
        return 0
    if isinstance(s, Stream):
        return s.handle
    for attr in ("handle", "ptr", "cuda_stream"):
        h = getattr(s, attr, None)
        if h is not None:
            return int(getattr(h, "value", h) or 0)
    return int(s)


# ---- events -----------------------------------------------------------------------------------


class Event:
    """A CUDA event (numba.cuda's Event): ``record(stream=0)``, ``synchronize()``,
    ``wait(stream=0)`` (work queued on the stream afterwards waits for the event), ``query()``
    (True once the work recorded before it has completed) and ``elapsed_time(end)`` (ms)."""

    def __init__(self, timing=True):
        self.handle = 0
        self.timing = bool(timing)
        self.handle = _cuda.event_new(self.timing)

    def record(self, stream=0):
        _cuda.event_record(self.handle, _handle(stream))

    def synchronize(self):
        _cuda.event_sync(self.handle)

    def wait(self, stream=0):
        _cuda.stream_wait_event(_handle(stream), self.handle)

    def query(self):
        return _cuda.event_query(self.handle)

    def elapsed_time(self, evtend):
        return event_elapsed_time(self, evtend)

    def __del__(self):
        if getattr(self, "handle", 0):
            try:
                _cuda.event_free(self.handle)
            except Exception:
                pass

    def __repr__(self):
        return f"<numjit.cuda.Event {self.handle:#x}>"


def event(timing=True):
    """A new event; timing=False makes a cheaper one that elapsed_time refuses."""
    return Event(timing)


def event_elapsed_time(evtstart, evtend):
    """Milliseconds (a float) between two recorded, completed events."""
    if not isinstance(evtstart, Event) or not isinstance(evtend, Event):
        raise TypeError("event_elapsed_time(evtstart, evtend) takes two cuda.event() objects")
    return _cuda.event_elapsed(evtstart.handle, evtend.handle)


# ---- device arrays ----------------------------------------------------------------------------

_CODES = {_np.dtype(n): i for i, n in enumerate(
    ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
     "float32", "float64", "complex64", "complex128"])}


def _code(dtype):
    dt = _np.dtype(dtype)
    try:
        return _CODES[dt.newbyteorder("=")] if dt.byteorder == ">" else _CODES[dt]
    except KeyError:
        raise TypeError(f"numjit.cuda: unsupported dtype {dt}") from None


def _span(shape, strides, itemsize):
    """(lo, hi) byte offsets reached from the first element; None when empty."""
    lo, hi = 0, itemsize
    for n, s in zip(shape, strides):
        if n == 0:
            return None
        ext = (n - 1) * s
        if ext < 0:
            lo += ext
        else:
            hi += ext
    return lo, hi


def _c_strides(shape, itemsize):
    out, sd = [], itemsize
    for n in reversed(shape):
        out.append(sd)
        sd *= n
    return tuple(reversed(out))


def _f_strides(shape, itemsize):
    out, sd = [], itemsize
    for n in shape:
        out.append(sd)
        sd *= n
    return tuple(out)


class DeviceNDArray(_cuda.DeviceArray):
    """An array in GPU memory (numba.cuda's DeviceNDArray): ``shape``, ``strides``, ``dtype``,
    ``size``, ``ndim``, ``nbytes``, ``len()``, ``copy_to_host``, ``copy_to_device``, indexing
    (views; an element copies its value to the host), ``T``/``transpose``, ``split``,
    ``view``, ``reshape``, ``np.asarray(d)`` (a host copy) and ``__cuda_array_interface__``
    (version 3)."""

    def __init__(self, shape, strides=None, dtype=_np.float64, stream=0, gpu_data=None,
                 _base=None):
        if isinstance(shape, (int, _np.integer)):
            shape = (int(shape),)
        self.shape = tuple(int(n) for n in shape)
        self.dtype = _np.dtype(dtype)
        if strides is None:
            strides = _c_strides(self.shape, self.dtype.itemsize)
        elif isinstance(strides, (int, _np.integer)):
            strides = (int(strides),)
        self.strides = tuple(int(s) for s in strides)
        self.ndim = len(self.shape)
        self.size = int(_np.prod(self.shape, dtype=_np.int64)) if self.shape else 1
        self.stream = stream
        span = _span(self.shape, self.strides, self.dtype.itemsize)
        self._lo = span[0] if span else 0
        self._nbytes_span = (span[1] - span[0]) if span else 0
        if gpu_data is None:
            base = _cuda.malloc(self._nbytes_span) if self._nbytes_span else 0
            ptr, owns = (base - self._lo) if base else 0, bool(base)
            if owns and self._lo:  # the allocation starts at the lowest reached byte
                owns = False
                _base = _Allocation(base)
        else:
            ptr, owns = int(gpu_data), False
        self._set(ptr, _code(self.dtype), self.shape, self.strides, owns, _base)

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    @property
    def alloc_size(self):
        return self._nbytes_span

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d device array")
        return self.shape[0]

    def is_c_contiguous(self):
        return all(n == 1 or s == c for n, s, c in
                   zip(self.shape, self.strides, _c_strides(self.shape, self.dtype.itemsize)))

    def is_f_contiguous(self):
        return all(n == 1 or s == c for n, s, c in
                   zip(self.shape, self.strides, _f_strides(self.shape, self.dtype.itemsize)))

    @property
    def flags(self):
        return {"C_CONTIGUOUS": self.is_c_contiguous(), "F_CONTIGUOUS": self.is_f_contiguous()}

    @property
    def __cuda_array_interface__(self):
        return {
            "shape": self.shape,
            "strides": None if self.is_c_contiguous() else self.strides,
            "data": (self.device_pointer, False),
            "typestr": self.dtype.str,
            "version": 3,
        }

    def __dlpack_device__(self):
        return (_dlpack.KDL_CUDA, _cuda.device_info()[0])

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule over this array's memory (torch/cupy/jax ``from_dlpack``);
        ``stream``: the consumer's stream, made to wait for this array's work."""
        if copy:
            raise BufferError("DeviceNDArray.__dlpack__: copy=True is not supported")
        if dl_device is not None and tuple(dl_device) != self.__dlpack_device__():
            raise BufferError(f"DeviceNDArray.__dlpack__: the array is on "
                              f"{self.__dlpack_device__()}, not {tuple(dl_device)}")
        return _dlpack.export(self, self.__dlpack_device__()[1], stream, self._dlpack_wait)

    def _dlpack_wait(self, stream):
        ev = _cuda.event_new(False)
        try:
            _cuda.event_record(ev, _handle(self.stream))
            _cuda.stream_wait_event(stream, ev)
        finally:
            _cuda.event_free(ev)

    def _host_like(self):
        """A host array with this array's shape, dtype and strides."""
        if not self.size or self.is_c_contiguous():
            return _np.empty(self.shape, dtype=self.dtype)
        raw = _np.empty(self._nbytes_span, dtype=_np.uint8)
        return _np.ndarray(self.shape, self.dtype, raw, -self._lo, self.strides)

    @property
    def _dense(self):
        """True when the bytes between the first and the last element are all elements: a
        copy of that byte range touches nothing else.  A strided view has gaps (bytes of
        other elements of its base), which copies must leave alone."""
        return self._nbytes_span == self.nbytes

    def copy_to_host(self, ary=None, stream=0):
        """Copies to a host array (a new one with the same shape and strides when None).
        With a stream the copy is asynchronous: synchronize the stream before reading."""
        if ary is None:
            ary = target = self._host_like()  # a fresh buffer: its gaps are ours to fill
        else:
            self._check_host(ary)
            target = ary if self._dense else self._host_like()
        if self._nbytes_span:
            _cuda.dtoh(self.device_pointer + self._lo, target, self._lo, self._nbytes_span,
                       _handle(stream))
        if target is not ary:  # only the elements go into the caller's strided array
            if stream:
                Stream(_handle(stream)).synchronize()
            ary[...] = target
        return ary

    def copy_to_device(self, ary, stream=0):
        """Copies a host array (converted and broadcast to this array's dtype and shape) or a
        device array (same shape, dtype and strides) into this.  Into a strided view, the
        elements between this view's own keep their values."""
        if isinstance(ary, DeviceNDArray) or hasattr(ary, "__cuda_array_interface__") and \
                not isinstance(ary, _np.ndarray):
            src = as_cuda_array(ary)
            if src.shape != self.shape or src.dtype != self.dtype or src.strides != self.strides:
                raise ValueError("copy_to_device: shape, dtype and strides must match")
            if not self._dense:  # through the host, so that the gaps are not written
                self.copy_to_device(src.copy_to_host(stream=stream), stream=stream)
            elif self._nbytes_span:
                _cuda.dtod(self.device_pointer + self._lo, src.device_pointer + src._lo,
                           self._nbytes_span, _handle(stream))
            return
        ary = _np.asarray(ary)
        if not self._dense and self._nbytes_span:
            # read, modify, write the byte range: the gaps go back with the device's values
            host = self.copy_to_host(stream=stream)
            if stream:
                Stream(_handle(stream)).synchronize()
            host[...] = _np.broadcast_to(_np.asarray(ary, dtype=self.dtype), self.shape)
            ary = host
        elif ary.dtype != self.dtype or ary.shape != self.shape or \
                (self.size > 1 and ary.strides != self.strides):
            src = _np.broadcast_to(_np.asarray(ary, dtype=self.dtype), self.shape)
            ary = self._host_like()
            ary[...] = src
        if self._nbytes_span:
            _cuda.htod(self.device_pointer + self._lo, ary, self._lo, self._nbytes_span,
                       _handle(stream))

    def _check_host(self, ary):
        if not isinstance(ary, _np.ndarray) or ary.shape != self.shape or \
                ary.dtype != self.dtype or (self.size > 1 and ary.strides != self.strides):
            raise ValueError("copy_to_host: the host array must have the device array's shape, "
                             "dtype and strides")

    def reshape(self, *newshape, order="C"):
        if len(newshape) == 1 and isinstance(newshape[0], (tuple, list)):
            newshape = tuple(newshape[0])
        newshape = list(newshape)
        if -1 in newshape:
            k = newshape.index(-1)
            rest = int(_np.prod([n for i, n in enumerate(newshape) if i != k]))
            newshape[k] = self.size // rest if rest else 0
        if int(_np.prod(newshape)) != self.size:
            raise ValueError("cannot reshape: the sizes differ")
        if not (self.is_c_contiguous() if order == "C" else self.is_f_contiguous()):
            raise NotImplementedError("reshape of a non-contiguous device array")
        st = (_c_strides if order == "C" else _f_strides)(newshape, self.dtype.itemsize)
        return DeviceNDArray(newshape, st, self.dtype, self.stream, self.device_pointer, self)

    def ravel(self, order="C"):
        return self.reshape(self.size, order=order)

    def _view_of(self, key):
        """(view or None, byte offset of the indexed element(s) from ours, numpy view)."""
        raw = _np.empty(max(self._nbytes_span, 1), _np.uint8)
        me = _np.ndarray(self.shape, self.dtype, raw, -self._lo, self.strides)
        v = me[key]
        if not isinstance(v, _np.ndarray):  # one element: index a 0-d view instead
            v = me[key + (...,) if isinstance(key, tuple) else (key, ...)]
        off = v.__array_interface__["data"][0] - me.__array_interface__["data"][0]
        return DeviceNDArray(v.shape, v.strides, self.dtype, self.stream,
                             self.device_pointer + off, self)

    def __getitem__(self, key):
        """Basic indexing: slices give a device view (no copy), a single element its value."""
        return self.getitem(key)

    def getitem(self, item, stream=0):
        """self[item], the copy of a single element made on `stream` (synchronized)."""
        v = self._view_of(item)
        if v.ndim == 0:
            h = v.copy_to_host(stream=stream)
            if stream:
                Stream(_handle(stream)).synchronize()
            return h[()]
        return v

    def __setitem__(self, key, value):
        self._view_of(key).copy_to_device(value)

    def setitem(self, key, value, stream=0):
        """self[key] = value (a scalar or a host array, broadcast), copied on `stream`."""
        self._view_of(key).copy_to_device(value, stream=stream)

    def __array__(self, dtype=None, copy=None):
        """np.asarray(d) copies the array to the host, as numba-cuda does."""
        h = self.copy_to_host()
        return h if dtype is None else h.astype(dtype, copy=False)

    def transpose(self, axes=None):
        """A view with the axes permuted (reversed when None): no copy; kernels take any
        strides.  (numba-cuda copies 2-d arrays through a transpose kernel instead.)"""
        if axes is None:
            axes = tuple(range(self.ndim))[::-1]
        axes = tuple(int(a) + self.ndim if int(a) < 0 else int(a) for a in axes)
        if sorted(axes) != list(range(self.ndim)):
            raise ValueError(f"invalid axes list {axes!r}")
        if axes == tuple(range(self.ndim)):
            return self
        return DeviceNDArray(tuple(self.shape[a] for a in axes),
                             tuple(self.strides[a] for a in axes), self.dtype, self.stream,
                             self.device_pointer, self)

    @property
    def T(self):
        return self.transpose()

    def split(self, section, stream=0):
        """Views of consecutive pieces of `section` elements (the last may be shorter) of a
        1-d array with unit stride, as numba-cuda's split (a generator)."""
        if self.ndim != 1:
            raise ValueError("only support 1d array")
        if self.strides[0] != self.dtype.itemsize:
            raise ValueError("only support unit stride")
        section = int(section)
        if section <= 0:
            raise ValueError("split: the section size must be positive")
        itemsize = self.dtype.itemsize
        for begin in range(0, self.size, section):
            end = min(begin + section, self.size)
            yield DeviceNDArray((end - begin,), self.strides, self.dtype, stream or self.stream,
                                self.device_pointer + begin * itemsize, self)

    @property
    def device_ctypes_pointer(self):
        import ctypes
        return ctypes.c_void_p(self.device_pointer or None)

    def view(self, dtype):
        """The same memory seen as another dtype (the last dimension rescaled, as NumPy)."""
        dtype = _np.dtype(dtype)
        if dtype.itemsize == self.dtype.itemsize:
            return DeviceNDArray(self.shape, self.strides, dtype, self.stream,
                                 self.device_pointer, self)
        if not self.ndim or self.strides[-1] != self.dtype.itemsize or \
                (self.shape[-1] * self.dtype.itemsize) % dtype.itemsize:
            raise ValueError("view: the last dimension must be contiguous and its bytes a "
                             "multiple of the new itemsize")
        shape = self.shape[:-1] + (self.shape[-1] * self.dtype.itemsize // dtype.itemsize,)
        strides = self.strides[:-1] + (dtype.itemsize,)
        return DeviceNDArray(shape, strides, dtype, self.stream, self.device_pointer, self)

    def __repr__(self):
        return f"<numjit.cuda.DeviceNDArray shape={self.shape} dtype={self.dtype}>"


class _Allocation:
    """An owned device allocation that a DeviceNDArray does not start at (negative strides)."""

    def __init__(self, ptr):
        self.ptr = ptr

    def __del__(self):
        try:
            _cuda.free(self.ptr)
        except Exception:
            pass


def device_array(shape, dtype=_np.float64, strides=None, order="C", stream=0):
    """An uninitialized device array."""
    if isinstance(shape, (int, _np.integer)):
        shape = (int(shape),)
    if strides is None and order == "F":
        strides = _f_strides(tuple(shape), _np.dtype(dtype).itemsize)
    return DeviceNDArray(shape, strides, dtype, stream)


def device_array_like(ary, stream=0):
    """An uninitialized device array with ary's shape, dtype and layout (C or F)."""
    f = getattr(ary, "flags", None)
    fortran = bool(f and not (f["C_CONTIGUOUS"]) and f["F_CONTIGUOUS"]) if f is not None else False
    return device_array(ary.shape, ary.dtype, order="F" if fortran else "C", stream=stream)


def to_device(obj, stream=0, copy=True, to=None):
    """Copies a host array to the device (into `to` when given) and returns the device array."""
    if to is not None:
        to.copy_to_device(obj, stream=stream)
        return to
    if isinstance(obj, DeviceNDArray):
        return obj
    ary = _np.asarray(obj)
    if not (ary.flags["C_CONTIGUOUS"] or ary.flags["F_CONTIGUOUS"]):
        ary = _np.ascontiguousarray(ary)
    d = DeviceNDArray(ary.shape, ary.strides, ary.dtype, stream)
    if copy:
        d.copy_to_device(ary, stream=stream)
    return d


def _host_layout(shape, dtype, strides, order):
    if isinstance(shape, (int, _np.integer)):
        shape = (int(shape),)
    shape = tuple(int(n) for n in shape)
    dtype = _np.dtype(dtype)
    if strides is None:
        strides = (_f_strides if order == "F" else _c_strides)(shape, dtype.itemsize)
    elif isinstance(strides, (int, _np.integer)):
        strides = (int(strides),)
    span = _span(shape, tuple(strides), dtype.itemsize)
    return shape, dtype, tuple(strides), span


def pinned_array(shape, dtype=_np.float64, strides=None, order="C"):
    """A NumPy array over page-locked host memory (cuMemHostAlloc): copies between it and the
    device run at the bus's speed and may overlap kernels on a stream.  The memory goes back
    to the driver when the last array over it dies.  Without a CUDA driver or device, an
    ordinary array."""
    if not is_available():
        return _np.empty(shape, dtype=dtype, order=order)
    shape, dtype, strides, span = _host_layout(shape, dtype, strides, order)
    lo, hi = span if span else (0, 0)
    buf = _cuda.host_alloc(hi - lo)
    return _np.ndarray(shape, dtype, buffer=buf, offset=-lo, strides=strides)


class MappedNDArray(_np.ndarray):
    """A NumPy array over page-locked host memory that is mapped into the device's address
    space: kernels take it as a device array (no copies; they read and write host memory over
    the bus), the host reads it as any array once the kernel is synchronized."""

    @property
    def __cuda_array_interface__(self):
        base = self.__array_interface__["data"][0]
        return {"shape": self.shape, "strides": self.strides, "typestr": self.dtype.str,
                "data": (_cuda.host_device_pointer(base) if self.size else 0, False),
                "version": 3}

    @property
    def device_pointer(self):
        return self.__cuda_array_interface__["data"][0]


def mapped_array(shape, dtype=_np.float64, strides=None, order="C", stream=0, portable=False,
                 wc=False):
    """Page-locked host memory mapped into the device (numba-cuda's mapped_array): a
    MappedNDArray that kernels use in place.  Without a CUDA driver or device, an ordinary
    array."""
    if not is_available():
        return _np.empty(shape, dtype=dtype, order=order)
    a = pinned_array(shape, dtype, strides, order)
    return a.view(MappedNDArray)


def _host_range(ary):
    """(address, nbytes) of the bytes a host array's strides reach; nbytes 0 when empty."""
    a = _np.asarray(ary)
    span = _span(a.shape, a.strides, a.itemsize)
    if span is None:
        return 0, 0
    return a.__array_interface__["data"][0] + span[0], span[1] - span[0]


@_contextlib.contextmanager
def pinned(*arylist):
    """``with cuda.pinned(a, b):`` page-locks the host arrays' memory for the block
    (cuMemHostRegister): copies of them inside run at the bus's speed.  Memory pinned already
    is left as it is.  Without a CUDA driver or device, nothing happens."""
    done = []
    try:
        if arylist and is_available():
            for ary in arylist:
                addr, n = _host_range(ary)
                if n:
                    p = _cuda.host_register(addr, n, False)
                    if p:
                        done.append(p)
        yield
    finally:
        for p in reversed(done):
            _cuda.host_unregister(p)


@_contextlib.contextmanager
def mapped(*arylist, **kws):
    """``with cuda.mapped(a) as d_a:`` page-locks and maps host arrays for the block and gives
    device arrays over the same memory (one array, or a list for several): kernels launched
    with them read and write the host arrays in place.  Synchronize before the block ends."""
    if set(kws) - {"stream"}:
        raise TypeError("cuda.mapped() takes only the keyword 'stream'")
    _require()
    stream = kws.get("stream", 0)
    done, devs = [], []
    try:
        for ary in arylist:
            if not isinstance(ary, _np.ndarray):
                raise TypeError("cuda.mapped() takes NumPy arrays")
            addr, n = _host_range(ary)
            if n:
                p = _cuda.host_register(addr, n, True)
                if p:
                    done.append(p)
            base = ary.__array_interface__["data"][0]
            ptr = _cuda.host_device_pointer(base) if n else 0
            devs.append(DeviceNDArray(ary.shape, ary.strides, ary.dtype, stream, ptr, ary))
        yield devs[0] if len(devs) == 1 else devs
    finally:
        for p in reversed(done):
            _cuda.host_unregister(p)


def is_cuda_array(obj):
    return hasattr(obj, "__cuda_array_interface__")


def from_dlpack(obj):
    """A DeviceNDArray view (no copy) of the CUDA memory of any DLPack producer (a PyTorch
    tensor, a CuPy or JAX array); the producer's work on its stream is ordered before ours."""
    if isinstance(obj, DeviceNDArray):
        return obj
    return _dlpack.consume(obj, lambda shape, strides, dtype, ptr, owner:
                           DeviceNDArray(shape, strides, dtype, 0, ptr, owner))


def as_cuda_array(obj):
    """A DeviceNDArray view (no copy) of any object with __cuda_array_interface__."""
    if isinstance(obj, DeviceNDArray):
        return obj
    cai = obj.__cuda_array_interface__
    shape = tuple(cai["shape"])
    dtype = _np.dtype(cai["typestr"])
    return DeviceNDArray(shape, cai.get("strides"), dtype, 0, cai["data"][0], obj)


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
