/* _tuple.c — tuples between Python and compiled code: arguments packed into the C layout that
 * the entry reads, results boxed from the C layout that the entry writes (numjit.h:
 * NjLayoutNode).
 *
 * A tuple argument is classified in two passes.  The first walks the Python tuple: each leaf
 * (a number, a string or an array) is classified as a top-level argument would be, into a leaf slot of
 * its own (an array's buffer is held there until the call returns), and the walk spells the
 * tuple's type as Numba does: "UniTuple(int64, 2)" when every element has one type, else
 * "Tuple(float64, UniTuple(int64, 2), float64[::1])".  The spelling is interned in a table of
 * the process: its number is the type code (K_TUPLE and the number), so the dispatcher's cache
 * keys a call by 32-bit codes as before, and its layout nodes come from the library once
 * (nj_type_layout).  The second pass writes the leaves at their nodes' offsets into the slot's
 * bytes (the slot's own storage, or the heap past 256 bytes).
 *
 * A tuple result is the same walk backwards: the entry's result layout (asked once per cache
 * entry, nj_function_result_layout) says where each leaf is; arrays, lists and strings are
 * boxed as top-level results are (box_array, box_list, box_str), and a failure releases those
 * not yet boxed.  An Optional result (the pair (valid, value)) walks the same nodes: None, or
 * its value boxed as any leaf.
 */
#include "_numjit.h"

typedef struct TupleType {
    char *spelling;
    NjLayoutNode *nodes;
    int nnodes, size;
} TupleType;

static TupleType *g_tuples;
static int g_ntuples, g_captuples;
static PyObject *g_tuple_ids; /* spelling -> int */
static PyObject *g_nt_classes; /* class name -> the namedtuple class of an argument seen */

/* ---- leaves ----------------------------------------------------------------------------------- */

typedef struct Walk {
    ArgSlot *leaves;
    int n, cap;
    char *sp; /* the spelling being built */
    size_t len, spcap;
} Walk;

static int put(Walk *w, const char *s)
{
    size_t k = strlen(s);
    if (w->len + k + 1 > w->spcap) {
        size_t cap = (w->spcap ? w->spcap * 2 : 128) + k;
        char *g = PyMem_Realloc(w->sp, cap);
        if (!g) {
            PyErr_NoMemory();
            return -1;
        }
        w->sp = g;
        w->spcap = cap;
    }
    memcpy(w->sp + w->len, s, k + 1);
    w->len += k;
    return 0;
}

static ArgSlot *new_leaf(Walk *w)
{
    if (w->n == w->cap) {
        int cap = w->cap ? w->cap * 2 : 8;
        ArgSlot *g = PyMem_Realloc(w->leaves, (size_t)cap * sizeof *g);
        if (!g) {
            PyErr_NoMemory();
            return NULL;
        }
        w->leaves = g;
        w->cap = cap;
    }
    ArgSlot *s = &w->leaves[w->n++];
    memset(s, 0, sizeof *s);
    return s;
}

static int walk(Walk *w, PyObject *o, int idx, int depth);

/* Classifies the elements of tuple o into leaves and appends its spelling; depth guards a
 * pathological nesting. */
