/* str.c — the string functions compiled code calls (ir/str.def), and the release of a string
 * that reaches C or Python.
 *
 * A string is an NjStr (numjit.h): UTF-8 text, its byte and code-point counts, and an owner.
 * Strings made here live in one malloc'ed block, a CgMemInfo header (codegen.h: count 1, the
 * text's size, no destructor) followed by the text and a NUL, so generated code counts and
 * frees them exactly as the arrays it makes (codegen/refs.c).  The empty string is a static
 * one without owner.  Positions are code points, as in Python: ASCII text (as many bytes as
 * characters) is indexed directly, other text by walking its sequences.  Comparing UTF-8
 * bytes orders strings as comparing their code points does, so compare is memcmp.  None of the
 * functions fails: the typer has checked the indices, and memory that cannot be had gives the
 * empty string.  The JIT resolves numjit_str_<name> to these (rt_str_define).
 */
#include "runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const NjStr empty = {"", 0, 0, NULL};

char *rt_str_new(NjStr *out, int64_t nbytes, int64_t nchars) {
    *out = empty;
    if (nbytes <= 0 || (uint64_t)nbytes > (uint64_t)INT64_MAX - CG_MEMINFO_SIZE - 1)
        return NULL;
    CgMemInfo *mi = malloc(CG_MEMINFO_SIZE + (size_t)nbytes + 1);
    if (!mi)
        return NULL;
    mi->refcount = 1;
    mi->nbytes = nbytes + 1;
    mi->dtor = NULL;
    char *text = (char *)mi + CG_MEMINFO_SIZE;
    text[nbytes] = 0;
    *out = (NjStr){text, nbytes, nchars, mi};
    return text;
}

/* The byte offset of character k (0 <= k <= nchars) of s. */
static int64_t byte_at(const NjStr *s, int64_t k) {
    if (s->nbytes == s->nchars)
        return k;
    int64_t i = 0;
    for (; i < s->nbytes && k > 0; k--)
        for (i++; i < s->nbytes && ((unsigned char)s->data[i] & 0xC0) == 0x80; i++)
            ;
    return i;
}

/* The length in bytes of the character starting at byte i. */
static int64_t char_len(const NjStr *s, int64_t i) {
    int64_t j = i + 1;
    while (j < s->nbytes && ((unsigned char)s->data[j] & 0xC0) == 0x80)
        j++;
    return j - i;
}

void numjit_str_concat(NjStr *out, const NjStr *a, const NjStr *b);
int64_t numjit_str_compare(const NjStr *a, const NjStr *b);
int64_t numjit_str_startswith(const NjStr *a, const NjStr *b) {
    return b->nbytes <= a->nbytes && !memcmp(a->data, b->data, (size_t)b->nbytes);
}

int64_t numjit_str_endswith(const NjStr *a, const NjStr *b) {
    return b->nbytes <= a->nbytes &&
           !memcmp(a->data + a->nbytes - b->nbytes, b->data, (size_t)b->nbytes);
}

int64_t numjit_str_contains(const NjStr *a, const NjStr *b);
int64_t numjit_str_find(const NjStr *a, const NjStr *b);
int64_t numjit_str_startswith(const NjStr *a, const NjStr *b);
int64_t numjit_str_endswith(const NjStr *a, const NjStr *b);
void numjit_str_char(NjStr *out, const NjStr *a, int64_t i);
void numjit_str_slice(NjStr *out, const NjStr *a, int64_t start, int64_t n, int64_t step);
void numjit_str_repeat(NjStr *out, const NjStr *a, int64_t n);
void numjit_str_from_int(NjStr *out, int64_t x);
void numjit_str_from_uint(NjStr *out, int64_t x);
int64_t numjit_str_hash(const NjStr *a);

void numjit_str_concat(NjStr *out, const NjStr *a, const NjStr *b) {
    char *t = rt_str_new(out, a->nbytes + b->nbytes, a->nchars + b->nchars);
    if (!t)
        return;
    memcpy(t, a->data, (size_t)a->nbytes);
    memcpy(t + a->nbytes, b->data, (size_t)b->nbytes);
}

int64_t numjit_str_compare(const NjStr *a, const NjStr *b) {
    int64_t n = a->nbytes < b->nbytes ? a->nbytes : b->nbytes;
    int c = n ? memcmp(a->data, b->data, (size_t)n) : 0;
    if (c)
        return c < 0 ? -1 : 1;
    return a->nbytes < b->nbytes ? -1 : a->nbytes > b->nbytes;
}

