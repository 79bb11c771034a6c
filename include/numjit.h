/* numjit.h — the public C API of numjit, a just-in-time compiler for numeric Python functions.
 *
 *   NjContext *ctx;  nj_context_new(&ctx);
 *   NjModule *m;     nj_compile_source(ctx, "k.py", src, &m);      // parse + module table
 *   NjFunction *f;   nj_module_function(m, "rel_diff", &f);         // a dispatcher
 *   NjValue args[2] = { nj_f64(1.0), nj_array(...) }, res;
 *   nj_call(f, args, 2, &res);              // specializes on first call, cached afterwards
 *
 * Every call returns an NjStatus; on failure nj_error_message(ctx) gives the rendered
 * diagnostics ("file:line:col: error: ..." with the source line and a caret) of the calling
 * thread's last failure.  The library never prints and never exits.  All functions are safe to
 * call from several threads at once on the same context.
 */
#ifndef NUMJIT_H
#define NUMJIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NJ_VERSION_MAJOR 0
#define NJ_VERSION_MINOR 1
#define NJ_VERSION_PATCH 0
#define NJ_VERSION_STRING "0.1.0"
#define NJ_MAX_NDIM 8

#if defined(__GNUC__)
#define NJ_API __attribute__((visibility("default")))
#else
#define NJ_API
#endif

typedef enum NjStatus {
    NJ_OK = 0,
    NJ_ERR_SYNTAX,      /* the source does not parse, or uses Python outside the subset */
    NJ_ERR_TYPE,        /* typing failed for the argument types */
    NJ_ERR_NAME,        /* no such function in the module */
    NJ_ERR_ARGS,        /* wrong number or kind of arguments */
    NJ_ERR_RUNTIME,     /* the compiled code raised (ZeroDivisionError, IndexError, ...) */
    NJ_ERR_COMPILE,     /* LLVM failed (an internal error: please report it) */
    NJ_ERR_NOMEM,
    NJ_ERR_IO,          /* a file could not be read or written */
    NJ_ERR_UNSUPPORTED, /* the feature is not available here (e.g. no GPU driver) */
    NJ_ERR_CUDA,        /* a CUDA driver call failed */
    NJ_ERR_INTERNAL,
} NjStatus;

typedef enum NjDType {
    NJ_BOOL = 0,
    NJ_INT8, NJ_INT16, NJ_INT32, NJ_INT64,
    NJ_UINT8, NJ_UINT16, NJ_UINT32, NJ_UINT64,
    NJ_FLOAT32, NJ_FLOAT64,
    NJ_COMPLEX64, NJ_COMPLEX128, /* {real, imag} pairs of float32 / float64, NumPy's layout */
    NJ_DTYPE_COUNT
} NjDType;

/* A strided view of memory, NumPy's way: strides in bytes, any sign, zero allowed.  owner is
 * NULL for memory the caller manages (every argument); an array a compiled function created and
 * returned carries a reference to its memory there, which the receiver gives back with
 * nj_array_release (docs/c-api.md, "Arrays that compiled code returns"). */
typedef struct NjArray {
    void *data;
    int32_t ndim;
    NjDType dtype;
    int64_t shape[NJ_MAX_NDIM];
    int64_t strides[NJ_MAX_NDIM];
    void *owner;
} NjArray;

/* A list of numbers as compiled code holds it: what args[k] of an entry (NjEntry) points at
 * for a parameter of type "reflected list(int64)" (Numba's list from Python; the function may
 * append, remove and change items, and the caller writes the changes back to its own list).
 * The caller makes it: refcount 1, nbytes 24, dtor a function that frees `items`, `items`
 * malloc'd with room for `capacity` items of the list's dtype (bool one byte each), `size` of
 * them set.  After the call it reads the items back and releases it: the last release calls
 * `dtor` (compiled code may have replaced it with its own), then free() on the NjList.  A list
 * of strings ("reflected list(unicode_type)") holds NjStr items: the caller's own text has
 * owner NULL, and its dtor gives back (nj_str_release) the strings compiled code stored. */
typedef struct NjList {
    int64_t refcount; /* atomic */
    int64_t nbytes;
    void (*dtor)(struct NjList *l);
    int64_t size, capacity;
    void *items;
} NjList;
/* A string (Numba's unicode_type): UTF-8 text of nbytes bytes (NUL-terminated when compiled code
 * made it), nchars code points.  owner is NULL for text the caller manages (arguments, literals);
 * a string compiled code made and returned holds a reference there, given back with
 * nj_str_release. */
typedef struct NjStr {
    const char *data;
    int64_t nbytes;
    int64_t nchars;
    void *owner;
} NjStr;

typedef enum NjKind {
    NJ_KIND_NONE = 0, NJ_KIND_SCALAR, NJ_KIND_ARRAY, NJ_KIND_TUPLE,
    NJ_KIND_DEVICE_ARRAY, /* an NjArray whose data is a CUDA device pointer (v.a) */
    /* An argument of nj_call: an NjArray (v.a) the function must not write, typed as Numba's
     * "readonly array(float64, 1d, C)" (a writing function is NJ_ERR_TYPE with the location);
     * signature strings spell it "readonly array(float64, 1d, C)" or "readonly float64[::1]". */
    NJ_KIND_READONLY_ARRAY,
    /* A result that is None or a value (Numba's Optional): laid out as a tuple (result_count
     * 2) of a bool, true when it holds the value, and the value (result_kinds[1]). */
    NJ_KIND_OPTIONAL,
    /* A result of nj_function_entry_info: a list of numbers, which the entry writes as an
     * NjArray of its items (1-d, the list's own memory) whose owner is the list: the caller
     * copies the items out and releases it (nj_array_release), as the Python package does.
     * A list of strings has dtype NJ_DTYPE_COUNT: its items are NjStr (stride sizeof(NjStr)),
     * held by the list, which releases them with itself. */
    NJ_KIND_LIST,
    /* A string (Numba's unicode_type): an argument's v.s points at an NjStr the caller keeps
     * alive during the call; a result is written as an NjStr (its owner released with
     * nj_str_release). */
    NJ_KIND_STR,
    /* A set of numbers (results only; Numba's reflected set, which Python receives as a set):
     * an NjArray of its items in the set's iteration order, owning a list of them (as
     * NJ_KIND_LIST, released with nj_array_release); owner NULL when memory ran out. */
    NJ_KIND_SET,
    /* A typed dict (Numba's DictType; results only, not in tuples): the entry writes the
     * dict's address (an NjDict *), a reference the caller gives back with nj_dict_release.
     * NjEntryInfo's result_count is 2 and result_dtypes[0] and [1] are the key's and the
     * value's item codes (NjDictItem). */
    NJ_KIND_DICT,
} NjKind;

