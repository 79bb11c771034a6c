/* module.c — the module table: what the decorators, imports and constants of a file mean.
 *
 * One pass over the top-level statements of a parsed module, in order:
 *   - imports bind local names (`import numpy as np`: np -> "numpy"; `import numba.cuda`:
 *     numba -> "numba"; `from numba import cuda, njit as nj`: cuda -> "numba.cuda",
 *     nj -> "numba.njit"); a later binding of the same name replaces an earlier one;
 *   - `NAME = constant expression` records a module constant (literals, unary and binary
 *     operators, tuples of constants, and earlier constants, which are copied in so each
 *     value is self-contained);
 *     a name assigned anything else at module level stops being a constant;
 *   - each def becomes a FuncInfo: its decorator is resolved through the bindings to a dotted
 *     path ("numba.njit", "numba.cuda.jit", numjit's own names counting as numba's), the call's
 *     arguments give the signatures (a list of strings or type expressions, one string, or
 *     none), the gufunc layout (checked against "(m,n),(n,p)->(m,p)") and the options
 *     (cache, fastmath, error_model, boundscheck, parallel, nopython, target, identity,
 *     device), and source_text is sliced from the def's first decorator to its last line.
 * @numba.extending.register_jitable makes a plain def (compiled when a compiled def calls it);
 * a @generated_jit def stays Python (numjit.generated compiles what it returns; a call from
 * compiled code is an error naming it); a gufunc
 * decorator given a layout alone is a dynamic gufunc (signatures come from the calls).
 * Other module-level code (if __name__ == "__main__": blocks, prints, calls) is ignored: the
 * Python runner executes it.  Decorators that are not numba's leave the def out of the table
 * (it is plain Python the runner keeps); numba decorators numjit does not know are errors.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

typedef struct Builder {
    Arena *arena;
    const Source *src;
    DiagList *diags;
    ModuleInfo *m;
    int capf, capc, capb;
    unsigned libs;    /* stdlib modules added: bit 0 cuda_random.py, bit 1 cmath.py, bit 2 npfunc.py,
                       * bit 3 str.py, bit 4 random_dists.py, bit 5 nanfunc.py,
                       * bit 6 lists.py */
    bool in_library;  /* adding a stdlib module's statements */
    const Source *lo_src; /* line_offset's last answer: line lo_line of lo_src starts at lo_off */
    int lo_line;
    size_t lo_off;
} Builder;

/* ---- growing the tables (arena arrays, doubled) ------------------------------------------- */

static void *grow(Arena *a, void *old, int n, int *cap, size_t size)
{
    if (n < *cap)
        return old;
    int ncap = *cap ? *cap * 2 : 8;
    void *fresh = arena_alloc(a, size * (size_t)ncap);
    if (!fresh || arena_failed(a))
        return NULL;
    if (n)
        memcpy(fresh, old, size * (size_t)n);
    *cap = ncap;
    return fresh;
}

static void bind(Builder *b, const char *name, const char *target)
{
    ModuleInfo *m = b->m;
    for (int i = 0; i < m->nbinds; i++)
        if (strcmp(m->bind_names[i], name) == 0) {
            m->bind_targets[i] = target;
            return;
        }
    int cap = b->capb;
    const char **names = grow(b->arena, (void *)m->bind_names, m->nbinds, &cap, sizeof(char *));
    int cap2 = b->capb;
    const char **targets =
        grow(b->arena, (void *)m->bind_targets, m->nbinds, &cap2, sizeof(char *));
    if (!names || !targets)
        return;
    b->capb = cap;
    m->bind_names = names;
    m->bind_targets = targets;
    m->bind_names[m->nbinds] = name;
    m->bind_targets[m->nbinds] = target;
    m->nbinds++;
}

const char *fe_resolve_import(const ModuleInfo *m, const char *name)
{
    if (!m || !name)
        return NULL;
    for (int i = 0; i < m->nbinds; i++)
        if (strcmp(m->bind_names[i], name) == 0)
            return m->bind_targets[i];
    return NULL;
}

/* The boundscheck a function compiles with.  As Numba's config.BOUNDSCHECK: the environment
 * variable NUMJIT_BOUNDSCHECK, else NUMBA_BOUNDSCHECK, when set to an integer overrides every
 * function's option (0 off, anything else on); unset or not an integer, the decorator's
 * boundscheck= decides.  The library's own code (stdlib/) is left as written. */
bool fe_boundscheck(const FuncInfo *fi)
{
    if (fi->library)
        return fi->boundscheck;
    const char *names[2] = {"NUMJIT_BOUNDSCHECK", "NUMBA_BOUNDSCHECK"};
    for (int i = 0; i < 2; i++) {
        const char *e = getenv(names[i]);
        if (!e || !*e)
            continue;
        char *end;
        long v = strtol(e, &end, 10);
        while (isspace((unsigned char)*end))
            end++;
        if (!*end)
            return v != 0;
    }
    return fi->boundscheck;
}

