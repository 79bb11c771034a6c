/* types.c — numjit's types and Numba's typing rules for them.
 *
 * Scalars are static objects; arrays and tuples are interned in one process-wide list guarded by
 * a mutex, so type equality is pointer equality everywhere in the compiler.  The rules below are
 * Numba's (SEMANTICS.md), each checked against Numba 0.56:
 *
 *   arith   int op int  -> 64 bits, signed when either operand is signed (uint64 + int64 ->
 *                          int64, uint8 + uint8 -> uint64)
 *           int op float -> the narrowest float the int converts to safely, joined with the float
 *                          (int16 + float32 -> float32, int32 + float32 -> float64)
 *           bool acts as an int for arithmetic (True + True -> int64)
 *   unify   (branch/loop merging) keeps the width: int32 u int32 -> int32, int32 u uint32 ->
 *           int64, int64 u uint64 -> float64, int u float -> float, bool u int -> int
 *   safe    NumPy's 'safe' casting table (ufunc signature selection)
 */
#include "ir.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCALAR(var, k, nm) static const Type var##_s = {.kind = k, .name = nm};
SCALAR(void, TY_VOID, "none")
SCALAR(bool, TY_BOOL, "bool")
SCALAR(i8, TY_I8, "int8")
SCALAR(i16, TY_I16, "int16")
SCALAR(i32, TY_I32, "int32")
SCALAR(i64, TY_I64, "int64")
SCALAR(u8, TY_U8, "uint8")
SCALAR(u16, TY_U16, "uint16")
SCALAR(u32, TY_U32, "uint32")
SCALAR(u64, TY_U64, "uint64")
SCALAR(f32, TY_F32, "float32")
SCALAR(f64, TY_F64, "float64")
SCALAR(c64, TY_C64, "complex64")
SCALAR(c128, TY_C128, "complex128")
SCALAR(range, TY_RANGE, "range_state64")
SCALAR(str, TY_STR, "unicode_type")
#undef SCALAR

const Type *const ty_void = &void_s, *const ty_bool = &bool_s, *const ty_i8 = &i8_s,
           *const ty_i16 = &i16_s, *const ty_i32 = &i32_s, *const ty_i64 = &i64_s,
           *const ty_u8 = &u8_s, *const ty_u16 = &u16_s, *const ty_u32 = &u32_s,
           *const ty_u64 = &u64_s, *const ty_f32 = &f32_s, *const ty_f64 = &f64_s,
           *const ty_c64 = &c64_s, *const ty_c128 = &c128_s, *const ty_range = &range_s,
           *const ty_str = &str_s;

const Type *ty_scalar(TypeKind k) {
    switch (k) {
    case TY_VOID: return ty_void;
    case TY_BOOL: return ty_bool;
    case TY_I8: return ty_i8;
    case TY_I16: return ty_i16;
    case TY_I32: return ty_i32;
    case TY_I64: return ty_i64;
    case TY_U8: return ty_u8;
    case TY_U16: return ty_u16;
    case TY_U32: return ty_u32;
    case TY_U64: return ty_u64;
    case TY_F32: return ty_f32;
    case TY_F64: return ty_f64;
    case TY_C64: return ty_c64;
    case TY_C128: return ty_c128;
    case TY_RANGE: return ty_range;
    case TY_STR: return ty_str;
    default: return NULL;
    }
}

bool ty_is_int(const Type *t) { return t && t->kind >= TY_I8 && t->kind <= TY_U64; }
bool ty_is_signed(const Type *t) { return t && t->kind >= TY_I8 && t->kind <= TY_I64; }
bool ty_is_float(const Type *t) { return t && (t->kind == TY_F32 || t->kind == TY_F64); }
bool ty_is_number(const Type *t) { return ty_is_int(t) || ty_is_float(t); }
bool ty_is_scalar(const Type *t) { return t && (t->kind == TY_BOOL || ty_is_number(t)); }
bool ty_is_complex(const Type *t) { return t && (t->kind == TY_C64 || t->kind == TY_C128); }
bool ty_is_elem(const Type *t) { return ty_is_scalar(t) || ty_is_complex(t); }
const Type *ty_complex_part(const Type *t) { return t && t->kind == TY_C64 ? ty_f32 : ty_f64; }

/* The narrowest float an integer (or bool) converts to without loss. */
static const Type *float_for_int(const Type *t) {
    return (t->kind == TY_BOOL || ty_bits(t) <= 16) ? ty_f32 : ty_f64;
}

const Type *ty_complex_of(const Type *t) {
    if (ty_is_complex(t))
        return t;
    const Type *f = ty_is_float(t) ? t : float_for_int(t);
    return f == ty_f32 ? ty_c64 : ty_c128;
}

bool ty_has_refs(const Type *t) {
    if (!t)
        return false;
    if (t->kind == TY_ARRAY)
        return t->addrspace == AS_GENERIC;
    if (t->kind == TY_LIST || t->kind == TY_STR || t->kind == TY_DICT || t->kind == TY_SET)
        return true;
    if (t->kind == TY_RECORD)
        return ty_is_instance(t);
    for (int i = 0; t->kind == TY_TUPLE && i < t->nelems; i++)
        if (ty_has_refs(t->elems[i]))
            return true;
    return false;
}