static int walk_plain(Walk *w, PyObject *o, int idx, int depth)
{
    if (depth > 32) {
        PyErr_Format(g_typing_error, "argument %d: tuples nested more than 32 deep", idx + 1);
        return -1;
    }
    Py_ssize_t n = PyTuple_Size(o);
    size_t start = w->len;
    if (put(w, "Tuple(") != 0)
        return -1;
    int uniform = n > 0;
    size_t first_at = w->len, first_len = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i && put(w, ", ") != 0)
            return -1;
        size_t at = w->len;
        PyObject *x = PyTuple_GetItem(o, i);
        if (PyTuple_Check(x)) {
            if (walk(w, x, idx, depth + 1) != 0)
                return -1;
        } else if (PyList_Check(x) || x == Py_None) {
            PyErr_Format(g_typing_error, "argument %d: a tuple holding %s is not supported by "
                         "numjit (a value of type '%s')", idx + 1,
                         x == Py_None ? "None" : "a list", type_name(x));
            return -1;
        } else {
            ArgSlot *s = new_leaf(w);
            void *ptr;
            uint32_t code;
            if (!s || classify(x, idx, s, &code, &ptr) != 0)
                return -1;
            if (CODE_KIND(code) == K_RECORD || CODE_KIND(code) == K_RECARRAY) {
                PyErr_Format(g_typing_error, "argument %d: a tuple holding a record or an array "
                             "of records is not supported by numjit", idx + 1);
                return -1;
            }
            s->obj = x;
            char one[96];
            spell_code(code, one, sizeof one);
            if (put(w, one) != 0)
                return -1;
        }
        size_t len = w->len - at;
        if (i == 0)
            first_len = len;
        else if (len != first_len || memcmp(w->sp + at, w->sp + first_at, len))
            uniform = 0;
    }
    if (uniform) { /* "UniTuple(T, n)": T is the first element's spelling */
        char *el = PyMem_Malloc(first_len + 1);
        if (!el)
            return PyErr_NoMemory(), -1;
        memcpy(el, w->sp + first_at, first_len);
        el[first_len] = 0;
        w->len = start;
        char count[32];
        snprintf(count, sizeof count, ", %d)", (int)n);
        int r = put(w, "UniTuple(") || put(w, el) || put(w, count);
        PyMem_Free(el);
        return r ? -1 : 0;
    }
    return put(w, ")");
}

/* Appends "NamedTuple(NAME, (FIELD, ...), " for an instance of a collections.namedtuple class
 * (a tuple subclass whose _fields are identifiers: ir/types.c reads it back); 0 (nothing
 * appended) for another tuple, 1 appended, -1 an error. */
static int named_prefix(Walk *w, PyObject *o)
{
    if (PyTuple_CheckExact(o))
        return 0;
    PyObject *fields = PyObject_GetAttrString((PyObject *)Py_TYPE(o), "_fields");
    PyObject *name = fields ? PyObject_GetAttrString((PyObject *)Py_TYPE(o), "__name__") : NULL;
    int r = 0;
    if (!fields || !name || !PyTuple_Check(fields) || !PyUnicode_Check(name) ||
        PyTuple_Size(fields) != PyTuple_Size(o) || !PyUnicode_IsIdentifier(name))
        goto out;
    for (Py_ssize_t i = 0; i < PyTuple_Size(fields); i++) {
        PyObject *f = PyTuple_GetItem(fields, i);
        if (!PyUnicode_Check(f) || !PyUnicode_IsIdentifier(f))
            goto out;
    }
    r = -1;
    /* noted by name: a result of its type is boxed as this class (namedtuple_result_class) */
    if ((!g_nt_classes && !(g_nt_classes = PyDict_New())) ||
        PyDict_SetItem(g_nt_classes, name, (PyObject *)Py_TYPE(o)) != 0)
        goto out;
    const char *cls = PyUnicode_AsUTF8AndSize(name, NULL);
    if (!cls || put(w, "NamedTuple(") || put(w, cls) || put(w, ", ("))
        goto out;
    for (Py_ssize_t i = 0; i < PyTuple_Size(fields); i++) {
        const char *f = PyUnicode_AsUTF8AndSize(PyTuple_GetItem(fields, i), NULL);
        if (!f || (i && put(w, ", ")) || put(w, f))
            goto out;
    }
    r = put(w, "), ") ? -1 : 1;
out:
    if (r == 0)
        PyErr_Clear();
    Py_XDECREF(fields);
    Py_XDECREF(name);
    return r;
}

/* walk_plain, the spelling wrapped in a named tuple's for an instance of one. */
static int walk(Walk *w, PyObject *o, int idx, int depth)
{
    int named = named_prefix(w, o);
    if (named < 0 || walk_plain(w, o, idx, depth) != 0)
        return -1;
    return named ? put(w, ")") : 0;
}

