/* types.c — numjit's types and Numba's typing rules for them (their spellings are read by
 * type_names.c).
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
