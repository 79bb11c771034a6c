/* _cuda.c — the CPython extension behind numjit.cuda: kernel launch and device memory in C.
 *
 * Stable ABI (Py_LIMITED_API 3.11, an abi3 module) over the public C API's CUDA section
 * (include/numjit.h), with its own NjContext (the kernels' modules are compiled here, apart
 * from the @njit ones of numjit._numjit).  What is hot lives here:
 *
 *   kernel[griddim, blockdim(, stream(, shared_bytes))]   Kernel.__getitem__ → a Launch
 *   launch(*args)                                          Launch.__call__
 *
 * A launch classifies each argument into an NjValue, in this order: a DeviceArray of ours
 * (its descriptor is read straight from the object); a numpy.ndarray or another buffer
 * exporter (a host array: the library copies it in and back; a read-only buffer goes through
 * a private host copy so nothing is written into it); bool, int (int64, else uint64), float
 * (float64) and NumPy scalars (their dtype); last, any object with __cuda_array_interface__
 * (CuPy arrays, PyTorch tensors, numba-cuda arrays, and NumPy subclasses that carry it such
 * as cuda.mapped_array's: a device array, read from the dict).  Then
 * nj_kernel_launch runs with the GIL released; it specializes and compiles on first use.
 *
 * DeviceArray is the base of numjit.cuda.DeviceNDArray: a device allocation (owned or
 * borrowed) with shape, strides and dtype; the Python subclass adds NumPy-like properties and
 * the copies.  Streams and events are raw CUstream / CUevent handles (ints) at this level;
 * HostBuffer is a block of page-locked host memory (pinned_array's storage); defer() queues
 * device frees for cuda.defer_cleanup.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "numjit.h"
#include "_dtypes.h"

#define MAX_KARGS 16

#ifndef Py_XSETREF /* not in the limited API of 3.11 */
#define Py_XSETREF(dst, src)                                                                     \
    do {                                                                                         \
        PyObject *old_ = (PyObject *)(dst);                                                      \
        (dst) = (src);                                                                           \
        Py_XDECREF(old_);                                                                        \
    } while (0)
#endif

static NjContext *g_ctx;
static PyObject *g_typing_error, *g_cuda_error, *g_unsupported_error, *g_syntax_error;
static PyTypeObject *g_ndarray_type, *g_devarray_type, *g_module_type, *g_kernel_type,
    *g_launch_type;
static PyObject *g_str_cai, *g_str_bind_now, *g_str_handle, *g_str_ptr, *g_str_cuda_stream,
    *g_str_value;

/* ---- errors --------------------------------------------------------------------------------- */
static PyObject *raise_status(NjStatus st) {
    const char *msg = nj_error_message(g_ctx);
    if (!msg || !*msg)
        msg = nj_status_name(st);
    PyObject *cls = st == NJ_ERR_TYPE || st == NJ_ERR_ARGS || st == NJ_ERR_NAME ? g_typing_error
                    : st == NJ_ERR_UNSUPPORTED                                  ? g_unsupported_error
                    : st == NJ_ERR_SYNTAX                                       ? g_syntax_error
                                                                                : g_cuda_error;
    if (st == NJ_ERR_NOMEM)
        return PyErr_NoMemory();
    PyErr_SetString(cls ? cls : PyExc_RuntimeError, msg);
    return NULL;
}

