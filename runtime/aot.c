/* aot.c — ahead-of-time object files and their C headers (nj_aot_object, nj_aot_header; the
 * `numjit obj` command).
 *
 * Both calls read the same list of signatures, "f(float64[:], float64)" or
 * "name=f(float64[:], float64)", and type each one exactly as the JIT would (the typer, then the
 * IR passes) into programs that share one arena.  Raise sites are numbered per program; here
 * they are laid end to end (the k-th specialization's sites start after those of the ones
 * before it), so a status is unique in the object and the header can list them all.
 *   nj_aot_object  hands the programs to codegen (cg_aot_object), which lowers them into one
 *                  module, adds the exported C-ABI wrappers and emits the object;
 *   nj_aot_header  writes a self-contained C header: the NjArray descriptor (numjit.h's, so a
 *                  program may include both), a helper making C-contiguous views, one
 *                  prototype per specialization with its Python signature, the statuses with
 *                  their messages, and inline functions naming a status.
 * docs/aot.md documents the ABI for users; codegen.h documents it for codegen.
 */
#include "runtime.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AOT_MAX 256 /* signatures per object */

typedef struct AotSpec {
    const char *export; /* C symbol */
    const FuncInfo *fi;
    IrProgram *prog;
    int32_t base;       /* its raise sites are base + 1 ... base + prog->nraises */
} AotSpec;

static bool aot_is_ident(const char *s, size_t n) {
    if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
            return false;
    return true;
}

/* Keywords of C (C11 and C23): an exported function's name must be none of them. */
static bool aot_is_c_keyword(const char *s, size_t n) {
    static const char *const kw[] = {
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
        "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
        "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
        "typedef", "union", "unsigned", "void", "volatile", "while", "_Alignas", "_Alignof",
        "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert",
        "_Thread_local", "alignas", "alignof", "bool", "constexpr", "false", "nullptr",
        "static_assert", "thread_local", "true", "typeof", "typeof_unqual", "_BitInt",
        "_Decimal32", "_Decimal64", "_Decimal128", NULL};
    for (int i = 0; kw[i]; i++)
        if (strlen(kw[i]) == n && !strncmp(kw[i], s, n))
            return true;
    return false;
}

static bool aot_verify_ir(void) {
    const char *e = getenv("NUMJIT_VERIFY");
    return e && *e && *e != '0';
}

/* The first instruction of p that needs libnumjit at run time (a random draw, a print(), a
 * sort or a matrix product), or NULL. */
static const IrInst *aot_find_runtime_use(const IrProgram *p) {
    for (int i = 0; i < p->nfuncs; i++)
        for (int b = 0; b < p->funcs[i]->nblocks; b++)
            for (const IrInst *in = p->funcs[i]->blocks[b]->first; in; in = in->next)
                if (in->op == IR_RANDOM || in->op == IR_PRINT || in->op == IR_RTCALL)
                    return in;
    return NULL;
}

