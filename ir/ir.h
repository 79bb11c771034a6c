/* ir.h — the face of ir/: types, the typed IR, and the typer that builds it.
 *
 *   ModuleInfo + function name + concrete argument types + target
 *     ─ typer.c (Numba's typing rules, SEMANTICS.md) ─▶ IrProgram: the entry specialization and
 *       every function it calls, each an IrFunc of basic blocks of typed instructions
 *     ─ ir_verify after every pass ─ ir_print / ir_parse round-trip (golden tests, --dump).
 *
 * Types are interned for the life of the process (one mutex guards the table), so two types are
 * equal exactly when their pointers are.  An IrProgram lives in one Arena.
 */
#ifndef NUMJIT_IR_H
#define NUMJIT_IR_H

#include "../frontend/frontend.h"

/* ---- types.c -------------------------------------------------------------------------------- */
typedef enum {
    TY_VOID,
    TY_BOOL,
    TY_I8, TY_I16, TY_I32, TY_I64,
    TY_U8, TY_U16, TY_U32, TY_U64,
    TY_F32, TY_F64,
    TY_C64, TY_C128, /* complex: two float32 / two float64 (real, imag) */
    TY_ARRAY, /* dtype, ndim, layout */
    TY_TUPLE, /* elems */
    TY_RANGE, /* the value of range(...): only as a for-loop iterable */
    TY_LIST,  /* dtype = item type (NULL: the empty list's, not known yet), reflected */
    TY_STR,   /* Numba's unicode_type: UTF-8 text, its byte and character counts (str.def) */
    TY_RECORD, /* a structured dtype's element (Numba's Record): fields at byte offsets (record.c) */
    TY_DICT,  /* key, dtype = value type (both NULL: `{}` before its first item is known) */
    TY_SET,   /* dtype = item type, a number (NULL: `set()` before its first add) */
} TypeKind;

typedef enum { LAYOUT_C = 'C', LAYOUT_F = 'F', LAYOUT_A = 'A' } ArrayLayout;
enum { TY_MAX_NDIM = 8 }; /* the most dimensions an array type has (NJ_MAX_NDIM) */
typedef enum { AS_GENERIC = 0, AS_GLOBAL = 1, AS_SHARED = 3, AS_LOCAL = 5 } AddrSpace;

/* None and Optional are tuples to the IR and to codegen (docs/design-notes.md): the value None
 * (Numba's `none`) is the empty tuple with role TR_NONE; Optional(T) is the pair (valid: bool,
 * value: T) with role TR_OPTIONAL, its value field zero (a null array) when it holds None.
 * A function of the program used as a value (Numba's Dispatcher type) is the empty tuple with
 * role TR_FUNC naming the function (`func`): the type says which function, the value is
 * nothing, so each function passed is a specialization of its own, as in Numba. */
typedef enum { TR_TUPLE = 0, TR_NONE, TR_OPTIONAL, TR_FUNC } TupleRole;

typedef struct Type Type;
struct Type {
    TypeKind kind;
    const Type *dtype;     /* TY_ARRAY: element type (a scalar) */
    int ndim;              /* TY_ARRAY */
    ArrayLayout layout;    /* TY_ARRAY */
    AddrSpace addrspace;   /* TY_ARRAY: where the data lives (GPU); AS_GENERIC on the CPU */
    bool readonly;         /* TY_ARRAY */
    bool reflected;        /* TY_LIST: a list from Python, written back to it (Numba's) */
    const Type *key;       /* TY_DICT: the key type (dtype is the value type) */
    int nelems;            /* TY_TUPLE */
    const Type **elems;    /* TY_TUPLE */
    TupleRole role;        /* TY_TUPLE: a tuple, or Numba's none / Optional built as one */
    const char *func;      /* TY_TUPLE, role TR_FUNC: the name of the function it denotes;
                              role TR_TUPLE: NULL, or a named tuple's "cls:field,field" */
    const char *name;      /* Numba's spelling: "float64", "float32[:, ::1]", "UniTuple(int64, 2)",
                              "list(int64)", "reflected list(float64)" */
    const char **fnames;   /* TY_RECORD, a named TY_TUPLE: the field names; elems their types */
    const int *foffsets;   /* TY_RECORD: each field's byte offset */
    int rsize;             /* TY_RECORD: the itemsize in bytes */
    bool aligned;          /* TY_RECORD: NumPy's isalignedstruct */
};

