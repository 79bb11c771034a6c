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

import abc as _abc

import numpy as _np

from .errors import UnsupportedError


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
        unaligned = "unaligned " if isinstance(dtype, Record) and not dtype.aligned else ""
        self.name = f"{'readonly ' if readonly else ''}{unaligned}array({dtype}, {ndim}d, {layout})"

    def copy(self, dtype=None, ndim=None, layout=None, readonly=None):
        """This type with some attributes replaced (Numba's Array.copy)."""
        return Array(self.dtype if dtype is None else dtype, self.ndim if ndim is None else ndim,
                     self.layout if layout is None else layout,
                     self.readonly if readonly is None else readonly)

    @property
    def spelling(self):
        if self.ndim == 0 or self.readonly or isinstance(self.dtype, Record):
            return self.name
        dims = [":"] * self.ndim
        if self.layout == "C":
            dims[-1] = "::1"
        elif self.layout == "F":
            dims[0] = "::1"
        return f"{self.dtype.spelling}[{', '.join(dims)}]"


class Record(Type):
    """The item of a NumPy structured dtype (Numba's Record): fields {name: (type, offset)},
    the itemsize and whether NumPy aligned it; named as Numba names it,
    "Record(x[type=float64;offset=0],y[type=int32;offset=8];12;False)"."""

    def __init__(self, fields, size, aligned):
        self.fields = dict(fields)
        self.size = int(size)
        self.aligned = bool(aligned)
        inner = ",".join(f"{n}[type={t};offset={o}]" for n, (t, o) in self.fields.items())
        self.name = f"Record({inner};{self.size};{self.aligned})"

    @property
    def dtype(self):
        return _np.dtype({"names": list(self.fields),
                          "formats": [t.dtype for t, _ in self.fields.values()],
                          "offsets": [o for _, o in self.fields.values()],
                          "itemsize": self.size, "aligned": self.aligned})

    @classmethod
    def from_spelling(cls, s):
        body, size, aligned = s[len("Record("):-1].rsplit(";", 2)
        fields = {}
        for part in body.split("],"):
            name, rest = part.rstrip("]").split("[type=", 1)
            t, off = rest.split(";offset=")
            fields[name] = (_SCALARS[t], int(off))
        return cls(fields, int(size), aligned == "True")


class Signature:
    """A function signature: result type and argument types."""

    def __init__(self, return_type, args):
        self.return_type = return_type
        self.args = tuple(args)

    @property
    def args_spelling(self):
        """"(float64[::1], int64)": the form nj_function_entry takes."""
        return "(" + ", ".join(a.spelling for a in self.args) + ")"

    def __str__(self):   # Numba's: "(array(float64, 1d, A),) -> float64"
        return f"{self.args!r} -> {self.return_type}"

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, Signature) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


class Boolean(Scalar):
    """bool (Numba's types.Boolean)."""


class Number(Scalar):
    """Base of the numeric scalar types (Numba's types.Number)."""


class Integer(Number):
    """int8 ... uint64: ``bitwidth`` and ``signed`` as in Numba."""

    @property
    def bitwidth(self):
        return self.dtype.itemsize * 8

    @property
    def signed(self):
        return self.dtype.kind == "i"


class Float(Number):
    """float32, float64."""

    @property
    def bitwidth(self):
        return self.dtype.itemsize * 8


class Complex(Number):
    """complex64, complex128; ``underlying_float`` is the type of each part."""

    @property
    def bitwidth(self):
        return self.dtype.itemsize * 8

    @property
    def underlying_float(self):
        return float32 if self.dtype.itemsize == 8 else float64


boolean = bool_ = b1 = Boolean("bool", "bool")
int8 = i1 = char = Integer("int8", "int8")
int16 = i2 = short = Integer("int16", "int16")
int32 = i4 = intc = Integer("int32", "int32")
int64 = i8 = intp = int_ = long_ = longlong = ssize_t = Integer("int64", "int64")
uint8 = u1 = byte = uchar = Integer("uint8", "uint8")
uint16 = u2 = ushort = Integer("uint16", "uint16")
uint32 = u4 = uintc = Integer("uint32", "uint32")
uint64 = u8 = uintp = uint = ulong = ulonglong = size_t = Integer("uint64", "uint64")
float32 = f4 = float_ = single = Float("float32", "float32")   # Numba's float_ is float32
float64 = f8 = double = Float("float64", "float64")
complex64 = c8 = csingle = Complex("complex64", "complex64")
complex128 = c16 = cdouble = Complex("complex128", "complex128")
void = none = NoneType()


