"""numjit.jitclass — Numba's @jitclass for instances used from Python, methods compiled.

``@jitclass(spec)`` (a list of (name, type) pairs or a dict) or ``@jitclass`` with class
annotations (``x: float64``) declares typed members.  The class it gives makes instances that
keep their members in Python (the scalars in a record, arrays as NumPy arrays: below) and run
every method as compiled code, in one of two forms:

  * a method that assigns no array member (itself or through the methods it calls) is its
    own def compiled with the instance as ``self``: compiled code is given the instance's
    record (below), so it reads and writes the members in place and may use the instance's
    properties and call its methods anywhere, as in an @njit function given the instance;
  * a method that assigns an array member (compiled code cannot give an array it made to
    the instance yet) becomes a function compiled by numjit from its own text, rewritten so that
    ``self.x`` is a parameter ``self_x`` (the same length: columns stay put, so diagnostics
    point into the class) — the members the method reads or writes are passed in, and the
    scalar or array members it assigns come back: ``return X`` becomes ``return(X), self_x``
    and a method without a value returns the tuple of those members.  Arrays the method
    changes element by element are changed in place, as the instance's own;
  * ``__init__`` takes only its arguments: the members it assigns are its results;
  * a value stored into a member is converted to the member's type (Numba's store), and a
    member read from Python is boxed as Numba boxes it (a Python int, float, complex or bool;
    the array itself);
  * ``@property`` (and its setter) and ``@staticmethod`` (compiled as a plain function) work;
  * a method may call the instance's other methods: ``self.other(a)`` becomes
    ``_nj_other(self_x, a)``, a call of the other method's compiled function (bound under that
    name in a copy of the module's names), with the members it reads; one that changes
    members is a statement of its own, whose members are assigned back
    (``self_y = _nj_other(self_x, a)[0]``).  What a method reads and writes counts what the
    methods it calls do (a fixed point over the class).  What this form cannot do (a
    property read, a call of a writing method inside an expression, a static method called
    through self) is the method's refusal, raised when it is called.

The text is built as for a lambda (numjit.extending): the method's lines at their own line
numbers under a factory def, in a file of the class's name, recorded for numjit.capture.

The scalar members live in one record of a structured array (``_Values``), the arrays in a
dict and, as address, extents and strides, in the record too.  An instance is given to
compiled code as that record (``_nj_rec``; _classify.c takes it for the instance): one state
for Python and compiled code.
The record's last field, a byte named ``_nj_CLASS_N``, gives each class a record type of its
own (typer_record.c reads the class's name from it); the class's methods and properties are
registered for that type with numjit.extending, so ``p.m(...)``, ``p.prop`` and
``p.prop = v`` in compiled code compile the method's own def with the record as ``self``,
and ``p.s(...)`` of a static method calls its compiled function (_StaticOnInstance).
Numba's special methods (``_DUNDERS``) run compiled when Python uses them, and are
registered for compiled code too (typer_ext.c's ty_ext_special: len, [], operators).

The record is the payload of a counted block (_numjit.instance_block: the CgMemInfo header
before it, as codegen's IR newrec makes one), so an instance can be made in compiled code
too: the class called there is answered by ``constructor`` (through numjit.extending's hook),
a def that makes the block (``numba._nj_new_instance``, lib/instance.c) and runs the class's
``__init__`` compiled on it (registered as the method ``_nj_init``).  An instance compiled
code returns comes back as its record's bytes owning the block, which ``_boxer`` gives to the
class (``_from_block``); an instance Python made is found again by its record's address
(``_live``), with the arrays it holds.

Compiled code counts instances as it counts arrays, so lists and tuples of them work there.
``Cls.class_type`` is Numba's ClassType (numjit.types), whose ``instance_type`` is what
``numba.typeof`` gives for an instance.

Not supported yet, each a clear error where it is used: assigning an array member in compiled
code (so an instance whose __init__ does cannot be made there), instances as members of
instances (a DeferredType or ClassInstanceType in the spec), lists or tuples of instances
crossing to or from Python, the refusals of the second form above, methods with defaults or
keywords, members of types other than numbers and arrays.
"""