int ty_bits(const Type *t) {
    switch (t->kind) {
    case TY_BOOL: return 8;
    case TY_I8: case TY_U8: return 8;
    case TY_I16: case TY_U16: return 16;
    case TY_I32: case TY_U32: case TY_F32: return 32;
    case TY_I64: case TY_U64: case TY_F64: case TY_C64: return 64;
    case TY_C128: return 128;
    default: return 0;
    }
}

int ty_size(const Type *t) { return t->kind == TY_RECORD ? t->rsize : ty_bits(t) / 8; }

static const Type *int_of(bool is_signed, int bits) {
    switch (bits) {
    case 8: return is_signed ? ty_i8 : ty_u8;
    case 16: return is_signed ? ty_i16 : ty_u16;
    case 32: return is_signed ? ty_i32 : ty_u32;
    case 64: return is_signed ? ty_i64 : ty_u64;
    default: return NULL;
    }
}

/* ---- interning ------------------------------------------------------------------------------ */
static pthread_mutex_t intern_lock = PTHREAD_MUTEX_INITIALIZER;
typedef struct Interned {
    struct Interned *next;
    Type t;
} Interned;
static Interned *interned;

static void array_name(char *buf, size_t n, const Type *t) {
    if (t->dtype->kind == TY_RECORD) { /* Numba's: "unaligned array(Record(...), 1d, C)" */
        snprintf(buf, n, "%s%sarray(%s, %dd, %c)", t->readonly ? "readonly " : "",
                 t->dtype->aligned ? "" : "unaligned ", t->dtype->name, t->ndim, (char)t->layout);
        return;
    }
    if (t->readonly && t->addrspace == AS_GENERIC) { /* Numba's spelling, as in its messages */
        snprintf(buf, n, "readonly array(%s, %dd, %c)", t->dtype->name, t->ndim, (char)t->layout);
        return;
    }
    size_t k = (size_t)snprintf(buf, n, "%s%s[", t->addrspace == AS_SHARED ? "shared " : "",
                                t->dtype->name);
    for (int i = 0; i < t->ndim && k < n; i++) {
        bool unit = (t->layout == LAYOUT_C && i == t->ndim - 1) ||
                    (t->layout == LAYOUT_F && i == 0 && t->ndim > 1);
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", unit ? "::1" : ":");
    }
    if (k < n)
        snprintf(buf + k, n - k, "]%s", t->readonly ? " (readonly)" : "");
}

/* Numba's spelling of a tuple type, "UniTuple(int64, 2)" or "Tuple(int64, float64)", exact at
 * any length (the name is part of cache keys and of signatures parsed back); "none" and
 * "OptionalType(T)" for the tuples that stand for them. */
static char *tuple_name(const Type **el, int n, TupleRole role) {
    if (role == TR_NONE)
        return strdup("none");
    if (role == TR_OPTIONAL) {
        size_t len = strlen(el[1]->name) + 16;
        char *s = malloc(len);
        if (s)
            snprintf(s, len, "OptionalType(%s)", el[1]->name);
        return s;
    }
    bool uni = n > 0;
    size_t len = 16;
    for (int i = 0; i < n; i++) {
        uni &= el[i] == el[0];
        len += strlen(el[i]->name) + 2;
    }
    char *s = malloc(len + 24);
    if (!s)
        return NULL;
    if (uni) {
        snprintf(s, len + 24, "UniTuple(%s, %d)", el[0]->name, n);
        return s;
    }
    size_t k = (size_t)sprintf(s, "Tuple(");
    for (int i = 0; i < n; i++)
        k += (size_t)sprintf(s + k, "%s%s", i ? ", " : "", el[i]->name);
    sprintf(s + k, ")");
    return s;
}

