"""dask_multi_gpu.py — numjit GPU code on a Dask cluster with one worker per GPU (the layout of
dask-cuda: each worker process sees one device through CUDA_VISIBLE_DEVICES and owns it).

    python3 examples/dask_multi_gpu.py                        # this host: one worker per GPU
    python3 examples/dask_multi_gpu.py --address tcp://host:8786   # a cluster started elsewhere
    ... --log2n 28 --chunks 8 --steps 100 --repeat 3 --gpus N --numba

Without --address the program starts a SpecCluster on this host with one Nanny per GPU (each
with one thread and CUDA_VISIBLE_DEVICES set to its device), and the same job on a cluster of
one such worker for the comparison.  With --address, it uses the workers that scheduler has:
start one `dask worker --nthreads 1` per GPU with CUDA_VISIBLE_DEVICES set, on every host.

The job: 2^log2n elements in --chunks chunks; each task makes its chunk on its device (a kernel
hashing the element index, so no data travels), applies --steps rounds of a GPU ufunc (W1:
2*(x-y)/(x+y) in float32) and a grid kernel (W2: sin(x)^2 + cos(x)^2 in float64), as a pipeline
that keeps its data on the device would, and reduces both results on the device to per-thread
partial sums; only those come back (4 MB per chunk).  Device buffers are allocated once per
worker.  The functions
travel to the workers pickled by value (their source text), and each worker compiles once.

It prints the time of the job on one worker and on all of them (medians of --repeat runs after
a warm-up run that compiles on every worker), the scaling, and whether every chunk's sums equal
the one-worker run's bit for bit (they must: the same chunk gives the same floats on any GPU of
the same model).  --numba runs the same file with numba-cuda's decorators.  Exit 77 when the
machine has no GPU or no Dask.
"""
import argparse
import math
import os
import statistics
import sys
import time

import numpy as np

if "--numba" in sys.argv:
    from numba import cuda, vectorize
else:
    from numjit import cuda, vectorize

BLOCK = 256
GRID = 1024  # blocks per chunk kernel: the partial sums per chunk are GRID * BLOCK numbers


@vectorize(["float32(float32, float32)"], target="cuda")
def rel_diff(x, y):
    return 2 * (x - y) / (x + y)


@cuda.jit
def make_chunk(x32, y32, x64, start):
    """Element i of the whole array from a hash of its global index: any worker makes the same
    chunk, and no input crosses the network."""
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < x64.size:
        k = (start + i) * 2654435761 % 4294967296
        u = k / 4294967296.0
        x32[i] = np.float32(1.0 + u)
        y32[i] = np.float32(1.0 + (k * 40503 % 65536) / 65536.0)
        x64[i] = 8.0 * u - 4.0
        i += stride


@cuda.jit
def trig(x64, o64):
    """W2: sin(x)^2 + cos(x)^2."""
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < x64.size:
        o64[i] = math.sin(x64[i]) ** 2 + math.cos(x64[i]) ** 2
        i += stride


@cuda.jit
def partial_sums(r32, o64, part32, part64):
    """The grid-stride partial sums of W1's result and of W2's, one pair per thread."""
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    s32 = 0.0
    s64 = 0.0
    j = i
    while j < o64.size:
        s32 += r32[j]
        s64 += o64[j]
        j += stride
    if i < part64.size:
        part32[i] = s32
        part64[i] = s64


def buffers(n):
    """This worker's device arrays for chunks of n elements, allocated once per worker (the
    functions arrive pickled by value with each task, so the cache hangs on the worker)."""
    try:
        from distributed import get_worker
        holder = get_worker()
    except (ImportError, ValueError):
        holder = buffers
    cache = holder.__dict__.setdefault("_gpu_buffers", {})
    if n not in cache:
        cache[n] = [cuda.device_array(n, dtype=t) for t in
                    (np.float32, np.float32, np.float64, np.float32, np.float64)] + \
                   [cuda.device_array(GRID * BLOCK, dtype=np.float64) for _ in range(2)]
    return cache[n]


