/* _classify.c — from Python arguments to what a compiled entry takes: classify turns each
 * argument into a 32-bit type code (kind, dtype, ndim, layout) and fills its slot (a scalar
 * converted to its C type, or an NjArray read through the buffer protocol, or NumPy's struct
 * fields once _configure has verified them); release_slots gives the buffers back;
 * reflect_lists writes a call's changes to list arguments back to them; spell_code and
 * spell_signature give Numba's spelling of codes, "(float64[::1], int64)", for cache misses
 * and messages.
 */
#include "_numjit.h"

/* ---- buffers ------------------------------------------------------------------------------- */


/* NumPy's contiguity rule (size-1 dimensions ignored; an empty array is both). */
int layout_of(int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize)
{
    int c = 1, f = 1;
    int64_t sd = itemsize;
    for (int i = 0; i < ndim; i++)
        if (shape[i] == 0)
            return L_C;
    for (int i = ndim - 1; i >= 0; i--) {
        if (shape[i] != 1) {
            if (strides[i] != sd)
                c = 0;
            sd *= shape[i];
        }
    }
    sd = itemsize;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] != 1) {
            if (strides[i] != sd)
                f = 0;
            sd *= shape[i];
        }
    }
    return c ? L_C : f ? L_F : L_A;
}

void release_slots(ArgSlot *slots, int n)
{
    for (int i = 0; i < n; i++) {
        if (slots[i].has_buf == SLOT_LIST)
            list_slot_release(&slots[i]);
        else if (slots[i].has_buf == SLOT_TUPLE)
            release_tuple_slot(&slots[i]);
        else if (slots[i].has_buf)
            PyBuffer_Release(&slots[i].buf);
        slots[i].has_buf = 0;
    }
}

static void store_scalar(Scalar *s, NjDType dt, const void *p)
{
    memcpy(s, p, (size_t)nj_dtype_size(dt));
}

const char *type_name(PyObject *o)
{
    static char buf[128];
    PyObject *n = PyObject_GetAttrString((PyObject *)Py_TYPE(o), "__name__");
    const char *s = n ? PyUnicode_AsUTF8AndSize(n, NULL) : NULL;
    snprintf(buf, sizeof buf, "%s", s ? s : "?");
    Py_XDECREF(n);
    PyErr_Clear();
    return buf;
}

static void typing_error(int idx, PyObject *o, const char *why)
{
    PyErr_Format(g_typing_error, "argument %d: %s (a value of type '%s')", idx + 1, why,
                 type_name(o));
}

/* numjit.extending.lower_refusal(o): why a value of a library's Numba extension type cannot
 * be passed (a str), or NULL (no exception set) when its type is no such thing. */
static PyObject *lower_refusal(PyObject *o)
{
    PyObject *mod = PyImport_ImportModule("numjit.extending");
    PyObject *r = mod ? PyObject_CallMethod(mod, "lower_refusal", "O", o) : NULL;
    Py_XDECREF(mod);
    if (!r || !PyUnicode_Check(r)) {
        Py_XDECREF(r);
        PyErr_Clear();
        return NULL;
    }
    return r;
}

/* Classifies argument o, fills its slot and *code; *ptr receives what args[k] points at.
 * Returns 0, or -1 with an exception set. */
