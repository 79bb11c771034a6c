# expect error: 9:12: np.fft is not supported: Numba 0.56 has no np.fft functions
# np.fft.fft: Numba 0.56 has no np.fft at all, in nopython mode.
from numba import njit
import numpy as np


@njit
def spectrum(a):
    return np.fft.fft(a)


if __name__ == "__main__":
    print(spectrum(np.zeros(8)))
