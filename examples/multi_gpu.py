"""Every GPU of the host on one job: a GPU ufunc (W1, `2*(x-y)/(x+y)` in float32) and a grid
kernel (W2, `sin(x)**2 + cos(x)**2` in float64) over arrays split across the devices, one host
thread per device (numjit's current device is per thread: `cuda.select_device(i)` or
`with cuda.gpus[i]:`), each working on its own slice in its own device's memory.

    python3 examples/multi_gpu.py [--log2n 28] [--repeat 5] [--steps 20] [--gpus N]

It checks that the split result equals one GPU's result bit for bit, and prints the time of the
steady-state compute (data resident on the devices, as in a pipeline that keeps it there:
`--steps` rounds of both workloads queued back to back) on one GPU and on all of them, and the
scaling.  The same file runs under Numba (numba-cuda):
`python3 -m numjit` is not needed for that, only `import numba` in place of numjit below.
"""
import argparse
import math
import statistics
import threading
import time

import numpy as np

try:
    from numjit import cuda, vectorize
except ImportError:  # pragma: no cover - the same program under Numba
    from numba import cuda, vectorize


@vectorize(["float32(float32, float32)"], target="cuda")
def rel_diff(x, y):
    return 2 * (x - y) / (x + y)


@cuda.jit
def trig(x, out):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < x.size:
        out[i] = math.sin(x[i]) ** 2 + math.cos(x[i]) ** 2
        i += stride


class Share:
    """One device's slice: inputs and outputs resident in that device's memory."""

    def __init__(self, dev, x32, y32, x64):
        self.dev = dev
        with cuda.gpus[dev]:
            self.x32, self.y32 = cuda.to_device(x32), cuda.to_device(y32)
            self.o32 = cuda.device_array_like(x32)
            self.x64 = cuda.to_device(x64)
            self.o64 = cuda.device_array_like(x64)

    def compute(self, steps=1):
        """`steps` rounds of both workloads, queued back to back, then one wait."""
        cuda.select_device(self.dev)
        n = self.x64.size
        for _ in range(steps):
            rel_diff(self.x32, self.y32, out=self.o32)
            trig[min((n + 255) // 256, 65536), 256](self.x64, self.o64)
        cuda.synchronize()

    def results(self):
        with cuda.gpus[self.dev]:
            return self.o32.copy_to_host(), self.o64.copy_to_host()


def split(a, k):
    return np.array_split(a, k)


def timed(shares, repeat, steps):
    """Median over `repeat` runs of the time for every share to finish `steps` rounds, started
    together (a pipeline's steady state: the fixed cost of starting threads is not in it)."""
    times = []
    for _ in range(repeat):
        start = threading.Barrier(len(shares) + 1)
        threads = [threading.Thread(target=lambda s=s: (start.wait(), s.compute(steps)))
                   for s in shares]
        for t in threads:
            t.start()
        start.wait()
        t0 = time.perf_counter()
        for t in threads:
            t.join()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log2n", type=int, default=28)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--steps", type=int, default=20, help="rounds per timed run")
    ap.add_argument("--gpus", type=int, default=0, help="how many (default: all)")
    args = ap.parse_args()
    ngpu = len(cuda.gpus) if not args.gpus else min(args.gpus, len(cuda.gpus))
    n = 1 << args.log2n
    rng = np.random.default_rng(7)
    x32 = rng.random(n, dtype=np.float32) + 1
    y32 = rng.random(n, dtype=np.float32) + 1
    x64 = rng.standard_normal(n)
    names = [cuda.gpus[i].name for i in range(ngpu)]
    names = [n.decode() if isinstance(n, bytes) else str(n) for n in names]
    print(f"{ngpu} GPU(s): {', '.join(names)}")

    one = [Share(0, x32, y32, x64)]
    one[0].compute()  # compiles for device 0
    t1 = timed(one, args.repeat, args.steps)
    r32, r64 = one[0].results()
    del one

    parts = list(zip(split(x32, ngpu), split(y32, ngpu), split(x64, ngpu)))
    shares = [Share(d, *parts[d]) for d in range(ngpu)]
    for s in shares:
        s.compute()  # compiles for each device
    tk = timed(shares, args.repeat, args.steps)
    got = [s.results() for s in shares]
    m32 = np.concatenate([g[0] for g in got])
    m64 = np.concatenate([g[1] for g in got])
    same = np.array_equal(m32, r32) and np.array_equal(m64, r64)
    ok = same and np.allclose(r32, 2 * (x32 - y32) / (x32 + y32), rtol=1e-6) \
        and np.allclose(r64, 1.0)
    print(f"n = 2^{args.log2n}, {args.steps} rounds of W1 + W2: one GPU {t1 * 1e3:.2f} ms, "
          f"{ngpu} GPUs {tk * 1e3:.2f} ms, "
          f"scaling {t1 / tk:.2f}x; results {'equal' if same else 'DIFFER'} "
          f"({'correct' if ok else 'WRONG'})")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
