/* session.h — what the session files (session*.c, arrays.c, npy.c) share.
 *
 * Private to those files: the rest of runtime/ and the other folders never include it.
 * A session (NjSession, numjit.h) runs top-level Python statements: it owns a table of
 * variables whose values are SVal (scalars, reference-counted arrays, tuples, strings), the
 * text of the defs typed so far (placed at their own line numbers, so diagnostics point at
 * what the user typed), and caches of the functions it synthesized for array expressions.
 */
#ifndef NUMJIT_SESSION_H
#define NUMJIT_SESSION_H

#include "runtime.h"

#include <signal.h>

/* ---- values ----------------------------------------------------------------------------- */
/* A reference-counted array.  buf is the owned allocation (64-byte aligned) or NULL for a view,
 * which then holds a reference on base. */
typedef struct SArr {
    int refs;
    NjArray a;
    void *buf;
    struct SArr *base;
} SArr;

typedef enum { SV_NONE, SV_SCALAR, SV_ARRAY, SV_TUPLE, SV_STR, SV_RNG, SV_DTYPE } SvKind;

typedef struct SVal {
    SvKind kind;
    NjDType dtype;   /* SV_SCALAR, SV_DTYPE */
    union {
        bool b;
        int64_t i;
        uint64_t u;
        double f;
        double c[2]; /* complex: real, imaginary */
    } s;             /* SV_SCALAR (float32 kept as double, rounded to float) */
    SArr *arr;       /* SV_ARRAY: one reference */
    struct SVal *elems; /* SV_TUPLE: n owned values */
    int n;
    char *str;       /* SV_STR (malloc'ed) */
    uint64_t *rng;   /* SV_RNG: 4 words of xoshiro256** state (malloc'ed, shared by copies
                        through refs in rng[4]) */
} SVal;

/* arrays.c */
SArr *sa_new(NjDType dt, int ndim, const int64_t *shape); /* C-contiguous, uninitialized;
                                                             NULL for a shape sa_shape_error
                                                             refuses */
const char *sa_shape_error(NjDType dt, int ndim, const int64_t *shape);
SArr *sa_wrap(NjArray a);            /* takes a malloc'ed (aligned) buffer a.data, or the
                                        reference of an array compiled code made (a.owner) */
SArr *sa_view(SArr *base, NjArray a); /* a view of base's memory */
void sa_decref(SArr *a);
int64_t sa_size(const NjArray *a);
bool sa_is_contig(const NjArray *a);
SVal sv_none(void);
SVal sv_scalar_i(NjDType dt, int64_t i);
SVal sv_scalar_f(NjDType dt, double f);
SVal sv_array(SArr *a);              /* steals the reference */
SVal sv_copy(const SVal *v);         /* a new reference / deep copy */
void sv_free(SVal *v);
double sv_as_double(const SVal *v);
int64_t sv_as_int(const SVal *v);
bool sv_truth(const SVal *v);
/* A scalar as an NjValue / stored in memory as its dtype. */
NjValue sv_to_nj(const SVal *v);
SVal sv_from_nj(const NjValue *v);
void sv_store(void *p, const SVal *v);
SVal sv_load(const void *p, NjDType dt);
/* repr (REPL echo) and str (print) of a value, NumPy's and Python's way. */
void sv_repr(const SVal *v, StrBuf *out);
void sv_str(const SVal *v, StrBuf *out);
void sv_type_name(const SVal *v, StrBuf *out); /* ":type": "array(float64, 1d, C)" ... */
/* Constructors.  err gets a static message on failure. */
SArr *sa_full(NjDType dt, int ndim, const int64_t *shape, const SVal *fill);
SArr *sa_arange(NjDType dt, double start, double stop, double step, bool ints, const char **err);
SArr *sa_linspace(double a, double b, int64_t n, bool endpoint, NjDType dt);
SArr *sa_random(uint64_t *state, int ndim, const int64_t *shape, bool normal, double p0,
                double p1);
void sa_seed(uint64_t *state, uint64_t seed);
SArr *sa_cast_copy(const NjArray *src, NjDType to); /* C-contiguous converted copy */
/* Whole-array or axis reduction done in C (the fallback when nothing is fused). */
bool sa_dtype_from_name(const char *name, NjDType *out);