const FuncInfo *fe_find_func(const ModuleInfo *m, const char *name)
{
    if (!m || !name)
        return NULL;
    for (int i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].name, name) == 0)
            return &m->funcs[i];
    return NULL;
}

/* ---- constants ------------------------------------------------------------------------------ */

static ConstInfo *find_const(ModuleInfo *m, const char *name)
{
    for (int i = 0; i < m->nconsts; i++)
        if (strcmp(m->consts[i].name, name) == 0)
            return &m->consts[i];
    return NULL;
}

static void drop_const(ModuleInfo *m, const char *name)
{
    for (int i = 0; i < m->nconsts; i++)
        if (strcmp(m->consts[i].name, name) == 0) {
            memmove(&m->consts[i], &m->consts[i + 1], sizeof(ConstInfo) * (size_t)(m->nconsts - i - 1));
            m->nconsts--;
            return;
        }
}

/* A copy of a constant expression with earlier constants substituted; NULL if it is not
 * one.  Depth is bounded by the parser's node-depth limit. */
static Node *const_expr(Builder *b, const Node *e)
{
    Node *r;
    switch (e->kind) {
    case ND_INT: case ND_FLOAT: case ND_BOOL: case ND_IMAG: case ND_STR:
        r = ast_new(b->arena, e->kind, e->loc);
        if (!r)
            return NULL;
        r->ival = e->ival;
        r->fval = e->fval;
        r->str = e->str;
        return r;
    case ND_NAME: {
        ConstInfo *c = find_const(b->m, e->name);
        return c ? const_expr(b, c->value) : NULL;
    }
    case ND_UNARY:
        if (e->op == OP_NOT)
            return NULL;
        /* fall through */
    case ND_BINOP: {
        Node *a = const_expr(b, e->a), *x = NULL;
        if (!a)
            return NULL;
        if (e->kind == ND_BINOP && (e->op == OP_MATMUL || !(x = const_expr(b, e->b))))
            return NULL;
        r = ast_new(b->arena, e->kind, e->loc);
        if (!r)
            return NULL;
        r->op = e->op;
        r->a = a;
        r->b = x;
        return r;
    }
    case ND_CALL: {
        /* a typed constant: np.float32(0.1), numba.uint64(5), int32(-1) — one constant
         * argument; the typer checks that the callee is a type */
        static const char *const type_names[] = {
            "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
            "float32", "float64", "bool_", "intp", "uintp", "float_", "double", NULL};
        /* numjit._address_function(ADDRESS, "SIG"): a C function by address, which the
         * Python package writes for a WrapperAddressProtocol global (lib/address.c) */
        if (e->a->kind == ND_ATTR && !strcmp(e->a->name, "_address_function") &&
            e->list.n == 2 && !e->list2.n && e->list.items[0]->kind == ND_INT &&
            e->list.items[1]->kind == ND_STR)
            return (Node *)e;
        /* numjit._frozen_array(ADDRESS, "DTYPE", (N, ...)): a global NumPy array, frozen
         * by the Python package as Numba freezes it (lib/address.c) */
        if (e->a->kind == ND_ATTR && !strcmp(e->a->name, "_frozen_array") &&
            e->list.n == 3 && !e->list2.n && e->list.items[0]->kind == ND_INT &&
            e->list.items[1]->kind == ND_STR && e->list.items[2]->kind == ND_TUPLE)
            return (Node *)e;
        /* numjit._namedtuple("NAME", ("field", ...)): a collections.namedtuple class
         * (lib/namedtuple.c) */
        if (e->a->kind == ND_ATTR && !strcmp(e->a->name, "_namedtuple") && e->list.n == 2 &&
            !e->list2.n && e->list.items[0]->kind == ND_STR &&
            e->list.items[1]->kind == ND_TUPLE)
            return (Node *)e;
        if (e->list.n != 1 || e->list2.n || (e->a->kind != ND_NAME && e->a->kind != ND_ATTR) ||
            (e->a->kind == ND_ATTR && e->a->a->kind != ND_NAME))
            return NULL;
        bool is_type = false;
        for (int i = 0; type_names[i]; i++)
            is_type |= !strcmp(e->a->name, type_names[i]);
        if (!is_type)
            return NULL;
        Node *arg = const_expr(b, e->list.items[0]);
        if (!arg)
            return NULL;
        r = ast_new(b->arena, ND_CALL, e->loc);
        if (!r)
            return NULL;
        r->a = (Node *)e->a;
        ast_list_push(b->arena, &r->list, arg);
        return r;
    }
    case ND_TUPLE: { /* (1, 2.5, (3, 4)): a tuple of constants, nested ones included */
        r = ast_new(b->arena, ND_TUPLE, e->loc);
        if (!r)
            return NULL;
        for (int i = 0; i < e->list.n; i++) {
            Node *x = const_expr(b, e->list.items[i]);
            if (!x)
                return NULL;
            ast_list_push(b->arena, &r->list, x);
        }
        return r;
    }
    default:
        return NULL;
    }
}

