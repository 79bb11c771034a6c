/* _cuda.h — what the files of the _cuda extension share: the global state, the DeviceArray
 * record, the error and context helpers and the types and functions one file gives another.
 * Internal to the extension (never installed).
 *
 * _cuda.c holds the launch path (Module, Kernel, Launch: argument classification and
 * nj_kernel_launch) and the module; _cuda_mem.c holds device memory (DeviceArray, deferred
 * frees, HostBuffer) and the functions over devices, copies, streams and events.
 */
#ifndef NUMJIT_PY_CUDA_H
#define NUMJIT_PY_CUDA_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "numjit.h"
#include "_dtypes.h"

#ifndef Py_XSETREF /* not in the limited API of 3.11 */
#define Py_XSETREF(dst, src)                                                                     \
    do {                                                                                         \
        PyObject *old_ = (PyObject *)(dst);                                                      \
        (dst) = (src);                                                                           \
        Py_XDECREF(old_);                                                                        \
    } while (0)
#endif

/* ---- global state (defined in _cuda.c) ------------------------------------------------------ */
extern NjContext *g_ctx;
extern PyObject *g_typing_error, *g_cuda_error, *g_unsupported_error, *g_syntax_error;
extern PyTypeObject *g_ndarray_type, *g_devarray_type, *g_module_type, *g_kernel_type,
    *g_launch_type;
extern PyObject *g_str_cai, *g_str_bind_now, *g_str_handle, *g_str_ptr, *g_str_cuda_stream,
    *g_str_value;

/* _cuda.c */
PyObject *raise_status(NjStatus st); /* the context's message as numjit's exception; NULL */
int ensure_context(void);            /* 0, or -1 with MemoryError set */
void c_strides(NjArray *a);          /* C-contiguous strides for a's shape and dtype */

/* ---- _cuda_mem.c ---------------------------------------------------------------------------- */
/* ---- DeviceArray ------------------------------------------------------------------------------ */
typedef struct {
    PyObject_HEAD
    NjArray arr;
    void *alloc;     /* owned device allocation (freed with the object), or NULL */
    PyObject *base;  /* keeps a borrowed allocation's owner alive */
    PyObject *dict;
} DevArrayObject;

extern PyType_Spec devarray_spec, hostbuf_spec;
extern PyTypeObject *g_hostbuf_type;
/* Frees the device blocks queued by cuda.defer_cleanup. */
void flush_deferred(void);
/* The module's functions over devices, memory, copies, streams and events. */
extern PyMethodDef memory_functions[];

#endif
