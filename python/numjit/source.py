"""numjit.source — the source text numjit compiles for a Python function.

numjit compiles a whole module file at once, so that compiled functions can call each other
and read module constants, as under Numba.  A real module also holds code the compiler must
not see (test drivers, classes, prints, ``if __name__ == "__main__":``), so the text handed to
the library is the file *filtered* by Python's own parser (the ``ast`` module), line for line:

  * kept as written: imports of math, cmath, numpy, numba, numjit and random; every def decorated
    with a numjit/Numba decorator (njit, jit, vectorize, guvectorize, cuda.jit); the def of
    the function being compiled; and, transitively, every undecorated top-level def that a
    kept def names (numjit compiles those as njit, as Numba compiles a called njit function);
  * module constants: a top-level ``NAME = ...`` whose current value in the module is an int,
    float or bool (or a NumPy scalar) becomes ``NAME = <that value>`` — Numba freezes global
    values at compile time the same way — and a constant expression not yet run (an eager
    ``@njit(sig)`` during import) is kept as written;
  * every other line becomes an empty line.

Because lines keep their numbers and columns, every diagnostic points into the user's file.
Numeric globals that a kept def reads but that no top-level assignment defines (``from config
import N``, values set in a loop) are appended as ``NAME = <value>`` after the last line.
A function defined inside another function is compiled alone: its def, dedented, on its own
lines, with the same imports and constants (its numeric closure variables appended).

The parsed tree of each file is cached; compiled modules are cached by (file, filtered text),
so ten functions of one file share one compiled module.
"""

import ast
import linecache
import numbers
import threading
import weakref

import numpy as _np

from . import _numjit
from .errors import NumjitError, UnsupportedError

_JIT_DECORATORS = {"njit", "jit", "vectorize", "guvectorize", "generated_jit"}
_IMPORT_ROOTS = {"math", "cmath", "numpy", "numba", "numjit", "random"}

_lock = threading.RLock()
_tree_cache = {}    # filename -> (text, ast.Module)
_module_cache = {}  # (filename, filtered text) -> _numjit.Module
_shipped = weakref.WeakKeyDictionary()  # function -> (filename, text): ship()


def _is_jit_decorator(node):
    """@njit, @numba.njit, @nb.jit(...), @vectorize([...]), @cuda.jit, ..."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id in _JIT_DECORATORS
    if isinstance(node, ast.Attribute):
        return node.attr in _JIT_DECORATORS
    return False


def _keep_import(node):
    if isinstance(node, ast.Import):
        return all(a.name.split(".")[0] in _IMPORT_ROOTS for a in node.names)
    if isinstance(node, ast.ImportFrom):
        return node.level == 0 and (node.module or "").split(".")[0] in _IMPORT_ROOTS
    return False


def _bound_by(value, node):
    """Whether value (a module global) is what import `node` binds: the module or an object
    from it, numba's names counting as numjit's (the drop-in maps one to the other)."""
    if value is None:
        return False
    name = getattr(value, "__name__", None) if isinstance(value, type(ast)) else \
        getattr(value, "__module__", None)
    root = (name or "").split(".")[0]
    if isinstance(node, ast.Import):
        wanted = {a.name.split(".")[0] for a in node.names}
    else:
        wanted = {(node.module or "").split(".")[0]}
    if "numba" in wanted:
        wanted.add("numjit")
    return root in wanted


def _is_const_expr(node):
    """Literals combined with arithmetic: what the compiler folds as a module constant."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (bool, int, float, complex))
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, (ast.USub, ast.UAdd)) and _is_const_expr(node.operand)
    if isinstance(node, ast.BinOp):
        return _is_const_expr(node.left) and _is_const_expr(node.right)
    return False


# Constants whose type a plain literal would lose are spelled through this import, appended
# to the compiled text (numjit's own type names, which the compiler resolves).
_NJ = "__numjit_types"


def _literal(value):
    """Source text of a numeric value, or None when it has none (nan) or is not numeric.
    A NumPy scalar keeps its type (np.float32(0.1) stays float32), and an integer past int64
    becomes a uint64, as Numba types them."""
    if isinstance(value, _np.generic) and isinstance(value, (_np.number, _np.bool_)):
        kind = value.dtype.name
        value = value.item()
        if kind not in ("float64", "int64", "bool"):
            inner = _literal(value)
            if inner is None or kind not in _SCALAR_NAMES:
                return None
            if kind == "uint64" and value >= 2**63:
                inner = repr(value - 2**64)
            return f"{_NJ}.{kind}({inner})"
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, numbers.Integral):
        if 2**63 <= value < 2**64:
            return f"{_NJ}.uint64({value - 2**64})"
        if not -2**63 <= value < 2**63:
            return None
        return repr(int(value))
    if isinstance(value, float):
        if value != value:
            return None
        if value in (float("inf"), float("-inf")):
            return "1e999" if value > 0 else "-1e999"
        return repr(value)
    if isinstance(value, complex):  # a literal expression the compiler folds: (re + imj)
        re, im = _literal(value.real), _literal(abs(value.imag))
        if re is None or im is None:
            return None
        return f"({re} {'-' if str(value.imag).startswith('-') else '+'} {im}j)"
    return None