static void add_const(Builder *b, const Node *target, const Node *value)
{
    ModuleInfo *m = b->m;
    if (target->kind == ND_TUPLE || target->kind == ND_LIST) {
        bool pairs = value && (value->kind == ND_TUPLE || value->kind == ND_LIST) &&
                     value->list.n == target->list.n;
        for (int i = 0; i < target->list.n; i++)
            add_const(b, target->list.items[i], pairs ? value->list.items[i] : NULL);
        return;
    }
    if (target->kind != ND_NAME)
        return;
    Node *v = value ? const_expr(b, value) : NULL;
    if (!v) {
        drop_const(m, target->name);
        return;
    }
    ConstInfo *c = find_const(m, target->name);
    if (c) {
        c->value = v;
        return;
    }
    ConstInfo *consts = grow(b->arena, m->consts, m->nconsts, &b->capc, sizeof(ConstInfo));
    if (!consts)
        return;
    m->consts = consts;
    m->consts[m->nconsts++] = (ConstInfo){target->name, v, b->in_library};
}

/* ---- imports -------------------------------------------------------------------------------- */

static void add_func(Builder *b, Node *def, const Node *next);
static void add_library(Builder *b, const char *lib);

/* numba.cuda.random (numjit.cuda.random too) is a library written in numjit's language
 * (stdlib/cuda_random.py): importing from it adds the library's functions, named
 * _nj_random_<name>, its constants and, where the module has not bound them itself, its
 * imports; each imported name that the library defines becomes a function of that name (or
 * alias) with the library function's body.  Other names (create_xoroshiro128p_states, run on
 * the host) bind as any import does. */
static bool import_library(Builder *b, const Node *s)
{
    if (strcmp(s->name, "numba.cuda.random") && strcmp(s->name, "numjit.cuda.random"))
        return false;
    add_library(b, "cuda_random");
    ModuleInfo *m = b->m;
    for (int i = 0; i < s->list.n; i++) {
        const Node *x = s->list.items[i];
        const char *lib_name = arena_printf(b->arena, "_nj_random_%s", x->name);
        const FuncInfo *lf = lib_name ? fe_find_func(m, lib_name) : NULL;
        if (!lf) {
            bind(b, x->str ? x->str : x->name,
                 arena_printf(b->arena, "%s.%s", s->name, x->name));
            continue;
        }
        FuncInfo f = *lf;
        f.name = x->str ? x->str : x->name;
        bool replaced = false;
        for (int k = 0; k < m->nfuncs && !replaced; k++)
            if (strcmp(m->funcs[k].name, f.name) == 0) {
                m->funcs[k] = f;
                replaced = true;
            }
        if (replaced)
            continue;
        FuncInfo *funcs = grow(b->arena, m->funcs, m->nfuncs, &b->capf, sizeof(FuncInfo));
        if (!funcs)
            return true;
        m->funcs = funcs;
        m->funcs[m->nfuncs++] = f;
    }
    return true;
}

static void add_import(Builder *b, const Node *s)
{
    /* cmath.NAME, and np.NAME on complex scalars, are functions of stdlib/cmath.py */
    if (!strcmp(s->name, "cmath") || !strncmp(s->name, "numpy", 5))
        add_library(b, "cmath");
    /* the loops of np.interp, np.histogram, ... (ir/typer_npfunc.c) are stdlib/npfunc.py */
    if (!strncmp(s->name, "numpy", 5)) {
        add_library(b, "npfunc");
        add_library(b, "nanfunc"); /* np.nansum ... (lib/nanfunc.c) */
    }
    /* np.random's and random's distributions (typer/typer_random.c) are stdlib/random_dists.py */
    if (!strncmp(s->name, "numpy", 5) || !strcmp(s->name, "random"))
        add_library(b, "random_dists");
    if (s->kind == ND_IMPORT) {
        if (s->str) {
            bind(b, s->str, s->name);
        } else {
            /* `import a.b.c` binds a */
            const char *dot = strchr(s->name, '.');
            const char *top = dot ? arena_strndup(b->arena, s->name, (size_t)(dot - s->name))
                                  : s->name;
            bind(b, top, top);
        }
        return;
    }
    if (import_library(b, s))
        return;
    for (int i = 0; i < s->list.n; i++) {
        const Node *x = s->list.items[i];
        bind(b, x->str ? x->str : x->name, arena_printf(b->arena, "%s.%s", s->name, x->name));
    }
}

/* ---- decorators ----------------------------------------------------------------------------- */

/* "a.b.c" for a name or attribute chain, resolved through the bindings; NULL otherwise.
 * The decorator names themselves, used without any import (source handed to the C API often
 * has none), count as numba's. */
