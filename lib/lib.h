/* lib.h — the library registry: every name a compiled program can reach through a module, a
 * builtin or an array method (numpy.trapz, ndarray.sort, numpy.linalg.inv, math.pi,
 * random.gauss, numba.cuda.atomic.add, builtins.len, ...) is one row of a family's table.
 *
 * A row (LibEntry) holds the name as Python spells it, its Python signature as Python writes
 * it ("y, x=None, dx=1.0", from NumPy's or CPython's own signature; "" for a value), flags
 * (LIB_CPU: refused in CUDA kernels, LIB_GPU: CUDA kernels only, LIB_CONST, LIB_MODULE,
 * LIB_UFUNC, LIB_METHOD, LIB_KEYWORDS) and two handlers: `value`, what the bare name denotes
 * (a constant, a module, or a callable the typer carries in a Val until it is called), and
 * `call`, which types a call of it and builds its IR.  Each family keeps its table in its own
 * file (lib/builtins.c, lib/math.c, lib/numpy.c, lib/ndarray.c, lib/linalg.c, lib/random.c,
 * lib/cuda.c, lib/numba.c); registry.c lists the tables (as Lua's linit.c lists its libraries)
 * and looks a name up in one hash table built from them at first use.  bind.c binds a call to
 * a row's signature and holds the argument checkers handlers share.
 *
 * The typer reaches the library only through here: an attribute of a module is
 * lib_module_attr, a builtin name is lib_builtin, an array method is lib_method, and a call
 * of anything the registry gave is `val.lib->call(...)`.  The families' typing and IR
 * building is in typer/ (typer_alloc.c, typer_sort.c, ...); a handler here binds the call to
 * it.  To add a library function: one row in its family's table and one handler (see
 * docs/design-notes.md, "The folders, and where a new thing goes").
 */
#ifndef NUMJIT_LIB_H
#define NUMJIT_LIB_H

#include "../typer/typer_internal.h"

enum {
    LIB_CPU = 1 << 0,      /* CPU only: refused in CUDA kernels */
    LIB_GPU = 1 << 1,      /* CUDA kernels and device functions only */
    LIB_CONST = 1 << 2,    /* a value (math.pi), not a function */
    LIB_MODULE = 1 << 3,   /* a module (numpy.linalg) */
    LIB_UFUNC = 1 << 4,    /* element-wise: on arrays an array expression (typer_arrexpr.c) */
    LIB_METHOD = 1 << 5,   /* a method of an array (ndarray.NAME) or of a number */
    LIB_KEYWORDS = 1 << 6, /* keyword arguments go to the handler (else refused) */
    LIB_NEW_ARRAY = 1 << 7, /* creates an array (with LIB_CPU: says so when refused) */
};

typedef struct LibEntry LibEntry;
/* What the bare name denotes; loc: where it is written. */
typedef Val (*LibValue)(Fn *fn, const LibEntry *le, Loc loc);
/* A call of the name; callee: the Val `value` gave (with a bound array for a method). */
typedef Val (*LibCall)(Fn *fn, const LibEntry *le, Node *call, Val callee);

struct LibEntry {
    const char *name;  /* as Python spells it: "numpy.trapz", "ndarray.sort", "math.pi" */
    const char *sig;   /* Python's signature: "y, x=None, dx=1.0"; "" for values and modules */
    unsigned flags;    /* LIB_* */
    LibValue value;    /* NULL: lib_callable (a V_BUILTIN spelled `spell`) */
    LibCall call;      /* NULL: not callable */
    const char *spell; /* the family's own name for it ("np.trapz", "cuda.grid"), or a module's */
    int idx;           /* family data: a math.def index, a first SReg */
    double x;          /* a constant's value */
};

/* A family's table: rows up to one whose name is NULL. */
typedef struct LibTable {
    const char *family;  /* "numpy: element-wise", shown in docs/language.md's matrix */
    const LibEntry *rows;
} LibTable;

/* registry.c: the list of tables and the lookup */
extern const LibTable *const lib_tables[];
const LibEntry *lib_lookup(const char *name);  /* "numpy.trapz"; NULL when unknown */
/* The closest known name of module `prefix` ("numpy.") to name, or NULL: "did you mean". */
const char *lib_suggest(const char *prefix, const char *attr);
/* The Python module a typer module name stands for ("cuda" -> "numba.cuda", "numjit" ->
 * "numba"); the name itself for the others. */
const char *lib_module_name(const char *mod);
/* mod.attr for the typer's module `mod` ("numpy", "cuda.atomic", ...): the Val it denotes,
 * or V_ERR with the error reported (an unknown name, with the closest known one). */
Val lib_module_attr(Fn *fn, const char *mod, const char *attr, Loc loc);
/* A builtin (range, len, print, ...) by its name; false when there is none. */
bool lib_builtin(Fn *fn, const char *name, Loc loc, Val *out);
/* The row of array method a.NAME (ndarray.NAME), or NULL. */
const LibEntry *lib_method(const char *name);

