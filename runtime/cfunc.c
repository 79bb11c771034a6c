/* cfunc.c — nj_function_cfunc (Numba's @cfunc): a C function of a declared signature running a
 * compiled specialization.
 *
 * The signature is read as any other ("float64(float64, float64[::1])", its result type
 * required); the function is specialized for its argument types as nj_function_entry would
 * (the same table of specializations, so a later call from Python with those types compiles
 * nothing), and codegen (codegen/cfunc.c) builds and links the wrapper with the C signature
 * around that specialization's entry.  A one-dimensional C-contiguous array parameter is the
 * C form of a pointer (Numba's CPointer(float64), voidptr as uint8[::1]); the others must be
 * numbers.  The wrapper converts the specialization's result to the declared result type.
 */
#include "runtime.h"

#include <stdlib.h>
#include <string.h>

/* "(t0, t1, ...)" of the parsed argument types, for nj_function_entry_info. */
static char *args_spelling(const Type *const *types, int n) {
    size_t len = 3;
    for (int k = 0; k < n; k++)
        len += strlen(types[k]->name) + 2;
    char *s = nj_malloc(len);
    if (!s)
        return NULL;
    strcpy(s, "(");
    for (int k = 0; k < n; k++) {
        if (k)
            strcat(s, ", ");
        strcat(s, types[k]->name);
    }
    strcat(s, ")");
    return s;
}

NjStatus nj_function_cfunc(NjFunction *f, const char *signature, const char *symbol,
                           void **address) {
    *address = NULL;
    NjContext *ctx = f->module->ctx;
    CgCfunc cf = {.symbol = symbol};
    const char *err = NULL;
    int n = ty_parse_sig(signature, &cf.ret, cf.params, CG_CFUNC_MAX_PARAMS, &err);
    if (n < 0 || !cf.ret) {
        rt_set_errorf(ctx, "error: bad C callback signature '%s': %s", signature,
                      n < 0 ? err : "it needs an explicit return type");
        return NJ_ERR_ARGS;
    }
    cf.nparams = n;
    for (int k = 0; k < n; k++) {
        const Type *t = cf.params[k];
        if (t->kind == TY_ARRAY ? t->ndim != 1 || t->layout != LAYOUT_C || ty_is_complex(t->dtype)
                                : !ty_is_scalar(t) || ty_is_complex(t)) {
            rt_set_errorf(ctx, "error: a C callback cannot take %s (argument %d): numbers, and "
                          "pointers spelled as 1-d C arrays, only", t->name, k + 1);
            return NJ_ERR_ARGS;
        }
        if (t->kind == TY_ARRAY) {
            NjDType d;
            if (rt_dtype_of_type(cf.params[k]->dtype, &d) != NJ_OK) {
                rt_set_errorf(ctx, "error: a C callback cannot take %s", cf.params[k]->name);
                return NJ_ERR_ARGS;
            }
            cf.ptr_dtypes[k] = (int32_t)d;
        }
    }
    char *spelled = args_spelling(cf.params, n);
    if (!spelled) {
        rt_set_errorf(ctx, "error: out of memory");
        return NJ_ERR_NOMEM;
    }
    NjEntryInfo info;
    NjStatus st = nj_function_entry_info(f, spelled, &info);
    nj_free(spelled);
    if (st)
        return st;
    if (info.result_kind == NJ_KIND_NONE) {
        cf.spec_ret = ty_void;
    } else if (info.result_kind == NJ_KIND_SCALAR) {
        cf.spec_ret = rt_type_of_dtype(info.result_dtype);
    } else {
        rt_set_errorf(ctx, "error: %s() returns a value a C callback cannot return (a number "
                      "or nothing)", f->info->name);
        return NJ_ERR_UNSUPPORTED;
    }
    cf.entry = (uintptr_t)info.entry;
    if ((st = rt_ensure_jit(ctx)))
        return st;
    char *cerr = NULL;
    if (!cg_jit_cfunc(ctx->jit, &cf, address, &cerr)) {
        rt_set_errorf(ctx, "error: C callback of %s(): %s", f->info->name,
                      cerr ? cerr : "unknown error");
        free(cerr);
        return NJ_ERR_UNSUPPORTED;
    }
    return NJ_OK;
}