class BaseTuple(Type):
    """A tuple type: ``types.Tuple([float64, int64])`` or ``types.UniTuple(float64, 2)``."""

    types = ()

    def __len__(self):
        return len(self.types)

    def __iter__(self):
        return iter(self.types)

    def __getitem__(self, i):
        return self.types[i]


class UniTuple(BaseTuple):
    """A tuple of ``count`` items of one type (``UniTuple(float64 x 2)``, as Numba prints it)."""

    def __init__(self, dtype, count):
        if not isinstance(dtype, Type) or not isinstance(count, int) or count < 0:
            raise TypeError("UniTuple(dtype, count) takes a type and a count")
        self.dtype, self.count = dtype, count
        self.types = (dtype,) * count
        self.name = f"UniTuple({dtype} x {count})"

    @property
    def spelling(self):
        return f"UniTuple({self.dtype.spelling}, {self.count})"


class Tuple(BaseTuple):
    """A tuple of the given types; one of equal types is a UniTuple, as in Numba."""

    def __new__(cls, types):
        types = tuple(types)
        if types and all(t == types[0] for t in types):
            return UniTuple(types[0], len(types))
        return super().__new__(cls)

    def __init__(self, types):
        types = tuple(types)
        if not all(isinstance(t, Type) for t in types):
            raise TypeError("Tuple([...]) takes a sequence of types")
        self.types = types
        self.name = f"Tuple({', '.join(str(t) for t in types)})"

    @property
    def spelling(self):
        return f"Tuple({', '.join(t.spelling for t in self.types)})"


class NamedTuple(BaseTuple):
    """A collections.namedtuple type (Numba's NamedTuple and NamedUniTuple): the element types
    of the tuple ``inner`` under a class name and its field names; printed as Numba prints it,
    ``Point(float64 x 2)`` or ``results(float64, int64)``."""

    def __init__(self, cls_name, fields, inner):
        if not isinstance(inner, BaseTuple) or len(fields) != len(inner):
            raise TypeError("NamedTuple(name, fields, tuple type) takes as many fields as types")
        self.cls_name, self.fields, self.inner = cls_name, tuple(fields), inner
        self.types = inner.types
        body = f"{self.types[0]} x {len(self.types)}" if isinstance(inner, UniTuple) and \
            self.types else ", ".join(str(t) for t in self.types)
        self.name = f"{cls_name}({body})"

    @property
    def spelling(self):
        return f"NamedTuple({self.cls_name}, ({', '.join(self.fields)}), {self.inner.spelling})"


class List(Type):
    """A list of items of one type, as Numba's types.List: reflected for a list that came
    from Python (changes made by compiled code are written back to it)."""

    def __init__(self, dtype, reflected=False, initial_value=None):
        if not isinstance(dtype, Type):
            raise TypeError("List(dtype) takes a numjit type")
        self.dtype = dtype
        self.reflected = bool(reflected)
        self.name = f"{'reflected ' if self.reflected else ''}list({dtype})<iv=None>"

    @property
    def spelling(self):
        return f"{'reflected ' if self.reflected else ''}list({self.dtype.spelling})"


class Set(Type):
    """A set of numbers, as Numba's types.Set: reflected for a set that came from Python
    (changes made by compiled code are written back to it)."""

    def __init__(self, dtype, reflected=False):
        if not isinstance(dtype, Type):
            raise TypeError("Set(dtype) takes a numjit type")
        self.dtype = dtype
        self.reflected = bool(reflected)
        self.name = f"{'reflected ' if self.reflected else ''}set({dtype})"

    @property
    def spelling(self):
        return self.name


class CPointer(Type):
    """Numba's CPointer(dtype): a C pointer, in the signatures of C callbacks (numjit.cfunc).
    Compiled code sees it as a one-dimensional array starting at the address: index it
    (``p[0] = x``) or view it with numba.carray(p, shape)."""

    def __init__(self, dtype, addrspace=None):
        if not isinstance(dtype, Scalar) or isinstance(dtype, Complex):
            raise UnsupportedError(f"numjit has C pointers to numbers only, not to {dtype}")
        self.dtype = dtype
        self.name = f"{dtype}*"

    @property
    def spelling(self):     # what the library reads (codegen/cfunc.c)
        return f"{self.dtype.spelling}[::1]"


