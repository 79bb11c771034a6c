/* diag.c — collecting and rendering diagnostics.
 *
 * A DiagList grows as errors are reported; nothing is printed.  Rendering follows the house
 * format: "file:line:col: error: message", then the source line with its number in a gutter,
 * then a caret under the column and '~' under the rest of the construct:
 *
 *   k.py:3:9: error: cannot add 'float64[:]' and 'bool'
 *       3 |     y = x + flag
 *         |         ^~~~~~~~
 *
 * Tabs in the source line are kept in the caret line so the caret stays aligned.
 *
 * A text put together from several places (the Python package appends a callee's def from
 * another file or a function defined inside a function) marks each piece with a comment line
 *   # numjit-source: LINE COLS FILE
 * meaning: the next line is line LINE of FILE, written COLS columns further left than there.
 * A location after such a line is rendered with the file, line and column it has in FILE.
 */
#include "base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void diag_init(DiagList *d) { memset(d, 0, sizeof *d); }

void diag_free(DiagList *d) {
    for (int i = 0; i < d->n; i++)
        nj_free(d->items[i].msg);
    nj_free(d->items);
    diag_init(d);
}

void diag_vadd(DiagList *d, DiagLevel lvl, Loc loc, const char *fmt, va_list ap) {
    if (lvl == DG_ERROR)
        d->nerrors++;
    if (d->n == d->cap) {
        int cap = d->cap ? d->cap * 2 : 8;
        Diag *items = nj_realloc(d->items, (size_t)cap * sizeof *items);
        if (!items)
            return;
        d->items = items;
        d->cap = cap;
    }
    StrBuf sb;
    sb_init(&sb);
    sb_vprintf(&sb, fmt, ap);
    d->items[d->n++] = (Diag){lvl, loc, sb_take(&sb)};
}

void diag_add(DiagList *d, DiagLevel lvl, Loc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(d, lvl, loc, fmt, ap);
    va_end(ap);
}

void diag_error(DiagList *d, Loc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(d, DG_ERROR, loc, fmt, ap);
    va_end(ap);
}

Loc loc_span(Loc a, Loc b) {
    if (a.src && a.src == b.src && a.line == b.line && b.col + b.len > a.col)
        a.len = b.col + (b.len > 0 ? b.len : 1) - a.col;
    return a;
}

/* Finds line `line` (1-based) of text; returns its start and length, or NULL. */
static const char *find_line(const Source *src, int line, size_t *len) {
    if (!src || !src->text || (line -= src->line0) < 1)
        return NULL;
    const char *p = src->text, *end = src->text + src->len;
    for (int l = 1; l < line; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return NULL;
        p = nl + 1;
    }
    const char *e = p;
    while (e < end && *e != '\n' && *e != '\r')
        e++;
    *len = (size_t)(e - p);
    return p;
}

static const char *level_name[] = {"error", "warning", "note"};

#define SOURCE_MARK "# numjit-source: "

/* Where line `line` of src came from (see the file comment): fills the file name (and its
 * length), the line and the column shift; without a mark before it, the line is src's own. */
typedef struct Origin {
    const char *name;
    int namelen, line, cols;
} Origin;

static Origin origin_of(const Source *src, int line) {
    const char *name = src->name ? src->name : "<input>";
    Origin o = {name, (int)strlen(name), line, 0};
    if (!src->text || !strstr(src->text, SOURCE_MARK))
        return o;
    const char *p = src->text, *end = src->text + src->len;
    for (int l = 1; l < line && p < end; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            break;
        size_t mark = sizeof SOURCE_MARK - 1;
        int at, cols, used = 0;
        if ((size_t)(nl - p) > mark && memcmp(p, SOURCE_MARK, mark) == 0 &&
            sscanf(p + mark, "%d %d %n", &at, &cols, &used) == 2 && used > 0 &&
            p + mark + used < nl) {
            o.name = p + mark + used;
            o.namelen = (int)(nl - o.name);
            o.line = at + (line - l - 1);
            o.cols = cols;
        }
        p = nl + 1;
    }
    return o;
}

void diag_render_one(const Diag *g, StrBuf *out) {
    const Loc *l = &g->loc;
    Origin o = {0};
    if (l->src) {
        o = origin_of(l->src, l->line);
        sb_printf(out, "%.*s:%d:%d: ", o.namelen, o.name, o.line, l->col + o.cols);
    }
    sb_printf(out, "%s: %s\n", level_name[g->level], g->msg);
    size_t n;
    const char *text = find_line(l->src, l->line, &n);
    if (!text)
        return;
    sb_printf(out, "%5d | ", o.line);
    for (size_t i = 0; i < n; i++) /* a NUL would end the rendered text: shown as U+2400 */
        if (text[i])
            sb_putc(out, text[i]);
        else
            sb_puts(out, "\xe2\x90\x80");
    sb_puts(out, "\n      | ");
    int col = l->col < 1 ? 1 : l->col;
    for (int i = 1; i < col && (size_t)(i - 1) < n; i++)
        sb_putc(out, text[i - 1] == '\t' ? '\t' : ' ');
    sb_putc(out, '^');
    int width = l->len;
    if ((size_t)(col - 1 + width) > n)
        width = (int)n - (col - 1);
    for (int i = 1; i < width; i++)
        sb_putc(out, '~');
    sb_putc(out, '\n');
}

void diag_render(const DiagList *d, StrBuf *out) {
    for (int i = 0; i < d->n; i++)
        diag_render_one(&d->items[i], out);
}

bool diag_nul_in_source(DiagList *d, const Source *src) {
    const char *t = src->text;
    const char *z = t ? memchr(t, 0, src->len) : NULL;
    if (!z)
        return false;
    Loc l = {src, 1, 1, 1};
    for (const char *p = t; p < z; p++) {
        if (*p == '\n') {
            l.line++;
            l.col = 1;
        } else if (((unsigned char)*p & 0xC0) != 0x80) {
            l.col++;
        }
    }
    diag_error(d, l, "source code cannot contain NUL bytes (byte %zu of the file)",
               (size_t)(z - t));
    return true;
}
