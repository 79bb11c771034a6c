# cuda_random.py — numba.cuda.random in numjit's own language: the xoroshiro128+ generator
# (Blackman and Vigna), seeded through SplitMix64, with the same sequence of numbers as Numba's
# module for the same seed, so a Monte Carlo kernel gives the same result under both.
#
# The compiler adds these functions to a module that imports from numba.cuda.random (or
# numjit.cuda.random): an imported public name, e.g. xoroshiro128p_uniform_float32, becomes
# the function _nj_random_xoroshiro128p_uniform_float32 below, compiled as a device function in
# kernels and as a plain function in @njit code.  The names carry a prefix so that a user's
# own functions of the same names are never confused with them.
#
# The states: Numba keeps one record (s0, s1) of two uint64 per generator; numjit's
# create_xoroshiro128p_states makes a C-contiguous uint64 array of shape (n, 2) instead,
# states[i, 0] = s0 and states[i, 1] = s1 (shape[0] is still n).  The casts are the ones the
# typing rules need: uint64 op int64 would be float64, as in Numba.
import math
from numba import uint64, uint32, int64, float32, float64

_NJ_TWO_PI_F32 = 6.2831854820251465
_NJ_TWO_PI_F64 = 6.283185307179586


def _nj_random_init_xoroshiro128p_state(states, index, seed):
    """SplitMix64 of seed, the state of generator index."""
    index = int64(index)
    z = uint64(seed) + uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> uint32(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint32(27))) * uint64(0x94D049BB133111EB)
    z = z ^ (z >> uint32(31))
    states[index, 0] = z
    states[index, 1] = z


def _nj_random_rotl(x, k):
    """x rotated left by k bits (0 < k < 64)."""
    x = uint64(x)
    k = uint32(k)
    return (x << k) | (x >> uint32(uint32(64) - k))


def _nj_random_xoroshiro128p_next(states, index):
    """The next uint64 of generator index, which advances one step."""
    index = int64(index)
    s0 = states[index, 0]
    s1 = states[index, 1]
    result = s0 + s1
    s1 ^= s0
    states[index, 0] = _nj_random_rotl(s0, uint32(55)) ^ s1 ^ (s1 << uint32(14))
    states[index, 1] = _nj_random_rotl(s1, uint32(36))
    return result


def _nj_random_xoroshiro128p_jump(states, index):
    """Advances generator index by 2**64 steps."""
    index = int64(index)
    s0 = uint64(0)
    s1 = uint64(0)
    for i in range(2):
        word = uint64(0xBEAC0467EBA5FACB) if i == 0 else uint64(0xD86B048B86AA9922)
        for b in range(64):
            if word & (uint64(1) << uint32(b)):
                s0 ^= states[index, 0]
                s1 ^= states[index, 1]
            _nj_random_xoroshiro128p_next(states, index)
    states[index, 0] = s0
    states[index, 1] = s1


def _nj_random_uint64_to_unit_float64(x):
    """x as a float64 in [0, 1): its top 53 bits."""
    x = uint64(x)
    return float64(x >> uint32(11)) * (float64(1.0) / float64(uint64(1) << uint32(53)))


def _nj_random_uint64_to_unit_float32(x):
    """x as a float32 in [0, 1) (through float64, as Numba)."""
    return float32(_nj_random_uint64_to_unit_float64(x))


def _nj_random_xoroshiro128p_uniform_float32(states, index):
    """A float32 uniform in [0, 1); advances generator index."""
    return _nj_random_uint64_to_unit_float32(_nj_random_xoroshiro128p_next(states, index))


def _nj_random_xoroshiro128p_uniform_float64(states, index):
    """A float64 uniform in [0, 1); advances generator index."""
    return _nj_random_uint64_to_unit_float64(_nj_random_xoroshiro128p_next(states, index))


def _nj_random_xoroshiro128p_normal_float32(states, index):
    """A float32 from N(0, 1) by Box-Muller (two steps of generator index)."""
    u1 = _nj_random_xoroshiro128p_uniform_float32(states, index)
    u2 = _nj_random_xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(-float32(2.0) * math.log(u1)) * math.cos(float32(_NJ_TWO_PI_F32) * u2)


def _nj_random_xoroshiro128p_normal_float64(states, index):
    """A float64 from N(0, 1) by Box-Muller.  Like Numba's, it draws its two uniforms as
    float32."""
    u1 = _nj_random_xoroshiro128p_uniform_float32(states, index)
    u2 = _nj_random_xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(-float64(2.0) * math.log(u1)) * math.cos(float64(_NJ_TWO_PI_F64) * u2)


def _nj_random_init_xoroshiro128p_states_cpu(states, seed, subsequence_start):
    """Every generator of states: the first from seed, moved on by subsequence_start jumps;
    each next one the previous one jumped by 2**64 steps."""
    n = states.shape[0]
    if n >= 1:
        _nj_random_init_xoroshiro128p_state(states, 0, seed)
        for _ in range(subsequence_start):
            _nj_random_xoroshiro128p_jump(states, 0)
        for i in range(1, n):
            states[i, 0] = states[i - 1, 0]
            states[i, 1] = states[i - 1, 1]
            _nj_random_xoroshiro128p_jump(states, i)
