/* _ufunc.h — private to _ufunc.c and _ufunc_type.c: the Ufunc object, its cache entries and
 * call arguments, NumPy's objects the call path uses, and the helpers the two share.
 *
 * _ufunc.c is the call path (classify, key, cache, miss, the 1-d fast path, nj_ufunc_call);
 * _ufunc_type.c allocates outputs with NumPy's allocator and holds the type's other methods
 * (bind, reduce, NumPy's loops), its spec and the module functions that configure it.
 */
#ifndef NUMJIT_PY_UFUNC_H
#define NUMJIT_PY_UFUNC_H

#include "_numjit.h"

#define UF_MAX 16   /* inputs + outputs (the library's RT_UF_MAXARGS) */
#define UF_F16 NJ_DTYPE_COUNT /* float16: a value-based type only (NumPy's min_scalar_type) */
#define UF_ALLOC 31
#define UF_NOGIL_MIN 4096 /* elements: below this the call keeps the GIL */
#define UF_FAST_MAX 4096  /* elements: the 1-d fast path runs the loop directly below this */

extern PyObject *g_np_empty, *g_np_asarray, *g_order_f;
extern PyObject *g_np_dtypes[NJ_DTYPE_COUNT];

/* NumPy's PyArray_NewFromDescr, entry 94 of its C-API table in 1.x and 2.x alike (what
 * numpy.empty calls inside): taken from the table's capsule only when the table's ABI version
 * (entry 0) is one we know and probe arrays made with it match numpy.empty's; NULL otherwise,
 * and outputs come from numpy.empty.  It saves the argument parsing of a Python-level call
 * (~150 ns per allocated output). */
typedef PyObject *(*NewFromDescrFn)(PyTypeObject *type, PyObject *descr, int nd,
                                    Py_ssize_t *dims, Py_ssize_t *strides, void *data,
                                    int fortran, PyObject *obj);
extern NewFromDescrFn g_new_from_descr;

typedef struct UfEntryPy {
    uint16_t key[UF_MAX];
    uint8_t loop_dt[UF_MAX]; /* inputs: the dtype a scalar is converted to */
    uint8_t out_dt[UF_MAX];
    NjUfuncLoop fn;          /* the loop itself, for the small 1-d fast path (NULL: none) */
    void *fdata;
} UfEntryPy;

typedef struct UfuncObject {
    PyObject_HEAD
    NjUfunc *u;           /* NULL until bound */
    PyObject *module_ref; /* the ModuleObject that owns u */
    int nin, nout, gufunc;
    int ncache, capcache, last;
    UfEntryPy *cache;
} UfuncObject;

typedef struct UfArg {
    ArgSlot slot;
    PyObject *tmp;   /* owned: numpy.asarray(input) */
    int scalar;
    int weak;        /* a Python bool/int/float (NumPy 2's "weak" scalar, NEP 50) */
    NjDType dt;
    int min_dt, small_u;
    NjArray arr;     /* what the library sees */
    Scalar conv;     /* a scalar converted to its loop dtype */
} UfArg;

/* _ufunc.c */
void ufunc_dealloc(PyObject *self);
PyObject *ufunc_call(PyObject *self, PyObject *args, PyObject *kwargs);
/* Raises for a failed ufunc library call: argument problems (broadcasting, shapes) are
 * ValueError as in NumPy; the rest as raise_status. */
PyObject *uf_raise(NjStatus st);
/* The array of an output object (writable ndarray).  Returns 0 or -1 with an exception. */
int uf_out_array(PyObject *o, int k, ArgSlot *slot, NjArray *arr);

/* _ufunc_type.c */
/* A new uninitialized array of NumPy's (its allocator): new reference, or NULL. */
PyObject *uf_new_array(const int64_t *shape, int nd, NjDType dt, int order_f);
/* numpy.empty(shape, dtype[, order='F']) and its NjArray. New reference, or NULL. */
PyObject *uf_empty(const int64_t *shape, int nd, NjDType dt, int order_f, NjArray *arr);

#endif
