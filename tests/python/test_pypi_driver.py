"""tests/pypi/suites.py's comparison, without PyPI: JUnit XML read into outcomes, expected.txt
patterns, and which tests count as regressions; and that the checked-in expected.txt parses
with a reason on every entry."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "pypi"))
import suites  # noqa: E402

JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest">
<testcase classname="pkg.tests.test_a" name="test_ok" time="0.1"/>
<testcase classname="pkg.tests.test_a" name="test_bad[1]" time="0.1"><failure message="x"/></testcase>
<testcase classname="pkg.tests.test_a" name="test_err" time="0.1"><error message="x"/></testcase>
<testcase classname="pkg.tests.test_a" name="test_skip" time="0.0"><skipped message="x"/></testcase>
<testcase classname="" name="pkg.tests.test_b" time="0.0"><error message="collection"/></testcase>
</testsuite></testsuites>
"""


def test_read_junit(tmp_path):
    f = tmp_path / "r.xml"
    f.write_text(JUNIT)
    o = suites.read_junit(str(f))
    assert o == {"pkg.tests.test_a::test_ok": "passed",
                 "pkg.tests.test_a::test_bad[1]": "failed",
                 "pkg.tests.test_a::test_err": "error",
                 "pkg.tests.test_a::test_skip": "skipped",
                 "::pkg.tests.test_b": "error"}
    assert suites.counts(o) == {"passed": 1, "failed": 1, "error": 2, "skipped": 1}
    assert suites.read_junit(str(tmp_path / "absent.xml")) == {}
    (tmp_path / "cut.xml").write_text(JUNIT[:120])       # a run killed while writing
    assert suites.read_junit(str(tmp_path / "cut.xml")) == {}


def test_compare_counts_only_tests_passing_under_numba(tmp_path):
    e = tmp_path / "expected.txt"
    e.write_text("# comment\n\nlib  pkg.tests.test_b::*  compiler: np.iinfo\n"
                 "lib  pkg.tests.test_a::test_fixed  compiler: type(x)(1)\n"
                 "other  pkg.tests.test_a::*  another library's entry\n")
    rows = suites.read_expected(str(e))
    numba = {"pkg.tests.test_a::ok": "passed", "pkg.tests.test_a::new_bug": "passed",
             "pkg.tests.test_a::gone": "passed", "pkg.tests.test_a::test_fixed": "passed",
             "pkg.tests.test_b::t1": "passed", "pkg.tests.test_a::numba_fails": "failed",
             "pkg.tests.test_a::skipped": "skipped"}
    numjit = {"pkg.tests.test_a::ok": "passed", "pkg.tests.test_a::new_bug": "error",
              "pkg.tests.test_a::test_fixed": "passed", "pkg.tests.test_b::t1": "failed",
              "pkg.tests.test_a::numba_fails": "failed", "pkg.tests.test_a::skipped": "failed"}
    c = suites.compare("lib", numba, numjit, rows)
    assert c["both"] == ["pkg.tests.test_a::ok", "pkg.tests.test_a::test_fixed"]
    assert c["regress"] == [("pkg.tests.test_a::gone", "missing"),
                            ("pkg.tests.test_a::new_bug", "error")]
    assert c["expected"] == [("pkg.tests.test_b::t1", "failed", "compiler: np.iinfo")]
    assert c["fixed"] == ["pkg.tests.test_a::test_fixed"]


def test_expected_entry_needs_a_reason(tmp_path):
    e = tmp_path / "expected.txt"
    e.write_text("lib  pkg.tests.test_b::*\n")
    with pytest.raises(SystemExit, match="expected.txt:1: an entry is LIBRARY PATTERN REASON"):
        suites.read_expected(str(e))


def test_checked_in_expected_file():
    rows = suites.read_expected(os.path.join(ROOT, "tests", "pypi", "expected.txt"))
    names = {s.name for s in suites.SUITES}
    assert rows and all(lib in names and len(reason) > 10 for lib, _, reason in rows)


def test_numba_outcomes_cache(tmp_path):
    s = suites.Suite("lib", "1.0", "wheel", "lib/tests", args=["{tests}/test_a.py"])
    path = str(tmp_path / "lib-1.0.numba.json")
    assert suites.cached_numba(path, s) is None
    suites.store_numba(path, s, ({"a::b": "passed"}, (3.0, 1.0), True))
    assert suites.cached_numba(path, s) == ({"a::b": "passed"}, (3.0, 1.0), True)
    s.args.append("-k")                                  # another subset: run Numba again
    assert suites.cached_numba(path, s) is None


def test_extras_from_the_cache_and_in_the_key(tmp_path):
    """A suite's EXTRAS (pure-Python packages Debian lacks) come from the cache without PyPI
    once there (the interpreter given is /bin/false: any pip call would fail), and are part of
    the key of the cached Numba outcomes only where a suite has some."""
    (tmp_path / "Tempita-0.5.2-py3-none-any.whl").write_text("")
    s = suites.Suite("interpolation", "2.2.1", "wheel", "interpolation",
                     extras=["Tempita==0.5.2"])
    assert suites.fetch_extras("/bin/false", s, str(tmp_path)) == \
        [str(tmp_path / "Tempita-0.5.2-py3-none-any.whl")]
    missing = suites.Suite("x", "1", "wheel", "x", extras=["Nothing==1.0"])
    assert suites.fetch_extras("/bin/false", missing, str(tmp_path)) is None
    assert suites._suite_key(s)["extras"] == ["Tempita==0.5.2"]
    assert "extras" not in suites._suite_key(suites.Suite("numbagg", "0.2.2", "wheel", "t"))
