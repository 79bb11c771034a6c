"""run_with_numjit.py — run a Numba program with numjit standing in for Numba.

Usage:  /usr/bin/python3 tests/diff/run_with_numjit.py [--catch] PROGRAM.py [ARGS...]

The program is run as ``__main__`` (runpy.run_path, as ``python3 PROGRAM.py`` would) after
``sys.modules['numba']`` is set to the numjit package, so ``from numba import njit`` in the
program gives numjit's njit.  numjit is imported from ``$NUMJIT_BUILD/python`` (default
``build``; a relative path is taken from the current directory when it exists there, else
from the repository root), where the build places the ready-to-import package.

With ``--catch``, an exception escaping the program is printed to stdout as the line
``EXCEPTION <ClassName>`` followed by ``str(exception)`` (numjit's rendered diagnostic, with
``file:line:col: error:`` and a caret line), and the exit status is 3; the error tests read
that.  Without it the exception propagates as usual (traceback on stderr, status 1).
"""

import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def build_python_dir():
    """The folder holding the numjit package of the build named by $NUMJIT_BUILD."""
    build = os.environ.get("NUMJIT_BUILD", "build")
    if not os.path.isabs(build) and not os.path.isdir(build):
        build = os.path.join(ROOT, build)
    return os.path.join(os.path.abspath(build), "python")


def install_numjit_as_numba():
    sys.path.insert(0, build_python_dir())
    import numjit  # noqa: E402  (the path is set just above)
    sys.modules["numba"] = numjit
    return numjit


def main(argv):
    catch = False
    if argv and argv[0] == "--catch":
        catch = True
        argv = argv[1:]
    if not argv:
        sys.stderr.write(__doc__)
        return 2
    path = argv[0]
    install_numjit_as_numba()
    # As `python3 PROGRAM.py` does: argv names the program, its folder leads sys.path.
    sys.argv = list(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    if not catch:
        runpy.run_path(path, run_name="__main__")
        return 0
    try:
        runpy.run_path(path, run_name="__main__")
    except Exception as e:  # report any failure of the program, as text
        sys.stdout.flush()
        print("EXCEPTION", type(e).__name__)
        print(str(e))
        sys.stdout.flush()
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
