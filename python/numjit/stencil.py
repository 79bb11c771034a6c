"""numjit.stencil — Numba's @stencil: a kernel written with relative indices, run over an array.

    @stencil(cval=0.0)
    def smooth(a):
        return 0.25 * (a[-1, 0] + a[1, 0] + a[0, -1] + a[0, 1])

``a[-1, 0]`` in the kernel means the element one row above the one being computed.  Calling
``smooth(x)`` gives an array of x's shape whose interior cells are the kernel's results and
whose border cells (where a relative index would leave the array) are ``cval`` (0 by default).

How, as Numba does it (numba/stencils/stencil.py), but on the source text: the kernel's def
is parsed (its text as captured at decoration), each subscript of a relatively indexed
parameter gets the loop indices added in its own line (``a[-1, 0]`` ->
``a[__nj_i0 + (-1), __nj_i1 + (0)]``, so the kernel keeps its line numbers and diagnostics
point into it), and the result is a def of its own, ``kernel(__nj_i0, __nj_i1, a, ...)``.
The neighborhood is the ``neighborhood=`` option or, without it, the least and greatest
constant index of each dimension.  A second def, the wrapper, makes the output (``np.empty`` of the first array's shape
and the kernel's result type, border set to cval; or ``out=``, filled with cval only when the
option is given), runs the loop nest over the interior and stores the kernel's value in each
cell.  The kernel's result type comes from compiling the kernel for the call's argument types
first.  Both defs are compiled by numjit like any function (the wrapper is cached per tuple of
argument types).  Called from Python, the wrapper is a serial loop nest; called from compiled
code, the stencil is an extension (numjit.extending's hook) whose implementation is the same
wrapper with its outer loop a ``prange`` in an ``@njit(parallel=True)`` def, so it runs on the
thread pool (the pool keeps short loops on the calling thread, and a stencil inside a parallel
loop runs serially there).
"""

import ast
import threading

import numpy as np

from . import capture
from . import types as _types
from .errors import NumbaValueError, UnsupportedError

_OPTIONS = ("cval", "standard_indexing", "neighborhood")
_lock = threading.RLock()
_serial = [0]       # numbers the generated texts (their defs' names are unique)


def stencil(func_or_mode="constant", **options):
    """Numba's @stencil, @stencil(cval=..., neighborhood=..., standard_indexing=...) and
    @stencil("constant", ...)."""
    if not isinstance(func_or_mode, str):
        mode, func = "constant", func_or_mode
    else:
        mode, func = func_or_mode, None
    for option in options:
        if option not in _OPTIONS:
            raise ValueError("Unknown stencil option " + option)
    if mode != "constant":
        raise ValueError("Unsupported mode style " + mode)

    def decorate(f):
        return StencilFunc(f, mode, options)
    return decorate(func) if func is not None else decorate


# ---- the kernel's text ---------------------------------------------------------------------

def _kernel_def(func):
    """(Snapshot, the kernel's FunctionDef node) from the text captured for func."""
    capture.capture(func)
    got = capture.snapshot_of(func)
    if got is None:
        raise UnsupportedError(f"numjit cannot find the source of stencil kernel "
                               f"'{func.__name__}'")
    snap, first = got
    defs = [n for n in ast.walk(snap.tree()) if isinstance(n, ast.FunctionDef) and
            n.name == func.__name__ and
            min([n.lineno] + [d.lineno for d in n.decorator_list]) <= first <= n.lineno]
    if not defs:
        raise UnsupportedError(f"numjit cannot find the def of stencil kernel "
                               f"'{func.__name__}' in {snap.filename}")
    return snap, defs[0]


def _constant(node, consts):
    """The int an index expression stands for, or None (Numba folds constants the same way:
    literals, negated literals and names assigned a literal in the kernel)."""
    if isinstance(node, ast.Name) and node.id in consts:
        return consts[node.id]
    try:
        v = ast.literal_eval(node)
    except ValueError:
        return None
    return v if isinstance(v, int) and not isinstance(v, bool) else None


