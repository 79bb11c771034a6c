/* _gen.c — the generator object that calling a jitted generator from Python gives.
 *
 * A generator of numbers is compiled as a coroutine (codegen/genobj.c): calling its entry runs
 * nothing of the body and returns four int64s, {frame, next, destroy, dtype}.  The object keeps
 * them with the dispatcher (whose raise sites render an exception) and the call's arguments
 * (arrays the generator reads are the caller's memory: they must outlive it).  Each next()
 * resumes the coroutine to its next yield:
 *
 *   next(frame, &value) == 0          the value, boxed as a result of that dtype is;
 *   == GEN_END (-2)                   the generator ended: StopIteration, and the frame is freed;
 *   == a raise site k > 0             the exception of site k, as a call that raised gives it;
 *                                     Numba's generator raises it again at each later next().
 *
 * The frame is destroyed (its arrays released, its memory freed) when the generator ends or,
 * at any yield, when the object is collected.  Numba's generator object is an iterator and
 * nothing more (no send/throw/close), and so is this one; its type's name is Numba's.
 */
#include "_numjit.h"

enum { GEN_END = -2 };

typedef struct GenObject {
    PyObject_HEAD
    PyObject *disp;     /* the DispatcherObject */
    PyObject *args;     /* the call's arguments, kept alive */
    NjEntry entry;      /* the specialization's entry: names its raise sites */
    int32_t (*next)(void *frame, void *out);
    void (*destroy)(void *frame);
    void *frame;        /* NULL once ended and freed */
    NjDType dtype;
} GenObject;

static PyTypeObject *g_gen_type;

static void gen_close(GenObject *g)
{
    if (g->frame) {
        void *f = g->frame;
        g->frame = NULL;
        g->destroy(f);
    }
}

static void gen_dealloc(PyObject *self)
{
    GenObject *g = (GenObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    gen_close(g);
    Py_XDECREF(g->disp);
    Py_XDECREF(g->args);
    freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    tp_free(self);
    Py_DECREF(tp);
}

static PyObject *gen_iternext(PyObject *self)
{
    GenObject *g = (GenObject *)self;
    if (!g->frame)
        return NULL; /* ended: StopIteration */
    Scalar value;
    memset(&value, 0, sizeof value);
    int32_t site;
    GIL_HELD_CALL(site = g->next(g->frame, &value));
    if (site == 0)
        return box_scalar(g->dtype, &value);
    if (site == GEN_END) {
        gen_close(g);
        return NULL;
    }
    return raise_site((DispatcherObject *)g->disp, g->entry, site);
}

static PyType_Slot gen_slots[] = {
    {Py_tp_dealloc, (void *)gen_dealloc},
    {Py_tp_iter, (void *)PyObject_SelfIter},
    {Py_tp_iternext, (void *)gen_iternext},
    {Py_tp_doc, (void *)"A jitted generator's values, computed one at a time (numjit)."},
    {0, NULL},
};

static PyType_Spec gen_spec = {
    .name = "numjit._Generator",
    .basicsize = sizeof(GenObject),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = gen_slots,
};

PyObject *gen_new(DispatcherObject *d, NjEntry entry, const int64_t obj[4], PyObject *args)
{
    void *frame = (void *)(intptr_t)obj[0];
    void (*destroy)(void *) = (void (*)(void *))(intptr_t)obj[2];
    if (obj[3] < 0 || obj[3] >= NJ_DTYPE_COUNT) { /* not a generator object */
        destroy(frame);
        PyErr_SetString(g_compile_error, "numjit: a generator of values Python cannot take");
        return NULL;
    }
    PyTypeObject *tp = g_gen_type;
    allocfunc alloc = (allocfunc)PyType_GetSlot(tp, Py_tp_alloc);
    GenObject *g = (GenObject *)alloc(tp, 0);
    if (!g) {
        destroy(frame);
        return NULL;
    }
    Py_INCREF((PyObject *)d);
    Py_INCREF(args);
    g->disp = (PyObject *)d;
    g->args = args;
    g->entry = entry;
    g->next = (int32_t (*)(void *, void *))(intptr_t)obj[1];
    g->destroy = destroy;
    g->frame = frame;
    g->dtype = (NjDType)obj[3];
    return (PyObject *)g;
}

int gen_init(PyObject *module)
{
    PyObject *t = PyType_FromSpec(&gen_spec);
    if (!t)
        return -1;
    g_gen_type = (PyTypeObject *)t; /* kept alive by the module's reference */
    int r = PyModule_AddObjectRef(module, "Generator", t);
    Py_DECREF(t);
    return r;
}