static const char *dotted(Builder *b, const Node *e)
{
    if (e->kind == ND_NAME) {
        static const char *const bare[] = {"njit", "jit", "vectorize", "guvectorize", "cuda"};
        const char *t = fe_resolve_import(b->m, e->name);
        if (t)
            return t;
        for (int i = 0; i < 5; i++)
            if (strcmp(e->name, bare[i]) == 0)
                return arena_printf(b->arena, "numba.%s", e->name);
        return e->name;
    }
    if (e->kind == ND_ATTR) {
        const char *base = dotted(b, e->a);
        return base ? arena_printf(b->arena, "%s.%s", base, e->name) : NULL;
    }
    return NULL;
}

/* The decorator's path with the numba/numjit package stripped ("njit", "cuda.jit"), or NULL
 * when the decorator is not from numba or numjit. */
static const char *numba_name(const char *path)
{
    static const char *const pkgs[] = {"numba.", "numjit."};
    for (int i = 0; i < 2; i++) {
        size_t n = strlen(pkgs[i]);
        if (strncmp(path, pkgs[i], n) == 0)
            return path + n;
    }
    return NULL;
}

static bool get_bool(Builder *b, const Node *kw, bool *out)
{
    const Node *v = kw->a;
    if (v->kind == ND_BOOL || v->kind == ND_INT) {
        *out = v->ival != 0;
        return true;
    }
    diag_error(b->diags, v->loc, "option '%s' must be True or False", kw->name);
    return false;
}

static const char *get_str(Builder *b, const Node *kw)
{
    if (kw->a->kind == ND_STR)
        return kw->a->str;
    diag_error(b->diags, kw->a->loc, "option '%s' must be a string", kw->name);
    return NULL;
}

static void add_sigs(Builder *b, FuncInfo *f, Node *arg)
{
    if (arg->kind == ND_LIST) {
        for (int i = 0; i < arg->list.n; i++)
            ast_list_push(b->arena, &f->sigs, arg->list.items[i]);
    } else {
        ast_list_push(b->arena, &f->sigs, arg);
    }
}

/* Checks a gufunc layout: "(m,n),(n,p)->(m,p)", "(n),()->()", or inputs alone, "(a),(a),(z)"
 * (a gufunc without outputs that writes into an argument).  Returns NULL or an error
 * message; *at receives the offset of the problem. */
static const char *layout_error(const char *s, int *at)
{
    const char *p = s;
    for (int side = 0; side < 2; side++) {
        for (;;) {
            while (*p == ' ')
                p++;
            if (*p != '(') {
                *at = (int)(p - s);
                return "expected '('";
            }
            p++;
            while (*p == ' ')
                p++;
            if (*p != ')') {
                for (;;) {
                    while (*p == ' ')
                        p++;
                    if (!(isalpha((unsigned char)*p) || *p == '_')) {
                        *at = (int)(p - s);
                        return "expected a dimension name";
                    }
                    while (isalnum((unsigned char)*p) || *p == '_')
                        p++;
                    while (*p == ' ')
                        p++;
                    if (*p == ',') {
                        p++;
                        continue;
                    }
                    break;
                }
                if (*p != ')') {
                    *at = (int)(p - s);
                    return "expected ',' or ')'";
                }
            }
            p++;
            while (*p == ' ')
                p++;
            if (*p == ',') {
                p++;
                continue;
            }
            break;
        }
        if (side == 0) {
            while (*p == ' ')
                p++;
            if (!*p)
                return NULL; /* no '->': every operand an input, as Numba reads "(a),(a),(z)" */
            if (p[0] != '-' || p[1] != '>') {
                *at = (int)(p - s);
                return "expected '->'";
            }
            p += 2;
        }
    }
    while (*p == ' ')
        p++;
    if (*p) {
        *at = (int)(p - s);
        return "unexpected text after the outputs";
    }
    return NULL;
}

const char *const fe_fastmath_flag_names[FM_NFLAGS] = {"reassoc", "nnan", "ninf", "nsz",
                                                       "arcp",    "contract", "afn"};

/* fastmath={'nsz', 'arcp'} or {'nsz': True, 'arcp': False}: Numba's flag set ('fast' is all of
 * them); an empty set is no fast math, an unknown flag an error, as in Numba. */
