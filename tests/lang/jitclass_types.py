# Numba's types of a jitclass: Cls.class_type (ClassType), its instance_type
# (ClassInstanceType), numba.typeof(instance), and deferred_type().define(...).
import numba
from numba import njit, float64, int64, deferred_type
from numba.experimental import jitclass


@jitclass([('x', float64), ('n', int64)])
class A:
    def __init__(self, x):
        self.x = x
        self.n = 1

    def get(self):
        return self.x

    @property
    def twice(self):
        return 2 * self.x


@njit
def same(p):
    return p


@njit
def made(x):
    return A(x)


a = A(2.0)
t = numba.typeof(a)
print(type(t).__name__, t is A.class_type.instance_type, t == A.class_type.instance_type)
print(type(A.class_type).__name__, A.class_type.class_name, t.classname)
print(str(t).startswith("instance.jitclass.A#"), str(t).endswith("<x:float64,n:int64>"))
print(str(A.class_type).startswith("jitclass.A#"))
print(sorted(t.struct), sorted(t.jit_methods), sorted(t.jit_props))
print([str(v) for v in t.struct.values()])
print(a._numba_type_ is t, numba.typeof(same(a)) is t, numba.typeof(made(1.0)) is t)
d = deferred_type()
print(type(d).__name__)
d.define(A.class_type.instance_type)
print(d.get() is t)
