/* _numjit.h — what the files of the _numjit extension share: argument slots and type codes,
 * NumPy's leading struct fields, the global state, and the functions one file gives another.
 * Internal to the extension (never installed). */
#ifndef NUMJIT_PY_NUMJIT_H
#define NUMJIT_PY_NUMJIT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numjit.h"
#include "_dtypes.h"


/* ---- global state (defined in _numjit.c; g_gil_* in _print.c) ---------------------------------------------------- */

extern NjContext *g_ctx;
/* compiled calls running with the GIL held (print() from their threads must not wait for it),
 * and whether this thread is making one; GIL_HELD_CALL(stmt) runs stmt as such a call */
extern _Atomic int g_gil_calls;
extern _Thread_local int g_gil_held;
#define GIL_HELD_CALL(stmt)                                                                    \
    do {                                                                                       \
        atomic_fetch_add_explicit(&g_gil_calls, 1, memory_order_relaxed);                      \
        g_gil_held++;                                                                          \
        stmt;                                                                                  \
        g_gil_held--;                                                                          \
        atomic_fetch_sub_explicit(&g_gil_calls, 1, memory_order_relaxed);                      \
    } while (0)
/* Exception classes from numjit.errors (set by _configure; builtins until then). */
extern PyObject *g_typing_error, *g_syntax_error, *g_numjit_error, *g_compile_error,
    *g_unsupported_error, *g_cuda_error;
extern PyTypeObject *g_ndarray_type; /* numpy.ndarray, or NULL before _configure */
extern int g_fast_ndarray;           /* the struct road is verified */
extern PyTypeObject *g_module_type;
extern PyTypeObject *g_dispatcher_type;

/* ---- type codes ---------------------------------------------------------------------------- */

#define MAX_ARGS 256 /* parameters of a compiled function called from Python */

/* The kind of an argument's code (4 bits): new kinds take the next free number. */
enum {
    K_SCALAR = 1,
    K_ARRAY = 2,
    K_NONE = 3,  /* the argument None (Numba's `none`) */
    K_LIST = 4,  /* a list of numbers of the code's dtype; of str: dtype NJ_DTYPE_COUNT */
    K_STR = 5,   /* a str: unicode_type */
    K_TUPLE = 6, /* a tuple: the number _tuple.c gave its type's spelling (CODE_TUPLE) */
    K_SET = 7,   /* a set of numbers of the code's dtype (Numba's reflected set; _set.c) */
    K_DICT = 8,  /* a numba.typed.Dict: the key's item code in the dtype field, the value's in
                  * the ndim field (numjit.h: NjDictItem; _typeddict.c) */
    K_TLIST = 9, /* a numba.typed.List: its NjList itself, items of the code's dtype (of str:
                  * NJ_DTYPE_COUNT), spelled as a list (_typedlist.c) */
    K_RECARRAY = 10, /* an array of a structured dtype: CODE_ID has its record's number */
    K_RECORD = 11,   /* one record (numpy.void): CODE_ID has its record's number (_record.c) */
};
enum { L_C = 0, L_F = 1, L_A = 2 };
#define CODE(kind, dt, ndim, lay) \
    ((uint32_t)(kind) << 12 | (uint32_t)(lay) << 10 | (uint32_t)(ndim) << 5 | (uint32_t)(dt))
#define CODE_KIND(c) ((int)((c) >> 12) & 15)
#define CODE_LAYOUT(c) ((int)((c) >> 10) & 3)
#define CODE_NDIM(c) ((int)((c) >> 5) & 31)
#define CODE_DTYPE(c) ((NjDType)((c) & 31))
#define CODE_RO (1u << 16) /* an array that must not be written (NumPy's WRITEABLE unset) */
#define CODE_READONLY(c) (((c) & CODE_RO) != 0)
/* A tuple: K_TUPLE and the number _tuple.c gave its type's spelling, above CODE_RO. */
#define CODE_TUPLE(id) ((uint32_t)K_TUPLE << 12 | (uint32_t)(id) << 17)
#define CODE_TUPLE_ID(c) ((int)((c) >> 17))
/* A record or an array of records: the number _record.c gave its record type, above CODE_RO. */
#define CODE_ID(id) ((uint32_t)(id) << 17)
#define CODE_RECORD_ID(c) ((int)((c) >> 17))

