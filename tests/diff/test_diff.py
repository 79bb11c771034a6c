"""test_diff.py — differential tests: each program of tests/lang runs under real Numba and under
numjit, and the two outputs must agree line by line.

  tests/lang/NAME.py          a complete Numba program; its stdout under
                              `/usr/bin/python3 NAME.py` (real Numba) is the oracle, and
                              `run_with_numjit.py NAME.py` (numjit as `numba`) must print the
                              same lines.
  tests/lang/errors/NAME.py   a program whose first line is `# expect error: LINE:COL: TEXT`:
                              Numba must reject it too (nonzero exit), and under numjit it must
                              raise an exception whose message holds `NAME.py:LINE:COL: error:`,
                              TEXT, and a caret line under the source line.

Comparing two lines: each is cut into number tokens and the text between them.  The text must be
equal; integers (no '.', 'e', inf or nan) must be equal exactly; floats must agree within a
relative tolerance (1e-12 unless the line holds `[rtol=X]`, or the program a line
`# diff: rtol=X`), nan matches nan, infinities and signed zeros must match exactly.  An integer
never matches a float ('3' against '3.0' is a type difference).

The build used is $NUMJIT_BUILD (default `build`); when numjit cannot be imported from it, the
tests skip.  Numba's outputs are computed once per session, or kept across sessions in
$NUMJIT_DIFF_CACHE when set (keyed by the program's text and Numba's version).

Run:  /usr/bin/python3 -m pytest tests/diff -q            (all programs)
      /usr/bin/python3 tests/diff/test_diff.py FILE.py    (one program, with a readable diff)
"""

import glob
import hashlib
import math
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LANG = os.path.join(ROOT, "tests", "lang")
RUNNER = os.path.join(HERE, "run_with_numjit.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
TIMEOUT = 600

PROGRAMS = sorted(glob.glob(os.path.join(LANG, "*.py")))
ERROR_PROGRAMS = sorted(glob.glob(os.path.join(LANG, "errors", "*.py")))

DEFAULT_RTOL = 1e-12
_NUM = re.compile(r"[-+]?(?:(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|inf|nan|\d+)")
_LINE_RTOL = re.compile(r"\[rtol=([0-9.eE+-]+)\]")
_FILE_RTOL = re.compile(r"^# diff: rtol=([0-9.eE+-]+)\s*$", re.M)
_EXPECT = re.compile(r"^# expect error: (\d+):(\d+): (.*?)\s*$")


# ---- running -----------------------------------------------------------------------------------

def _env():
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.setdefault("NUMBA_DISABLE_JIT", "0")
    return env


def run_numba(path):
    """Runs PATH under real Numba: (returncode, stdout, stderr)."""
    p = subprocess.run([PYTHON, path], capture_output=True, text=True, timeout=TIMEOUT,
                       cwd=os.path.dirname(path), env=_env())
    return p.returncode, p.stdout, p.stderr


def run_numjit(path, catch=False):
    """Runs PATH with numjit as `numba`: (returncode, stdout, stderr)."""
    cmd = [PYTHON, RUNNER] + (["--catch"] if catch else []) + [path]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT,
                       env=_env())
    return p.returncode, p.stdout, p.stderr


_numba_cache = {}


def _numba_version():
    try:
        from importlib.metadata import version
        return version("numba")
    except Exception:
        return "?"


def numba_output(path):
    """Numba's stdout for PATH (asserting it ran cleanly), cached per session or on disk."""
    with open(path, "rb") as f:
        text = f.read()
    key = hashlib.sha256(text + _numba_version().encode()).hexdigest()[:24]
    if key in _numba_cache:
        return _numba_cache[key]
    cache_dir = os.environ.get("NUMJIT_DIFF_CACHE")
    cached = os.path.join(cache_dir, key + ".out") if cache_dir else None
    if cached and os.path.exists(cached):
        with open(cached) as f:
            out = f.read()
    else:
        rc, out, err = run_numba(path)
        assert rc == 0, f"{path} fails under real Numba (exit {rc}):\n{err[-3000:]}"
        if cached:
            os.makedirs(cache_dir, exist_ok=True)
            with open(cached + ".tmp", "w") as f:
                f.write(out)
            os.replace(cached + ".tmp", cached)
    _numba_cache[key] = out
    return out