int classify(PyObject *o, int idx, ArgSlot *slot, uint32_t *code, void **ptr)
{
    if (g_fast_ndarray && Py_TYPE(o) == g_ndarray_type) {
        const NpArrayHead *a = (const NpArrayHead *)o;
        int dt = np_dtype_of(a->descr);
        if (dt >= 0 && a->nd <= NJ_MAX_NDIM) {
            int lay = (a->flags & NPY_C_CONTIGUOUS) ? L_C
                      : (a->flags & NPY_F_CONTIGUOUS) ? L_F
                                                      : L_A;
            NjArray *arr = &slot->arr;
            arr->data = a->data;
            arr->ndim = a->nd;
            arr->dtype = (NjDType)dt;
            for (int i = 0; i < a->nd; i++) {
                arr->shape[i] = a->dimensions[i];
                arr->strides[i] = a->strides[i];
            }
            *code = CODE(K_ARRAY, dt, a->nd, lay) | ((a->flags & NPY_WRITEABLE) ? 0 : CODE_RO);
            *ptr = arr;
            return 0;
        }
        /* unusual dtype: the buffer road below reports it */
    }
    if (PyComplex_Check(o)) { /* also numpy.complex128, a complex subclass */
        slot->s.c128[0] = PyComplex_RealAsDouble(o);
        slot->s.c128[1] = PyComplex_ImagAsDouble(o);
        *code = CODE(K_SCALAR, NJ_COMPLEX128, 0, 0);
        *ptr = &slot->s;
        return 0;
    }
    if (PyFloat_Check(o)) { /* also numpy.float64, a float subclass */
        slot->s.f64 = PyFloat_AsDouble(o);
        *code = CODE(K_SCALAR, NJ_FLOAT64, 0, 0);
        *ptr = &slot->s;
        return 0;
    }
    if (PyBool_Check(o)) {
        slot->s.b = o == Py_True;
        *code = CODE(K_SCALAR, NJ_BOOL, 0, 0);
        *ptr = &slot->s;
        return 0;
    }
    if (PyLong_Check(o)) {
        int ovf = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &ovf);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (ovf == 0) {
            slot->s.i64 = v;
            *code = CODE(K_SCALAR, NJ_INT64, 0, 0);
        } else {
            unsigned long long u = ovf > 0 ? PyLong_AsUnsignedLongLong(o) : 0;
            if (ovf < 0 || (u == (unsigned long long)-1 && PyErr_Occurred())) {
                PyErr_Clear();
                typing_error(idx, o, "integer too large for int64 and uint64");
                return -1;
            }
            slot->s.u64 = u;
            *code = CODE(K_SCALAR, NJ_UINT64, 0, 0);
        }
        *ptr = &slot->s;
        return 0;
    }
    if (PyUnicode_Check(o)) { /* unicode_type: its UTF-8 text, cached by the object itself */
        Py_ssize_t nbytes;
        const char *text = PyUnicode_AsUTF8AndSize(o, &nbytes);
        if (!text)
            return -1;
        slot->str = (NjStr){text, (int64_t)nbytes, (int64_t)PyUnicode_GetLength(o), NULL};
        *code = CODE(K_STR, 0, 0, 0);
        *ptr = &slot->str;
        return 0;
    }
    if (PyDict_Check(o)) { /* Numba 0.56 has no reflected dicts: its typeof fails on a dict */
        PyErr_Format(g_typing_error, "argument %d: Cannot determine Numba type of <class '%s'>: "
                     "a Python dict cannot be passed to compiled code (reflected dicts are not "
                     "supported, as in Numba)", idx + 1, type_name(o));
        return -1;
    }
    int rec = record_classify(o, idx, slot, code, ptr); /* structured dtypes: _record.c */
    if (rec <= 0)
        return rec;
    if (PyObject_GetBuffer(o, &slot->buf, PyBUF_RECORDS_RO) != 0) {
        PyErr_Clear();
        /* a jitclass instance whose members live in a record (numjit.jitclass): that record,
         * the instance's own bytes, so compiled code and Python share one state */
        PyObject *mark = PyObject_GetAttrString((PyObject *)Py_TYPE(o), "_nj_made_refusal");
        PyObject *own = mark ? PyObject_GetAttrString(o, "_nj_rec") : NULL;
        Py_XDECREF(mark);
        PyErr_Clear();
        if (own && own != Py_None) {
            rec = record_classify(own, idx, slot, code, ptr);
            Py_DECREF(own);
            return rec > 0 ? (typing_error(idx, o, "a jitclass instance without its record"),
                              -1)
                           : rec;
        }
        Py_XDECREF(own);
        /* a type that says why itself (numjit.jitclass's instances) */
        PyObject *why = PyObject_GetAttrString((PyObject *)Py_TYPE(o), "_nj_refusal");
        const char *text = why && PyUnicode_Check(why) ? PyUnicode_AsUTF8AndSize(why, NULL)
                                                      : NULL;
        PyErr_Clear();
        PyObject *ext = text ? NULL : lower_refusal(o);
        if (ext)
            text = PyUnicode_AsUTF8AndSize(ext, NULL);
        typing_error(idx, o, text ? text : "numjit cannot compile for this argument type");
        Py_XDECREF(ext);
        Py_XDECREF(why);
        return -1;
    }
    slot->has_buf = SLOT_BUF;
    Py_buffer *b = &slot->buf;
    int dt = nj_fmt_dtype(b->format, b->itemsize);
    if (dt < 0) {
        PyErr_Format(g_typing_error, "argument %d: unsupported element type '%s' (a value of type '%s')",
                     idx + 1, b->format ? b->format : "B", type_name(o));
        return -1;
    }
    if (b->ndim > NJ_MAX_NDIM) {
        PyErr_Format(g_typing_error, "argument %d: %d dimensions (at most %d supported)", idx + 1,
                     b->ndim, NJ_MAX_NDIM);
        return -1;
    }
    if (b->ndim == 0 && !(g_ndarray_type && PyObject_TypeCheck(o, g_ndarray_type))) {
        /* a NumPy scalar (numpy.float32(1), numpy.int32(2), numpy.bool_(True), ...) */
        store_scalar(&slot->s, (NjDType)dt, b->buf);
        *code = CODE(K_SCALAR, dt, 0, 0);
        *ptr = &slot->s;
        return 0;
    }
    NjArray *arr = &slot->arr;
    arr->data = b->buf;
    arr->ndim = b->ndim;
    arr->dtype = (NjDType)dt;
    for (int i = 0; i < b->ndim; i++) {
        arr->shape[i] = b->shape[i];
        arr->strides[i] = b->strides ? b->strides[i] : 0;
    }
    if (!b->strides && b->ndim > 0) { /* C-contiguous exporter that omitted strides */
        int64_t sd = b->itemsize;
        for (int i = b->ndim - 1; i >= 0; i--) {
            arr->strides[i] = sd;
            sd *= arr->shape[i];
        }
    }
    *code = CODE(K_ARRAY, dt, b->ndim, layout_of(b->ndim, arr->shape, arr->strides, b->itemsize)) |
            (b->readonly ? CODE_RO : 0);
    *ptr = arr;
    return 0;
}

