"""numjit.cuda's device arrays: DeviceNDArray (``to_device``, ``device_array``,
``device_array_like``), page-locked and mapped host arrays (``pinned_array``,
``mapped_array``, ``pinned``, ``mapped``), and arrays of other libraries taken as device arrays
(``__cuda_array_interface__``, DLPack).  numjit.cuda re-exports every public name here.
"""

import contextlib as _contextlib

import numpy as _np

from . import _cuda, dlpack as _dlpack, errors as _errors
from .cuda_device import Stream, _handle, _require, is_available, stream, synchronize


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