const Type *ty_intern(const Type *proto) {
    pthread_mutex_lock(&intern_lock);
    for (Interned *e = interned; e; e = e->next) {
        const Type *t = &e->t;
        if (t->kind != proto->kind)
            continue;
        if (t->kind == TY_ARRAY && t->dtype == proto->dtype && t->ndim == proto->ndim &&
            t->layout == proto->layout && t->addrspace == proto->addrspace &&
            t->readonly == proto->readonly)
            goto found_unlock;
        if (t->kind == TY_LIST && t->dtype == proto->dtype && t->reflected == proto->reflected)
            goto found_unlock;
        if (t->kind == TY_RECORD && !strcmp(t->name, proto->name)) /* the name says it all */
            goto found_unlock;
        if (t->kind == TY_DICT && t->dtype == proto->dtype && t->key == proto->key)
            goto found_unlock;
        if (t->kind == TY_SET && t->dtype == proto->dtype)
            goto found_unlock;
        if (t->kind == TY_TUPLE && t->role == TR_FUNC && proto->role == TR_FUNC &&
            !strcmp(t->func, proto->func))
            goto found_unlock;
        if (t->kind == TY_TUPLE && t->role == TR_FUNC)
            continue;
        if (t->kind == TY_TUPLE && (!t->func != !proto->func ||
                                    (t->func && strcmp(t->func, proto->func))))
            continue; /* a named tuple is its class's: same elements, another type */
        if (t->kind == TY_TUPLE && t->nelems == proto->nelems && t->role == proto->role &&
            (t->nelems == 0 || !memcmp(t->elems, proto->elems, sizeof(Type *) * (size_t)t->nelems)))
            goto found_unlock;
        continue;
    found_unlock:
        pthread_mutex_unlock(&intern_lock);
        return t;
    }
    Interned *e = calloc(1, sizeof *e);
    if (!e) {
        pthread_mutex_unlock(&intern_lock);
        return NULL;
    }
    e->t = *proto;
    char buf[2048]; /* an array of records spells its record in full */
    if (proto->kind == TY_ARRAY) {
        array_name(buf, sizeof buf, proto);
        e->t.name = strdup(buf);
    } else if (proto->kind == TY_RECORD) { /* record.c made the name and the arrays */
        e->t.name = proto->name;
    } else if (proto->kind == TY_LIST) { /* Numba's, without its "<iv=None>" */
        snprintf(buf, sizeof buf, "%slist(%s)", proto->reflected ? "reflected " : "",
                 proto->dtype ? proto->dtype->name : "undefined");
        e->t.name = strdup(buf);
    } else if (proto->kind == TY_SET) {
        snprintf(buf, sizeof buf, "set(%s)", proto->dtype ? proto->dtype->name : "undefined");
        e->t.name = strdup(buf);
    } else if (proto->kind == TY_DICT) { /* Numba's spelling, with its "<iv=None>" */
        snprintf(buf, sizeof buf, "DictType[%s,%s]<iv=None>",
                 proto->key ? proto->key->name : "undefined",
                 proto->dtype ? proto->dtype->name : "undefined");
        e->t.name = strdup(buf);
    } else {
        const Type **el = calloc((size_t)(proto->nelems ? proto->nelems : 1), sizeof *el);
        if (!el) {
            free(e);
            pthread_mutex_unlock(&intern_lock);
            return NULL;
        }
        if (proto->nelems) /* none is the empty tuple: no elements, elems may be NULL */
            memcpy(el, proto->elems, sizeof *el * (size_t)proto->nelems);
        e->t.elems = el;
        if (proto->role == TR_FUNC) {
            e->t.func = strdup(proto->func);
            snprintf(buf, sizeof buf, "type(CPUDispatcher(<function %s>))", proto->func);
            e->t.name = strdup(buf);
        } else if (proto->func) { /* a named tuple: Numba's "results(float64, int64)" */
            e->t.func = strdup(proto->func);
            const char **fn = calloc((size_t)proto->nelems + 1, sizeof *fn);
            char *inner = tuple_name(el, proto->nelems, proto->role);
            size_t cl = strcspn(proto->func, ":");
            if (!fn || !inner || !e->t.func) {
                free(fn), free(inner), free(el), free(e);
                pthread_mutex_unlock(&intern_lock);
                return NULL;
            }
            for (int i = 0; i < proto->nelems; i++)
                fn[i] = strdup(proto->fnames[i]);
            e->t.fnames = fn;
            bool uni = proto->nelems > 0; /* Numba's NamedUniTuple: "Pair(float64 x 2)" */
            for (int i = 1; i < proto->nelems; i++)
                uni &= el[i] == el[0];
            if (uni)
                snprintf(buf, sizeof buf, "%.*s(%s x %d)", (int)cl, proto->func, el[0]->name,
                         proto->nelems);
            else
                snprintf(buf, sizeof buf, "%.*s%s", (int)cl, proto->func, strchr(inner, '('));
            free(inner);
            e->t.name = strdup(buf);
        } else {
            e->t.name = tuple_name(el, proto->nelems, proto->role);
        }
    }
    e->next = interned;
    interned = e;
    pthread_mutex_unlock(&intern_lock);
    return &e->t;
}

const Type *ty_array_ex(const Type *dtype, int ndim, ArrayLayout layout, AddrSpace as,
                        bool readonly) {
    if (!(ty_is_elem(dtype) || (dtype && dtype->kind == TY_RECORD)) || ndim < 0 ||
        ndim > TY_MAX_NDIM)
        return NULL;
    if (ndim <= 1 && layout == LAYOUT_F)
        layout = LAYOUT_C;
    Type proto = {.kind = TY_ARRAY, .dtype = dtype, .ndim = ndim, .layout = layout,
                  .addrspace = as, .readonly = readonly};
    return ty_intern(&proto);
}

const Type *ty_array(const Type *dtype, int ndim, ArrayLayout layout) {
    return ty_array_ex(dtype, ndim, layout, AS_GENERIC, false);
}

const Type *ty_tuple(const Type **elems, int n) {
    Type proto = {.kind = TY_TUPLE, .nelems = n, .elems = elems};
    return ty_intern(&proto);
}

const Type *ty_named_tuple(const char *cls, const char *const *fields, const Type **elems,
                           int n) {
    StrBuf key;
    sb_init(&key);
    sb_puts(&key, cls);
    for (int i = 0; i < n; i++)
        sb_printf(&key, "%c%s", i ? ',' : ':', fields[i]);
    Type proto = {.kind = TY_TUPLE, .nelems = n, .elems = elems, .func = key.data,
                  .fnames = (const char **)fields};
    const Type *t = key.data ? ty_intern(&proto) : NULL;
    sb_free(&key);
    return t;
}

