#!/bin/sh
# setup.sh — installs what numjit needs to build and test on Debian 12, with apt-get.
#
# Run as root on a fresh machine.  It asks dpkg which of the packages below are missing and
# installs only those (apt-get update runs only then), so a second run is a quick no-op.
# Everything the build uses comes from Debian: LLVM 19 (llvm-19-dev, clang-19 and its runtime
# libraries for the sanitizer build), Flex and Bison, Meson and Ninja, CPython 3.11 with NumPy,
# pytest, and Numba and numexpr (the peers the tests and benchmarks compare with); Dask
# (dask, distributed, cloudpickle), xarray, pandas and SciPy for the ecosystem tests and
# examples/dask_numjit.py; meson-python, venv and pip for `pip install .` (pyproject.toml).
set -eu

PACKAGES="llvm-19-dev clang-19 libclang-rt-19-dev flex bison meson ninja-build pkg-config
python3-dev python3-numpy python3-pytest python3-numba python3-numexpr libedit-dev
libzstd-dev zlib1g-dev tmux python3-dask python3-distributed python3-cloudpickle python3-xarray
python3-pandas python3-scipy python3-mesonpy python3-venv python3-pip patchelf"

missing=""
for p in $PACKAGES; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case "$status" in
        *"install ok installed"*) ;;
        *) missing="$missing $p" ;;
    esac
done

if [ -z "$missing" ]; then
    echo "setup.sh: all packages present"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "setup.sh: missing packages:$missing — run as root to install them" >&2
    exit 1
fi

echo "setup.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
echo "setup.sh: done"