/* An argument or result.  Scalars: b for NJ_BOOL, i for signed, u for unsigned, f for
 * floats (float32 values are stored as double here), c for complex numbers (c[0] the real
 * part, c[1] the imaginary part; complex64 parts stored as double). */
typedef struct NjValue {
    NjKind kind;
    NjDType dtype;
    union {
        bool b;
        int64_t i;
        uint64_t u;
        double f;
        double c[2];
        NjArray *a; /* NJ_KIND_ARRAY, NJ_KIND_DEVICE_ARRAY: borrowed, must outlive the call */
        NjStr *s;   /* NJ_KIND_STR: borrowed, as an array */
    } v;
} NjValue;

typedef struct NjContext NjContext;
typedef struct NjModule NjModule;     /* owned by its context */
typedef struct NjFunction NjFunction; /* owned by its module */

NJ_API const char *nj_version(void);  /* "0.1.0 (LLVM 19.1.7)" */
NJ_API const char *nj_status_name(NjStatus s);
NJ_API const char *nj_dtype_name(NjDType t);
NJ_API int nj_dtype_size(NjDType t);

NJ_API NjStatus nj_context_new(NjContext **out);
NJ_API void nj_context_free(NjContext *ctx);
/* Starts the context's JIT (LLVM's target set-up, the host CPU, ~1 ms) on a background thread,
 * so that a first compilation or cache load does not wait for it; optional (the JIT starts on
 * first need anyway), idempotent, and nj_context_free waits for the thread. */
NJ_API void nj_context_prepare(NjContext *ctx);
/* The calling thread's last error on this context: rendered diagnostics, "" when none. */
NJ_API const char *nj_error_message(NjContext *ctx);

/* Parses a module.  Syntax errors fail here; type errors when a function is specialized. */
NJ_API NjStatus nj_compile_source(NjContext *ctx, const char *filename, const char *source,
                                  NjModule **out);
NJ_API NjStatus nj_compile_file(NjContext *ctx, const char *path, NjModule **out);
/* Every entry point that takes source takes a C string, so a NUL byte in a file read from disk
 * would end the text there silently.  A reader of a file (nj_compile_file does this itself)
 * passes its bytes here first: NJ_ERR_SYNTAX with a located error ("file:line:col: error:
 * source code cannot contain NUL bytes", caret included) when there is one, else NJ_OK. */
NJ_API NjStatus nj_check_source_bytes(NjContext *ctx, const char *filename, const char *text,
                                      size_t len);
/* As nj_compile_source, except that Python numjit does not support inside a decorated function
 * ('with', comprehensions, ...) is reported when that function is compiled, not here, so the
 * file's other functions stay usable (Numba compiles each function on its own; the Python
 * package uses this).  Real syntax errors still fail here. */
NJ_API NjStatus nj_compile_source_lazy(NjContext *ctx, const char *filename, const char *source,
                                       NjModule **out);
NJ_API NjStatus nj_module_function(NjModule *m, const char *name, NjFunction **out);

/* Calls f: specializes it for the arguments' types on first use (a later call with the same
 * types compiles nothing).  result may be NULL for functions returning None.  For a function
 * that returns an array, set result->kind = NJ_KIND_ARRAY and result->v.a to an NjArray of
 * yours before the call: it receives the array, whose owner you release (nj_array_release;
 * a NULL owner means the memory of one of the arguments); otherwise such a call, and any
 * call of a function returning a tuple, is NJ_ERR_UNSUPPORTED: use nj_function_entry_info. */
NJ_API NjStatus nj_call(NjFunction *f, const NjValue *args, int nargs, NjValue *result);

/* Compiles f for an explicit signature, "f(float64[:], int64)" or "(float64[:], int64)", and
 * returns the address of its C-ABI entry:
 *   int32_t entry(void **args, void *result)
 * args[k] points at the k-th argument: a scalar of its type, or an NjArray for an array.
 * The return is 0, or a raise site (nj_call turns it into NJ_ERR_RUNTIME). */
typedef int32_t (*NjEntry)(void **args, void *result);
NJ_API NjStatus nj_function_entry(NjFunction *f, const char *signature, NjEntry *out);

/* Numba's @cfunc: compiles f for `signature`, its result type required ("float64(float64,
 * float64)"), and returns the address of a C function of that signature, named `symbol` in
 * the JIT (unique per context), that runs it:  double symbol(double, double).  A parameter
 * spelled as a one-dimensional C-contiguous array ("float64[::1]", "uint8[::1]" for void *) is
 * a C pointer to its first element, which the function sees as an array starting there (index
 * it, or view it with numba.carray); the others are numbers, bool as one byte.  The result is
 * converted to the declared type; an exception raised in a call makes it return zero. */
NJ_API NjStatus nj_function_cfunc(NjFunction *f, const char *signature, const char *symbol,
                                  void **address);