static void read_fastmath_flags(Builder *b, FuncInfo *f, const Node *v)
{
    unsigned flags = 0;
    bool all = false;
    for (int i = 0; i < v->list.n; i++) {
        const Node *k = v->list.items[i];
        if (v->kind == ND_DICT) {
            const Node *on = v->list2.items[i];
            if (on->kind != ND_BOOL && on->kind != ND_INT) {
                diag_error(b->diags, on->loc, "a fastmath flag is switched on with True or "
                                              "off with False");
                return;
            }
            if (!on->ival)
                continue;
        }
        int bit = -1;
        if (k->kind == ND_STR)
            for (int j = 0; j < FM_NFLAGS; j++)
                if (!strcmp(k->str, fe_fastmath_flag_names[j]))
                    bit = j;
        if (k->kind == ND_STR && !strcmp(k->str, "fast")) {
            all = true;
        } else if (bit < 0) {
            diag_error(b->diags, k->loc, "unrecognized fastmath flag (one of 'fast', 'nnan', "
                                         "'ninf', 'nsz', 'arcp', 'contract', 'afn', 'reassoc')");
            return;
        } else {
            flags |= 1u << bit;
        }
    }
    f->fastmath = all || flags != 0;
    f->fastmath_flags = all ? 0 : flags;
}

/* Reads one keyword option of a decorator; `allowed` lists the options of this kind. */
static void read_option(Builder *b, FuncInfo *f, const Node *kw, const char *deco,
                        const char *const *allowed)
{
    const char *k = kw->name;
    bool ok = false, v;
    for (int i = 0; allowed[i]; i++)
        if (strcmp(allowed[i], k) == 0)
            ok = true;
    if (!ok) {
        diag_error(b->diags, kw->loc, "unknown option '%s' for @%s", k, deco);
        return;
    }
    if (strcmp(k, "cache") == 0) {
        if (get_bool(b, kw, &v)) f->cache = v;
    } else if (strcmp(k, "fastmath") == 0) {
        if (kw->a->kind == ND_SET || kw->a->kind == ND_DICT)
            read_fastmath_flags(b, f, kw->a);
        else if (get_bool(b, kw, &v)) f->fastmath = v;
    } else if (strcmp(k, "boundscheck") == 0) {
        if (kw->a->kind == ND_NONE) f->boundscheck = false;
        else if (get_bool(b, kw, &v)) f->boundscheck = v;
    } else if (strcmp(k, "parallel") == 0) {
        if (get_bool(b, kw, &v)) f->parallel = v;
    } else if (strcmp(k, "nopython") == 0) {
        if (get_bool(b, kw, &v)) {
            f->nopython = true;
            if (!v)
                diag_error(b->diags, kw->loc, "object mode (nopython=False) is not supported "
                                              "by numjit");
        }
    } else if (strcmp(k, "forceobj") == 0) {
        if (get_bool(b, kw, &v) && v)
            diag_error(b->diags, kw->loc, "object mode (forceobj=True) is not supported by "
                                          "numjit");
    } else if (strcmp(k, "error_model") == 0) {
        const char *s = get_str(b, kw);
        if (s && strcmp(s, "python") == 0)
            f->error_model = EM_PYTHON;
        else if (s && strcmp(s, "numpy") == 0)
            f->error_model = EM_NUMPY;
        else if (s)
            diag_error(b->diags, kw->a->loc, "error_model must be 'python' or 'numpy'");
    } else if (strcmp(k, "target") == 0) {
        const char *s = get_str(b, kw);
        if (s && (strcmp(s, "cpu") == 0 || strcmp(s, "parallel") == 0 || strcmp(s, "cuda") == 0))
            f->target = s;
        else if (s)
            diag_error(b->diags, kw->a->loc, "target must be 'cpu', 'parallel' or 'cuda'");
    } else if (strcmp(k, "identity") == 0) {
        const Node *a = kw->a;
        if (a->kind == ND_INT || a->kind == ND_FLOAT || a->kind == ND_NONE || a->kind == ND_BOOL ||
            (a->kind == ND_STR && strcmp(a->str, "reorderable") == 0))
            f->identity = kw->a;
        else
            diag_error(b->diags, a->loc, "identity must be 0, 1, None or 'reorderable'");
    } else if (strcmp(k, "device") == 0) {
        if (get_bool(b, kw, &v) && v)
            f->kind = FK_DEVICE;
    } else if (strcmp(k, "signature") == 0 || strcmp(k, "signatures") == 0) {
        add_sigs(b, f, kw->a);
    }
    /* nogil, inline, debug, opt, lineinfo, looplift, locals (numjit infers every variable's
     * type), ...: accepted, no effect */
}

static const char *const njit_opts[] = {"cache", "fastmath", "error_model", "boundscheck",
                                        "parallel", "nopython", "nogil", "inline", "debug",
                                        "forceobj", "looplift", "no_cpython_wrapper",
                                        "no_cfunc_wrapper", "locals", "_nrt", "target",
                                        "signature", NULL};
static const char *const vec_opts[] = {"target", "identity", "cache", "fastmath", "nopython",
                                       "boundscheck", "error_model", "nogil", "writable_args",
                                       "forceobj", "locals", "inline", "debug", "signature",
                                       NULL};
static const char *const cuda_opts[] = {"device", "fastmath", "debug", "opt", "lineinfo",
                                        "cache", "inline", "max_registers", "link", "signature",
                                        NULL};

