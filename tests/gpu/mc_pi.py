"""A numba-cuda program with numba.cuda.random: Monte Carlo estimates of pi, on the GPU (one
xoroshiro128+ generator per thread) and in @njit code, and normal draws.  Loaded by
tests/gpu/test_gpu_random.py (kernels, against the host and numba-cuda) and
tests/python/test_cuda_random.py (the @njit functions and the kernel's PTX)."""
from numba import cuda, njit
from numba.cuda.random import create_xoroshiro128p_states  # noqa: F401 (used by the tests)
from numba.cuda.random import xoroshiro128p_uniform_float32
from numba.cuda.random import xoroshiro128p_normal_float32
from numba.cuda.random import xoroshiro128p_normal_float64 as normal


@cuda.jit
def compute_pi(rng_states, iterations, out):
    thread_id = cuda.grid(1)
    inside = 0
    for i in range(iterations):
        x = xoroshiro128p_uniform_float32(rng_states, thread_id)
        y = xoroshiro128p_uniform_float32(rng_states, thread_id)
        if x ** 2 + y ** 2 <= 1.0:
            inside += 1
    out[thread_id] = 4.0 * inside / iterations


@cuda.jit
def normals_kernel(rng_states, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = xoroshiro128p_normal_float32(rng_states, i)


@njit
def pi_cpu(rng_states, gen, iterations):
    inside = 0
    for i in range(iterations):
        x = xoroshiro128p_uniform_float32(rng_states, gen)
        y = xoroshiro128p_uniform_float32(rng_states, gen)
        if x ** 2 + y ** 2 <= 1.0:
            inside += 1
    return 4.0 * inside / iterations


@njit
def normals(rng_states, n, out):
    for i in range(n):
        out[i] = normal(rng_states, 0)


def uniform_float32(a, b):
    return a * b   # a user function that shares no name with the library
