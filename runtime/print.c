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
 * a float32 is written as the float64 of the same value (Numba boxes it as a Python float);
 * complex numbers as repr(complex): "1j", "(1.5-2j)"; arrays as str(array) ("[1. 2. 3.]"),
 * NumPy's formatting (arrays.c, shared with the session).
 */
#include "runtime.h"

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
        double d, im;
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
            rt_float_repr(d, false, &sb);
            break;
        case 's': { /* a string: its text */
            const NjStr *str = (const NjStr *)(intptr_t)v;
            sb_putn(&sb, str->data, (size_t)str->nbytes);
            break;
        }
        case 'a': /* str(array), as NumPy writes it */
            rt_array_str((const NjArray *)(intptr_t)v, &sb);
            break;
        case 'c': /* two words: the real part, then the imaginary part */
            memcpy(&d, &v, sizeof d);
            memcpy(&im, &values[k++], sizeof im);
            rt_complex_repr(d, im, &sb);
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
