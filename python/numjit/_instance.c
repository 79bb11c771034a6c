/* _instance.c — the memory of jitclass instances on the Python side.
 *
 * A jitclass instance is one block from malloc, the CgMemInfo header and then the instance's
 * record (codegen.h, CG_INSTANCE_HEADER): compiled code makes such blocks (IR newrec) and
 * counts references to them, and Python makes its instances the same way, here, so that an
 * instance made on either side is one representation with one state.  instance_block(nbytes)
 * gives a zeroed block as an ndarray of nbytes uint8 over the record, whose owner (_result.c's
 * ArrayOwner) holds the block's one reference; numjit.jitclass views it as the class's record.
 * An instance compiled code returns comes the same way (cg's put_instance: an NjArray of the
 * record's bytes owning the block), and the result is handed to the class's boxer
 * (record_result, _record.c).  The block goes back with free() when the last reference,
 * Python's or compiled code's, is released (nj_array_release, runtime/arrays.c).
 */
#include "_numjit.h"

#include <stdlib.h>
#include <string.h>

enum { INSTANCE_HEADER = 32 }; /* codegen.h's CG_INSTANCE_HEADER */

typedef struct { /* codegen.h's CgMemInfo */
    int64_t refcount, nbytes;
    void (*dtor)(void *);
} InstanceHeader;

/* instance_block(nbytes) -> a zeroed uint8 ndarray of nbytes owning a new instance block. */
static PyObject *mod_instance_block(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_ssize_t n = PyLong_AsSsize_t(arg);
    if (n < 0 && PyErr_Occurred())
        return NULL;
    if (n <= 0 || n > (Py_ssize_t)1 << 40) {
        PyErr_Format(PyExc_ValueError, "a jitclass instance of %zd bytes", n);
        return NULL;
    }
    char *mi = calloc(1, INSTANCE_HEADER + (size_t)n);
    if (!mi)
        return PyErr_NoMemory();
    InstanceHeader *h = (InstanceHeader *)mi;
    h->refcount = 1;
    h->nbytes = n;
    NjArray a;
    memset(&a, 0, sizeof a);
    a.data = mi + INSTANCE_HEADER;
    a.ndim = 1;
    a.dtype = NJ_UINT8;
    a.shape[0] = n;
    a.strides[0] = 1;
    a.owner = mi;
    return box_array(&a, NULL, NULL, NULL, 0);
}

static PyMethodDef instance_functions[] = {
    {"instance_block", mod_instance_block, METH_O,
     "instance_block(nbytes) -> uint8 ndarray over a new jitclass instance's zeroed record."},
    {NULL, NULL, 0, NULL},
};

int instance_init(PyObject *module)
{
    return PyModule_AddFunctions(module, instance_functions);
}
