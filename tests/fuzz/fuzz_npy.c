/* fuzz_npy.c — libFuzzer target for the .npy reader (np.load in the REPL and `numjit run`):
 * the input is written to a file and read with npy_load; an array it returns is walked (every
 * byte of its buffer read through its shape and strides) and released.
 *
 * npy_load takes a path, so each input goes to one file per process under $TMPDIR.  Built
 * and run by tests/fuzz/run.sh; seeds in tests/fuzz/corpus_npy (NumPy-written files).
 */
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[512];
static volatile unsigned sink;

/* Reads every element of a (any strides) as bytes. */
static void walk(const NjArray *a, int dim, const char *p) {
    if (dim == a->ndim) {
        for (int k = 0; k < nj_dtype_size(a->dtype); k++)
            sink += (unsigned char)p[k];
        return;
    }
    for (int64_t i = 0; i < a->shape[dim]; i++)
        walk(a, dim + 1, p + i * a->strides[dim]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!path[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/fuzz_npy.%ld.npy", t && *t ? t : "/tmp", (long)getpid());
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    if (size)
        fwrite(data, 1, size, f);
    fclose(f);
    SArr *a = NULL;
    char err[512] = {0};
    if (npy_load(path, &a, err, sizeof err) == NJ_OK && a) {
        bool empty = false; /* (10**11, 0) holds nothing: no walk of its 10**11 empty rows */
        for (int d = 0; d < a->a.ndim; d++)
            empty |= a->a.shape[d] == 0;
        if (!empty)
            walk(&a->a, 0, a->a.data);
        sa_decref(a);
    } else if (!err[0]) {
        __builtin_trap(); /* a refusal must say why */
    }
    unlink(path);
    return 0;
}
