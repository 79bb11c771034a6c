/* typer_dtype.c — the spellings of a dtype that name it through another value, as Numba 0.56
 * types them: `a.dtype` of an array (Numba's DType(float64)) and `np.dtype(X)` of any dtype
 * of a string or a scalar class X ('float32', 'f4', np.float32; Numba refuses others), wherever a
 * function takes a dtype; and a dtype written as a string, read as NumPy's np.dtype(s) reads it
 * (Numba 0.56 hands a literal string to np.dtype): 'int' and 'float' are int64 and float64,
 * 'float_' is float64 (numba.float_ is float32), character codes ('d', 'l', '?') and a
 * byte-order mark ('<f8') are accepted:
 * np.empty/zeros/ones/full/arange and their _like forms, np.array, np.eye, a.astype,
 * a.sum(dtype=).
 *
 * How: a dtype is known when the function is compiled (an array type carries its element
 * type), so the argument reader (typer_alloc.c's dtype_of) asks here first: `a.dtype` gives
 * the array type's element type, and `np.dtype(X)` is read as X.  Nothing is emitted: the
 * array is only looked at, as Numba's typing does.  A dtype held in a variable or passed in
 * from Python needs a run-time value of its own and is not supported yet.
 */
#include "typer_internal.h"

#include <string.h>

/* NumPy's names of the dtypes numjit has, as np.dtype(name) reads them on x86-64 Linux. */
static const struct {
    const char *name;
    TypeKind kind;
} np_names[] = {
    {"bool", TY_BOOL},      {"bool_", TY_BOOL},      {"bool8", TY_BOOL},     {"?", TY_BOOL},
    {"b1", TY_BOOL},        {"int8", TY_I8},         {"i1", TY_I8},          {"b", TY_I8},
    {"byte", TY_I8},        {"int16", TY_I16},       {"i2", TY_I16},         {"h", TY_I16},
    {"short", TY_I16},      {"int32", TY_I32},       {"i4", TY_I32},         {"i", TY_I32},
    {"intc", TY_I32},       {"int64", TY_I64},       {"i8", TY_I64},         {"l", TY_I64},
    {"q", TY_I64},          {"p", TY_I64},           {"int", TY_I64},        {"int_", TY_I64},
    {"intp", TY_I64},       {"long", TY_I64},        {"longlong", TY_I64},   {"uint8", TY_U8},
    {"u1", TY_U8},          {"B", TY_U8},            {"ubyte", TY_U8},       {"uint16", TY_U16},
    {"u2", TY_U16},         {"H", TY_U16},           {"ushort", TY_U16},     {"uint32", TY_U32},
    {"u4", TY_U32},         {"I", TY_U32},           {"uintc", TY_U32},      {"uint64", TY_U64},
    {"u8", TY_U64},         {"L", TY_U64},           {"Q", TY_U64},          {"P", TY_U64},
    {"uint", TY_U64},       {"uintp", TY_U64},       {"ulonglong", TY_U64},  {"float32", TY_F32},
    {"f4", TY_F32},         {"f", TY_F32},           {"single", TY_F32},     {"float64", TY_F64},
    {"f8", TY_F64},         {"d", TY_F64},           {"float", TY_F64},      {"float_", TY_F64},
    {"double", TY_F64},     {"complex64", TY_C64},   {"c8", TY_C64},         {"F", TY_C64},
    {"csingle", TY_C64},    {"complex128", TY_C128}, {"c16", TY_C128},       {"D", TY_C128},
    {"complex", TY_C128},   {"complex_", TY_C128},   {"cdouble", TY_C128},
};

const Type *ty_np_dtype_str(const char *s) {
    if ((*s == '<' || *s == '=' || *s == '|') && s[1]) /* this machine's byte order */
        s++;
    for (size_t i = 0; i < sizeof np_names / sizeof np_names[0]; i++)
        if (!strcmp(s, np_names[i].name))
            return ty_scalar(np_names[i].kind);
    return NULL;
}

/* The type of e without emitting anything. */
static Val peek(Fn *fn, Node *e) {
    bool emit = fn->emit;
    fn->emit = false;
    Val v = ty_expr(fn, e);
    fn->emit = emit;
    return v;
}

static bool is_np_dtype(Fn *fn, Node *callee) {
    if (callee->kind != ND_ATTR || strcmp(callee->name, "dtype"))
        return false;
    Val m = peek(fn, callee->a);
    return m.k == V_MODULE && !strcmp(m.name, "numpy");
}

Node *ty_dtype_unwrap(Fn *fn, Node *e, const Type **t) {
    *t = NULL;
    if (e->kind == ND_CALL && e->list.n == 1 && e->list2.n == 0 && is_np_dtype(fn, e->a)) {
        /* Numba's np.dtype takes a string or a scalar class (np.float32), nothing else */
        e = e->list.items[0];
        if (e->kind != ND_STR && peek(fn, e).k != V_TYPE) {
            ty_error(fn, e->loc, "np.dtype() takes a string or a scalar type such as "
                     "np.float32 (unknown dtype descriptor)");
            return NULL;
        }
        return e;
    }
    if (e->kind == ND_ATTR && !strcmp(e->name, "dtype")) {
        Val a = peek(fn, e->a);
        if (a.k == V_VAL && a.t->kind == TY_ARRAY)
            *t = a.t->dtype;
    }
    return e;
}
