"""GPU gufunc staging variants side by side: every NUMJIT_GU_VARIANT on the same workloads.

A target='cuda' gufunc stages C-contiguous core rows through shared memory (codegen/gpu_loops.c,
runtime/gpu_ufunc.c); NUMJIT_GU_VARIANT picks how, per call:

  direct    no staging: each thread reads its own rows in place
  rows      tile rows = block threads, fitted in 48 KiB, item-sized copies (the first design)
  vec32     256 threads copy 32-row tiles in 16-byte chunks through registers
  vec64     the same with 64-row tiles (opt-in shared memory)
  async32   cp.async (sm_80+) into two buffers, 32-row tiles, 128 threads
  async16   the same with 16-row tiles (more resident blocks)
  async64   the same with 64-row tiles
  async32w  cp.async, 32-row tiles, 32 threads (one warp per block)

Each variant is first checked against NumPy on small and odd shapes (rows not a multiple of
the tile, cores not a multiple of 16 bytes, one row, float32, staged outputs), then timed on
device arrays with preallocated outputs (median of batches of back-to-back calls):

  rowdot f64 k=64   (n),(n)->()       the issue's workload (64M elements per input by default)
  rowdot f32 k=64
  rowdot f64 k=16   128-byte rows
  rowdot f64 k=63   rows not a multiple of 16 bytes (fallback copies)
  axpy f64 k=64     (n),()->(n): a staged output
  matmul4 f32       (m,k),(k,p)->(m,p) on 4x4 matrices

CuPy (when importable) gives the reference time of the same computation; the table prints
milliseconds, effective GB/s (bytes read + written / time) and CuPy's time / the variant's.
NUMJIT_GU_TILE / NUMJIT_GU_BLOCK set in the environment apply to every tiled variant.

    PYTHONPATH=build/python python3 bench/gpu_gufunc_variants.py [--n 67108864] [--json F]
"""
import argparse
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu_bench as GB  # noqa: E402  (peers, timing, load_file)

VARIANTS = ["direct", "rows", "vec32", "vec64", "async32", "async16", "async64", "async32w"]


def set_variant(v):
    if v is None:
        os.environ.pop("NUMJIT_GU_VARIANT", None)
    else:
        os.environ["NUMJIT_GU_VARIANT"] = v


def check(U, rng):
    """Small shapes against NumPy; returns a list of failures (strings)."""
    bad = []

    def close(name, got, want, rtol):
        if not np.allclose(got, want, rtol=rtol, atol=0):
            err = np.max(np.abs(np.asarray(got, dtype=np.float64) - want))
            bad.append(f"{name}: max abs error {err:.3g}")

    for rows, k in [(1, 64), (33, 64), (1000, 64), (100003, 64), (777, 5), (1001, 63),
                    (513, 16), (97, 200), (5, 1000)]:
        a, b = rng.random((rows, k)), rng.random((rows, k))
        close(f"rowdot f64 {rows}x{k}", U.rowdot(a, b), (a * b).sum(axis=1), 1e-12)
    for rows, k in [(4099, 64), (333, 7), (65, 12)]:
        a = rng.random((rows, k)).astype(np.float32)
        b = rng.random((rows, k)).astype(np.float32)
        close(f"rowdot f32 {rows}x{k}", U.rowdot(a, b), (a * b).sum(axis=1, dtype=np.float64), 1e-5)
    for rows, k in [(513, 40), (70001, 64), (3, 9)]:
        x = rng.random((rows, k))
        close(f"axpy_rows {rows}x{k}", U.axpy_rows(x, 3.0), 3.0 * x + np.arange(k), 1e-15)
    for bt, m, kk, p in [(50, 4, 6, 5), (10007, 4, 4, 4), (129, 3, 5, 2)]:
        a = rng.random((bt, m, kk)).astype(np.float32)
        b = rng.random((bt, kk, p)).astype(np.float32)
        close(f"matmul_core {bt}x{m}x{kk}x{p}", U.matmul_core(a, b), a @ b, 1e-5)
    return bad


