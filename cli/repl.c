/* repl.c — `numjit` with no arguments: an interactive session.
 *
 * Line editing, history and completion come from libedit through its readline-compatible
 * interface.  The loop reads a line; a line starting with ':' is an inspection command; other
 * lines accumulate into a chunk until it is complete, as Python's REPL decides it:
 *   - a chunk whose first line opens a block (ends with ':') continues, under the "... "
 *     prompt, until an empty line;
 *   - a chunk with unclosed brackets or a trailing backslash continues;
 * then the chunk runs in the session (nj_session_exec, file name "<stdin>", so diagnostics
 * number lines across the whole session).  What it printed goes to stdout, errors (with a
 * caret under the typed line) to stderr, and the session goes on.
 * History lives in $NUMJIT_HISTORY or ~/.numjit_history and is written after every entry.
 * Without a terminal on stdin the same loop runs on plain lines, without prompts.
 */
#include "cli.h"

#include <editline/readline.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static NjSession *g_session; /* for the completion callback and the SIGINT handler */
static volatile sig_atomic_t g_sigint, g_running;

/* Ctrl-C: the running chunk stops before its next statement (nj_session_interrupt); at the
 * prompt, the line and the pending chunk are dropped. */
static void on_sigint(int sig) {
    (void)sig;
    g_sigint = 1;
    if (g_session && g_running)
        nj_session_interrupt(g_session);
}
static char g_history[4096];

static char *complete_gen(const char *text, int state) {
    static char **list;
    static int n, i;
    if (!state) {
        if (list)
            nj_session_free_completions(list, n);
        n = nj_session_complete(g_session, text, &list);
        i = 0;
    }
    if (i < n)
        return strdup(list[i++]);
    return NULL;
}

static char **complete(const char *text, int start, int end) {
    (void)start, (void)end;
    rl_attempted_completion_over = 1;
    return rl_completion_matches(text, complete_gen);
}

/* Does the chunk need more lines?  (Python's codeop, approximately.) */
static bool needs_more(const char *chunk, const char *last_line) {
    int depth = 0;
    char quote = 0;
    const char *p = chunk;
    for (; *p; p++) {
        if (quote) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == quote)
                quote = 0;
            continue;
        }
        if (*p == '#') {
            while (*p && *p != '\n')
                p++;
            if (!*p)
                break;
            continue;
        }
        if (*p == '\'' || *p == '"')
            quote = *p;
        else if (*p == '(' || *p == '[' || *p == '{')
            depth++;
        else if (*p == ')' || *p == ']' || *p == '}')
            depth--;
    }
    if (depth > 0)
        return true;
    size_t n = strlen(last_line);
    while (n > 0 && (last_line[n - 1] == ' ' || last_line[n - 1] == '\t'))
        n--;
    if (n > 0 && last_line[n - 1] == '\\')
        return true;
    /* a block: its first line (or any line) ends with ':' → wait for an empty line */
    const char *first_end = strchr(chunk, '\n');
    size_t fl = first_end ? (size_t)(first_end - chunk) : strlen(chunk);
    while (fl > 0 && (chunk[fl - 1] == ' ' || chunk[fl - 1] == '\t'))
        fl--;
    bool block = (fl > 0 && chunk[fl - 1] == ':') || chunk[0] == '@';
    if (!block)
        return false;
    return n > 0; /* an empty line ends the block */
}

static void print_error(NjContext *ctx, NjStatus st) {
    const char *msg = nj_error_message(ctx);
    if (!*msg)
        msg = nj_status_name(st);
    fputs(msg, stderr);
    if (msg[strlen(msg) - 1] != '\n')
        fputc('\n', stderr);
    fflush(stderr);
}

static void put_output(char *out) {
    if (out) {
        fputs(out, stdout);
        fflush(stdout);
        nj_free_string(out);
    }
}

static char *read_plain(void) {
    size_t cap = 256, n = 0;
    char *b = malloc(cap);
    if (!b)
        return NULL;
    int c;
    while ((c = getchar()) != EOF && c != '\n') {
        if (n + 1 >= cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb) {
                free(b);
                return NULL;
            }
            b = nb;
        }
        b[n++] = (char)c;
    }
    if (c == EOF && n == 0) {
        free(b);
        return NULL;
    }
    b[n] = 0;
    return b;
}