static int ensure_context(void) {
    if (g_ctx)
        return 0;
    if (nj_context_new(&g_ctx)) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* ---- dtypes ----------------------------------------------------------------------------------- */
/* "<f4", "|u1", "<i8", "|b1", "<c16" → NjDType, or -1 */
static int typestr_dtype(const char *t) {
    if (t && !strcmp(t, "<c16"))
        return NJ_COMPLEX128;
    if (!t || strlen(t) != 3 || t[0] == '>')
        return -1;
    int sz = t[2] - '0';
    switch (t[1]) {
    case 'b': return sz == 1 ? NJ_BOOL : -1;
    case 'i': return sz == 1 ? NJ_INT8 : sz == 2 ? NJ_INT16 : sz == 4 ? NJ_INT32 : sz == 8 ? NJ_INT64 : -1;
    case 'u': return sz == 1 ? NJ_UINT8 : sz == 2 ? NJ_UINT16 : sz == 4 ? NJ_UINT32 : sz == 8 ? NJ_UINT64 : -1;
    case 'f': return sz == 4 ? NJ_FLOAT32 : sz == 8 ? NJ_FLOAT64 : -1;
    case 'c': return sz == 8 ? NJ_COMPLEX64 : -1;
    }
    return -1;
}

static void c_strides(NjArray *a) {
    int64_t sd = nj_dtype_size(a->dtype);
    for (int i = a->ndim - 1; i >= 0; i--) {
        a->strides[i] = sd;
        sd *= a->shape[i];
    }
}

/* ---- DeviceArray ------------------------------------------------------------------------------ */
typedef struct {
    PyObject_HEAD
    NjArray arr;
    void *alloc;     /* owned device allocation (freed with the object), or NULL */
    PyObject *base;  /* keeps a borrowed allocation's owner alive */
    PyObject *dict;
} DevArrayObject;

/* ---- deferred frees (cuda.defer_cleanup) -----------------------------------------------------
 * While g_defer_depth > 0 (inside `with cuda.defer_cleanup():`) device memory given up by dying
 * arrays is queued, not returned to the allocator, so that asynchronous work still using it on
 * a stream cannot see it reused; the queue is freed when the outermost block exits.  The GIL
 * guards the queue. */
static int g_defer_depth;
static void **g_deferred;
static Py_ssize_t g_ndeferred, g_cap_deferred;

static void device_free(void *p) {
    if (!p)
        return;
    if (g_defer_depth > 0) {
        if (g_ndeferred == g_cap_deferred) {
            Py_ssize_t cap = g_cap_deferred ? 2 * g_cap_deferred : 64;
            void **q = realloc(g_deferred, (size_t)cap * sizeof *q);
            if (q) {
                g_deferred = q;
                g_cap_deferred = cap;
            }
        }
        if (g_ndeferred < g_cap_deferred) {
            g_deferred[g_ndeferred++] = p;
            return;
        }
    }
    nj_cuda_free(g_ctx, p); /* no room to queue it: freed now, as without deferral */
}

static void flush_deferred(void) {
    for (Py_ssize_t i = 0; i < g_ndeferred; i++)
        nj_cuda_free(g_ctx, g_deferred[i]);
    g_ndeferred = 0;
}

static void devarray_dealloc(PyObject *self) {
    DevArrayObject *d = (DevArrayObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (d->alloc)
        device_free(d->alloc);
    Py_CLEAR(d->base);
    Py_CLEAR(d->dict);
    freefunc f = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    f(self);
    Py_DECREF(tp);
}

static int devarray_traverse(PyObject *self, visitproc visit, void *arg) {
    DevArrayObject *d = (DevArrayObject *)self;
    Py_VISIT(d->base);
    Py_VISIT(d->dict);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static int devarray_clear(PyObject *self) {
    DevArrayObject *d = (DevArrayObject *)self;
    Py_CLEAR(d->base);
    Py_CLEAR(d->dict);
    return 0;
}

/* _set(ptr, dtype_code, shape, strides, owns, base): the descriptor (strides None: C order). */
static PyObject *devarray_set(PyObject *self, PyObject *args) {
    DevArrayObject *d = (DevArrayObject *)self;
    unsigned long long ptr;
    int dt, owns;
    PyObject *shape, *strides, *base;
    if (!PyArg_ParseTuple(args, "KiOOpO", &ptr, &dt, &shape, &strides, &owns, &base))
        return NULL;
    if (dt < 0 || dt >= NJ_DTYPE_COUNT) {
        PyErr_SetString(PyExc_ValueError, "bad dtype code");
        return NULL;
    }
    Py_ssize_t nd = PySequence_Size(shape);
    if (nd < 0 || nd > NJ_MAX_NDIM) {
        PyErr_SetString(PyExc_ValueError, "bad shape");
        return NULL;
    }
    NjArray a;
    memset(&a, 0, sizeof a);
    a.data = (void *)(uintptr_t)ptr;
    a.dtype = (NjDType)dt;
    a.ndim = (int32_t)nd;
    for (Py_ssize_t i = 0; i < nd; i++) {
        PyObject *v = PySequence_GetItem(shape, i);
        a.shape[i] = v ? PyLong_AsLongLong(v) : -1;
        Py_XDECREF(v);
    }
    if (strides == Py_None) {
        c_strides(&a);
    } else {
        if (PySequence_Size(strides) != nd) {
            PyErr_SetString(PyExc_ValueError, "strides and shape differ in length");
            return NULL;
        }
        for (Py_ssize_t i = 0; i < nd; i++) {
            PyObject *v = PySequence_GetItem(strides, i);
            a.strides[i] = v ? PyLong_AsLongLong(v) : 0;
            Py_XDECREF(v);
        }
    }
    if (PyErr_Occurred())
        return NULL;
    if (d->alloc)
        device_free(d->alloc);
    d->arr = a;
    d->alloc = owns ? a.data : NULL;
    Py_XSETREF(d->base, base == Py_None ? NULL : Py_NewRef(base));
    Py_RETURN_NONE;
}

static PyObject *devarray_ptr(PyObject *self, void *unused) {
    return PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)((DevArrayObject *)self)->arr.data);
}

static PyMethodDef devarray_methods[] = {
    {"_set", devarray_set, METH_VARARGS, "_set(ptr, dtype_code, shape, strides, owns, base)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef devarray_getset[] = {
    {"device_pointer", devarray_ptr, NULL, "The device address of the first element.", NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef devarray_members[] = {
    {"__dictoffset__", T_PYSSIZET, offsetof(DevArrayObject, dict), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot devarray_slots[] = {
    {Py_tp_dealloc, devarray_dealloc},
    {Py_tp_traverse, devarray_traverse},
    {Py_tp_clear, devarray_clear},
    {Py_tp_methods, devarray_methods},
    {Py_tp_getset, devarray_getset},
    {Py_tp_members, devarray_members},
    {Py_tp_doc, "A device array's descriptor (base of numjit.cuda.DeviceNDArray)."},
    {0, NULL},
};

static PyType_Spec devarray_spec = {
    "numjit._cuda.DeviceArray", sizeof(DevArrayObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, devarray_slots,
};

/* ---- Module ---------------------------------------------------------------------------------- */
typedef struct {
    PyObject_HEAD
    NjModule *m; /* owned by g_ctx */
} ModuleObject;

static PyType_Slot module_slots[] = {
    {Py_tp_doc, "A compiled source module holding CUDA kernels."},
    {0, NULL},
};
static PyType_Spec module_spec = {"numjit._cuda.Module", sizeof(ModuleObject), 0,
                                  Py_TPFLAGS_DEFAULT, module_slots};

static PyObject *mod_compile_source(PyObject *self, PyObject *args) {
    const char *filename, *text;
    if (!PyArg_ParseTuple(args, "ss", &filename, &text) || ensure_context())
        return NULL;
    NjModule *m;
    NjStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = nj_compile_source(g_ctx, filename, text, &m);
    Py_END_ALLOW_THREADS
    if (st)
        return raise_status(st);
    ModuleObject *o = PyObject_New(ModuleObject, g_module_type);
    if (o)
        o->m = m;
    return (PyObject *)o;
}

/* ---- Kernel ---------------------------------------------------------------------------------- */
typedef struct {
    PyObject_HEAD
    NjKernel *k;
    PyObject *module; /* the ModuleObject */
    PyObject *dict;
} KernelObject;

typedef struct {
    PyObject_HEAD
    PyObject *kernel;
    unsigned grid[3], block[3], shared;
    void *stream;
} LaunchObject;

static void kernel_dealloc(PyObject *self) {
    KernelObject *k = (KernelObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    Py_CLEAR(k->module);
    Py_CLEAR(k->dict);
    freefunc f = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    f(self);
    Py_DECREF(tp);
}

static int kernel_traverse(PyObject *self, visitproc visit, void *arg) {
    KernelObject *k = (KernelObject *)self;
    Py_VISIT(k->module);
    Py_VISIT(k->dict);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static int kernel_clear(PyObject *self) {
    KernelObject *k = (KernelObject *)self;
    Py_CLEAR(k->module);
    Py_CLEAR(k->dict);
    return 0;
}

static int ensure_bound(KernelObject *k) {
    if (k->k)
        return 0;
    PyObject *r = PyObject_CallMethodObjArgs((PyObject *)k, g_str_bind_now, NULL);
    if (!r)
        return -1;
    Py_DECREF(r);
    if (!k->k) {
        PyErr_SetString(PyExc_RuntimeError, "numjit.cuda: the kernel did not bind");
        return -1;
    }
    return 0;
}

static PyObject *kernel_bind(PyObject *self, PyObject *args) {
    KernelObject *k = (KernelObject *)self;
    PyObject *mod;
    const char *name;
    if (!PyArg_ParseTuple(args, "O!s", g_module_type, &mod, &name))
        return NULL;
    NjKernel *nk;
    NjStatus st = nj_module_kernel(((ModuleObject *)mod)->m, name, &nk);
    if (st)
        return raise_status(st);
    k->k = nk;
    Py_XSETREF(k->module, Py_NewRef(mod));
    Py_RETURN_NONE;
}

static PyObject *kernel_is_bound(PyObject *self, PyObject *unused) {
    return PyBool_FromLong(((KernelObject *)self)->k != NULL);
}

static PyObject *kernel_compile(PyObject *self, PyObject *args) {
    KernelObject *k = (KernelObject *)self;
    const char *sig;
    if (!PyArg_ParseTuple(args, "s", &sig) || ensure_bound(k))
        return NULL;
    NjStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = nj_kernel_compile(k->k, sig);
    Py_END_ALLOW_THREADS
    if (st)
        return raise_status(st);
    Py_RETURN_NONE;
}

/* _ptx("NAME(types)", arch or None) -> PTX text */
static PyObject *kernel_ptx(PyObject *self, PyObject *args) {
    KernelObject *k = (KernelObject *)self;
    const char *sig, *arch = NULL;
    if (!PyArg_ParseTuple(args, "s|z", &sig, &arch) || ensure_bound(k))
        return NULL;
    char *text = NULL;
    NjStatus st;
    NjModule *m = ((ModuleObject *)k->module)->m;
    Py_BEGIN_ALLOW_THREADS
    st = nj_ptx(m, sig, arch, &text);
    Py_END_ALLOW_THREADS
    if (st)
        return raise_status(st);
    PyObject *r = PyUnicode_FromString(text);
    nj_free_string(text);
    return r;
}

/* A dimension: an int or a tuple of 1..3 ints. */
static int parse_dim(PyObject *o, unsigned out[3], const char *what) {
    out[0] = out[1] = out[2] = 1;
    if (PyLong_Check(o)) {
        long v = PyLong_AsLong(o);
        if (v < 0 || v > 0x7fffffffL) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "%s must be positive, not %ld", what, v);
            return -1;
        }
        out[0] = (unsigned)v;
        return 0;
    }
    if (PyTuple_Check(o) || PyList_Check(o)) {
        Py_ssize_t n = PySequence_Size(o);
        if (n < 1 || n > 3) {
            PyErr_Format(PyExc_ValueError, "%s must have 1 to 3 dimensions", what);
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *v = PySequence_GetItem(o, i);
            long x = v ? PyLong_AsLong(v) : -1;
            Py_XDECREF(v);
            if (x < 0 || x > 0x7fffffffL) {
                if (!PyErr_Occurred())
                    PyErr_Format(PyExc_ValueError, "%s must be positive ints", what);
                return -1;
            }
            out[i] = (unsigned)x;
        }
        return 0;
    }
    /* NumPy integers and anything with __index__ */
    PyObject *idx = PyNumber_Index(o);
    if (!idx) {
        PyErr_Format(PyExc_TypeError, "%s must be an int or a tuple of ints", what);
        return -1;
    }
    int r = parse_dim(idx, out, what);
    Py_DECREF(idx);
    return r;
}

/* A stream: None/0 (default), an int handle, or an object with .handle (int or ctypes
 * c_void_p), .ptr (CuPy) or .cuda_stream (PyTorch). */
static int parse_stream(PyObject *o, void **out) {
    *out = NULL;
    if (o == Py_None)
        return 0;
    PyObject *h = NULL;
    if (PyLong_Check(o))
        h = Py_NewRef(o);
    else {
        PyObject *names[3] = {g_str_handle, g_str_ptr, g_str_cuda_stream};
        for (int i = 0; i < 3 && !h; i++) {
            h = PyObject_GetAttr(o, names[i]);
            if (!h)
                PyErr_Clear();
        }
        if (h && !PyLong_Check(h) && h != Py_None) { /* ctypes.c_void_p */
            PyObject *v = PyObject_GetAttr(h, g_str_value);
            Py_DECREF(h);
            h = v;
            if (!h)
                PyErr_Clear();
        }
    }
    if (!h) {
        PyErr_SetString(PyExc_TypeError, "a stream must be a numjit.cuda stream, an int handle, "
                                         "or have .handle / .ptr / .cuda_stream");
        return -1;
    }
    if (h != Py_None)
        *out = (void *)(uintptr_t)PyLong_AsUnsignedLongLong(h);
    Py_DECREF(h);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *kernel_subscript(PyObject *self, PyObject *key) {
    LaunchObject *L = PyObject_GC_New(LaunchObject, g_launch_type);
    if (!L)
        return NULL;
    L->kernel = Py_NewRef(self);
    L->shared = 0;
    L->stream = NULL;
    L->grid[0] = L->grid[1] = L->grid[2] = L->block[0] = L->block[1] = L->block[2] = 1;
    PyObject_GC_Track((PyObject *)L);
    Py_ssize_t n = PyTuple_Check(key) ? PyTuple_Size(key) : -1;
    if (n < 2 || n > 4) {
        PyErr_SetString(PyExc_ValueError, "a launch needs kernel[griddim, blockdim] or "
                                          "kernel[griddim, blockdim, stream, sharedmem]");
        goto fail;
    }
    if (parse_dim(PyTuple_GetItem(key, 0), L->grid, "griddim") ||
        parse_dim(PyTuple_GetItem(key, 1), L->block, "blockdim"))
        goto fail;
    if (n >= 3 && parse_stream(PyTuple_GetItem(key, 2), &L->stream))
        goto fail;
    if (n == 4) {
        long s = PyLong_AsLong(PyTuple_GetItem(key, 3));
        if (s < 0 || PyErr_Occurred()) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "sharedmem must be >= 0");
            goto fail;
        }
        L->shared = (unsigned)s;
    }
    return (PyObject *)L;
fail:
    Py_DECREF(L);
    return NULL;
}

static PyMethodDef kernel_methods[] = {
    {"_bind", kernel_bind, METH_VARARGS, "_bind(module, name): attach to a compiled module."},
    {"_is_bound", kernel_is_bound, METH_NOARGS, "True once bound."},
    {"_compile", kernel_compile, METH_VARARGS, "_compile('void(float32[:])'): compile now."},
    {"_ptx", kernel_ptx, METH_VARARGS, "_ptx('NAME(types)', arch=None) -> PTX text."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef kernel_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef kernel_members[] = {
    {"__dictoffset__", T_PYSSIZET, offsetof(KernelObject, dict), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot kernel_slots[] = {
    {Py_tp_dealloc, kernel_dealloc},
    {Py_tp_traverse, kernel_traverse},
    {Py_tp_clear, kernel_clear},
    {Py_tp_methods, kernel_methods},
    {Py_tp_getset, kernel_getset},
    {Py_tp_members, kernel_members},
    {Py_mp_subscript, kernel_subscript},
    {Py_tp_doc, "A CUDA kernel (base of numjit.cuda.Kernel)."},
    {0, NULL},
};

static PyType_Spec kernel_spec = {
    "numjit._cuda.Kernel", sizeof(KernelObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, kernel_slots,
};

/* ---- Launch ---------------------------------------------------------------------------------- */
typedef struct KSlot {
    NjArray arr;
    Py_buffer buf;
    int has_buf;
    void *host_copy; /* read-only buffer: a private copy of its span */
} KSlot;

static void release(KSlot *s, int n) {
    for (int i = 0; i < n; i++) {
        if (s[i].has_buf)
            PyBuffer_Release(&s[i].buf);
        free(s[i].host_copy);
        s[i].has_buf = 0;
        s[i].host_copy = NULL;
    }
}

static int arg_error(int i, PyObject *o, const char *why) {
    PyObject *tn = PyType_GetName(Py_TYPE(o));
    PyErr_Format(g_typing_error ? g_typing_error : PyExc_TypeError,
                 "kernel argument %d (a value of type '%U'): %s", i + 1, tn, why);
    Py_XDECREF(tn);
    return -1;
}

/* An object with __cuda_array_interface__ → a device array. */
static int from_cai(PyObject *o, PyObject *cai, int i, NjArray *a) {
    if (!PyDict_Check(cai))
        return arg_error(i, o, "__cuda_array_interface__ is not a dict");
    PyObject *shape = PyDict_GetItemString(cai, "shape");
    PyObject *typestr = PyDict_GetItemString(cai, "typestr");
    PyObject *data = PyDict_GetItemString(cai, "data");
    PyObject *strides = PyDict_GetItemString(cai, "strides");
    if (!shape || !typestr || !data || !PyTuple_Check(shape) || !PyTuple_Check(data) ||
        !PyUnicode_Check(typestr))
        return arg_error(i, o, "__cuda_array_interface__ lacks shape, typestr or data");
    int dt = typestr_dtype(PyUnicode_AsUTF8AndSize(typestr, NULL));
    if (dt < 0)
        return arg_error(i, o, "unsupported element type in __cuda_array_interface__");
    Py_ssize_t nd = PyTuple_Size(shape);
    if (nd > NJ_MAX_NDIM)
        return arg_error(i, o, "too many dimensions");
    memset(a, 0, sizeof *a);
    a->dtype = (NjDType)dt;
    a->ndim = (int32_t)nd;
    a->data = (void *)(uintptr_t)PyLong_AsUnsignedLongLong(PyTuple_GetItem(data, 0));
    for (Py_ssize_t d = 0; d < nd; d++)
        a->shape[d] = PyLong_AsLongLong(PyTuple_GetItem(shape, d));
    if (!strides || strides == Py_None)
        c_strides(a);
    else
        for (Py_ssize_t d = 0; d < nd && d < PyTuple_Size(strides); d++)
            a->strides[d] = PyLong_AsLongLong(PyTuple_GetItem(strides, d));
    return PyErr_Occurred() ? -1 : 0;
}

static int classify(PyObject *o, int i, NjValue *v, KSlot *s) {
    memset(v, 0, sizeof *v);
    if (PyObject_TypeCheck(o, g_devarray_type)) {
        s->arr = ((DevArrayObject *)o)->arr;
        *v = nj_dev_arr(&s->arr);
        return 0;
    }
    if (PyBool_Check(o)) {
        *v = nj_bool(o == Py_True);
        return 0;
    }
    if (PyComplex_Check(o)) {
        *v = nj_c128(PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o));
        return 0;
    }
    if (PyFloat_Check(o)) {
        *v = nj_f64(PyFloat_AsDouble(o));
        return 0;
    }
    if (PyLong_Check(o)) {
        int ovf = 0;
        long long x = PyLong_AsLongLongAndOverflow(o, &ovf);
        if (x == -1 && PyErr_Occurred())
            return -1;
        if (!ovf) {
            *v = nj_i64(x);
            return 0;
        }
        unsigned long long u = ovf > 0 ? PyLong_AsUnsignedLongLong(o) : 0;
        if (ovf < 0 || (u == (unsigned long long)-1 && PyErr_Occurred())) {
            PyErr_Clear();
            return arg_error(i, o, "integer too large for int64 and uint64");
        }
        v->kind = NJ_KIND_SCALAR;
        v->dtype = NJ_UINT64;
        v->v.u = u;
        return 0;
    }
    bool is_nd = g_ndarray_type && PyObject_TypeCheck(o, g_ndarray_type);
    if (!is_nd || Py_TYPE(o) != g_ndarray_type) {
        /* a device array first: CuPy's arrays also expose a buffer hook that refuses; an
         * ndarray subclass with the interface is host memory mapped into the device
         * (cuda.mapped_array), used in place */
        PyObject *cai = PyObject_GetAttr(o, g_str_cai);
        if (cai) {
            int r = from_cai(o, cai, i, &s->arr);
            Py_DECREF(cai);
            if (r)
                return r;
            *v = nj_dev_arr(&s->arr);
            return 0;
        }
        PyErr_Clear();
    }
    if (is_nd || PyObject_CheckBuffer(o)) {
        bool ro = false;
        if (PyObject_GetBuffer(o, &s->buf, PyBUF_RECORDS) != 0) {
            PyErr_Clear();
            if (PyObject_GetBuffer(o, &s->buf, PyBUF_RECORDS_RO) != 0)
                return arg_error(i, o, "its buffer cannot be read");
            ro = true;
        }
        s->has_buf = 1;
        Py_buffer *b = &s->buf;
        int dt = nj_fmt_dtype(b->format, b->itemsize);
        if (dt < 0)
            return arg_error(i, o, "unsupported element type");
        if (b->ndim > NJ_MAX_NDIM)
            return arg_error(i, o, "too many dimensions");
        if (b->ndim == 0 && !is_nd) { /* a NumPy scalar */
            v->kind = NJ_KIND_SCALAR;
            v->dtype = (NjDType)dt;
            const void *p = b->buf;
            switch (dt) {
            case NJ_BOOL: v->v.b = *(const uint8_t *)p != 0; break;
            case NJ_INT8: v->v.i = *(const int8_t *)p; break;
            case NJ_INT16: v->v.i = *(const int16_t *)p; break;
            case NJ_INT32: v->v.i = *(const int32_t *)p; break;
            case NJ_INT64: v->v.i = *(const int64_t *)p; break;
            case NJ_UINT8: v->v.u = *(const uint8_t *)p; break;
            case NJ_UINT16: v->v.u = *(const uint16_t *)p; break;
            case NJ_UINT32: v->v.u = *(const uint32_t *)p; break;
            case NJ_UINT64: v->v.u = *(const uint64_t *)p; break;
            case NJ_FLOAT32: v->v.f = *(const float *)p; break;
            case NJ_COMPLEX64:
                v->v.c[0] = ((const float *)p)[0], v->v.c[1] = ((const float *)p)[1];
                break;
            case NJ_COMPLEX128: memcpy(v->v.c, p, sizeof v->v.c); break;
            default: v->v.f = *(const double *)p; break;
            }
            return 0;
        }
        NjArray *a = &s->arr;
        memset(a, 0, sizeof *a);
        a->data = b->buf;
        a->ndim = b->ndim;
        a->dtype = (NjDType)dt;
        for (int d = 0; d < b->ndim; d++) {
            a->shape[d] = b->shape[d];
            a->strides[d] = b->strides ? b->strides[d] : 0;
        }
        if (!b->strides)
            c_strides(a);
        if (ro) { /* copy its span: the launch copies results back into the private copy */
            int64_t lo = 0, hi = b->itemsize;
            bool empty = false;
            for (int d = 0; d < a->ndim; d++) {
                int64_t ext = (a->shape[d] - 1) * a->strides[d];
                empty |= a->shape[d] == 0;
                if (ext < 0)
                    lo += ext;
                else
                    hi += ext;
            }
            if (!empty) {
                s->host_copy = malloc((size_t)(hi - lo));
                if (!s->host_copy) {
                    PyErr_NoMemory();
                    return -1;
                }
                memcpy(s->host_copy, (char *)a->data + lo, (size_t)(hi - lo));
                a->data = (char *)s->host_copy - lo;
            }
        }
        *v = nj_arr(a);
        return 0;
    }
    return arg_error(i, o, "a kernel takes arrays (host or device) and numbers");
}

static PyObject *launch_call(PyObject *self, PyObject *args, PyObject *kwargs) {
    LaunchObject *L = (LaunchObject *)self;
    KernelObject *k = (KernelObject *)L->kernel;
    if (kwargs && PyDict_Size(kwargs)) {
        PyErr_SetString(PyExc_TypeError, "a kernel launch takes no keyword arguments");
        return NULL;
    }
    if (ensure_bound(k))
        return NULL;
    Py_ssize_t n = PyTuple_Size(args);
    if (n > MAX_KARGS) {
        PyErr_Format(g_typing_error, "a kernel takes at most %d arguments", MAX_KARGS);
        return NULL;
    }
    NjValue vals[MAX_KARGS];
    KSlot slots[MAX_KARGS];
    for (Py_ssize_t i = 0; i < n; i++) {
        slots[i].has_buf = 0;
        slots[i].host_copy = NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (classify(PyTuple_GetItem(args, i), (int)i, &vals[i], &slots[i])) {
            release(slots, (int)n);
            return NULL;
        }
    NjStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = nj_kernel_launch(k->k, L->grid, L->block, L->shared, L->stream, vals, (int)n);
    Py_END_ALLOW_THREADS
    release(slots, (int)n);
    if (st)
        return raise_status(st);
    Py_RETURN_NONE;
}

static void launch_dealloc(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    Py_CLEAR(((LaunchObject *)self)->kernel);
    PyObject_GC_Del(self);
    Py_DECREF(tp);
}

static int launch_traverse(PyObject *self, visitproc visit, void *arg) {
    Py_VISIT(((LaunchObject *)self)->kernel);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static PyType_Slot launch_slots[] = {
    {Py_tp_dealloc, launch_dealloc},
    {Py_tp_traverse, launch_traverse},
    {Py_tp_call, launch_call},
    {Py_tp_doc, "A configured kernel launch: call it with the kernel's arguments."},
    {0, NULL},
};
static PyType_Spec launch_spec = {"numjit._cuda.Launch", sizeof(LaunchObject), 0,
                                  Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, launch_slots};

/* ---- device memory and streams ---------------------------------------------------------------- */
static PyObject *f_device_count(PyObject *self, PyObject *unused) {
    int n = 0;
    if (ensure_context())
        return NULL;
    NjStatus st = nj_cuda_device_count(g_ctx, &n);
    if (st)
        return raise_status(st);
    return PyLong_FromLong(n);
}

static PyObject *f_last_error(PyObject *self, PyObject *unused) {
    return PyUnicode_FromString(g_ctx ? nj_error_message(g_ctx) : "");
}

static PyObject *f_set_device(PyObject *self, PyObject *args) {
    int d;
    if (!PyArg_ParseTuple(args, "i", &d) || ensure_context())
        return NULL;
    NjStatus st = nj_cuda_set_device(g_ctx, d);
    return st ? raise_status(st) : Py_NewRef(Py_None);
}

static PyObject *f_device_info(PyObject *self, PyObject *unused) {
    char name[256];
    int ma = 0, mi = 0;
    if (ensure_context())
        return NULL;
    NjStatus st = nj_cuda_device_name(g_ctx, name, sizeof name, &ma, &mi);
    if (st)
        return raise_status(st);
    return Py_BuildValue("(isii)", nj_cuda_get_device(), name, ma, mi);
}

static PyObject *f_malloc(PyObject *self, PyObject *args) {
    unsigned long long n;
    if (!PyArg_ParseTuple(args, "K", &n) || ensure_context())
        return NULL;
    void *p;
    NjStatus st = nj_cuda_malloc(g_ctx, (size_t)n, &p);
    return st ? raise_status(st) : PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)p);
}

static PyObject *f_free(PyObject *self, PyObject *args) {
    unsigned long long p;
    if (!PyArg_ParseTuple(args, "K", &p) || ensure_context())
        return NULL;
    if (g_defer_depth > 0) {
        device_free((void *)(uintptr_t)p);
        Py_RETURN_NONE;
    }
    NjStatus st = nj_cuda_free(g_ctx, (void *)(uintptr_t)p);
    return st ? raise_status(st) : Py_NewRef(Py_None);
}

static PyObject *f_defer(PyObject *self, PyObject *args) {
    int on;
    if (!PyArg_ParseTuple(args, "p", &on))
        return NULL;
    if (on)
        g_defer_depth++;
    else if (g_defer_depth > 0 && --g_defer_depth == 0)
        flush_deferred();
    return PyLong_FromLong(g_defer_depth);
}

/* Frees what deferral holds now (numba-cuda's deallocations.clear()) and returns the number of
 * blocks that were pending. */
static PyObject *f_flush_deferred(PyObject *self, PyObject *unused) {
    Py_ssize_t n = g_ndeferred;
    if (g_ctx)
        flush_deferred();
    return PyLong_FromSsize_t(n);
}

/* htod(dptr, host_buffer_obj, offset_lo, nbytes, stream) copies nbytes from the buffer's
 * start + offset_lo; dtoh likewise into a writable buffer. */
static PyObject *copy_host(PyObject *args, bool to_device) {
    unsigned long long dptr, n, stream;
    long long lo;
    PyObject *obj;
    if (!PyArg_ParseTuple(args, "KOLKK", &dptr, &obj, &lo, &n, &stream) || ensure_context())
        return NULL;
    Py_buffer b;
    if (PyObject_GetBuffer(obj, &b, to_device ? PyBUF_RECORDS_RO : PyBUF_RECORDS) != 0)
        return NULL;
    char *host = (char *)b.buf + lo;
    NjStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = to_device ? nj_cuda_memcpy_htod(g_ctx, (void *)(uintptr_t)dptr, host, (size_t)n,
                                         (NjStream)(uintptr_t)stream)
                   : nj_cuda_memcpy_dtoh(g_ctx, host, (void *)(uintptr_t)dptr, (size_t)n,
                                         (NjStream)(uintptr_t)stream);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    return st ? raise_status(st) : Py_NewRef(Py_None);
}
static PyObject *f_htod(PyObject *self, PyObject *args) { return copy_host(args, true); }
static PyObject *f_dtoh(PyObject *self, PyObject *args) { return copy_host(args, false); }

static PyObject *f_dtod(PyObject *self, PyObject *args) {
    unsigned long long dst, src, n, stream;
    if (!PyArg_ParseTuple(args, "KKKK", &dst, &src, &n, &stream) || ensure_context())
        return NULL;
    NjStatus st = nj_cuda_memcpy_dtod(g_ctx, (void *)(uintptr_t)dst, (void *)(uintptr_t)src,
                                      (size_t)n, (NjStream)(uintptr_t)stream);
    return st ? raise_status(st) : Py_NewRef(Py_None);
}

static PyObject *f_synchronize(PyObject *self, PyObject *unused) {
    if (ensure_context())
        return NULL;
    NjStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = nj_cuda_synchronize(g_ctx);
    Py_END_ALLOW_THREADS
    return st ? raise_status(st) : Py_NewRef(Py_None);
}

static PyObject *f_stream_new(PyObject *self, PyObject *unused) {
    if (ensure_context())
        return NULL;
    NjStream s;
    NjStatus st = nj_cuda_stream_new(g_ctx, &s);
    return st ? raise_status(st) : PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)s);
}

static PyObject *f_stream_free(PyObject *self, PyObject *args) {
    unsigned long long s;
    if (!PyArg_ParseTuple(args, "K", &s) || ensure_context())
        return NULL;
    NjStatus st = nj_cuda_stream_free(g_ctx, (NjStream)(uintptr_t)s);
    return st ? raise_status(st) : Py_NewRef(Py_None);
}

static PyObject *f_stream_sync(PyObject *self, PyObject *args) {
    unsigned long long s;
    if (!PyArg_ParseTuple(args, "K", &s) || ensure_context())
        return NULL;
    NjStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = nj_cuda_stream_sync(g_ctx, (NjStream)(uintptr_t)s);
    Py_END_ALLOW_THREADS
    return st ? raise_status(st) : Py_NewRef(Py_None);
}

/* ---- events --------------------------------------------------------------------------------- */
#define HANDLE(x) ((void *)(uintptr_t)(x))

static PyObject *f_event_new(PyObject *self, PyObject *args) {
    int timing;
    if (!PyArg_ParseTuple(args, "p", &timing) || ensure_context())
        return NULL;
    NjEvent e;
    NjStatus st = nj_cuda_event_new(g_ctx, timing, &e);
    return st ? raise_status(st) : PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)e);
}

static PyObject *f_event_free(PyObject *self, PyObject *args) {
    unsigned long long e;
    if (!PyArg_ParseTuple(args, "K", &e) || ensure_context())
        return NULL;
    NjStatus st = nj_cuda_event_free(g_ctx, HANDLE(e));
    return st ? raise_status(st) : Py_NewRef(Py_None);
}

static PyObject *f_event_record(PyObject *self, PyObject *args) {
    unsigned long long e, s;
    if (!PyArg_ParseTuple(args, "KK", &e, &s) || ensure_context())
        return NULL;
    NjStatus st = nj_cuda_event_record(g_ctx, HANDLE(e), HANDLE(s));
    return st ? raise_status(st) : Py_NewRef(Py_None);
}

static PyObject *f_event_sync(PyObject *self, PyObject *args) {
    unsigned long long e;
    if (!PyArg_ParseTuple(args, "K", &e) || ensure_context())
        return NULL;
    NjStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = nj_cuda_event_sync(g_ctx, HANDLE(e));
    Py_END_ALLOW_THREADS
    return st ? raise_status(st) : Py_NewRef(Py_None);
}

static PyObject *f_event_query(PyObject *self, PyObject *args) {
    unsigned long long e;
    if (!PyArg_ParseTuple(args, "K", &e) || ensure_context())
        return NULL;
    int done = 0;
    NjStatus st = nj_cuda_event_query(g_ctx, HANDLE(e), &done);
    return st ? raise_status(st) : PyBool_FromLong(done);
}

static PyObject *f_event_elapsed(PyObject *self, PyObject *args) {
    unsigned long long a, b;
    if (!PyArg_ParseTuple(args, "KK", &a, &b) || ensure_context())
        return NULL;
    float ms = 0.0f;
    NjStatus st = nj_cuda_event_elapsed(g_ctx, HANDLE(a), HANDLE(b), &ms);
    return st ? raise_status(st) : PyFloat_FromDouble(ms);
}

static PyObject *f_stream_wait_event(PyObject *self, PyObject *args) {
    unsigned long long s, e;
    if (!PyArg_ParseTuple(args, "KK", &s, &e) || ensure_context())
        return NULL;
    NjStatus st = nj_cuda_stream_wait_event(g_ctx, HANDLE(s), HANDLE(e));
    return st ? raise_status(st) : Py_NewRef(Py_None);
}

/* ---- the device: memory information, attributes, the allocator's cache ----------------------- */
static PyObject *f_mem_info(PyObject *self, PyObject *unused) {
    if (ensure_context())
        return NULL;
    size_t fr = 0, tot = 0;
    NjStatus st = nj_cuda_mem_info(g_ctx, &fr, &tot);
    return st ? raise_status(st) : Py_BuildValue("(KK)", (unsigned long long)fr, (unsigned long long)tot);
}

static PyObject *f_device_attribute(PyObject *self, PyObject *args) {
    int attr, v = 0;
    if (!PyArg_ParseTuple(args, "i", &attr) || ensure_context())
        return NULL;
    NjStatus st = nj_cuda_device_attribute(g_ctx, attr, &v);
    return st ? raise_status(st) : PyLong_FromLong(v);
}

static PyObject *f_mem_trim(PyObject *self, PyObject *unused) {
    if (ensure_context())
        return NULL;
    NjStatus st = nj_cuda_mem_trim(g_ctx);
    return st ? raise_status(st) : Py_NewRef(Py_None);
}

/* ---- page-locked host memory ------------------------------------------------------------------
 * HostBuffer owns a cuMemHostAlloc block and exports it through the buffer protocol, so that
 * numpy.frombuffer(buffer) is an array over pinned memory that keeps the buffer (its base)
 * alive; the block goes back to the driver when the last array over it dies. */
typedef struct {
    PyObject_HEAD
    void *p;
    Py_ssize_t n;
} HostBufObject;

static PyTypeObject *g_hostbuf_type;

static void hostbuf_dealloc(PyObject *self) {
    HostBufObject *h = (HostBufObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    if (h->p && g_ctx)
        nj_cuda_host_free(g_ctx, h->p);
    freefunc f = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    f(self);
    Py_DECREF(tp);
}

static int hostbuf_getbuffer(PyObject *self, Py_buffer *view, int flags) {
    HostBufObject *h = (HostBufObject *)self;
    return PyBuffer_FillInfo(view, self, h->p, h->n, 0, flags);
}

static void hostbuf_releasebuffer(PyObject *self, Py_buffer *view) {
    (void)self;
    (void)view;
}

static PyObject *hostbuf_ptr(PyObject *self, void *unused) {
    return PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)((HostBufObject *)self)->p);
}

static PyGetSetDef hostbuf_getset[] = {
    {"pointer", hostbuf_ptr, NULL, "The host address of the block.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot hostbuf_slots[] = {
    {Py_tp_dealloc, hostbuf_dealloc},
    {Py_bf_getbuffer, hostbuf_getbuffer},
    {Py_bf_releasebuffer, hostbuf_releasebuffer},
    {Py_tp_getset, hostbuf_getset},
    {Py_tp_doc, "A block of page-locked host memory (cuda.pinned_array's storage)."},
    {0, NULL},
};
static PyType_Spec hostbuf_spec = {"numjit._cuda.HostBuffer", sizeof(HostBufObject), 0,
                                   Py_TPFLAGS_DEFAULT, hostbuf_slots};

static PyObject *f_host_alloc(PyObject *self, PyObject *args) {
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "n", &n) || ensure_context())
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "host_alloc: negative size");
        return NULL;
    }
    void *p = NULL;
    NjStatus st = nj_cuda_host_alloc(g_ctx, (size_t)n, &p);
    if (st)
        return raise_status(st);
    HostBufObject *h = PyObject_New(HostBufObject, g_hostbuf_type);
    if (!h) {
        nj_cuda_host_free(g_ctx, p);
        return NULL;
    }
    h->p = p;
    h->n = n;
    return (PyObject *)h;
}

/* host_register(address, nbytes, mapped) -> the address when this call pinned it, 0 when it
 * was pinned already (nothing to undo); host_unregister(address); host_device_pointer(address)
 * -> the device address of mapped host memory. */
static PyObject *f_host_register(PyObject *self, PyObject *args) {
    unsigned long long p, n;
    int mapped;
    if (!PyArg_ParseTuple(args, "KKp", &p, &n, &mapped) || ensure_context())
        return NULL;
    int reg = 0;
    NjStatus st = nj_cuda_host_register(g_ctx, HANDLE(p), (size_t)n, mapped, &reg);
    if (st)
        return raise_status(st);
    return PyLong_FromUnsignedLongLong(reg ? p : 0);
}

static PyObject *f_host_device_pointer(PyObject *self, PyObject *args) {
    unsigned long long p;
    if (!PyArg_ParseTuple(args, "K", &p) || ensure_context())
        return NULL;
    void *dp = NULL;
    NjStatus st = nj_cuda_host_device_pointer(g_ctx, HANDLE(p), &dp);
    return st ? raise_status(st) : PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)dp);
}