/* numba.objmode blocks: compiled code calls hook(id, ib, fb, stage) to run block `id` in the
 * host program (the Python package registers one; without a hook a block's call fails).
 * ib and fb are int64 and float64 buffers holding the inputs and receiving the outputs
 * (lib/objmode.c documents the layout); stage 0 runs the block, stage 1 copies its array
 * outputs into the arrays whose addresses compiled code wrote.  Returns 0, or nonzero when
 * the block raised (compiled code then raises). */
typedef int64_t (*NjObjmodeHook)(int64_t id, int64_t *ib, double *fb, int64_t stage);
NJ_API void nj_set_objmode_hook(NjObjmodeHook hook);

/* nj_function_entry plus what a caller that runs the entry itself needs to read its result:
 * the result's kind (NJ_KIND_NONE for a function returning None) and dtype.  The entry writes
 * a scalar result as its C type (bool as one byte, float32 as float) at `result`, an array
 * (NJ_KIND_ARRAY, result_dtype its dtype) as an NjArray whose owner the caller releases
 * (nj_array_release; NULL owner: the array is memory of one of the arguments). */
typedef struct NjEntryInfo {
    NjEntry entry;
    NjKind result_kind;
    NjDType result_dtype;
    /* NJ_KIND_TUPLE (a function returning a tuple): the entry writes a C struct of
     * result_count fields, field k at byte result_offsets[k]: a scalar of dtype
     * result_dtypes[k] when result_kinds[k] is NJ_KIND_SCALAR, an NjArray (aligned to 8) when
     * it is NJ_KIND_ARRAY; the struct takes result_size bytes.  The arrays describe the first
     * 16 fields; a tuple that nests tuples (result_kinds[k] NJ_KIND_TUPLE), or is longer than
     * 16 or than NJ_RESULT_MAX bytes, is described whole by nj_function_result_layout. */
    int result_count;
    NjDType result_dtypes[16];
    int result_offsets[16];
    int result_size;
    NjKind result_kinds[16];
} NjEntryInfo;
#define NJ_RESULT_MAX (16 * (int)sizeof(NjArray))

/* The C layout of a value (a tuple argument or result), as the nodes of its tree in preorder:
 * a tuple is one NJ_KIND_TUPLE node followed by its `count` elements' subtrees; a scalar is an
 * NJ_KIND_SCALAR node, an array an NJ_KIND_ARRAY node (an NjArray) with `dtype` its elements'
 * and `count` its dimensions; a list of numbers (results only) an NJ_KIND_LIST node, an
 * NjArray of its items owning the list (as an NJ_KIND_LIST result); a string an NJ_KIND_STR
 * node, an NjStr.  An Optional (Numba's OptionalType) is an NJ_KIND_OPTIONAL node followed by
 * its two fields as a tuple's, the bool that says it holds a value and the value; None (the
 * type `none`) an NJ_KIND_NONE node of no bytes.  `offset` counts from the start of the
 * outermost value.  Fields are aligned to their size (complex numbers to their parts',
 * NjArrays and NjStrs to 8), a nested tuple is a nested struct aligned to its widest field:
 * the layout a C compiler gives the same structs.  A tuple argument is passed as a pointer to
 * such a struct (args[k]); its arrays and strings are borrowed for the call; a result's
 * arrays, lists and strings hold a reference the caller releases (nj_array_release,
 * nj_str_release). */
typedef struct NjLayoutNode {
    NjKind kind;   /* NJ_KIND_SCALAR, _ARRAY, _TUPLE, _LIST, _STR, _OPTIONAL or _NONE */
    NjDType dtype; /* a scalar's type, an array's or a list's elements' */
    int offset;    /* in bytes, from the start of the whole value */
    int count;     /* NJ_KIND_TUPLE: its elements; NJ_KIND_OPTIONAL: 2; NJ_KIND_ARRAY: its
                    * dimensions */
} NjLayoutNode;
/* The layout of the type spelled `type` as in signatures ("int64", "float64[::1]",
 * "UniTuple(int64, 2)", "Tuple(float64[:], UniTuple(int32, 3))"): fills up to cap nodes and
 * returns how many the whole tree has (more than cap: call again with more room), or -1 for
 * a spelling that is not a type (the context's error says why); *size receives its bytes. */
NJ_API int nj_type_layout(NjContext *ctx, const char *type, NjLayoutNode *nodes, int cap,
                          int *size);
/* The layout of the result of an entry of f (as nj_type_layout; 0 nodes for None). */
NJ_API int nj_function_result_layout(NjFunction *f, NjEntry entry, NjLayoutNode *nodes,
                                     int cap, int *size);

/* Gives back the reference an array returned by compiled code holds (a->owner): the memory is
 * freed when no compiled code and no other holder uses it any more.  Sets a->owner and a->data
 * to NULL.  Harmless on arrays with a NULL owner. */
NJ_API void nj_array_release(NjArray *a);
/* Gives back the reference a string that compiled code returned holds (NjStr.owner); s is
 * then the empty string.  Nothing for a string without owner. */
NJ_API void nj_str_release(NjStr *s);
/* Takes one more reference to a's memory (a->owner may be NULL: then nothing); each needs its
 * own nj_array_release. */
NJ_API void nj_array_retain(const NjArray *a);
NJ_API NjStatus nj_function_entry_info(NjFunction *f, const char *signature, NjEntryInfo *out);

/* ---- typed dicts (Numba's DictType) for C callers -------------------------------------------
 * The table compiled code keeps its dicts in (runtime/dict.c), by the raw bytes of keys and
 * values, so that a host (the Python package's numba.typed.Dict) and compiled code share one
 * dict.  A parameter of type "DictType[int64,float64]<iv=None>" takes the dict itself as
 * args[k]; compiled code changes it in place.  An item's code (NjDictItem) is its NjDType for
 * a number or NJ_DICT_STR for a string (Numba's unicode_type); a number travels in its C type
 * (bool one byte), a string as an NjStr.  The dict holds its own references: nj_dict_set
 * counts a string that has an owner up and copies one without, and the pointers nj_dict_key
 * and nj_dict_value give are valid until the dict next changes. */
