"""DLPack for numjit's device arrays: ``DeviceNDArray.__dlpack__``/``__dlpack_device__`` (so
``torch.from_dlpack(d)``, ``cupy.from_dlpack(d)`` and ``jax.dlpack.from_dlpack(d)`` see the
array's memory without a copy) and ``numjit.cuda.from_dlpack(x)`` (a DeviceNDArray over any
producer's CUDA memory: a PyTorch tensor, a CuPy or JAX array).

The exchange is DLPack's C ABI, spelled here with ctypes: a ``DLManagedTensor`` (the
data pointer, the device, the dtype as (code, bits, lanes), shape and strides counted in
elements) in a PyCapsule named "dltensor".  The consumer renames the capsule "used_dltensor"
and calls the tensor's deleter when it is done; a capsule nobody consumed calls the deleter
itself when it is collected.  Until the deleter runs, the producer's array is kept alive by a
table of exported tensors (the deleter drops its entry), so its memory cannot be freed under
the consumer.

Streams follow the Python array API: ``__dlpack__(stream=S)`` makes the consumer's stream S
wait (an event, no host synchronization) for the work queued so far on the array's stream;
S = None or -1 asks for no synchronization.  ``from_dlpack`` passes the legacy default
stream (1), on which numjit launches when no stream is given.
"""
import ctypes as _ct
import threading as _threading

import numpy as _np

KDL_CPU, KDL_CUDA, KDL_CUDA_HOST, KDL_CUDA_MANAGED = 1, 2, 3, 13
_INT, _UINT, _FLOAT, _COMPLEX, _BOOL = 0, 1, 2, 5, 6


class _DLDevice(_ct.Structure):
    _fields_ = [("device_type", _ct.c_int32), ("device_id", _ct.c_int32)]


class _DLDataType(_ct.Structure):
    _fields_ = [("code", _ct.c_uint8), ("bits", _ct.c_uint8), ("lanes", _ct.c_uint16)]


class _DLTensor(_ct.Structure):
    _fields_ = [("data", _ct.c_void_p), ("device", _DLDevice), ("ndim", _ct.c_int32),
                ("dtype", _DLDataType), ("shape", _ct.POINTER(_ct.c_int64)),
                ("strides", _ct.POINTER(_ct.c_int64)), ("byte_offset", _ct.c_uint64)]


class _DLManagedTensor(_ct.Structure):
    pass


_DELETER = _ct.CFUNCTYPE(None, _ct.POINTER(_DLManagedTensor))
_DLManagedTensor._fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", _ct.c_void_p),
                             ("deleter", _DELETER)]

# the destructor gets the capsule while it is being freed: as a bare address, never as a
# Python object (a reference to a dying object would free it a second time)
_CAPSULE_DESTRUCTOR = _ct.CFUNCTYPE(None, _ct.c_void_p)
_api = _ct.pythonapi
_api.PyCapsule_New.restype = _ct.py_object
_api.PyCapsule_New.argtypes = [_ct.c_void_p, _ct.c_char_p, _CAPSULE_DESTRUCTOR]
_api.PyCapsule_IsValid.restype = _ct.c_int
_api.PyCapsule_IsValid.argtypes = [_ct.py_object, _ct.c_char_p]
_api.PyCapsule_GetPointer.restype = _ct.c_void_p
_api.PyCapsule_GetPointer.argtypes = [_ct.py_object, _ct.c_char_p]
_api.PyCapsule_SetName.restype = _ct.c_int
_api.PyCapsule_SetName.argtypes = [_ct.py_object, _ct.c_char_p]
_raw_is_valid = _ct.PYFUNCTYPE(_ct.c_int, _ct.c_void_p, _ct.c_char_p)(
    ("PyCapsule_IsValid", _api))
_raw_get_pointer = _ct.PYFUNCTYPE(_ct.c_void_p, _ct.c_void_p, _ct.c_char_p)(
    ("PyCapsule_GetPointer", _api))

_lock = _threading.Lock()
_exported = {}  # address of a DLManagedTensor -> (the struct, its arrays, the producer)


@_DELETER
def _deleter(mt):
    with _lock:
        _exported.pop(_ct.addressof(mt.contents), None)


@_CAPSULE_DESTRUCTOR
def _capsule_destructor(capsule):
    # unconsumed: still named "dltensor", so the tensor is still ours to release
    if _raw_is_valid(capsule, b"dltensor"):
        p = _raw_get_pointer(capsule, b"dltensor")
        with _lock:
            _exported.pop(p, None)