/* npy.c: NumPy's .npy format v1.0 (and reading v2.0/3.0). */
NjStatus npy_save(const char *path, const NjArray *a, char *err, size_t errn);
NjStatus npy_load(const char *path, SArr **out, char *err, size_t errn);

/* ---- the session ------------------------------------------------------------------------- */
typedef struct SVar {
    char *name;
    SVal v;
} SVar;

typedef struct SCache { /* synthesized functions, by normalized expression text */
    char *key;
    NjModule *m;
    NjUfunc *u;       /* elementwise over arrays */
    NjFunction *f;    /* scalar expression, or a fused reduction */
    char *fname;
} SCache;

struct NjSession {
    NjContext *ctx;
    NjTarget target;
    char *main_name;      /* name of the session's virtual file ("<stdin>", or the script) */
    PtrVec vtext_lines;   /* kept lines (defs, imports) by line number, NULL = empty */
    int nlines;           /* lines of the virtual file so far */
    SVar *vars;
    int nvars, capvars;
    int *vindex;          /* open-addressed hash of vars by name: index + 1, 0 = empty */
    int nvindex;          /* its size (a power of two, at least twice nvars), 0 = none yet */
    unsigned text_gen;    /* bumped when a kept line changes */
    unsigned synced_gen;  /* text_gen and the constants' hash when base was compiled */
    uint64_t synced_consts;
    PtrVec funcs;         /* names of the defs (char *) */
    PtrVec free_names;    /* names the defs' bodies use (char *): candidate constants */
    NjModule *defs;       /* the module of the defs (lazily compiled from the base text) */
    char *base;           /* vtext + constants last compiled: a change flushes the caches */
    SCache *cache;
    int ncache, capcache;
    int counter;          /* numbers synthesized functions */
    PtrVec sigs;          /* "name(types)" of the last call of each session function */
    char *last_expr_fn;   /* the last fused expression's function and signature (":ir") */
    char *last_expr_sig;
    NjModule *last_expr_mod;
    double compile_ms;    /* compile time spent since reset (":time") */
    StrBuf out;           /* what print() and echoes wrote */
    bool echo;            /* interactive: echo expression statements' values */
    bool has_rng;
    uint64_t rng[4];      /* the session's generator for np.random.* without a seed */
    int loop_depth;
    volatile sig_atomic_t interrupt; /* nj_session_interrupt: stop before the next statement */
    const char *call_sig; /* the signature of the library call being bound (session_call.c) */
    SArr *hint, *force;   /* for the next se_eval only (see se_run_region) */
};

/* session.c */
SVal *ss_lookup(NjSession *s, const char *name);
bool ss_set(NjSession *s, const char *name, SVal v); /* steals v */
bool ss_is_func(NjSession *s, const char *name);
/* Reports an error at loc (rendered with a caret) as the context's last error. */
NjStatus ss_error(NjSession *s, Loc loc, NjStatus st, const char *fmt, ...) NJ_PRINTF(4, 5);
/* The module text that synthesized functions extend: vtext, then the constants the defs use. */
char *ss_base_text(NjSession *s);
/* Makes sure the caches belong to the current base text; returns the defs' module (NULL with
 * the error set when the defs do not compile). */
NjStatus ss_sync(NjSession *s);
void ss_note_sig(NjSession *s, const char *fname, const SVal *args, int n);
double ss_now_ms(void);
const char *ss_last_sig(NjSession *s, const char *fname); /* "(float64[::1], int64)" or NULL */
/* Runs a chunk; keep_lines: it is part of the virtual file (defs allowed), else a command's
 * statement (":time x = ..."). */
NjStatus ss_exec_text(NjSession *s, const char *filename, const char *text, bool keep_lines);
char *ss_take_output(NjSession *s); /* nj_malloc'ed; empties the buffer */

/* session_eval.c: regions (fused elementwise expressions); session_reduce.c: reductions */
typedef enum { RED_SUM, RED_PROD, RED_MIN, RED_MAX, RED_MEAN } RedKind;
/* "numpy.sum", "math.sin", "builtin.print", "numpy.random.uniform", "func.f"; false when the
 * callee is none of those (a variable, a method, ...). */