import ast
import inspect
import itertools
import weakref

import numpy as _np

from . import _numjit, capture
from . import types as _types
from .errors import UnsupportedError, TypingError

_serial = itertools.count(1)
_by_mark = {}                          # the record's last field name -> the class
_live = weakref.WeakValueDictionary()  # a record's address -> the _Values of a live instance

# The special methods Numba 0.56 puts on a jitclass's Python class (jitclass/boxing.py): each
# runs compiled, as the other methods do; a class's other special methods are left out.
_DUNDERS = frozenset(
    "__abs__ __bool__ __complex__ __contains__ __float__ __getitem__ __hash__ __index__ "
    "__int__ __len__ __setitem__ __str__ __eq__ __ne__ __ge__ __gt__ __le__ __lt__ __add__ "
    "__floordiv__ __lshift__ __mod__ __mul__ __neg__ __pos__ __pow__ __rshift__ __sub__ "
    "__truediv__ __and__ __or__ __xor__ __iadd__ __ifloordiv__ __ilshift__ __imod__ "
    "__imul__ __ipow__ __irshift__ __isub__ __itruediv__ __iand__ __ior__ __ixor__".split())


def jitclass(cls_or_spec=None, spec=None):
    """Numba's jitclass: @jitclass, @jitclass(spec), jitclass(cls, spec)."""
    if cls_or_spec is not None and isinstance(cls_or_spec, type):
        return _make(cls_or_spec, spec)
    if spec is None:
        spec = cls_or_spec
    return lambda cls: _make(cls, spec)


def _members(cls, spec):
    out = {}
    items = spec.items() if isinstance(spec, dict) else (spec or [])
    for item in items:
        try:
            name, typ = item
        except (TypeError, ValueError):
            raise TypeError(f"jitclass spec must be a list of (name, type) pairs or a dict, "
                            f"not {spec!r}") from None
        out[name] = typ
    for name, typ in getattr(cls, "__annotations__", {}).items():
        out.setdefault(name, typ)
    for name, typ in out.items():
        if isinstance(typ, str):
            typ = out[name] = _types.from_spelling(typ)
        if isinstance(typ, (_types.ClassInstanceType, _types.DeferredType)):
            raise UnsupportedError(
                f"jitclass member '{name}' of {cls.__qualname__} has type {typ!r}: a jitclass "
                f"instance as a member of another is not supported by numjit yet (members "
                f"are numbers, booleans and arrays; docs/python.md, \"jitclass\")")
        if not isinstance(typ, (_types.Scalar, _types.Array)):
            raise UnsupportedError(
                f"jitclass member '{name}' of {cls.__qualname__} has type {typ!r}: numjit's "
                f"jitclass members are numbers, booleans and arrays")
    return out


def _class_node(cls):
    """(Snapshot, ast.ClassDef) of cls's source."""
    for v in vars(cls).values():
        f = v.fget if isinstance(v, property) else getattr(v, "__func__", v)
        if inspect.isfunction(f):
            got = capture.snapshot_of(f)
            if got is None:
                continue
            snap, first = got
            for n in ast.walk(snap.tree()):
                if isinstance(n, ast.ClassDef) and n.name == cls.__name__ and \
                        n.lineno <= first <= n.end_lineno:
                    return snap, n
    raise UnsupportedError(f"numjit cannot find the source of jitclass {cls.__qualname__}")