def _dl_dtype(dtype):
    dtype = _np.dtype(dtype)
    code = {"i": _INT, "u": _UINT, "f": _FLOAT, "c": _COMPLEX, "b": _BOOL}.get(dtype.kind)
    if code is None or not dtype.isnative:
        raise BufferError(f"DLPack cannot describe the dtype {dtype}")
    return _DLDataType(code, dtype.itemsize * 8, 1)


def _np_dtype(dt):
    if dt.lanes != 1:
        raise BufferError("from_dlpack: vector dtypes (lanes > 1) are not supported")
    kind = {_INT: "i", _UINT: "u", _FLOAT: "f", _COMPLEX: "c", _BOOL: "b"}.get(dt.code)
    if kind is None or dt.bits % 8:
        raise BufferError(f"from_dlpack: DLPack dtype code {dt.code} with {dt.bits} bits "
                          "has no NumPy dtype")
    return _np.dtype("?" if kind == "b" else f"{kind}{dt.bits // 8}")


def export(arr, device_id, stream=None, wait=None):
    """The "dltensor" capsule over device array ``arr`` (shape, strides in bytes, dtype,
    device_pointer). ``wait(stream)``, when given and stream is not None/-1, makes the
    consumer's stream wait for the array's work."""
    if stream is not None and stream != -1 and wait is not None:
        wait(int(stream))
    itemsize = arr.dtype.itemsize
    n = len(arr.shape)
    if any(s % itemsize for s in arr.strides):
        raise BufferError("DLPack counts strides in elements: this array's strides are not "
                          "multiples of its item size")
    shape = (_ct.c_int64 * max(n, 1))(*arr.shape)
    strides = (_ct.c_int64 * max(n, 1))(*(s // itemsize for s in arr.strides))
    mt = _DLManagedTensor()
    mt.dl_tensor = _DLTensor(arr.device_pointer, _DLDevice(KDL_CUDA, device_id), n,
                             _dl_dtype(arr.dtype), shape, strides, 0)
    mt.manager_ctx = None
    mt.deleter = _deleter
    with _lock:
        _exported[_ct.addressof(mt)] = (mt, shape, strides, arr)
    return _api.PyCapsule_New(_ct.addressof(mt), b"dltensor", _capsule_destructor)


class _Imported:
    """Owns a consumed DLManagedTensor: its deleter runs when the last view goes."""

    def __init__(self, capsule, mt):
        self._mt = mt
        self._capsule = capsule  # keeps the producer's capsule object alive too

    def __del__(self):
        mt = self._mt
        if mt and mt.contents.deleter:
            mt.contents.deleter(mt)
        self._mt = None


def consume(obj, make_array, stream=1):
    """make_array(shape, strides_in_bytes, dtype, pointer, owner) over the CUDA memory of
    producer ``obj`` (an object with __dlpack__), without a copy."""
    if not hasattr(obj, "__dlpack__"):
        raise TypeError(f"from_dlpack: {type(obj).__name__} has no __dlpack__ method")
    if hasattr(obj, "__dlpack_device__"):
        kind, _ = obj.__dlpack_device__()
        if int(kind) not in (KDL_CUDA, KDL_CUDA_MANAGED):
            raise BufferError(f"from_dlpack: the array is on DLPack device type {int(kind)}, "
                              "not a CUDA device (copy it to the GPU first)")
    capsule = obj.__dlpack__(stream=stream)
    if not _api.PyCapsule_IsValid(capsule, b"dltensor"):
        raise BufferError("from_dlpack: the producer did not give a 'dltensor' capsule")
    p = _api.PyCapsule_GetPointer(capsule, b"dltensor")
    mt = _ct.cast(p, _ct.POINTER(_DLManagedTensor))
    t = mt.contents.dl_tensor
    if t.device.device_type not in (KDL_CUDA, KDL_CUDA_MANAGED):
        raise BufferError(f"from_dlpack: DLPack device type {t.device.device_type} is not CUDA")
    dtype = _np_dtype(t.dtype)
    shape = tuple(t.shape[i] for i in range(t.ndim))
    if t.strides:
        strides = tuple(t.strides[i] * dtype.itemsize for i in range(t.ndim))
    else:  # NULL strides: C order
        strides, acc = [], dtype.itemsize
        for n in reversed(shape):
            strides.insert(0, acc)
            acc *= n
        strides = tuple(strides)
    _api.PyCapsule_SetName(capsule, b"used_dltensor")  # ours now: the deleter is our duty
    owner = _Imported(capsule, mt)
    return make_array(shape, strides, dtype, (t.data or 0) + t.byte_offset, owner)