bool se_qualname(NjSession *s, Node *callee, char *q, size_t n);
bool se_is_region_node(NjSession *s, Node *e);
bool se_direct_call_ok(NjSession *s, const char *name, const SVal *args, int n);
/* Evaluates a region rooted at e as one loop; hint: an array the result may be written into
 * (the old value of the assigned name); force: the array it must be written into (x += ...). */
NjStatus se_run_region(NjSession *s, Node *e, SArr *hint, SArr *force, SVal *out);
NjStatus se_eval_reduce(NjSession *s, RedKind k, Node *arg, Node *axis, Loc loc, SVal *out);
/* The helper binary ufuncs of axis reductions (RED_SUM..RED_MAX) and the identity ufunc
 * (RED_MEAN slot is the copy "__nj_id"). */
NjStatus se_helper_ufunc(NjSession *s, RedKind k, NjUfunc **out);
void se_type_str(const Type *t, StrBuf *out);
const char *se_dtype_type_name(NjDType d); /* "float64" */

/* session_fast.c: int64/float64/bool scalar arithmetic and comparisons evaluated directly;
 * false (nothing done) for anything else, which then goes the general way. */
bool se_eval_fast(NjSession *s, Node *e, SVal *out);

/* session_args.c: the binder of library calls and the readers of their arguments.  A call
 * being handled (se_enter_call .. se_leave_call) makes its signature the note se_arg_error
 * shows (calls nest: np.zeros(np.arange(n).size)). */
typedef struct SeLibCall {
    const char *saved;
    char shown[448];
    Node call;       /* the call with its arguments in the handler's order */
    Node *items[16]; /* its positional arguments (NULL: left out) */
} SeLibCall;
NjStatus se_arg_error(NjSession *s, Loc loc, NjStatus st, const char *fmt, ...) NJ_PRINTF(4, 5);
NjStatus se_enter_call(NjSession *s, Node **call, const char *qname, const char *shown,
                       SeLibCall *lc);
NjStatus se_leave_call(NjSession *s, SeLibCall *lc, NjStatus st);
/* The consistency of the session's call table with the registry (unit-tested): NULL, or what
 * is wrong with the first bad row, in buf. */
const char *se_sig_check(char *buf, size_t size);
Node *se_arg_node(Node *call, int pos, const char *kw); /* by position, else keyword; or NULL */
NjStatus se_check_kwargs(NjSession *s, Node *call, const char *const *allowed);
NjStatus se_eval_number(NjSession *s, Node *n, double dflt, double *out, bool *is_int);
NjStatus se_eval_shape(NjSession *s, Node *n, int *nd, int64_t *shape);
NjStatus se_eval_dtype(NjSession *s, Node *n, NjDType dflt, NjDType *out);
NjStatus se_eval_string(NjSession *s, Node *n, char **out);
NjStatus se_need_array(NjSession *s, Node *n, SVal *v);
NjStatus se_made(NjSession *s, Loc loc, SArr *a, SVal *out); /* out of memory when !a */

/* session_call.c: calls (library functions, methods of arrays, compiled functions) */
NjStatus se_eval_call(NjSession *s, Node *call, SVal *out);
/* Python's `fmt % args` for numbers and strings, appended to sb. */
NjStatus se_format_percent(NjSession *s, const char *fmt, const SVal *args, int n, Loc loc,
                           StrBuf *sb);
NjStatus se_call_direct(NjSession *s, const char *name, const SVal *args, int n, Loc loc,
                        SVal *out);

/* session_index.c: everything else an expression can be, and assignment targets */
NjStatus se_eval(NjSession *s, Node *e, SVal *out);
NjStatus se_eval_subscript(NjSession *s, Node *e, SVal *out);
NjStatus se_eval_attr(NjSession *s, Node *e, SVal *out);
/* Assigns value (borrowed) to target: a name, a tuple of names, a subscript. */
NjStatus se_assign(NjSession *s, Node *target, const SVal *value);
NjStatus se_augassign(NjSession *s, Node *st);
/* Copies v (scalar or array, broadcast and cast) into dst. */
NjStatus se_copy_into(NjSession *s, const NjArray *dst, const SVal *v, Loc loc);

#endif
