"""numba.typed.List and numba.typed.Dict for Python code: containers whose items all have one
type, kept in the memory compiled code works on, as Numba's.

A List is the NjList of compiled code (its storage is _numjit.TypedListBase,
python/numjit/_typedlist.c): items are converted to its item type when they go in (an int
appended to a list of float64 is stored as a float; a float into a list of int64 is Numba's
TypingError), so what Python reads back is what Numba gives.  The item type is the first
item's (int -> int64, float -> float64, bool, complex -> complex128, str -> unicode_type, a
NumPy scalar its dtype) or the one given to ``List.empty_list(item_type)``.  A compiled
function takes it as the list itself (no copy, nothing written back: the items compiled code
changes are the ones Python reads).  Items of other types (arrays, tuples, lists) are refused
with UnsupportedError for now.

numba.typed.Dict is the runtime's dict itself (its storage is _numjit.TypedDictBase,
python/numjit/_typeddict.c): compiled code and Python share it, an argument crosses as the
dict and a dict compiled code returns comes back as a Dict holding the same table, so changes
made on either side are seen on the other; keys and values are numbers and strings.
"""
import operator as _operator
from collections.abc import MutableMapping as _MutableMapping
from collections.abc import MutableSequence as _MutableSequence

import numpy as _np

from . import types as _types
from .errors import UnsupportedError

from ._numjit import TypedDictBase as _DictBase
from ._numjit import TypedListBase as _ListBase

__all__ = ["List", "Dict"]

_CASTS = {"b": bool, "i": int, "u": int, "f": float, "c": complex}
# item codes of the typed containers' storage: numjit.h's NjDType order, then unicode_type
_ITEMS = ("bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 "
          "complex64 complex128 unicode_type").split()


def _code_of(t):
    """The item code of a numjit type (or "unicode_type")."""
    return _ITEMS.index("unicode_type" if t == "unicode_type" else
                        {"boolean": "bool"}.get(t.name, t.name))


def _type_of(x):
    """The numjit type of a typed list's first item (Numba's typeof of it)."""
    if isinstance(x, bool):
        return _types.boolean
    if isinstance(x, int):
        return _types.int64
    if isinstance(x, float):
        return _types.float64
    if isinstance(x, complex):
        return _types.complex128
    if isinstance(x, str):
        return "unicode_type"
    if isinstance(x, _np.generic) and x.dtype.kind in _CASTS:
        return _types.from_spelling(x.dtype.name)
    raise UnsupportedError(f"numjit's numba.typed.List holds numbers and strings in Python "
                           f"code, not {type(x).__name__} (docs/python.md)")


def _item_type(t):
    """The numjit type (or "unicode_type") an item_type argument names."""
    if isinstance(t, _types.Scalar):
        return t
    name = getattr(t, "name", t)
    if name in ("unicode_type", "string"):
        return "unicode_type"
    try:
        return _types.from_spelling(str(name)) if isinstance(name, str) else None
    except ValueError:
        pass
    raise UnsupportedError(f"numjit's numba.typed.List holds numbers and strings in Python "
                           f"code, not {name} (docs/python.md)")


