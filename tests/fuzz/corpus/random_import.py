from numba import cuda
from numba.cuda.random import xoroshiro128p_uniform_float32 as u, create_xoroshiro128p_states

@cuda.jit
def k(s, o):
    i = cuda.grid(1)
    o[i] = u(s, i) + 0xFFFFFFFFFFFFFFFF
