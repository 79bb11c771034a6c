# A "()" argument declared as a 1-d array, followed by arguments with core dimensions of
# their own ("(),(n),(m)->(m)", as properscoring's threshold Brier score): NumPy passes
# strides for core dimensions only, so the scalar argument takes none, and the later
# arguments' core sizes and strides are theirs (numjit read them one slot off: wrong sizes,
# writes past the output).  Strided, reversed and broadcast operands, and a call large
# enough for the outer loop to be split.
import numpy as np
from numba import guvectorize


@guvectorize(["void(float64[:], float64[:], float64[:], float64[:])"],
             "(),(n),(m)->(m)", nopython=True)
def brier_like(observation, forecasts, thresholds, result):
    obs = observation[0]
    last = forecasts[len(forecasts) - 1]
    for i in range(len(thresholds)):
        result[i] = obs * 100 + last + thresholds[i]


@guvectorize(["void(float64[:], float64[:], float64[:], float64[:], float64[:])"],
             "(n),(),(),(m)->()", nopython=True)
def mixed(a, s, t, b, out):
    out[0] = a.sum() * s[0] - t[0] * b.sum()


if __name__ == "__main__":
    obs = np.arange(3.0)
    fc = np.arange(12.0).reshape(3, 4)
    th = np.arange(5.0) / 10
    r = brier_like(obs, fc, th)
    print(r.dtype, r.shape)
    print(r)
    out = np.zeros((3, 5))
    brier_like(obs, fc[:, ::2], th[::-1], out)
    print(out)
    print(brier_like(obs[:, None], fc, th.reshape(1, 1, 5)).shape)
    big_obs = np.linspace(-1.0, 1.0, 1000)
    big_fc = np.sin(np.arange(1000 * 50.0)).reshape(1000, 50)
    big = brier_like(big_obs, big_fc, np.linspace(-2.0, 2.0, 10))
    print(big.shape, round(float(big.sum()), 6), big[999, 9], big[0, 0])
    m = mixed(fc, obs, np.ones(3) * 2, fc[:, :2])
    print(m.dtype, m.shape, m)