/* registry.c: handlers that families share */
Val lib_callable(Fn *fn, const LibEntry *le, Loc loc); /* V_BUILTIN of le->spell */
Val lib_const(Fn *fn, const LibEntry *le, Loc loc);    /* float64 le->x */
Val lib_module(Fn *fn, const LibEntry *le, Loc loc);   /* V_MODULE le->spell */
/* The positional arguments of call as values (a[16], *n), after refusing keywords unless
 * the callee takes them; false with the error reported. */
bool lib_args(Fn *fn, Val callee, Node *call, Val *a, int *n);
/* The one refusal of a CPU-only name in CUDA code ("np.sort() is not supported in CUDA
 * kernels and device functions"); true when refused.  The typer asks before every call. */
bool lib_refuse_on_gpu(Fn *fn, const LibEntry *le, Loc loc);

/* cuda.c: the attributes of cuda.shared/local/atomic/const that no row has (refused at the
 * call, as numba-cuda does) */
extern const LibEntry lib_cuda_unknown;

/* bind.c: a call's arguments bound to the row's signature (lib_bind: false with the error
 * reported, in CPython's words, at the argument), and the checkers of bound arguments */
enum { LIB_MAX_PARAMS = 12 };
typedef struct LibArgs {
    int n;                         /* parameters */
    int npos;                      /* of them, those a call may pass by position */
    int npos_only;                 /* of them, those it may not pass by keyword (before "/") */
    char name[LIB_MAX_PARAMS][24];
    bool has_default[LIB_MAX_PARAMS];
    bool none_default[LIB_MAX_PARAMS]; /* "=None": passing None leaves it out */
    Node *node[LIB_MAX_PARAMS];    /* the argument bound to each, NULL where left out */
    Loc at[LIB_MAX_PARAMS];        /* where it is written: the value, or its keyword */
} LibArgs;
bool lib_bind(Fn *fn, const LibEntry *le, Node *call, LibArgs *b);
/* The same for any signature text (the REPL engine binds its calls with it): false with the
 * message in err (CPython's words, the function shown as `shown`) and its place in *err_at. */
bool lib_bind_sig(const char *sig, const char *shown, Node *call, LibArgs *b, Loc *err_at,
                  char *err, size_t errsize);
/* Parameter k, which numjit does not take, is left out; else an error at the argument. */
bool lib_arg_unsupported(Fn *fn, const LibEntry *le, const LibArgs *b, int k);
/* Parameter k as an array (1-d or more) of one of the dtype kinds; else the one wording
 * "np.ptp() argument 'a' must be an array of integers or floats, not bool[::1]" at it. */
enum { LIB_ARR_BOOL = 1, LIB_ARR_INT = 2, LIB_ARR_FLOAT = 4, LIB_ARR_COMPLEX = 8 };
Val lib_arg_array(Fn *fn, const LibEntry *le, const LibArgs *b, int k, unsigned kinds);
/* The same check of a value a (a method's array: param "self"), the error at loc. */
bool lib_array_of(Fn *fn, const LibEntry *le, const char *param, Val a, unsigned kinds, Loc loc);

/* objmode.c: the call a numba.objmode block becomes (numjit.objmode cuts the block out) */
Val lib_objmode_call(Fn *fn, const LibEntry *le, Node *call, Val callee);
/* instance.c: numba._nj_new_instance(DT), a jitclass instance made in compiled code */
Val lib_new_instance_call(Fn *fn, const LibEntry *le, Node *call, Val callee);
/* builtins.c: range() (numba.prange is range, marked: typer_parfor.c) */
Val lib_range_call(Fn *fn, const LibEntry *le, Node *call, Val callee);
/* builtins.c: abs() and min()/max(), which np.abs, np.minimum and np.maximum of numbers are */
Val lib_abs_call(Fn *fn, const LibEntry *le, Node *call, Val callee);
Val lib_minmax_call(Fn *fn, const LibEntry *le, Node *call, Val callee);
/* math.c: what math.NAME and np.NAME of math.def's entry le->idx denote (V_MATH), and the
 * function k applied to numbers (np: NumPy's rules) */
Val lib_math_value(Fn *fn, const LibEntry *le, Loc loc);
Val lib_math_apply(Fn *fn, int k, bool np, Val *a, int n, Loc loc);

/* the families' tables */
extern const LibTable lib_builtins_table, lib_math_table, lib_cmath_table, lib_numpy_table,
    lib_numpy_ufunc_table, lib_ndarray_table, lib_ndarray_method_table, lib_linalg_table,
    lib_random_table, lib_nprandom_table, lib_numba_table, lib_cuda_table, lib_list_table,
    lib_str_table;
extern const LibTable lib_nanfunc_table; /* nanfunc.c */
extern const LibTable lib_address_table; /* address.c */
extern const LibTable lib_namedtuple_table; /* namedtuple.c */
extern const LibTable lib_dict_table;    /* dict.c */

#endif
