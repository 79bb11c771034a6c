"""dask_numjit.py — numjit on a Dask cluster: ufuncs, a gufunc, map_blocks with @njit and
reductions over a chunked array larger than one worker's memory.

    PYTHONPATH=build/python /usr/bin/python3 examples/dask_numjit.py            # LocalCluster
    PYTHONPATH=build/python /usr/bin/python3 examples/dask_numjit.py --address tcp://host:8786
    ... --elements 1e8 --chunk 2e6 --workers 2 --memory-limit 512MB --numba

Without --address the program starts a LocalCluster of --workers worker processes (one thread
each) with --memory-limit each; with one, it uses that scheduler (every worker needs numjit
and NumPy: the functions travel by value, pickled with their source text).  The array x has
--elements float64 values in chunks of --chunk: by default 800 MB, more than one worker's
512 MB, so no worker ever holds it; only chunks move, and reductions combine per-chunk results.

The work, each checked against NumPy on a sample of chunks:
  1. rel = 2*(x-y)/(x+y), a two-signature @vectorize ufunc applied to Dask arrays (a numpy.ufunc:
     Dask's __array_ufunc__ maps it over the chunks), then its sum and maximum;
  2. a @guvectorize row-dot gufunc through da.apply_gufunc over rows of 64;
  3. x.map_blocks(clip_sum) with an @njit function that reduces each chunk to one number;
  4. the ufunc's reduce (numpy.ufunc.reduce) along an axis inside map_blocks.
--numba runs the same program with Numba's decorators (the comparison of bench/dask_ufunc.py;
step 1 then goes through map_blocks: a Numba 0.56 ufunc applied to a Dask array gives a graph
that distributed cannot serialize); the program prints the compile time summed over the
workers and the run time.
"""
import argparse
import math
import sys
import time

import numpy as np

if "--numba" in sys.argv:
    import numba as nj
else:
    import numjit as nj


@nj.vectorize(["float64(float64, float64)", "float32(float32, float32)"], cache=True)
def rel(x, y):
    return 2.0 * (x - y) / (x + y)


@nj.vectorize(["float64(float64, float64)"], identity=0, cache=True)
def add(a, b):
    return a + b


@nj.guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->()", cache=True)
def rowdot(a, b, out):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    out[0] = s


@nj.njit(cache=True)
def clip_sum(block):
    s = 0.0
    for v in block.ravel():
        s += min(max(math.sin(v * 7.0) * 2.0, -1.0), 1.0)
    return np.full((1,), s)


def warm_worker():
    """Runs on a worker: the first call of each function (compiling or loading from the
    on-disk cache), timed; later tasks find them compiled."""
    t = time.perf_counter()
    a = np.linspace(1.0, 2.0, 64)
    rel(a, a[::-1])
    add.reduce(a)
    rowdot(a.reshape(2, 32), a.reshape(2, 32))
    clip_sum(a)
    return time.perf_counter() - t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--address", help="scheduler address of a running cluster")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--memory-limit", default="512MB")
    ap.add_argument("--elements", type=float, default=1e8)
    ap.add_argument("--chunk", type=float, default=2e6)
    ap.add_argument("--numba", action="store_true", help="Numba's decorators instead")
    args = ap.parse_args(argv)

    import dask.array as da
    from dask.distributed import Client, LocalCluster

    c = max(64, int(args.chunk) // 64 * 64)          # rows of 64 never straddle a chunk
    n = max(c, int(args.elements) // c * c)
    if args.address:
        client = Client(args.address)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               memory_limit=args.memory_limit, dashboard_address=None)
        client = Client(cluster)
    try:
        nw = len(client.scheduler_info()["workers"])
        lib = "numba" if args.numba else "numjit"
        print(f"{lib} on {nw} workers; x: {n:,} float64 ({n * 8 / 1e6:.0f} MB) in chunks of "
              f"{c:,}; memory limit per worker {args.memory_limit}")
        t0 = time.perf_counter()
        compile_s = sum(client.run(warm_worker).values())
        t1 = time.perf_counter()

        x = da.random.RandomState(1).uniform(1.0, 2.0, size=n, chunks=c)
        y = da.random.RandomState(2).uniform(1.0, 2.0, size=n, chunks=c)
        if args.numba:   # Numba 0.56's ufunc on a Dask array builds a graph Dask cannot
            r = da.map_blocks(rel, x, y, dtype=np.float64)   # serialize: map it over blocks
        else:
            r = rel(x, y)                              # a numpy.ufunc on Dask arrays
        total, biggest = da.compute(r.sum(), r.max())
        rows = x.reshape(n // 64, 64).rechunk((c // 64, 64))
        dots = da.apply_gufunc(rowdot, "(n),(n)->()", rows, rows, output_dtypes=np.float64)
        dot_total = dots.sum().compute()
        clipped = x.map_blocks(clip_sum, chunks=(1,), dtype=np.float64).sum().compute()
        part = rows.map_blocks(lambda b: add.reduce(b, axis=1), drop_axis=1,
                               dtype=np.float64).sum().compute()
        t2 = time.perf_counter()

        # checks against NumPy on the first chunk and on the whole (reductions agree)
        x0, y0 = x.blocks[0].compute(), y.blocks[0].compute()
        assert np.allclose(r.blocks[0].compute(), 2 * (x0 - y0) / (x0 + y0), rtol=1e-14)
        assert np.isclose(dot_total, float((x ** 2).sum().compute()), rtol=1e-10)
        assert np.isclose(part, float(x.sum().compute()), rtol=1e-10)
        want = float(np.clip(np.sin(x0 * 7.0) * 2.0, -1.0, 1.0).sum())
        assert np.isclose(clip_sum(x0)[0], want, rtol=1e-10)
        assert abs(total) < n and biggest <= 2 / 3 + 1e-12 and np.isfinite(clipped)
        print(f"sum(rel) = {total:.6f}, max(rel) = {biggest:.6f}, sum(rowdot) = {dot_total:.6e}, "
              f"sum(clip_sum) = {clipped:.6f}")
        print(f"compile (first calls, summed over workers): {compile_s:.3f} s; "
              f"warm-up wall {t1 - t0:.3f} s; run {t2 - t1:.3f} s")
        print("results match NumPy")
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    main()
