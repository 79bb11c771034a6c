"""`numba`, standing for numjit: the package that `python3 -m numjit` (or PYTHONPATH set to
`python3 -m numjit --path`) puts first on the path, so that every Python process of a program
answers `import numba` with numjit.  With NUMJIT_AS_NUMBA=0 it steps aside: it takes its
directory off sys.path and imports the real Numba in its place."""
import os as _os
import sys as _sys

if _os.environ.get("NUMJIT_AS_NUMBA", "1") in ("0", ""):
    import importlib as _importlib
    _here = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
    _sys.path[:] = [p for p in _sys.path if _os.path.abspath(p or ".") != _here]
    del _sys.modules["numba"]
    _sys.modules["numba"] = _importlib.import_module("numba")
else:
    import numjit as _numjit
    _numjit.install_as_numba()
