"""numjit.objblocks — Numba's ``with objmode(y='float64[:]'):`` blocks in compiled functions.

    @njit
    def f(x):
        with objmode(y='float64[:]'):
            y = np.fft.fft(x).real      # any Python: runs in the interpreter
        return y * 2

numjit compiles no Python object code, so the block is cut out of the function's text when
the function is decorated (``rewrite``, called by the Dispatcher): its body becomes a Python
function of its inputs (the variables of the function it reads: parameters and variables
assigned outside the block) returning its declared outputs, and the ``with`` line becomes
``y = objmode(ID, "float64[:]", x)[0]`` (the body's lines are left blank, so every line keeps
its number).  The compiler types that call (lib/objmode.c): it writes the inputs into an int64
and a float64 buffer and calls the runtime (runtime/objmode.c), which calls ``_run`` below
through a ctypes callback.  ``_run`` makes the inputs Python values (numbers of their
types, arrays viewing the compiled code's memory), runs the block, converts each output to
its declared type (as Numba unboxes it) and writes scalars and array shapes back; compiled
code then allocates the output arrays and a second call copies the block's arrays into them.
An exception in the block is printed and the compiled code raises Exception at the block.
Numbers and arrays of numbers cross the boundary; other types are refused at compile time.
"""

import ast
import ctypes
import itertools
import sys
import textwrap
import threading
import traceback

import numpy as np

from . import _numjit, capture
from . import types as _types

_lock = threading.Lock()
_ids = itertools.count(1)
_blocks = {}                 # id -> (Python function of the block, its output types)
_stash = threading.local()   # the block's array outputs between the two stages

# ir/ir.h's TypeKind, in order: what lib/objmode.c writes for an input's type
_KINDS = [None, np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
          np.uint32, np.uint64, np.float32, np.float64]


# ---- the text ----------------------------------------------------------------------------------

def _is_objmode(node, glb):
    """Whether `with NODE:` is a `with objmode(...)` / `with numba.objmode(...)` block."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    from . import _ObjMode           # the class of numjit.objmode
    try:
        if isinstance(f, ast.Name):
            return isinstance(glb.get(f.id), _ObjMode)
        if isinstance(f, ast.Attribute) and f.attr == "objmode" and isinstance(f.value, ast.Name):
            return isinstance(getattr(glb.get(f.value.id), "objmode", None), _ObjMode)
    except Exception:
        return False
    return False


def _spelling(value, glb):
    """The spelling the library reads of an output's declared type ('float64[:]', a type)."""
    t = value
    if isinstance(value, str):
        t = eval(value, {"__builtins__": {}}, vars(_types))  # noqa: S307 (Numba does the same)
    if isinstance(t, _types.Array):
        return t, f"{t.dtype.name}[{', '.join([':'] * t.ndim)}]"
    if isinstance(t, _types.Scalar):
        return t, t.name
    raise TypeError(f"objmode output type {value!r} is not a number or array type")


def _stored_names(nodes):
    out = set()
    for top in nodes:
        for n in ast.walk(top):
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                out.add(n.id)
    return out


def _block_inputs(fdef, block):
    """The function's variables the block reads, in order of first reading: its parameters
    and the variables it assigns outside the block."""
    inside = set(id(n) for n in ast.walk(block))
    outside = [n for n in fdef.body if id(n) not in inside]
    live = {a.arg for a in fdef.args.args} | _stored_names(outside)
    seen = []
    for n in ast.walk(ast.Module(body=block.body, type_ignores=[])):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in live and \
                n.id not in seen:
            seen.append(n.id)
    return sorted(seen, key=lambda name: _first_use(block, name))


def _first_use(block, name):
    return min((n.lineno, n.col_offset) for n in ast.walk(block)
               if isinstance(n, ast.Name) and n.id == name)


def _make_block(func, snap_lines, block, inputs, outs):
    """The Python function running the block's body: inputs in, the outputs' tuple out."""
    first, last = block.body[0].lineno, block.end_lineno
    body = textwrap.dedent("\n".join(snap_lines[first - 1:last]))
    names = [n for n, _ in outs]
    ret = "(" + "".join(f"{n}, " for n in names) + ")"
    text = (f"def __nj_objmode_block({', '.join(inputs)}):\n" +
            textwrap.indent(body, "    ") + f"\n    return {ret}\n")
    pad = "\n" * max(0, first - 2)      # the body at its own lines, for tracebacks
    ns = {}
    code = capture._orig_compile(pad + text, func.__code__.co_filename, "exec",
                                 dont_inherit=True)
    exec(code, func.__globals__, ns)
    return ns["__nj_objmode_block"]