/* Scalars are statics; arrays, tuples, lists and records are interned (ty_intern: the one type
 * equal to *proto, made once; for internal use by the constructors). */
const Type *ty_intern(const Type *proto);
const Type *ty_scalar(TypeKind k);
const Type *ty_array(const Type *dtype, int ndim, ArrayLayout layout);
const Type *ty_array_ex(const Type *dtype, int ndim, ArrayLayout layout, AddrSpace as,
                        bool readonly);
const Type *ty_tuple(const Type **elems, int n);
/* A named tuple (Numba's NamedTuple/NamedUniTuple, "results(float64, int64)"): a tuple of
 * elems whose class cls names the fields; `func` keeps "cls:field,field" (the class's key:
 * one class, one type per element types) and `fnames` the field names.  ty_tuple_field: the
 * number of a field of a named tuple, or -1. */
const Type *ty_named_tuple(const char *cls, const char *const *fields, const Type **elems,
                           int n);
int ty_tuple_field(const Type *t, const char *name);
const Type *ty_none(void);                  /* the type of None ("none") */
const Type *ty_optional(const Type *t);     /* OptionalType(t); t itself if none/optional */
bool ty_is_none(const Type *t);
/* The type of the program's function `name` used as a value ("type(CPUDispatcher(<function
 * name>))", Numba's spelling less the address); ty_is_func tells it. */
const Type *ty_func(const char *name);
bool ty_is_func(const Type *t);
bool ty_is_optional(const Type *t);
const Type *ty_optional_value(const Type *t); /* OptionalType(T) -> T */
/* A list of items of type item (a number, a complex, a tuple of those or an array of host memory;
 * NULL: the empty list `[]` whose items are not known yet, "list(undefined)").  NULL for an item
 * type no list may hold.  Lists are counted (ty_has_refs); codegen/list.c has their storage. */
const Type *ty_list(const Type *item, bool reflected);
bool ty_list_item_ok(const Type *item);
/* A record type (record.c): n fields of scalar or complex types at byte offsets inside an item
 * of size bytes; NULL if a field does not fit.  Arrays of records are TY_ARRAY of it.  A value
 * of type TY_RECORD is the address of one item (Numba's Record: a reference into its array). */
const Type *ty_record(const char *const *names, const Type *const *types, const int *offsets,
                      int n, int size, bool aligned);
int ty_record_field(const Type *rec, const char *name); /* the field number or -1 */
/* Whether rec is a jitclass instance's record (its last field, a byte, is named
 * _nj_CLASS_SERIAL: python/numjit/jitclass.py).  Such a record lives in a counted block, the
 * CgMemInfo header CG_MEMINFO_SIZE bytes before the record (codegen/refs.c), so its values are
 * counted (ty_has_refs) as Numba counts a jitclass instance's meminfo. */
bool ty_is_instance(const Type *rec);
const Type *ty_parse_record(const char **sp, const char **err); /* at "Record(" */
/* A typed dict (Numba's DictType) of keys key and values val: keys are numbers, strings or tuples
 * of those; values numbers, strings, arrays, dicts and tuples of those (not lists: Numba
 * forbids its reflected lists as values).  Both NULL: `{}` and `dict()` before
 * a first item gives the types ("DictType[undefined,undefined]").  NULL for a key or value type
 * no dict may hold.  Dicts are counted (ty_has_refs); runtime/dict.c has their storage. */
const Type *ty_dict(const Type *key, const Type *val);
bool ty_dict_key_ok(const Type *key);
bool ty_dict_value_ok(const Type *val);
/* A set of numbers (Numba's Set, "set(int64)"); item NULL: `set()` before a first add.  NULL
 * for an item that is not a number or bool.  Counted; runtime/set.c has the table. */
const Type *ty_set(const Type *item);
extern const Type *const ty_void, *const ty_bool, *const ty_i8, *const ty_i16, *const ty_i32,
    *const ty_i64, *const ty_u8, *const ty_u16, *const ty_u32, *const ty_u64, *const ty_f32,
    *const ty_f64, *const ty_c64, *const ty_c128, *const ty_range, *const ty_str;

