/* _print.c — print() in compiled code.
 *
 * Lines go to sys.stdout, in order with the program's own prints, as under Numba.  A thread
 * holding the GIL writes at once; another takes the GIL first, unless a compiled call holding
 * it is running (its parallel loop's threads would wait for the GIL while it waits for them):
 * those lines go to the C library's stdout. */
#include "_numjit.h"

#include <stdatomic.h>
#include <stdio.h>

_Atomic int g_gil_calls;
_Thread_local int g_gil_held;

static void print_hook(const char *text, size_t len, void *arg)
{
    (void)arg;
    if (!g_gil_held && atomic_load_explicit(&g_gil_calls, memory_order_relaxed) > 0) {
        fwrite(text, 1, len, stdout);
        fflush(stdout);
        return;
    }
    PyGILState_STATE gs = PyGILState_Ensure();
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    PyObject *out = PySys_GetObject("stdout"); /* borrowed */
    PyObject *r = NULL;
    if (out && out != Py_None)
        r = PyObject_CallMethod(out, "write", "s#", text, (Py_ssize_t)len);
    if (!r)
        PyErr_Clear(); /* no stdout to write to: the line is dropped, as print() would fail */
    Py_XDECREF(r);
    PyErr_Restore(et, ev, tb);
    PyGILState_Release(gs);
}

void print_install(void)
{
    nj_set_print_hook(print_hook, NULL);
}
