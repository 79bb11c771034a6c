/* _set.c — sets that compiled code returns, as Numba boxes its reflected sets: a Python set.
 *
 * The C entry hands a returned set of numbers over as an NjArray of its items in the set's
 * iteration order, owning a new list of them (NJ_KIND_SET, runtime/set.c numjit_set_tolist),
 * alone or as a leaf of a returned tuple.  The items are boxed as a returned list's are
 * (box_list: int, float, bool, complex, as Numba boxes them) and put into a new set; the list
 * is released by box_list.  An NjArray without owner means the entry found no memory for the
 * list: MemoryError.
 */
#include "_numjit.h"

PyObject *box_set(NjArray *a)
{
    if (!a->owner)
        return PyErr_NoMemory();
    PyObject *items = box_list(a);
    if (!items)
        return NULL;
    PyObject *s = PySet_New(items);
    Py_DECREF(items);
    return s;
}