class VoidPointer(CPointer):
    """Numba's voidptr: a pointer to bytes (uint8) for compiled code."""

    def __init__(self):
        self.dtype = uint8
        self.name = "void*"


voidptr = VoidPointer()


def _from_numpy_dtype(dt):
    """The scalar type of a NumPy dtype (numba.from_dtype)."""
    dt = _np.dtype(dt)
    for t in _SCALARS.values():
        if t.dtype == dt:
            return t
    if dt.fields is not None and all(f[0].fields is None and f[0].byteorder != ">" and
                                     f[0] in [t.dtype for t in _SCALARS.values()]
                                     for f in dt.fields.values()):
        return Record({n: (_from_numpy_dtype(f[0]), f[1]) for n, f in dt.fields.items()},
                      dt.itemsize, dt.isalignedstruct)
    raise UnsupportedError(f"numjit has no type for the NumPy dtype {dt}: it supports bool, "
                           "int8 ... uint64, float32, float64, complex64 and complex128")


def _as_numpy_dtype(t):
    """The NumPy dtype of a scalar type (numba.np.numpy_support.as_dtype)."""
    if isinstance(t, (Scalar, Record)):
        return t.dtype
    raise UnsupportedError(f"{t} cannot be represented as a NumPy dtype")


_SCALARS = {t.name: t for t in (boolean, int8, int16, int32, int64, uint8, uint16, uint32,
                                uint64, float32, float64, complex64, complex128)}

__all__ = ["Type", "Scalar", "Boolean", "Number", "Integer", "Float", "Complex", "Array",
           "Signature", "NoneType", "BaseTuple", "Tuple", "UniTuple", "List", "Set", "Record", "char", "short",
           "long_",
           "longlong", "ssize_t", "uchar", "ushort", "uint", "ulong", "ulonglong", "size_t",
           "single", "boolean", "bool_", "b1",
           "int8", "i1", "int16", "i2", "int32", "i4", "intc", "int64", "i8", "intp", "int_",
           "uint8", "u1", "byte", "uint16", "u2", "uint32", "u4", "uintc", "uint64", "u8",
           "uintp", "float32", "f4", "float64", "f8", "float_", "double", "complex64", "c8",
           "csingle", "complex128", "c16", "cdouble", "void", "none",
           "WrapperAddressProtocol"]


class WrapperAddressProtocol(_abc.ABC):
    """Numba's protocol of first-class functions given by a C address: a subclass defines
    ``__wrapper_address__()`` (the address) and ``signature()``.  Libraries make such objects
    at import (numba-stats wraps scipy.special's Cython functions this way), so the class is
    here as in Numba; compiled code calls the function through its address (lib/address.c)."""

    @_abc.abstractmethod
    def __wrapper_address__(self):
        """The address of the function, an int."""

    @_abc.abstractmethod
    def signature(self):
        """The function's Signature."""


def from_spelling(s):
    """The Type of a spelling made by the extension: "int64", "float64[:, ::1]",
    "array(float64, 0d, C)"."""
    s = s.strip()
    if s in _SCALARS:
        return _SCALARS[s]
    if s == "none":
        return none
    if s.startswith("Literal[") and "](" in s and s.endswith(")"):  # the value as its repr
        import ast
        return literal(ast.literal_eval(s[s.index("](") + 2:-1]))
    if s.startswith("readonly "):
        return from_spelling(s[9:]).copy(readonly=True)
    if s.startswith(("list(", "reflected list(")) and s.endswith(")"):
        return List(from_spelling(s[s.index("(") + 1:-1]), s.startswith("reflected "))
    if s.startswith(("set(", "reflected set(")) and s.endswith(")"):
        return Set(from_spelling(s[s.index("(") + 1:-1]), s.startswith("reflected "))
    if s == "unicode_type":
        return __getattr__(s)
    if s.startswith(("UniTuple(", "Tuple(")) and s.endswith(")"):
        items = _split_top(s[s.index("(") + 1:-1])
        if s.startswith("UniTuple("):
            if len(items) == 1 and " x " in items[0]:    # Numba's "UniTuple(float64 x 2)"
                items = items[0].rsplit(" x ", 1)
            return UniTuple(from_spelling(items[0]), int(items[1]))
        return Tuple([from_spelling(p) for p in items])
    if s.startswith("NamedTuple(") and s.endswith(")"):      # the package's argument spelling
        name, fields, inner = _split_top(s[11:-1])
        return NamedTuple(name.strip(), [f.strip() for f in fields.strip()[1:-1].split(",")
                                         if f.strip()], from_spelling(inner))
    if s.startswith("unaligned array(Record("):
        return from_spelling(s[len("unaligned "):])
    if s.startswith("Record(") and s.endswith(")"):
        return Record.from_spelling(s)
    if s.startswith("array(") and s.endswith(")"):
        dt, nd, layout = (p.strip() for p in s[6:-1].rsplit(",", 2))
        return Array(from_spelling(dt) if dt.startswith("Record(") else _SCALARS[dt],
                     int(nd.rstrip("d")), layout)
    if "[" in s and s.endswith("]"):
        base, dims = s[:-1].split("[", 1)
        parts = [p.strip() for p in dims.split(",")]
        slices = tuple(slice(None, None, 1) if p == "::1" else slice(None) for p in parts)
        return _SCALARS[base.strip()][slices if len(slices) > 1 else slices[0]]
    raise ValueError(f"not a numjit type: {s!r}")


