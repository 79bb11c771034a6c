"""proggen.py — random well-typed @njit programs for the differential fuzzer (progfuzz.py).

A program is one @njit function and the arguments of one call.  The generator keeps a tree
(Func → statements → expressions) so that the minimizer can drop statements and replace an
expression by a same-typed part of it, and it prints the tree as Python source.  Every value
carries its Numba type, found by Numba 0.56's promotion rules: scalar binary operations look
up numba_types.json (what Numba infers for every pair of the twelve scalar types, recorded by
`progfuzz.py --record-types`); the rest (casts, comparisons, math functions, array reads) is
written out below.  A wrong guess costs nothing but a program Numba refuses (discarded).

What is generated: parameters of every scalar type (bool, int8..uint64, float32/64,
complex128), 1-3-d arrays of nine dtypes passed as views (steps, negative strides,
transposes) and views made in the body; integer corner values (0, ±1, min, max of each width);
arithmetic, floor division, modulo, powers, bitwise operations and shifts, comparisons, casts,
abs/min/max and math functions over mixed types; tuples (built, indexed by constants and loop
variables, unpacked, a.shape[i]); indices of several integer types; explicit signatures;
whole-array expressions (NumPy's dtypes);
if/else; for loops over range() with extreme bounds and steps, and over array axes;
element reads and writes, reductions, copies; both error models; boundscheck=True.

What is not generated, because Numba 0.56 leaves it undefined or platform-dependent (the
fuzzer compares only what both define; docs/guarantees.md lists these):
  - float → integer conversion (int(x), np.int32(x), a float stored into an int array): LLVM's
    fptosi/fptoui give poison out of range, so Numba's result is arbitrary there;
  - shift counts outside 0..63 (LLVM's shl/ashr/lshr give poison); counts are constants;
  - an integer power that overflows (Numba's int_power multiplies with `mul nsw`: poison on
    overflow): an integer base is taken % 8, the exponent is at most 22 (7**22 < 2**63);
  - an index out of bounds without boundscheck=True (reads arbitrary memory);
  - range(start, stop, step) where stop - start overflows int64 (Numba computes the trip count
    from the wrapped difference); extreme starts, stops and steps are generated otherwise;
  - floating-point sums whose value depends on the order of additions (numjit's reductions
    may vectorize): float arrays hold small multiples of 1/4, which add exactly in any order;
  - math library results beyond the last bits (compared with a relative tolerance of 1e-6).

KNOWN: what numjit gets wrong today, left out unless Gen(known=True) (`progfuzz.py --known`)
so that runs find new disagreements instead of these again:
  - a range() whose last step overflows int64 (start + trips * step outside int64): the loop
    never ends (issue 14, "range(a, b, step) where i + step overflows int64").
Not generated at all: an integer power made only of constants (`(1 % 8) ** -2`): CPython folds
it with Python's rules (1.0, a float) before Numba sees the bytecode, while numjit types it as
Numba types int ** int (an int); the base is wrapped in np.int64(...) so that nothing folds.
Not generated either: range() with a literal 0 step, which numjit refuses when compiling (a
located error) where Numba raises ValueError when the loop starts; a zero step held in a
variable is generated, and both raise ValueError.
"""

import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

SCALARS = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64", "complex128"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
ARRAY_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint64", "float32",
                "float64"]
BITS = {"int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16,
        "uint32": 32, "uint64": 64}


def kind(t):
    """'b', 'i', 'u', 'f', 'c' of a scalar type; None for anything else."""
    if not isinstance(t, str):
        return None
    return {"b": "b", "i": "i", "u": "u", "f": "f", "c": "c"}[t[0]]


def _load_table():
    path = os.path.join(HERE, "numba_types.json")
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        return {}


TABLE = _load_table()


def binop_type(op, a, b):
    """Numba's result type of scalar a OP b, or None when Numba refuses it."""
    fam = {"+": "add", "-": "add", "*": "add", "/": "div", "//": "fdiv", "%": "fdiv",
           "&": "and", "|": "and", "^": "and", "**": "pow"}[op]
    t = TABLE.get(f"{fam} {a} {b}")
    return None if t in (None, "ERR") else t