int ty_tuple_field(const Type *t, const char *name) {
    if (!t || t->kind != TY_TUPLE || t->role != TR_TUPLE || !t->fnames)
        return -1;
    for (int i = 0; i < t->nelems; i++)
        if (!strcmp(t->fnames[i], name))
            return i;
    return -1;
}

const Type *ty_none(void) {
    Type proto = {.kind = TY_TUPLE, .role = TR_NONE};
    return ty_intern(&proto);
}

const Type *ty_optional(const Type *t) {
    if (!t || (t->kind == TY_TUPLE && t->role != TR_TUPLE))
        return t;
    const Type *el[2] = {ty_bool, t};
    Type proto = {.kind = TY_TUPLE, .nelems = 2, .elems = el, .role = TR_OPTIONAL};
    return ty_intern(&proto);
}

const Type *ty_func(const char *name) {
    Type proto = {.kind = TY_TUPLE, .role = TR_FUNC, .func = name};
    return ty_intern(&proto);
}

bool ty_is_func(const Type *t) { return t && t->kind == TY_TUPLE && t->role == TR_FUNC; }

bool ty_is_none(const Type *t) { return t && t->kind == TY_TUPLE && t->role == TR_NONE; }
bool ty_is_optional(const Type *t) { return t && t->kind == TY_TUPLE && t->role == TR_OPTIONAL; }
const Type *ty_optional_value(const Type *t) { return ty_is_optional(t) ? t->elems[1] : t; }

/* Numba's unification with None: none | T = Optional(T), Optional(T) | U = Optional(T | U). */
static const Type *unify_optional(const Type *a, const Type *b) {
    if (ty_is_func(a) || ty_is_func(b)) /* two functions: no common type (equal ones are a) */
        return NULL;
    if (ty_is_none(a) && ty_is_none(b))
        return a;
    if (ty_is_none(a) || ty_is_none(b)) {
        const Type *t = ty_is_none(a) ? b : a;
        return t == ty_void ? NULL : ty_optional(t);
    }
    const Type *u = ty_unify(ty_optional_value(a), ty_optional_value(b));
    return u ? ty_optional(u) : NULL;
}

bool ty_list_item_ok(const Type *item) {
    if (!item)
        return true;
    if (ty_is_elem(item))
        return true;
    if (item->kind == TY_ARRAY)
        return item->addrspace == AS_GENERIC;
    if (item->kind == TY_STR) /* counted as an array is: the owner where its meminfo sits */
        return true;
    if (ty_is_instance(item)) /* a jitclass instance: counted, its block's header (refs.c) */
        return true;
    if (item->kind == TY_TUPLE) {
        for (int i = 0; i < item->nelems; i++)
            if (!ty_is_elem(item->elems[i]))
                return false;
        return true;
    }
    return false;
}

const Type *ty_list(const Type *item, bool reflected) {
    if (!ty_list_item_ok(item))
        return NULL;
    Type proto = {.kind = TY_LIST, .dtype = item, .reflected = reflected};
    return ty_intern(&proto);
}

bool ty_dict_key_ok(const Type *key) {
    if (!key)
        return false;
    if (ty_is_scalar(key) || key == ty_str)
        return true;
    if (key->kind != TY_TUPLE || key->role != TR_TUPLE || key->nelems == 0)
        return false;
    for (int i = 0; i < key->nelems; i++)
        if (!ty_is_scalar(key->elems[i]) && key->elems[i] != ty_str)
            return false;
    return true;
}

bool ty_dict_value_ok(const Type *val) {
    if (!val)
        return false;
    if (ty_is_elem(val) || val == ty_str || val->kind == TY_DICT)
        return true;
    if (val->kind == TY_ARRAY)
        return val->addrspace == AS_GENERIC;
    if (val->kind == TY_TUPLE && val->role == TR_TUPLE) {
        for (int i = 0; i < val->nelems; i++)
            if (!ty_dict_value_ok(val->elems[i]))
                return false;
        return true;
    }
    return false;
}

const Type *ty_dict(const Type *key, const Type *val) {
    if ((key || val) && (!ty_dict_key_ok(key) || !ty_dict_value_ok(val)))
        return NULL;
    Type proto = {.kind = TY_DICT, .key = key, .dtype = val};
    return ty_intern(&proto);
}

const Type *ty_set(const Type *item) {
    if (item && !ty_is_scalar(item))
        return NULL;
    Type proto = {.kind = TY_SET, .dtype = item};
    return ty_intern(&proto);
}

/* ---- Numba's rules ------------------------------------------------------------------------- */
const Type *ty_int_widen(const Type *t) {
    if (t->kind == TY_BOOL)
        return ty_i64;
    if (!ty_is_int(t))
        return t;
    return ty_is_signed(t) ? ty_i64 : ty_u64;
}

static const Type *join_ints(const Type *a, const Type *b) {
    int ba = ty_bits(a), bb = ty_bits(b);
    bool sa = ty_is_signed(a), sb = ty_is_signed(b);
    if (sa == sb)
        return int_of(sa, ba > bb ? ba : bb);
    int sbits = sa ? ba : bb, ubits = sa ? bb : ba;
    if (sbits > ubits)
        return int_of(true, sbits);
    if (ubits < 64)
        return int_of(true, ubits * 2);
    return ty_f64;
}

/* complex op number: the complex of the two operands' floats (complex64 + float64 ->
 * complex128, complex64 + int16 -> complex64) */
