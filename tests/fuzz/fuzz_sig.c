/* fuzz_sig.c — libFuzzer target for signature strings ("float64(float64[:], int32)",
 * "f(float32[:, ::1])", "void(int64)"): any bytes, NUL-terminated, go through ty_parse_sig
 * (the reader @njit("..."), nj_compile_signature, @cuda.jit("..."), the GPU ufuncs and
 * `numjit obj --sig` share) and ty_from_name; every type it returns is checked (its name, its kind's
 * predicates).
 *
 * Built and run by tests/fuzz/run.sh; seeds in tests/fuzz/corpus_sig.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

/* Reads what a caller reads of a type: its name and what the predicates look at. */
static void touch(const Type *t) {
    if (!t)
        return;
    sink += strlen(t->name) + (size_t)ty_is_elem(t) + (size_t)ty_has_refs(t);
    if (ty_is_scalar(t))
        sink += (size_t)ty_size(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = 0;
    const Type *ret, *args[16];
    const char *err = NULL;
    int n = ty_parse_sig(s, &ret, args, 16, &err);
    if (n > 16 || (n < 0 && !err))
        __builtin_trap(); /* more arguments than room for, or a refusal without a message */
    for (int i = 0; i < n; i++)
        touch(args[i]);
    if (n >= 0)
        touch(ret);
    touch(ty_from_name(s));
    free(s);
    return 0;
}
