/* typer_strmeth.c — the methods of strings (lib/str.c's rows, bound there to their Python
 * signatures), typed as Numba 0.56 types them (numba/cpython/unicode.py), and ord()/chr().
 *
 * Each method is one row of the table below: its name, what it calls and the types of its
 * arguments.  Most are one call of the runtime (ir/str.def, runtime/str_methods.c) with a mode
 * that picks among alike ones (upper/lower/..., isdigit/isalpha/..., find/rfind/count, strip/
 * lstrip/rstrip, center/ljust/rjust/zfill); those that build lists or tuples of strings (split,
 * rsplit, splitlines, join, partition, rpartition, expandtabs) are functions of stdlib/str.py
 * called through ty_lib_call.  The result types are Numba's, quirks included: isdigit, isalpha,
 * isupper, isalnum, isdecimal and isascii give an integer (0 or 1) where the others give a
 * bool, as Numba's implementations do.  The errors Numba raises at run time are raised with its
 * messages: index/rindex "substring not found", a fill character of another length than one
 * (ValueError), ord() of a string of another length (TypeError), chr() out of range.
 */
#include "typer_internal.h"

#include <stdio.h>
#include <string.h>

enum { M_RT, M_LIB }; /* one runtime call, or a stdlib/str.py function */

/* Argument kinds, one letter per parameter of the row's signature: s a string, i an integer,
 * S a string or None (left out), b a boolean or integer (keepends). */
typedef struct StrMethod {
    const char *name;
    int how;          /* M_RT or M_LIB */
    RtFn f;           /* M_RT: the runtime function */
    int mode;         /* its mode operand, or -1 */
    const char *args; /* the kinds of the parameters */
    const Type *const *ret; /* M_RT with a mode: the result's type (Numba's) */
} StrMethod;

static const StrMethod methods[] = {
    {"upper", M_RT, RT_STR_CASE, 0, "", NULL},
    {"lower", M_RT, RT_STR_CASE, 1, "", NULL},
    {"swapcase", M_RT, RT_STR_CASE, 2, "", NULL},
    {"title", M_RT, RT_STR_CASE, 3, "", NULL},
    {"capitalize", M_RT, RT_STR_CASE, 4, "", NULL},
    {"casefold", M_RT, RT_STR_CASE, 5, "", NULL},
    {"isdigit", M_RT, RT_STR_IS, 0, "", &ty_i64},
    {"isalpha", M_RT, RT_STR_IS, 1, "", &ty_i64},
    {"isspace", M_RT, RT_STR_IS, 2, "", &ty_bool},
    {"isupper", M_RT, RT_STR_IS, 3, "", &ty_i64},
    {"islower", M_RT, RT_STR_IS, 4, "", &ty_bool},
    {"isalnum", M_RT, RT_STR_IS, 5, "", &ty_i64},
    {"isdecimal", M_RT, RT_STR_IS, 6, "", &ty_i64},
    {"isnumeric", M_RT, RT_STR_IS, 7, "", &ty_bool},
    {"istitle", M_RT, RT_STR_IS, 8, "", &ty_bool},
    {"isidentifier", M_RT, RT_STR_IS, 9, "", &ty_bool},
    {"isprintable", M_RT, RT_STR_IS, 10, "", &ty_bool},
    {"isascii", M_RT, RT_STR_IS, 11, "", &ty_i64},
    {"startswith", M_RT, RT_STR_STARTSWITH, -1, "s", &ty_bool},
    {"endswith", M_RT, RT_STR_ENDSWITH, -1, "s", &ty_bool},
    {"find", M_RT, RT_STR_SEARCH, 0, "sii", NULL},
    {"rfind", M_RT, RT_STR_SEARCH, 1, "sii", NULL},
    {"count", M_RT, RT_STR_SEARCH, 2, "sii", NULL},
    {"index", M_RT, RT_STR_SEARCH, 0, "sii", NULL},
    {"rindex", M_RT, RT_STR_SEARCH, 1, "sii", NULL},
    {"replace", M_RT, RT_STR_REPLACE, -1, "ssi", NULL},
    {"strip", M_RT, RT_STR_STRIP, 3, "S", NULL},
    {"lstrip", M_RT, RT_STR_STRIP, 1, "S", NULL},
    {"rstrip", M_RT, RT_STR_STRIP, 2, "S", NULL},
    {"center", M_RT, RT_STR_PAD, 0, "is", NULL},
    {"ljust", M_RT, RT_STR_PAD, 1, "is", NULL},
    {"rjust", M_RT, RT_STR_PAD, 2, "is", NULL},
    {"zfill", M_RT, RT_STR_PAD, 3, "i", NULL},
    {"split", M_LIB, 0, -1, "Si", NULL},
    {"rsplit", M_LIB, 0, -1, "Si", NULL},
    {"splitlines", M_LIB, 0, -1, "b", NULL},
    {"join", M_LIB, 0, -1, "*", NULL},
    {"partition", M_LIB, 0, -1, "s", NULL},
    {"rpartition", M_LIB, 0, -1, "s", NULL},
    {"expandtabs", M_LIB, 0, -1, "i", NULL},
};