class _Method:
    """One method compiled: the members passed in (reads) and given back (writes).  Made in
    two steps: the syntax is read at decoration (__init__, then _Class.settle for the calls
    between methods); the text is built and compiled at the first call (build), when the
    module's other names exist."""

    def __init__(self, owner, node, snap, members, methods, init=False, static=False,
                 func=None):
        self.owner, self.name, self.init, self.static = owner, node.name, init, static
        self.node, self.snap, self.func = node, snap, func
        self.fn = self._disp = self._rec_disp = None
        self.refusal = None      # why the members-in, members-out form cannot run it
        self.on_record = False   # run as its own def on the instance's record (_Class.settle)
        args = node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.defaults or \
                args.posonlyargs:
            raise UnsupportedError(_where(snap, node, "numjit's jitclass methods take plain "
                                          "positional parameters (no defaults, *args or "
                                          "keywords) yet"))
        self.params = [a.arg for a in args.args]
        self.me = None
        if not static:
            if not self.params:
                raise TypeError(f"method {node.name} of {owner} has no self parameter")
            self.me, self.params = self.params[0], self.params[1:]
        me = self.me
        # self.other(...): calls of the class's methods; the statement ones may write members
        self.calls = []          # (call node, callee name, the statement it is, or None)
        funcs = set()
        stmts = {id(n.value): n for n in ast.walk(node) if isinstance(n, ast.Expr)}
        for n in ast.walk(node):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                    isinstance(n.func.value, ast.Name) and n.func.value.id == me and \
                    n.func.attr in methods:
                self.calls.append((n, n.func.attr, stmts.get(id(n))))
                funcs.add(id(n.func))
        used, written = [], []
        for n in ast.walk(node):
            if static or id(n) in funcs or not (isinstance(n, ast.Attribute) and
                                                isinstance(n.value, ast.Name) and
                                                n.value.id == me):
                continue
            if n.attr not in members:
                self.refusal = self.refusal or _where(
                    snap, n, f"'{me}.{n.attr}': numjit's jitclass methods that assign array "
                    f"members use the members and call the methods of their instance, not "
                    f"its properties, yet")
                continue
            if n.attr not in used:
                used.append(n.attr)
            if isinstance(n.ctx, ast.Store) and n.attr not in written:
                written.append(n.attr)
        self.order = list(members)
        self.used, self.written = set(used), set(written)
        self.returns_value = any(isinstance(n, ast.Return) and n.value is not None
                                 for n in ast.walk(node))

    @property
    def reads(self):
        return [] if self.init or self.static else [m for m in self.order if m in self.used]

    @property
    def writes(self):
        return [m for m in self.order if m in self.written]

    def build(self, globals_):
        """The Python function whose text numjit compiles (see the module doc)."""
        node, snap, me, wr = self.node, self.snap, self.me, self.writes
        lines = snap.text.splitlines()
        text = [ln + "\n" for ln in lines[:node.end_lineno]]
        text[:node.lineno - 1] = ["\n"] * (node.lineno - 1)

        def edit(i, a, b, new):
            ln = text[i].encode()
            text[i] = (ln[:a] + new.encode() + ln[b:]).decode()
        spans = []
        funcs = {id(c.func) for c, _, _ in self.calls}
        for n in ast.walk(node):
            if me and isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and \
                    n.value.id == me and id(n) not in funcs:
                # `self.x` -> `self_x`: the same length, so the columns stay put
                spans.append((n.lineno - 1, n.col_offset, n.end_col_offset, f"{me}_{n.attr}"))
            elif wr and isinstance(n, ast.Return):
                tail = ", ".join(f"{me}_{w}" for w in wr)
                if n.value is None:
                    spans.append((n.lineno - 1, n.col_offset, n.end_col_offset,
                                  f"return ({tail},)"))
                else:
                    v = n.value
                    spans.append((v.end_lineno - 1, v.end_col_offset, v.end_col_offset,
                                  f"), {tail}"))
                    spans.append((n.lineno - 1, n.col_offset, v.col_offset, "return("))
        for c, callee, stmt in self.calls:
            spans.extend(self._call_spans(c, callee, stmt))
        for i, a, b, new in sorted(spans, key=lambda s: (s[0], s[1], s[2]), reverse=True):
            edit(i, a, b, new)
        for d in node.decorator_list:
            for i in range(d.lineno - 1, d.end_lineno):
                text[i] = "\n"
        head = node.lineno - 1
        if node.body[0].lineno - 1 == head:
            raise UnsupportedError(_where(snap, node, "numjit needs a jitclass method's body "
                                          "on the lines after its def"))
        ins = [f"{me}_{m}" for m in self.reads] + self.params
        edit(head, 0, len(text[head].encode()) - 1,
             f"{' ' * node.col_offset}def {node.name}({', '.join(ins)}):")
        body_indent = " " * node.body[0].col_offset
        if wr and not self.returns_value:
            text.append(f"{body_indent}return ({', '.join(f'{me}_{w}' for w in wr)},)\n")
        text[max(0, head - 1)] = "def _nj_make():\n"
        text.append(f"{' ' * node.col_offset}return {node.name}\n")
        src = "".join(text)
        made = {}
        exec(capture._orig_compile(src, snap.filename, "exec", dont_inherit=True), globals_,
             made)
        capture._record(made["_nj_make"].__code__, capture.Snapshot(snap.filename, src))
        self.fn = made["_nj_make"]()
        self.fn.__qualname__ = f"{self.owner}.{node.name}"

    def _call_spans(self, c, callee, stmt):
        """`self.other(a)` -> `_nj_other(self_x, a)`; a statement that calls a method writing
        members assigns them back: `self_y = _nj_other(self_x, a)[0]`."""
        m = self.cls.methods[callee]
        me = self.me
        ins = [f"{me}_{r}" for r in m.reads]
        sep = ", " if ins and c.args else ""
        f = c.func
        out = [(f.lineno - 1, f.col_offset, f.end_col_offset + 1,
                f"_nj_{callee}({', '.join(ins)}{sep}")]
        if m.writes:
            targets = [f"{me}_{w}" for w in m.writes]
            if m.returns_value:
                targets.insert(0, "_nj_unused")
            prefix = f"{targets[0]} = " if len(targets) == 1 else ", ".join(targets) + " = "
            out.append((stmt.lineno - 1, stmt.col_offset, stmt.col_offset, prefix))
            if len(targets) == 1:
                out.append((c.end_lineno - 1, c.end_col_offset, c.end_col_offset, "[0]"))
        return out

    def dispatcher(self):
        if self._disp is None:
            self.cls.ensure()
        return self._disp

    def record_dispatcher(self):
        """The method's own def compiled with the instance (its record) as self."""
        if self._rec_disp is None:
            from .dispatcher import Dispatcher
            self._rec_disp = Dispatcher(self.func, {})
        return self._rec_disp