static PyObject *f_host_unregister(PyObject *self, PyObject *args) {
    unsigned long long p;
    if (!PyArg_ParseTuple(args, "K", &p) || ensure_context())
        return NULL;
    NjStatus st = nj_cuda_host_unregister(g_ctx, HANDLE(p));
    return st ? raise_status(st) : Py_NewRef(Py_None);
}

/* _configure(errors_module, ndarray_type, DeviceNDArray base check) */
static PyObject *f_configure(PyObject *self, PyObject *args) {
    PyObject *errors, *ndarray;
    if (!PyArg_ParseTuple(args, "OO", &errors, &ndarray))
        return NULL;
    Py_XSETREF(g_typing_error, PyObject_GetAttrString(errors, "TypingError"));
    Py_XSETREF(g_cuda_error, PyObject_GetAttrString(errors, "CudaError"));
    Py_XSETREF(g_unsupported_error, PyObject_GetAttrString(errors, "UnsupportedError"));
    Py_XSETREF(g_syntax_error, PyObject_GetAttrString(errors, "NumjitSyntaxError"));
    if (!g_typing_error || !g_cuda_error || !g_unsupported_error || !g_syntax_error)
        return NULL;
    if (!PyType_Check(ndarray)) {
        PyErr_SetString(PyExc_TypeError, "ndarray must be a type");
        return NULL;
    }
    Py_XSETREF(g_ndarray_type, (PyTypeObject *)Py_NewRef(ndarray));
    Py_RETURN_NONE;
}

