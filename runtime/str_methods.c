/* str_methods.c — the string methods compiled code calls (ir/str.def, after str.c's basics):
 * case mapping, the character-class tests, ord/chr, find/rfind/count over a range, replace,
 * strip and padding, each computing what CPython's (and so Numba 0.56's) method computes.
 *
 * Text is worked on as code points: decode() turns a string's UTF-8 into an array of them and
 * encode() makes a new string (str.c's layout: a CgMemInfo block, text after the header) of
 * such an array.  Character classes and case follow CPython for ASCII exactly; other code points
 * go through the C library's wide-character tables in the C.UTF-8 locale (towupper_l, iswalpha_l,
 * ...), which map one code point to one: the special casings that change a string's length
 * (German sharp s upper-cased to "SS") are left as they are (docs/language.md says so).
 * Positions are code points; start and end arrive as Python wrote them (negative from the end,
 * INT64_MAX for "to the end") and are clipped as CPython's ADJUST_INDICES clips them.  None of
 * the functions fails: memory that cannot be had gives the empty string.
 */
#include "runtime.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

static const NjStr empty = {"", 0, 0, NULL};

/* ---- code points -------------------------------------------------------------------------- */
/* The code points of s in a malloc'ed array (NULL for the empty string or no memory). */
static uint32_t *decode(const NjStr *s) {
    if (s->nchars <= 0)
        return NULL;
    uint32_t *cp = malloc(sizeof *cp * (size_t)s->nchars);
    if (!cp)
        return NULL;
    const unsigned char *p = (const unsigned char *)s->data, *end = p + s->nbytes;
    for (int64_t k = 0; k < s->nchars && p < end; k++) {
        uint32_t c = *p++;
        int more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
        c &= more == 3 ? 0x07 : more == 2 ? 0x0F : more == 1 ? 0x1F : 0x7F;
        for (; more > 0 && p < end; more--)
            c = (c << 6) | (*p++ & 0x3F);
        cp[k] = c;
    }
    return cp;
}

static int utf8_len(uint32_t c) { return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; }

