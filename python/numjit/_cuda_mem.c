/* _cuda_mem.c — device memory of the _cuda extension: DeviceArray (the base of
 * numjit.cuda.DeviceNDArray: a device allocation, owned or borrowed, with shape, strides and
 * dtype), the queue of deferred frees (cuda.defer_cleanup), HostBuffer (page-locked host
 * memory exported through the buffer protocol), and the module functions over devices,
 * device memory, copies, streams and events: thin wrappers of the public C API's CUDA section
 * on the extension's context.  Streams and events are raw CUstream / CUevent handles (ints).
 */
#include "_cuda.h"


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

void flush_deferred(void) {
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

PyType_Spec devarray_spec = {
    "numjit._cuda.DeviceArray", sizeof(DevArrayObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, devarray_slots,
};

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

PyTypeObject *g_hostbuf_type;

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
PyType_Spec hostbuf_spec = {"numjit._cuda.HostBuffer", sizeof(HostBufObject), 0,
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

PyMethodDef memory_functions[] = {
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
    {NULL, NULL, 0, NULL},
};
