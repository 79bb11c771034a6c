"""tests/pypi/suites.py — published Numba-based libraries' own test suites, run under Numba
0.56 and under numjit answering ``import numba``, compared test by test.

    suites.py [--work DIR] [--cache DIR] [--build DIR] [--only NAME,...] [--list-failures]
              [--rerun-numba]

How it works:
  1. A virtual environment WORK/venv is made with ``python3 -m venv --system-site-packages``,
     so Debian's NumPy, SciPy, pandas, dask, pytest and Numba 0.56 are what the libraries see.
  2. Each library of SUITES is fetched with pip at its pinned version into CACHE (kept between
     runs: a second run needs no network): the wheel, and where the wheel ships no tests the
     sdist too (``pip download --no-deps --no-binary NAME``), unpacked under WORK/src.  The
     wheel is installed with ``pip install --no-deps --no-index`` from CACHE, with the wheels of
     the pure-Python packages a suite names as EXTRAS (ones Debian lacks).  None of their code
     is in this repository; it exists only under WORK.
  3. Each suite runs twice with pytest (``-p no:cacheprovider -o addopts=`` so a library's own
     coverage or lint options stay out), writing JUnit XML: once with real Numba, once as
     ``python3 -m numjit -m pytest``, which puts numjit's drop-in `numba` first on PYTHONPATH
     and sets NUMJIT_AS_NUMBA=1 (numjit/__main__.py), with BUILD/python on PYTHONPATH.
     The Numba run's outcomes and times are kept in CACHE (they depend on the library and
     Numba only), so later runs run only numjit's side; --rerun-numba runs both again.
  4. Outcomes are compared per test id (``module::name[params]``).  A test that passes under
     Numba and does not pass under numjit is a regression unless a pattern of
     tests/pypi/expected.txt (``LIBRARY  PATTERN  reason``, fnmatch patterns) covers it.  A
     suite whose pytest did not finish (a crash of the interpreter, a timeout) is one failure.

The report has one line per library and mode (passed, failed, errors, skipped, seconds), the
unexpected regressions by id, the expected failures that now pass, and ends with the line
``pypi: N passed, M failed`` where N counts the tests passing under both and M the unexpected
regressions plus unfinished suites.  Exit status: 0 clean, 1 regressions, 77 when PyPI cannot be
reached and CACHE lacks a package (the suites are skipped, not failed).
"""

import argparse
import fnmatch
import json
import os
import resource
import shutil
import subprocess
import sys
import tarfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PY = "/usr/bin/python3"


class Suite:
    """One library: NAME==VERSION from PyPI, its tests at TESTS (a path inside the installed
    package when FROM is 'wheel', inside the unpacked sdist when 'sdist'), pytest ARGS
    (subsets; '{tests}' stands for the tests' directory), a time limit per mode in seconds,
    Python modules without which a test file cannot be collected (NEEDS: file -> module), and
    pure-Python packages it imports that Debian lacks (EXTRAS: "name==version" wheels, fetched
    and installed with --no-deps like the library)."""

    def __init__(self, name, version, source, tests, args=(), limit=600, needs=None,
                 extras=()):
        self.name, self.version, self.source, self.tests = name, version, source, tests
        self.args, self.limit, self.needs = list(args), limit, dict(needs or {})
        self.extras = list(extras)