/* Reads "[export=]func(types)" and types it into s (programs in arena a). */
static NjStatus aot_spec(NjModule *m, const char *sig, Arena *a, AotSpec *s) {
    NjContext *ctx = m->ctx;
    if (!sig) {
        rt_set_errorf(ctx, "error: a signature is missing: give 'NAME(TYPE, ...)' or "
                           "'EXPORT=NAME(TYPE, ...)'");
        return NJ_ERR_ARGS;
    }
    const char *paren = strchr(sig, '('), *eq = strchr(sig, '=');
    if (eq && paren && eq > paren)
        eq = NULL;
    const char *fname = eq ? eq + 1 : sig;
    while (*fname == ' ')
        fname++;
    while (*sig == ' ')
        sig++;
    size_t flen = paren ? (size_t)(paren - fname) : 0, elen = eq ? (size_t)(eq - sig) : flen;
    while (flen && fname[flen - 1] == ' ')
        flen--;
    while (elen && sig[elen - 1] == ' ')
        elen--;
    if (!paren || !aot_is_ident(fname, flen) || !aot_is_ident(sig, elen)) {
        rt_set_errorf(ctx, "error: expected a signature 'NAME(TYPE, ...)' or "
                           "'EXPORT=NAME(TYPE, ...)' (C identifiers), not '%s'", sig);
        return NJ_ERR_ARGS;
    }
    if (aot_is_c_keyword(sig, elen)) {
        rt_set_errorf(ctx, "error: '%.*s' is a C keyword and cannot name an exported function: "
                           "give it another name, as in 'NAME=%.*s(...)'", (int)elen, sig,
                      (int)flen, fname);
        return NJ_ERR_ARGS;
    }
    const char *fn = arena_strndup(a, fname, flen);
    s->export = arena_strndup(a, sig, elen);
    s->fi = NULL;
    for (int i = 0; i < m->info->nfuncs; i++)
        if (!strcmp(m->info->funcs[i].name, fn))
            s->fi = &m->info->funcs[i];
    if (!s->fi) {
        rt_set_errorf(ctx, "%s: error: no function named '%s'", m->src.name, fn);
        return NJ_ERR_NAME;
    }
    if (s->fi->kind != FK_NJIT && s->fi->kind != FK_PLAIN) {
        rt_set_errorf(ctx, "%s: error: '%s' is not an @njit function: object files hold @njit "
                           "functions (ufuncs, gufuncs and CUDA kernels have other paths)",
                      m->src.name, fn);
        return NJ_ERR_ARGS;
    }
    const Type *ret = NULL, *types[16];
    const char *err = NULL;
    int n = ty_parse_sig(paren, &ret, types, 16, &err);
    if (n < 0) {
        rt_set_errorf(ctx, "error: bad signature '%s': %s", sig, err);
        return NJ_ERR_ARGS;
    }
    if (n != s->fi->def->params.n) {
        rt_set_errorf(ctx, "error: %s() takes %d arguments but the signature '%s' has %d", fn,
                      s->fi->def->params.n, sig, n);
        return NJ_ERR_ARGS;
    }
    DiagList d;
    diag_init(&d);
    TyRequest req = {
        .module = m->info, .func = fn, .args = types, .nargs = n,
        .target = TARGET_CPU, .kind = IRF_NJIT,
    };
    s->prog = ty_specialize(a, &req, &d);
    bool ok = s->prog && ir_run_passes(s->prog, aot_verify_ir(), &d);
    if (!ok) {
        if (d.nerrors)
            rt_set_diags(ctx, &d);
        else
            rt_set_error(ctx, "error: out of memory");
        diag_free(&d);
        return arena_failed(a) ? NJ_ERR_NOMEM : NJ_ERR_TYPE;
    }
    /* random numbers live in per-thread states of libnumjit, which an object file lacks, and
     * print() writes through libnumjit's hook */
    const IrInst *rnd = aot_find_runtime_use(s->prog);
    if (rnd && rnd->op == IR_PRINT) {
        diag_error(&d, rnd->loc, "%s() calls print(), which an ahead-of-time object file "
                                 "cannot (it writes through libnumjit): call it through the "
                                 "JIT", fn);
        rt_set_diags(ctx, &d);
        diag_free(&d);
        return NJ_ERR_UNSUPPORTED;
    }
    if (rnd && rnd->op == IR_RTCALL) {
        diag_error(&d, rnd->loc, "%s() sorts, selects or computes linear algebra through "
                                 "libnumjit's runtime, which an ahead-of-time object file "
                                 "cannot call: call it through the JIT", fn);
        rt_set_diags(ctx, &d);
        diag_free(&d);
        return NJ_ERR_UNSUPPORTED;
    }
    if (rnd) {
        diag_error(&d, rnd->loc, "%s() draws random numbers, which an ahead-of-time object "
                                 "file cannot (their state lives in libnumjit): call it "
                                 "through the JIT", fn);
        rt_set_diags(ctx, &d);
        diag_free(&d);
        return NJ_ERR_UNSUPPORTED;
    }
    diag_free(&d);
    const Type *got = s->prog->funcs[0]->ret;
    bool cplx = ty_is_complex(got);
    for (int i = 0; i < got->nelems && got->kind == TY_TUPLE; i++)
        cplx |= ty_is_complex(got->elems[i]);
    for (int i = 0; i < n; i++)
        cplx |= ty_is_complex(types[i]) ||
                (types[i]->kind == TY_ARRAY && ty_is_complex(types[i]->dtype));
    if (cplx) { /* a C signature for them (C99 _Complex, its ABI) is not written yet */
        rt_set_errorf(ctx, "error: %s(): complex numbers in the arguments or the result of an "
                           "ahead-of-time function are not supported yet", fn);
        return NJ_ERR_UNSUPPORTED;
    }
    if (ret && ret != got && !(ret == ty_void && got == ty_void)) {
        rt_set_errorf(ctx, "%s: error: the signature '%s' declares %s but %s() returns %s",
                      m->src.name, sig, ret->name, fn, got->name);
        return NJ_ERR_TYPE;
    }
    /* the C ABI: scalars, arrays, flat tuples of scalars */
    for (int i = 0; i <= n; i++) {
        const Type *t = i < n ? s->prog->funcs[0]->params[i] : got;
        /* returned arrays: the JIT only; strings: no C form in an object file yet */
        bool fits = t->kind != TY_RANGE && t != ty_str && !(i == n && ty_has_refs(t));
        for (int k = 0; t->kind == TY_TUPLE && k < t->nelems; k++)
            fits = fits && ty_is_scalar(t->elems[k]);
        if (!fits) {
            rt_set_errorf(ctx, "%s: error: %s() %s %s, which has no C form in an object file",
                          m->src.name, fn, i < n ? "takes" : "returns", t->name);
            return NJ_ERR_UNSUPPORTED;
        }
    }
    return NJ_OK;
}