class _Class:
    """The methods of one jitclass, settled together (calls between them) and built at the
    first call of any of them."""

    def __init__(self, owner, methods, globals_, arrays):
        self.owner, self.methods, self.globals = owner, methods, globals_
        self.built = False
        for m in methods.values():
            m.cls = self
        self.settle(arrays)

    def settle(self, arrays):
        """Reads and writes through calls, to a fixed point; then which methods run on the
        record: those that assign no array member, themselves or through the methods they
        call (compiled code cannot give an array it made to the instance yet).  The others
        take their members in and give the changed ones back, where a call of a method that
        writes members is a statement of its own; what that form cannot do is the method's
        refusal, raised when it is called."""
        changed = True
        while changed:
            changed = False
            for m in self.methods.values():
                for c, callee, stmt in m.calls:
                    o = self.methods[callee]
                    if o.static or o.init:
                        m.refusal = m.refusal or _where(
                            m.snap, c, f"numjit's jitclass methods call the instance's plain "
                            f"methods, not {callee}, yet")
                        continue
                    if o.written and stmt is None:
                        m.refusal = m.refusal or _where(
                            m.snap, c, f"'{m.me}.{callee}(...)' changes members of the "
                            f"instance: in a method that assigns array members, numjit "
                            f"calls such a method only as a statement of its own")
                    reads = o.used - m.used
                    writes = o.written - m.written
                    if reads or writes:
                        m.used |= reads | writes
                        m.written |= writes
                        changed = True
        for m in self.methods.values():
            m.on_record = not m.static and m.func is not None and not (m.written & arrays) \
                and not any(self.methods[callee].static or self.methods[callee].init
                            for _, callee, _ in m.calls)
        changed = True
        while changed:       # a method calling a refused one in the members form is refused
            changed = False
            for m in self.methods.values():
                if m.refusal or m.on_record:
                    continue
                for c, callee, _ in m.calls:
                    o = self.methods[callee]
                    if o.refusal and not o.static and not o.init:
                        m.refusal = o.refusal
                        changed = True
                        break

    def ensure(self):
        if self.built:
            return
        from .dispatcher import Dispatcher
        g = dict(self.globals)   # the module's names now, and the methods as _nj_NAME
        for m in self.methods.values():
            if not m.refusal:
                m.build(g)
        for name, m in self.methods.items():
            if m.refusal:
                continue
            m._disp = Dispatcher(m.fn, {})
            g["_nj_" + name] = m._disp
        self.built = True