typedef struct NjDict NjDict;
typedef int NjDictItem;
#define NJ_DICT_STR ((NjDictItem)NJ_DTYPE_COUNT)
/* A new empty dict (reference count 1), NULL without memory. */
NJ_API NjDict *nj_dict_new(void);
NJ_API void nj_dict_retain(NjDict *d);
/* Gives back one reference; the last frees the dict and releases what it holds. */
NJ_API void nj_dict_release(NjDict *d);
NJ_API int64_t nj_dict_len(const NjDict *d);
/* Whether a host may hold a dict of these item codes: numbers (not complex) and strings. */
NJ_API bool nj_dict_item_ok(NjDictItem key, NjDictItem value);
/* The entry holding key, or -1. */
NJ_API int64_t nj_dict_find(const NjDict *d, NjDictItem ktype, const void *key);
/* d[key] = value: NJ_OK, or NJ_ERR_NOMEM (nothing changed). */
NJ_API NjStatus nj_dict_set(NjDict *d, NjDictItem ktype, NjDictItem vtype, const void *key,
                            const void *value);
NJ_API const void *nj_dict_key(const NjDict *d, int64_t ix);
NJ_API const void *nj_dict_value(const NjDict *d, int64_t ix);
/* Removes live entry ix (from nj_dict_find or nj_dict_next), releasing its key and value. */
NJ_API void nj_dict_delete(NjDict *d, int64_t ix);
/* The first live entry at or after ix (iteration in insertion order: 0, then ix + 1), or -1;
 * nj_dict_last: the last live entry, or -1 (popitem). */
NJ_API int64_t nj_dict_next(const NjDict *d, int64_t ix);
NJ_API int64_t nj_dict_last(const NjDict *d);
NJ_API void nj_dict_clear(NjDict *d);

/* After an entry of f returned the nonzero raise site `site`: makes the site's rendered
 * diagnostic the calling thread's last error (nj_error_message) and returns NJ_ERR_RUNTIME;
 * *exc_name (may be NULL) receives the Python exception's name: "ZeroDivisionError",
 * "IndexError", "ValueError", "MemoryError" or "LinAlgError" (numpy.linalg's). */
NJ_API NjStatus nj_function_raise(NjFunction *f, NjEntry entry, int32_t site,
                                  const char **exc_name);

/* Text dumps of a specialization (malloc'ed, free with nj_free_string): "typed" (numjit IR),
 * "llvm" (optimized LLVM IR), "asm" (x86-64 assembly), "ret" (the return type as Numba spells
 * it: how a caller views an array of records, which comes back as an NJ_UINT8 array with a last
 * dimension of the record's bytes). */
NJ_API NjStatus nj_function_dump(NjFunction *f, const char *signature, const char *what,
                                 char **out);
NJ_API void nj_free_string(char *s);

/* ---- ufuncs and gufuncs (the "vectorize decorator" for C programs) -------------------------
 * A ufunc applies a scalar function elementwise with NumPy broadcasting; a gufunc applies a
 * function over core dimensions ("(m,n),(n,p)->(m,p)") and loops over the outer ones.
 *
 *   NjUfunc *u;
 *   const char *sigs[] = {"float64(float64, float64)", "float32(float32, float32)"};
 *   nj_ufunc_new(m, "rel_diff", sigs, 2, NULL, NJ_TARGET_PARALLEL, &u);
 *   nj_ufunc_call(u, ins, 2, outs, 1);      // outs[0].data == NULL: allocated (nj_array_free)
 *
 * Signatures are tried in order; the first that every input casts to safely (NumPy 'safe'
 * casting) is used.  With no signatures the ufunc is dynamic: a loop is compiled for each new
 * combination of input dtypes.  Inputs broadcast (0-d arrays are scalars); any strides work. */
typedef enum NjTarget { NJ_TARGET_CPU = 0, NJ_TARGET_PARALLEL, NJ_TARGET_CUDA } NjTarget;
typedef struct NjUfunc NjUfunc; /* owned by its module */

/* layout: NULL for a ufunc, "(n),(n)->()" for a gufunc (sigs then list argument types, inputs
 * and outputs: "void(float64[:], float64[:], float64[:])" or "(float64[:], float64[:], float64[:])"). */
NJ_API NjStatus nj_ufunc_new(NjModule *m, const char *name, const char *const *sigs, int nsigs,
                             const char *layout, NjTarget target, NjUfunc **out);
/* The ufunc/gufunc the module's own @vectorize / @guvectorize decorator declares. */
NJ_API NjStatus nj_module_ufunc(NjModule *m, const char *name, NjUfunc **out);
NJ_API int nj_ufunc_nin(const NjUfunc *u);
NJ_API int nj_ufunc_nout(const NjUfunc *u);
/* Output dtypes and shapes these inputs give (selects, and compiles, the loop). */
NJ_API NjStatus nj_ufunc_resolve(NjUfunc *u, const NjArray *ins, int nin, NjArray *outs,
                                 int nout);
/* Runs it.  outs[k].data == NULL: the output is allocated (free with nj_array_free); else it
 * must have the broadcast shape and a dtype the result casts to safely ('same_kind' as NumPy's
 * out=). */
