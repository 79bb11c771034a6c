/* fuzz_session.c — libFuzzer target for the REPL and `numjit run`: the input is a script
 * (statements, defs, loops, np.* calls) run by a fresh session of one long-lived context, as
 * `numjit run FILE.py` runs a file; inputs starting with ':' go to nj_session_command (the
 * REPL's inspection commands) instead.  Whatever the text, the session must return a status
 * and a diagnostic, never crash.
 *
 * Compiling and running statements takes milliseconds, so this target sees far fewer inputs a
 * second than the others; long loops a script asks for are cut by libFuzzer's -timeout.
 * Built and run by tests/fuzz/run.sh; seeds in tests/fuzz/corpus_session.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "include/numjit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static NjContext *ctx;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!ctx && nj_context_new(&ctx))
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    NjSession *s;
    if (nj_session_new(ctx, NJ_TARGET_CPU, &s)) {
        free(text);
        return 0;
    }
    char *out = NULL;
    if (text[0] == ':')
        nj_session_command(s, text, &out);
    else
        nj_session_exec(s, "fuzz.py", text, &out);
    nj_free_string(out);
    nj_session_free(s);
    free(text);
    return 0;
}