def _split_top(text):
    """"a, b[:, :], Tuple(c, d)" -> the items separated by top-level commas."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


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


# ---- the rest of numba.core.types: importable, refused where used ---------------------------
# Programs import names such as unicode_type, ListType or Literal at the top of a module even
# where they use them in one corner; numjit has no such types, so the names exist (numba.types
# answers them through __getattr__) and using one raises UnsupportedError naming it.
# Literal types (above) reach typing functions only, for constants.

integer_domain = frozenset([int8, int16, int32, int64, uint8, uint16, uint32, uint64])
signed_domain = frozenset([int8, int16, int32, int64])
unsigned_domain = frozenset([uint8, uint16, uint32, uint64])
real_domain = frozenset([float32, float64])
complex_domain = frozenset([complex64, complex128])
number_domain = real_domain | integer_domain | complex_domain


class Literal(Type):
    """Numba's Literal: the type of a constant whose value the typing functions of @overload
    may read (``literal_value``); named as Numba names it, ``Literal[int](3)``.  numjit's
    typer gives these to typing functions only (numjit/extending.py), where a call's argument
    is a constant, numba.literally() of one, or a parameter specialized for one."""

    def __init__(self, value):
        self.literal_value = value
        self.name = f"Literal[{type(value).__name__}]({value})"

    @property
    def literal_type(self):
        return unliteral(self)


class IntegerLiteral(Literal, Integer):
    """Literal[int](n): an int64 of known value."""

    def __init__(self, value):
        Literal.__init__(self, value)
        self.dtype = _np.dtype("int64")


class BooleanLiteral(Literal, Boolean):
    """Literal[bool](b)."""

    def __init__(self, value):
        Literal.__init__(self, value)
        self.dtype = _np.dtype("bool")


class StringLiteral(Literal):
    """Literal[str](s): a unicode_type of known value."""


def literal(value):
    """Numba's types.literal: the literal type of a Python value."""
    if isinstance(value, bool):
        return BooleanLiteral(value)
    if isinstance(value, int):
        return IntegerLiteral(value)
    if isinstance(value, str):
        return StringLiteral(value)
    from .errors import LiteralTypingError
    raise LiteralTypingError(f"{type(value)} cannot be used as a literal")


def maybe_literal(value):
    """Numba's types.maybe_literal: literal(value), or None where value has none."""
    try:
        return literal(value)
    except Exception:
        return None


def unliteral(t):
    """Numba's unliteral: the type a literal type stands for (int64, bool, unicode_type);
    any other type itself."""
    if isinstance(t, IntegerLiteral):
        return int64
    if isinstance(t, BooleanLiteral):
        return boolean
    if isinstance(t, StringLiteral):
        return __getattr__("unicode_type")
    return t


def _refuse(name):
    raise UnsupportedError(f"numjit has no type numba.types.{name}; its types are bool, the "
                           "integer, float and complex scalars, arrays of them, and tuples "
                           "(docs/python.md)")


