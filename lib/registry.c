/* registry.c — the list of the library's tables, one hash lookup over all their rows, and
 * the typer's three ways in: a module's attribute, a builtin name and an array method.
 *
 * The hash table (open addressing, FNV-1a of the name) is built once, at the first lookup of
 * the process (pthread_once: contexts may compile on several threads).  A name no row has gets
 * one error naming the module and, when a row of the same module is close (edit distance at
 * most a third of the name, at least 1), "did you mean".  The few names that are no row are
 * handled here too: NumPy's and Numba's scalar types used as functions (np.float32(x): the
 * type table, types.c) and the attributes of cuda.shared/local/atomic/const, which numba-cuda
 * resolves only at the call (lib_cuda_unknown reports them there).
 */
#include "lib.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

const LibTable *const lib_tables[] = {
    &lib_builtins_table, &lib_math_table,   &lib_cmath_table,    &lib_numpy_table,
    &lib_numpy_ufunc_table, &lib_ndarray_table, &lib_ndarray_method_table, &lib_linalg_table,
    &lib_random_table,   &lib_nprandom_table, &lib_numba_table,  &lib_cuda_table,
    &lib_nanfunc_table,
    &lib_list_table,
    &lib_dict_table,
    &lib_str_table,
    &lib_address_table,
    &lib_namedtuple_table,
    NULL,
};

/* ---- the hash table --------------------------------------------------------------------------- */
enum { NSLOTS = 2048 }; /* a power of two, over twice the number of rows */
static const LibEntry *slots[NSLOTS];
static pthread_once_t built = PTHREAD_ONCE_INIT;

static unsigned slot_of(const char *name) {
    return (unsigned)nj_hash_bytes(name, strlen(name), 0) & (NSLOTS - 1);
}

static void build(void) {
    for (int t = 0; lib_tables[t]; t++)
        for (const LibEntry *e = lib_tables[t]->rows; e->name; e++) {
            unsigned s = slot_of(e->name);
            while (slots[s] && strcmp(slots[s]->name, e->name))
                s = (s + 1) & (NSLOTS - 1);
            if (!slots[s]) /* a name listed twice keeps its first row */
                slots[s] = e;
        }
}

const LibEntry *lib_lookup(const char *name) {
    pthread_once(&built, build);
    for (unsigned s = slot_of(name); slots[s]; s = (s + 1) & (NSLOTS - 1))
        if (!strcmp(slots[s]->name, name))
            return slots[s];
    return NULL;
}

