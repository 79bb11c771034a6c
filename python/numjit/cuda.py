"""numjit.cuda — placeholder for Numba's ``numba.cuda`` (kernels on NVIDIA GPUs).

``from numba import cuda`` works under the drop-in trick, ``cuda.is_available()`` is False,
and everything that would compile or touch a device raises UnsupportedError (a
NotImplementedError) until the CUDA target lands.  Nothing here pretends to run on a GPU.
"""

from .errors import UnsupportedError


def is_available():
    """False: this build of numjit has no CUDA support yet."""
    return False


def detect():
    """Prints nothing and reports no device (numba.cuda.detect's return value)."""
    return False


def _unsupported(name):
    def f(*args, **kwargs):
        raise UnsupportedError(f"numjit.cuda.{name} is not implemented in this build of numjit yet")
    f.__name__ = name
    return f


jit = _unsupported("jit")
to_device = _unsupported("to_device")
device_array = _unsupported("device_array")
device_array_like = _unsupported("device_array_like")
pinned_array = _unsupported("pinned_array")
synchronize = _unsupported("synchronize")
stream = _unsupported("stream")
select_device = _unsupported("select_device")
get_current_device = _unsupported("get_current_device")
grid = _unsupported("grid")
gridsize = _unsupported("gridsize")
syncthreads = _unsupported("syncthreads")