bool ty_is_int(const Type *t);      /* signed or unsigned integer (not bool) */
bool ty_is_signed(const Type *t);   /* signed integer */
bool ty_is_float(const Type *t);
bool ty_is_scalar(const Type *t);   /* bool, int or float */
bool ty_is_number(const Type *t);   /* int or float */
bool ty_is_complex(const Type *t);  /* complex64 or complex128 (neither scalar nor number) */
bool ty_is_elem(const Type *t);     /* what an array holds: a scalar or a complex */
const Type *ty_complex_part(const Type *t); /* complex64 -> float32, complex128 -> float64 */
const Type *ty_complex_of(const Type *t);   /* float32 -> complex64, other numbers -> complex128 */
/* A type whose values hold references to counted memory on the CPU: an array (of host memory),
 * a list, a jitclass instance, or a tuple holding one (ops.def, IR_ALLOC). */
bool ty_has_refs(const Type *t);
int ty_bits(const Type *t);         /* scalar width in bits (bool: 8 in memory, 1 in registers) */
int ty_size(const Type *t);         /* bytes of a scalar as stored in an array */

/* Numba's rules (SEMANTICS.md).  NULL when there is no such type. */
const Type *ty_unify(const Type *a, const Type *b);         /* branch/loop merging */
const Type *ty_arith(const Type *a, const Type *b);         /* result of + - * on scalars */
const Type *ty_int_widen(const Type *t);                    /* int32 -> int64, uint8 -> uint64 */
bool ty_can_cast_safe(const Type *from, const Type *to);    /* NumPy 'safe' casting */

/* Type names as users write them: "float64", "f8", "int32", "float32[:]", "float64[:, :]",
 * "float32[::1]" (C), "float64[:, ::1]", "float64[::1, :]" (F), "void", "boolean". */
const Type *ty_from_name(const char *name);
/* A signature string "float64(float32[:], int64)" or "(float64[:], float64)" or
 * "void(float32[:])".  Returns the number of arguments or -1 with a message in *err (static). */
int ty_parse_sig(const char *s, const Type **ret, const Type **args, int maxargs,
                 const char **err);

/* ---- the typed IR ------------------------------------------------------------------------- */
typedef enum {
#define X(e, s, n, legend) e,
#include "ops.def"
#undef X
    IR__COUNT
} IrOp;
extern const char *const ir_op_name[IR__COUNT];
extern const int ir_op_nargs[IR__COUNT];

typedef enum { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE } CmpPred;
extern const char *const ir_cmp_name[6]; /* "eq", "ne", ... */

typedef enum {
    SREG_TID_X, SREG_TID_Y, SREG_TID_Z,
    SREG_CTAID_X, SREG_CTAID_Y, SREG_CTAID_Z,
    SREG_NTID_X, SREG_NTID_Y, SREG_NTID_Z,
    SREG_NCTAID_X, SREG_NCTAID_Y, SREG_NCTAID_Z,
    SREG_LANEID, SREG_WARPSIZE,
} SReg;
extern const char *const ir_sreg_name[]; /* "tid.x", ... */

typedef enum {
    ATOM_ADD, ATOM_SUB, ATOM_MAX, ATOM_MIN, ATOM_EXCH, ATOM_CAS,
    ATOM_AND, ATOM_OR, ATOM_XOR, ATOM_INC, ATOM_DEC, ATOM_NANMAX, ATOM_NANMIN,
    ATOM__COUNT
} AtomicKind;
extern const char *const ir_atomic_name[ATOM__COUNT]; /* "add", ..., "and", "or", ... */

/* The numba-cuda intrinsics of the IR op `cuda` (ir/cuda.def has the table and the kinds). */
typedef enum {
#define X(e, name, nargs, kind, pure) e,
#include "cuda.def"
#undef X
    CU__COUNT
} CudaFn;
typedef enum {
    CK_SHFL, CK_VOTE, CK_BALLOT, CK_MATCH_ANY, CK_MATCH_ALL, CK_SYNCWARP, CK_LANEMASK,
    CK_BARPRED, CK_FENCE, CK_BITS, CK_FFS, CK_FLOAT
} CudaKind;
typedef struct CudaInfo {
    const char *name;
    int nargs;
    CudaKind kind;
    bool pure;
} CudaInfo;
extern const CudaInfo ir_cuda[CU__COUNT];
int ir_cuda_lookup(const char *name); /* -1 if unknown */

