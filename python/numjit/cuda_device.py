"""numjit.cuda's devices, contexts, streams and events (Numba's ``numba.cuda`` API for them),
over the device functions of the _cuda extension.  numjit.cuda re-exports every public name
here; numjit.cuda_arrays builds device arrays on it.
"""

import collections as _collections
import contextlib as _contextlib

from . import _cuda
from .errors import UnsupportedError, CudaError


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