class _Relative(ast.NodeVisitor):
    """Finds the subscripts of the relatively indexed parameters (Numba's
    add_indices_to_kernel): the insertions that add the loop indices to them, in the kernel's
    own lines and columns (so the rewritten kernel keeps its line numbers), and their
    constant indices, for the neighborhood."""

    def __init__(self, arrays, ndim, consts, need_consts):
        self.arrays, self.ndim, self.consts = arrays, ndim, consts
        self.need_consts = need_consts
        self.indices = []          # constant index tuples, for the neighborhood
        self.used = set()          # the parameters relatively indexed
        self.edits = []            # (line, byte column, text to insert there)

    def _wrap(self, dim, node):
        self.edits += [(node.lineno, node.col_offset, f"__nj_i{dim} + ("),
                       (node.end_lineno, node.end_col_offset, ")")]

    def _shift(self, dim, node):
        if not isinstance(node, ast.Slice):
            self._wrap(dim, node)
            return
        if node.lower is not None:
            self._wrap(dim, node.lower)
        else:
            self.edits.append((node.lineno, node.col_offset, f"__nj_i{dim}"))
        if node.upper is not None:
            self._wrap(dim, node.upper)

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if not (isinstance(node.value, ast.Name) and node.value.id in self.arrays):
            return
        if not isinstance(node.ctx, ast.Load):
            raise ValueError("Assignments to arrays passed to stencil kernels is not allowed.")
        self.used.add(node.value.id)
        elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if self.need_consts:
            got = [_constant(e, self.consts) for e in elts]
            if any(g is None for g in got):
                raise NumbaValueError("stencil kernel index is not constant, 'neighborhood' "
                                      "option required")
            if len(got) != self.ndim:
                raise NumbaValueError("Stencil index does not match array dimensionality.")
            self.indices.append(got)
        for d, e in enumerate(elts):
            self._shift(d, e)


def _edited_lines(text, fdef, edits):
    """The kernel def's lines (from its `def` line on, decorators left out) with the
    insertions made, dedented to column 0: {line number: text}."""
    lines = text.splitlines()
    out = {}
    for ln in range(fdef.lineno, fdef.end_lineno + 1):
        raw = lines[ln - 1].encode()
        for _, col, ins in sorted((e for e in edits if e[0] == ln), key=lambda e: -e[1]):
            raw = raw[:col] + ins.encode() + raw[col:]
        cut = fdef.col_offset if raw[:fdef.col_offset].strip() == b"" else 0
        out[ln] = raw[cut:].decode()
    return out


def _local_constants(fdef):
    """Names the kernel assigns an int literal once (`k = 1`)."""
    seen = {}
    for n in ast.walk(fdef):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and \
                isinstance(n.targets[0], ast.Name):
            v = _constant(n.value, {})
            name = n.targets[0].id
            seen[name] = v if name not in seen else None
    return {k: v for k, v in seen.items() if v is not None}


# ---- the stencil object ---------------------------------------------------------------------

