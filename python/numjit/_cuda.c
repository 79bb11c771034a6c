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
 * device frees for cuda.defer_cleanup.  Those, and the functions over devices, copies, streams
 * and events, are _cuda_mem.c; _cuda.h is what the two share.
 */
#include "_cuda.h"

#define MAX_KARGS 16

NjContext *g_ctx;
PyObject *g_typing_error, *g_cuda_error, *g_unsupported_error, *g_syntax_error;
PyTypeObject *g_ndarray_type, *g_devarray_type, *g_module_type, *g_kernel_type,
    *g_launch_type;
PyObject *g_str_cai, *g_str_bind_now, *g_str_handle, *g_str_ptr, *g_str_cuda_stream,
    *g_str_value;

/* ---- errors --------------------------------------------------------------------------------- */
PyObject *raise_status(NjStatus st) {
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

int ensure_context(void) {
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

void c_strides(NjArray *a) {
    int64_t sd = nj_dtype_size(a->dtype);
    for (int i = a->ndim - 1; i >= 0; i--) {
        a->strides[i] = sd;
        sd *= a->shape[i];
    }
}

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
    if (PyModule_AddFunctions(m, memory_functions)) {
        Py_DECREF(m);
        return NULL;
    }
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