def workloads(n, njc, U, cp, rng):
    """(name, bytes, numjit call, cupy call or None, check) per workload; device arrays."""
    out = []

    def rowdot(name, k, dtype):
        rows = n // k
        a = rng.random((rows, k)).astype(dtype)
        b = rng.random((rows, k)).astype(dtype)
        da, db, do = njc.to_device(a), njc.to_device(b), njc.device_array(rows, dtype)
        nbytes = (2 * rows * k + rows) * np.dtype(dtype).itemsize
        want = (a.astype(np.float64) * b).sum(axis=1)
        ref = None
        if cp is not None:
            ca, cb = cp.asarray(a), cp.asarray(b)
            ref = lambda: (ca * cb).sum(axis=1)  # noqa: E731
        rtol = 1e-12 if dtype == np.float64 else 1e-4
        out.append((name, nbytes, lambda: U.rowdot(da, db, out=do), ref,
                    lambda: np.allclose(do.copy_to_host(), want, rtol=rtol)))

    rowdot("rowdot f64 k=64", 64, np.float64)
    rowdot("rowdot f32 k=64", 64, np.float32)
    rowdot("rowdot f64 k=16", 16, np.float64)
    rowdot("rowdot f64 k=63", 63, np.float64)

    k = 64
    rows = n // k
    x = rng.random((rows, k))
    dx, dxo = njc.to_device(x), njc.device_array((rows, k), np.float64)
    wx = 3.0 * x + np.arange(k)
    ref = None
    if cp is not None:
        cx, ck = cp.asarray(x), cp.arange(k, dtype=cp.float64)
        ref = lambda: 3.0 * cx + ck  # noqa: E731
    out.append(("axpy f64 k=64", 2 * rows * k * 8, lambda: U.axpy_rows(dx, 3.0, out=dxo), ref,
                lambda: np.allclose(dxo.copy_to_host(), wx, rtol=1e-15)))

    bt = n // 16
    a = rng.random((bt, 4, 4)).astype(np.float32)
    b = rng.random((bt, 4, 4)).astype(np.float32)
    dA, dB, dC = njc.to_device(a), njc.to_device(b), njc.device_array((bt, 4, 4), np.float32)
    wc = a @ b
    ref = None
    if cp is not None:
        cA, cB = cp.asarray(a), cp.asarray(b)
        ref = lambda: cp.matmul(cA, cB)  # noqa: E731
    out.append(("matmul4 f32", 3 * bt * 16 * 4, lambda: U.matmul_core(dA, dB, out=dC), ref,
                lambda: np.allclose(dC.copy_to_host(), wc, rtol=1e-5)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=64 * 1024 * 1024, help="elements per input")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args()
    nj, njc = GB.load_numjit()
    U = GB.load_file(os.path.join(GB.GPU_TESTS, "ufuncs.py"), "nj_gu_variants", True)
    cp = GB.load_cupy()
    rng = np.random.default_rng(11)
    variants = [v for v in args.variants.split(",") if v]
    dev = njc.get_current_device()
    print(f"device: {getattr(dev, 'name', '?')}  n = {args.n}  "
          f"NUMJIT_GU_TILE={os.environ.get('NUMJIT_GU_TILE', '-')} "
          f"NUMJIT_GU_BLOCK={os.environ.get('NUMJIT_GU_BLOCK', '-')}")

    results = {"n": args.n, "check": {}, "ms": {}, "cupy_ms": {}}
    for v in variants + ["(default)"]:
        set_variant(None if v == "(default)" else v)
        try:
            bad = check(U, rng)
        except Exception as e:  # noqa: BLE001
            bad = [f"{type(e).__name__}: {str(e)[:200]}"]
        results["check"][v] = bad
        print(f"check {v:10} {'ok' if not bad else 'FAILED: ' + '; '.join(bad[:4])}")
    set_variant(None)

    W = workloads(args.n, njc, U, cp, rng)
    for name, nbytes, fn, ref, ok in W:
        if ref is not None:
            try:
                results["cupy_ms"][name] = GB.timeit(ref, cp.cuda.Device().synchronize) * 1e3
            except Exception as e:  # noqa: BLE001
                GB.note(f"{name} / cupy failed: {type(e).__name__}: {e}")
        for v in variants + ["(default)"]:
            set_variant(None if v == "(default)" else v)
            try:
                ms = GB.timeit(fn, njc.synchronize) * 1e3
                good = ok()
            except Exception as e:  # noqa: BLE001
                GB.note(f"{name} / {v} failed: {type(e).__name__}: {str(e)[:200]}")
                ms, good = None, False
            results["ms"].setdefault(name, {})[v] = {"ms": ms, "ok": good}
        set_variant(None)

    names = [w[0] for w in W]
    print("\nms per call (GB/s, CuPy's time / this); * = wrong result")
    head = f"{'variant':10}" + "".join(f" | {n:>24}" for n in names)
    print(head)
    print("-" * len(head))
    for v in variants + ["(default)", "cupy"]:
        cells = []
        for name, nbytes, *_ in W:
            if v == "cupy":
                ms = results["cupy_ms"].get(name)
                cells.append(f"{ms:7.3f} {nbytes / ms / 1e6:6.0f}GB/s      " if ms else f"{'-':>24}")
                continue
            r = results["ms"][name][v]
            if r["ms"] is None:
                cells.append(f"{'failed':>24}")
                continue
            c = results["cupy_ms"].get(name)
            ratio = f"{c / r['ms']:5.2f}x" if c else "   - "
            cells.append(f"{r['ms']:7.3f} {nbytes / r['ms'] / 1e6:6.0f}GB/s {ratio}{'*' if not r['ok'] else ' '}")
        print(f"{v:10}" + "".join(f" | {c:>24}" for c in cells))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
