#!/bin/sh
# scripts/gpu-suite.sh [OUTDIR] — the GPU checks and benchmarks in one go, on a machine with an
# NVIDIA GPU and its driver but no LLVM, from the archive of scripts/pack-static.sh.
#
#   1. unpacks dist/numjit-static.tar.xz into a temporary directory (Python's tarfile: no xz
#      needed) and points LD_LIBRARY_PATH / PYTHONPATH at it;
#   2. the C GPU tests (driver, kernels, ufuncs), the Python GPU tests (tests/gpu) and the
#      Python package tests (tests/python, under the machine's own NumPy);
#   3. `numjit ptx` of a small kernel, timed (median of 11 whole commands);
#   4. bench/gpu_gufunc_variants.py and bench/gpu_bench.py, with their JSON.
#
# Everything it prints also lands in OUTDIR (default gpu-out/): suite.txt, variants.json,
# gpu.json.  Steps are independent: a failing one is reported and the rest still run.  Set
# GPU_SUITE_SKIP to a space-separated list of step names (tests ptx variants bench) to skip.
set -u
cd "$(dirname "$0")/.."
out=${1:-gpu-out}
mkdir -p "$out"
nj=$(mktemp -d /tmp/numjit_gpu_XXXXXX)
python3 -c "import tarfile, sys; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" \
    dist/numjit-static.tar.xz "$nj" || { echo "no dist/numjit-static.tar.xz"; exit 1; }
export LD_LIBRARY_PATH="$nj" PYTHONPATH="$nj/python"
export NUMJIT_CACHE_DIR="$nj/cache" NUMJIT_CLI="$nj/numjit"
skip() { case " ${GPU_SUITE_SKIP:-} " in *" $1 "*) return 0 ;; esac; return 1; }
rm -f "$out/failed"
step() { # step NAME CMD...: runs CMD, notes a failure
    name=$1
    shift
    echo "=== $name"
    "$@" || { echo "=== $name FAILED ($?)"; echo "$name" >>"$out/failed"; }
}

{
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
    if ! skip tests; then
        step "C: driver" "$nj/bin/test_cuda_driver"
        step "C: kernels" "$nj/bin/test_kernel_launch" tests/gpu/kernels.py
        step "C: ufuncs" "$nj/bin/test_gpu_ufunc" tests/gpu/ufuncs.py
        step "python: tests/gpu" python3 -m pytest -p no:cacheprovider -q -s tests/gpu
        # the CPU package tests too, under this machine's NumPy (2.x where the build has 1.x)
        step "python: tests/python" python3 -m pytest -p no:cacheprovider -q tests/python
    fi
    if ! skip ptx; then
        echo "=== numjit ptx of a small kernel (whole command, ms)"
        python3 - "$nj/numjit" <<'EOF'
import statistics, subprocess, sys, time
cmd = [sys.argv[1], "ptx", "examples/aot_ptx/kernels.py", "--sig",
       "axpy(float32, float32[:], float32[:])", "-o", "/dev/null"]
ts = []
for _ in range(11):
    t = time.perf_counter()
    subprocess.run(cmd, check=True)
    ts.append((time.perf_counter() - t) * 1e3)
print(f"numjit ptx axpy: median {statistics.median(ts):.1f} ms (min {min(ts):.1f})")
EOF
    fi
    skip variants || step "gufunc variants" python3 bench/gpu_gufunc_variants.py \
        --json "$out/variants.json"
    skip bench || step "benchmarks" python3 bench/gpu_bench.py --build "$nj" --plot "$out/gpu.svg" \
        --json "$out/gpu.json"
} 2>&1 | tee "$out/suite.txt"
rm -rf "$nj"
[ ! -f "$out/failed" ]
