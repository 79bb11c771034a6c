/* fuzz_ir.c — libFuzzer target for the IR text reader: any bytes go through ir_parse; a
 * program that parses is verified (ir_verify) and printed back (ir_print_program), and the
 * printed text must parse again.
 *
 * The input is copied into a NUL-terminated buffer (Source requires one) and parsed in a fresh
 * arena freed before returning.  Built and run by tests/fuzz/run.sh with clang-19
 * -fsanitize=fuzzer,address,undefined; seeds in tests/fuzz/corpus_ir (IR printed by the golden
 * tests).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static IrProgram *parse(Arena *a, const char *text, size_t n, DiagList *d) {
    Source *src = arena_alloc(a, sizeof *src);
    char *copy = arena_alloc(a, n + 1);
    memcpy(copy, text, n);
    copy[n] = 0;
    src->name = "fuzz.ir";
    src->text = copy;
    src->len = n;
    return ir_parse(a, src, d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Arena *a = arena_new();
    DiagList d;
    diag_init(&d);
    StrBuf out;
    sb_init(&out);
    IrProgram *p = parse(a, (const char *)data, size, &d);
    if (p) {
        DiagList v;
        diag_init(&v);
        if (ir_verify(p, &v)) {
            ir_print_program(p, &out);
            DiagList d2;
            diag_init(&d2);
            if (!parse(a, out.data ? out.data : "", out.len, &d2))
                __builtin_trap(); /* a verified program's text must read back */
            diag_free(&d2);
        }
        diag_render(&v, &out);
        diag_free(&v);
    }
    diag_render(&d, &out);
    sb_free(&out);
    diag_free(&d);
    arena_free(a);
    return 0;
}