static const Type *join_complex(const Type *a, const Type *b) {
    return ty_complex_of(a) == ty_c128 || ty_complex_of(b) == ty_c128 ? ty_c128 : ty_c64;
}

const Type *ty_arith(const Type *a, const Type *b) {
    if ((ty_is_complex(a) || ty_is_complex(b)) && ty_is_elem(a) && ty_is_elem(b))
        return join_complex(a, b);
    if (!ty_is_scalar(a) || !ty_is_scalar(b))
        return NULL;
    if (ty_is_float(a) || ty_is_float(b)) {
        const Type *fa = ty_is_float(a) ? a : float_for_int(a);
        const Type *fb = ty_is_float(b) ? b : float_for_int(b);
        return (fa == ty_f64 || fb == ty_f64) ? ty_f64 : ty_f32;
    }
    /* Numba's integer NBEP: 64 bits, signed when either operand is (bool counts as signed) */
    bool sa = a->kind == TY_BOOL || ty_is_signed(a), sb = b->kind == TY_BOOL || ty_is_signed(b);
    return sa || sb ? ty_i64 : ty_u64;
}

const Type *ty_unify(const Type *a, const Type *b) {
    if (!a)
        return b;
    if (!b || a == b)
        return a;
    if ((ty_is_complex(a) || ty_is_complex(b)) && ty_is_elem(a) && ty_is_elem(b))
        return join_complex(a, b);
    if (ty_is_scalar(a) && ty_is_scalar(b)) {
        if (ty_is_float(a) || ty_is_float(b)) {
            const Type *fa = ty_is_float(a) ? a : float_for_int(a);
            const Type *fb = ty_is_float(b) ? b : float_for_int(b);
            return (fa == ty_f64 || fb == ty_f64) ? ty_f64 : ty_f32;
        }
        if (a->kind == TY_BOOL)
            return b;
        if (b->kind == TY_BOOL)
            return a;
        return join_ints(a, b);
    }
    if (a->kind == TY_ARRAY && b->kind == TY_ARRAY && a->dtype == b->dtype &&
        a->ndim == b->ndim && a->addrspace == b->addrspace)
        return ty_array_ex(a->dtype, a->ndim, a->layout == b->layout ? a->layout : LAYOUT_A,
                           a->addrspace, a->readonly || b->readonly);
    if ((a->kind == TY_TUPLE && a->role != TR_TUPLE) || (b->kind == TY_TUPLE && b->role != TR_TUPLE))
        return unify_optional(a, b);
    if (a->kind == TY_LIST && b->kind == TY_LIST) { /* Numba's List.unify */
        const Type *item = !a->dtype ? b->dtype : !b->dtype ? a->dtype
                                                            : ty_unify(a->dtype, b->dtype);
        if (a->dtype && b->dtype && !item)
            return NULL;
        return ty_list(item, a->reflected || b->reflected);
    }
    if (a->kind == TY_DICT && b->kind == TY_DICT) /* `{}` takes the other's types */
        return !a->key ? b : !b->key ? a : NULL;
    if (a->kind == TY_SET && b->kind == TY_SET) /* `set()` likewise */
        return !a->dtype ? b : !b->dtype ? a : NULL;
    if (a->kind == TY_TUPLE && b->kind == TY_TUPLE && a->nelems == b->nelems) {
        const Type *buf[16], **el = a->nelems <= 16 ? buf : malloc(sizeof *el * (size_t)a->nelems);
        const Type *r = NULL;
        if (!el)
            return NULL;
        int i = 0;
        while (i < a->nelems && (el[i] = ty_unify(a->elems[i], b->elems[i])) &&
               el[i]->kind != TY_TUPLE)
            i++;
        if (i == a->nelems)
            r = ty_tuple(el, a->nelems);
        if (el != buf)
            free(el);
        return r;
    }
    return NULL;
}

bool ty_can_cast_safe(const Type *from, const Type *to) {
    if (from == to)
        return true;
    if (ty_is_complex(to) && ty_is_elem(from)) /* to the complex of at least from's float */
        return to == ty_c128 || ty_complex_of(from) == ty_c64;
    if (!ty_is_scalar(from) || !ty_is_scalar(to))
        return false;
    if (from->kind == TY_BOOL)
        return true;
    if (to->kind == TY_BOOL)
        return false;
    if (ty_is_float(from))
        return ty_is_float(to) && ty_bits(to) >= ty_bits(from);
    if (ty_is_float(to))
        return ty_bits(from) <= (to == ty_f32 ? 16 : 32) ||
               (to == ty_f64 && ty_bits(from) <= 64);
    if (ty_is_signed(from) == ty_is_signed(to))
        return ty_bits(to) >= ty_bits(from);
    if (ty_is_signed(to)) /* unsigned -> signed needs a wider type */
        return ty_bits(to) > ty_bits(from);
    return false; /* signed -> unsigned never */
}

