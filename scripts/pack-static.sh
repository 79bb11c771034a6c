#!/bin/sh
# scripts/pack-static.sh [OUT.tar.xz] — builds numjit with LLVM linked statically (X86 and
# NVPTX only: -Dllvm_static=true, release) in build-static/, and packs what another x86-64
# Linux machine without LLVM needs into one archive (default dist/numjit-static.tar.xz):
#
#   libnumjit.so  numjit  python/numjit/ (with _numjit.abi3.so)  include/numjit.h
#
# Unpack anywhere (Python's lzma/tarfile do it where no xz is installed) and use
#   PYTHONPATH=DIR/python  (the extension finds DIR/libnumjit.so by its $ORIGIN rpath)
# The result needs only glibc >= 2.36, zlib and libzstd.so.1.
set -eu
cd "$(dirname "$0")/.."
out=${1:-dist/numjit-static.tar.xz}
[ -f build-static/build.ninja ] ||
    meson setup --native-file llvm19.ini build-static -Dllvm_static=true -Dbuildtype=release >/dev/null
meson setup --reconfigure build-static >/dev/null  # picks up new files before listing targets
targets="libnumjit.so numjit tests/test_cuda_driver tests/test_kernel_launch tests/test_gpu_ufunc examples/ufunc_c bench/bench_core_c"
targets="$targets $(ninja -C build-static -t targets all | sed -n 's|^\(python/numjit/[^:]*\):.*|\1|p')"
log=$(mktemp)
ninja -C build-static $targets >"$log" 2>&1 || { tail -40 "$log"; rm -f "$log"; exit 1; }
rm -f "$log"
ninja -C build-static examples/aot_ptx >/dev/null 2>&1 || true
stage=$(mktemp -d)
mkdir -p "$stage/python/numjit" "$stage/include"
cp build-static/libnumjit.so build-static/numjit "$stage/"
strip --strip-unneeded "$stage/libnumjit.so" "$stage/numjit"
cp build-static/python/numjit/*.py build-static/python/numjit/*.so "$stage/python/numjit/"
cp -r build-static/python/numjit/dropin_path "$stage/python/numjit/"  # `python3 -m numjit`'s numba
strip --strip-unneeded "$stage"/python/numjit/*.so
# programs that use only the public API (small: they link libnumjit.so)
mkdir -p "$stage/bin"
for prog in tests/test_cuda_driver tests/test_kernel_launch tests/test_gpu_ufunc examples/aot_ptx examples/ufunc_c bench/bench_core_c; do
    [ -f "build-static/$prog" ] && cp "build-static/$prog" "$stage/bin/" &&
        strip --strip-unneeded "$stage/bin/$(basename "$prog")"
done
cp include/numjit.h "$stage/include/"
mkdir -p "$(dirname "$out")"
tar -C "$stage" -cf - . | xz -T2 -6 > "$out"
rm -rf "$stage"
ls -la "$out"