/* The random-number functions of the IR op `random` (ir/random.def; runtime/random.c). */
typedef enum {
#define X(e, name, nargs, arg, ret, pure) e,
#include "random.def"
#undef X
    RND__COUNT
} RandomFn;
typedef struct RandomInfo {
    const char *name;   /* "np_random": the IR's spelling */
    const char *symbol; /* "numjit_rnd_np_random": the runtime's C function */
    int nargs;
    TypeKind arg, ret;  /* every operand has kind arg; ret may be TY_VOID */
    bool pure;
} RandomInfo;
extern const RandomInfo ir_random[RND__COUNT];
int ir_random_lookup(const char *name); /* -1 if unknown */

/* The runtime's C functions of the IR op `rtcall`: sorting and selection (ir/rtcall.def,
 * runtime/sort.c, symbols numjit_rt_NAME), then linear algebra (ir/linalg.def,
 * runtime/linalg.c, symbols numjit_la_NAME), then strings (ir/str.def, runtime/str.c,
 * symbols numjit_str_NAME). */
typedef enum {
#define X(e, name, args, ret) e,
#include "rtcall.def"
#include "linalg.def"
#include "str.def"
#undef X
    RT__COUNT
} RtFn;
enum { /* how many of them are sort.c's: the first RT_SORT__COUNT */
    RT_SORT__COUNT = 0
#define X(e, name, args, ret) +1
#include "rtcall.def"
#undef X
};
enum { /* linalg.def's follow, up to RT_LINALG__END; then str.def's, up to RT__COUNT */
    RT_LINALG__END = RT_SORT__COUNT
#define X(e, name, args, ret) +1
#include "linalg.def"
#undef X
};
typedef struct RtInfo {
    const char *name;   /* "sort": the IR's spelling */
    const char *symbol; /* "numjit_rt_sort", "numjit_la_gemm_f64": the runtime's C function */
    const char *args;   /* one letter per operand: i int64, d float64, s unicode_type */
    TypeKind ret;       /* may be TY_VOID */
} RtInfo;
extern const RtInfo ir_rtcall[RT__COUNT];
int ir_rtcall_lookup(const char *name); /* -1 if unknown */
const Type *ir_rtcall_arg(const RtInfo *r, int k); /* the type of operand k */

typedef enum {
#define X(e, name, arity, kind, intr, f64, f32, nv64, nv32) e,
#include "../stdlib/math.def"
#undef X
    MATH__COUNT
} MathFn;
typedef enum { MK_FLOAT, MK_ROUND, MK_PRED } MathKind;
typedef struct MathInfo {
    const char *name;
    int arity;
    MathKind kind;
    const char *intrinsic, *libm64, *libm32, *nv64, *nv32;
} MathInfo;
extern const MathInfo ir_math[MATH__COUNT];
int ir_math_lookup(const char *name); /* -1 if unknown */

typedef struct IrFunc IrFunc;
typedef struct IrBlock IrBlock;
typedef struct IrInst IrInst;

/* How a parallel loop (IR_PARFOR) combines a reduction's partial values: `v += x` and `v -= x`
 * add, `v *= x` multiplies, `v = min(v, x)` / `max` keep the smaller / larger (Python's
 * comparison: the earlier value among equals and NaN-unordered pairs). */
typedef enum { REDUCE_ADD, REDUCE_MUL, REDUCE_MIN, REDUCE_MAX, REDUCE__COUNT } ReduceOp;
extern const char *const ir_reduce_name[REDUCE__COUNT]; /* "add", "mul", "min", "max" */
enum { IR_PARFOR_MAXRED = 16 };                      /* reductions of one parallel loop */