int64_t numjit_str_find(const NjStr *a, const NjStr *b) {
    if (b->nbytes > a->nbytes)
        return -1;
    for (int64_t i = 0; i + b->nbytes <= a->nbytes; i++)
        if (!memcmp(a->data + i, b->data, (size_t)b->nbytes)) {
            int64_t k = 0; /* the byte offset as a character index */
            for (int64_t j = 0; j < i; j++)
                k += ((unsigned char)a->data[j] & 0xC0) != 0x80;
            return k;
        }
    return -1;
}

int64_t numjit_str_contains(const NjStr *a, const NjStr *b) {
    return numjit_str_find(a, b) >= 0;
}

void numjit_str_char(NjStr *out, const NjStr *a, int64_t i) {
    int64_t at = byte_at(a, i), n = char_len(a, at);
    char *t = rt_str_new(out, n, 1);
    if (t)
        memcpy(t, a->data + at, (size_t)n);
}

void numjit_str_slice(NjStr *out, const NjStr *a, int64_t start, int64_t n, int64_t step) {
    *out = empty;
    if (n <= 0)
        return;
    if (step == 1) { /* one run of bytes */
        int64_t b0 = byte_at(a, start), b1 = byte_at(a, start + n);
        char *t = rt_str_new(out, b1 - b0, n);
        if (t)
            memcpy(t, a->data + b0, (size_t)(b1 - b0));
        return;
    }
    int64_t nbytes = 0;
    for (int64_t k = 0, c = start; k < n; k++, c += step)
        nbytes += char_len(a, byte_at(a, c));
    char *t = rt_str_new(out, nbytes, n);
    for (int64_t k = 0, c = start; t && k < n; k++, c += step) {
        int64_t at = byte_at(a, c), m = char_len(a, at);
        memcpy(t, a->data + at, (size_t)m);
        t += m;
    }
}

void numjit_str_repeat(NjStr *out, const NjStr *a, int64_t n) {
    *out = empty;
    if (n <= 0 || !a->nbytes || n > INT64_MAX / 2 / a->nbytes) /* too long: cannot be had */
        return;
    char *t = rt_str_new(out, a->nbytes * n, a->nchars * n);
    for (int64_t k = 0; t && k < n; k++)
        memcpy(t + k * a->nbytes, a->data, (size_t)a->nbytes);
}

static void from_digits(NjStr *out, const char *buf) {
    int64_t n = (int64_t)strlen(buf);
    char *t = rt_str_new(out, n, n);
    if (t)
        memcpy(t, buf, (size_t)n);
}

void numjit_str_from_int(NjStr *out, int64_t x) {
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)x);
    from_digits(out, buf);
}

void numjit_str_from_uint(NjStr *out, int64_t x) {
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)(uint64_t)x);
    from_digits(out, buf);
}

int64_t numjit_str_hash(const NjStr *a) { /* FNV-1a; -1 is never a hash, as in Python */
    uint64_t h = 1469598103934665603ULL;
    for (int64_t i = 0; i < a->nbytes; i++)
        h = (h ^ (unsigned char)a->data[i]) * 1099511628211ULL;
    return (int64_t)h == -1 ? -2 : (int64_t)h;
}

void nj_str_release(NjStr *s) {
    if (!s)
        return;
    CgMemInfo *mi = s->owner;
    if (mi && __atomic_fetch_sub(&mi->refcount, 1, __ATOMIC_ACQ_REL) == 1) {
        if (mi->dtor)
            mi->dtor(mi);
        free(mi);
    }
    *s = empty;
}

bool rt_str_define(CgJit *jit, char **err) {
    enum { N = RT__COUNT - RT_LINALG__END }; /* str.def's entries of the rtcall table */
    const uintptr_t addrs[N] = {
#define X(e, name, args, ret) [e - RT_LINALG__END] = (uintptr_t)numjit_str_##name,
#include "../ir/str.def"
#undef X
    };
    const char *names[N];
    for (int i = 0; i < N; i++)
        names[i] = ir_rtcall[RT_LINALG__END + i].symbol;
    return cg_jit_define(jit, names, addrs, N, err);
}
