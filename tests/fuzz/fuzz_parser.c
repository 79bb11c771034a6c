/* fuzz_parser.c — libFuzzer target for the frontend: any bytes go through fe_parse,
 * ast_print, fe_module_info and diag_render.
 *
 * The input is copied into a NUL-terminated buffer (Source requires one) and parsed in a fresh
 * arena; everything is freed before returning so LeakSanitizer sees no leak.  Built with
 * clang -fsanitize=fuzzer,address,undefined when meson is configured with -Dfuzz=true; run as
 *     ./fuzz_parser tests/fuzz/corpus -max_len=4096
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    Source src = {"fuzz.py", text, size};
    Arena *arena = arena_new();
    DiagList diags;
    StrBuf out;
    diag_init(&diags);
    sb_init(&out);
    Node *mod = fe_parse(arena, &src, &diags);
    if (mod) {
        ast_print(mod, &out);
        fe_module_info(arena, &src, mod, &diags);
    }
    diag_render(&diags, &out);
    sb_free(&out);
    diag_free(&diags);
    arena_free(arena);
    free(text);
    return 0;
}
