/* strbuf.c — a growable, NUL-terminated string for printers and diagnostics.
 *
 * If memory runs out the buffer keeps what it had and drops the rest: printers never fail
 * halfway with a dangling pointer, and callers that care check the injected-failure tests.
 */
#include "base.h"

#include <stdio.h>
#include <string.h>

void sb_init(StrBuf *sb) { sb->data = NULL, sb->len = sb->cap = 0; }

void sb_free(StrBuf *sb) {
    nj_free(sb->data);
    sb_init(sb);
}

static bool reserve(StrBuf *sb, size_t extra) {
    if (sb->len + extra + 1 <= sb->cap)
        return true;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    char *p = nj_realloc(sb->data, cap);
    if (!p)
        return false;
    sb->data = p;
    sb->cap = cap;
    return true;
}

void sb_putn(StrBuf *sb, const char *s, size_t n) {
    if (!reserve(sb, n))
        return;
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}

void sb_putc(StrBuf *sb, char c) { sb_putn(sb, &c, 1); }
void sb_puts(StrBuf *sb, const char *s) { sb_putn(sb, s, strlen(s)); }

void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n > 0 && reserve(sb, (size_t)n)) {
        vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap2);
        sb->len += (size_t)n;
    }
    va_end(ap2);
}

void sb_printf(StrBuf *sb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

char *sb_take(StrBuf *sb) {
    char *p = sb->data;
    if (!p) {
        p = nj_malloc(1);
        if (p)
            *p = 0;
    }
    sb_init(sb);
    return p;
}

void sb_put_symbol(StrBuf *sb, const char *name) {
    static const char hex[] = "0123456789abcdef";
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p < 0x80) {
            sb_putc(sb, (char)*p);
            continue;
        }
        sb_putc(sb, '$');
        sb_putc(sb, hex[*p >> 4]);
        sb_putc(sb, hex[*p & 15]);
    }
}