/* Fills f from its decorators; false when the def is not for numjit. */
static bool read_decorators(Builder *b, FuncInfo *f)
{
    const NodeList *ds = &f->def->list2;
    const Node *mine = NULL;
    const char *which = NULL;

    f->kind = FK_PLAIN;
    f->target = "cpu";
    f->error_model = EM_PYTHON;
    f->nopython = true;
    if (ds->n == 0)
        return true;
    bool twice = false;
    for (int i = 0; i < ds->n; i++) {
        const Node *d = ds->items[i];
        const char *path = dotted(b, d->kind == ND_CALL ? d->a : d);
        const char *nm = path ? numba_name(path) : NULL;
        if (!nm)
            continue;
        if (mine) {
            diag_error(b->diags, d->loc, "more than one numba decorator on '%s'", f->name);
            twice = true;
            continue;
        }
        mine = d;
        which = nm;
    }
    if (!mine)
        return false; /* a def with other decorators: plain Python */
    /* Numba's register_jitable leaves a plain function that compiled callers compile with
     * them: numjit does that for every plain def, so the def is compiled as one */
    if (!strcmp(which, "extending.register_jitable") ||
        !strcmp(which, "core.extending.register_jitable"))
        return !twice;
    /* generated_jit: the decorated def runs in Python (on the argument types) and returns
     * the function to compile, which numjit.generated compiles on its own; compiled code
     * cannot call it, and a call says so */
    if (!strcmp(which, "generated_jit")) {
        f->taint = arena_printf(b->arena, "'%s' is a @generated_jit function: numjit calls it "
                                          "from Python only, not from compiled code", f->name);
        f->taint_loc = mine->loc;
        return !twice;
    }
    if (ds->n > 1 && !twice)
        diag_error(b->diags, ds->items[0]->loc,
                   "numjit cannot compile '%s': @%s is combined with other decorators", f->name,
                   which);

    const char *const *allowed;
    if (strcmp(which, "njit") == 0 || strcmp(which, "jit") == 0) {
        f->kind = FK_NJIT;
        allowed = njit_opts;
    } else if (strcmp(which, "vectorize") == 0) {
        f->kind = FK_VECTORIZE;
        f->error_model = EM_NUMPY;
        allowed = vec_opts;
    } else if (strcmp(which, "guvectorize") == 0) {
        f->kind = FK_GUVECTORIZE;
        f->error_model = EM_NUMPY;
        allowed = vec_opts;
    } else if (strcmp(which, "cuda.jit") == 0) {
        f->kind = FK_KERNEL;
        f->error_model = EM_NUMPY;
        f->target = "cuda";
        allowed = cuda_opts;
    } else {
        diag_error(b->diags, mine->loc, "'@%s' is not supported by numjit", which);
        return false;
    }
    if (mine->kind != ND_CALL)
        return true;

    const NodeList *args = &mine->list;
    /* @guvectorize("(n),(m)->(m)"): a layout alone, the dynamic gufunc of Numba (loops
     * compiled per input types, the signatures coming from the calls) */
    bool layout_only = f->kind == FK_GUVECTORIZE && args->n == 1 &&
                       args->items[0]->kind == ND_STR && strstr(args->items[0]->str, "->");
    int maxpos = f->kind == FK_GUVECTORIZE ? 2 : 1;
    if (args->n > maxpos)
        diag_error(b->diags, args->items[maxpos]->loc, "too many arguments for @%s", which);
    if (args->n >= 1 && !layout_only)
        add_sigs(b, f, args->items[0]);
    if (f->kind == FK_GUVECTORIZE) {
        const Node *lay = layout_only ? args->items[0] : args->n >= 2 ? args->items[1] : NULL;
        if (!lay) {
            diag_error(b->diags, mine->loc, "@guvectorize needs a layout string such as "
                                            "'(n),(n)->()'");
        } else if (lay->kind != ND_STR) {
            diag_error(b->diags, lay->loc, "the gufunc layout must be a string");
        } else {
            int at = 0;
            const char *err = layout_error(lay->str, &at);
            if (err)
                diag_error(b->diags, lay->loc, "invalid gufunc layout '%s': %s at character %d",
                           lay->str, err, at + 1);
            else
                f->layout = lay->str;
        }
    }
    for (int i = 0; i < mine->list2.n; i++)
        read_option(b, f, mine->list2.items[i], which, allowed);
    if (f->kind == FK_VECTORIZE || f->kind == FK_GUVECTORIZE)
        if (strcmp(f->target, "cuda") == 0)
            f->error_model = EM_NUMPY;
    return true;
}

/* ---- source text ------------------------------------------------------------------------------ */

/* Where line `line` of src starts (src->len past the last line).  The defs of a module come in
 * order, so each search goes on from the last line found: one pass over a library's text for
 * all its defs, where a search from the start for each def made a module importing numpy cost
 * the number of library defs times the libraries' length. */