typedef union Scalar {
    uint8_t b;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    float f32;
    double f64;
    float c64[2];
    double c128[2];
    uint64_t pad[32]; /* room for a returned tuple (NjEntryInfo.result_size <= 256) */
} Scalar;

typedef struct ArgSlot {
    Scalar s;
    int has_buf; /* what release_slots gives back: SLOT_BUF, SLOT_LIST, SLOT_TUPLE or 0 */
    Py_buffer buf;
    NjArray arr;
    NjList *list;
    void *orig;
    int64_t orig_size;
    PyObject *keep;       /* a list of str: a tuple of its items, alive while the call reads them */
    NjStr str;            /* K_STR: the text of the argument, which the call's tuple keeps alive */
    struct ArgSlot *sub;  /* a tuple's leaves, in preorder */
    int nsub;
    void *heap;           /* a tuple's bytes when they outgrow s */
    PyObject *obj;        /* a leaf: its object (borrowed from the argument tuple) */
} ArgSlot;
enum {
    SLOT_BUF = 1,   /* buf holds a buffer */
    SLOT_LIST = 2,  /* list, orig and orig_size hold a list (_list.c; a set's items, _set.c) */
    SLOT_TUPLE = 3, /* sub and heap hold a tuple's leaves and bytes (_tuple.c) */
};

/* ---- NumPy's leading struct fields (stable across 1.x and 2.x; verified at _configure) ---- */

typedef struct NpDescrHead {
    PyObject ob_base;
    PyTypeObject *typeobj;
    char kind, type, byteorder, flags_or_pad;
    int type_num;
} NpDescrHead;

typedef struct NpArrayHead {
    PyObject ob_base;
    char *data;
    int nd;
    Py_ssize_t *dimensions;
    Py_ssize_t *strides;
    PyObject *base;
    NpDescrHead *descr;
    int flags;
} NpArrayHead;

#define NPY_C_CONTIGUOUS 0x0001
#define NPY_F_CONTIGUOUS 0x0002
#define NPY_WRITEABLE 0x0400

static const signed char np_typenum_dtype[16] = {
    NJ_BOOL, NJ_INT8, NJ_UINT8, NJ_INT16, NJ_UINT16, NJ_INT32, NJ_UINT32,
    -1 /* long: by size */, -1 /* ulong */, NJ_INT64, NJ_UINT64, NJ_FLOAT32, NJ_FLOAT64,
    -1 /* longdouble */, NJ_COMPLEX64, NJ_COMPLEX128,
};

static inline int np_dtype_of(const NpDescrHead *d)
{
    if (d->byteorder == '>')
        return -1;
    if (d->type_num == 7)
        return sizeof(long) == 8 ? NJ_INT64 : NJ_INT32;
    if (d->type_num == 8)
        return sizeof(long) == 8 ? NJ_UINT64 : NJ_UINT32;
    if (d->type_num < 0 || d->type_num > 15)
        return -1;
    return np_typenum_dtype[d->type_num];
}

/* A source file compiled by numjit (its module table). */
typedef struct ModuleObject {
    PyObject_HEAD
    NjModule *mod; /* owned by g_ctx */
} ModuleObject;

/* ---- shared between the extension's files ------------------------------------------------- */

/* _classify.c: argument classification and buffers; _errors.c: a status as an exception. */
int layout_of(int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize);
void release_slots(ArgSlot *slots, int n);
const char *type_name(PyObject *o);
int classify(PyObject *o, int idx, ArgSlot *slot, uint32_t *code, void **ptr);
PyObject *raise_status(NjStatus st);
/* _errors.c: the exception class (borrowed) of a runtime error, by its name or else by its
 * message; RuntimeError when neither tells. */