static const StrMethod *find_method(const char *name) {
    for (size_t k = 0; k < sizeof methods / sizeof methods[0]; k++)
        if (!strcmp(methods[k].name, name))
            return &methods[k];
    return NULL;
}

/* if (c) raise kind(msg), msg alone as str(e) (a library raise: no location), as Numba's. */
static void raise_if(Fn *fn, IrInst *c, RaiseKind kind, const char *msg, Loc loc) {
    if (!c || !fn->emit)
        return;
    IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
    ty_condbr(fn, c, bad, ok, loc);
    ty_set_block(fn, bad);
    IrInst *in = ir_emit(fn->f, fn->cur, IR_RAISE, ty_void, loc, 0, NULL);
    in->imm.index = ir_user_raise_site(fn->tc->p, kind, msg, loc);
    ty_set_block(fn, ok);
}

/* A call of the runtime's f; a string result owned by the statement. */
static Val rt(Fn *fn, RtFn f, IrInst **args, int n, Loc loc) {
    const Type *t = ty_scalar(ir_rtcall[f].ret);
    IrInst *r = ty_emit(fn, IR_RTCALL, t, loc, n, args);
    if (r)
        r->imm.index = f;
    return t == ty_str ? ty_own(fn, vval(t, r), loc) : vval(t, r);
}

static IrInst *str_const(Fn *fn, const char *s, Loc loc) {
    IrInst *c = ty_emit(fn, IR_CONST, ty_str, loc, 0, NULL);
    if (c)
        c->imm.str = s;
    return c;
}

/* Checks argument k (of kind `kind`) of s.NAME(); false with the error at its place. */
static bool check_arg(Fn *fn, const char *name, const StrArgs *b, int k, char kind) {
    if (!b->given[k])
        return true;
    const Type *t = b->v[k].t;
    bool ok = kind == 's' || kind == 'S' ? t == ty_str
              : kind == 'b'               ? ty_is_int(t) || t == ty_bool
                                          : ty_is_int(t);
    if (!ok)
        ty_error(fn, b->at[k], "str.%s() argument %d must be %s, not %s", name, k + 1,
                 kind == 's' || kind == 'S' ? "a string" : "an integer", t->name);
    return ok;
}

/* Argument k as an int64, or the default d where it is left out. */
static IrInst *int_arg(Fn *fn, const StrArgs *b, int k, int64_t d, Loc loc) {
    if (!b->given[k])
        return i64c(fn, d, loc);
    return ty_cast(fn, b->v[k].v, b->v[k].t, ty_i64, loc);
}

static Val runtime_method(Fn *fn, const StrMethod *m, Val s, const StrArgs *b, Loc loc) {
    IrInst *args[5] = {s.v};
    int n = 1;
    switch (m->f) {
    case RT_STR_CASE:
    case RT_STR_IS:
        args[n++] = i64c(fn, m->mode, loc);
        break;
    case RT_STR_STARTSWITH:
    case RT_STR_ENDSWITH:
        args[n++] = b->v[0].v;
        break;
    case RT_STR_SEARCH:
        args[n++] = b->v[0].v;
        args[n++] = int_arg(fn, b, 1, 0, loc);
        args[n++] = int_arg(fn, b, 2, INT64_MAX, loc);
        args[n++] = i64c(fn, m->mode, loc);
        break;
    case RT_STR_REPLACE:
        args[n++] = b->v[0].v;
        args[n++] = b->v[1].v;
        args[n++] = int_arg(fn, b, 2, -1, loc);
        break;
    case RT_STR_STRIP:
        args[n++] = b->given[0] ? b->v[0].v : str_const(fn, "", loc);
        args[n++] = i64c(fn, m->mode | (b->given[0] ? 0 : 4), loc);
        break;
    default: /* RT_STR_PAD: width, fill */
        args[n++] = int_arg(fn, b, 0, 0, loc);
        if (m->mode != 3 && b->given[1]) { /* Numba: "The fill character must be exactly one
                                            * character long" */
            IrInst *len = ty_str_nchars(fn, b->v[1], loc);
            raise_if(fn, cmp(fn, CMP_NE, len, i64c(fn, 1, loc), loc), RAISE_VALUE,
                     "The fill character must be exactly one character long", loc);
        }
        args[n++] = m->mode != 3 && b->given[1] ? b->v[1].v : str_const(fn, " ", loc);
        args[n++] = i64c(fn, m->mode, loc);
        break;
    }
    if (!fn->emit)
        return vval(m->ret ? *m->ret : ty_scalar(ir_rtcall[m->f].ret), NULL);
    Val r = rt(fn, m->f, args, n, loc);
    if (!strcmp(m->name, "index") || !strcmp(m->name, "rindex"))
        raise_if(fn, cmp(fn, CMP_LT, r.v, i64c(fn, 0, loc), loc), RAISE_VALUE,
                 "substring not found", loc);
    if (m->ret == &ty_bool)
        return vval(ty_bool, cmp(fn, CMP_NE, r.v, i64c(fn, 0, loc), loc));
    return r;
}