_SCALAR_NAMES = {"int8", "int16", "int32", "uint8", "uint16", "uint32", "uint64", "float32"}


def _decorator_value(node, module_globals):
    """The value of a decorator argument written as a name, attribute or subscript chain
    (`target=TARGET`, `cfg.FAST`, `sys.argv[2]`), looked up in the module; or None."""
    if isinstance(node, ast.Constant) or any(isinstance(n, (ast.Call, ast.Lambda, ast.NamedExpr))
                                             for n in ast.walk(node)):
        return None
    if not isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
        return None
    try:
        value = eval(compile(ast.Expression(node), "<decorator>", "eval"),  # noqa: S307
                     dict(module_globals))
    except Exception:
        return None
    ok = (str, bool, int, float, type(None))
    if isinstance(value, ok) or (isinstance(value, (list, tuple)) and
                                 all(isinstance(v, str) for v in value)):
        return repr(list(value) if isinstance(value, tuple) else value)
    return None


def _freeze_decorator_args(node, out, module_globals):
    """Writes the values of a kept def's non-literal decorator arguments into its decorator
    line (`@vectorize(SIGS, target=TARGET)` becomes `@vectorize([...], target='cpu')`): the
    decorator has already run with those values, and the compiler reads the line."""
    edits = {}
    for d in node.decorator_list:
        if not isinstance(d, ast.Call):
            continue
        for arg in list(d.args) + [k.value for k in d.keywords]:
            if arg.lineno != arg.end_lineno:
                continue
            text = _decorator_value(arg, module_globals)
            if text is not None:
                edits.setdefault(arg.lineno - 1, []).append((arg.col_offset, arg.end_col_offset,
                                                             text))
    for i, spans in edits.items():
        line = out[i].encode()
        for a, b, text in sorted(spans, reverse=True):
            line = line[:a] + text.encode() + line[b:]
        out[i] = line.decode()


def _locals_of(node):
    """Names a def binds itself (parameters and assignment targets): never module globals."""
    names = {a.arg for a in node.args.args + node.args.posonlyargs + node.args.kwonlyargs}
    names |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and
              isinstance(n.ctx, (ast.Store, ast.Del))}
    return names


