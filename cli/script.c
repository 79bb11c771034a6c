/* script.c — `numjit run FILE.py`: runs a file's top-level statements in a session.
 *
 * The file is one chunk under its own name: defs and imports are kept as the REPL keeps them,
 * every other statement runs in order (assignments, array expressions, calls of the file's
 * functions, print, the array constructors, np.load/np.save).  A statement outside that set
 * is a located error saying what is not supported, and the run stops there (exit status 1),
 * as a Python exception would stop the script.  What ran before is printed first.
 * Ctrl-C stops the run before its next statement with "KeyboardInterrupt" at that statement
 * and exit status 130 (128 + SIGINT, as a shell reports Python's); a second Ctrl-C, while the
 * first waits for a statement boundary (inside a long compiled call), ends the process at once
 * with the same status.
 */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static NjSession *g_run_session;
static volatile sig_atomic_t g_sigint;

static void on_sigint(int sig) {
    (void)sig;
    if (g_sigint) {
        static const char msg[] = "\nKeyboardInterrupt\n";
        ssize_t w = write(2, msg, sizeof msg - 1);
        (void)w;
        _exit(130);
    }
    g_sigint = 1;
    if (g_run_session)
        nj_session_interrupt(g_run_session);
}

int cli_target(const char *name) {
    if (!strcmp(name, "cpu"))
        return NJ_TARGET_CPU;
    if (!strcmp(name, "parallel"))
        return NJ_TARGET_PARALLEL;
    if (!strcmp(name, "cuda"))
        return NJ_TARGET_CUDA;
    return -1;
}

/* The file's text and its length, or NULL with errno set (EISDIR for a directory, which fopen
 * opens). */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(f);
        errno = EISDIR;
        return NULL;
    }
    size_t cap = 4096, n = 0, k;
    char *b = malloc(cap + 1);
    while (b && (k = fread(b + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *nb = realloc(b, (cap *= 2) + 1);
            if (!nb) {
                free(b);
                b = NULL;
            }
            b = nb;
        }
    }
    int err = ferror(f) ? errno : 0;
    fclose(f);
    if (b && err) {
        free(b);
        errno = err;
        return NULL;
    }
    if (b)
        b[n] = 0;
    *len = n;
    return b;
}

int cli_run(NjContext *ctx, const char *path, NjTarget target) {
    size_t len = 0;
    char *text = read_file(path, &len);
    if (!text) {
        fprintf(stderr, "numjit run: cannot read '%s': %s\n", path, strerror(errno));
        return 1;
    }
    if (nj_check_source_bytes(ctx, path, text, len)) { /* a NUL would end the text silently */
        fputs(nj_error_message(ctx), stderr);
        free(text);
        return 1;
    }
    NjSession *s;
    if (nj_session_new(ctx, target, &s)) {
        free(text);
        fprintf(stderr, "numjit: cannot start a session: %s\n", nj_error_message(ctx));
        return 1;
    }
    g_run_session = s;
    struct sigaction sa, old_sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, &old_sa);
    char *out = NULL;
    NjStatus st = nj_session_exec(s, path, text, &out);
    sigaction(SIGINT, &old_sa, NULL);
    g_run_session = NULL;
    if (out) {
        fputs(out, stdout);
        fflush(stdout);
        nj_free_string(out);
    }
    int rc = 0;
    if (st) {
        const char *msg = nj_error_message(ctx);
        fputs(*msg ? msg : nj_status_name(st), stderr);
        if (!*msg || msg[strlen(msg) - 1] != '\n')
            fputc('\n', stderr);
        rc = g_sigint ? 130 : 1;
    }
    nj_session_free(s);
    free(text);
    return rc;
}