static char *put_utf8(char *t, uint32_t c) {
    if (c < 0x80) {
        *t++ = (char)c;
    } else if (c < 0x800) {
        *t++ = (char)(0xC0 | (c >> 6));
        *t++ = (char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        *t++ = (char)(0xE0 | (c >> 12));
        *t++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *t++ = (char)(0x80 | (c & 0x3F));
    } else {
        *t++ = (char)(0xF0 | (c >> 18));
        *t++ = (char)(0x80 | ((c >> 12) & 0x3F));
        *t++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *t++ = (char)(0x80 | (c & 0x3F));
    }
    return t;
}

/* A new string of the n code points cp. */
static void encode(NjStr *out, const uint32_t *cp, int64_t n) {
    *out = empty;
    int64_t nbytes = 0;
    for (int64_t k = 0; k < n; k++)
        nbytes += utf8_len(cp[k]);
    char *t = rt_str_new(out, nbytes, n);
    for (int64_t k = 0; t && k < n; k++)
        t = put_utf8(t, cp[k]);
}

/* A new string holding the same text as s (a string the caller may release on its own). */
static void copy(NjStr *out, const NjStr *s) {
    *out = empty;
    char *t = rt_str_new(out, s->nbytes, s->nchars);
    if (t)
        memcpy(t, s->data, (size_t)s->nbytes);
}

/* ---- character classes and case ----------------------------------------------------------- */
static locale_t utf8_locale(void) {
    static locale_t loc;
    static int tried;
    if (!__atomic_load_n(&tried, __ATOMIC_ACQUIRE)) {
        locale_t l = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
        locale_t none = (locale_t)0;
        if (l && !__atomic_compare_exchange_n(&loc, &none, l, false, __ATOMIC_ACQ_REL,
                                              __ATOMIC_ACQUIRE))
            freelocale(l); /* another thread's won */
        __atomic_store_n(&tried, 1, __ATOMIC_RELEASE);
    }
    return __atomic_load_n(&loc, __ATOMIC_ACQUIRE);
}

enum { C_UPPER, C_LOWER, C_ALPHA, C_DIGIT, C_SPACE, C_PRINT };

static bool is_class(uint32_t c, int k) {
    if (c < 0x80) {
        switch (k) {
        case C_UPPER: return c >= 'A' && c <= 'Z';
        case C_LOWER: return c >= 'a' && c <= 'z';
        case C_ALPHA: return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
        case C_DIGIT: return c >= '0' && c <= '9';
        case C_SPACE: return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
        default: return c >= 0x20 && c < 0x7F;
        }
    }
    locale_t l = utf8_locale();
    if (!l)
        return k == C_PRINT;
    wint_t w = (wint_t)c;
    switch (k) {
    case C_UPPER: return iswupper_l(w, l);
    case C_LOWER: return iswlower_l(w, l);
    case C_ALPHA: return iswalpha_l(w, l);
    case C_DIGIT: return iswdigit_l(w, l);
    case C_SPACE: return c == 0x85 || c == 0xA0 || iswspace_l(w, l);
    default: return iswprint_l(w, l);
    }
}

static uint32_t to_upper(uint32_t c) {
    if (c < 0x80)
        return c >= 'a' && c <= 'z' ? c - 32 : c;
    locale_t l = utf8_locale();
    return l ? (uint32_t)towupper_l((wint_t)c, l) : c;
}

static uint32_t to_lower(uint32_t c) {
    if (c < 0x80)
        return c >= 'A' && c <= 'Z' ? c + 32 : c;
    locale_t l = utf8_locale();
    return l ? (uint32_t)towlower_l((wint_t)c, l) : c;
}

/* Cased, for title() and istitle(): an upper- or lower-case letter. */
static bool cased(uint32_t c) { return is_class(c, C_UPPER) || is_class(c, C_LOWER); }

/* mode: 0 upper, 1 lower, 2 swapcase, 3 title, 4 capitalize, 5 casefold */
void numjit_str_case(NjStr *out, const NjStr *s, int64_t mode) {
    *out = empty;
    uint32_t *cp = decode(s);
    if (!cp)
        return;
    bool prev_cased = false;
    for (int64_t k = 0; k < s->nchars; k++) {
        uint32_t c = cp[k];
        switch (mode) {
        case 0: c = to_upper(c); break;
        case 1: case 5: c = to_lower(c); break;
        case 2: c = is_class(c, C_UPPER) ? to_lower(c) : is_class(c, C_LOWER) ? to_upper(c) : c;
            break;
        case 3: c = prev_cased ? to_lower(c) : to_upper(c); prev_cased = cased(cp[k]); break;
        default: c = k == 0 ? to_upper(c) : to_lower(c); break;
        }
        cp[k] = c;
    }
    encode(out, cp, s->nchars);
    free(cp);
}

/* mode: 0 isdigit, 1 isalpha, 2 isspace, 3 isupper, 4 islower, 5 isalnum, 6 isdecimal,
 * 7 isnumeric, 8 istitle, 9 isidentifier, 10 isprintable, 11 isascii; 1 or 0 as CPython. */
int64_t numjit_str_is(const NjStr *s, int64_t mode) {
    if (mode == 11) { /* isascii: every byte below 0x80 */
        for (int64_t i = 0; i < s->nbytes; i++)
            if ((unsigned char)s->data[i] >= 0x80)
                return 0;
        return 1;
    }
    if (s->nchars == 0)
        return mode == 10;
    uint32_t *cp = decode(s);
    if (!cp)
        return 0;
    int64_t r = 1, n = s->nchars;
    bool any_cased = false, prev_cased = false;
    for (int64_t k = 0; k < n && r; k++) {
        uint32_t c = cp[k];
        switch (mode) {
        case 0: case 6: case 7: r = is_class(c, C_DIGIT); break;
        case 1: r = is_class(c, C_ALPHA); break;
        case 2: r = is_class(c, C_SPACE); break;
        case 3: r = !is_class(c, C_LOWER); any_cased |= is_class(c, C_UPPER); break;
        case 4: r = !is_class(c, C_UPPER); any_cased |= is_class(c, C_LOWER); break;
        case 5: r = is_class(c, C_ALPHA) || is_class(c, C_DIGIT); break;
        case 8: /* upper only after uncased, lower only after cased */
            if (is_class(c, C_UPPER)) {
                r = !prev_cased;
                prev_cased = any_cased = true;
            } else if (is_class(c, C_LOWER)) {
                r = prev_cased;
                prev_cased = any_cased = true;
            } else {
                prev_cased = false;
            }
            break;
        case 9:
            r = c == '_' || is_class(c, C_ALPHA) || (k > 0 && is_class(c, C_DIGIT));
            break;
        default: r = is_class(c, C_PRINT); break;
        }
    }
    free(cp);
    if (r && (mode == 3 || mode == 4 || mode == 8))
        r = any_cased;
    return r;
}

/* ---- ord and chr -------------------------------------------------------------------------- */
int64_t numjit_str_ord(const NjStr *s) {
    uint32_t *cp = decode(s);
    int64_t c = cp ? cp[0] : 0;
    free(cp);
    return c;
}

void numjit_str_chr(NjStr *out, int64_t c) {
    uint32_t one = (uint32_t)c;
    encode(out, &one, 1);
}

/* ---- searching ---------------------------------------------------------------------------- */
/* CPython's ADJUST_INDICES: start and end clipped to [0, n]. */
static void adjust(int64_t *start, int64_t *end, int64_t n) {
    if (*end > n)
        *end = n;
    else if (*end < 0 && (*end += n) < 0)
        *end = 0;
    if (*start < 0 && (*start += n) < 0)
        *start = 0;
}

static bool match_at(const uint32_t *a, int64_t i, const uint32_t *b, int64_t m) {
    for (int64_t k = 0; k < m; k++)
        if (a[i + k] != b[k])
            return false;
    return true;
}

/* mode 0: find (the first index in a[start:end], -1 when none), 1: rfind (the last),
 * 2: count (occurrences that do not overlap).  As CPython: an empty b is found at start (at
 * end for rfind) when start <= end <= len, and counted end - start + 1 times. */
int64_t numjit_str_search(const NjStr *a, const NjStr *b, int64_t start, int64_t end,
                          int64_t mode) {
    int64_t n = a->nchars, m = b->nchars;
    adjust(&start, &end, n);
    if (start > n || end - start < m)
        return mode == 2 ? 0 : -1;
    if (m == 0)
        return mode == 2 ? end - start + 1 : mode == 1 ? end : start;
    uint32_t *x = decode(a), *y = decode(b);
    int64_t r = mode == 2 ? 0 : -1;
    if (x && y) {
        if (mode == 1) {
            for (int64_t i = end - m; i >= start && r < 0; i--)
                if (match_at(x, i, y, m))
                    r = i;
        } else {
            for (int64_t i = start; i + m <= end; i++)
                if (match_at(x, i, y, m)) {
                    if (mode == 0) {
                        r = i;
                        break;
                    }
                    r++;
                    i += m - 1;
                }
        }
    }
    free(x);
    free(y);
    return r;
}

/* s with old replaced by new, the first count times (all of them when count < 0); an empty
 * old is matched before every character and at the end, as CPython does. */
void numjit_str_replace(NjStr *out, const NjStr *s, const NjStr *old, const NjStr *new_,
                        int64_t count) {
    int64_t n = s->nchars, m = old->nchars, k = new_->nchars;
    int64_t found = numjit_str_search(s, old, 0, INT64_MAX, 2);
    if (count < 0 || count > found)
        count = found;
    if (count == 0) {
        copy(out, s);
        return;
    }
    *out = empty;
    uint32_t *x = decode(s), *y = decode(old), *z = decode(new_);
    uint32_t *r = malloc(sizeof *r * (size_t)(n + count * (k - m) + 1));
    if ((n && !x) || (m && !y) || (k && !z) || !r)
        goto done;
    int64_t o = 0, i = 0, done_n = 0;
    while (i <= n) {
        if (done_n < count && i + m <= n && match_at(x, i, y, m)) {
            memcpy(r + o, z, sizeof *z * (size_t)k);
            o += k;
            done_n++;
            if (m == 0) { /* an empty old: the character after it is kept */
                if (i < n)
                    r[o++] = x[i];
                i++;
            } else {
                i += m;
            }
        } else {
            if (i < n)
                r[o++] = x[i];
            i++;
        }
    }
    encode(out, r, o);
done:
    free(x);
    free(y);
    free(z);
    free(r);
}

/* ---- strip and padding -------------------------------------------------------------------- */
static bool in_set(uint32_t c, const uint32_t *set, int64_t n) {
    for (int64_t k = 0; k < n; k++)
        if (set[k] == c)
            return true;
    return false;
}

/* mode: bit 0 strip the left, bit 1 the right, bit 2 whitespace (chars is not read) */
void numjit_str_strip(NjStr *out, const NjStr *s, const NjStr *chars, int64_t mode) {
    *out = empty;
    uint32_t *x = decode(s), *set = mode & 4 ? NULL : decode(chars);
    int64_t lo = 0, hi = s->nchars, nset = mode & 4 ? 0 : chars->nchars;
    if (x) {
#define STRIPPED(c) (mode & 4 ? is_class(c, C_SPACE) : in_set(c, set, nset))
        while ((mode & 1) && lo < hi && STRIPPED(x[lo]))
            lo++;
        while ((mode & 2) && hi > lo && STRIPPED(x[hi - 1]))
            hi--;
#undef STRIPPED
        encode(out, x + lo, hi - lo);
    }
    free(x);
    free(set);
}

/* mode: 0 center, 1 ljust, 2 rjust with fill's one character; 3 zfill.  A string already as
 * wide as width comes back as a copy. */
void numjit_str_pad(NjStr *out, const NjStr *s, int64_t width, const NjStr *fill,
                    int64_t mode) {
    int64_t n = s->nchars;
    if (width <= n) {
        copy(out, s);
        return;
    }
    *out = empty;
    uint32_t *x = decode(s), *f = mode == 3 ? NULL : decode(fill);
    uint32_t *r = malloc(sizeof *r * (size_t)width);
    if ((n && !x) || (mode != 3 && !f) || !r)
        goto done;
    int64_t pad = width - n, left = mode == 0 ? pad / 2 + (pad & width & 1)
                                    : mode == 1 ? 0 : pad;
    uint32_t fc = mode == 3 ? '0' : f[0];
    for (int64_t k = 0; k < width; k++)
        r[k] = fc;
    if (n)
        memcpy(r + left, x, sizeof *x * (size_t)n);
    if (mode == 3 && n && (x[0] == '+' || x[0] == '-')) { /* the sign goes first */
        r[left] = '0';
        r[0] = x[0];
    }
    encode(out, r, width);
done:
    free(x);
    free(f);
    free(r);
}