static size_t line_offset(Builder *b, const Source *src, int line)
{
    size_t i = 0;
    int l = 1 + src->line0;
    if (b->lo_src == src && b->lo_line <= line)
        l = b->lo_line, i = b->lo_off;
    for (; l < line && i < src->len; i++)
        if (src->text[i] == '\n')
            l++;
    if (l == line)
        b->lo_src = src, b->lo_line = l, b->lo_off = i;
    return i;
}

static Loc stmt_start(const Node *s)
{
    if (s->kind == ND_FUNCDEF && s->list2.n > 0)
        return s->list2.items[0]->loc;
    return s->loc;
}

/* From the def's first decorator (its line) up to the next top-level statement or the end,
 * without trailing blank and comment-only lines. */
static const char *def_source(Builder *b, const Node *def, const Node *next)
{
    const Source *src = b->src;
    if (!src || !src->text)
        return NULL;
    Loc s = stmt_start(def);
    size_t start = line_offset(b, src, s.line);
    size_t end = src->len;
    if (next) {
        Loc n = stmt_start(next);
        end = line_offset(b, src, n.line);
    }
    /* drop trailing lines that are blank or comments */
    for (;;) {
        size_t e = end;
        while (e > start && (src->text[e - 1] == '\n' || src->text[e - 1] == '\r'))
            e--;
        size_t ls = e;
        while (ls > start && src->text[ls - 1] != '\n')
            ls--;
        size_t k = ls;
        while (k < e && (src->text[k] == ' ' || src->text[k] == '\t' || src->text[k] == '\f'))
            k++;
        if (ls > start && (k == e || src->text[k] == '#')) {
            end = ls;
            continue;
        }
        end = e;
        break;
    }
    return arena_strndup(b->arena, src->text + start, end - start);
}

/* ---- the pass --------------------------------------------------------------------------------- */

static void add_func(Builder *b, Node *def, const Node *next)
{
    ModuleInfo *m = b->m;
    FuncInfo f;
    memset(&f, 0, sizeof f);
    f.name = def->name;
    f.def = def;
    f.library = b->in_library;
    if (!read_decorators(b, &f))
        return;
    f.source_text = def_source(b, def, next);
    for (int i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].name, f.name) == 0) { /* a later def replaces it */
            m->funcs[i] = f;
            return;
        }
    FuncInfo *funcs = grow(b->arena, m->funcs, m->nfuncs, &b->capf, sizeof(FuncInfo));
    if (!funcs)
        return;
    m->funcs = funcs;
    m->funcs[m->nfuncs++] = f;
}

/* The statements of library lib (stdlib/), once per module: its defs and constants join the
 * module's; its imports bind only names the module has not bound (the module's own meaning of
 * a name wins).  The library's text has its own Source, so its locations name it. */
static void add_library(Builder *b, const char *lib)
{
    unsigned bit = !strcmp(lib, "cuda_random") ? 1u : !strcmp(lib, "cmath") ? 2u
                   : !strcmp(lib, "npfunc")    ? 4u : !strcmp(lib, "str") ? 8u
                   : !strcmp(lib, "random_dists") ? 16u : !strcmp(lib, "lists") ? 64u : 32u;
    if (b->libs & bit)
        return;
    b->libs |= bit;
    /* the library's tree, parsed once per process (library.c); a parse with errors is
     * redone here, so they reach this module's diagnostics */
    const Source *ls = NULL;
    Node *mod = fe_library_module(lib, &ls);
    if (!mod) {
        const char *text = fe_stdlib_text(lib);
        Source *own = arena_alloc(b->arena, sizeof *own);
        if (!text || !own)
            return;
        memset(own, 0, sizeof *own);
        own->name = arena_printf(b->arena, "<numjit>/%s.py", lib);
        own->text = text;
        own->len = strlen(text);
        if (!(mod = fe_parse(b->arena, own, b->diags)))
            return;
        ls = own;
    }
    const Source *saved = b->src;
    b->src = ls;
    b->in_library = true;
    for (int i = 0; i < mod->list.n; i++) {
        Node *s = mod->list.items[i];
        if (s->kind == ND_FROMIMPORT) {
            for (int k = 0; k < s->list.n; k++) {
                const Node *x = s->list.items[k];
                const char *local = x->str ? x->str : x->name;
                if (!fe_resolve_import(b->m, local))
                    bind(b, local, arena_printf(b->arena, "%s.%s", s->name, x->name));
            }
        } else if (s->kind == ND_IMPORT && !fe_resolve_import(b->m, s->str ? s->str : s->name)) {
            bind(b, s->str ? s->str : s->name, s->name);
        } else if (s->kind == ND_ASSIGN) {
            for (int t = 0; t < s->list.n; t++)
                add_const(b, s->list.items[t], s->a);
        } else if (s->kind == ND_FUNCDEF) {
            add_func(b, s, i + 1 < mod->list.n ? mod->list.items[i + 1] : NULL);
        }
    }
    b->in_library = false;
    b->src = saved;
}