class StencilFunc:
    """What @stencil returns: call it with the kernel's arguments (and out=)."""

    def __init__(self, kernel, mode, options):
        self.kernel = self.py_func = kernel
        self.__name__ = kernel.__name__
        self.__doc__ = kernel.__doc__
        self.mode = mode
        self.options = dict(options)
        self.neighborhood = self.options.get("neighborhood")
        self._snap, self._def = _kernel_def(kernel)
        names = [a.arg for a in self._def.args.args]
        if "out" in names:
            raise NumbaValueError("Cannot use the reserved word 'out' in stencil kernels.")
        self._params = names
        standard = self.options.get("standard_indexing", ())
        if isinstance(standard, str):
            standard = (standard,)
        self._standard = tuple(standard)
        self._cache = {}           # (argument types, out type, parallel) -> wrapper

    # -- the generated text --------------------------------------------------------------
    def _check_args(self, argtypes):
        if not argtypes or not isinstance(argtypes[0], _types.Array):
            raise NumbaValueError("The first argument to a stencil kernel must be the primary "
                                  "input array.")
        for s in self._standard:
            if s not in self._params:
                raise NumbaValueError("Standard indexing requested for an array name not "
                                      "present in the stencil kernel definition.")
        ndim = argtypes[0].ndim
        if self.neighborhood is not None and len(self.neighborhood) != ndim:
            raise NumbaValueError(f"{len(self.neighborhood)} dimensional neighborhood "
                                  f"specified for {ndim} dimensional input array")
        return ndim

    def _kernel_text(self, ndim, argtypes):
        """({line: text} of the kernel def, neighborhood, relatively indexed parameters); the
        def line says `def KERNEL(__nj_i0, ..., params)`, KERNEL to be replaced by a name."""
        fdef = self._def
        arrays = {p for p, t in zip(self._params, argtypes)
                  if isinstance(t, _types.Array) and p not in self._standard}
        rel = _Relative(arrays, ndim, _local_constants(fdef), self.neighborhood is None)
        rel.visit(fdef)
        if self.neighborhood is not None:
            hood = [tuple(int(x) for x in d) for d in self.neighborhood]
        else:
            if not rel.indices:
                raise NumbaValueError("Stencil kernel with no accesses to relatively indexed "
                                      "arrays.")
            hood = [(min([0] + [i[d] for i in rel.indices]),
                     max([0] + [i[d] for i in rel.indices])) for d in range(ndim)]
        lines = _edited_lines(self._snap.text, fdef, rel.edits)
        head = lines[fdef.lineno]
        at = head.index("(", head.index("def ") + 4)
        extra = ", ".join(f"__nj_i{d}" for d in range(ndim))
        lines[fdef.lineno] = "def KERNEL(" + extra + (", " if self._params else "") + \
            head[at + 1:]
        used = [p for p in self._params if p in rel.used]
        return lines, hood, used

    def _module_text(self, kname, klines, tail=()):
        """The text compiled: imports, the kernel at its own lines under @numjit.njit, then
        the lines of tail."""
        first = min(klines)
        out = ["import numpy as np", "import numjit"]
        out += [""] * max(0, first - 2 - len(out))
        out.append("@numjit.njit")
        for ln in sorted(klines):
            out.append(klines[ln].replace("def KERNEL(", f"def {kname}(", 1)
                       if ln == first else klines[ln])
        out += ["", ""] + list(tail)
        return "\n".join(out) + "\n"

    def _result_type(self, kname, klines, ndim, argtypes, scope):
        """The kernel's result type for the arguments' types (compiled once to find it)."""
        disp = self._exec(self._module_text(kname, klines), kname, scope)
        sig = (_types.int64,) * ndim + tuple(argtypes)
        disp.compile(sig)
        ret = [s.return_type for s in disp.nopython_signatures if s.args == sig]
        ret = ret[0] if ret else disp.nopython_signatures[-1].return_type
        if isinstance(ret, _types.Array):
            raise NumbaValueError("Stencil kernel must return a scalar and not a numpy array.")
        if not isinstance(ret, _types.Scalar):
            raise NumbaValueError(f"Stencil kernel must return a number, not {ret}")
        return ret

    def _exec(self, text, name, scope):
        """The def `name` of text, made in scope, its text recorded for the compiler."""
        snap = capture.Snapshot(self._snap.filename, text)
        code = capture._orig_compile(text, self._snap.filename, "exec", dont_inherit=True)
        capture._record(code, snap)      # before the decorators in text capture it
        exec(code, scope)
        return scope[name]

    def _cval_text(self, ret):
        if "cval" not in self.options:
            return None
        cval = self.options["cval"]
        if isinstance(cval, complex) and not isinstance(ret, _types.Complex):
            raise NumbaValueError("cval type does not match stencil return type.")
        if isinstance(cval, float) and not np.isfinite(cval):
            return "np.nan" if np.isnan(cval) else ("np.inf" if cval > 0 else "-np.inf")
        return repr(cval)

    def _wrapper(self, argtypes, outtype, parallel):
        key = (tuple(argtypes), outtype, parallel)
        with _lock:
            got = self._cache.get(key)
            if got is not None:
                return got
            _serial[0] += 1
            n = _serial[0]
        ndim = self._check_args(argtypes)
        klines, hood, used = self._kernel_text(ndim, argtypes)
        kname = f"__nj_stencil_kernel_{self.__name__}_{n}"
        wname = f"__nj_stencil_{self.__name__}_{n}"
        scope = dict(self.kernel.__globals__)
        from . import njit
        import numjit
        scope.update({"numjit": numjit, "np": np})
        # the probe's kernel has a name of its own: compiled under kname, its code object would
        # equal the wrapper's kernel's, and capture's weak table of recorded texts (keyed by
        # code objects, which compare by value) would drop the wrapper's text with the probe's
        ret = self._result_type(kname + "_probe", klines, ndim, argtypes, dict(scope))
        text = self._wrapper_text(kname, klines, wname, hood, used, ndim, argtypes, ret,
                                  outtype is not None, parallel)
        fn = self._exec(text, wname, scope)
        from .dispatcher import Dispatcher
        disp = fn if isinstance(fn, Dispatcher) else njit(fn)
        with _lock:
            return self._cache.setdefault(key, disp)

    def _wrapper_text(self, kname, klines, wname, hood, used, ndim, argtypes, ret, has_out,
                      parallel):
        params = ", ".join(self._params)
        deco = "@numjit.njit(parallel=True)\n" if parallel else "@numjit.njit\n"
        lines = [deco.rstrip("\n"), f"def {wname}({params}{', __nj_out' if has_out else ''}):"]
        first = used[0] if used else self._params[0]
        for other in used[1:]:
            t = argtypes[self._params.index(other)]
            if t.ndim != ndim:
                lines.append("    raise ValueError('Secondary stencil array does not have "
                             "same number  of dimensions as the first stencil input.')")
                continue
            for d in range(ndim):
                lines += [f"    if {first}.shape[{d}] > {other}.shape[{d}]:",
                          "        raise ValueError('Secondary stencil array has some "
                          "dimension smaller the same dimension in the first stencil "
                          "input.')"]
        lines.append(f"    __nj_shape = {first}.shape")
        cval = self._cval_text(ret)
        if not has_out:
            lines.append(f"    __nj_out = np.empty(__nj_shape, dtype=np."
                         f"{ret.dtype.type.__name__})")
            fill = cval if cval is not None else "0"
            for d in range(ndim):
                lo = [":"] * ndim
                hi = [":"] * ndim
                lo[d] = f":{-hood[d][0]}"
                hi[d] = f"{-hood[d][1]}:"
                lines.append(f"    __nj_out[{', '.join(lo)}] = {fill}")
                lines.append(f"    __nj_out[{', '.join(hi)}] = {fill}")
        elif cval is not None:
            lines.append(f"    __nj_out[...] = {cval}" if ndim > 1 else
                         f"    __nj_out[:] = {cval}")
        pad = "    "
        for d in range(ndim):
            rng = "numjit.prange" if parallel and d == 0 else "range"
            lines.append(f"{pad}for __nj_i{d} in {rng}({-min(0, hood[d][0])}, "
                         f"__nj_shape[{d}] - {max(0, hood[d][1])}):")
            pad += "    "
        idx = ", ".join(f"__nj_i{d}" for d in range(ndim))
        lines.append(f"{pad}__nj_out[{idx}] = {kname}({idx}, {params})")
        lines.append("    return __nj_out")
        return self._module_text(kname, klines, lines)

    # -- calls -----------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        out = kwargs.pop("out", None)
        if kwargs:
            raise TypeError(f"{self.__name__}() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")
        if self.neighborhood is not None and args and hasattr(args[0], "ndim") and \
                len(self.neighborhood) != args[0].ndim:
            raise ValueError(f"{len(self.neighborhood)} dimensional neighborhood specified "
                             f"for {args[0].ndim} dimensional input array")
        from . import typeof
        argtypes = tuple(typeof(a) for a in args)
        if len(args) != len(self._params):
            raise TypeError(f"{self.__name__}() takes {len(self._params)} arguments, "
                            f"{len(args)} given")
        outtype = typeof(out) if out is not None else None
        disp = self._wrapper(argtypes, outtype, False)
        return disp(*args, out) if out is not None else disp(*args)

    def _nj_typing(self, *argtypes):
        """The implementation for a call from compiled code (numjit.extending's hook)."""
        if len(argtypes) != len(self._params):
            return None
        return self._wrapper(tuple(argtypes), None, True).py_func

    def __repr__(self):
        return f"<numjit stencil {self.__name__}>"