class List(_ListBase, _MutableSequence):
    """Numba's typed list (numba.typed.List): List(), List(iterable),
    List.empty_list(item_type); the storage compiled code works on."""

    def __init__(self, iterable=(), allocated=-1):
        self.extend(iterable)

    @classmethod
    def empty_list(cls, item_type, allocated=-1):
        """An empty typed list of item_type (types.int64, types.float64, ...)."""
        lst = cls()
        lst._set_type(_code_of(_item_type(item_type)))
        return lst

    @property
    def _item(self):
        c = self._item_code()
        return None if c is None else _ITEMS[c]

    @property
    def _nj_item_dtype(self):
        """The item type's name ("float64", "unicode_type"), None while untyped."""
        return self._item

    @property
    def _numba_type_(self):
        return f"ListType[{self._item if self._item is not None else 'Undefined'}]"

    def _typed_by(self, x):
        if self._item_code() is None:
            self._set_type(_code_of(_type_of(x)))

    def _index(self, i, end=False):
        n = len(self)
        i = _operator.index(i)
        if i < 0:
            i += n
        if end:
            return min(max(i, 0), n)
        if not 0 <= i < n:
            raise IndexError("list index out of range")
        return i

    def append(self, x):
        self._typed_by(x)
        _ListBase.append(self, x)

    def insert(self, i, x):
        self._typed_by(x)
        self._insert(self._index(i, True), x)

    def extend(self, iterable):
        if iterable is self:
            iterable = self._items()
        for x in iterable:
            self.append(x)

    def __iadd__(self, other):
        self.extend(other)
        return self

    def __getitem__(self, i):
        if isinstance(i, slice):
            out = List.empty_list(self._item) if self._item is not None else List()
            for x in self._items()[i]:
                out.append(x)
            return out
        return self._get(self._index(i))

    def __setitem__(self, i, x):
        if isinstance(i, slice):
            items = self._items()
            new = List.empty_list(self._item) if self._item is not None else List()
            new.extend(x)
            items[i] = new._items()
            self.clear()
            for v in items:
                self.append(v)
            return
        self._set(self._index(i), x)

    def __delitem__(self, i):
        if isinstance(i, slice):
            items = self._items()
            del items[i]
            self.clear()
            for v in items:
                self.append(v)
            return
        self._delete(self._index(i))

    def __contains__(self, x):
        return x in self._items()

    def index(self, x, start=0, stop=None):
        items = self._items()
        try:
            return items.index(x, start, len(items) if stop is None else stop)
        except ValueError:
            raise ValueError("item not in list") from None

    def remove(self, x):
        try:
            i = self._items().index(x)
        except ValueError:
            raise ValueError("list.remove(x): x not in list") from None
        self._delete(i)

    def count(self, x):
        return self._items().count(x)

    def pop(self, i=-1):
        if not len(self):
            raise IndexError("pop from empty list")
        i = self._index(i)
        x = self._get(i)
        self._delete(i)
        return x

    def reverse(self):
        items = self._items()
        for i, x in enumerate(reversed(items)):
            self._set(i, x)

    def sort(self, key=None, reverse=False):
        for i, x in enumerate(sorted(self._items(), key=key, reverse=reverse)):
            self._set(i, x)

    def copy(self):
        return self[:]

    def __eq__(self, other):
        """Numba's: equal to a typed list of equal items, never to a plain list."""
        return isinstance(other, List) and self._items() == other._items()

    def __ne__(self, other):
        return not self == other

    def __lt__(self, other):
        return self._items() < other._items()

    __hash__ = None

    def __str__(self):
        return f"[{', '.join(str(x) for x in self._items())}]"

    def __repr__(self):
        return f"{self._numba_type_}({self})"


# ---- numba.typed.Dict -------------------------------------------------------------------------
# item codes of numjit.h's NjDictItem: the NjDType order, then unicode_type
_DICT_ITEMS = _ITEMS


def _dict_item(t):
    """The item code of a key_type or value_type argument (types.int64, types.unicode_type)."""
    name = getattr(t, "name", t)
    name = {"boolean": "bool", "string": "unicode_type"}.get(name, name)
    if isinstance(name, str) and name in _DICT_ITEMS:
        return _DICT_ITEMS.index(name)
    raise UnsupportedError(f"numjit's numba.typed.Dict crosses between Python and compiled code "
                           f"with keys and values of numbers and strings, not {name} yet "
                           f"(docs/python.md)")


class _DictType:
    """Numba's DictType of a typed dict, as Dict._dict_type reports it."""

    def __init__(self, key_type, value_type):
        self.key_type, self.value_type = key_type, value_type

    def __str__(self):
        return f"DictType[{self.key_type},{self.value_type}]<iv=None>"

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, _DictType) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


class Dict(_DictBase, _MutableMapping):
    """Numba's typed dict (numba.typed.Dict): Dict.empty(key_type, value_type), or Dict()
    typed by its first item; the same storage as compiled code's dict."""

    def __new__(cls, dcttype=None, meminfo=None):
        return _DictBase.__new__(cls)

    def __init__(self, **kwargs):
        pass

    @classmethod
    def empty(cls, key_type, value_type):
        """A new empty Dict of keys of key_type and values of value_type."""
        d = cls()
        d._set_types(_dict_item(key_type), _dict_item(value_type))
        return d

    @property
    def _dict_type(self):
        t = self._types()
        return None if t is None else _DictType(*t)

    @property
    def _numba_type_(self):
        if not self._typed:
            raise TypeError("invalid operation on untyped dictionary")
        return self._dict_type

    @property
    def _typed(self):
        return self._types() is not None

    def _initialise_dict(self, key, value):
        self._set_types(self._type_of(key), self._type_of(value))

    def __getitem__(self, key):
        if not self._typed:
            raise KeyError(key)
        return _DictBase.__getitem__(self, key)

    def __setitem__(self, key, value):
        if not self._typed:
            self._initialise_dict(key, value)
        _DictBase.__setitem__(self, key, value)

    def __delitem__(self, key):
        if not self._typed:
            raise KeyError(key)
        _DictBase.__delitem__(self, key)

    def __str__(self):
        return "{" + ", ".join(f"{k}: {v}" for k, v in self._items_list()) + "}"

    def __repr__(self):
        return f"{self._dict_type}({self})"

    def get(self, key, default=None):
        if not self._typed or key not in self:
            return default
        return _DictBase.__getitem__(self, key)

    def setdefault(self, key, default=None):
        if not self._typed and default is not None:
            self._initialise_dict(key, default)
        if key not in self:
            self[key] = default
        return self[key]

    def copy(self):
        d = type(self)()
        self._copy_into(d)
        return d
