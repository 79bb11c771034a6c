#!/usr/bin/python3
"""make_seeds.py — (re)writes the seed corpora of the libFuzzer targets that take bytes:
corpus_npy (small .npy files written by NumPy: each dtype numjit reads, 0-3 dimensions,
Fortran order, format 2.0), corpus_cache (valid cache entries for fuzz_cache.c's fixed key,
with @njit and cubin payloads, prefixed by the mode byte), corpus_sig and corpus_ir (from
tests/golden/ir).  corpus_session and corpus (the parser's) are hand-written.
Run with /usr/bin/python3 (NumPy) from anywhere; the files are small and kept in the tree.
"""

import hashlib
import io
import os
import shutil
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def write(folder, name, data):
    os.makedirs(os.path.join(HERE, folder), exist_ok=True)
    with open(os.path.join(HERE, folder, name), "wb") as f:
        f.write(data)


def npy(a, **kw):
    b = io.BytesIO()
    np.lib.format.write_array(b, a, **kw)
    return b.getvalue()


def seeds_npy():
    for dt in ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
               "uint64", "float32", "float64", "complex64", "complex128"]:
        write("corpus_npy", f"{dt}.npy", npy(np.arange(6).astype(dt).reshape(2, 3)))
    write("corpus_npy", "scalar.npy", npy(np.array(2.5)))
    write("corpus_npy", "empty.npy", npy(np.zeros((0, 3))))
    write("corpus_npy", "3d.npy", npy(np.arange(24.0).reshape(2, 3, 4)))
    write("corpus_npy", "fortran.npy", npy(np.asfortranarray(np.arange(6.0).reshape(2, 3))))
    write("corpus_npy", "v2.npy", npy(np.arange(3), version=(2, 0)))
    write("corpus_npy", "bigendian.npy", npy(np.arange(3, dtype=">f8")))


def blob_str(s):
    b = s.encode()
    return struct.pack("<I", len(b)) + b


def entry(payload, desc=b"fuzz.py: f(float64) [njit]"):
    body = desc + payload
    head = (b"NUMJITC\x1a" + struct.pack("<II", 1, 96) + bytes(range(32)) +
            struct.pack("<QII", len(body), len(desc), 0) + hashlib.sha256(body).digest())
    return head + body


def seeds_cache():
    # an @njit payload: tag, symbol, return type, raise table, object bytes (cache.c's blob
    # encoding: u32 lengths, a type as its kind and parts)
    njit = (blob_str("njit") + blob_str("nj_cache." + bytes(range(16)).hex()) +
            struct.pack("<I", 10) + struct.pack("<I", 1) + blob_str("ZeroDivisionError") +
            blob_str("f.py:2:12: error: division by zero") + blob_str("\x7fELF" + "\0" * 12))
    write("corpus_cache", "njit_entry", b"\x00" + entry(njit))
    write("corpus_cache", "njit_payload", b"\x01" + njit)
    write("corpus_cache", "empty_entry", b"\x00" + entry(b""))
    write("corpus_cache", "short", b"\x00NUMJITC\x1a")


def seeds_sig():
    for i, s in enumerate(["float64(float64)", "f(float32[:], float32[:])", "void(int64[:, ::1])",
                           "(float64[::1, :], int32, boolean)", "UniTuple(int64, 2)(int64)",
                           "complex128(complex64[:,:,:])", "norm_f32=norm(float32[:])",
                           "uint8(i8, f4, u2, b1)", "int32[:](int32[:])"]):
        write("corpus_sig", f"sig{i}", s.encode())


def seeds_ir():
    src = os.path.join(os.path.dirname(HERE), "golden", "ir")
    os.makedirs(os.path.join(HERE, "corpus_ir"), exist_ok=True)
    for name in sorted(os.listdir(src)):
        if name.endswith(".ir") and os.path.getsize(os.path.join(src, name)) < 8192:
            shutil.copy(os.path.join(src, name), os.path.join(HERE, "corpus_ir", name))


if __name__ == "__main__":
    seeds_npy()
    seeds_cache()
    seeds_sig()
    seeds_ir()
