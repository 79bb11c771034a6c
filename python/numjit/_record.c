/* _record.c — arguments of NumPy structured dtypes: arrays of records (code K_RECARRAY) and
 * single records, numpy.void / numpy.record (code K_RECORD).
 *
 * A structured dtype becomes Numba's spelling of its record type,
 *   Record(x[type=float64;offset=0],y[type=int32;offset=8];12;False)
 * (fields of numbers at their offsets, the itemsize, NumPy's isalignedstruct), which the
 * compiler reads back (ir/record.c).  The spellings are numbered in the order they are first
 * seen (a dict keyed by the dtype finds a dtype's number again) and the number rides in the
 * argument's code above CODE_RO, as a tuple's does, so that two record types never share a
 * compiled specialization.  An array of records passes as any array (its buffer: data, shape,
 * strides); a record passes as the address of its bytes, which for `a[i]` are the array's own
 * (NumPy's void scalar is a view), so compiled code that writes a field writes the array, as
 * under Numba.
 */
#include "_numjit.h"

enum { MAX_RECORDS = 1 << 15 }; /* the number's bits in a code */

static PyObject *g_ids;         /* dtype -> its number */
static char **g_spellings;      /* by number */
static PyObject **g_dtypes;     /* by number: the first dtype seen with that spelling */
static int g_nrec, g_caprec;
static PyObject *g_void_type;   /* numpy.void, once looked up */

/* NumPy's type number of a field's dtype as numjit's dtype; -1 for others. */
static int field_dtype(PyObject *d)
{
    PyObject *num = PyObject_GetAttrString(d, "num");
    PyObject *bo = num ? PyObject_GetAttrString(d, "byteorder") : NULL;
    PyObject *sub = bo ? PyObject_GetAttrString(d, "fields") : NULL;
    int dt = -1;
    if (sub == Py_None && PyUnicode_Check(bo) && PyUnicode_CompareWithASCIIString(bo, ">") &&
        PyLong_Check(num)) {
        long n = PyLong_AsLong(num);
        if (n == 7 || n == 8) /* long, unsigned long */
            dt = n == 7 ? (sizeof(long) == 8 ? NJ_INT64 : NJ_INT32)
                        : (sizeof(long) == 8 ? NJ_UINT64 : NJ_UINT32);
        else if (n >= 0 && n <= 15)
            dt = np_typenum_dtype[n];
    }
    Py_XDECREF(num);
    Py_XDECREF(bo);
    Py_XDECREF(sub);
    PyErr_Clear();
    return dt;
}

/* Numba's spelling of structured dtype d (malloc'ed); NULL with a TypingError. */
static char *spell(PyObject *d, int idx)
{
    PyObject *names = PyObject_GetAttrString(d, "names");
    PyObject *fields = names ? PyObject_GetAttrString(d, "fields") : NULL;
    PyObject *size = fields ? PyObject_GetAttrString(d, "itemsize") : NULL;
    PyObject *al = size ? PyObject_GetAttrString(d, "isalignedstruct") : NULL;
    char *out = NULL;
    size_t len = 0, cap = 0;
    if (!al || !PyTuple_Check(names))
        goto done;
    for (Py_ssize_t i = 0; i < PyTuple_Size(names); i++) {
        PyObject *nm = PyTuple_GetItem(names, i);
        PyObject *f = PyObject_GetItem(fields, nm);
        PyObject *fd = f && PyTuple_Check(f) ? PyTuple_GetItem(f, 0) : NULL;
        PyObject *fo = f && PyTuple_Check(f) ? PyTuple_GetItem(f, 1) : NULL;
        int dt = fd ? field_dtype(fd) : -1;
        const char *name = PyUnicode_Check(nm) ? PyUnicode_AsUTF8AndSize(nm, NULL) : NULL;
        long off = fo ? PyLong_AsLong(fo) : -1;
        Py_XDECREF(f);
        if (dt < 0 || !name || off < 0 || strpbrk(name, "[];,()=")) {
            PyErr_Clear();
            PyErr_Format(g_typing_error, "argument %d: numjit's records hold fields of numbers "
                         "(not %R)", idx + 1, d);
            free(out);
            out = NULL;
            goto done;
        }
        size_t need = len + strlen(name) + 80;
        if (need > cap) {
            char *g = realloc(out, cap = need * 2);
            if (!g) {
                PyErr_NoMemory();
                free(out);
                out = NULL;
                goto done;
            }
            out = g;
        }
        len += (size_t)snprintf(out + len, cap - len, "%s%s[type=%s;offset=%ld]",
                                i ? "," : "Record(", name, nj_dtype_name((NjDType)dt), off);
    }
    if (!out) {
        PyErr_Format(g_typing_error, "argument %d: a record type without fields", idx + 1);
        goto done;
    }
    char tail[64];
    snprintf(tail, sizeof tail, ";%ld;%s)", PyLong_AsLong(size),
             PyObject_IsTrue(al) ? "True" : "False");
    char *g = realloc(out, len + strlen(tail) + 1);
    if (!g) {
        free(out);
        out = NULL;
        PyErr_NoMemory();
        goto done;
    }
    out = g;
    strcpy(out + len, tail);
done:
    Py_XDECREF(names);
    Py_XDECREF(fields);
    Py_XDECREF(size);
    Py_XDECREF(al);
    return out;
}