/* The stdlib/str.py function behind m, with the arguments it takes. */
static Val library_method(Fn *fn, const StrMethod *m, Val s, const StrArgs *b, Loc loc) {
    Val a[4] = {s};
    int n = 1;
    char sym[48];
    const char *name = m->name;
    if (!strcmp(name, "split") || !strcmp(name, "rsplit")) {
        bool ws = !b->given[0];
        snprintf(sym, sizeof sym, "_nj_str_%s%s", name, ws ? "_ws" : "");
        if (!ws) {
            a[n++] = b->v[0];
            raise_if(fn, cmp(fn, CMP_EQ, ty_str_nchars(fn, b->v[0], loc), i64c(fn, 0, loc), loc),
                     RAISE_VALUE, "empty separator", loc);
        }
        a[n++] = vval(ty_i64, int_arg(fn, b, 1, -1, loc));
    } else if (!strcmp(name, "splitlines")) {
        snprintf(sym, sizeof sym, "_nj_str_splitlines");
        a[n++] = b->given[0] ? vval(ty_bool, ty_cast(fn, b->v[0].v, b->v[0].t, ty_bool, loc))
                             : vval(ty_bool, ty_const_int(fn, ty_bool, 0, loc));
    } else if (!strcmp(name, "partition") || !strcmp(name, "rpartition")) {
        snprintf(sym, sizeof sym, "_nj_str_%s", name);
        raise_if(fn, cmp(fn, CMP_EQ, ty_str_nchars(fn, b->v[0], loc), i64c(fn, 0, loc), loc),
                 RAISE_VALUE, "empty separator", loc);
        a[n++] = b->v[0];
    } else if (!strcmp(name, "expandtabs")) {
        snprintf(sym, sizeof sym, "_nj_str_expandtabs");
        a[n++] = vval(ty_i64, int_arg(fn, b, 0, 8, loc));
    } else { /* join: a list or tuple of strings */
        const Type *t = b->v[0].t;
        bool ok = t->kind == TY_LIST && t->dtype == ty_str;
        for (int k = 0; t->kind == TY_TUPLE && k < t->nelems; k++)
            ok = t->elems[k] == ty_str;
        if (t->kind == TY_TUPLE && t->nelems == 0)
            return vval(ty_str, str_const(fn, "", loc));
        if (!ok) {
            ty_error(fn, b->at[0], "str.join() takes a list or tuple of strings, not %s",
                     t->name);
            return verr();
        }
        snprintf(sym, sizeof sym, "_nj_str_join");
        a[n++] = b->v[0];
    }
    char shown[32];
    snprintf(shown, sizeof shown, "str.%s()", name);
    return ty_lib_call(fn, sym, shown, "str", a, n, loc);
}

Val ty_str_method(Fn *fn, const char *name, Val s, const StrArgs *b, Loc loc) {
    const StrMethod *m = find_method(name);
    if (!m) {
        ty_error(fn, loc, "unicode_type has no attribute '%s' that numjit supports", name);
        return verr();
    }
    if (strcmp(m->args, "*")) {
        for (int k = 0; m->args[k]; k++)
            if (!check_arg(fn, name, b, k, m->args[k]))
                return verr();
    }
    return m->how == M_RT ? runtime_method(fn, m, s, b, loc) : library_method(fn, m, s, b, loc);
}

/* ---- ord() and chr() ---------------------------------------------------------------------- */
Val ty_str_ord(Fn *fn, Val c, Loc loc) {
    if (c.t != ty_str) {
        ty_error(fn, loc, "ord() expected a string of length 1, but %s found", c.t->name);
        return verr();
    }
    if (!fn->emit)
        return vval(ty_i64, NULL);
    raise_if(fn, cmp(fn, CMP_NE, ty_str_nchars(fn, c, loc), i64c(fn, 1, loc), loc), RAISE_TYPE,
             "ord() expected a character", loc);
    return rt(fn, RT_STR_ORD, &c.v, 1, loc);
}

Val ty_str_chr(Fn *fn, Val i, Loc loc) {
    if (!ty_is_int(i.t)) {
        ty_error(fn, loc, "chr() takes an integer, not %s", i.t->name);
        return verr();
    }
    if (!fn->emit)
        return vval(ty_str, NULL);
    IrInst *k = ty_cast(fn, i.v, i.t, ty_i64, loc);
    if (i.t == ty_u64) /* past int64: out of range as well */
        k = sel(fn, ty_i64, cmp(fn, CMP_LT, k, i64c(fn, 0, loc), loc), i64c(fn, -1, loc), k, loc);
    IrInst *bad = bin(fn, IR_BITOR, ty_bool, cmp(fn, CMP_LT, k, i64c(fn, 0, loc), loc),
                      cmp(fn, CMP_GT, k, i64c(fn, 0x10FFFF, loc), loc), loc);
    raise_if(fn, bad, RAISE_VALUE, "chr() arg not in range(0x10ffff)", loc);
    return rt(fn, RT_STR_CHR, &k, 1, loc);
}
