/* print.c — print() in compiled CPU code (CG_PRINT_SYMBOL, codegen.h has the contract).
 *
 * Each print() builds its whole line here and hands it to the print hook in one piece, so
 * lines of parallel threads never mix.  The default hook writes to stdout (C stdio); the
 * Python package installs one writing to sys.stdout, so that compiled and interpreted prints
 * come out in program order, as under Numba (which prints through Python's print).
 *
 * Values are written as Python writes them: ints in decimal, bools as True/False, floats as
 * repr(float) — the shortest decimal that reads back as the same double, in fixed notation
 * for exponents -4..15 and scientific (1e+16, 1.5e-05) outside, with ".0" on integral values;
 * a float32 is written as the float64 of the same value (Numba boxes it as a Python float).
 */
#include "runtime.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t hook_mu = PTHREAD_MUTEX_INITIALIZER;
static NjPrintHook hook_fn;
static void *hook_arg;

void nj_set_print_hook(NjPrintHook hook, void *arg) {
    pthread_mutex_lock(&hook_mu);
    hook_fn = hook;
    hook_arg = arg;
    pthread_mutex_unlock(&hook_mu);
}

/* repr() of a double into out (at least 32 bytes); returns the length. */
int rt_float_repr(double x, char *out) {
    if (isnan(x))
        return sprintf(out, "nan");
    if (isinf(x))
        return sprintf(out, x < 0 ? "-inf" : "inf");
    if (x == 0)
        return sprintf(out, signbit(x) ? "-0.0" : "0.0");
    /* the fewest significant digits that read back exactly */
    char e[40];
    int prec = 1;
    for (; prec <= 17; prec++) {
        snprintf(e, sizeof e, "%.*e", prec - 1, x);
        if (strtod(e, NULL) == x)
            break;
    }
    /* e is "-d.ddde+XX": split into sign, digits and the decimal exponent */
    const char *p = e;
    bool neg = *p == '-';
    if (neg)
        p++;
    char digits[24];
    int nd = 0;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            digits[nd++] = *p;
    int exp10 = *p == 'e' ? atoi(p + 1) : 0;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    char *o = out;
    if (neg)
        *o++ = '-';
    if (exp10 >= -4 && exp10 < 16) {
        if (exp10 < 0) {
            *o++ = '0';
            *o++ = '.';
            for (int i = 0; i < -exp10 - 1; i++)
                *o++ = '0';
            memcpy(o, digits, (size_t)nd);
            o += nd;
        } else {
            for (int i = 0; i <= exp10; i++)
                *o++ = i < nd ? digits[i] : '0';
            *o++ = '.';
            if (nd > exp10 + 1) {
                memcpy(o, digits + exp10 + 1, (size_t)(nd - exp10 - 1));
                o += nd - exp10 - 1;
            } else {
                *o++ = '0';
            }
        }
    } else {
        *o++ = digits[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, digits + 1, (size_t)(nd - 1));
            o += nd - 1;
        }
        o += sprintf(o, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
    }
    *o = 0;
    return (int)(o - out);
}

void rt_print_line(const char *line, const int64_t *values) {
    StrBuf sb;
    sb_init(&sb);
    int k = 0;
    for (const char *c = line; *c; c++) {
        if (*c != '\x01' || !c[1]) {
            sb_putc(&sb, *c);
            continue;
        }
        int64_t v = values[k++];
        char num[48];
        double d;
        switch (*++c) {
        case 'b':
            sb_puts(&sb, v ? "True" : "False");
            break;
        case 'u':
            sb_printf(&sb, "%llu", (unsigned long long)v);
            break;
        case 'f':
        case 'g':
            memcpy(&d, &v, sizeof d);
            rt_float_repr(d, num);
            sb_puts(&sb, num);
            break;
        default:
            sb_printf(&sb, "%lld", (long long)v);
            break;
        }
    }
    const char *text = sb.data ? sb.data : "";
    size_t len = sb.data ? sb.len : 0;
    pthread_mutex_lock(&hook_mu);
    NjPrintHook fn = hook_fn;
    void *arg = hook_arg;
    pthread_mutex_unlock(&hook_mu);
    if (fn) {
        fn(text, len, arg);
    } else {
        flockfile(stdout);
        fwrite(text, 1, len, stdout);
        funlockfile(stdout);
    }
    sb_free(&sb);
}