NJ_API NjStatus nj_ufunc_call(NjUfunc *u, const NjArray *ins, int nin, NjArray *outs, int nout);
/* The compiled inner loop that nj_ufunc_call would run for these dtypes, in NumPy's shape:
 *   loop(args, dims, steps, data): args[k] points at element 0 of argument k (inputs, then
 *   outputs), dims[0] = n, steps[k] = byte stride of argument k (any sign, 0 included).
 * For callers that iterate over one dimension themselves (a small-array fast path): the loop
 * neither broadcasts, allocates, checks overlap nor uses threads.  dtypes[0..nin-1]: the input
 * dtypes; dtypes[nin..nin+nout-1]: each output's dtype, or NJ_DTYPE_COUNT for "allocate", then
 * replaced by the dtype the loop writes.  Selects (and compiles) the loop as nj_ufunc_call does;
 * inputs must be passed in the dtypes given.  CPU ufuncs only (not gufuncs, not 'cuda'):
 * NJ_ERR_UNSUPPORTED otherwise. */
typedef void (*NjUfuncLoop)(char **args, const int64_t *dims, const int64_t *steps, void *data);
NJ_API NjStatus nj_ufunc_loop(NjUfunc *u, NjDType *dtypes, int nargs, NjUfuncLoop *fn,
                              void **data);
/* The inner loop for NumPy's own ufunc object (PyUFunc_FromFuncAndData): ufuncs and gufuncs,
 * targets 'cpu' and 'parallel'.  *sig >= 0: the loop of that declared signature, reading and
 * writing exactly its dtypes, which go to dtypes[0..nin+nout-1].  *sig < 0 (dynamic ufuncs):
 * the loop for input dtypes dtypes[0..nin-1], compiled as a new signature (or the existing one
 * with those inputs) whose index goes to *sig; dtypes[nin..] get the output dtypes.  The loop
 * takes any strides (0 included) and, for 'parallel', splits its work over the thread pool;
 * fn and data stay valid while the ufunc's module lives. */
NJ_API NjStatus nj_ufunc_numpy_loop(NjUfunc *u, int *sig, NjDType *dtypes, NjUfuncLoop *fn,
                                    void **data);
/* target='cuda' ufuncs and gufuncs with device arrays (added with GPU ufuncs).  ins[k]: an
 * NJ_KIND_ARRAY (host memory: copied to the device), an NJ_KIND_DEVICE_ARRAY (stays) or an
 * NJ_KIND_SCALAR (converted to the chosen signature's type).  outs[k].v.a: an NjArray of the
 * caller's; data NULL: allocated, on the device (free with nj_cuda_free) when outs[k].kind is
 * NJ_KIND_DEVICE_ARRAY, else on the host (nj_array_free).  The signature: the first one the
 * array inputs' dtypes match exactly, else the first they cast to safely, where device arrays
 * must match exactly (numba-cuda's rule).  A call whose inputs and outputs are all on the
 * device is asynchronous on stream; with host arrays it returns when the results are copied
 * back.  nj_ufunc_call on a 'cuda' ufunc is this call with host arrays. */
NJ_API NjStatus nj_ufunc_call_values(NjUfunc *u, const NjValue *ins, int nin, NjValue *outs,
                                     int nout, void *stream /* NjStream */);
/* Reduces a binary ufunc along axis (identity from the decorator or the first element). */
NJ_API NjStatus nj_ufunc_reduce(NjUfunc *u, const NjArray *in, int axis, NjArray *out);
NJ_API void nj_array_free(NjArray *a);
/* Where print() in compiled CPU code writes: each print() is one call of hook with the whole
 * line (newline included, not NUL-terminated), from the thread that printed.  NULL (the
 * default): stdout.  The Python package sets a hook writing to sys.stdout. */
typedef void (*NjPrintHook)(const char *text, size_t len, void *arg);
NJ_API void nj_set_print_hook(NjPrintHook hook, void *arg);
/* Extensions (Numba's @overload, overload_method, overload_attribute): names the program's
 * text does not define, whose typing a host program answers.  The typer asks the hook when a
 * name of module `file` is bound by none of its defs, constants, imports or builtins
 * (kind NJ_EXT_FUNC, attr NULL), when an attribute or method no array or scalar has is read
 * (kind NJ_EXT_ATTR or NJ_EXT_METHOD, name "ndarray" or the scalar type's, attr the
 * attribute), and once more per distinct argument types at each call (nargs >= 0, argtypes
 * spelled as numjit prints types: "float64", "array(float64, 1d, C)", "UniTuple(int64, 2)";
 * for a method or attribute the first is the object's; a constant argument as its literal,
 * "Literal[int](3)", "Literal[str]('linear')" (the value as Python's repr); keyword arguments
 * last, as "name=TYPE").  nargs < 0 asks only whether the name
 * is the hook's.  The hook answers NJ_EXT_NOT_MINE (the usual error follows), NJ_EXT_MINE
 * (nargs < 0), NJ_EXT_IMPL with *impl_module and *impl_func (malloc'd; the library frees it)
 * naming the def to compile for those types, which is bound to the arguments as Python binds
 * a call (positional ones in order, self first; keywords by name; its defaults),
 * NJ_EXT_DECLINED (no implementation for these types) or NJ_EXT_ERROR; with either of these
 * last two, *message (malloc'd or NULL) says why.  The hook runs on the compiling thread,
 * inside the compile; it may compile source (nj_compile_source_lazy) but not call compiled
 * functions of the module being compiled.  NULL (the default): no extensions. */
typedef enum { NJ_EXT_FUNC, NJ_EXT_METHOD, NJ_EXT_ATTR } NjExtKind;
enum { NJ_EXT_NOT_MINE, NJ_EXT_MINE, NJ_EXT_IMPL, NJ_EXT_DECLINED, NJ_EXT_ERROR };
typedef int (*NjExtensionHook)(void *arg, NjExtKind kind, const char *file, const char *name,
                               const char *attr, int nargs, const char *const *argtypes,
                               NjModule **impl_module, char **impl_func, char **message);