PyObject *exc_for_runtime(const char *name, const char *msg);
/* _classify.c: after a call that returned normally, the changes made to list arguments written
 * back (-1 with an exception); "(float64[::1], int64)" for n codes, malloc'ed (NULL: no memory). */
int reflect_lists(PyObject *args, const ArgSlot *slots, const uint32_t *codes, int n);
char *spell_signature(const uint32_t *codes, int n);

/* _numjit.c: a scalar result as a Python number; a returned string as a str (its reference
 * given back). */
PyObject *box_scalar(NjDType dt, const Scalar *r);
PyObject *box_str(NjStr *s);
/* _list.c: a Python list argument as an NjList (Numba's reflected list), the changes made to
 * it written back after the call, and its release. */
int list_classify(PyObject *o, int idx, ArgSlot *slot, uint32_t *code, void **ptr);
int list_reflect(PyObject *o, const ArgSlot *slot, uint32_t code);
void list_slot_release(ArgSlot *slot);

/* _typeddict.c: numba.typed.Dict's storage (the runtime's dict): the type, an argument (the
 * dict itself, code K_DICT) and a returned dict as a Dict object owning its reference. */
int typeddict_add_type(PyObject *module);
int typeddict_check(PyObject *o);
int typeddict_classify(PyObject *o, int idx, uint32_t *code, void **ptr);
PyObject *box_dict(NjDict *d, int kt, int vt);
/* An item of a typed container (code t: an NjDType, or NJ_DTYPE_COUNT for a str) at p as a
 * Python value, and a Python value cast to one as Numba's _cast does (-1 with TypingError). */
PyObject *typed_item_box(int t, const void *p);
int typed_item_unbox(PyObject *o, int t, void *out);
/* _typedlist.c: numba.typed.List's storage (the NjList compiled code works on): the type, and
 * an argument (the list itself, code K_TLIST). */
int typedlist_add_type(PyObject *module);
int typedlist_check(PyObject *o);
int typedlist_classify(PyObject *o, int idx, uint32_t *code, void **ptr);

/* _tuple.c: tuple arguments and results. */
/* An argument from Python: a tuple into its C layout (code K_TUPLE), a list (list_classify),
 * or what classify takes; -1 with an exception. */
int classify_arg(PyObject *o, int idx, ArgSlot *slot, uint32_t *code, void **ptr);
void release_tuple_slot(ArgSlot *s);
const char *tuple_spelling(uint32_t code);
/* The layout of an entry's result (malloc'ed nodes); -1 with an exception. */
int result_layout(NjFunction *fn, NjEntry entry, NjLayoutNode **nodes, int *nnodes, int *size);
/* The value the entry wrote at bytes along the nodes: a tuple, an Optional as None or its
 * value (the references of its arrays, lists and strings taken over, even on failure). */
PyObject *box_layout(const NjLayoutNode *nodes, int nnodes, unsigned char *bytes, PyObject *args,
                     const ArgSlot *slots, const uint32_t *codes, int n);

/* _record.c: a structured ndarray (K_RECARRAY) or numpy.void (K_RECORD) argument: 0, or 1
 * when o is neither, -1 with an exception; Numba's spelling of such a code. */
int record_classify(PyObject *o, int idx, ArgSlot *slot, uint32_t *code, void **ptr);
void spell_record_code(uint32_t c, char *out, size_t cap);
size_t record_spelling_len(uint32_t c); /* room for spell_record_code's text */
/* A specialization's result: the dtype an array of records comes back as (a new reference), the
 * boxer of a jitclass instance (a callable taking the record's bytes: numjit.jitclass), or
 * NULL (no exception) for other results; NULL with an exception on failure. */
PyObject *record_result_dtype(NjFunction *fn, const char *sig, int *failed);
/* The collections.namedtuple class of a named tuple result, or NULL (_tuple.c). */
PyObject *namedtuple_result_class(NjFunction *fn, const char *sig, int *failed);
/* The array of records that bytes (uint8, a last dimension of the record's size; its
 * reference taken over) hold. */