def _where(snap, node, message):
    line = snap.text.splitlines()[node.lineno - 1]
    col = node.col_offset + 1
    return (f"{snap.filename}:{node.lineno}:{col}: error: {message}\n"
            f"{node.lineno:5d} | {line}\n      | {' ' * (col - 1)}^\n")


def _store(members, name, value, owner):
    typ = members[name]
    if isinstance(typ, _types.Array):
        a = _np.asarray(value)
        if a.ndim != typ.ndim:
            raise TypeError(f"cannot store a {a.ndim}-d array in member '{name}' of {owner} "
                            f"({typ})")
        if a.dtype != typ.dtype.dtype:
            raise TypeError(f"cannot store an array of {a.dtype} in member '{name}' of "
                            f"{owner} ({typ})")
        if not a.flags.writeable:
            raise TypeError(f"cannot store a read-only array in member '{name}' of {owner} "
                            f"({typ})")
        if (typ.layout == "C" and not a.flags.c_contiguous) or \
                (typ.layout == "F" and not a.flags.f_contiguous):
            raise TypeError(f"cannot store an array that is not {typ.layout}-contiguous in "
                            f"member '{name}' of {owner} ({typ})")
        return a
    return typ.dtype.type(value)


def _box(value):
    return value.item() if isinstance(value, _np.generic) else value


class _JitInstance:
    """Base of the classes @jitclass makes (see the module doc)."""
    __slots__ = ("_nj_values", "_nj_rec")


class _Values:
    """An instance's members: the scalars in one record of a structured array (the record
    compiled code is given: one state for both sides), the arrays in a dict, each described
    in the record too (its address, extents and byte strides: _record_dtype).  The record is
    the payload of a counted block (_numjit.instance_block, the CgMemInfo header before it),
    as compiled code makes instances, and block, the uint8 array over it, holds the Python
    side's reference; an instance compiled code made comes with its own block."""
    __slots__ = ("buf", "arrays", "__weakref__")

    def __init__(self, dtype, arrays, block=None):
        made = block is None
        if made:
            block = _numjit.instance_block(dtype.itemsize)
        self.buf = _np.frombuffer(block, dtype)   # writeable, as block is
        self.arrays = {m: None for m in arrays}
        for m in arrays:
            self[m] = None
        if arrays:   # the arrays are held here: found again when compiled code returns it
            _live[_address(block)] = self

    def __getitem__(self, name):
        if name in self.arrays:
            return self.arrays[name]
        return self.buf[name][0]

    def __setitem__(self, name, value):
        if name not in self.arrays:
            self.buf[name][0] = value
            return
        self.arrays[name] = value
        rec, a = self.buf[0], value
        names = _array_fields(self.buf.dtype, name)
        # a member never set is empty, at a valid address: compiled code reading past its end
        # (as it may without boundscheck) reads zeros, never address 0
        rec[names[0]] = _UNSET.ctypes.data if a is None else a.ctypes.data
        nd = (len(names) - 1) // 2
        for k in range(nd):
            rec[names[1 + k]] = 0 if a is None else a.shape[k]
            rec[names[1 + nd + k]] = 0 if a is None else a.strides[k]