/* ---- names and signatures -------------------------------------------------------------------- */
static const struct {
    const char *name;
    TypeKind kind;
} scalar_names[] = {
    {"bool", TY_BOOL},     {"boolean", TY_BOOL}, {"b1", TY_BOOL},     {"bool_", TY_BOOL},
    {"int8", TY_I8},       {"i1", TY_I8},        {"int16", TY_I16},   {"i2", TY_I16},
    {"int32", TY_I32},     {"i4", TY_I32},       {"int64", TY_I64},   {"i8", TY_I64},
    {"intp", TY_I64},      {"intc", TY_I32},     {"int_", TY_I64},    {"uint8", TY_U8},
    {"u1", TY_U8},         {"byte", TY_U8},      {"uint16", TY_U16},  {"u2", TY_U16},
    {"uint32", TY_U32},    {"u4", TY_U32},       {"uint64", TY_U64},  {"u8", TY_U64},
    {"uintp", TY_U64},     {"uintc", TY_U32},    {"float32", TY_F32}, {"f4", TY_F32},
    {"float_", TY_F32},    {"single", TY_F32},   {"float64", TY_F64}, {"f8", TY_F64},
    {"double", TY_F64},    {"void", TY_VOID},    {"none", TY_VOID},
    {"complex64", TY_C64}, {"c8", TY_C64},       {"csingle", TY_C64}, {"complex128", TY_C128},
    {"c16", TY_C128},      {"complex", TY_C128}, {"cdouble", TY_C128}, {"complex_", TY_C128},
    {"unicode_type", TY_STR},
};

static const char *skip_ws(const char *s) {
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    return s;
}

static bool word_at(const char *s, const char *w) {
    size_t n = strlen(w);
    return !strncmp(s, w, n) && !(isalnum((unsigned char)s[n]) || s[n] == '_');
}

static const Type *parse_type(const char **sp, const char **err);

/* Numba's spelling "array(float64, 2d, C)" after "array(": the dtype, ndim and layout. */
static const Type *parse_array_call(const char **sp, const char **err) {
    const char *s = *sp;
    const Type *dt = parse_type(&s, err);
    if (!dt)
        return NULL;
    s = skip_ws(s);
    char *end = NULL;
    long nd = *s == ',' ? strtol(s + 1, &end, 10) : -1;
    if (!(ty_is_elem(dt) || dt->kind == TY_RECORD) || nd < 0 || nd > TY_MAX_NDIM || !end ||
        *end != 'd') {
        *err = "expected 'array(DTYPE, Nd, LAYOUT)'";
        return NULL;
    }
    s = skip_ws(end + 1);
    ArrayLayout lay = LAYOUT_A;
    if (*s == ',') {
        s = skip_ws(s + 1);
        lay = *s == 'C' ? LAYOUT_C : *s == 'F' ? LAYOUT_F : *s == 'A' ? LAYOUT_A : (ArrayLayout)0;
        if (lay) /* past the layout letter only: *s may be the string's end */
            s = skip_ws(s + 1);
    }
    if (!lay || *s != ')') {
        *err = "expected 'array(DTYPE, Nd, LAYOUT)'";
        return NULL;
    }
    *sp = s + 1;
    return ty_array(dt, (int)nd, lay);
}

/* Numba's spellings of tuple types at *sp: "UniTuple(T, n)" and "Tuple(T1, T2, ...)". */
static const Type *parse_tuple_call(const char **sp, const char **err) {
    const char *s = *sp;
    bool uni = *s == 'U';
    s = skip_ws(s + (uni ? 8 : 5)) + 1;
    int n = 0, cap = 16;
    const Type *buf[16], **el = buf;
    const Type *t = NULL;
    for (s = skip_ws(s); *s != ')';) {
        if (uni && n == 1) { /* UniTuple(T, n): the count */
            char *end = NULL;
            long k = strtol(s, &end, 10);
            if (end == s || k < 0 || k > 100000) {
                *err = "expected 'UniTuple(TYPE, COUNT)'";
                goto out;
            }
            s = skip_ws(end);
            if (*s != ')') {
                *err = "expected 'UniTuple(TYPE, COUNT)'";
                goto out;
            }
            const Type *e0 = el[0];
            n = (int)k;
            if (n > cap) {
                const Type **g = malloc(sizeof *g * (size_t)n);
                if (!g) {
                    *err = "out of memory";
                    goto out;
                }
                if (el != buf)
                    free(el);
                el = g;
                cap = n;
            }
            for (int i = 0; i < n; i++)
                el[i] = e0;
            uni = false;
            break;
        }
        if (n == cap) {
            const Type **g = malloc(sizeof *g * (size_t)cap * 2);
            if (!g) {
                *err = "out of memory";
                goto out;
            }
            memcpy(g, el, sizeof *g * (size_t)n);
            if (el != buf)
                free(el);
            el = g;
            cap *= 2;
        }
        if (!(el[n] = parse_type(&s, err)))
            goto out;
        if (el[n] == ty_void) {
            *err = "a tuple cannot hold void";
            goto out;
        }
        n++;
        s = skip_ws(s);
        if (*s == ',')
            s = skip_ws(s + 1);
        else if (*s != ')') {
            *err = "expected ',' or ')' in a tuple type";
            goto out;
        }
    }
    if (uni) { /* "UniTuple(T)" without its count */
        *err = "expected 'UniTuple(TYPE, COUNT)'";
        goto out;
    }
    t = ty_tuple(el, n);
    *sp = s + 1;
out:
    if (el != buf)
        free(el);
    return t;
}