struct IrInst {
    IrOp op;
    const Type *type; /* result type; ty_void when none */
    int id;           /* SSA number, unique in the function (printed %id); -1 when void */
    int nargs;
    IrInst **args;
    union {
        int64_t i;
        double f;
        int index;    /* param, var, dimension, element, builtin, sreg, atomic kind, raise site */
        CmpPred pred;
        IrFunc *callee;
        const char *str; /* IR_PRINT */
        int targets[2]; /* block numbers */
        int64_t dims[3]; /* shared/local array shape */
        struct {         /* IR_PARFOR */
            IrFunc *body;
            int nred;
            uint8_t ops[IR_PARFOR_MAXRED]; /* ReduceOp */
        } par;
    } imm;
    Loc loc;
    IrInst *next;
};

struct IrBlock {
    int id; /* index in IrFunc.blocks */
    IrInst *first, *last;
    IrBlock *handler; /* NULL, or where a raise in this block goes (an IR_RAISE, a failed check,
                         a call that raised): the except of a `try` around it.  Printed as
                         "b3 catch b7:" */
};

typedef struct IrVar {
    const char *name;
    const Type *type;
} IrVar;

typedef enum {
    IRF_NJIT,     /* a plain compiled function (CPU), or a helper called by one */
    IRF_SCALAR,   /* the scalar core of a ufunc (@vectorize): wrapped by the target */
    IRF_GUFUNC,   /* the core of a gufunc: arrays of core dims, returns void */
    IRF_KERNEL,   /* a CUDA grid kernel: returns void */
    IRF_DEVICE,   /* a CUDA device function */
} IrFuncKind;

struct IrFunc {
    const char *name;     /* the Python name */
    const char *mangled;  /* unique symbol: name + encoded argument types */
    IrFuncKind kind;
    ErrorModel error_model;
    bool fastmath, boundscheck;
    unsigned fastmath_flags; /* with fastmath: FM_* bits (frontend.h), 0 = all of them */
    const Type *ret;      /* ty_void for kernels and gufuncs */
    int nparams;
    const Type **params;
    const char **param_names;
    IrVar *vars;
    int nvars;
    IrBlock **blocks;     /* blocks[0] is the entry */
    int nblocks;
    int next_id;          /* next SSA number */
    Loc loc;              /* the def */
    Arena *arena;         /* the program's arena (set by ir_func_new) */
    const Type *yield;    /* a generator compiled as a coroutine (codegen/genobj.c): the type of
                             the values it yields (IR_YIELD); its `ret`s carry no value and a
                             call of it returns the generator object, ret: UniTuple(int64, 4).
                             NULL for every other function.  Printed "yields T". */
};

/* The exception class of a raise site.  The first five are what compiled code raises by itself;
 * the rest come from the program's `raise` and `assert` statements (the built-in exception
 * classes Numba 0.56 raises from nopython code).  ir_raise_kind_name spells each. */
typedef enum {
    RAISE_ZERO_DIVISION = 1, RAISE_INDEX = 2, RAISE_VALUE = 3, RAISE_MEMORY = 4,
    RAISE_LINALG = 5, /* numpy.linalg.LinAlgError (np.linalg.inv of a singular matrix ...) */
    RAISE_ASSERTION, RAISE_TYPE, RAISE_KEY, RAISE_RUNTIME, RAISE_NOT_IMPLEMENTED,
    RAISE_OVERFLOW, RAISE_ARITHMETIC, RAISE_LOOKUP, RAISE_EXCEPTION, RAISE_STOP_ITERATION,
    RAISE_FLOATING_POINT, RAISE_ATTRIBUTE, RAISE_NAME, RAISE_UNICODE,
    RAISE__COUNT
} RaiseKind;
typedef struct RaiseSite {
    RaiseKind kind;
    const char *msg;      /* "division by zero", "index out of bounds" */
    Loc loc;
    bool user;            /* a `raise`/`assert` of the program: msg is str() of the exception,
                             shown as it is (Numba's frozen arguments), not as a diagnostic */
} RaiseSite;

typedef enum { TARGET_CPU, TARGET_NVPTX } Target;

/* One compilation unit: the entry (funcs[0]) and every function it calls. */
typedef struct IrProgram {
    Arena *arena;
    Target target;
    IrFunc **funcs;
    int nfuncs;
    RaiseSite *raises;    /* raises[k-1] is site k */
    int nraises;
} IrProgram;