_UNSET = _np.zeros(8)


def _array_fields(dtype, name):
    """The names of the record's fields that describe array member name (_record_dtype)."""
    names = dtype.names
    k = next(i for i, f in enumerate(names) if f.startswith(name + "$"))
    nd = int(names[k].split("$")[2])
    return names[k:k + 1 + 2 * nd]


def _boxer(spelling):
    """The boxer of the instances of the class whose record type is spelled so: a callable
    taking the record's bytes as compiled code gives them back (_record.c, record_result)."""
    mark = spelling[:spelling.rfind("[type=uint8")]
    mark = mark[mark.rfind(",") + 1:]
    cls = _by_mark.get(mark)
    if cls is None:
        raise TypeError(f"numjit: no jitclass has the record type {spelling}")
    return cls._nj_from_block


def _address(a):
    return a.__array_interface__["data"][0]


def _from_block(cls, block):
    """An instance of cls over block, the bytes of an instance's record that compiled code
    returned (holding a reference to its block): the live _Values of that record when Python
    has one (an instance made in Python, whose array members it holds), else new ones."""
    values = _live.get(_address(block)) if cls._nj_arrays else None
    if values is None:
        values = _Values(cls._nj_dtype, cls._nj_arrays, block)
    obj = object.__new__(cls)
    obj._nj_values = values
    obj._nj_rec = values.buf[0]
    return obj


def _call(self, method, args):
    cls = type(self)
    if method.on_record:
        for m in method.used:
            if self._nj_values[m] is None:
                raise ValueError(f"member '{m}' of {cls.__name__} was never set")
        return method.record_dispatcher()(self, *args)
    if method.refusal:
        raise UnsupportedError(method.refusal)
    vals = [self._nj_values[m] for m in method.reads]
    for m, v in zip(method.reads, vals):
        if v is None:
            raise ValueError(f"member '{m}' of {cls.__name__} was never set")
    res = method.dispatcher()(*vals, *args)
    if not method.writes:
        return res
    if method.returns_value:
        value, got = res[0], res[1:]
    else:
        value, got = None, res
    for m, v in zip(method.writes, got):
        self._nj_values[m] = _store(cls._nj_members, m, v, cls.__name__)
    return value


