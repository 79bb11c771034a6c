"""numjit.cuda.random — numba.cuda.random: xoroshiro128+ generators for kernels.

    from numba import cuda
    from numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32

    @cuda.jit
    def compute_pi(rng_states, iterations, out):
        i = cuda.grid(1)
        inside = 0
        for _ in range(iterations):
            x = xoroshiro128p_uniform_float32(rng_states, i)
            y = xoroshiro128p_uniform_float32(rng_states, i)
            if x * x + y * y <= 1.0:
                inside += 1
        out[i] = 4.0 * inside / iterations

    states = create_xoroshiro128p_states(threads * blocks, seed=1)
    compute_pi[blocks, threads](states, 10000, out)

The generator functions are written in numjit's own language (stdlib/cuda_random.py in the
sources); the compiler adds them to any module that imports them, so they compile into the
kernel (or into an @njit function) like the module's own functions.  The numbers are Numba's,
bit for bit, for the same seed.

One difference: Numba keeps a generator's state as a record of two uint64 (`s0`, `s1`);
numjit's states are a uint64 array of shape (n, 2) with the same bytes (`states.shape[0]` is
still the number of generators).  A record array of Numba's `xoroshiro128p_dtype` viewed as
uint64 (`a.view(np.uint64).reshape(-1, 2)`) is such an array.
"""
import threading as _threading

import numpy as _np

from . import _numjit

__all__ = ["create_xoroshiro128p_states", "init_xoroshiro128p_states",
           "init_xoroshiro128p_states_cpu", "init_xoroshiro128p_state", "xoroshiro128p_next",
           "xoroshiro128p_jump", "xoroshiro128p_uniform_float32",
           "xoroshiro128p_uniform_float64", "xoroshiro128p_normal_float32",
           "xoroshiro128p_normal_float64", "uint64_to_unit_float32", "uint64_to_unit_float64",
           "xoroshiro128p_dtype"]

# the dtype of one generator's state in numjit: a row of two uint64 (see the module's text)
xoroshiro128p_dtype = _np.dtype(_np.uint64)

# name → number of parameters of the library functions callable from Python
_LIB = {"init_xoroshiro128p_states_cpu": 3, "init_xoroshiro128p_state": 3,
        "xoroshiro128p_next": 2, "xoroshiro128p_jump": 2,
        "xoroshiro128p_uniform_float32": 2, "xoroshiro128p_uniform_float64": 2,
        "xoroshiro128p_normal_float32": 2, "xoroshiro128p_normal_float64": 2,
        "uint64_to_unit_float32": 1, "uint64_to_unit_float64": 1}
_lock = _threading.Lock()
_host = {}


def _host_function(name):
    """The library function `name`, compiled for the CPU on first use (a module whose only
    line imports the library's functions)."""
    with _lock:
        if not _host:
            from .dispatcher import Dispatcher
            text = "from numjit.cuda.random import %s\n" % ", ".join(sorted(_LIB))
            mod = _numjit.compile_source("<numjit>/cuda_random_host.py", text)
            for fname, nparams in _LIB.items():
                params = ", ".join("a%d" % k for k in range(nparams))
                ns = {}
                exec("def %s(%s): pass" % (fname, params), ns)
                d = Dispatcher(ns[fname])
                d._bind(mod, fname, nparams, False)
                _host[fname] = d
        return _host[name]


def _states_array(states):
    if not (isinstance(states, _np.ndarray) and states.dtype == _np.uint64 and states.ndim == 2
            and states.shape[1] == 2):
        raise TypeError("numjit: generator states are a uint64 array of shape (n, 2), not %r"
                        % (getattr(states, "dtype", type(states)),))
    return states


def init_xoroshiro128p_states_cpu(states, seed, subsequence_start=0):
    """Fills the host array states (uint64, shape (n, 2)): generator 0 from seed (SplitMix64),
    moved on by subsequence_start jumps of 2**64 steps; each next one a jump further."""
    _host_function("init_xoroshiro128p_states_cpu")(_states_array(states), int(seed),
                                                    int(subsequence_start))


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Initializes the device array states for parallel generators (on the host, then
    copied), each 2**64 steps apart in the one sequence, as Numba does."""
    host = _np.empty(tuple(states.shape), dtype=_np.uint64)
    init_xoroshiro128p_states_cpu(host, seed, subsequence_start)
    states.copy_to_device(host, stream=stream)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A new device array of n generator states (uint64, shape (n, 2)), initialized."""
    from . import cuda
    states = cuda.device_array((int(n), 2), dtype=_np.uint64, stream=stream)
    init_xoroshiro128p_states(states, seed, subsequence_start, stream)
    return states


def _wrap(name, doc):
    def f(*args):
        return _host_function(name)(*args)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


init_xoroshiro128p_state = _wrap("init_xoroshiro128p_state",
                                 "Sets states[index] from seed by SplitMix64.")
xoroshiro128p_next = _wrap("xoroshiro128p_next",
                           "The next uint64 of generator index (advances it one step).")
xoroshiro128p_jump = _wrap("xoroshiro128p_jump", "Advances generator index by 2**64 steps.")
xoroshiro128p_uniform_float32 = _wrap("xoroshiro128p_uniform_float32",
                                      "A float32 uniform in [0, 1) from generator index.")
xoroshiro128p_uniform_float64 = _wrap("xoroshiro128p_uniform_float64",
                                      "A float64 uniform in [0, 1) from generator index.")
xoroshiro128p_normal_float32 = _wrap("xoroshiro128p_normal_float32",
                                     "A float32 from N(0, 1) (Box-Muller, two steps).")
xoroshiro128p_normal_float64 = _wrap("xoroshiro128p_normal_float64",
                                     "A float64 from N(0, 1) (Box-Muller, two steps).")
uint64_to_unit_float32 = _wrap("uint64_to_unit_float32", "x as a float32 in [0, 1).")
uint64_to_unit_float64 = _wrap("uint64_to_unit_float64", "x as a float64 in [0, 1).")