def chunk_task(index, start, n, steps):
    """One chunk on this worker's GPU, `steps` rounds of W1 and W2 queued back to back (a
    pipeline's steady state), then their sums: (index, partial sums of W1, of W2)."""
    x32, y32, x64, r32, o64, p32, p64 = buffers(n)
    make_chunk[GRID, BLOCK](x32, y32, x64, start)
    for _ in range(steps):
        rel_diff(x32, y32, out=r32)
        trig[GRID, BLOCK](x64, o64)
    partial_sums[GRID, BLOCK](r32, o64, p32, p64)
    return index, p32.copy_to_host(), p64.copy_to_host()


def gpu_name():
    name = cuda.get_current_device().name
    return name.decode() if isinstance(name, bytes) else str(name)


def run_job(client, n, chunks, steps):
    size = n // chunks
    futures = [client.submit(chunk_task, c, c * size, size, steps, pure=False)
               for c in range(chunks)]
    out = sorted(client.gather(futures), key=lambda r: r[0])
    return [(p32, p64) for _, p32, p64 in out]


def timed(client, n, chunks, steps, repeat):
    run_job(client, n, chunks, 1)  # warm-up: every worker compiles (at most) once
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = run_job(client, n, chunks, steps)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def local_cluster(devices):
    from distributed import Nanny, Scheduler, SpecCluster
    workers = {f"gpu{d}": {"cls": Nanny,
                           "options": {"nthreads": 1, "silence_logs": 40,
                                       "env": {"CUDA_VISIBLE_DEVICES": str(d)}}}
               for d in devices}
    scheduler = {"cls": Scheduler, "options": {"dashboard_address": None}}
    return SpecCluster(workers=workers, scheduler=scheduler, silence_logs=40)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--address")
    ap.add_argument("--log2n", type=int, default=28)
    ap.add_argument("--chunks", type=int, default=8)
    ap.add_argument("--steps", type=int, default=100, help="rounds of W1 + W2 per task")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--gpus", type=int, default=0, help="how many (default: all)")
    ap.add_argument("--numba", action="store_true")
    args = ap.parse_args()
    try:
        from distributed import Client
    except ImportError:
        print("dask_multi_gpu: Dask's distributed is not installed; skipped")
        return 77
    try:
        ngpu = len(cuda.gpus)
    except Exception as e:  # no driver
        print(f"dask_multi_gpu: no GPU ({e}); skipped")
        return 77
    if ngpu == 0 and not args.address:
        print("dask_multi_gpu: no GPU; skipped")
        return 77
    if args.gpus:
        ngpu = min(ngpu, args.gpus)
    n = 1 << args.log2n
    if n % args.chunks:
        ap.error("--chunks must divide 2^log2n")
    if args.steps < 1:
        ap.error("--steps must be at least 1")

    if args.address:
        with Client(args.address) as client:
            workers = len(client.scheduler_info()["workers"])
            names = set(client.run(gpu_name).values())
            print(f"cluster {args.address}: {workers} workers on {', '.join(sorted(names))}")
            tk, got = timed(client, n, args.chunks, args.steps, args.repeat)
        print(f"n = 2^{args.log2n} in {args.chunks} chunks: {tk * 1e3:.1f} ms")
        return 0

    with local_cluster([0]) as one, Client(one) as client:
        print(f"{ngpu} GPU(s): {client.run(gpu_name)[next(iter(client.run(gpu_name)))]}")
        t1, ref = timed(client, n, args.chunks, args.steps, args.repeat)
    with local_cluster(range(ngpu)) as many, Client(many) as client:
        tk, got = timed(client, n, args.chunks, args.steps, args.repeat)
    same = all(np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
               for a, b in zip(ref, got))
    w1 = sum(p[0].sum() for p in got)
    w2 = sum(p[1].sum() for p in got)
    # W2 is 1 per element to rounding; W1 averages 2(x-y)/(x+y) over x, y in [1, 2).
    ok = abs(w2 - n) < 1e-6 * n and abs(w1) < 0.05 * n
    print(f"n = 2^{args.log2n} in {args.chunks} chunks, {args.steps} rounds: "
          f"one worker {t1 * 1e3:.1f} ms, {ngpu} workers {tk * 1e3:.1f} ms, "
          f"scaling {t1 / tk:.2f}x; results "
          f"{'equal' if same else 'DIFFER'} ({'correct' if ok else 'WRONG'}: "
          f"sum W2 = {w2:.6g}, mean W1 = {w1 / n:.4g})")
    return 0 if same and ok else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    raise SystemExit(main())