/* After a call that returned normally: the changes made to list and set arguments, written
 * back. */
int reflect_lists(PyObject *args, const ArgSlot *slots, const uint32_t *codes, int n)
{
    for (int i = 0; i < n; i++)
        if ((CODE_KIND(codes[i]) == K_LIST && list_reflect(PyTuple_GetItem(args, i), &slots[i],
                                                           codes[i]) != 0) ||
            (CODE_KIND(codes[i]) == K_SET && set_reflect(PyTuple_GetItem(args, i), &slots[i],
                                                         codes[i]) != 0))
            return -1;
    return 0;
}

/* Numba's spelling of one argument type: "int64", "float64[::1]", "float32[:, ::1]",
 * "float64[::1, :]", "float64[:, :]", "array(float64, 0d, C)", and for an array that is not
 * writable "readonly array(uint8, 1d, C)" (the library reads each). */
void spell_code(uint32_t c, char *out, size_t cap)
{
    if (CODE_KIND(c) == K_TUPLE) {
        snprintf(out, cap, "%s", tuple_spelling(c));
        return;
    }
    if (CODE_KIND(c) == K_RECORD || CODE_KIND(c) == K_RECARRAY) {
        spell_record_code(c, out, cap);
        return;
    }
    const char *dn = nj_dtype_name(CODE_DTYPE(c));
    if (CODE_KIND(c) == K_NONE) {
        snprintf(out, cap, "none");
        return;
    }
    if (CODE_KIND(c) == K_LIST || CODE_KIND(c) == K_TLIST) { /* a list from Python */
        snprintf(out, cap, "reflected list(%s)",
                 CODE_DTYPE(c) == NJ_DTYPE_COUNT ? "unicode_type" : dn);
        return;
    }
    if (CODE_KIND(c) == K_DICT) { /* Numba's type of a typed dict */
        int k = CODE_DTYPE(c), v = CODE_NDIM(c);
        snprintf(out, cap, "DictType[%s,%s]<iv=None>",
                 k == NJ_DICT_STR ? "unicode_type" : nj_dtype_name((NjDType)k),
                 v == NJ_DICT_STR ? "unicode_type" : nj_dtype_name((NjDType)v));
        return;
    }
    if (CODE_KIND(c) == K_SET) { /* Numba's type of a set from Python */
        snprintf(out, cap, "reflected set(%s)", dn);
        return;
    }
    if (CODE_KIND(c) == K_STR) {
        snprintf(out, cap, "unicode_type");
        return;
    }
    if (CODE_KIND(c) == K_SCALAR) {
        snprintf(out, cap, "%s", dn);
        return;
    }
    int nd = CODE_NDIM(c), lay = CODE_LAYOUT(c);
    if (nd == 0 || CODE_READONLY(c)) {
        snprintf(out, cap, "%sarray(%s, %dd, %c)", CODE_READONLY(c) ? "readonly " : "", dn, nd,
                 nd == 0 ? 'C' : "CFA"[lay]);
        return;
    }
    size_t len = (size_t)snprintf(out, cap, "%s[", dn);
    for (int i = 0; i < nd && len < cap; i++) {
        int unit = (lay == L_C && i == nd - 1) || (lay == L_F && i == 0);
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? ", " : "", unit ? "::1" : ":");
    }
    if (len < cap)
        snprintf(out + len, cap - len, "]");
}

/* "(float64[::1], int64)" — malloc'ed. */
char *spell_signature(const uint32_t *codes, int n)
{
    size_t cap = 3 + (size_t)n * 64;
    for (int i = 0; i < n; i++)
        if (CODE_KIND(codes[i]) == K_TUPLE)
            cap += strlen(tuple_spelling(codes[i]));
        else if (CODE_KIND(codes[i]) == K_RECORD || CODE_KIND(codes[i]) == K_RECARRAY)
            cap += record_spelling_len(codes[i]);
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t len = 0;
    s[len++] = '(';
    for (int i = 0; i < n; i++) {
        char stack_one[64], *one = stack_one;
        size_t onecap = sizeof stack_one;
        if (CODE_KIND(codes[i]) == K_TUPLE || CODE_KIND(codes[i]) == K_RECORD ||
            CODE_KIND(codes[i]) == K_RECARRAY) {
            onecap = CODE_KIND(codes[i]) == K_TUPLE ? strlen(tuple_spelling(codes[i])) + 1
                                                    : record_spelling_len(codes[i]);
            one = malloc(onecap);
            if (!one) {
                free(s);
                return NULL;
            }
        }
        spell_code(codes[i], one, onecap);
        if (one != stack_one) {
            len += (size_t)snprintf(s + len, cap - len, "%s%s", i ? ", " : "", one);
            free(one);
            continue;
        }
        len += (size_t)snprintf(s + len, cap - len, "%s%s", i ? ", " : "", one);
    }
    snprintf(s + len, cap - len, ")");
    return s;
}