# Chosen for pure-Python packages whose other dependencies are Debian's (numpy, scipy, pandas),
# at releases of Numba 0.56's time (2022) whose code Numba 0.56 compiles.
SUITES = [
    Suite("numba-stats", "1.1.1", "sdist", "tests",
          # a subset: each module compiles its distributions eagerly at import (seconds each)
          args=["{tests}/%s.py" % t for t in ("test_norm", "test_expon", "test_uniform",
                                              "test_poisson", "test_t", "test_truncexpon",
                                              "test_tsallis")]),
    Suite("numbagg", "0.2.2", "wheel", "numbagg/test",
          needs={"test_funcs.py": "bottleneck"}),
    Suite("quantecon", "0.6.0", "wheel", "quantecon",
          # a subset of the subpackages built on @njit kernels (game_theory, markov's core and
          # the optimizers take minutes under Numba)
          args=["{tests}/optimize/tests/test_root_finding.py",
                "{tests}/optimize/tests/test_scalar_max.py", "{tests}/random/tests",
                "{tests}/markov/tests/test_gth_solve.py",
                "{tests}/markov/tests/test_approximation.py",
                "{tests}/markov/tests/test_utilities.py",
                "{tests}/markov/tests/test_estimate.py",
                "{tests}/markov/tests/test_random.py", "{tests}/markov/tests/test_ddp.py"]),
    Suite("sparse", "0.14.0", "sdist", "sparse/tests",
          # compiled code taking and returning COO arrays; test_coo alone has ~4,000 cases
          args=["{tests}/test_coo_numba.py"]),
    # properscoring: CRPS and Brier scores, its ensemble CRPS and threshold Brier kernels
    # written with @guvectorize (a NumPy fallback when Numba is absent, which a test checks)
    Suite("properscoring", "0.1", "wheel", "properscoring/tests", limit=300),
    # xarray-einstats: its numba module, a @guvectorize histogram over xarray dimensions (the
    # rest of the package is linear algebra and einops on xarray, without Numba)
    Suite("xarray-einstats", "0.3.0", "wheel", "xarray_einstats/tests",
          args=["{tests}/test_numba.py"], limit=300),
    # numpy-groupies: group-by aggregations (sum, mean, var, argmax, first, ... with fill
    # values and dtypes) with a Numba implementation among others; the tests of that one
    Suite("numpy-groupies", "0.9.20", "sdist", "numpy_groupies/tests",
          args=["{tests}/test_generic.py", "{tests}/test_indices.py", "-k", "numba"],
          limit=600),
    # EconForge's interpolation: multilinear and cubic splines, code generated from templates
    # (Tempita) and compiled with njit and generated_jit
    Suite("interpolation", "2.2.1", "wheel", "interpolation", extras=["Tempita==0.5.2"],
          # a subset: the splines (the multilinear suite compiles for minutes under Numba)
          args=["{tests}/splines/tests/test_cubic_splines.py",
                "{tests}/splines/tests/test_eval_splines.py",
                "{tests}/splines/tests/test_multilinear_extrap.py",
                "{tests}/splines/tests/test_readonly.py"]),
]


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def pip_fetch(venv_py, suite, cache):
    """Brings the wheel (and the sdist where the tests live there) into CACHE; False when PyPI
    cannot be reached and CACHE does not have them yet."""
    spec = f"{suite.name}=={suite.version}"
    norm = suite.name.replace("-", "_").lower()
    base = [venv_py, "-m", "pip", "download", "--no-deps", "--timeout", "15", "--retries", "1",
            "-q", spec]
    def have(kind):
        for f in os.listdir(cache):
            g = f.replace("-", "_").lower()
            if g.startswith(f"{norm}_{suite.version}") and (
                    f.endswith(".whl") if kind == "wheel" else f.endswith(".tar.gz")):
                return os.path.join(cache, f)
        return None
    if not have("wheel") and sh(base + ["--only-binary", ":all:", "-d", cache]).returncode:
        return False
    if suite.source == "sdist" and not have("sdist"):
        if sh(base + ["--no-binary", suite.name, "-d", cache]).returncode:
            return False
    return have("wheel"), have("sdist") if suite.source == "sdist" else None


def make_venv(work):
    venv = os.path.join(work, "venv")
    venv_py = os.path.join(venv, "bin", "python")
    if not os.path.exists(venv_py):
        r = sh([PY, "-m", "venv", "--system-site-packages", venv])
        if r.returncode:
            raise SystemExit(f"suites.py: cannot make the virtual environment:\n{r.stdout}")
    return venv_py


def fetch_extras(venv_py, suite, cache):
    """Brings the wheels of suite's EXTRAS into CACHE; their paths, or None when PyPI cannot be
    reached and CACHE lacks one."""
    paths = []
    for spec in suite.extras:
        name, version = spec.split("==")
        norm = name.replace("-", "_").lower()
        def have():
            for f in os.listdir(cache):
                if f.replace("-", "_").lower().startswith(f"{norm}_{version}") and f.endswith(".whl"):
                    return os.path.join(cache, f)
            return None
        if not have() and sh([venv_py, "-m", "pip", "download", "--no-deps", "--timeout", "15",
                              "--retries", "1", "-q", "--only-binary", ":all:", spec,
                              "-d", cache]).returncode:
            return None
        paths.append(have())
    return paths