/* The number of structured dtype d; -1 with an exception. */
static int record_id(PyObject *d, int idx)
{
    if (!g_ids && !(g_ids = PyDict_New()))
        return -1;
    PyObject *got = PyDict_GetItemWithError(g_ids, d);
    if (got)
        return (int)PyLong_AsLong(got);
    if (PyErr_Occurred())
        return -1;
    char *s = spell(d, idx);
    if (!s)
        return -1;
    int id = -1;
    for (int i = 0; i < g_nrec && id < 0; i++) /* an equal dtype seen as another object */
        if (!strcmp(g_spellings[i], s))
            id = i;
    if (id >= 0)
        free(s);
    else {
        if (g_nrec == MAX_RECORDS) {
            free(s);
            PyErr_SetString(g_typing_error, "numjit: too many record types in one process");
            return -1;
        }
        if (g_nrec == g_caprec) {
            char **n = realloc(g_spellings, sizeof *n * (size_t)(g_caprec = g_caprec ? 2 * g_caprec : 16));
            if (!n) {
                free(s);
                PyErr_NoMemory();
                return -1;
            }
            g_spellings = n;
            PyObject **dn = realloc(g_dtypes, sizeof *dn * (size_t)g_caprec);
            if (!dn) {
                free(s);
                PyErr_NoMemory();
                return -1;
            }
            g_dtypes = dn;
        }
        id = g_nrec;
        g_dtypes[g_nrec] = Py_NewRef(d);
        g_spellings[g_nrec++] = s;
    }
    PyObject *num = PyLong_FromLong(id);
    int bad = !num || PyDict_SetItem(g_ids, d, num) != 0;
    Py_XDECREF(num);
    return bad ? -1 : id;
}

size_t record_spelling_len(uint32_t c)
{
    int id = CODE_RECORD_ID(c);
    return (id < g_nrec ? strlen(g_spellings[id]) : 16) + 48;
}

void spell_record_code(uint32_t c, char *out, size_t cap)
{
    int id = CODE_RECORD_ID(c);
    const char *rec = id < g_nrec ? g_spellings[id] : "Record(?)";
    if (CODE_KIND(c) == K_RECORD) {
        snprintf(out, cap, "%s", rec);
        return;
    }
    int aligned = strstr(rec, ";True)") != NULL;
    snprintf(out, cap, "%s%sarray(%s, %dd, %c)", CODE_READONLY(c) ? "readonly " : "",
             aligned ? "" : "unaligned ", rec, CODE_NDIM(c), "CFA"[CODE_LAYOUT(c)]);
}