PyObject *record_view(PyObject *bytes, PyObject *descr);
/* A returned array of records a (its reference taken over): an argument it is, or a view. */
PyObject *record_result(NjArray *a, PyObject *descr, PyObject *args, const ArgSlot *slots,
                        const uint32_t *codes, int n);

/* _instance.c: instance_block(), the memory of jitclass instances made in Python. */
int instance_init(PyObject *module);

/* _result.c: returned arrays as NumPy arrays. */
int result_init(PyObject *module);

/* The ndarray for a returned array a (its reference taken over, even on failure); args, slots
 * and codes describe the call's arguments (an array without owner is one of theirs). */
/* A returned list (NJ_KIND_LIST: its items as an NjArray owning the list): a new Python list
 * of its items, boxed as Numba boxes them (int, float, bool, complex); the list released. */
PyObject *box_list(NjArray *a);
/* _set.c: a returned set (NJ_KIND_SET: its items as an NjArray owning a list of them): a new
 * Python set of its items; the list released. */
PyObject *box_set(NjArray *a);
/* _set.c: a Python set argument of numbers as a list of its items (K_SET, which the C entry
 * makes into a set: Numba's reflected set), and the changes written back after the call. */
int set_classify(PyObject *o, int idx, ArgSlot *slot, uint32_t *code, void **ptr);
int set_reflect(PyObject *o, const ArgSlot *slot, uint32_t code);
/* _list.c: the type code of a list's or set's item (a scalar's or K_STR's; 0 otherwise). */
uint32_t list_item_code(PyObject *o, int idx, Scalar *out);
PyObject *box_array(NjArray *a, PyObject *args, const ArgSlot *slots, const uint32_t *codes,
                    int n);
/* _note_frozen(address, nbytes): memory of a frozen global array, returned read-only. */
PyObject *result_note_frozen(PyObject *self, PyObject *args);

/* ---- the dispatcher (_numjit.c; declared signatures in _resolve.c) ------------------------ */

typedef struct CacheEntry {
    NjEntry entry;
    NjKind rkind;
    NjDType rdtype;
    int tcount;           /* NJ_KIND_TUPLE: fields, their kinds, dtypes and offsets */
    NjKind tkinds[16];
    NjDType tdtypes[16];
    int toffsets[16];
    NjLayoutNode *rnodes; /* NJ_KIND_TUPLE: the result's layout (_tuple.c), rsize bytes */
    int rnnodes, rsize;
    char *sig;
    /* A call whose types were resolved to a declared signature (_resolve.c): its entry is the
     * declared one's, `formal` that one's codes, and scalar arguments are unboxed as them. */
    const uint32_t *formal;
    int ret_cast;         /* a declared return type the result converts to (ret_dtype) */
    NjDType ret_dtype;
    PyObject *rdescr;     /* an array of records: the dtype its bytes are viewed as (_record.c);
                             a named tuple: the class it is boxed as (_tuple.c) */
    uint32_t codes[]; /* nparams */
} CacheEntry;

typedef struct DispatcherObject {
    PyObject_HEAD
    NjFunction *fn;       /* NULL until bound */
    PyObject *module_ref; /* the ModuleObject that owns fn */
    int nparams;
    int nogil;
    int generic;          /* no entry_info in the library: every call through nj_call */
    int frozen;           /* declared signatures only: calls convert to them (_freeze) */
    int generator;        /* a def with yield: a call gives a generator object (_gen.c) */
    int ncache, capcache, last;
    CacheEntry **cache;
} DispatcherObject;

/* _gen.c: the lazy generator object (gen_init adds its type to the module as Generator);
 * gen_new: one for a generator's entry and the four int64s its call wrote, keeping args alive
 * (NULL with an exception). */
int gen_init(PyObject *module);