/* ---- ir.c: building ------------------------------------------------------------------------ */
IrProgram *ir_program_new(Arena *arena, Target target);
IrFunc *ir_func_new(IrProgram *p, const char *name, IrFuncKind kind, int nparams);
IrBlock *ir_block_new(IrFunc *f);
int ir_var_new(IrFunc *f, const char *name, const Type *type);
/* Appends an instruction to block b (its result id is assigned when type != void). */
IrInst *ir_emit(IrFunc *f, IrBlock *b, IrOp op, const Type *type, Loc loc, int nargs,
                IrInst **args);
int ir_raise_site(IrProgram *p, RaiseKind kind, const char *msg, Loc loc);
/* A raise site of the program's own `raise`/`assert` (RaiseSite.user). */
int ir_user_raise_site(IrProgram *p, RaiseKind kind, const char *msg, Loc loc);
/* The kind spelled name ("KeyError"), or 0 for a name that is not one. */
RaiseKind ir_raise_kind_of(const char *name);
bool ir_block_terminated(const IrBlock *b);
const char *ir_mangle(Arena *a, const char *name, const Type **params, int n);

/* ---- ir_print.c / ir_parse.c / ir_verify.c ------------------------------------------------
 * Text form (one function):
 *
 *   func @add_f8(x: float64, y: float64) -> float64 njit python {
 *     var s: float64
 *   b0:
 *     %0 = param 0 : float64                       ; f.py:3:5
 *     store s, %0
 *     %1 = load s : float64
 *     ret %1
 *   }
 *
 * ir_parse reads what ir_print writes (locations as "; file:line:col" comments are kept). */
void ir_print_func(const IrFunc *f, StrBuf *out);
void ir_print_program(const IrProgram *p, StrBuf *out);
/* A type in the text form (Type.name's spelling, plus "local "/"global " and "void"). */
void ir_print_type(const Type *t, StrBuf *out);
extern const char *const ir_func_kind_name[5];  /* "njit", "scalar", "gufunc", "kernel", "device" */
extern const char *const ir_raise_kind_name[RAISE__COUNT]; /* [RAISE_ZERO_DIVISION] = "ZeroDivisionError" */
IrProgram *ir_parse(Arena *arena, const Source *src, DiagList *diags);
/* Checks the invariants (terminators, operand types, SSA numbering, block targets); reports
 * each violation to diags.  Returns true when clean. */
bool ir_verify(const IrProgram *p, DiagList *diags);

/* ---- typer.c ------------------------------------------------------------------------------- */
typedef struct TyRequest {
    const ModuleInfo *module;
    const char *func;        /* the function to specialize */
    const Type **args;       /* concrete argument types */
    int nargs;
    Target target;
    IrFuncKind kind;         /* IRF_NJIT, IRF_SCALAR (ufunc core), IRF_GUFUNC, IRF_KERNEL */
    const Type *ret;         /* declared return type (ufunc signature) or NULL to infer */
} TyRequest;

/* Types the function and everything it calls into a new IrProgram in arena.  NULL on error
 * (type errors, with locations, in diags). */
IrProgram *ty_specialize(Arena *arena, const TyRequest *req, DiagList *diags);
/* typer_ext.c: names a host program types (Numba's @overload; include/numjit.h has the
 * protocol, runtime/extension.c installs the hook from nj_set_extension_hook): kind is
 * NJ_EXT_FUNC, _METHOD or _ATTR, argtypes the argument types as Numba spells them (nargs < 0:
 * only whether the name is the hook's), and an implementation is the module table holding
 * the def to compile. */
typedef int (*TyExtHook)(void *arg, int kind, const char *file, const char *name,
                         const char *attr, int nargs, const char *const *argtypes,
                         const ModuleInfo **impl_module, char **impl_func, char **message);
void ty_set_ext_hook(TyExtHook hook, void *arg);

/* ---- passes (pass_*.c) and the pipeline --------------------------------------------------- */
/* Runs the IR passes in order, verifying after each when verify is set. */
bool ir_run_passes(IrProgram *p, bool verify, DiagList *diags);
/* pass_fold.c: constant folding and removal of unused pure values; returns the number of
 * changes. */
int ir_pass_fold(IrProgram *p);

#endif