int record_classify(PyObject *o, int idx, ArgSlot *slot, uint32_t *code, void **ptr)
{
    bool arr = g_ndarray_type && PyObject_TypeCheck(o, g_ndarray_type);
    if (!arr) {
        if (!g_void_type) {
            PyObject *np = PyImport_ImportModule("numpy");
            g_void_type = np ? PyObject_GetAttrString(np, "void") : NULL;
            Py_XDECREF(np);
            if (!g_void_type)
                return -1;
        }
        int is = PyObject_IsInstance(o, g_void_type);
        if (is <= 0)
            return is < 0 ? -1 : 1;
    }
    PyObject *d = PyObject_GetAttrString(o, "dtype");
    PyObject *fields = d ? PyObject_GetAttrString(d, "fields") : NULL;
    if (!fields) {
        Py_XDECREF(d);
        return -1;
    }
    int plain = fields == Py_None;
    Py_DECREF(fields);
    int id = plain ? -2 : record_id(d, idx);
    Py_DECREF(d);
    if (id < 0)
        return id == -2 ? 1 : -1;
    if (PyObject_GetBuffer(o, &slot->buf, PyBUF_RECORDS_RO) != 0)
        return -1;
    slot->has_buf = SLOT_BUF;
    Py_buffer *b = &slot->buf;
    if (!arr) {
        slot->s.u64 = (uint64_t)(uintptr_t)b->buf;
        *code = CODE(K_RECORD, 0, 0, 0) | CODE_ID(id);
        *ptr = &slot->s;
        return 0;
    }
    if (b->ndim > NJ_MAX_NDIM) {
        PyErr_Format(g_typing_error, "argument %d: %d dimensions (at most %d supported)", idx + 1,
                     b->ndim, NJ_MAX_NDIM);
        return -1;
    }
    NjArray *a = &slot->arr;
    a->data = b->buf;
    a->ndim = b->ndim;
    a->dtype = NJ_UINT8; /* not a number: the code says what the items are */
    int64_t sd = b->itemsize;
    for (int i = b->ndim - 1; i >= 0; i--) {
        a->shape[i] = b->shape[i];
        a->strides[i] = b->strides ? b->strides[i] : sd;
        sd *= b->shape[i];
    }
    *code = CODE(K_RECARRAY, 0, b->ndim, layout_of(b->ndim, a->shape, a->strides, b->itemsize)) |
            (b->readonly ? CODE_RO : 0) | CODE_ID(id);
    *ptr = a;
    return 0;
}

PyObject *record_result_dtype(NjFunction *fn, const char *sig, int *failed)
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
    const char *rec = strstr(text, "array(Record(");
    PyObject *out = NULL;
    if (!strncmp(text, "Record(", 7)) { /* a jitclass instance: its class's boxer */
        PyObject *mod = PyImport_ImportModule("numjit.jitclass");
        out = mod ? PyObject_CallMethod(mod, "_boxer", "s", text) : NULL;
        Py_XDECREF(mod);
        *failed = out == NULL;
    } else if (rec) {
        rec += 6;
        const char *end = strstr(rec, ";False)"), *end2 = strstr(rec, ";True)");
        size_t len = end ? (size_t)(end - rec) + 7 : end2 ? (size_t)(end2 - rec) + 6 : 0;
        for (int i = 0; i < g_nrec && !out; i++)
            if (strlen(g_spellings[i]) == len && !strncmp(g_spellings[i], rec, len))
                out = Py_NewRef(g_dtypes[i]);
        if (!out) { /* a record type first made in compiled code: NumPy's dtype from it */
            PyObject *mod = PyImport_ImportModule("numjit.types");
            PyObject *t = mod ? PyObject_CallMethod(mod, "from_spelling", "s#", rec,
                                                    (Py_ssize_t)len) : NULL;
            out = t ? PyObject_GetAttrString(t, "dtype") : NULL;
            Py_XDECREF(t);
            Py_XDECREF(mod);
            *failed = out == NULL;
        }
    }
    nj_free_string(text);
    return out;
}

PyObject *record_result(NjArray *a, PyObject *descr, PyObject *args, const ArgSlot *slots,
                        const uint32_t *codes, int n)
{
    if (PyCallable_Check(descr)) { /* a jitclass instance's bytes, to its class's boxer */
        PyObject *bytes = box_array(a, args, slots, codes, n);
        PyObject *r = bytes ? PyObject_CallFunctionObjArgs(descr, bytes, NULL) : NULL;
        Py_XDECREF(bytes);
        return r;
    }
    int nd = a->ndim - 1; /* the last dimension is the record's bytes */
    for (int i = 0; i < n; i++) { /* an argument given back: the argument itself, as Numba */
        const NjArray *b = &slots[i].arr;
        if (CODE_KIND(codes[i]) != K_RECARRAY || b->data != a->data || b->ndim != nd)
            continue;
        int same = 1;
        for (int k = 0; k < nd; k++)
            same &= b->shape[k] == a->shape[k] && b->strides[k] == a->strides[k];
        if (same) {
            nj_array_release(a);
            return Py_NewRef(PyTuple_GetItem(args, i));
        }
    }
    return record_view(box_array(a, args, slots, codes, n), descr);
}

PyObject *record_view(PyObject *bytes, PyObject *descr)
{
    if (!bytes)
        return NULL;
    PyObject *v = PyObject_CallMethod(bytes, "view", "O", descr);
    Py_DECREF(bytes);
    if (!v)
        return NULL;
    PyObject *key = Py_BuildValue("(Oi)", Py_Ellipsis, 0);
    PyObject *r = key ? PyObject_GetItem(v, key) : NULL;
    Py_XDECREF(key);
    Py_DECREF(v);
    return r;
}
