/* fuzz_session.c — libFuzzer target for the REPL and `numjit run`: the input is a script
 * (statements, defs, loops, np.* calls) run by a fresh session of one long-lived context, as
 * `numjit run FILE.py` runs a file; inputs starting with ':' go to nj_session_command (the
 * REPL's inspection commands) instead.  Whatever the text, the session must return a status
 * and a diagnostic, never crash.
 *
 * Mutated scripts often loop forever at the top level (`while n < 10:` whose body no longer
 * changes n), as they would under Python; a watchdog thread interrupts a script that runs
 * longer than NJ_FUZZ_SCRIPT_MS (default 2000) milliseconds through nj_session_interrupt, as
 * Ctrl-C does at the REPL, so such an input ends with KeyboardInterrupt (and the interrupt
 * path is exercised) instead of stopping the fuzzer at libFuzzer's -timeout.  Loops inside
 * compiled functions run without checks, as compiled code does, so libFuzzer's timeout still
 * catches those.
 *
 * Compiling and running statements takes milliseconds, so this target sees far fewer inputs a
 * second than the others.  Built and run by tests/fuzz/run.sh; seeds in tests/fuzz/corpus_session.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "include/numjit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static NjContext *ctx;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static NjSession *running;   /* the session of the input being run, under lock */
static struct timespec began; /* when it began, under lock */
static long limit_ms = 2000;

static long ms_since(const struct timespec *t) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - t->tv_sec) * 1000 + (now.tv_nsec - t->tv_nsec) / 1000000;
}

static void *watchdog(void *arg) {
    (void)arg;
    for (;;) {
        usleep(50 * 1000);
        pthread_mutex_lock(&lock);
        if (running && ms_since(&began) > limit_ms)
            nj_session_interrupt(running); /* asked again each tick until the script stops */
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static int setup(void) {
    const char *e = getenv("NJ_FUZZ_SCRIPT_MS");
    if (e && atol(e) > 0)
        limit_ms = atol(e);
    pthread_t t;
    if (nj_context_new(&ctx) || pthread_create(&t, NULL, watchdog, NULL))
        return 1;
    pthread_detach(t);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!ctx && setup())
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
    pthread_mutex_lock(&lock);
    running = s;
    clock_gettime(CLOCK_MONOTONIC, &began);
    pthread_mutex_unlock(&lock);
    char *out = NULL;
    if (text[0] == ':')
        nj_session_command(s, text, &out);
    else
        nj_session_exec(s, "fuzz.py", text, &out);
    pthread_mutex_lock(&lock);
    running = NULL;
    pthread_mutex_unlock(&lock);
    nj_free_string(out);
    nj_session_free(s);
    free(text);
    return 0;
}