# ---- the tree ---------------------------------------------------------------------------
class E:
    """An expression: fmt with {0}, {1}... for the children, and its type."""

    def __init__(self, fmt, kids, ty):
        self.fmt, self.kids, self.ty = fmt, list(kids), ty

    def text(self):
        return self.fmt.format(*[k.text() for k in self.kids])

    def nodes(self):
        yield self
        for k in self.kids:
            yield from k.nodes()


class S:
    """A statement: head is a line with {0}.. for exprs; body/orelse are statement lists."""

    def __init__(self, head, exprs=(), body=None, orelse=None):
        self.head, self.exprs = head, list(exprs)
        self.body, self.orelse = body, orelse

    def lines(self, ind):
        out = [" " * ind + self.head.format(*[e.text() for e in self.exprs])]
        if self.body is not None:
            out += _block(self.body, ind + 4)
        if self.orelse is not None:
            out.append(" " * ind + "else:")
            out += _block(self.orelse, ind + 4)
        return out


def _block(stmts, ind):
    lines = [ln for s in stmts for ln in s.lines(ind)]
    return lines or [" " * ind + "pass"]


class Func:
    def __init__(self, name, params, args, body, ret, deco):
        self.name, self.params, self.args = name, params, args
        self.body, self.ret, self.deco = body, ret, deco

    def source(self):
        lines = [self.deco, f"def {self.name}({', '.join(self.params)}):"]
        lines += _block(self.body, 4)
        lines.append("    return " + self.ret)
        return "\n".join(lines) + "\n"

    def call(self):
        """A Python expression building the arguments (a tuple)."""
        return "(" + "".join(a + ", " for a in self.args) + ")"


# ---- values -----------------------------------------------------------------------------
def int_corners(t):
    n = BITS[t]
    if t[0] == "u":
        return [0, 1, 2, (1 << n) - 1, (1 << n) - 2, 1 << (n - 1)]
    lo, hi = -(1 << (n - 1)), (1 << (n - 1)) - 1
    return [0, 1, -1, 2, lo, hi, lo + 1, hi - 1]


def int_literal(t, v):
    if t == "int64":
        return "(-9223372036854775807 - 1)" if v == -(1 << 63) else f"({v})"
    return f"np.{t}({v})"


FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.25, -3.75, 1e300, -1e300, 1e-300, 7.0, 1e10]


def float_literal(r, t):
    c = r.random()
    if c < 0.06:
        v = "math.inf" if r.random() < 0.5 else "-math.inf"
    elif c < 0.1:
        v = "math.nan"
    else:
        v = repr(r.choice(FLOATS) if r.random() < 0.6 else r.randint(-40, 40) / 4)
    return v if t == "float64" else f"np.float32({v})"


def scalar_literal(r, t):
    """Source text of a constant of Numba type t (Python literals are int64/float64/bool)."""
    if t == "bool":
        return r.choice(["True", "False"])
    if t in BITS:
        v = r.choice(int_corners(t)) if r.random() < 0.7 else r.randint(-100, 100)
        if t[0] == "u":
            v %= 1 << BITS[t]
        else:
            n = BITS[t]
            v = (v + (1 << (n - 1))) % (1 << n) - (1 << (n - 1))
        return int_literal(t, v)
    if t in ("float32", "float64"):
        return float_literal(r, t)
    re, im = r.randint(-8, 8) / 2, r.randint(-8, 8) / 2
    return f"complex({re!r}, {im!r})"


class Arr:
    """An array value of the generator: dtype, shape (known), its Numba type's ndim."""

    def __init__(self, dtype, shape):
        self.dtype, self.shape = dtype, tuple(shape)

    @property
    def ndim(self):
        return len(self.shape)


def array_values(r, dtype, n):
    if dtype == "bool":
        return [r.random() < 0.5 for _ in range(n)]
    if dtype in BITS:
        c = int_corners(dtype)
        vals = [r.choice(c) if r.random() < 0.5 else r.randint(0, 50) for _ in range(n)]
        return [v % (1 << BITS[dtype]) if dtype[0] == "u" else v for v in vals]
    return [r.randint(-64, 64) / 4 for _ in range(n)]


