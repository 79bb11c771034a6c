"""Declared signatures (docs/python.md, "Guarantees"): a dispatcher made with signatures
compiles them when decorated and nothing more; other argument types convert to the best
declared signature by Numba 0.56's rules, or are refused with its TypeError; the declared
return type converts the result.  tests/lang/declared_signatures.py compares the same with
Numba's printed output; here the rule table itself is checked against Numba's."""
import numpy as np
import pytest

import numjit
from numjit import _numjit

NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float32", "float64", "complex64", "complex128"]


def spec(name, ndim=-1, layout="C", readonly=False):
    return (name, ndim, layout, readonly)


def test_scalar_conversions_are_numbas(numba056):
    from numba.core import types
    from numba.core.registry import cpu_target
    ctx = cpu_target.typing_context
    numba_types = {n: getattr(types, "boolean" if n == "bool" else n) for n in NAMES}
    for a in NAMES:
        for b in NAMES:
            want = ctx.can_convert(numba_types[a], numba_types[b])
            got = _numjit._can_convert(spec(a), spec(b))
            assert got == (int(want) if want is not None else 0), (a, b)


def test_array_conversions_are_numbas(numba056):
    from numba.core import types
    from numba.core.registry import cpu_target
    ctx = cpu_target.typing_context
    cases = [("float64", 1, "C", False), ("float64", 1, "A", False), ("float64", 2, "F", False),
             ("float64", 2, "A", True), ("int64", 1, "C", False), ("float64", 1, "C", True),
             ("float64", 2, "C", False)]
    for a in cases:
        for b in cases:
            ta = types.Array(getattr(types, a[0]), a[1], a[2], readonly=a[3])
            tb = types.Array(getattr(types, b[0]), b[1], b[2], readonly=b[3])
            want = ctx.can_convert(ta, tb)
            assert _numjit._can_convert(a, b) == (int(want) if want is not None else 0), (a, b)
    assert _numjit._can_convert(spec("float64"), spec("float64", 1)) == 0


def test_eager_compile_fills_signatures():
    @numjit.njit(["int64(int64)", "float64[:](float64[:])"])
    def f(x):
        return x

    assert [tuple(str(t) for t in s) for s in f.signatures] == \
        [("int64",), ("array(float64, 1d, A)",)]
    f(np.int32(3))  # converted to int64: no new specialization
    f(np.arange(3.0))  # a C array goes to the 'A' one
    assert len(f.signatures) == 2


def test_lazy_dispatcher_still_compiles_each_type():
    @numjit.njit
    def g(x):
        return x * 3

    assert g(1.0) == 3.0
    assert g(np.float32(0.1)) == 0.30000000447034836  # float32 * int64 is float64, as Numba
    assert len(g.signatures) == 2


def test_argument_conversions():
    @numjit.njit("float64(float64)")
    def ident(x):
        return x

    @numjit.njit("int32(int32)")
    def plus(x):
        return x + 0.7

    assert ident(2**62) == 4.611686018427388e+18
    assert plus(2.7) == 2 and plus(-2.7) == -1
    with pytest.raises(OverflowError):
        plus(2**63)
    with pytest.raises(ValueError):
        plus(float("nan"))


def test_refusals():
    @numjit.njit("float64(float64[:])")
    def total(a):
        return a.sum()

    with pytest.raises(TypeError, match=r"No matching definition for argument type\(s\) "
                                        r"array\(int64, 1d, C\)"):
        total(np.arange(3))
    with pytest.raises(TypeError, match="No matching definition"):
        total("abc")

    @numjit.njit(["int32(int32)", "int64(int64)"])
    def tie(x):
        return x

    with pytest.raises(TypeError, match=r"Ambiguous overloading for .* \(int16,\):\n"
                                        r"\(int32,\) -> int32\n\(int64,\) -> int64"):
        tie(np.int16(3))


def test_declared_return_type():
    @numjit.njit("int8(float64)")
    def narrow(x):
        return x * 100.0

    @numjit.njit("complex128(int64)")
    def widen(x):
        return x

    assert narrow(1.5) == -106
    assert widen(3) == 3 + 0j and isinstance(widen(3), complex)
    with pytest.raises(numjit.errors.TypingError, match="No conversion from complex128"):
        @numjit.njit("float64(complex128)")
        def real(z):
            return z