class ClassType(Type):
    """Numba's type of a jitclass (``Cls.class_type``): "jitclass.NAME#ID<member:type,...>",
    with the class's members (``struct``), methods, properties and static methods, and the
    type of its instances (``instance_type``, what ``numba.typeof(obj)`` gives)."""

    def __init__(self, cls, struct, jit_methods, jit_props, jit_static_methods):
        self.class_name, self.class_doc = cls.__name__, cls.__doc__
        self.struct = dict(struct)
        self.jit_methods, self.jit_props = dict(jit_methods), dict(jit_props)
        self.jit_static_methods = dict(jit_static_methods)
        fields = ",".join(f"{k}:{v}" for k, v in self.struct.items())
        self.name = f"jitclass.{self.class_name}#{id(self):x}<{fields}>"
        self._instance = ClassInstanceType(self)

    @property
    def instance_type(self):
        return self._instance

    @property
    def methods(self):
        return dict(self.jit_methods)

    @property
    def static_methods(self):
        return dict(self.jit_static_methods)


class ClassInstanceType(Type):
    """Numba's type of a jitclass instance: "instance.jitclass.NAME#ID<...>"."""

    def __init__(self, class_type):
        self.class_type = class_type
        self.name = f"instance.{class_type.name}"

    classname = property(lambda self: self.class_type.class_name)
    struct = property(lambda self: self.class_type.struct)
    jit_methods = property(lambda self: self.class_type.jit_methods)
    jit_props = property(lambda self: self.class_type.jit_props)
    jit_static_methods = property(lambda self: self.class_type.jit_static_methods)
    methods = property(lambda self: self.class_type.methods)
    static_methods = property(lambda self: self.class_type.static_methods)


class DeferredType(Type):
    """Numba's deferred_type(): a type named now and defined later (``define``), as a
    recursive jitclass spec names its own instance type before the class exists."""

    def __init__(self):
        self._define = None
        self.name = f"DeferredType#{id(self)}"

    def define(self, typ):
        if self._define is not None:
            raise TypeError("deferred type already defined")
        if not isinstance(typ, Type):
            raise TypeError(f"arg is not a Type; got: {type(typ)}")
        self._define = typ

    def get(self):
        if self._define is None:
            raise RuntimeError(f"deferred type not defined: {self}")
        return self._define


def deferred_type():
    """Numba's numba.deferred_type()."""
    return DeferredType()


class _Absent(Type):
    """A Numba type name numjit does not have: using it raises UnsupportedError."""

    def __init__(self, name):
        self.name = name

    @property
    def spelling(self):
        _refuse(self.name)

    def __call__(self, *args):
        _refuse(self.name)

    def __getitem__(self, key):
        _refuse(self.name)


class _AbsentClass(Type):
    """Base of Numba type classes numjit does not have: making one raises."""

    def __new__(cls, *args, **kwargs):
        _refuse(cls.__name__)


_ABSENT_CLASSES = (
    "ArrayCompatible Buffer ByteArray Bytes Callable CharSeq "
    "Container DType DictType Dispatcher Dummy EnumClass EnumMember "
    "ExternalFunction ExternalFunctionPointer Function FunctionType Generator IntEnumClass "
    "IntEnumMember Iterable IterableType IteratorType List "
    "ListType LiteralList LiteralStrKeyDict MemInfoPointer MemoryView Module "
    "NPDatetime NPTimedelta NamedTuple NamedUniTuple NestedArray NumberClass Object Omitted "
    "Opaque Optional PyObject RangeType RawPointer Sequence SliceLiteral SliceType "
    "StarArgTuple StarArgUniTuple StructRef TypeRef UnicodeCharSeq UnicodeType "
    "UnionType VarArg").split()
_ABSENT_INSTANCES = (
    "unicode_type string pyobject ffi ffi_forced_object float16 f2 Any undefined "
    "unknown ellipsis slice2_type slice3_type pyfunc_type code_type range_iter32_type "
    "range_iter64_type range_state32_type range_state64_type unsigned_range_iter64_type "
    "unsigned_range_state64_type npy_rng npy_bitgen").split()
_ABSENT_FUNCTIONS = "optional".split()
_absent = {}


def __getattr__(name):
    """numba.types.X for the names of Numba's type module that numjit lacks (see above)."""
    if name in _absent:
        return _absent[name]
    if name in _ABSENT_CLASSES:
        made = type(name, (_AbsentClass,), {"__module__": __name__})
    elif name in _ABSENT_INSTANCES:
        made = _Absent(name)
    elif name in _ABSENT_FUNCTIONS:
        def made(*args, _name=name, **kwargs):
            _refuse(_name)
        made.__name__ = name
    else:
        raise AttributeError(f"module 'numba.types' (numjit) has no attribute {name!r}")
    _absent[name] = made
    return made
