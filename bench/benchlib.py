"""benchlib.py — what the benchmarks share: one workload source loaded twice, once under
real Numba and once under numjit (sys.modules["numba"] = numjit), so both compile the same
text side by side in one process."""
import importlib.util
import os
import sys


def load_file_under(lib, path, modname):
    """The module of the file at path, named modname, imported with `lib` ('numba' or
    'numjit') as the `numba` it imports."""
    saved = sys.modules.get("numba")
    if lib == "numjit":
        import numjit
        sys.modules["numba"] = numjit
    try:
        spec = importlib.util.spec_from_file_location(modname, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        if saved is not None:
            sys.modules["numba"] = saved
        elif lib == "numjit":
            sys.modules.pop("numba", None)
    return mod


def load_under(tmpdir, lib, text, name):
    """The module of source `text` (written to tmpdir/NAME_LIB.py) imported with `lib`
    ('numba' or 'numjit') as the `numba` it imports."""
    path = os.path.join(tmpdir, f"{name}_{lib}.py")
    with open(path, "w") as fh:
        fh.write(text)
    return load_file_under(lib, path, f"{name}_{lib}")