NJ_API void nj_set_extension_hook(NjExtensionHook hook, void *arg);
/* Threads used by NJ_TARGET_PARALLEL (default: the machine's cores; 0 = default). */
NJ_API void nj_set_num_threads(int n);
NJ_API int nj_get_num_threads(void);
/* What the parallel loops (prange in @njit(parallel=True) functions) of this process did: the
 * loops run and how many of them used the thread pool; for the last one, its chunks and the
 * number of distinct threads that ran them.  For tests and tuning. */
typedef struct NjParforStats {
    int64_t loops, pooled;
    int chunks, threads;
} NjParforStats;
NJ_API void nj_parfor_stats(NjParforStats *out);

/* ==== CUDA: explicit kernels, device memory, ahead-of-time PTX ==============================
 * Kernels are a module's @cuda.jit functions.  A launch specializes the kernel for its
 * arguments' types on first use (per device; later launches with the same types compile
 * nothing), generates PTX for the device's architecture and loads it through the driver.
 *
 *   NjKernel *k;  nj_module_kernel(m, "axpy", &k);
 *   NjValue args[3] = { nj_f32(2.0f), nj_arr(&x), nj_arr(&y) };     // host arrays
 *   unsigned grid[3] = {256, 1, 1}, block[3] = {128, 1, 1};
 *   nj_kernel_launch(k, grid, block, 0, NULL, args, 3);
 *
 * Host arrays (NJ_KIND_ARRAY) are copied to the device before the launch and back after it
 * (the launch then waits for the kernel), as numba-cuda does; device arrays
 * (NJ_KIND_DEVICE_ARRAY, nj_dev_arr) stay where they are and the launch is asynchronous on
 * its stream.  Scalars are passed by value.  The kernel ABI of the PTX (for nj_ptx users) is
 * in docs/cuda.md: an array is its data pointer, shape[ndim], strides[ndim] (bytes, int64);
 * a scalar is passed by value; the .entry carries the Python name, unmangled.
 *
 * Device functions run on the calling thread's current device (nj_cuda_set_device; device 0
 * by default).  Without a CUDA driver or device every function here returns
 * NJ_ERR_UNSUPPORTED with a message naming what is missing; nj_ptx needs neither. */
typedef struct NjKernel NjKernel; /* owned by its module */
typedef void *NjStream;           /* a CUstream; NULL is the default stream */

NJ_API NjStatus nj_module_kernel(NjModule *m, const char *name, NjKernel **out);
/* grid and block: 3 extents each (unused dimensions 1); shared_bytes: dynamic shared memory. */
NJ_API NjStatus nj_kernel_launch(NjKernel *k, const unsigned grid[3], const unsigned block[3],
                                 unsigned shared_bytes, NjStream stream, const NjValue *args,
                                 int nargs);
/* Compiles (and, where there is a device, loads) k for an explicit signature now:
 * "void(float32[:], float32[:])" or "(float32[:], float32[:])".  A kernel with declared
 * signatures (by the decorator or by this call) accepts launches whose arrays match one of
 * them exactly and whose scalars convert to it. */
NJ_API NjStatus nj_kernel_compile(NjKernel *k, const char *signature);

/* PTX ahead of time, no GPU needed: signature "NAME(float32[:], float32[:])" of a @cuda.jit
 * kernel (or of a device function, exported as a .func); arch "sm_75" ... "sm_90a" (NULL:
 * "sm_90"), and "sm_100" and newer through libNVVM where the CUDA toolkit is installed (the
 * backend: $NUMJIT_PTX_BACKEND = auto | llvm | nvvm, docs/cuda.md).  *out is malloc'ed (nj_free_string). */
NJ_API NjStatus nj_ptx(NjModule *m, const char *signature, const char *arch, char **out);

NJ_API NjStatus nj_cuda_device_count(NjContext *ctx, int *n); /* 0 devices: NJ_OK, *n = 0 */
/* The calling thread's current device (default 0). */
NJ_API NjStatus nj_cuda_set_device(NjContext *ctx, int ordinal);
NJ_API int nj_cuda_get_device(void);
/* name (may be NULL), compute capability (may be NULL) of the current device. */
NJ_API NjStatus nj_cuda_device_name(NjContext *ctx, char *name, size_t cap, int *cc_major,
                                    int *cc_minor);
NJ_API NjStatus nj_cuda_malloc(NjContext *ctx, size_t n, void **dptr);
NJ_API NjStatus nj_cuda_free(NjContext *ctx, void *dptr);
/* Copies; stream NULL: synchronous, else asynchronous on that stream. */
NJ_API NjStatus nj_cuda_memcpy_htod(NjContext *ctx, void *dst, const void *src, size_t n,
                                    NjStream s);
NJ_API NjStatus nj_cuda_memcpy_dtoh(NjContext *ctx, void *dst, const void *src, size_t n,
                                    NjStream s);
NJ_API NjStatus nj_cuda_memcpy_dtod(NjContext *ctx, void *dst, const void *src, size_t n,
                                    NjStream s);
NJ_API NjStatus nj_cuda_synchronize(NjContext *ctx);
NJ_API NjStatus nj_cuda_stream_new(NjContext *ctx, NjStream *out);
NJ_API NjStatus nj_cuda_stream_free(NjContext *ctx, NjStream s);
NJ_API NjStatus nj_cuda_stream_sync(NjContext *ctx, NjStream s);
/* Events (numba-cuda's cuda.event): timing 0 makes a cheaper event that cannot be timed.
 * nj_cuda_event_query: *done 1 when the work recorded before the event has completed (0 while
 * it runs: not an error).  nj_cuda_event_elapsed: milliseconds from start to end, both recorded
 * and completed.  nj_cuda_stream_wait_event: work queued on s later waits for e (s NULL: the
 * default stream). */