def _names_read(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _span(node):
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return first, node.end_lineno


def _read_tree(filename, module_globals):
    lines = linecache.getlines(filename, module_globals)
    text = "".join(lines)
    with _lock:
        hit = _tree_cache.get(filename)
        if hit and hit[0] == text:
            return text, hit[1]
    if not text:
        return "", None
    tree = ast.parse(text, filename)
    with _lock:
        _tree_cache[filename] = (text, tree)
    return text, tree


def _find_def(tree, func):
    """The FunctionDef of func: top level by name, else anywhere by first line."""
    code = func.__code__
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == func.__name__:
            first, last = _span(node)
            if first <= code.co_firstlineno <= last:
                return node, True
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == func.__name__:
            first, last = _span(node)
            if first <= code.co_firstlineno <= last:
                return node, False
    return None, False


def ship(func, filename, text):
    """Records that func is to be compiled from (filename, text): a function rebuilt from
    pickled source (numjit.serialize) compiles exactly the text it was shipped with."""
    with _lock:
        _shipped[func] = (filename, text)


def filtered_source(func):
    """(filename, text) of the module source to compile for func (see the module doc)."""
    with _lock:
        got = _shipped.get(func)
    if got is not None:
        return got
    code = getattr(func, "__code__", None)
    if code is None:
        raise UnsupportedError(f"numjit compiles Python functions, not {type(func).__name__}")
    if func.__name__ == "<lambda>":
        raise UnsupportedError("numjit compiles functions defined with 'def', not lambdas")
    filename = code.co_filename
    module_globals = getattr(func, "__globals__", {})
    text, tree = _read_tree(filename, module_globals)
    if tree is None:
        raise NumjitError(f"numjit: cannot find the source of {func.__qualname__!r} "
                          f"(defined in {filename}); numjit compiles functions from source files")
    target, top_level = _find_def(tree, func)
    if target is None:
        raise NumjitError(f"numjit: cannot find the def of {func.__qualname__!r} in {filename}")

    src_lines = text.splitlines(keepends=True)
    out = ["\n"] * len(src_lines)

    def keep(node, dedent=0):
        first, last = _span(node)
        for i in range(first - 1, last):
            line = src_lines[i]
            if dedent and line[:dedent].strip() == "":
                line = line[dedent:]
            out[i] = line if line.endswith("\n") else line + "\n"

    tops = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    kept_defs = []
    defined = set()   # top-level names the output defines
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and _keep_import(node):
            keep(node)
            defined.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Import) and node.lineno == node.end_lineno:
            # `import math, time, sys`: keep the modules the compiler knows, on the same line
            known = [a for a in node.names if a.name.split(".")[0] in _IMPORT_ROOTS]
            if known:
                out[node.lineno - 1] = " " * node.col_offset + "import " + ", ".join(
                    a.name + (f" as {a.asname}" if a.asname else "") for a in known) + "\n"
                defined.update((a.asname or a.name).split(".")[0] for a in known)
    # imports under a top-level `if` or `try` (`try: import numba as nb`): each one-line
    # import whose names the module really bound to that module, on its own line, dedented
    for node in tree.body:
        if not isinstance(node, (ast.If, ast.Try)):
            continue
        for sub in ast.walk(node):
            if not (isinstance(sub, (ast.Import, ast.ImportFrom)) and _keep_import(sub) and
                    sub.lineno == sub.end_lineno):
                continue
            names = [(a.asname or a.name).split(".")[0] for a in sub.names]
            if any(n in defined or not _bound_by(module_globals.get(n), sub) for n in names):
                continue
            out[sub.lineno - 1] = src_lines[sub.lineno - 1].lstrip()
            defined.update(names)
    if top_level:
        wanted = [n for n in tree.body if isinstance(n, ast.FunctionDef) and
                  (n is target or any(_is_jit_decorator(d) for d in n.decorator_list))]
    else:
        wanted = [target]
    seen = set()
    while wanted:
        node = wanted.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        kept_defs.append(node)
        if top_level:
            for name in _names_read(node):
                dep = tops.get(name)
                if dep is not None and id(dep) not in seen:
                    wanted.append(dep)
    for node in kept_defs:
        keep(node, dedent=0 if top_level else node.col_offset)
        defined.add(node.name)
        if top_level:
            _freeze_decorator_args(node, out, module_globals)
    # modules the kept defs name that no kept import binds (`nb = importlib.import_module(..)`,
    # an import inside a function): bound again on a line left blank above the first def
    first_def = min(_span(n)[0] for n in kept_defs)
    for node in kept_defs:
        for name in sorted(_names_read(node) - defined - _locals_of(node)):
            mod = module_globals.get(name)
            if not isinstance(mod, type(ast)) or \
                    mod.__name__.split(".")[0] not in _IMPORT_ROOTS:
                continue
            free_line = next((i for i in range(first_def - 1) if out[i] == "\n"), None)
            if free_line is None:
                raise NumjitError(f"{filename}:{node.lineno}: error: '{name}' names module "
                                  f"{mod.__name__}, which numjit sees imported nowhere; "
                                  f"import it at the top level of the file")
            out[free_line] = f"import {mod.__name__} as {name}\n"
            defined.add(name)

    appended = []
    assigned = set()
    if top_level:
        for node in tree.body:
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            names = []
            for t in targets:
                if isinstance(t, ast.Name):
                    names.append(t.id)
                elif isinstance(t, ast.Tuple) and all(isinstance(e, ast.Name) for e in t.elts):
                    names.extend(e.id for e in t.elts)
            simple = len(names) == 1 and isinstance(targets[0], ast.Name)
            for name in names:
                assigned.add(name)
                lit = _literal(module_globals[name]) if name in module_globals else None
                if lit is None and simple and name not in module_globals and \
                        _is_const_expr(value):
                    keep(node)     # eager compile during import: not run yet
                    defined.add(name)
                elif lit is not None and simple and node.lineno == node.end_lineno:
                    out[node.lineno - 1] = f"{name} = {lit}\n"
                    defined.add(name)
                elif lit is not None:
                    appended.append((name, lit))
    # Numeric globals (and closure variables) read by kept defs but not defined above.
    free = {}
    if not top_level and func.__closure__:
        for name, cell in zip(code.co_freevars, func.__closure__):
            try:
                free[name] = cell.cell_contents
            except ValueError:
                pass
    for node in kept_defs:
        local = _locals_of(node)
        for name in sorted(_names_read(node)):
            if name in defined or name in dict(appended) or name in tops or name in local:
                continue
            if name in free:
                lit = _literal(free[name])
            elif name in module_globals and name not in assigned:
                lit = _literal(module_globals[name])
            else:
                lit = None
            if lit is not None:
                appended.append((name, lit))
                defined.add(name)
    done = set()
    for name, lit in appended:
        if name not in done:
            out.append(f"{name} = {lit}\n")
            done.add(name)
    text = "".join(out)
    if f"{_NJ}." in text:
        text += f"import numjit as {_NJ}\n"
    return filename, text


def load_module(func):
    """The compiled module holding func (compiled once per distinct filtered text)."""
    filename, text = filtered_source(func)
    key = (filename, text)
    with _lock:
        mod = _module_cache.get(key)
    if mod is None:
        mod = _numjit.compile_source(filename, text)
        with _lock:
            mod = _module_cache.setdefault(key, mod)
    return mod