/* ---- did you mean ------------------------------------------------------------------------------ */
static int distance(const char *a, const char *b) { /* Levenshtein, names under 64 chars */
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 63 || lb > 63)
        return 99;
    int row[64];
    for (int j = 0; j <= lb; j++)
        row[j] = j;
    for (int i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *lib_suggest(const char *prefix, const char *attr) {
    size_t np = strlen(prefix);
    int limit = (int)strlen(attr) / 3, best = 99;
    if (limit < 1)
        limit = 1;
    const char *found = NULL;
    for (int t = 0; lib_tables[t]; t++)
        for (const LibEntry *e = lib_tables[t]->rows; e->name; e++) {
            const char *rest = e->name + np;
            if (strncmp(e->name, prefix, np) || strchr(rest, '.'))
                continue;
            int d = distance(attr, rest);
            if (d <= limit && d < best)
                best = d, found = e->name;
        }
    return found;
}

/* ---- the typer's ways in ----------------------------------------------------------------------- */
const char *lib_module_name(const char *mod) {
    static const char *const alias[][2] = {
        {"numjit", "numba"},           {"cuda", "numba.cuda"},
        {"cuda.shared", "numba.cuda.shared"}, {"cuda.local", "numba.cuda.local"},
        {"cuda.atomic", "numba.cuda.atomic"}, {"cuda.const", "numba.cuda.const"},
    };
    for (size_t i = 0; i < sizeof alias / sizeof *alias; i++)
        if (!strcmp(mod, alias[i][0]))
            return alias[i][1];
    return mod;
}

static Val denote(Fn *fn, const LibEntry *le, Loc loc) {
    Val v = le->value ? le->value(fn, le, loc) : lib_callable(fn, le, loc);
    if (v.k == V_BUILTIN || v.k == V_MATH)
        v.lib = le;
    return v;
}

Val lib_module_attr(Fn *fn, const char *mod, const char *attr, Loc loc) {
    char full[160];
    const char *pm = lib_module_name(mod);
    snprintf(full, sizeof full, "%s.%s", pm, attr);
    const LibEntry *le = lib_lookup(full);
    if (le)
        return denote(fn, le, loc);
    bool np = !strcmp(mod, "numpy"), nb = !strcmp(pm, "numba");
    if (np || nb) { /* np.float32, numba.int64, ...: a scalar type used as a function */
        const Type *t = ty_from_name(attr);
        if (t && t != ty_void && ty_is_elem(t))
            return (Val){.k = V_TYPE, .t = t};
    }
    if (!strcmp(mod, "cuda.shared") || !strcmp(mod, "cuda.local") || !strcmp(mod, "cuda.atomic") ||
        !strcmp(mod, "cuda.const")) /* numba-cuda's error comes at the call */
        return (Val){.k = V_BUILTIN, .name = arena_printf(fn->tc->arena, "%s.%s", mod, attr),
                     .lib = &lib_cuda_unknown};
    char prefix[160]; /* "numpy." for numpy.trapezoid */
    snprintf(prefix, sizeof prefix, "%.*s", (int)(strlen(full) - strlen(attr)), full);
    const char *near = lib_suggest(prefix, attr);
    char hint[200] = "";
    if (near)
        snprintf(hint, sizeof hint, "; did you mean '%s'?", near);
    if (!strcmp(full, "numpy.fft")) /* no hint: nothing near it exists in Numba either */
        ty_error(fn, loc, "np.fft is not supported: Numba 0.56 has no np.fft functions (call "
                 "NumPy's np.fft outside the compiled function)");
    else if (!strcmp(mod, "random") || !strcmp(mod, "numpy.random"))
        ty_error(fn, loc, "%s.%s is not supported by numjit%s",
                 mod[0] == 'n' ? "np.random" : "random", attr, hint);
    else
        ty_error(fn, loc, "'%s' has no attribute '%s' that numjit supports%s", mod, attr, hint);
    return verr();
}

bool lib_builtin(Fn *fn, const char *name, Loc loc, Val *out) {
    char full[96];
    snprintf(full, sizeof full, "builtins.%s", name);
    const LibEntry *le = lib_lookup(full);
    if (!le)
        return false;
    *out = denote(fn, le, loc);
    return true;
}

const LibEntry *lib_method(const char *name) {
    char full[96];
    snprintf(full, sizeof full, "ndarray.%s", name);
    return lib_lookup(full);
}

/* ---- shared handlers --------------------------------------------------------------------------- */
Val lib_callable(Fn *fn, const LibEntry *le, Loc loc) {
    return (Val){.k = V_BUILTIN, .name = le->spell, .np = (le->flags & LIB_UFUNC) != 0, .lib = le};
}

Val lib_const(Fn *fn, const LibEntry *le, Loc loc) {
    return vval(ty_f64, ty_const_float(fn, ty_f64, le->x, loc));
}

Val lib_module(Fn *fn, const LibEntry *le, Loc loc) {
    return (Val){.k = V_MODULE, .name = le->spell};
}

bool lib_args(Fn *fn, Val callee, Node *call, Val *a, int *n) {
    bool kw = callee.k == V_METHOD || (callee.lib && (callee.lib->flags & LIB_KEYWORDS));
    if (call->list2.n && !kw) {
        ty_error(fn, call->list2.items[0]->loc, "keyword arguments are not supported in this call");
        return false;
    }
    *n = call->list.n;
    if (*n > 16) {
        ty_error(fn, call->loc, "too many arguments");
        return false;
    }
    for (int i = 0; i < *n; i++) {
        a[i] = ty_value(fn, call->list.items[i]);
        if (a[i].k != V_VAL)
            return false;
    }
    return true;
}

bool lib_refuse_on_gpu(Fn *fn, const LibEntry *le, Loc loc) {
    if (!(le->flags & LIB_CPU) || fn->tc->target == TARGET_CPU)
        return false;
    bool method = le->flags & LIB_METHOD; /* a.sort(), as the program writes it */
    ty_error(fn, loc, "%s%s() is not supported in CUDA kernels and device functions%s",
             method ? "a." : "", method ? strrchr(le->name, '.') + 1 : le->spell,
             le->flags & LIB_NEW_ARRAY ? ": it makes a new array, which CUDA code cannot do; use "
                                         "cuda.local.array(shape, dtype) or pass the array in"
                                       : "");
    return true;
}