def tests_dir(venv_py, suite, work, files, extras=()):
    """Installs the wheel (and the EXTRAS); returns the directory holding the suite's tests."""
    wheel, sdist = files
    r = sh([venv_py, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel, *extras])
    if r.returncode:
        raise RuntimeError(f"pip install {wheel} failed:\n{r.stdout}")
    if suite.source == "wheel":
        site = sh([venv_py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
        return os.path.join(site.stdout.strip(), suite.tests)
    src = os.path.join(work, "src")
    top = os.path.join(src, f"{suite.name}-{suite.version}")
    if not os.path.isdir(top):
        os.makedirs(src, exist_ok=True)
        with tarfile.open(sdist) as tf:
            tf.extractall(src)
        names = [d for d in os.listdir(src) if d.lower().replace("_", "-") ==
                 f"{suite.name}-{suite.version}".lower()]
        if names and names[0] != os.path.basename(top):
            os.rename(os.path.join(src, names[0]), top)
    return os.path.join(top, suite.tests)


def run_pytest(venv_py, suite, tdir, mode, work, build):
    """One pytest run; returns (outcomes {id: 'passed'|'failed'|'error'|'skipped'}, (wall
    seconds, CPU seconds of the run), finished)."""
    xml = os.path.join(work, f"{suite.name}.{mode}.xml")
    if os.path.exists(xml):
        os.remove(xml)
    args = [a.replace("{tests}", tdir) for a in suite.args] or [tdir]
    if not any(a.startswith(tdir) for a in args):
        args.append(tdir)
    for f, mod in suite.needs.items():
        if sh([venv_py, "-c", f"import {mod}"]).returncode:
            args.append(f"--ignore={os.path.join(tdir, f)}")
    cmd = ["-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-q", "--tb=line",
           "--continue-on-collection-errors",
           f"--junitxml={xml}", "-W", "ignore::DeprecationWarning",
           # ids relative to the package's root (site-packages or the sdist), not to WORK
           f"--rootdir={tdir[:-len(suite.tests)].rstrip(os.sep)}"] + args
    env = dict(os.environ)
    env.pop("NUMJIT_AS_NUMBA", None)
    pp = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if mode == "numjit":
        cmd = [venv_py, "-m", "numjit"] + cmd
        pp = [os.path.join(os.path.abspath(build), "python")] + pp
    else:
        cmd = [venv_py] + cmd
    env["PYTHONPATH"] = os.pathsep.join(pp)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    cwd = os.path.join(work, "run")
    os.makedirs(cwd, exist_ok=True)
    t0, c0 = time.time(), child_cpu()
    log = os.path.join(work, f"{suite.name}.{mode}.log")
    finished = True
    with open(log, "w") as out:
        try:
            p = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                               timeout=suite.limit)
            finished = p.returncode in (0, 1)      # 2..5: pytest itself failed; <0: a signal
        except subprocess.TimeoutExpired:
            finished = False
    return read_junit(xml), (time.time() - t0, child_cpu() - c0), finished


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def read_junit(xml):
    out = {}
    if not os.path.exists(xml):
        return out
    try:
        tree = ET.parse(xml)
    except ET.ParseError:
        return out
    for tc in tree.iter("testcase"):
        tid = f"{tc.get('classname', '')}::{tc.get('name', '')}"
        kinds = [c.tag for c in tc]
        if "error" in kinds:
            out[tid] = "error"
        elif "failure" in kinds:
            out[tid] = "failed"
        elif "skipped" in kinds:
            out[tid] = "skipped"
        else:
            out[tid] = "passed"
    return out


def _suite_key(suite):
    key = {"args": suite.args, "needs": suite.needs}
    if suite.extras:
        key["extras"] = suite.extras
    return key


def cached_numba(path, suite):
    """The Numba run's outcomes kept from an earlier run of the same suite (they depend only on
    the library, its arguments and Numba, not on numjit); None when there are none."""
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError):
        return None
    if d.get("key") != _suite_key(suite):
        return None
    return d["outcomes"], tuple(d["seconds"]), True


def store_numba(path, suite, result):
    outcomes, secs, _ = result
    with open(path, "w") as f:
        json.dump({"key": _suite_key(suite), "outcomes": outcomes, "seconds": list(secs)}, f)


def read_expected(path):
    """[(library, pattern, reason)] from LIBRARY PATTERN REASON... lines ('#' comments)."""
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                raise SystemExit(f"{path}:{n}: an entry is LIBRARY PATTERN REASON")
            rows.append(tuple(parts))
    return rows


def expected_reason(rows, lib, tid):
    for l, pat, reason in rows:
        if l == lib and fnmatch.fnmatchcase(tid, pat):
            return reason
    return None


