"""python3 -m numjit — run a Numba program with numjit answering ``import numba``.

    python3 -m numjit PROGRAM.py [ARGS...]     run a file as __main__
    python3 -m numjit -m MODULE [ARGS...]      run a module as __main__ (-m pytest tests/)
    python3 -m numjit -c CODE [ARGS...]        run a string
    python3 -m numjit --path                   print the directory that, put on PYTHONPATH,
                                               makes every Python process answer `import
                                               numba` with numjit

The program runs unchanged: numjit.install_as_numba() is done first, so ``import numba`` and
``from numba.core.errors import ...`` give numjit's answers (numjit.dropin).  Python processes
the program starts (pytest workers, multiprocessing with 'spawn', subprocess) inherit the same
through the environment: the directory printed by --path goes in front of PYTHONPATH and
NUMJIT_AS_NUMBA=1 is set; that directory holds only a package `numba` whose __init__ hands
the name to numjit (NUMJIT_AS_NUMBA=0 makes it step aside for the real Numba).
"""

import os
import runpy
import sys

USAGE = ("usage: python3 -m numjit PROGRAM.py [ARGS...] | -m MODULE [ARGS...] | "
         "-c CODE [ARGS...] | --path")


def dropin_path():
    """The directory holding the `numba` package that stands for numjit."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "dropin_path")


def _export_environment():
    here = dropin_path()
    parts = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != here]
    pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if pkg_parent not in parts:
        parts.append(pkg_parent)          # children must find numjit itself too
    os.environ["PYTHONPATH"] = os.pathsep.join([here] + parts)
    os.environ["NUMJIT_AS_NUMBA"] = "1"


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr if not argv else sys.stdout)
        return 2 if not argv else 0
    if argv[0] == "--path":
        print(dropin_path())
        return 0
    import numjit
    numjit.install_as_numba()
    _export_environment()
    if argv[0] == "-m":
        if len(argv) < 2:
            print(USAGE, file=sys.stderr)
            return 2
        sys.argv = [argv[1]] + argv[2:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    elif argv[0] == "-c":
        if len(argv) < 2:
            print(USAGE, file=sys.stderr)
            return 2
        sys.argv = ["-c"] + argv[2:]
        code = compile(argv[1], "<string>", "exec")
        exec(code, {"__name__": "__main__", "__builtins__": __builtins__})  # noqa: S102
    else:
        path = argv[0]
        if not os.path.exists(path):
            print(f"python3 -m numjit: can't open file {path!r}", file=sys.stderr)
            return 2
        sys.argv = argv[:]
        sys.path[0] = os.path.dirname(os.path.abspath(path))
        runpy.run_path(path, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
