"""numjit.capture — the source text each function had when it was decorated.

numjit compiles from source, and compiles lazily (on the first call), so the text must be
taken when the decorator runs: by the first call the file on disk may have been edited, and a
later def of the same name may have replaced the first one in the module.  ``capture(func)``
records a ``Snapshot`` (file name, whole text, parsed tree on demand) and the line where func's
def starts in it; ``snapshot_of(func)`` gives it back at compile time (taking it then for a
function that no decorator captured).  Snapshots of one file with equal text are one object,
so a module of a hundred decorated functions is read and parsed once.

Where the text comes from, in order:
  * text recorded for the function's code object (below);
  * ``linecache`` (files, IPython cells, anything registered there), checked against the file's
    modification time first so that an edit before the import is seen.

Functions built at run time have no file.  Numba compiles them from bytecode; numjit needs their
text, so ``record_sources()`` (run when numjit is imported) wraps ``builtins.compile`` and
``builtins.exec``; while ``import numba`` gives numjit (and only then) they remember the string
given to ``exec``, a string compiled under a ``<...>`` file name, or an AST given to
``compile`` under a name that is no file (written back as text with ``ast.unparse``; the defs'
line numbers are mapped from the tree to that text).  Otherwise they only call the originals.
Each recorded text is kept against the code objects of the functions in it (weakly: it dies
with them), by identity: code objects compare by value, so two functions of equal code (the
same text given to exec twice) must not share an entry, or the death of one would drop the
other's text.  See docs/design-notes.md for why this and not a bytecode frontend.
"""

import ast
import builtins
import linecache
import os
import sys
import threading
import weakref

_lock = threading.RLock()
_captured = weakref.WeakKeyDictionary()   # function -> (Snapshot, first line of its def)
_latest = {}                              # filename -> (its lines, their Snapshot)
_recorded = {}                            # id(code object) -> (weakref to it, Snapshot, line)


class Snapshot:
    """A source text as it was when a function was decorated, and its parsed tree."""
    __slots__ = ("filename", "text", "_tree", "__weakref__")

    def __init__(self, filename, text, tree=None):
        self.filename, self.text, self._tree = filename, text, tree

    def tree(self):
        if self._tree is None:
            self._tree = ast.parse(self.text, self.filename)
        return self._tree


def _shared(filename, lines):
    """The Snapshot of a file's lines (linecache's list): the latest one of that file when
    the list is the same object (linecache keeps it while the file is unchanged) or the text
    is equal."""
    with _lock:
        hit = _latest.get(filename)
        if hit is not None and hit[0] is lines:
            return hit[1]
        text = "".join(lines)
        snap = hit[1] if hit is not None and hit[1].text == text else Snapshot(filename, text)
        _latest[filename] = (lines, snap)
        return snap


def _take(code, module_globals):
    """(Snapshot, first line) for a code object now, or None when no text is found."""
    with _lock:
        hit = _recorded.get(id(code))
    if hit is not None and hit[0]() is code:
        return hit[1:]
    filename = code.co_filename
    if not filename.startswith("<"):
        linecache.checkcache(filename)
    lines = linecache.getlines(filename, module_globals)
    if not lines:
        return None
    return _shared(filename, lines), code.co_firstlineno


def capture(func):
    """Records the source func has now (called by the decorators)."""
    code = getattr(func, "__code__", None)
    if code is None:
        return
    try:
        got = _take(code, getattr(func, "__globals__", None))
    except (OSError, UnicodeDecodeError):
        got = None
    if got is not None:
        with _lock:
            _captured[func] = got


def snapshot_of(func):
    """(Snapshot, first line of func's def) — the text captured at decoration, else now; None
    when func has no source numjit can find."""
    with _lock:
        got = _captured.get(func)
    if got is None:
        got = _take(func.__code__, getattr(func, "__globals__", None))
        if got is not None:
            with _lock:
                _captured[func] = got
    return got


# ---- text of code built at run time --------------------------------------------------------