def view_of(r, base, shape):
    """A view expression over the array expression base of the given shape → (text, shape)."""
    nd = len(shape)
    c = r.random()
    if c < 0.25 and nd >= 2:
        return base + ".T", tuple(reversed(shape))
    if c < 0.7:
        parts, out = [], []
        for d in shape:
            step = r.choice([1, 1, 2, -1, -2, 3])
            if step > 0:
                start = r.randint(0, max(d - 1, 0)) if r.random() < 0.4 else 0
                parts.append(f"{start}::{step}" if start else f"::{step}")
                out.append(len(range(start, d, step)))
            else:
                parts.append(f"::{step}")
                out.append(len(range(d - 1, -1, step)))
        return f"{base}[{', '.join(parts)}]", tuple(out)
    return base, tuple(shape)


def array_arg(r, dtype):
    nd = r.choice([1, 1, 2, 2, 3])
    shape = [r.randint(1, 4) for _ in range(nd)]
    if r.random() < 0.03:
        shape[0] = 0
    n = 1
    for d in shape:
        n *= d
    vals = array_values(r, dtype, n)
    text = f"np.array({vals!r}, dtype=np.{dtype if dtype != 'bool' else 'bool_'})"
    text += f".reshape({tuple(shape)!r})" if nd > 1 else ""
    return view_of(r, text, shape)


# ---- the generator ----------------------------------------------------------------------
def sig_name(t):
    """A parameter's type in a signature string: arrays any layout ("int8[:, :]")."""
    if isinstance(t, Arr):
        return ("boolean" if t.dtype == "bool" else t.dtype) + "[" + ", ".join(
            [":"] * t.ndim) + "]"
    return "boolean" if t == "bool" else t


def cast_type(fn, t):
    """Type of a cast np.X(e) / float(e) / bool(e) of a t, or None when excluded."""
    k = kind(t)
    if fn in BITS:
        return fn if k in "biu" else None  # never float → int (undefined out of range)
    if fn in ("float32", "float64"):
        return fn if k in "biuf" else None
    if fn == "float":
        return "float64" if k in "biuf" else None
    if fn == "bool":
        return "bool" if k in "biuf" else None
    return None