typedef void *NjEvent; /* a CUevent */
NJ_API NjStatus nj_cuda_event_new(NjContext *ctx, int timing, NjEvent *out);
NJ_API NjStatus nj_cuda_event_free(NjContext *ctx, NjEvent e);
NJ_API NjStatus nj_cuda_event_record(NjContext *ctx, NjEvent e, NjStream s);
NJ_API NjStatus nj_cuda_event_sync(NjContext *ctx, NjEvent e);
NJ_API NjStatus nj_cuda_event_query(NjContext *ctx, NjEvent e, int *done);
NJ_API NjStatus nj_cuda_event_elapsed(NjContext *ctx, NjEvent start, NjEvent end, float *ms);
NJ_API NjStatus nj_cuda_stream_wait_event(NjContext *ctx, NjStream s, NjEvent e);
/* Page-locked host memory: nj_cuda_host_alloc (free with nj_cuda_host_free), or an existing
 * range pinned until nj_cuda_host_unregister (mapped 1: also mapped into the device's address
 * space; *registered 0: it was pinned already, so there is nothing to undo).  Copies from and
 * to pinned memory run at the bus's speed.  nj_cuda_host_device_pointer: the address kernels
 * use for mapped (or nj_cuda_host_alloc'ed) host memory: a zero-copy device array. */
NJ_API NjStatus nj_cuda_host_alloc(NjContext *ctx, size_t n, void **p);
NJ_API NjStatus nj_cuda_host_free(NjContext *ctx, void *p);
NJ_API NjStatus nj_cuda_host_register(NjContext *ctx, void *p, size_t n, int mapped,
                                      int *registered);
NJ_API NjStatus nj_cuda_host_unregister(NjContext *ctx, void *p);
NJ_API NjStatus nj_cuda_host_device_pointer(NjContext *ctx, void *p, void **dptr);
/* The current device: free and total memory (cuMemGetInfo), any CUdevice_attribute by its
 * number (cuDeviceGetAttribute: 16 is the multiprocessor count), and the release of every
 * device block numjit's allocator keeps cached for reuse. */
NJ_API NjStatus nj_cuda_mem_info(NjContext *ctx, size_t *free_bytes, size_t *total_bytes);
NJ_API NjStatus nj_cuda_device_attribute(NjContext *ctx, int attr, int *value);
NJ_API NjStatus nj_cuda_mem_trim(NjContext *ctx);
static inline NjValue nj_dev_arr(NjArray *a) {
    NjValue v = {NJ_KIND_DEVICE_ARRAY, a->dtype, {.a = a}};
    return v;
}
/* ==== end CUDA ============================================================================== */

/* ==== on-disk cache ===========================================================================
 * Functions declared with cache=True (and every function when the environment has
 * NUMJIT_CACHE=1) keep their compiled code on disk; a later process loads it without running
 * the compiler.  Directory: $NUMJIT_CACHE_DIR, else $XDG_CACHE_HOME/numjit, else
 * ~/.cache/numjit.  A directory that cannot be written only means no caching
 * (NUMJIT_CACHE_DEBUG=1 prints what the cache does on stderr). */
typedef struct NjCacheEntry {
    const char *path;    /* the entry's file */
    const char *desc;    /* "file.py: f(float64, float64) [njit]" ("" when unreadable) */
    int64_t size;        /* bytes */
    bool valid;          /* header and checksum check out */
    const char *problem; /* why not, when !valid */
} NjCacheEntry;
typedef void (*NjCacheVisit)(const NjCacheEntry *e, void *user);
/* The directory in use (a per-thread buffer, valid until the next call), NULL when none. */
NJ_API const char *nj_cache_dir(void);
/* Calls visit for each entry (in directory order).  No directory yet: NJ_OK, no calls. */
NJ_API NjStatus nj_cache_list(NjCacheVisit visit, void *user);
/* Removes every entry (and stale temporary files); *removed (may be NULL) counts entries. */
NJ_API NjStatus nj_cache_clear(int *removed);
/* What the cache refused to trust in this process, oldest first, one line each: a directory
 * owned by another user or writable by its group or others, an entry that is a symbolic link,
 * not ours or writable by others (each such entry is a miss; docs/guarantees.md).  Copies the
 * lines into buf (at most n bytes with the NUL; buf may be NULL), forgets them when clear, and
 * returns how many there were.  The library records these warnings and never prints them. */
NJ_API int nj_cache_warnings(char *buf, size_t n, bool clear);
/* What the cache did in this process: entries found and read (hits), looked for and not
 * found or unreadable (misses), written (stores). */
typedef struct NjCacheStats {
    uint64_t hits, misses, stores;
} NjCacheStats;
NJ_API void nj_cache_stats(NjCacheStats *out);
/* ==== end on-disk cache ====================================================================== */

/* ==== sessions: the engine of the numjit REPL and of `numjit run FILE.py` ===================
 * A session runs top-level Python statements as the REPL does: assignments of scalars and
 * arrays, expressions, def blocks, for/while/if, print(), import math / import numpy as np.
 * An array expression (y = 2*(x - z)/(x + z)) compiles into one fused elementwise loop;
 * sum/min/max/mean/prod fuse with the expression they reduce.  docs/repl.md has the details.
 *
 *   NjSession *s;  nj_session_new(ctx, NJ_TARGET_CPU, &s);
 *   char *out;     nj_session_exec(s, "<stdin>", "x = np.arange(5.0)\nprint(x * 2)\n", &out);
 *                  // out = "[0. 2. 4. 6. 8.]\n"; nj_free_string(out)
 *
 * Chunks passed under one file name are numbered as one file (REPL lines continue across
 * calls), so diagnostics read "<stdin>:12:5: error: ..." with the typed line and a caret.
 * On failure the output printed before the error is still returned and nj_error_message(ctx)
 * has the diagnostic; the session stays usable. */