/* Every signature, typed, with raise bases; checks that the exported names are distinct. */
static NjStatus aot_specs(NjModule *m, const char *const *sigs, int nsigs, Arena *a,
                          AotSpec *out) {
    if (nsigs < 1 || nsigs > AOT_MAX || !sigs) {
        rt_set_errorf(m->ctx, "error: an object file holds 1 to %d signatures, not %d", AOT_MAX,
                      nsigs);
        return NJ_ERR_ARGS;
    }
    int32_t base = 0;
    for (int i = 0; i < nsigs; i++) {
        NjStatus st = aot_spec(m, sigs[i], a, &out[i]);
        if (st)
            return st;
        for (int j = 0; j < i; j++)
            if (!strcmp(out[j].export, out[i].export)) {
                rt_set_errorf(m->ctx, "error: two signatures export '%s': name one of them "
                                      "'OTHER=%s(...)'",
                              out[i].export, out[i].fi->name);
                return NJ_ERR_ARGS;
            }
        out[i].base = base;
        base += out[i].prog->nraises;
    }
    return NJ_OK;
}

NjStatus nj_aot_object(NjModule *m, const char *const *sigs, int nsigs, const NjAotOptions *opt,
                       void **obj, size_t *len) {
    *obj = NULL;
    *len = 0;
    static const NjAotOptions defaults = {0};
    if (!opt)
        opt = &defaults;
    if (!cg_aot_cpu_known(opt->cpu)) {
        rt_set_errorf(m->ctx, "error: unknown CPU '%s' (generic, x86-64-v2, x86-64-v3, "
                              "x86-64-v4, native, or an LLVM name such as haswell, "
                              "skylake-avx512, znver3)",
                      opt->cpu);
        return NJ_ERR_ARGS;
    }
    Arena *a = arena_new();
    AotSpec *specs = nj_calloc(nsigs > 0 ? (size_t)nsigs : 1, sizeof *specs);
    CgAotFunc *fns = nj_calloc(nsigs > 0 ? (size_t)nsigs : 1, sizeof *fns);
    NjStatus st = a && specs && fns ? aot_specs(m, sigs, nsigs, a, specs) : NJ_ERR_NOMEM;
    if (!st) {
        for (int i = 0; i < nsigs; i++)
            fns[i] = (CgAotFunc){specs[i].prog, specs[i].export, specs[i].base};
        CgAotOptions co = {.cpu = opt->cpu, .vector_math = opt->vector_math, .opt_level = 3};
        void *bytes = NULL;
        char *err = NULL;
        if (!cg_aot_object(fns, nsigs, &co, &bytes, len, &err)) {
            rt_set_errorf(m->ctx, "%s: internal error: object file generation failed: %s",
                          m->src.name, err ? err : "?");
            st = NJ_ERR_COMPILE;
        } else if (!(*obj = nj_malloc(*len ? *len : 1))) {
            st = NJ_ERR_NOMEM;
        } else {
            memcpy(*obj, bytes, *len);
        }
        free(bytes);
        free(err);
        if (st)
            *len = 0;
    }
    nj_free(fns);
    nj_free(specs);
    arena_free(a);
    return st;
}

void nj_aot_free(void *p) { nj_free(p); }

/* ---- the header ---------------------------------------------------------------------------- */
static const char *aot_ctype(const Type *t) {
    switch (t->kind) {
    case TY_BOOL: return "bool";
    case TY_I8: return "int8_t";
    case TY_I16: return "int16_t";
    case TY_I32: return "int32_t";
    case TY_I64: return "int64_t";
    case TY_U8: return "uint8_t";
    case TY_U16: return "uint16_t";
    case TY_U32: return "uint32_t";
    case TY_U64: return "uint64_t";
    case TY_F32: return "float";
    case TY_F64: return "double";
    default: return "void";
    }
}