static PyMethodDef functions[] = {
    {"compile_source", mod_compile_source, METH_VARARGS, "compile_source(filename, text) -> Module"},
    {"device_count", f_device_count, METH_NOARGS, "Number of CUDA devices (0 without a driver)."},
    {"last_error", f_last_error, METH_NOARGS, "The last error message of this thread."},
    {"set_device", f_set_device, METH_VARARGS, "set_device(ordinal)"},
    {"device_info", f_device_info, METH_NOARGS, "(ordinal, name, cc_major, cc_minor)"},
    {"malloc", f_malloc, METH_VARARGS, "malloc(nbytes) -> device pointer"},
    {"free", f_free, METH_VARARGS, "free(ptr)"},
    {"htod", f_htod, METH_VARARGS, "htod(dptr, host, lo, nbytes, stream)"},
    {"dtoh", f_dtoh, METH_VARARGS, "dtoh(dptr, host, lo, nbytes, stream)"},
    {"dtod", f_dtod, METH_VARARGS, "dtod(dst, src, nbytes, stream)"},
    {"synchronize", f_synchronize, METH_NOARGS, "Waits for the current device."},
    {"stream_new", f_stream_new, METH_NOARGS, "stream_new() -> handle"},
    {"stream_free", f_stream_free, METH_VARARGS, "stream_free(handle)"},
    {"stream_sync", f_stream_sync, METH_VARARGS, "stream_sync(handle)"},
    {"event_new", f_event_new, METH_VARARGS, "event_new(timing) -> handle"},
    {"event_free", f_event_free, METH_VARARGS, "event_free(handle)"},
    {"event_record", f_event_record, METH_VARARGS, "event_record(handle, stream)"},
    {"event_sync", f_event_sync, METH_VARARGS, "event_sync(handle)"},
    {"event_query", f_event_query, METH_VARARGS, "event_query(handle) -> bool"},
    {"event_elapsed", f_event_elapsed, METH_VARARGS, "event_elapsed(start, end) -> ms"},
    {"stream_wait_event", f_stream_wait_event, METH_VARARGS, "stream_wait_event(stream, event)"},
    {"mem_info", f_mem_info, METH_NOARGS, "(free, total) bytes of the current device"},
    {"device_attribute", f_device_attribute, METH_VARARGS, "device_attribute(CUdevice_attribute)"},
    {"mem_trim", f_mem_trim, METH_NOARGS, "Returns the allocator's cached blocks to the driver."},
    {"host_alloc", f_host_alloc, METH_VARARGS, "host_alloc(nbytes) -> HostBuffer (pinned)"},
    {"host_register", f_host_register, METH_VARARGS, "host_register(addr, n, mapped) -> addr or 0"},
    {"host_device_pointer", f_host_device_pointer, METH_VARARGS, "host_device_pointer(addr)"},
    {"host_unregister", f_host_unregister, METH_VARARGS, "host_unregister(address)"},
    {"defer", f_defer, METH_VARARGS, "defer(on) -> depth: deferral of device frees"},
    {"flush_deferred", f_flush_deferred, METH_NOARGS, "Frees the deferred blocks now."},
    {"_configure", f_configure, METH_VARARGS, "_configure(errors, ndarray)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef cuda_module = {PyModuleDef_HEAD_INIT, "_cuda",
                                         "numjit.cuda's launch path and device memory.", -1,
                                         functions, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__cuda(void) {
    PyObject *m = PyModule_Create(&cuda_module);
    if (!m)
        return NULL;
    g_devarray_type = (PyTypeObject *)PyType_FromSpec(&devarray_spec);
    g_module_type = (PyTypeObject *)PyType_FromSpec(&module_spec);
    g_kernel_type = (PyTypeObject *)PyType_FromSpec(&kernel_spec);
    g_launch_type = (PyTypeObject *)PyType_FromSpec(&launch_spec);
    g_hostbuf_type = (PyTypeObject *)PyType_FromSpec(&hostbuf_spec);
    g_str_cai = PyUnicode_InternFromString("__cuda_array_interface__");
    g_str_bind_now = PyUnicode_InternFromString("_bind_now");
    g_str_handle = PyUnicode_InternFromString("handle");
    g_str_ptr = PyUnicode_InternFromString("ptr");
    g_str_cuda_stream = PyUnicode_InternFromString("cuda_stream");
    g_str_value = PyUnicode_InternFromString("value");
    if (!g_devarray_type || !g_module_type || !g_kernel_type || !g_launch_type || !g_hostbuf_type ||
        !g_str_cai || PyModule_AddObjectRef(m, "HostBuffer", (PyObject *)g_hostbuf_type) ||
        PyModule_AddObjectRef(m, "DeviceArray", (PyObject *)g_devarray_type) ||
        PyModule_AddObjectRef(m, "Module", (PyObject *)g_module_type) ||
        PyModule_AddObjectRef(m, "Kernel", (PyObject *)g_kernel_type) ||
        PyModule_AddObjectRef(m, "Launch", (PyObject *)g_launch_type)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