/* A named tuple as the Python package spells an argument of one (python/numjit/_tuple.c):
 * "NamedTuple(NAME, (FIELD, ...), TUPLE)", TUPLE the spelling of its plain tuple type. */
static const Type *parse_named_tuple(const char **sp, const char **err) {
    enum { MAXF = 64 };
    const char *s = skip_ws(skip_ws(*sp + 10) + 1), *name = s, *fields[MAXF];
    char buf[2048], *w = buf, *end = buf + sizeof buf;
    int n = 0;
    *err = "expected 'NamedTuple(NAME, (FIELD, ...), TUPLE)'";
    while (isalnum((unsigned char)*s) || *s == '_')
        s++;
    if (s == name || s - name >= end - w)
        return NULL;
    size_t len = (size_t)(s - name);
    memcpy(w, name, len);
    w[len] = 0;
    name = w;
    w += len + 1;
    s = skip_ws(s);
    if (*s != ',' || *(s = skip_ws(s + 1)) != '(')
        return NULL;
    for (s = skip_ws(s + 1); *s != ')'; n++) {
        const char *f = s;
        while (isalnum((unsigned char)*s) || *s == '_')
            s++;
        if (s == f || n == MAXF || s - f >= end - w)
            return NULL;
        memcpy(w, f, (size_t)(s - f));
        w[s - f] = 0;
        fields[n] = w;
        w += s - f + 1;
        s = skip_ws(s);
        if (*s == ',')
            s = skip_ws(s + 1);
        else if (*s != ')')
            return NULL;
    }
    s = skip_ws(s + 1);
    if (*s != ',')
        return NULL;
    s = skip_ws(s + 1);
    const Type *tt = parse_type(&s, err);
    if (!tt)
        return NULL;
    s = skip_ws(s);
    if (tt->kind != TY_TUPLE || tt->role != TR_TUPLE || tt->func || tt->nelems != n ||
        *s != ')') {
        *err = "expected 'NamedTuple(NAME, (FIELD, ...), TUPLE)' of as many fields as elements";
        return NULL;
    }
    const Type *t = ty_named_tuple(name, fields, tt->elems, n);
    if (t)
        *sp = s + 1;
    return t;
}

/* Parses one type at *sp; advances *sp.  NULL with *err on failure.  Arrays are spelled
 * "float64[:, ::1]" or as Numba prints them, "array(float64, 2d, C)"; either may follow
 * "readonly " (an array the function must not write, as Numba's). */