static void release_leaves(ArgSlot *leaves, int n)
{
    release_slots(leaves, n);
    PyMem_Free(leaves);
}

/* The interned number of a spelling, its layout fetched on first sight; -1 with an exception. */
static int tuple_id(const char *sp)
{
    if (!g_tuple_ids && !(g_tuple_ids = PyDict_New()))
        return -1;
    PyObject *v = PyDict_GetItemString(g_tuple_ids, sp);
    if (v)
        return (int)PyLong_AsLong(v);
    int size = 0, n = nj_type_layout(g_ctx, sp, NULL, 0, &size);
    if (n < 0)
        return raise_status(NJ_ERR_TYPE), -1;
    if (g_ntuples >= 1 << 15) { /* CODE_TUPLE: bits 17 to 31 */
        PyErr_SetString(g_unsupported_error, "numjit: too many different tuple types");
        return -1;
    }
    if (g_ntuples == g_captuples) {
        int cap = g_captuples ? g_captuples * 2 : 16;
        TupleType *g = PyMem_Realloc(g_tuples, (size_t)cap * sizeof *g);
        if (!g)
            return PyErr_NoMemory(), -1;
        g_tuples = g;
        g_captuples = cap;
    }
    TupleType *t = &g_tuples[g_ntuples];
    t->nodes = PyMem_Malloc((size_t)n * sizeof *t->nodes);
    t->spelling = PyMem_Malloc(strlen(sp) + 1);
    if (!t->nodes || !t->spelling) {
        PyMem_Free(t->nodes);
        PyMem_Free(t->spelling);
        return PyErr_NoMemory(), -1;
    }
    strcpy(t->spelling, sp);
    nj_type_layout(g_ctx, sp, t->nodes, n, &t->size);
    t->nnodes = n;
    PyObject *id = PyLong_FromLong(g_ntuples);
    if (!id || PyDict_SetItemString(g_tuple_ids, sp, id) != 0) {
        Py_XDECREF(id);
        PyMem_Free(t->nodes);
        PyMem_Free(t->spelling);
        return -1;
    }
    Py_DECREF(id);
    return g_ntuples++;
}

const char *tuple_spelling(uint32_t code)
{
    int id = CODE_TUPLE_ID(code);
    return id < g_ntuples ? g_tuples[id].spelling : "?";
}

/* Writes the leaves into bytes along the nodes (leaves in preorder). */
static void pack(const TupleType *t, const ArgSlot *leaves, unsigned char *bytes)
{
    int leaf = 0;
    for (int k = 0; k < t->nnodes; k++) {
        const NjLayoutNode *nd = &t->nodes[k];
        if (nd->kind == NJ_KIND_TUPLE)
            continue;
        const ArgSlot *s = &leaves[leaf++];
        if (nd->kind == NJ_KIND_ARRAY) {
            NjArray a = s->arr;
            a.owner = NULL;
            memcpy(bytes + nd->offset, &a, sizeof a);
        } else if (nd->kind == NJ_KIND_STR) { /* the text, borrowed from the argument */
            memcpy(bytes + nd->offset, &s->str, sizeof s->str);
        } else {
            memcpy(bytes + nd->offset, &s->s, (size_t)nj_dtype_size(nd->dtype));
        }
    }
}