def _make(cls, spec):
    members = _members(cls, spec)
    snap, cnode = _class_node(cls)
    globals_ = next((getattr(v, "__func__", v).__globals__ for v in vars(cls).values()
                     if inspect.isfunction(getattr(v, "__func__", v))), {})
    nodes = {n.name: n for n in cnode.body if isinstance(n, ast.FunctionDef) and not any(
        isinstance(d, ast.Attribute) and d.attr == "setter" for d in n.decorator_list)}
    ns = {"__slots__": (), "__module__": cls.__module__, "__doc__": cls.__doc__,
          "_nj_members": members}
    owner = cls.__qualname__
    plain = {n for n, v in vars(cls).items()
             if inspect.isfunction(v) and (not n.startswith("__") or n in _DUNDERS)}
    methods = {}

    def method_of(fname, key=None, node=None, **kw):
        node = node or nodes.get(fname)
        if node is None:
            raise UnsupportedError(f"numjit cannot find the def of {owner}.{fname}")
        m = methods[key or fname] = _Method(owner, node, snap, members, plain, **kw)
        return m

    init = None
    for name, v in vars(cls).items():
        if name == "__init__":
            init = method_of(name, init=True, func=v)
        elif isinstance(v, staticmethod):
            m = method_of(name, static=True)
            ns[name] = staticmethod((lambda m: lambda *args: m.dispatcher()(*args))(m))
        elif isinstance(v, property):
            get = method_of(v.fget.__name__, key=f"{name}$get", func=v.fget) \
                if v.fget else None
            put = method_of(name, key=f"{name}$set", node=_setter_node(cnode, name),
                            func=v.fset) \
                if v.fset else None
            ns[name] = property(
                (lambda self, m=get: _call(self, m, ())) if get else None,
                (lambda self, x, m=put: _call(self, m, (x,))) if put else None)
        elif name in plain:
            m = method_of(name, func=v)
            ns[name] = (lambda m: lambda self, *args: _call(self, m, args))(m)
        elif name in members or name in ("__dict__", "__weakref__", "__module__",
                                         "__qualname__", "__doc__", "__annotations__"):
            continue
        elif name == "__hash__" and v is None:
            ns[name] = None    # __eq__ without __hash__: unhashable, as Python makes it
        # other special methods are left out of the class, as Numba leaves them out
    arrays = [m for m, t in members.items() if isinstance(t, _types.Array)]
    _Class(owner, methods, globals_, set(arrays))
    for name in members:
        ns[name] = property(
            lambda self, n=name: _box(self._nj_values[n]),
            lambda self, x, n=name: self._nj_values.__setitem__(
                n, _store(type(self)._nj_members, n, x, type(self).__name__)))

    dtype = _record_dtype(cls.__name__, members)

    init_sig = inspect.signature(vars(cls)["__init__"]) if init is not None else None

    def __init__(self, *args, **kwargs):
        self._nj_values = _Values(dtype, arrays)
        self._nj_rec = self._nj_values.buf[0]
        if init is not None:
            if kwargs:   # Spline(5, knots=k): bound as Python binds the def's parameters
                bound = init_sig.bind(self, *args, **kwargs)
                bound.apply_defaults()
                args = tuple(bound.arguments.values())[1:]
            _call(self, init, args)
        elif args or kwargs:
            raise TypeError(f"{owner}() takes no arguments")

    ns["__init__"] = __init__
    made = type(cls.__name__, (_JitInstance,), ns)
    made.__qualname__ = cls.__qualname__
    made._nj_made_refusal = None   # the mark _classify.c knows a jitclass by (its _nj_rec)
    made.class_type = _types.ClassType(
        cls, members,
        {n: v for n, v in vars(cls).items() if inspect.isfunction(v)},
        {n: v for n, v in vars(cls).items() if isinstance(v, property)},
        {n: v.__func__ for n, v in vars(cls).items() if isinstance(v, staticmethod)})
    made._numba_type_ = made.class_type.instance_type
    made._nj_dtype, made._nj_arrays = dtype, arrays
    made._nj_from_block = classmethod(_from_block).__get__(None, made)
    made._nj_init_params = len(init.params) if init is not None else 0
    made._nj_has_init = init is not None
    made._nj_constructors = {}
    _by_mark[dtype.names[-1]] = made
    _register_compiled(cls, dtype)
    return made


def _record_dtype(name, members):
    """The structured dtype of an instance's members, aligned as a C struct: a scalar member is
    a field of its type; an array member is int64 fields, its address (named
    "NAME$DTYPE$NDIM$LAYOUT", which tells compiled code the array's type), its extents
    ("NAME$nK") and its byte strides ("NAME$sK"), written whenever the member is set; a last
    byte whose field name is the class's own makes the record type compiled code sees the
    class's alone (numjit.extending finds its methods by that type's spelling, typer_record.c
    reads the class's name and the array members there)."""
    fields = []
    for m, t in members.items():
        if isinstance(t, _types.Scalar):
            fields.append((m, t.dtype))
            continue
        fields.append((f"{m}${t.dtype.name}${t.ndim}${t.layout}", _np.int64))
        fields += [(f"{m}$n{k}", _np.int64) for k in range(t.ndim)]
        fields += [(f"{m}$s{k}", _np.int64) for k in range(t.ndim)]
    fields.append((f"_nj_{name}_{next(_serial)}", _np.uint8))
    return _np.dtype(fields, align=True)


