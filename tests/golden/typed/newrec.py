# sig: make(float64)
# a jitclass instance made in compiled code (lib/instance.c): newrec, owned, a counted record
import numba
DT = "Record(x[type=float64;offset=0],_nj_P_1[type=uint8;offset=8];16;True)"


def make(x):
    r = numba._nj_new_instance(DT)
    r.x = x
    return r
