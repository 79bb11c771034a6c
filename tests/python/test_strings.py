"""Strings between Python and compiled code: a str argument read in place, a str result (also
in a tuple) given back as a Python str, and compiling a function that calls str() without a
NumPy FutureWarning (np.str is read while source.py looks for where a name comes from)."""
import warnings

import numjit


@numjit.njit
def shout(s, n):
    return s + '!' * n, len(s)


@numjit.njit
def label(n):
    return 'item ' + str(n)


def test_str_round_trip():
    r = shout('héllo', 2)
    assert r == ('héllo!!', 5)
    assert type(r[0]) is str
    assert shout('', 0) == ('', 0)


def test_no_future_warning_compiling_str_calls():
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert label(7) == 'item 7'
    assert not [w for w in seen if issubclass(w.category, FutureWarning)], seen