typedef struct NjSession NjSession;
NJ_API NjStatus nj_session_new(NjContext *ctx, NjTarget target, NjSession **out);
NJ_API void nj_session_free(NjSession *s);
/* Interactive mode: the value of an expression statement is printed (repr), as Python's REPL. */
NJ_API void nj_session_set_echo(NjSession *s, bool echo);
/* Runs text's statements; *output (may be NULL) receives what they printed (free with
 * nj_free_string). */
NJ_API NjStatus nj_session_exec(NjSession *s, const char *filename, const char *text,
                                char **output);
/* An inspection command: ":type EXPR", ":ir NAME", ":llvm NAME", ":asm NAME", ":ptx NAME",
 * ":time STATEMENT", ":target cpu|parallel|cuda", ":load FILE.py", ":vars", ":help". */
NJ_API NjStatus nj_session_command(NjSession *s, const char *line, char **output);
/* Asks the running nj_session_exec to stop, as Ctrl-C stops Python: before its next statement
 * or loop iteration it returns NJ_ERR_RUNTIME with "KeyboardInterrupt" at that statement, and
 * the session stays as the statements before left it.  Async-signal-safe (a SIGINT handler may
 * call it).  A request made between chunks stops the next chunk's first statement; one that
 * is still pending when a chunk ends (it came during the last statement) is dropped. */
NJ_API void nj_session_interrupt(NjSession *s);
/* Completions of word (a name, "np.si", ":ty"): returns their number and a malloc'ed list
 * (free with nj_session_free_completions). */
NJ_API int nj_session_complete(NjSession *s, const char *word, char ***out);
NJ_API void nj_session_free_completions(char **list, int n);
/* A variable's value: a scalar, or an array borrowed from the session (valid until the
 * variable is reassigned). */
NJ_API NjStatus nj_session_get(NjSession *s, const char *name, NjValue *out);
/* Binds name to a copy of a. */
NJ_API NjStatus nj_session_set_array(NjSession *s, const char *name, const NjArray *a);
/* ==== end sessions ========================================================================== */

/* ==== ahead-of-time object files (`numjit obj`; docs/aot.md) ==============================
 * @njit functions compiled for explicit signatures into ONE relocatable x86-64 object file and
 * a self-contained C header declaring them, so that a C program links them with
 * `cc main.c lib.o -lm` and needs neither numjit nor LLVM at run time (Numba's pycc, without
 * Python).
 *
 *   const char *sigs[] = {"axpy(float64, float64[:], float64[:])",
 *                         "norm_f32=norm(float32[:])", "norm(float64[:])"};
 *   void *obj; size_t len; char *h;
 *   nj_aot_object(m, sigs, 3, NULL, &obj, &len);    // bytes of lib.o (nj_aot_free)
 *   nj_aot_header(m, sigs, 3, NULL, &h);            // text of lib.h (nj_free_string)
 *
 * A signature "f(TYPES)" exports f under its Python name; "NAME=f(TYPES)" under NAME (two
 * specializations of one function need two names).  The C ABI (docs/aot.md):
 *   int32_t NAME([RET *result,] args...)    arrays as const NjArray *, scalars by value;
 *   0 on success, -1 - k for a bad argument k, else a raise status listed in the header. */
typedef struct NjAotOptions {
    const char *cpu;  /* NULL or "generic": the x86-64 baseline (runs on any x86-64);
                         "x86-64-v2" / "-v3" / "-v4", an LLVM CPU name ("haswell",
                         "skylake-avx512", "znver3", ...), or "native": this machine's CPU */
    bool vector_math; /* loops may call glibc's libmvec (_ZGV*): link with -lmvec too */
    const char *prefix; /* of the header's macros and helpers (PREFIX_RAISE_1,
                           prefix_status_message); NULL: the module file's stem */
} NjAotOptions;
NJ_API NjStatus nj_aot_object(NjModule *m, const char *const *sigs, int nsigs,
                              const NjAotOptions *opt, void **obj, size_t *len);
/* Types only (no LLVM): cheap.  Same sigs and options as the object it describes. */
NJ_API NjStatus nj_aot_header(NjModule *m, const char *const *sigs, int nsigs,
                              const NjAotOptions *opt, char **out);
NJ_API void nj_aot_free(void *p);
/* ==== end ahead-of-time object files ======================================================== */

/* Builders for NjValue. */
static inline NjValue nj_f64(double x) { NjValue v = {NJ_KIND_SCALAR, NJ_FLOAT64, {.f = x}}; return v; }
static inline NjValue nj_f32(float x) { NjValue v = {NJ_KIND_SCALAR, NJ_FLOAT32, {.f = x}}; return v; }
static inline NjValue nj_i64(int64_t x) { NjValue v = {NJ_KIND_SCALAR, NJ_INT64, {.i = x}}; return v; }
static inline NjValue nj_i32(int32_t x) { NjValue v = {NJ_KIND_SCALAR, NJ_INT32, {.i = x}}; return v; }
static inline NjValue nj_c128(double re, double im) {
    NjValue v = {NJ_KIND_SCALAR, NJ_COMPLEX128, {.c = {re, im}}};
    return v;
}
static inline NjValue nj_bool(bool x) { NjValue v = {NJ_KIND_SCALAR, NJ_BOOL, {.b = x}}; return v; }
static inline NjValue nj_arr(NjArray *a) { NjValue v = {NJ_KIND_ARRAY, a->dtype, {.a = a}}; return v; }
/* A C-contiguous array view of data with the given shape. */
NJ_API NjArray nj_array_c(void *data, NjDType dtype, int ndim, const int64_t *shape);

#ifdef __cplusplus
}
#endif
#endif