static const char *aot_exc(RaiseKind k) {
    return k > 0 && k < RAISE__COUNT ? ir_raise_kind_name[k] : "ValueError";
}

/* s as the body of a C string literal (or a comment: no star-slash). */
static void aot_cstr(StrBuf *sb, const char *s) {
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            sb_printf(sb, "\\%c", c);
        else if (c == '/' && s[1] == '*')
            sb_puts(sb, "/ *");
        else if (c == '*' && s[1] == '/')
            sb_puts(sb, "* ");
        else if (c < 0x20 || c == 0x7f)
            sb_printf(sb, "\\%03o", c);
        else
            sb_putc(sb, (char)c);
    }
}

static const char *const aot_c_keywords[] = {
    "auto", "bool", "break", "case", "char", "const", "continue", "default", "do", "double",
    "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
    "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
    "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "result",
    "true", "false", "_Bool", "class", "new", "delete", "this", "template", "operator", NULL,
};

/* A parameter's name in C: the Python name, moved off C (and C++) keywords and `result`. */
static void aot_param_name(StrBuf *sb, const char *py, int k) {
    if (!py || !*py) {
        sb_printf(sb, "arg%d", k);
        return;
    }
    sb_puts(sb, py);
    for (int i = 0; aot_c_keywords[i]; i++)
        if (!strcmp(py, aot_c_keywords[i]))
            sb_putc(sb, '_');
}

static void aot_upper(StrBuf *sb, const char *s) {
    for (; *s; s++)
        sb_putc(sb, (char)toupper((unsigned char)*s));
}

/* The struct of a flat tuple: typedef struct { T0 f0; T1 f1; ... } name; */
static void aot_tuple_typedef(StrBuf *sb, const Type *t, const char *name) {
    sb_puts(sb, "typedef struct {");
    for (int i = 0; i < t->nelems; i++)
        sb_printf(sb, " %s f%d;", aot_ctype(t->elems[i]), i);
    sb_printf(sb, " } %s; /* %s */\n", name, t->name);
}

static const char aot_types_text[] =
    "/* The array descriptor: numjit.h's NjArray (include numjit.h before this header to use\n"
    " * its definition).  Strides are in bytes, as NumPy's; any sign. */\n"
    "#if !defined(NUMJIT_H) && !defined(NJ_AOT_TYPES)\n"
    "#define NJ_AOT_TYPES\n"
    "#define NJ_MAX_NDIM 8\n"
    "typedef enum NjDType {\n"
    "    NJ_BOOL = 0,\n"
    "    NJ_INT8, NJ_INT16, NJ_INT32, NJ_INT64,\n"
    "    NJ_UINT8, NJ_UINT16, NJ_UINT32, NJ_UINT64,\n"
    "    NJ_FLOAT32, NJ_FLOAT64,\n"
    "    NJ_COMPLEX64, NJ_COMPLEX128,\n"
    "    NJ_DTYPE_COUNT\n"
    "} NjDType;\n"
    "typedef struct NjArray {\n"
    "    void *data;\n"
    "    int32_t ndim;\n"
    "    NjDType dtype;\n"
    "    int64_t shape[NJ_MAX_NDIM];\n"
    "    int64_t strides[NJ_MAX_NDIM];\n"
    "} NjArray;\n"
    "#endif\n"
    "\n"
    "#ifndef NJ_AOT_HELPERS\n"
    "#define NJ_AOT_HELPERS\n"
    "/* A C-contiguous view of data: ndim extents in shape, elements of dtype. */\n"
    "static inline NjArray nj_aot_array(void *data, NjDType dtype, int ndim, const int64_t *shape) {\n"
    "    static const unsigned char size[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8};\n"
    "    NjArray a;\n"
    "    int64_t step = (unsigned)dtype < sizeof size ? size[dtype] : 1;\n"
    "    a.data = data;\n"
    "    a.ndim = ndim;\n"
    "    a.dtype = dtype;\n"
    "    for (int k = 0; k < NJ_MAX_NDIM; k++)\n"
    "        a.shape[k] = a.strides[k] = 0;\n"
    "    for (int k = ndim - 1; k >= 0; k--) {\n"
    "        a.shape[k] = shape[k];\n"
    "        a.strides[k] = step;\n"
    "        step *= shape[k];\n"
    "    }\n"
    "    return a;\n"
    "}\n"
    "#endif\n";