ModuleInfo *fe_module_info(Arena *arena, const Source *src, Node *module, DiagList *diags)
{
    Builder b = {arena, src, diags, NULL, 0, 0, 0, 0, false, NULL, 0, 0};
    if (!module)
        return NULL;
    b.m = arena_alloc(arena, sizeof(ModuleInfo));
    if (!b.m || arena_failed(arena))
        return NULL;
    b.m->src = src;
    b.m->ast = module;
    for (int i = 0; i < module->list.n; i++) {
        Node *s = module->list.items[i];
        switch (s->kind) {
        case ND_IMPORT: case ND_FROMIMPORT:
            add_import(&b, s);
            break;
        case ND_ASSIGN:
            for (int t = 0; t < s->list.n; t++)
                add_const(&b, s->list.items[t], s->a);
            break;
        case ND_AUGASSIGN:
            if (s->a->kind == ND_NAME)
                drop_const(b.m, s->a->name);
            break;
        case ND_FUNCDEF:
            drop_const(b.m, s->name);
            add_func(&b, s, i + 1 < module->list.n ? module->list.items[i + 1] : NULL);
            break;
        default:
            break; /* module-level code: the Python runner's business */
        }
        if (arena_failed(arena))
            return NULL;
    }
    /* the methods of strings that build lists and tuples (split, join, ...; typer_strmeth.c)
     * are stdlib/str.py: any function may call them */
    add_library(&b, "str");
    add_library(&b, "lists"); /* list.sort(key=), sorted(key=): lib/list.c */
    if (arena_failed(arena))
        return NULL;
    return b.m;
}

/* ---- deferring "not supported" errors outside compiled code ------------------------------- */
static int max_line(const Node *n, int depth) {
    if (!n || depth > 2000)
        return 0;
    int m = n->loc.line;
    const Node *kids[3] = {n->a, n->b, n->c};
    for (int i = 0; i < 3; i++) {
        int k = max_line(kids[i], depth + 1);
        m = k > m ? k : m;
    }
    const NodeList *lists[3] = {&n->list, &n->list2, &n->params};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < lists[l]->n; i++) {
            int k = max_line(lists[l]->items[i], depth + 1);
            m = k > m ? k : m;
        }
    return m;
}

int fe_defer_unsupported(Arena *arena, ModuleInfo *m, DiagList *d, bool decorated_too) {
    /* the extent of every top-level def, decorators included */
    for (int i = 0; i < m->nfuncs; i++) {
        FuncInfo *f = &m->funcs[i];
        Node *def = f->def;
        f->first_line = def->loc.line;
        for (int k = 0; k < def->list2.n; k++)
            if (def->list2.items[k]->loc.line < f->first_line)
                f->first_line = def->list2.items[k]->loc.line;
        /* to the line before the next top-level statement: a construct the parser skipped
         * (the block under a 'with') leaves no node behind to measure */
        f->last_line = max_line(def, 0);
        Node *mod = m->ast;
        for (int k = 0; mod && k + 1 < mod->list.n; k++)
            if (mod->list.items[k] == def) {
                Node *next = mod->list.items[k + 1];
                int nl = next->loc.line;
                for (int j = 0; next->kind == ND_FUNCDEF && j < next->list2.n; j++)
                    if (next->list2.items[j]->loc.line < nl)
                        nl = next->list2.items[j]->loc.line;
                f->last_line = nl - 1 > f->last_line ? nl - 1 : f->last_line;
            }
        if (mod && mod->list.n && mod->list.items[mod->list.n - 1] == def)
            f->last_line = 1 << 30;
    }
    int keep = 0;
    for (int i = 0; i < d->n; i++) {
        Diag *g = &d->items[i];
        bool unsupported = g->level == DG_ERROR && g->msg &&
                           strstr(g->msg, "not supported by numjit") != NULL;
        FuncInfo *owner = NULL;
        for (int k = 0; (unsupported || decorated_too) && k < m->nfuncs; k++)
            if (g->loc.src == m->funcs[k].def->loc.src && g->loc.line >= m->funcs[k].first_line &&
                g->loc.line <= m->funcs[k].last_line)
                owner = &m->funcs[k];
        /* lazily (a file CPython has parsed): any syntax error inside a def is a construct
         * numjit's parser does not know (a `match` statement); it belongs to that def alone */
        if (decorated_too && owner && g->level == DG_ERROR && g->loc.line > owner->def->loc.line)
            unsupported = true;
        if (!unsupported || (owner && owner->kind != FK_PLAIN && !decorated_too)) {
            d->items[keep++] = *g;
            continue;
        }
        if (owner && !owner->taint) {
            owner->taint = arena_strdup(arena, g->msg);
            owner->taint_loc = g->loc;
        }
        nj_free(g->msg);
        d->nerrors--;
    }
    d->n = keep;
    return d->nerrors;
}
