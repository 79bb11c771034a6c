"""numba.typed.List for Python code: a list whose items all have one type, as Numba's.

Numba's typed list keeps its items in compiled memory; numjit's is a Python ``list`` subclass
whose items are converted to its item type when they go in (an int appended to a list of
float64 is stored as a float, a float appended to a list of int64 is truncated, as Numba's
cast does), so what Python reads back is what Numba gives.  The item type is the first item's
(int -> int64, float -> float64, bool, complex -> complex128, str -> unicode_type, a NumPy
scalar its dtype) or the one given to ``List.empty_list(item_type)``.  A compiled function
takes it as it takes a list (a list of numbers or of str): compiled code works on the items
and the changes are written back to the same object when the call returns, so the caller sees
them; an empty typed list passes its item type along (``_nj_item_dtype``).  Items of other
types (arrays, tuples, lists) are refused with UnsupportedError for now.

numba.typed.Dict is the runtime's dict itself (its storage is _numjit.TypedDictBase,
python/numjit/_typeddict.c): compiled code and Python share it, an argument crosses as the
dict and a dict compiled code returns comes back as a Dict holding the same table, so changes
made on either side are seen on the other; keys and values are numbers and strings.
"""
import numbers as _numbers
from collections.abc import MutableMapping as _MutableMapping

import numpy as _np

from . import types as _types
from .errors import TypingError, UnsupportedError

from ._numjit import TypedDictBase as _DictBase

__all__ = ["List", "Dict"]

_CASTS = {"b": bool, "i": int, "u": int, "f": float, "c": complex}
_RANK = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}


def _kind_dtype(t):
    return _np.dtype("bool" if t.name in ("bool", "boolean") else t.name)


def _kind(t):
    return _kind_dtype(t).kind


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


def _type_name(t):
    return t if isinstance(t, str) else t.name


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


class List(list):
    """Numba's typed list (numba.typed.List): List(), List(iterable),
    List.empty_list(item_type)."""

    def __init__(self, iterable=(), allocated=-1):
        super().__init__()
        self._item = None
        self.extend(iterable)

    @classmethod
    def empty_list(cls, item_type, allocated=-1):
        """An empty typed list of item_type (types.int64, types.float64, ...)."""
        lst = cls()
        lst._item = _item_type(item_type)
        return lst

    @property
    def _nj_item_dtype(self):
        """The item type's name, which the dispatcher reads off an empty typed list."""
        return None if self._item is None else _type_name(self._item)

    @property
    def _numba_type_(self):
        return f"ListType[{_type_name(self._item) if self._item is not None else 'Undefined'}]"

    def _cast(self, x):
        """x as an item: Numba's safe casts only (bool -> int -> float -> complex)."""
        t = _type_of(x)
        if self._item is None:
            self._item = t
        if self._item == "unicode_type" or t == "unicode_type":
            if self._item != t:
                raise TypingError(f"cannot store {_type_name(t)} in a typed list of "
                                  f"{_type_name(self._item)}")
            return x
        if _RANK[_kind(t)] > _RANK[_kind(self._item)]:
            raise TypingError(f"cannot safely cast {t.name} to {self._item.name}. Please cast "
                              "explicitly.")
        return _np.asarray(x).astype(_kind_dtype(self._item)).item()

    def append(self, x):
        super().append(self._cast(x))

    def insert(self, i, x):
        super().insert(i, self._cast(x))

    def extend(self, iterable):
        super().extend([self._cast(x) for x in iterable])

    def __iadd__(self, other):
        self.extend(other)
        return self

    def __setitem__(self, i, x):
        if isinstance(i, slice):
            super().__setitem__(i, [self._cast(v) for v in x])
        else:
            super().__setitem__(i, self._cast(x))

    def __getitem__(self, i):
        r = super().__getitem__(i)
        if isinstance(i, slice):
            out = List.empty_list(self._item) if self._item is not None else List()
            list.extend(out, r)
            return out
        return r

    def copy(self):
        return self[:]

    def __eq__(self, other):
        """Numba's: equal to a typed list of equal items, never to a plain list."""
        return isinstance(other, List) and list.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __str__(self):
        return f"[{', '.join(str(x) for x in self)}]"

    def __repr__(self):
        return f"{self._numba_type_}({self})"


# ---- numba.typed.Dict -------------------------------------------------------------------------
# item codes of numjit.h's NjDictItem: the NjDType order, then unicode_type
_DICT_ITEMS = ("bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 "
               "complex64 complex128 unicode_type").split()


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