int classify_tuple(PyObject *o, int idx, ArgSlot *slot, uint32_t *code, void **ptr)
{
    Walk w = {0};
    int id = -1;
    if (walk(&w, o, idx, 0) == 0)
        id = tuple_id(w.sp);
    PyMem_Free(w.sp);
    if (id < 0) {
        release_leaves(w.leaves, w.n);
        return -1;
    }
    const TupleType *t = &g_tuples[id];
    unsigned char *bytes = (unsigned char *)&slot->s;
    slot->heap = NULL;
    if (t->size > (int)sizeof slot->s && !(bytes = slot->heap = PyMem_Calloc(1, (size_t)t->size))) {
        release_leaves(w.leaves, w.n);
        PyErr_NoMemory();
        return -1;
    }
    pack(t, w.leaves, bytes);
    slot->sub = w.leaves;
    slot->nsub = w.n;
    slot->has_buf = SLOT_TUPLE;
    *code = CODE_TUPLE(id);
    *ptr = bytes;
    return 0;
}

int classify_arg(PyObject *o, int idx, ArgSlot *slot, uint32_t *code, void **ptr)
{
    if (PyTuple_Check(o))
        return classify_tuple(o, idx, slot, code, ptr);
    if (PyList_Check(o))
        return list_classify(o, idx, slot, code, ptr);
    if (PySet_CheckExact(o))
        return set_classify(o, idx, slot, code, ptr);
    if (typeddict_check(o)) {
        slot->has_buf = 0;
        return typeddict_classify(o, idx, code, ptr);
    }
    if (typedlist_check(o)) {
        slot->has_buf = 0;
        return typedlist_classify(o, idx, code, ptr);
    }
    if (g_dispatcher_type && PyObject_TypeCheck(o, g_dispatcher_type)) {
        PyErr_Format(g_typing_error, "argument %d: a compiled function passed as an argument "
                     "(Numba's first-class function values) is not supported by numjit yet",
                     idx + 1);
        return -1;
    }
    return classify(o, idx, slot, code, ptr);
}

void release_tuple_slot(ArgSlot *s)
{
    release_leaves(s->sub, s->nsub);
    PyMem_Free(s->heap);
    s->sub = NULL;
    s->heap = NULL;
    s->nsub = 0;
    s->has_buf = 0;
}

/* ---- results ---------------------------------------------------------------------------------- */

int result_layout(NjFunction *fn, NjEntry entry, NjLayoutNode **nodes, int *nnodes, int *size)
{
    int n = nj_function_result_layout(fn, entry, NULL, 0, size);
    if (n < 0) {
        raise_status(NJ_ERR_INTERNAL);
        return -1;
    }
    *nodes = malloc((size_t)(n ? n : 1) * sizeof **nodes);
    if (!*nodes) {
        PyErr_NoMemory();
        return -1;
    }
    nj_function_result_layout(fn, entry, *nodes, n, size);
    *nnodes = n;
    return 0;
}

/* Releases the arrays, lists and strings of nodes[k..end) (after a failure, or the value of
 * an Optional that holds None, whose owners are null). */
static void release_from(const NjLayoutNode *nodes, int k, int end, unsigned char *bytes)
{
    for (; k < end; k++)
        if (nodes[k].kind == NJ_KIND_ARRAY || nodes[k].kind == NJ_KIND_LIST ||
            nodes[k].kind == NJ_KIND_SET) {
            NjArray a;
            memcpy(&a, bytes + nodes[k].offset, sizeof a);
            nj_array_release(&a);
        } else if (nodes[k].kind == NJ_KIND_STR) {
            NjStr s;
            memcpy(&s, bytes + nodes[k].offset, sizeof s);
            nj_str_release(&s);
        }
}

/* The index past the subtree that starts at nodes[k]. */
static int subtree_end(const NjLayoutNode *nodes, int k)
{
    int pending = 1;
    while (pending > 0) {
        if (nodes[k].kind == NJ_KIND_TUPLE || nodes[k].kind == NJ_KIND_OPTIONAL)
            pending += nodes[k].count;
        pending--;
        k++;
    }
    return k;
}