int cli_repl(NjContext *ctx, NjTarget target) {
    NjSession *s;
    if (nj_session_new(ctx, target, &s)) {
        fprintf(stderr, "numjit: cannot start a session: %s\n", nj_error_message(ctx));
        return 1;
    }
    nj_session_set_echo(s, true);
    g_session = s;
    struct sigaction sa, old_sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint; /* no SA_RESTART: a read at the prompt returns */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_sa);
    bool tty = isatty(0);
    if (tty) {
        const char *h = getenv("NUMJIT_HISTORY");
        const char *home = getenv("HOME");
        if (h && *h)
            snprintf(g_history, sizeof g_history, "%s", h);
        else if (home)
            snprintf(g_history, sizeof g_history, "%s/.numjit_history", home);
        using_history();
        stifle_history(2000);
        if (*g_history)
            read_history(g_history);
        rl_readline_name = "numjit";
        rl_attempted_completion_function = complete;
        rl_completer_word_break_characters = " \t\n()[]{},+-*/%=<>!&|^~";
        printf("numjit %s - Python with fused array expressions.  :help for commands, Ctrl-D "
               "to leave.\nnp and math are imported.\n", nj_version());
        fflush(stdout);
    }
    char *chunk = NULL;
    size_t clen = 0;
    for (;;) {
        /* a Ctrl-C that came while the last line was handled counts as one at this prompt */
        char *line = g_sigint ? NULL : tty ? readline(chunk ? "... " : ">>> ") : read_plain();
        if (g_sigint) { /* Ctrl-C at the prompt: as Python, drop what was typed */
            g_sigint = 0;
            free(line);
            free(chunk);
            chunk = NULL;
            clen = 0;
            fputs(tty ? "\nKeyboardInterrupt\n" : "KeyboardInterrupt\n", stderr);
            fflush(stderr);
            if (!tty)
                clearerr(stdin); /* the interrupted read left its error flag */
            continue;
        }
        if (!line) {
            if (tty)
                putchar('\n');
            if (!chunk)
                break;
            line = strdup(""); /* EOF ends a pending block */
            if (!line)
                break;
        }
        if (tty && *line) {
            add_history(line);
            if (*g_history)
                write_history(g_history);
        }
        const char *t = line;
        while (*t == ' ' || *t == '\t')
            t++;
        if (!chunk) {
            if (!*t || *t == '#') {
                free(line);
                continue;
            }
            if (*t == ':') {
                char *out = NULL;
                NjStatus st = nj_session_command(s, t, &out);
                put_output(out);
                if (st)
                    print_error(ctx, st);
                free(line);
                continue;
            }
            if (!strcmp(t, "exit()") || !strcmp(t, "quit()") || !strcmp(t, "exit") ||
                !strcmp(t, "quit")) {
                free(line);
                break;
            }
        }
        size_t ln = strlen(line);
        char *nc = realloc(chunk, clen + ln + 2);
        if (!nc) {
            free(line);
            break;
        }
        chunk = nc;
        memcpy(chunk + clen, line, ln);
        clen += ln;
        chunk[clen++] = '\n';
        chunk[clen] = 0;
        bool more = needs_more(chunk, line);
        free(line);
        if (more)
            continue;
        char *out = NULL;
        g_running = 1;
        if (g_sigint) /* Ctrl-C after the chunk's last line was read: it stops the chunk */
            nj_session_interrupt(s);
        NjStatus st = nj_session_exec(s, "<stdin>", chunk, &out);
        g_running = 0;
        g_sigint = 0; /* the chunk has taken it */
        put_output(out);
        if (st)
            print_error(ctx, st);
        free(chunk);
        chunk = NULL;
        clen = 0;
    }
    free(chunk);
    g_session = NULL;
    sigaction(SIGINT, &old_sa, NULL);
    nj_session_free(s);
    return 0;
}
