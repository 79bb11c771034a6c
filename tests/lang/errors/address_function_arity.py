# expect error: 24:12: the C function of signature float64(float64) takes 1 argument (2 given)
# A C function given by address (WrapperAddressProtocol) takes the arguments its signature
# declares: Numba refuses another number at typing.
from numba import njit
from numba.extending import get_cython_function_address
from numba.types import WrapperAddressProtocol, float64

ADDR = get_cython_function_address("scipy.special.cython_special", "ndtri")


class Ndtri(WrapperAddressProtocol):
    def __wrapper_address__(self):
        return ADDR

    def signature(self):
        return float64(float64)


ndtri = Ndtri()


@njit
def twice(p):
    return ndtri(p, p)


if __name__ == "__main__":
    print(twice(0.5))