static void aot_write_header(const NjModule *m, const AotSpec *specs, int n,
                             const NjAotOptions *opt, const char *prefix, StrBuf *sb) {
    const char *cpu = opt->cpu && strcmp(opt->cpu, "generic") ? opt->cpu : "x86-64";
    sb_printf(sb, "/* Generated by numjit %s from %s: the C interface of the object file that\n"
                  " * `numjit obj` made from it with the same signatures.  Do not edit.\n *\n",
              NJ_VERSION_STRING, m->src.name);
    sb_printf(sb, " * Link: cc main.c OBJECT.o -lm%s   (no numjit or LLVM at run time;\n"
                  " * code for CPU %s%s).\n",
              opt->vector_math ? " -lmvec" : "", cpu,
              opt->vector_math ? ", calling glibc's libmvec" : "");
    sb_puts(sb, " * Each function returns 0 on success; -1 - k when argument k (from 0) is NULL or\n"
                " * does not match its declared type (ndim, dtype, contiguity), before running;\n"
                " * else the exception the Python code raised, one of the statuses below.  The\n"
                " * result is written through `result` (may be NULL) only on success.  Arrays are\n"
                " * read and written in place. */\n");
    StrBuf guard;
    sb_init(&guard);
    aot_upper(&guard, prefix);
    sb_puts(&guard, "_NJ_AOT_H");
    sb_printf(sb, "#ifndef %s\n#define %s\n\n", guard.data, guard.data);
    sb_free(&guard);
    sb_puts(sb, "#include <stdbool.h>\n#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    sb_puts(sb, aot_types_text);

    /* statuses */
    sb_puts(sb, "\n/* ---- statuses ---- */\n#define ");
    aot_upper(sb, prefix);
    sb_puts(sb, "_OK 0\n#define ");
    aot_upper(sb, prefix);
    sb_puts(sb, "_BAD_ARG(k) (-1 - (k)) /* argument k (from 0) does not match its type */\n");
    for (int i = 0; i < n; i++) {
        const IrProgram *p = specs[i].prog;
        for (int r = 0; r < p->nraises; r++) {
            const RaiseSite *rs = &p->raises[r];
            sb_puts(sb, "#define ");
            aot_upper(sb, prefix);
            sb_printf(sb, "_RAISE_%d %d /* %s: %s: ", specs[i].base + r + 1,
                      specs[i].base + r + 1, specs[i].export, aot_exc(rs->kind));
            aot_cstr(sb, rs->msg ? rs->msg : "");
            sb_printf(sb, " (%s:%d:%d) */\n", rs->loc.src ? rs->loc.src->name : m->src.name,
                      rs->loc.line, rs->loc.col);
        }
    }
    /* status names and messages */
    sb_printf(sb, "\n/* \"ZeroDivisionError\", \"IndexError\", \"ValueError\" or \"MemoryError\" for "
                  "a raise status; NULL otherwise. */\nstatic inline const char *%s_status_exception(int32_t status) {\n"
                  "    switch (status) {\n", prefix);
    for (int i = 0; i < n; i++)
        for (int r = 0; r < specs[i].prog->nraises; r++)
            sb_printf(sb, "    case %d: return \"%s\";\n", specs[i].base + r + 1,
                      aot_exc(specs[i].prog->raises[r].kind));
    sb_puts(sb, "    default: return (const char *)0;\n    }\n}\n");
    sb_printf(sb, "\n/* A one-line message for any status (\"FILE:LINE:COL: ZeroDivisionError: ...\"). */\n"
                  "static inline const char *%s_status_message(int32_t status) {\n"
                  "    switch (status) {\n    case 0: return \"success\";\n", prefix);
    for (int i = 0; i < n; i++)
        for (int r = 0; r < specs[i].prog->nraises; r++) {
            const RaiseSite *rs = &specs[i].prog->raises[r];
            sb_printf(sb, "    case %d: return \"", specs[i].base + r + 1);
            aot_cstr(sb, rs->loc.src ? rs->loc.src->name : m->src.name);
            sb_printf(sb, ":%d:%d: %s: ", rs->loc.line, rs->loc.col, aot_exc(rs->kind));
            aot_cstr(sb, rs->msg ? rs->msg : "");
            sb_puts(sb, "\";\n");
        }
    sb_puts(sb, "    default:\n        return status < 0 ? \"an argument is NULL or does not match "
                "its declared type (ndim, dtype or contiguity)\"\n"
                "                          : \"unknown status\";\n    }\n}\n");

    /* functions */
    sb_puts(sb, "\n/* ---- functions ---- */\n");
    for (int i = 0; i < n; i++) {
        const AotSpec *s = &specs[i];
        const IrFunc *f = s->prog->funcs[0];
        sb_printf(sb, "\n/* %s(", f->name);
        for (int k = 0; k < f->nparams; k++)
            sb_printf(sb, "%s%s", k ? ", " : "", f->params[k]->name);
        sb_printf(sb, ") -> %s, from %s:%d */\n", f->ret->kind == TY_VOID ? "None" : f->ret->name,
                  m->src.name, f->loc.line);
        if (f->ret->kind == TY_TUPLE) {
            char name[300];
            snprintf(name, sizeof name, "%s_result_t", s->export);
            aot_tuple_typedef(sb, f->ret, name);
        }
        for (int k = 0; k < f->nparams; k++)
            if (f->params[k]->kind == TY_TUPLE) {
                char name[300];
                snprintf(name, sizeof name, "%s_arg%d_t", s->export, k);
                aot_tuple_typedef(sb, f->params[k], name);
            }
        sb_printf(sb, "int32_t %s(", s->export);
        bool first = true;
        if (f->ret->kind == TY_TUPLE) {
            sb_printf(sb, "%s_result_t *result", s->export);
            first = false;
        } else if (f->ret->kind != TY_VOID) {
            sb_printf(sb, "%s *result", aot_ctype(f->ret));
            first = false;
        }
        for (int k = 0; k < f->nparams; k++) {
            const Type *t = f->params[k];
            sb_puts(sb, first ? "" : ", ");
            first = false;
            if (t->kind == TY_ARRAY)
                sb_puts(sb, "const NjArray *");
            else if (t->kind == TY_TUPLE)
                sb_printf(sb, "const %s_arg%d_t *", s->export, k);
            else
                sb_printf(sb, "%s ", aot_ctype(t));
            aot_param_name(sb, f->param_names ? f->param_names[k] : NULL, k);
            if (t->kind == TY_ARRAY)
                sb_printf(sb, " /* %s */", t->name);
        }
        sb_puts(sb, first ? "void);\n" : ");\n");
    }
    sb_puts(sb, "\n#ifdef __cplusplus\n}\n#endif\n#endif\n");
}

/* The prefix of the header's names: opt->prefix, else the module file's stem. */
static char *aot_prefix(const NjModule *m, const NjAotOptions *opt) {
    StrBuf sb;
    sb_init(&sb);
    if (opt->prefix) {
        sb_puts(&sb, opt->prefix);
    } else {
        const char *base = strrchr(m->src.name, '/');
        base = base ? base + 1 : m->src.name;
        const char *dot = strrchr(base, '.');
        size_t n = dot && dot > base ? (size_t)(dot - base) : strlen(base);
        if (!n || isdigit((unsigned char)base[0]))
            sb_putc(&sb, 'm');
        for (size_t i = 0; i < n; i++)
            sb_putc(&sb, isalnum((unsigned char)base[i]) ? base[i] : '_');
    }
    return sb_take(&sb);
}

NjStatus nj_aot_header(NjModule *m, const char *const *sigs, int nsigs, const NjAotOptions *opt,
                       char **out) {
    *out = NULL;
    static const NjAotOptions defaults = {0};
    if (!opt)
        opt = &defaults;
    char *prefix = aot_prefix(m, opt);
    if (!prefix)
        return NJ_ERR_NOMEM;
    if (!aot_is_ident(prefix, strlen(prefix))) {
        rt_set_errorf(m->ctx, "error: the header prefix '%s' is not a C identifier", prefix);
        nj_free(prefix);
        return NJ_ERR_ARGS;
    }
    Arena *a = arena_new();
    AotSpec *specs = nj_calloc(nsigs > 0 ? (size_t)nsigs : 1, sizeof *specs);
    NjStatus st = a && specs ? aot_specs(m, sigs, nsigs, a, specs) : NJ_ERR_NOMEM;
    if (!st) {
        StrBuf sb;
        sb_init(&sb);
        aot_write_header(m, specs, nsigs, opt, prefix, &sb);
        *out = sb_take(&sb);
        if (!*out)
            st = NJ_ERR_NOMEM;
    }
    nj_free(specs);
    nj_free(prefix);
    arena_free(a);
    return st;
}
