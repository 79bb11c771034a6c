#!/bin/sh
# run-example.sh — builds numjit (normal build in ./build) and runs examples/rel_diff.py through
# the Python package in the build tree.  Arguments are passed to the example (array size).
set -e
cd "$(dirname "$0")"
./setup.sh
# Meson 1.0 does not look for llvm-config-19 by itself.
export LLVM_CONFIG="${LLVM_CONFIG:-llvm-config-19}"
[ -f build/build.ninja ] || meson setup --native-file llvm19.ini build
ninja -C build
PYTHONPATH="$PWD/build/python" exec /usr/bin/python3 examples/rel_diff.py "$@"