class Gen:
    """known: also generate what numjit is known to get wrong (KNOWN below); max_stmts: of
    the function's body (nested blocks have up to two)."""

    def __init__(self, seed, known=False, max_stmts=6):
        self.r = random.Random(seed)
        self.seed = seed
        self.known = known
        self.max_stmts = max_stmts

    # expressions
    def leaf(self, scope, want=None):
        r = self.r
        cands = [(n, t) for n, t in scope if isinstance(t, str) and (want is None or
                                                                       kind(t) in want)]
        arrs = [(n, a) for n, a in scope if isinstance(a, Arr) and 0 not in a.shape and
                (want is None or kind(a.dtype) in want)]
        c = r.random()
        if arrs and c < 0.25:
            n, a = r.choice(arrs)
            idx = ", ".join(self.index_text(d) for d in a.shape)
            return E(f"{n}[{idx}]", [], a.dtype)
        if cands and c < 0.7:
            n, t = r.choice(cands)
            return E(n, [], t)
        pool = [t for t in SCALARS if want is None or kind(t) in want]
        t = r.choice(pool)
        return E(scalar_literal(r, t), [], t)

    def index_text(self, d):
        """An index in bounds of an axis of length d (> 0), sometimes of another int type."""
        r = self.r
        k = r.randint(-d, d - 1)
        c = r.random()
        if c < 0.15 and k >= 0:
            return f"np.uint64({k})"
        if c < 0.25:
            return f"np.int8({k})"
        if c < 0.3 and k >= 0:
            return f"np.uint8({k})"
        return str(k)

    def expr(self, scope, depth, want=None):
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return self.leaf(scope, want)
        for _ in range(6):
            e = self._compound(scope, depth - 1, want)
            if e is not None and (want is None or kind(e.ty) in want):
                return e
        return self.leaf(scope, want)

    def _compound(self, scope, d, want):
        r = self.r
        c = r.random()
        if c < 0.45:
            op = r.choice(["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "+", "-", "*"])
            a, b = self.expr(scope, d), self.expr(scope, d)
            if op == "**":
                if kind(a.ty) in "biu":  # no overflow: Numba's int_power multiplies with nsw
                    a = E("({0} % 8)", [a], binop_type("%", a.ty, "int64"))
                    if a.ty == "int64":  # a call CPython cannot fold: `1 ** -2` made of
                        a = E("np.int64({0})", [a], "int64")  # constants is 1.0 before Numba
                b = E(r.choice(["0", "1", "2", "3", "5", "22", "-1", "-2", "0.5", "np.int8(2)",
                                "np.uint8(3)", "np.float32(2.0)"]), [], None)
                b.ty = {"0.5": "float64", "np.int8(2)": "int8", "np.uint8(3)": "uint8",
                        "np.float32(2.0)": "float32"}.get(b.fmt, "int64")
            t = binop_type(op, a.ty, b.ty)
            return E("({0} " + op + " {1})", [a, b], t) if t else None
        if c < 0.55:
            op = r.choice(["<", "<=", "==", "!=", ">", ">="])
            a, b = self.expr(scope, d, "biuf"), self.expr(scope, d, "biuf")
            return E("({0} " + op + " {1})", [a, b], "bool")
        if c < 0.62:
            a = self.expr(scope, d, "iu")
            k = r.randint(0, 63)
            if r.random() < 0.5:
                return E("(np.int64({0}) " + r.choice(["<<", ">>"]) + f" {k})", [a], "int64")
            return E("(np.uint64({0}) " + r.choice(["<<", ">>"]) + f" np.uint64({k}))", [a],
                     "uint64")
        if c < 0.72:
            fn = r.choice(INTS + ["float32", "float64", "float", "bool"])
            a = self.expr(scope, d)
            t = cast_type(fn, a.ty)
            if t is None:
                return None
            return E((f"np.{fn}" if fn in BITS or fn.startswith("float") and fn != "float"
                      else fn) + "({0})", [a], t)
        if c < 0.8:
            a = self.expr(scope, d, "biufc")
            k = kind(a.ty)
            if k == "c":
                return E("abs({0})", [a], "float64")
            if k == "b":
                return E("(-{0})", [a], "int64") if r.random() < 0.5 else E("(not {0})", [a],
                                                                              "bool")
            if r.random() < 0.5:
                return E("abs({0})", [a], a.ty)
            if k == "f":
                return E("(-{0})", [a], a.ty)
            return E("(~{0})", [a], a.ty)
        if c < 0.88:
            fn = r.choice(["sqrt", "exp", "sin", "atan", "fabs", "log1p", "tanh", "isnan",
                           "isinf", "copysign", "hypot", "atan2"])
            a = self.expr(scope, d, "f")
            if fn in ("isnan", "isinf"):
                return E(f"math.{fn}" + "({0})", [a], "bool")
            if fn in ("copysign", "hypot", "atan2"):
                b = self.expr(scope, d, "f")
                return E(f"math.{fn}" + "({0}, {1})", [a, b], "float64")
            return E(f"math.{fn}" + "({0})", [a], "float64")
        if c < 0.94:
            fn = r.choice(["min", "max"])
            a = self.expr(scope, d, "iuf")
            b = self.expr(scope, d, "iuf")
            t = a.ty if a.ty == b.ty else binop_type("+", a.ty, b.ty)
            if t == "int64" and "uint64" in (a.ty, b.ty):
                t = "float64"  # Numba unifies int64 and uint64 as float64
            if t is None:
                return None
            return E(fn + "({0}, {1})", [a, b], t)
        cond = self.expr(scope, d, "b")
        a = self.expr(scope, d, want)
        b = self.expr(scope, d, want)
        if a.ty != b.ty:
            return None
        return E("({1} if {0} else {2})", [cond, a, b], a.ty)

    # statements
    def fresh(self, prefix="v"):
        self.nvar += 1
        return f"{prefix}{self.nvar}"

    def add_array(self, scope, name, a):
        scope.append((name, a))
        for d in range(a.ndim):
            scope.append((f"{name}.shape[{d}]", "int64"))
        scope.append((f"{name}.size", "int64"))

    def stmt(self, scope, depth):
        r = self.r
        c = r.random()
        arrs = [(n, a) for n, a in scope if isinstance(a, Arr)]
        if c < 0.3 or depth <= 0:
            e = self.expr(scope, 3)
            if e.ty is None:
                return None
            v = self.fresh()
            scope.append((v, e.ty))
            return S(v + " = {0}", [e])
        if c < 0.42:
            return self.if_stmt(scope, depth)
        if c < 0.54:
            return self.range_loop(scope, depth)
        if c < 0.64 and arrs:
            return self.array_loop(scope, depth, arrs)
        if c < 0.72 and arrs:
            return self.array_write(scope, arrs)
        if c < 0.8 and arrs:
            return self.array_value(scope, arrs)
        if c < 0.88:
            es = [self.expr(scope, 2) for _ in range(r.randint(1, 3))]
            if any(e.ty is None for e in es):
                return None
            t = self.fresh("t")
            if r.random() < 0.4 and len(es) > 1:
                names = [self.fresh() for _ in es]
                for n, e in zip(names, es):
                    scope.append((n, e.ty))
                return S(", ".join(names) + " = (" + ", ".join("{%d}" % i for i in
                                                              range(len(es))) + ",)", es)
            for i, e in enumerate(es):
                scope.append((f"{t}[{i}]", e.ty))
            build = S(t + " = (" + ", ".join("{%d}" % i for i in range(len(es))) + ",)", es)
            k = kind(es[0].ty)
            if len({e.ty for e in es}) == 1 and k in "biuf" and r.random() < 0.5:
                acc, i = self.fresh("acc"), self.fresh("i")
                cast = "np.float64" if k == "f" else "np.int64"
                scope.append((acc, "float64" if k == "f" else "int64"))
                return S("if True:", [], [build, S(f"{acc} = 0"), S(
                    f"for {i} in range(len({t})):", [], [
                        S(f"{acc} = {acc} * 3 + {cast}({t}[{i}])")])])
            return build
        return self.while_loop(scope, depth)

    def if_stmt(self, scope, depth):
        cond = self.expr(scope, 2, "b")
        inner = list(scope)
        body = [s for s in (self.stmt(inner, depth - 1) for _ in range(self.r.randint(0, 2)))
                if s]
        a = self.expr(scope, 2, "biuf")
        b = self.expr(scope, 2, "biuf")
        if a.ty is None or b.ty is None:
            return None
        if a.ty != b.ty:
            a = E("np.float64({0})", [a], "float64")
            b = E("np.float64({0})", [b], "float64")
        v = self.fresh()
        body.append(S(v + " = {0}", [a]))
        scope.append((v, a.ty))
        return S("if {0}:", [cond], body, [S(v + " = {0}", [b])])

    def acc_update(self, scope, acc, t):
        e = self.expr(scope, 2, "biu" if t == "int64" else "biuf")
        op = self.r.choice(["+", "-", "^", "*"] if t == "int64" else ["+", "-", "*"])
        cast = "np.int64" if t == "int64" else "np.float64"
        return S(f"{acc} = {acc} {op} {cast}" + "({0})", [e])

    def range_args(self):
        r = self.r
        lo, hi = -(1 << 63), (1 << 63) - 1
        for _ in range(20):
            start = r.choice(int_corners("int64") + [0, 5, -5, r.randint(-100, 100)])
            step = r.choice([1, 1, 2, 3, -1, -2, -7, 1 << 62, -(1 << 62), hi, -hi, 1 << 40])
            k = r.randint(0, 4)
            stop = start + k * step + r.choice([0, 0, 1, -1])
            stop = max(lo, min(hi, stop))
            n = len(range(start, stop, step))
            if abs(stop - start) < (1 << 63) and (self.known or lo <= start + n * step <= hi):
                break
        else:
            start, stop, step = 0, 3, 1
        lit = lambda v: int_literal("int64", v)
        if r.random() < 0.05:  # a zero step in a variable (a literal 0 is refused: KNOWN)
            return f"{lit(start)}, {lit(stop)}, zero"
        if step == 1 and r.random() < 0.5:
            return f"{lit(start)}, {lit(stop)}"
        return f"{lit(start)}, {lit(stop)}, {lit(step)}"

    def range_loop(self, scope, depth):
        t = self.r.choice(["int64", "float64"])
        acc, i = self.fresh("acc"), self.fresh("i")
        init = S(f"{acc} = " + ("0" if t == "int64" else "0.0"))
        inner = list(scope) + [(i, "int64"), (acc, t)]
        body = [self.acc_update(inner, acc, t)]
        if self.r.random() < 0.3:
            body.append(S(f"if {i} == {int_literal('int64', 1 << 62)}:", [], [S("break")]))
        args = self.range_args()
        loop = S(f"for {i} in range({args}):", [], body)
        scope.append((acc, t))
        if args.endswith("zero"):
            return S("if True:", [], [S("zero = 0"), init, loop])
        return S("if True:", [], [init, loop])

    def while_loop(self, scope, depth):
        j = self.fresh("j")
        n = self.r.randint(0, 5)
        inner = list(scope) + [(j, "int64")]
        body = [s for s in (self.stmt(inner, depth - 1) for _ in range(self.r.randint(0, 2)))
                if s]
        body.append(S(f"{j} += 1"))
        return S("if True:", [], [S(f"{j} = 0"), S(f"while {j} < {n}:", [], body)])

    def array_loop(self, scope, depth, arrs):
        n, a = self.r.choice(arrs)
        d = self.r.randrange(a.ndim)
        i = self.fresh("i")
        idx = [i if k == d else str(self.r.randint(-dim, dim - 1)) if dim else "0"
               for k, dim in enumerate(a.shape)]
        if any(dim == 0 for k, dim in enumerate(a.shape) if k != d):
            return None
        t = "float64" if kind(a.dtype) == "f" or self.r.random() < 0.3 else "int64"
        acc = self.fresh("acc")
        inner = list(scope) + [(i, "int64"), (acc, t)]
        read = E(f"{n}[{', '.join(idx)}]", [], a.dtype)
        upd = S(f"{acc} = {acc} + " + ("np.int64" if t == "int64" else "np.float64") + "({0})",
                [read])
        body = [upd]
        if self.r.random() < 0.4:
            body.append(self.acc_update(inner, acc, t))
        scope.append((acc, t))
        return S("if True:", [], [S(f"{acc} = " + ("0" if t == "int64" else "0.0")),
                                  S(f"for {i} in range({n}.shape[{d}]):", [], body)])

    def array_write(self, scope, arrs):
        n, a = self.r.choice(arrs)
        if 0 in a.shape:
            return None
        k = kind(a.dtype)
        e = self.expr(scope, 2, {"b": "b", "i": "biu", "u": "biu", "f": "biuf"}[k])
        idx = ", ".join(str(self.r.randint(-d, d - 1)) for d in a.shape)
        if self.bounds and self.r.random() < 0.15:
            dd = self.r.randrange(a.ndim)
            idx = ", ".join(str(a.shape[q] + self.r.randint(0, 2) if q == dd else 0)
                            for q in range(a.ndim))
        return S(f"{n}[{idx}] = " + "{0}", [e])

    def array_value(self, scope, arrs):
        n, a = self.r.choice(arrs)
        r = self.r
        c = r.random()
        v = self.fresh("w" if c < 0.5 else "v")
        if c < 0.35:
            text, shape = view_of(r, n, a.shape)
            self.add_array(scope, v, Arr(a.dtype, shape))
            return S(f"{v} = {text}")
        if c < 0.5:
            self.add_array(scope, v, Arr(a.dtype, a.shape))
            return S(f"{v} = {n}.copy()")
        k = kind(a.dtype)
        if c < 0.6:
            return self.array_expr(scope, arrs, v, n, a)
        if c < 0.65:
            acc, i = self.fresh("acc"), self.fresh("i")
            scope.append((acc, "int64"))
            return S("if True:", [], [S(f"{acc} = 0"), S(f"for {i} in range({n}.ndim):", [], [
                S(f"{acc} = {acc} * 7 + {n}.shape[{i}]")])])
        if c < 0.75:
            t = {"b": "int64", "i": "int64", "u": "uint64", "f": a.dtype}[k]
            scope.append((v, t))
            return S(f"{v} = {n}.sum()")
        if 0 in a.shape:
            return None
        scope.append((v, a.dtype))
        return S(f"{v} = {n}.{r.choice(['max', 'min'])}()")

    def array_expr(self, scope, arrs, v, n, a):
        """v = a whole-array expression over n (of type a): with another array of its shape,
        a scalar, or a NumPy function."""
        import numpy as np
        r = self.r
        same = [(m, b) for m, b in arrs if b.shape == a.shape and m != n]
        op = r.choice(["+", "-", "*", "/", "//", "%", "&", "|", "^", "<", "==", "+", "*"])
        c = r.random()
        if c < 0.25:
            fn = r.choice(["np.sqrt", "np.abs", "np.negative", "np.exp", "np.sin"])
            if kind(a.dtype) == "b" or (fn == "np.negative" and kind(a.dtype) == "u"):
                return None
            dt = a.dtype if fn in ("np.abs", "np.negative") else (
                "float32" if a.dtype in ("float32", "int8", "int16", "uint8") else "float64")
            self.add_array(scope, v, Arr(dt, a.shape))
            return S(f"{v} = {fn}({n})")
        if c < 0.6 and same:
            m, b = r.choice(same)
            other, odt = m, b.dtype
        else:
            e = self.expr(scope, 1, "biuf")
            if e.ty is None:
                return None
            other, odt = e, e.ty
        if op in ("&", "|", "^") and (kind(a.dtype) not in "biu" or kind(odt) not in "biu"):
            return None
        try:
            dt = str(np.result_type(np.dtype("bool" if a.dtype == "bool" else a.dtype),
                                    np.dtype("bool" if odt == "bool" else odt)))
        except TypeError:
            return None
        if op in ("<", "=="):
            dt = "bool"
        elif op == "/":
            dt = "float32" if dt == "float32" else "float64"
        elif dt == "bool" and op in "+-*//%":
            return None
        if dt not in ARRAY_DTYPES + ["uint16", "uint32"]:
            return None
        self.add_array(scope, v, Arr(dt, a.shape))
        if isinstance(other, E):
            return S(f"{v} = {n} {op} " + "{0}", [other])
        return S(f"{v} = {n} {op} {other}")

    def func(self, name):
        r = self.r
        self.nvar = 0
        self.bounds = r.random() < 0.2
        opts = []
        if r.random() < 0.3:
            opts.append("error_model='numpy'")
        if self.bounds:
            opts.append("boundscheck=True")
        deco = "@njit" + (f"({', '.join(opts)})" if opts else "")
        scope, params, args = [], [], []
        for p in range(r.randint(1, 4)):
            pn = f"p{p}"
            params.append(pn)
            if r.random() < 0.4:
                dt = r.choice(ARRAY_DTYPES)
                text, shape = array_arg(r, dt)
                args.append(text)
                self.add_array(scope, pn, Arr(dt, shape))
            else:
                t = r.choice(SCALARS)
                args.append(scalar_literal(r, t))
                scope.append((pn, t))
        if r.random() < 0.15:  # an explicit signature of the argument types (no return type)
            deco = "@njit(" + repr("(" + ", ".join(sig_name(dict(scope)[p]) for p in params) +
                                   ",)") + (", " + ", ".join(opts) if opts else "") + ")"
        body = [s for s in (self.stmt(scope, 2) for _ in range(r.randint(1, self.max_stmts))) if s]
        names = [n for n, t in scope if "[" not in n and "." not in n]
        fresh = [n for n in names if not n.startswith("p")] or names
        k = min(len(fresh), r.randint(1, 3))
        ret = r.sample(fresh, k)
        ret += [n for n in params if isinstance(dict(scope).get(n), Arr) and r.random() < 0.3]
        return Func(name, params, args, body, "(" + ", ".join(ret) + ",)", deco)