_numjit_ok = None


def require_numjit():
    """Skips the test unless numjit imports from the build."""
    global _numjit_ok
    if _numjit_ok is None:
        code = ("import sys; sys.path.insert(0, sys.argv[1]); import numjit; "
                "from numjit import njit")
        sys.path.insert(0, HERE)
        try:
            import run_with_numjit
            pydir = run_with_numjit.build_python_dir()
        finally:
            sys.path.remove(HERE)
        p = subprocess.run([PYTHON, "-c", code, pydir], capture_output=True, text=True,
                           timeout=120)
        _numjit_ok = (p.returncode == 0, p.stderr.strip().splitlines()[-1:] or [""])
    if not _numjit_ok[0]:
        pytest.skip("numjit is not importable from the build: " + _numjit_ok[1][0])


# ---- comparing ---------------------------------------------------------------------------------

def _split(line):
    """Text pieces and number tokens, alternating: [text, num, text, num, ..., text]."""
    parts, pos = [], 0
    for m in _NUM.finditer(line):
        # A number glued to a name (int32, float64, x1) is part of the text; one glued to a
        # number is a complex number's signed imaginary part ((0.5+0.866j)).
        if m.start() > 0 and (line[m.start() - 1].isalpha() or line[m.start() - 1] == "_"):
            continue
        if m.group().lstrip("+-") in ("inf", "nan") and m.end() < len(line) and \
                (line[m.end()].isalnum() or line[m.end()] == "_"):
            continue
        parts.append(line[pos:m.start()])
        parts.append(m.group())
        pos = m.end()
    parts.append(line[pos:])
    return parts


def _is_float_token(t):
    return any(c in t for c in ".eEin")


def _same_number(a, b, rtol):
    if _is_float_token(a) != _is_float_token(b):
        return False
    if not _is_float_token(a):
        return int(a) == int(b)
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if math.isinf(x) or math.isinf(y):
        return x == y
    if x == 0.0 and y == 0.0:
        return math.copysign(1.0, x) == math.copysign(1.0, y)
    return abs(x - y) <= rtol * max(abs(x), abs(y))


def compare_line(expected, actual, rtol):
    """None when the lines agree, else a short reason."""
    m = _LINE_RTOL.search(expected)
    if m:
        rtol = float(m.group(1))
    if expected == actual:
        return None
    e, a = _split(expected), _split(actual)
    if len(e) != len(a):
        return "different shape of line"
    for k, (x, y) in enumerate(zip(e, a)):
        if k % 2 == 0:
            if x != y:
                return f"text {x!r} != {y!r}"
        elif not _same_number(x, y, rtol):
            return f"number {x} != {y}"
    return None


def compare_outputs(expected, actual, rtol=DEFAULT_RTOL):
    """A list of (line number, expected, actual, reason) for every disagreeing line."""
    el, al = expected.splitlines(), actual.splitlines()
    bad = []
    for i in range(max(len(el), len(al))):
        e = el[i] if i < len(el) else "<missing line>"
        a = al[i] if i < len(al) else "<missing line>"
        if i >= len(el) or i >= len(al):
            bad.append((i + 1, e, a, "missing line"))
            continue
        why = compare_line(e, a, rtol)
        if why:
            bad.append((i + 1, e, a, why))
    return bad


def program_rtol(path):
    with open(path) as f:
        m = _FILE_RTOL.search(f.read())
    return float(m.group(1)) if m else DEFAULT_RTOL


def describe(bad, limit=15):
    out = []
    for ln, e, a, why in bad[:limit]:
        out.append(f"line {ln}: {why}\n  numba : {e}\n  numjit: {a}")
    if len(bad) > limit:
        out.append(f"... and {len(bad) - limit} more lines differ")
    return "\n".join(out)