def rewrite(func):
    """Cuts the objmode blocks of func's def out of the text it compiles (see the module
    doc); nothing for a function without one."""
    try:
        got = capture.snapshot_of(func)
        if got is None or "objmode" not in got[0].text:
            return
        tree = got[0].tree()
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return          # no text: the compilation reports it, as without a block
    snap, first = got
    fdefs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and
             n.name == func.__name__ and
             min([n.lineno] + [d.lineno for d in n.decorator_list]) <= first <= n.lineno]
    if not fdefs:
        return
    fdef = fdefs[0]
    blocks = [n for n in ast.walk(fdef) if isinstance(n, ast.With) and len(n.items) == 1 and
              _is_objmode(n.items[0].context_expr, func.__globals__)]
    if not blocks:
        return
    lines = snap.text.split("\n")
    for block in sorted(blocks, key=lambda b: -b.lineno):
        call = block.items[0].context_expr
        if call.args:
            raise TypeError("objmode takes the output types as keywords: objmode(y='int64')")
        outs = [(kw.arg, _spelling(ast.literal_eval(kw.value) if isinstance(
            kw.value, ast.Constant) else eval(compile(ast.Expression(kw.value), "<objmode>",
                                                     "eval"), func.__globals__),
            func.__globals__)) for kw in call.keywords]
        inputs = _block_inputs(fdef, block)
        pyfn = _make_block(func, lines, block, inputs, [(n, t) for n, (t, _) in outs])
        with _lock:
            bid = next(_ids)
            _blocks[bid] = (pyfn, [t for _, (t, _) in outs])
        spec = ";".join(s for _, (_, s) in outs)
        callee = ast.get_source_segment(snap.text, call.func)
        expr = f"{callee}({bid}, {spec!r}{''.join(', ' + i for i in inputs)})"
        names = [n for n, _ in outs]
        stmt = expr if not names else (f"{names[0]} = {expr}[0]" if len(names) == 1 else
                                       f"{', '.join(names)} = {expr}")
        head = lines[block.lineno - 1]
        indent = head[:len(head) - len(head.lstrip())]
        lines[block.lineno - 1] = indent + stmt
        for ln in range(block.lineno + 1, block.end_lineno + 1):
            lines[ln - 1] = ""
    with capture._lock:     # the text func compiles from now on
        capture._captured[func] = (capture.Snapshot(snap.filename, "\n".join(lines)), first)


# ---- the run ------------------------------------------------------------------------------------

class _View:
    def __init__(self, addr, shape, strides, dtype):
        self.__array_interface__ = {"shape": shape, "typestr": np.dtype(dtype).str,
                                    "data": (addr, False), "strides": strides, "version": 3}


def _inputs(ib, fb):
    vals, h = [], 2
    for _ in range(ib[0]):
        nd, kind = ib[h], ib[h + 1]
        dt = _KINDS[kind]
        if nd < 0:
            # boxed as Numba boxes them: Python floats, ints and bools
            v = ib[h + 2]
            vals.append(float(fb[h + 2]) if kind >= 10 else bool(v) if kind == 1 else
                        v & 0xFFFFFFFFFFFFFFFF if kind == 9 else v)
            h += 4
            continue
        shape = tuple(ib[h + 3 + d] for d in range(nd))
        strides = tuple(ib[h + 3 + nd + d] for d in range(nd))
        vals.append(np.asarray(_View(ib[h + 2] or 0, shape, strides, dt)))
        h += 3 + 2 * nd
    return vals, h


def _outputs(ib, fb, h, types, got):
    arrays = []
    for t, v in zip(types, got):
        if isinstance(t, _types.Array):
            a = np.asarray(v)
            if a.ndim != t.ndim:
                raise TypeError(f"objmode output declared {t} got an array of {a.ndim} "
                                f"dimension(s)")
            a = np.ascontiguousarray(a, dtype=t.dtype.dtype)
            for d in range(t.ndim):
                ib[h + d] = a.shape[d]
            arrays.append((h + t.ndim, a))
            h += max(2, t.ndim + 1)
            continue
        x = np.asarray(v).astype(t.dtype) if not isinstance(v, np.ndarray) or v.ndim == 0 \
            else None
        if x is None:
            raise TypeError(f"objmode output declared {t} got an array")
        if t.dtype.kind == "f":
            fb[h] = float(x)
        else:
            ib[h] = int(x)
        h += 2
    return arrays


def _run(bid, ib, fb, stage):
    try:
        fn, types = _blocks[bid]
        if stage == 1:
            for at, a in _stash.pending.pop(bid, ()):
                ctypes.memmove(ib[at], a.ctypes.data, a.nbytes)
            return 0
        vals, h = _inputs(ib, fb)
        got = fn(*vals)
        if not hasattr(_stash, "pending"):
            _stash.pending = {}
        _stash.pending[bid] = _outputs(ib, fb, h, types, got)
        return 0
    except BaseException:  # the block's exception: printed, then raised by compiled code
        traceback.print_exc(file=sys.stderr)
        return 1


_HOOK = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.POINTER(ctypes.c_int64),
                         ctypes.POINTER(ctypes.c_double), ctypes.c_int64)(_run)
_numjit.set_objmode_hook(ctypes.cast(_HOOK, ctypes.c_void_p).value)