static const Type *parse_type(const char **sp, const char **err) {
    const char *s = skip_ws(*sp), *start = s;
    if (word_at(s, "readonly")) {
        s += 8;
        const Type *t = parse_type(&s, err);
        if (!t)
            return NULL;
        if (t->kind != TY_ARRAY) {
            *err = "only an array can be readonly";
            return NULL;
        }
        *sp = s;
        return ty_array_ex(t->dtype, t->ndim, t->layout, t->addrspace, true);
    }
    if (word_at(s, "unaligned")) { /* Numba's array of a packed record type */
        s += 9;
        const Type *t = parse_type(&s, err);
        if (t && (t->kind != TY_ARRAY || t->dtype->kind != TY_RECORD || t->dtype->aligned)) {
            *err = "only an array of a packed record type is unaligned";
            return NULL;
        }
        if (t)
            *sp = s;
        return t;
    }
    if (word_at(s, "Record") && *skip_ws(s + 6) == '(') {
        const Type *t = ty_parse_record(&s, err);
        if (t)
            *sp = s;
        return t;
    }
    if (word_at(s, "NamedTuple") && *skip_ws(s + 10) == '(') {
        const Type *t = parse_named_tuple(&s, err);
        if (t)
            *sp = s;
        return t;
    }
    if ((word_at(s, "UniTuple") && *skip_ws(s + 8) == '(') ||
        (word_at(s, "Tuple") && *skip_ws(s + 5) == '(')) {
        const Type *t = parse_tuple_call(&s, err);
        if (t)
            *sp = s;
        return t;
    }
    /* Numba's "DictType[int64,float64]<iv=None>" (a typed dict; the suffix may be left out) */
    if (word_at(s, "DictType") && *skip_ws(s + 8) == '[') {
        s = skip_ws(s + 8) + 1;
        const Type *key = parse_type(&s, err), *val = NULL;
        if (!key)
            return NULL;
        s = skip_ws(s);
        if (*s == ',') {
            s++;
            if (!(val = parse_type(&s, err)))
                return NULL;
            s = skip_ws(s);
        }
        if (!val || *s != ']') {
            *err = "expected 'DictType[KEY, VALUE]'";
            return NULL;
        }
        s = skip_ws(s + 1);
        if (!strncmp(s, "<iv=None>", 9))
            s += 9;
        const Type *t = ty_dict(key, val);
        if (!t) {
            *err = "a dict cannot have these key and value types";
            return NULL;
        }
        *sp = s;
        return t;
    }
    /* Numba's "list(int64)" and "reflected list(int64)" (a list from Python) */
    bool reflected = word_at(s, "reflected");
    const char *l = reflected ? skip_ws(s + 9) : s;
    if (word_at(l, "list") && *skip_ws(l + 4) == '(') {
        s = skip_ws(l + 4) + 1;
        const Type *item = parse_type(&s, err);
        if (!item)
            return NULL;
        s = skip_ws(s);
        const Type *t = *s == ')' ? ty_list(item, reflected) : NULL;
        if (!t) {
            *err = *s == ')' ? "a list cannot hold this type" : "expected 'list(TYPE)'";
            return NULL;
        }
        *sp = s + 1;
        return t;
    }
    /* Numba's "reflected set(int64)" (a set from Python) and "set(int64)": a set of numbers */
    if (word_at(l, "set") && *skip_ws(l + 3) == '(') {
        s = skip_ws(l + 3) + 1;
        const Type *item = parse_type(&s, err);
        if (!item)
            return NULL;
        s = skip_ws(s);
        if (*s != ')' || !ty_is_elem(item) || ty_is_complex(item)) {
            *err = *s == ')' ? "a set holds numbers" : "expected 'set(TYPE)'";
            return NULL;
        }
        *sp = s + 1;
        return ty_set(item);
    }
    if (word_at(s, "array") && *skip_ws(s + 5) == '(') {
        s = skip_ws(s + 5) + 1;
        const Type *t = parse_array_call(&s, err);
        if (t)
            *sp = s;
        return t;
    }
    while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
           *s == '_' || *s == '.')
        s++;
    size_t n = (size_t)(s - start);
    /* accept "numba.float64", "nb.float64", "np.float64" */
    const char *dot = memchr(start, '.', n);
    if (dot) {
        n -= (size_t)(dot + 1 - start);
        start = dot + 1;
    }
    const Type *t = NULL;
    for (size_t i = 0; i < sizeof scalar_names / sizeof *scalar_names; i++)
        if (strlen(scalar_names[i].name) == n && !memcmp(scalar_names[i].name, start, n))
            t = ty_scalar(scalar_names[i].kind);
    if (!t) {
        *err = "unknown type name";
        return NULL;
    }
    s = skip_ws(s);
    if (*s == '[') {
        if (t == ty_void) {
            *err = "an array of void";
            return NULL;
        }
        int ndim = 0, unit_at = -1;
        s++;
        for (;;) {
            s = skip_ws(s);
            if (*s != ':') {
                *err = "expected ':' in an array type";
                return NULL;
            }
            s++;
            if (s[0] == ':' && s[1] == '1') {
                unit_at = ndim;
                s += 2;
            }
            ndim++;
            s = skip_ws(s);
            if (*s == ',') {
                s++;
                continue;
            }
            if (*s == ']') {
                s++;
                break;
            }
            *err = "expected ',' or ']' in an array type";
            return NULL;
        }
        ArrayLayout lay = LAYOUT_A;
        if (unit_at == ndim - 1)
            lay = LAYOUT_C;
        else if (unit_at == 0)
            lay = LAYOUT_F;
        if (ndim > TY_MAX_NDIM) {
            _Static_assert(TY_MAX_NDIM == 8, "the message below names the limit");
            *err = "too many dimensions in an array type (at most 8)";
            return NULL;
        }
        t = ty_array(t, ndim, lay);
        if (!t) {
            *err = "an array's element must be a number or a boolean";
            return NULL;
        }
    }
    *sp = s;
    return t;
}

const Type *ty_from_name(const char *name) {
    const char *err = NULL, *s = name;
    const Type *t = parse_type(&s, &err);
    if (!t || *skip_ws(s))
        return NULL;
    return t;
}

int ty_parse_sig(const char *s, const Type **ret, const Type **args, int maxargs,
                 const char **err) {
    *err = NULL;
    *ret = NULL;
    s = skip_ws(s);
    if (*s != '(') {
        /* "name(" or "rettype(" — a leading identifier that is not a type is a function name */
        const char *save = s;
        const char *e2 = NULL;
        const Type *r = parse_type(&s, &e2);
        if (!r) {
            /* a function name is a dotted identifier; anything else was a bad return type */
            for (s = save; *s && *s != '('; s++)
                if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '.' ||
                      (unsigned char)*s >= 0x80 || isspace((unsigned char)*s))) {
                    *err = e2 ? e2 : "unknown return type";
                    return -1;
                }
        } else {
            *ret = r;
        }
        s = skip_ws(s);
        if (*s != '(') {
            *err = "expected '(' in a signature";
            return -1;
        }
    }
    s++;
    int n = 0;
    s = skip_ws(s);
    if (*s == ')') {
        s++;
    } else {
        for (;;) {
            if (n == maxargs) {
                *err = "too many arguments in a signature";
                return -1;
            }
            bool none = word_at(skip_ws(s), "none");
            const Type *t = parse_type(&s, err);
            if (!t)
                return -1;
            if (t == ty_void && none) /* an argument None (Numba's `none`) */
                t = ty_none();
            if (t == ty_void) {
                *err = "an argument cannot be void";
                return -1;
            }
            args[n++] = t;
            s = skip_ws(s);
            if (*s == ',') { /* a trailing comma, as Python's "(int64,)" tuple needs */
                s = skip_ws(s + 1);
                if (*s == ')') {
                    s++;
                    break;
                }
                continue;
            }
            if (*s == ')') {
                s++;
                break;
            }
            *err = "expected ',' or ')' in a signature";
            return -1;
        }
    }
    if (*skip_ws(s)) {
        *err = "unexpected text after a signature";
        return -1;
    }
    return n;
}