static PyObject *box_node(const NjLayoutNode *nodes, int *k, int end, unsigned char *bytes,
                          PyObject *args, const ArgSlot *slots, const uint32_t *codes, int n)
{
    const NjLayoutNode *nd = &nodes[(*k)++];
    if (nd->kind == NJ_KIND_ARRAY) {
        NjArray a;
        memcpy(&a, bytes + nd->offset, sizeof a);
        return box_array(&a, args, slots, codes, n);
    }
    if (nd->kind == NJ_KIND_LIST) {
        NjArray a;
        memcpy(&a, bytes + nd->offset, sizeof a);
        return box_list(&a);
    }
    if (nd->kind == NJ_KIND_SET) {
        NjArray a;
        memcpy(&a, bytes + nd->offset, sizeof a);
        return box_set(&a);
    }
    if (nd->kind == NJ_KIND_STR) {
        NjStr s;
        memcpy(&s, bytes + nd->offset, sizeof s);
        return box_str(&s);
    }
    if (nd->kind == NJ_KIND_SCALAR) {
        Scalar one;
        memcpy(&one, bytes + nd->offset, (size_t)nj_dtype_size(nd->dtype));
        return box_scalar(nd->dtype, &one);
    }
    if (nd->kind == NJ_KIND_NONE)
        Py_RETURN_NONE;
    if (nd->kind == NJ_KIND_OPTIONAL) { /* (valid, value): None unless valid */
        int valid = bytes[nodes[*k].offset] != 0, value = *k + 1;
        int past = subtree_end(nodes, value);
        if (valid) {
            *k = value;
            PyObject *v = box_node(nodes, k, end, bytes, args, slots, codes, n);
            if (v)
                *k = past;
            return v;
        }
        release_from(nodes, value, past, bytes); /* null owners: nothing, but keep it exact */
        *k = past;
        Py_RETURN_NONE;
    }
    PyObject *t = PyTuple_New(nd->count);
    for (int i = 0; i < nd->count; i++) {
        PyObject *v = t ? box_node(nodes, k, end, bytes, args, slots, codes, n) : NULL;
        if (!v) {
            Py_XDECREF(t);
            release_from(nodes, *k, end, bytes);
            *k = end;
            return NULL;
        }
        PyTuple_SetItem(t, i, v);
    }
    return t;
}

PyObject *box_layout(const NjLayoutNode *nodes, int nnodes, unsigned char *bytes, PyObject *args,
                     const ArgSlot *slots, const uint32_t *codes, int n)
{
    int k = 0;
    return box_node(nodes, &k, nnodes, bytes, args, slots, codes, n);
}

/* The class a named tuple result is boxed as (lib/namedtuple.c): its type's spelling,
 * "results(float64, int64)" rather than "Tuple(...)" or "UniTuple(...)", names the
 * collections.namedtuple class that source.py wrote into the compiled text.  NULL (and
 * *failed 0) for a plain tuple or a class no longer known. */
PyObject *namedtuple_result_class(NjFunction *fn, const char *sig, int *failed)
{
    char *text = NULL;
    *failed = 0;
    NjStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = nj_function_dump(fn, sig, "ret", &text);
    Py_END_ALLOW_THREADS
    if (st != NJ_OK) {
        *failed = 1;
        raise_status(st);
        return NULL;
    }
    PyObject *out = NULL;
    if (strncmp(text, "Tuple(", 6) && strncmp(text, "UniTuple(", 9) && strchr(text, '(')) {
        PyObject *mod = PyImport_ImportModule("numjit.source");
        out = mod ? PyObject_CallMethod(mod, "namedtuple_class", "s", text) : NULL;
        Py_XDECREF(mod);
        if (out == Py_None) { /* not in the compiled text: a class an argument had */
            Py_CLEAR(out);
            PyObject *key = PyUnicode_FromStringAndSize(text, strchr(text, '(') - text);
            PyObject *cls = key && g_nt_classes ? PyDict_GetItemWithError(g_nt_classes, key)
                                                : NULL;
            out = cls ? Py_NewRef(cls) : NULL;
            Py_XDECREF(key);
        }
        *failed = out == NULL && PyErr_Occurred();
    }
    nj_free_string(text);
    return out;
}