_FUTURE_FLAGS = 0
for _name in ("division", "absolute_import", "with_statement", "print_function",
              "unicode_literals", "generator_stop", "annotations"):
    import __future__
    _FUTURE_FLAGS |= getattr(__future__, _name).compiler_flag

_orig_compile = builtins.compile
_orig_exec = builtins.exec


def _forget(key, ref):
    """Drops the entry of a code object that died (unless the id is another object's now)."""
    with _lock:
        hit = _recorded.get(key)
        if hit is not None and hit[0] is ref:
            del _recorded[key]


def _record(code, snap, lines=None):
    """Remembers snap for every function code object inside code; lines maps a def's first
    line in the compiled tree to its line in snap's text (None: the same)."""
    todo = [code]
    with _lock:
        while todo:
            c = todo.pop()
            for k in c.co_consts:
                if isinstance(k, type(code)):
                    todo.append(k)
            if c is not code:
                first = c.co_firstlineno
                ref = weakref.ref(c, lambda r, k=id(c): _forget(k, r))
                _recorded[id(c)] = (ref, snap,
                                    lines.get(first, first) if lines else first)


def _tree_text(tree, filename):
    """(text, {line in tree: line in text}) of an AST: ast.unparse, then each def matched to
    the def at the same place of the tree parsed back."""
    text = ast.unparse(tree) + "\n"
    back = ast.parse(text, filename)
    mine = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    theirs = [n for n in ast.walk(back) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    lines = {}
    for a, b in zip(mine, theirs):
        first_a = min([a.lineno] + [d.lineno for d in a.decorator_list])
        first_b = min([b.lineno] + [d.lineno for d in b.decorator_list])
        lines.setdefault(first_a, first_b)
        lines.setdefault(a.lineno, first_b)
    return text, back, lines


def _caller_flags(dont_inherit):
    if dont_inherit:
        return 0
    return sys._getframe(2).f_code.co_flags & _FUTURE_FLAGS


def _answering():
    """Whether `import numba` gives numjit now (numjit.install_as_numba() or by hand)."""
    numba = sys.modules.get("numba")
    return numba is not None and numba is sys.modules.get("numjit")


def _compile(source, filename, mode, flags=0, dont_inherit=False, optimize=-1, **kw):
    __tracebackhide__ = True   # pytest leaves these frames out of its tracebacks
    flags |= _caller_flags(dont_inherit)
    code = _orig_compile(source, filename, mode, flags, True, optimize, **kw)
    if not _answering() or mode != "exec" or not isinstance(code, type(_compile.__code__)):
        return code
    try:
        name = filename if isinstance(filename, str) else str(filename)
        if isinstance(source, ast.Module) and (name.startswith("<") or
                                               not os.path.exists(name)):
            # (a tree of a real file, as pytest's assertion rewriting compiles, keeps the
            # file's positions: linecache's text of that file serves it better)
            text, tree, lines = _tree_text(source, name)
            _record(code, Snapshot(name, text, tree), lines)
        elif name.startswith("<") and isinstance(source, (str, bytes)):
            text = source if isinstance(source, str) else source.decode()
            _record(code, Snapshot(name, text))
    except Exception:  # recording is best effort: compile itself has succeeded
        pass
    return code


def _exec(source, globals=None, locals=None, /, **kw):
    __tracebackhide__ = True
    if globals is None:
        frame = sys._getframe(1)
        globals, locals = frame.f_globals, frame.f_locals if locals is None else locals
    if isinstance(source, (str, bytes)) and _answering():
        text = source if isinstance(source, str) else source.decode()
        flags = sys._getframe(1).f_code.co_flags & _FUTURE_FLAGS
        source = _orig_compile(text, "<string>", "exec", flags, True)
        _record(source, Snapshot("<string>", text))
    return _orig_exec(source, globals, locals, **kw)


_compile.__doc__ = _orig_compile.__doc__
_exec.__doc__ = _orig_exec.__doc__


def record_sources():
    """Makes exec and compile remember the text of the code they build while numjit answers
    `import numba` (idempotent)."""
    builtins.compile = _compile
    builtins.exec = _exec
