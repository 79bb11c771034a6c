"""numjit.types — the type objects of numjit's signatures, spelled as Numba spells them.

``float64``, ``int32``, ``boolean``, ... are scalar types; indexing one gives an array type
(``float32[:]`` any layout, ``float32[::1]`` C-contiguous, ``float32[:, ::1]`` C,
``float32[::1, :]`` Fortran); calling a type with types gives a Signature
(``float64(float32[:], int64)``) for eager compilation with ``@njit(sig)``.  Calling a scalar
type with a value converts it, as NumPy does (``float32(1.5)`` is ``numpy.float32(1.5)``), so
pure-Python runs of a function (``f.py_func``) behave like the compiled code.

``str()`` of a type is Numba's (``array(float32, 1d, C)``); ``.spelling`` is the signature
syntax the library parses (``float32[::1]``).
"""

import numpy as _np


class Type:
    """Base of all numjit types."""

    name = "?"

    @property
    def spelling(self):
        return self.name

    def __str__(self):
        return self.name

    def __repr__(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, Type) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def __call__(self, *args):
        if all(isinstance(a, Type) for a in args):
            return Signature(self, args)
        raise TypeError(f"cannot call type {self}")


class Scalar(Type):
    """A scalar type: bool, int8 ... uint64, float32, float64, complex64, complex128."""

    def __init__(self, name, npname):
        self.name = name
        self.dtype = _np.dtype(npname)

    def __call__(self, *args):
        if args and all(isinstance(a, Type) for a in args):
            return Signature(self, args)
        if len(args) == 1:
            return self.dtype.type(args[0])
        raise TypeError(f"{self.name}() takes one value or a list of argument types")

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        steps = []
        for k in key:
            if not isinstance(k, slice) or k.start is not None or k.stop is not None or \
                    k.step not in (None, 1):
                raise TypeError(f"array type index must be ':' or '::1', not {k!r}")
            steps.append(k.step)
        nd = len(steps)
        if steps[-1] == 1 and all(s is None for s in steps[:-1]):
            layout = "C"
        elif nd > 1 and steps[0] == 1 and all(s is None for s in steps[1:]):
            layout = "F"
        elif all(s is None for s in steps):
            layout = "A"
        else:
            raise TypeError("only one dimension may be '::1', the first or the last")
        return Array(self, nd, layout)


class NoneType(Type):
    """The result type of a function that returns nothing (Numba's void / none)."""

    name = "none"


class Array(Type):
    """An array type: element type, number of dimensions, layout 'C', 'F' or 'A'; readonly
    for an array that must not be written (a non-writeable NumPy array, a bytes buffer)."""

    def __init__(self, dtype, ndim, layout, readonly=False):
        if layout not in ("C", "F", "A"):
            raise ValueError("layout must be 'C', 'F' or 'A'")
        self.dtype = dtype
        self.ndim = ndim
        self.layout = layout
        self.readonly = bool(readonly)
        self.name = f"{'readonly ' if readonly else ''}array({dtype}, {ndim}d, {layout})"

    def copy(self, dtype=None, ndim=None, layout=None, readonly=None):
        """This type with some attributes replaced (Numba's Array.copy)."""
        return Array(self.dtype if dtype is None else dtype, self.ndim if ndim is None else ndim,
                     self.layout if layout is None else layout,
                     self.readonly if readonly is None else readonly)

    @property
    def spelling(self):
        if self.ndim == 0 or self.readonly:
            return self.name
        dims = [":"] * self.ndim
        if self.layout == "C":
            dims[-1] = "::1"
        elif self.layout == "F":
            dims[0] = "::1"
        return f"{self.dtype.spelling}[{', '.join(dims)}]"


class Signature:
    """A function signature: result type and argument types."""

    def __init__(self, return_type, args):
        self.return_type = return_type
        self.args = tuple(args)

    @property
    def args_spelling(self):
        """"(float64[::1], int64)": the form nj_function_entry takes."""
        return "(" + ", ".join(a.spelling for a in self.args) + ")"

    def __str__(self):
        return f"({', '.join(str(a) for a in self.args)}) -> {self.return_type}"

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, Signature) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


boolean = bool_ = b1 = Scalar("bool", "bool")
int8 = i1 = Scalar("int8", "int8")
int16 = i2 = Scalar("int16", "int16")
int32 = i4 = intc = Scalar("int32", "int32")
int64 = i8 = intp = int_ = Scalar("int64", "int64")
uint8 = u1 = byte = Scalar("uint8", "uint8")
uint16 = u2 = Scalar("uint16", "uint16")
uint32 = u4 = uintc = Scalar("uint32", "uint32")
uint64 = u8 = uintp = Scalar("uint64", "uint64")
float32 = f4 = Scalar("float32", "float32")
float64 = f8 = float_ = double = Scalar("float64", "float64")
complex64 = c8 = csingle = Scalar("complex64", "complex64")
complex128 = c16 = cdouble = Scalar("complex128", "complex128")
void = none = NoneType()

_SCALARS = {t.name: t for t in (boolean, int8, int16, int32, int64, uint8, uint16, uint32,
                                uint64, float32, float64, complex64, complex128)}

__all__ = ["Type", "Scalar", "Array", "Signature", "NoneType", "boolean", "bool_", "b1",
           "int8", "i1", "int16", "i2", "int32", "i4", "intc", "int64", "i8", "intp", "int_",
           "uint8", "u1", "byte", "uint16", "u2", "uint32", "u4", "uintc", "uint64", "u8",
           "uintp", "float32", "f4", "float64", "f8", "float_", "double", "complex64", "c8",
           "csingle", "complex128", "c16", "cdouble", "void", "none"]


def from_spelling(s):
    """The Type of a spelling made by the extension: "int64", "float64[:, ::1]",
    "array(float64, 0d, C)"."""
    s = s.strip()
    if s in _SCALARS:
        return _SCALARS[s]
    if s.startswith("readonly "):
        return from_spelling(s[9:]).copy(readonly=True)
    if s.startswith("array(") and s.endswith(")"):
        dt, nd, layout = (p.strip() for p in s[6:-1].split(","))
        return Array(_SCALARS[dt], int(nd.rstrip("d")), layout)
    if "[" in s and s.endswith("]"):
        base, dims = s[:-1].split("[", 1)
        parts = [p.strip() for p in dims.split(",")]
        slices = tuple(slice(None, None, 1) if p == "::1" else slice(None) for p in parts)
        return _SCALARS[base.strip()][slices if len(slices) > 1 else slices[0]]
    raise ValueError(f"not a numjit type: {s!r}")


def signature_args(sig):
    """The argument part "(...)" of a signature given as a Signature, a string
    ("float64(float64[:], int64)", "(float64[:], int64)") or a tuple of types."""
    if isinstance(sig, Signature):
        return sig.args_spelling
    if isinstance(sig, tuple) and all(isinstance(a, Type) for a in sig):
        return "(" + ", ".join(a.spelling for a in sig) + ")"
    if isinstance(sig, str):
        s = sig.strip()
        if not s.endswith(")"):
            raise TypeError(f"not a signature: {sig!r}")
        depth = 0
        for i in range(len(s) - 1, -1, -1):
            if s[i] == ")":
                depth += 1
            elif s[i] == "(":
                depth -= 1
                if depth == 0:
                    return s[i:]
        raise TypeError(f"unbalanced parentheses in signature {sig!r}")
    raise TypeError(f"not a signature: {sig!r}")