/* _print.c: routes print() of compiled code to sys.stdout (nj_set_print_hook) */
void print_install(void);
PyObject *gen_new(DispatcherObject *d, NjEntry entry, const int64_t obj[4], PyObject *args);
/* _numjit.c: the exception of raise site `site` of the specialization whose entry is entry;
 * NULL. */
PyObject *raise_site(DispatcherObject *d, NjEntry entry, int32_t site);

/* The cache entry for these codes, or NULL. */
CacheEntry *cache_find(DispatcherObject *d, const uint32_t *codes, int n);
/* Compiles the specialization for codes and caches it; NULL with an exception. */
CacheEntry *cache_add(DispatcherObject *d, const uint32_t *codes, int n);
/* Room for one more entry; -1 when out of memory. */
int cache_grow(DispatcherObject *d);
/* _classify.c: Numba's spelling of a type code: "float64[::1]", "readonly array(uint8, 1d, C)". */
void spell_code(uint32_t c, char *out, size_t cap);

/* _resolve.c: declared signatures, as Numba's dispatcher resolves a call among them. */
/* A frozen dispatcher's call of undeclared types: the entry of the best declared signature
 * (cached for these codes), or NULL with Numba's TypeError. */
CacheEntry *cache_resolve(DispatcherObject *d, PyObject *args, const uint32_t *codes, int n);
/* Unboxes a resolved call's scalar arguments as the declared types (big: every Python int);
 * -1 with CPython's exception. */
int convert_args(const CacheEntry *e, PyObject *args, ArgSlot *slots, const uint32_t *codes,
                 int n, int big);
/* Calls the dispatcher's method `how` (dispatcher.py: _explain_matching_error or
 * _explain_ambiguous), which raises Numba's TypeError; NULL. */
CacheEntry *explain_call(DispatcherObject *d, const char *how, PyObject *args, PyObject *tied);
PyObject *dispatcher_compile(PyObject *self, PyObject *args); /* _compile(sig[, return]) */
PyObject *dispatcher_freeze(PyObject *self, PyObject *unused); /* _freeze() */
PyObject *mod_can_convert(PyObject *self, PyObject *args);     /* _can_convert(from, to) */
/* How a value of type code `from` converts to `to`: 0 not at all, 1 exact, 2 promote, 3 safe,
 * 4 unsafe (Numba's Conversion). */
int rs_can_convert(uint32_t from, uint32_t to);
/* Rates codes against each candidate's codes; returns how many candidates tie for the best
 * rating (0: none matches) and the first of them in *selected. */
int rs_select(const uint32_t *codes, int n, const uint32_t *const *cands, int ncand,
              int *selected);
/* Unboxes argument o (classified as `actual`, value val) as a dt, as Numba's unboxing does;
 * -1 with CPython's exception (OverflowError, ValueError, ...). */
int rs_unbox_as(PyObject *o, uint32_t actual, const Scalar *val, NjDType dt, Scalar *out);
/* Numba's cast of a returned scalar to the declared return type. */
void rs_cast_scalar(NjDType from, const Scalar *in, NjDType to, Scalar *out);

/* _ufunc.c, _ufunc_type.c: the Ufunc type and its module functions. */
extern PyType_Spec ufunc_spec;
PyObject *mod_configure_ufunc(PyObject *self, PyObject *args);
PyObject *mod_set_num_threads(PyObject *self, PyObject *args);
PyObject *mod_get_num_threads(PyObject *self, PyObject *unused);
PyObject *mod_parfor_stats(PyObject *self, PyObject *unused);

/* _npufunc.c: numpy.ufunc objects over compiled loops. */
PyObject *mod_numpy_ufunc(PyObject *self, PyObject *args);
/* _extend.c: set_extension_hook(hook) (numjit.extending's @overload registry) */
PyObject *mod_set_extension_hook(PyObject *self, PyObject *args);
PyObject *mod_numpy_ufunc_set_loops(PyObject *self, PyObject *args);

#endif