def compare(lib, numba, numjit, rows):
    """Outcomes of one library under Numba and numjit, against expected.txt's rows:
    {"both": ids passing under both, "regress": [(id, numjit outcome)] passing under Numba
    only and not expected, "expected": [(id, outcome, reason)] passing under Numba only as
    expected, "fixed": ids expected to fail that pass}.  A test numjit did not run at all
    (its module failed to import) is 'missing'."""
    out = {"both": [], "regress": [], "expected": [], "fixed": []}
    for tid, v in sorted(numba.items()):
        if v != "passed":
            continue
        w = numjit.get(tid, "missing")
        reason = expected_reason(rows, lib, tid)
        if w == "passed":
            out["both"].append(tid)
            if reason:
                out["fixed"].append(tid)
        elif reason:
            out["expected"].append((tid, w, reason))
        else:
            out["regress"].append((tid, w))
    return out


def counts(outcomes):
    c = {"passed": 0, "failed": 0, "error": 0, "skipped": 0}
    for v in outcomes.values():
        c[v] += 1
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                   "numjit-pypi"))
    ap.add_argument("--cache", default=os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "numjit-pypi"))
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--only", default="")
    ap.add_argument("--expected", default=os.path.join(HERE, "expected.txt"))
    ap.add_argument("--rerun-numba", action="store_true",
                    help="run the suites under Numba again instead of reading CACHE's outcomes")
    ap.add_argument("--list-failures", action="store_true",
                    help="print every test that passes under Numba and not under numjit")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    os.makedirs(a.cache, exist_ok=True)
    rows = read_expected(a.expected)
    only = set(filter(None, a.only.split(",")))
    venv_py = make_venv(a.work)
    both = failed = 0
    regress, fixed, lines = [], [], []
    for suite in SUITES:
        if only and suite.name not in only:
            continue
        files = pip_fetch(venv_py, suite, a.cache)
        extras = fetch_extras(venv_py, suite, a.cache) if files else None
        if not files or extras is None:
            print(f"pypi: {suite.name} {suite.version}: PyPI unreachable and not in "
                  f"{a.cache}: skipped")
            print("pypi: skipped (PyPI unreachable)")
            return 77
        tdir = tests_dir(venv_py, suite, a.work, files, extras)
        res = {}
        for mode in ("numba", "numjit"):
            key = os.path.join(a.cache, f"{suite.name}-{suite.version}.numba.json")
            if mode == "numba" and not a.rerun_numba and cached_numba(key, suite) is not None:
                res[mode] = cached_numba(key, suite)
                o, secs, fin = res[mode]
                c = counts(o)
                lines.append(f"{suite.name:12} {suite.version:8} {mode:7} {c['passed']:5} passed "
                             f"{c['failed']:4} failed {c['error']:4} errors {c['skipped']:4} "
                             f"skipped (cached: {secs[0]:6.1f} s, {secs[1]:5.1f} s CPU)")
                print(lines[-1], flush=True)
                continue
            res[mode] = run_pytest(venv_py, suite, tdir, mode, a.work, a.build)
            o, secs, fin = res[mode]
            if mode == "numba" and fin:
                store_numba(key, suite, res[mode])
            c = counts(o)
            lines.append(f"{suite.name:12} {suite.version:8} {mode:7} {c['passed']:5} passed "
                         f"{c['failed']:4} failed {c['error']:4} errors {c['skipped']:4} skipped "
                         f"{secs[0]:6.1f} s ({secs[1]:5.1f} s CPU)" + ("" if fin else "  (DID NOT FINISH)"))
            print(lines[-1], flush=True)
        (on, _, _), (oj, _, fin_j) = res["numba"], res["numjit"]
        if not fin_j:
            failed += 1
            regress.append(f"{suite.name}: the numjit run did not finish "
                           f"(see {a.work}/{suite.name}.numjit.log)")
        c = compare(suite.name, on, oj, rows)
        both += len(c["both"])
        failed += len(c["regress"])
        regress += [f"{suite.name}  {tid}  ({w})" for tid, w in c["regress"]]
        fixed += [f"{suite.name}  {tid}" for tid in c["fixed"]]
        if a.list_failures:
            for tid, w, reason in c["expected"]:
                print(f"  expected: {suite.name}  {tid}  ({w}): {reason}")
    for r in regress:
        print(f"REGRESSION {r}")
    for f in fixed:
        print(f"now passes (remove from expected.txt): {f}")
    print(f"pypi: {both} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