def _register_compiled(cls, dtype):
    """Methods and properties of cls for compiled code: `obj.m(...)`, `obj.p` and `obj.p = v`
    there call the method's (the getter's, the setter's) own def, compiled with the record as
    `self`."""
    from . import extending
    spelling = _numjit.typeof(_np.zeros(1, dtype)[0])
    methods, attributes = {}, {}
    for name, v in vars(cls).items():
        if name == "__init__" and inspect.isfunction(v):   # the constructor's (constructor)
            methods["_nj_init"] = v
        elif isinstance(v, staticmethod):   # `obj.s(...)`: Numba's static method on an instance
            methods[name] = _StaticOnInstance(cls.__qualname__, name, v.__func__)
        elif isinstance(v, property):
            if v.fget is not None:
                attributes[name] = v.fget
            if v.fset is not None:    # `obj.p = v`: typer_ext.c's ty_ext_setattr asks for it
                methods[f"{name}$set"] = v.fset
        elif inspect.isfunction(v) and (not name.startswith("__") or name in _DUNDERS):
            methods[name] = v     # a special method: len(obj), obj[i], obj == o, ... there
    extending.register_owner(spelling, methods, attributes)


class _StaticOnInstance:
    """The implementation of `obj.s(a, ...)` for a static method s, as numjit.extending's
    typing functions give it: per number of arguments, a def `(self, a0, ...)` that calls the
    static method's own compiled function (a text made here and recorded for capture, as
    numjit.extending makes one for a lambda)."""

    def __init__(self, owner, name, func):
        self.owner, self.name, self.func = owner, name, func
        self.by_arity = {}
        self.disp = None

    def __call__(self, *types):
        n = len(types) - 1
        if n not in self.by_arity:
            from .dispatcher import Dispatcher
            if self.disp is None:
                self.disp = Dispatcher(self.func, {})
            args = ", ".join(f"a{i}" for i in range(n))
            text = (f"def _nj_make(_nj_static):\n"
                    f" def {self.name}(self{', ' if n else ''}{args}):\n"
                    f"  return _nj_static({args})\n"
                    f" return {self.name}\n")
            filename = f"<jitclass {self.owner}.{self.name}>"
            made = {}
            exec(capture._orig_compile(text, filename, "exec", dont_inherit=True), {}, made)
            capture._record(made["_nj_make"].__code__, capture.Snapshot(filename, text))
            self.by_arity[n] = made["_nj_make"](self.disp)
        return self.by_arity[n]


def _setter_node(cnode, name):
    for n in cnode.body:
        if isinstance(n, ast.FunctionDef) and n.name == name and any(
                isinstance(d, ast.Attribute) and d.attr == "setter" for d in n.decorator_list):
            return n
    raise UnsupportedError(f"numjit cannot find the setter of property {name}")


def constructor(cls, nargs):
    """The def compiled code calls for `cls(a0, ...)` with nargs arguments (numjit.extending's
    hook gives it as the implementation): a new instance (lib/instance.c's
    numba._nj_new_instance, a zeroed record in a counted block) on which the class's own
    __init__ runs compiled with the record as self, as Numba's constructor does."""
    if nargs != cls._nj_init_params:
        raise TypingError(f"{cls.__name__}() takes {cls._nj_init_params} positional "
                          f"arguments but {nargs} were given")
    fn = cls._nj_constructors.get(nargs)
    if fn is None:
        import numjit   # `numba` in the text (sys.modules['numba'] is numjit)
        args = ", ".join(f"a{i}" for i in range(nargs))
        init = f"  self._nj_init({args})\n" if cls._nj_has_init else ""
        text = (f"def _nj_make(_nj_dtype):\n"
                f" def {cls.__name__}({args}):\n"
                f"  self = numba._nj_new_instance(_nj_dtype)\n"
                f"{init}"
                f"  return self\n"
                f" return {cls.__name__}\n")
        filename = f"<jitclass {cls.__qualname__}>"
        made = {}
        exec(capture._orig_compile(text, filename, "exec", dont_inherit=True),
             {"numba": numjit}, made)
        capture._record(made["_nj_make"].__code__, capture.Snapshot(filename, text))
        fn = cls._nj_constructors[nargs] = made["_nj_make"](cls._nj_dtype)
    return fn


def is_jitclass(value):
    return isinstance(value, type) and issubclass(value, _JitInstance)