# ---- the tests ---------------------------------------------------------------------------------

def _ids(paths):
    return [os.path.splitext(os.path.basename(p))[0] for p in paths]


@pytest.mark.parametrize("path", PROGRAMS, ids=_ids(PROGRAMS))
def test_program(path):
    require_numjit()
    expected = numba_output(path)
    rc, actual, err = run_numjit(path)
    bad = compare_outputs(expected, actual, program_rtol(path))
    msg = describe(bad)
    if rc != 0:
        msg += f"\nnumjit run exited with {rc}:\n" + err[-4000:]
    assert rc == 0 and not bad, msg


def parse_expectation(path):
    with open(path) as f:
        first = f.readline()
    m = _EXPECT.match(first)
    assert m, f"{path}: the first line must be '# expect error: LINE:COL: TEXT'"
    return int(m.group(1)), int(m.group(2)), m.group(3)


def check_diagnostic(name, line, col, text, message):
    """None when MESSAGE is the expected rendered diagnostic, else the reason."""
    head = re.compile(r"(?:^|[\s/\\])" + re.escape(name) + ":" + str(line) + ":" + str(col) +
                      r": error: (.*)$", re.M)
    m = head.search(message)
    if not m:
        return f"no '{name}:{line}:{col}: error:' in the message"
    if text not in message:
        return f"the message does not contain {text!r}"
    lines = message.splitlines()
    src = re.compile(r"^\s*" + str(line) + r" \| ")
    for i, ln in enumerate(lines):
        if src.match(ln) and i + 1 < len(lines):
            caret = lines[i + 1]
            if "^" not in caret:
                return "no caret line under the source line"
            start = ln.index("| ") + 2
            if caret.index("^") != start + col - 1:
                return f"the caret is not under column {col}"
            return None
    if not any(re.match(r"^\s*\|?\s*\^~*\s*$", ln) for ln in lines):
        return "no caret line"
    return None


@pytest.mark.parametrize("path", ERROR_PROGRAMS, ids=_ids(ERROR_PROGRAMS))
def test_error_program(path):
    line, col, text = parse_expectation(path)
    rc, _, err = run_numba(path)
    assert rc != 0, f"{path}: real Numba accepts this program; it is no error test"
    require_numjit()
    rc, out, err = run_numjit(path, catch=True)
    assert rc == 3, f"numjit did not raise (exit {rc}):\n{out[-2000:]}\n{err[-2000:]}"
    idx = out.find("EXCEPTION ")
    message = out[idx:].split("\n", 1)[1] if idx >= 0 else out
    why = check_diagnostic(os.path.basename(path), line, col, text, message)
    assert why is None, f"{why}; numjit said:\n{out[idx:]}"


# ---- command line: one program, readable ----------------------------------------------------

def _main(argv):
    status = 0
    for path in argv:
        path = os.path.abspath(path)
        if os.path.dirname(path).endswith(os.path.join("lang", "errors")):
            line, col, text = parse_expectation(path)
            rc, out, err = run_numjit(path, catch=True)
            idx = out.find("EXCEPTION ")
            message = out[idx:].split("\n", 1)[1] if idx >= 0 else out
            why = check_diagnostic(os.path.basename(path), line, col, text, message) \
                if rc == 3 else f"no exception (exit {rc})"
            print(f"{os.path.basename(path)}: {'ok' if why is None else 'FAIL: ' + why}")
            if why:
                print(out[idx:] if idx >= 0 else out + err[-2000:])
                status = 1
            continue
        expected = numba_output(path)
        rc, actual, err = run_numjit(path)
        bad = compare_outputs(expected, actual, program_rtol(path))
        ok = rc == 0 and not bad
        print(f"{os.path.basename(path)}: {'ok' if ok else 'FAIL'} "
              f"({len(expected.splitlines())} lines, {len(bad)} differ, exit {rc})")
        if bad:
            print(describe(bad, 40))
        if rc != 0:
            print(err[-3000:])
        status |= not ok
    return status


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
