/* dispatch.c — dispatchers: from argument values to a compiled specialization, and the call.
 *
 * A call packs each argument into a 32-bit key (kind, dtype, ndim, layout — the layout read
 * off the strides: C-contiguous, F-contiguous or any — and for an array the caller passed as
 * NJ_KIND_READONLY_ARRAY a read-only bit: Numba's readonly array, which the function may not
 * write, is another type and another specialization), scans the published table of
 * specializations (no lock: the table is immutable and replaced whole), and calls the generic
 * entry with pointers to the arguments.  A miss takes the dispatcher's lock, checks again,
 * compiles (pipeline.c) and publishes a new table.  Old tables are kept until the function is
 * freed, since a reader may still be scanning one.
 */
#include "runtime.h"

#include <stdlib.h>
#include <string.h>

static const TypeKind dtype_kinds[NJ_DTYPE_COUNT] = {
    TY_BOOL, TY_I8, TY_I16, TY_I32, TY_I64, TY_U8, TY_U16, TY_U32, TY_U64, TY_F32, TY_F64,
    TY_C64, TY_C128};

const Type *rt_type_of_dtype(NjDType d) {
    return (unsigned)d < NJ_DTYPE_COUNT ? ty_scalar(dtype_kinds[d]) : NULL;
}

NjStatus rt_dtype_of_type(const Type *t, NjDType *out) {
    for (int i = 0; i < NJ_DTYPE_COUNT; i++)
        if (t->kind == dtype_kinds[i]) {
            *out = (NjDType)i;
            return NJ_OK;
        }
    return NJ_ERR_TYPE;
}

/* The byte span [lo, hi) that a's elements reach, relative to a->data; false when empty. */
bool rt_array_span(const NjArray *a, int64_t *lo, int64_t *hi) {
    *lo = 0;
    *hi = nj_dtype_size(a->dtype);
    for (int d = 0; d < a->ndim; d++) {
        if (a->shape[d] == 0)
            return false;
        int64_t ext = (a->shape[d] - 1) * a->strides[d];
        if (ext < 0)
            *lo += ext;
        else
            *hi += ext;
    }
    return true;
}

ArrayLayout rt_layout_of(const NjArray *a) {
    int64_t item = nj_dtype_size(a->dtype), expect = item;
    bool c = true, f = true;
    for (int i = a->ndim - 1; i >= 0; i--) {
        if (a->shape[i] != 1 && a->strides[i] != expect)
            c = false;
        expect *= a->shape[i];
    }
    expect = item;
    for (int i = 0; i < a->ndim; i++) {
        if (a->shape[i] != 1 && a->strides[i] != expect)
            f = false;
        expect *= a->shape[i];
    }
    return c ? LAYOUT_C : f ? LAYOUT_F : LAYOUT_A;
}

#define KEY_READONLY (1u << 28)
/* An argument key's kind, in bits 24..27: new kinds take the next free number. */
enum {
    KEY_SCALAR = 1,
    KEY_ARRAY = 2,
    KEY_NONE = 3,
    KEY_LIST = 5,
    KEY_RLIST = 6,
    KEY_STR = 7,
    KEY_TUPLE = 8, /* the low 24 bits number the tuple type (tuple_key) */
    KEY_SET = 9,   /* a set of numbers from Python (Numba's reflected set): the dtype low */
    KEY_DICT = 10, /* a typed dict: the key's item code low, the value's in bits 8..15 */
    KEY_RECARRAY = 12, /* an array of records: numbered as tuples are (tuple_key) */
    KEY_RECORD = 13,   /* a record: numbered as tuples are (tuple_key) */
};

/* The item code (numjit.h: NjDictItem) of a dict's key or value type t: false for types a host
 * cannot hold (tuples, arrays, dicts; complex keys are refused by nj_dict_item_ok's callers). */
bool rt_dict_item_of_type(const Type *t, NjDictItem *out) {
    NjDType d;
    if (t == ty_str) {
        *out = NJ_DICT_STR;
        return true;
    }
    if (!t || !ty_is_scalar(t) || rt_dtype_of_type(t, &d) != NJ_OK)
        return false;
    *out = (NjDictItem)d;
    return true;
}

const Type *rt_type_of_dict_item(NjDictItem c) {
    return c == NJ_DICT_STR ? ty_str : rt_type_of_dtype((NjDType)c);
}

ArgKey rt_arg_key(const NjValue *v) {
    if (v->kind == NJ_KIND_ARRAY || v->kind == NJ_KIND_DEVICE_ARRAY ||
        v->kind == NJ_KIND_READONLY_ARRAY) {
        const NjArray *a = v->v.a;
        return (ArgKey)a->dtype | (ArgKey)a->ndim << 8 | (ArgKey)rt_layout_of(a) << 16 | 2u << 24 |
               (v->kind == NJ_KIND_READONLY_ARRAY ? KEY_READONLY : 0);
    }
    if (v->kind == NJ_KIND_NONE)
        return (ArgKey)KEY_NONE << 24;
    if (v->kind == NJ_KIND_STR)
        return (ArgKey)KEY_STR << 24;
    return (ArgKey)v->dtype | (ArgKey)KEY_SCALAR << 24;
}

/* Tuple types get keys by number: the n-th tuple type any dispatcher saw is KEY_TUPLE << 24 | n
 * (records and arrays of records share the numbers, under their own kinds).  Types are interned, so the pointer is the type; the list only grows (a few per program). */
static pthread_mutex_t tuple_keys_lock = PTHREAD_MUTEX_INITIALIZER;
static const Type **tuple_keys;
static int ntuple_keys, cap_tuple_keys;

static bool tuple_key(const Type *t, ArgKey *out) {
    pthread_mutex_lock(&tuple_keys_lock);
    int i = 0;
    while (i < ntuple_keys && tuple_keys[i] != t)
        i++;
    if (i == ntuple_keys) {
        if (ntuple_keys == cap_tuple_keys) {
            int cap = cap_tuple_keys ? cap_tuple_keys * 2 : 16;
            const Type **g = cap < 1 << 24 ? realloc(tuple_keys, sizeof *g * (size_t)cap) : NULL;
            if (!g) {
                pthread_mutex_unlock(&tuple_keys_lock);
                return false;
            }
            tuple_keys = g;
            cap_tuple_keys = cap;
        }
        tuple_keys[ntuple_keys++] = t;
    }
    pthread_mutex_unlock(&tuple_keys_lock);
    *out = (ArgKey)i | (ArgKey)KEY_TUPLE << 24;
    return true;
}

static const Type *tuple_of_key(ArgKey k) {
    int i = (int)(k & 0xffffff);
    pthread_mutex_lock(&tuple_keys_lock);
    const Type *t = i < ntuple_keys ? tuple_keys[i] : NULL;
    pthread_mutex_unlock(&tuple_keys_lock);
    return t;
}

const Type *rt_type_of_key(ArgKey k) {
    if (((k >> 24) & 0xf) == KEY_TUPLE || ((k >> 24) & 0xf) == KEY_RECARRAY ||
        ((k >> 24) & 0xf) == KEY_RECORD)
        return tuple_of_key(k);
    if (((k >> 24) & 0xf) == KEY_NONE)
        return ty_none();
    if (((k >> 24) & 0xf) == KEY_STR)
        return ty_str;
    if (((k >> 24) & 0xf) == KEY_DICT) {
        const Type *key = rt_type_of_dict_item((NjDictItem)(k & 0xff));
        const Type *val = rt_type_of_dict_item((NjDictItem)((k >> 8) & 0xff));
        return key && val ? ty_dict(key, val) : NULL;
    }
    if (((k >> 24) & 0xf) == KEY_SET) {
        const Type *item = rt_type_of_dtype((NjDType)(k & 0xff));
        return item ? ty_set(item) : NULL;
    }
    if ((((k >> 24) & 0xf) == KEY_LIST || ((k >> 24) & 0xf) == KEY_RLIST) &&
        (k & 0xff) == NJ_DTYPE_COUNT) /* a list of strings */
        return ty_list(ty_str, ((k >> 24) & 0xf) == KEY_RLIST);
    const Type *dt = rt_type_of_dtype((NjDType)(k & 0xff));
    if (!dt)
        return NULL;
    if (((k >> 24) & 0xf) == 2)
        return ty_array_ex(dt, (int)((k >> 8) & 0xff), (ArrayLayout)((k >> 16) & 0xff), AS_GENERIC,
                           (k & KEY_READONLY) != 0);
    if (((k >> 24) & 0xf) == KEY_LIST || ((k >> 24) & 0xf) == KEY_RLIST)
        return ty_list(dt, ((k >> 24) & 0xf) == KEY_RLIST);
    return dt;
}

static Spec *find_spec(NjFunction *f, const ArgKey *keys, int n) {
    SpecTable *t = atomic_load_explicit(&f->table, memory_order_acquire);
    if (!t)
        return NULL;
    for (int i = 0; i < t->n; i++) {
        Spec *s = t->items[i];
        if (s->nargs == n && !memcmp(s->keys, keys, sizeof(ArgKey) * (size_t)n))
            return s;
    }
    return NULL;
}

static void spec_free(Spec *s) {
    for (int i = 0; i < s->nraises; i++)
        nj_free(s->raise_msgs[i]);
    nj_free(s->raise_msgs);
    nj_free(s->raise_exc);
    nj_free(s);
}

void rt_function_free(NjFunction *f) {
    if (!f)
        return;
    SpecTable *t = atomic_load(&f->table);
    if (t)
        for (int i = 0; i < t->n; i++)
            spec_free(t->items[i]);
    nj_free(t);
    for (int i = 0; i < f->old_tables.n; i++)
        nj_free(f->old_tables.items[i]);
    pv_free(&f->old_tables);
    pthread_mutex_destroy(&f->lock);
    nj_free(f);
}

/* Finds or compiles the specialization for these argument types (keys, or types when keys is
 * NULL: explicit signatures). */
static NjStatus get_spec(NjFunction *f, const ArgKey *keys, const Type **types, int n,
                         Spec **out) {
    if (n > 16) {
        rt_set_errorf(f->module->ctx, "error: %s() has too many arguments for numjit (at most 16)",
                      f->info->name);
        return NJ_ERR_ARGS;
    }
    ArgKey kbuf[16];
    if (!keys) { /* synthesize keys from types so explicit and dynamic calls share specs */
        for (int i = 0; i < n; i++) {
            NjDType d;
            const Type *t = types[i];
            if (ty_is_none(t)) {
                kbuf[i] = (ArgKey)KEY_NONE << 24;
                continue;
            }
            if (t == ty_str) {
                kbuf[i] = (ArgKey)KEY_STR << 24;
                continue;
            }
            if (t->kind == TY_DICT) {
                NjDictItem kc, vc;
                if (!rt_dict_item_of_type(t->key, &kc) || !rt_dict_item_of_type(t->dtype, &vc) ||
                    !nj_dict_item_ok(kc, vc)) {
                    rt_set_errorf(f->module->ctx, "error: %s() cannot be compiled for an "
                                  "argument of type %s: numjit passes dicts of numbers and "
                                  "strings (keys not complex) between Python and compiled code",
                                  f->info->name, t->name);
                    return NJ_ERR_TYPE;
                }
                kbuf[i] = (ArgKey)kc | (ArgKey)vc << 8 | (ArgKey)KEY_DICT << 24;
                continue;
            }
            if (t->kind == TY_TUPLE) {
                if (!tuple_key(t, &kbuf[i]))
                    return NJ_ERR_NOMEM;
                continue;
            }
            bool rec = t->kind == TY_RECORD;
            if (rec || (t->kind == TY_ARRAY && t->dtype->kind == TY_RECORD)) {
                if (!tuple_key(t, &kbuf[i]))
                    return NJ_ERR_NOMEM;
                kbuf[i] = (kbuf[i] & 0xffffff) | (ArgKey)(rec ? KEY_RECORD : KEY_RECARRAY) << 24;
                continue;
            }
            const Type *sc =
                t->kind == TY_ARRAY || t->kind == TY_LIST || t->kind == TY_SET ? t->dtype : t;
            if (t->kind == TY_LIST && sc == ty_str) /* a list of strings: numjit.h */
                d = NJ_DTYPE_COUNT;
            else if (!sc || rt_dtype_of_type(sc, &d) != NJ_OK) {
                rt_set_errorf(f->module->ctx, "error: %s() cannot be compiled for an argument of "
                              "type %s", f->info->name, t->name);
                return NJ_ERR_TYPE;
            }
            kbuf[i] = t->kind == TY_ARRAY
                          ? (ArgKey)d | (ArgKey)t->ndim << 8 | (ArgKey)t->layout << 16 | 2u << 24 |
                                (t->readonly ? KEY_READONLY : 0)
                      : t->kind == TY_LIST ? (ArgKey)d | (ArgKey)(t->reflected ? KEY_RLIST : KEY_LIST) << 24
                      : t->kind == TY_SET  ? (ArgKey)d | (ArgKey)KEY_SET << 24
                                           : (ArgKey)d | 1u << 24;
        }
        keys = kbuf;
    }
    Spec *s = find_spec(f, keys, n);
    if (s) {
        *out = s;
        return NJ_OK;
    }
    const Type *tbuf[16];
    if (!types) {
        for (int i = 0; i < n; i++)
            if (!(tbuf[i] = rt_type_of_key(keys[i]))) {
                rt_set_errorf(f->module->ctx, "error: argument %d of %s() has an unknown dtype",
                              i + 1, f->info->name);
                return NJ_ERR_ARGS;
            }
        types = tbuf;
    }
    NjStatus st = rt_ensure_jit(f->module->ctx);
    if (st)
        return st;
    pthread_mutex_lock(&f->lock);
    s = find_spec(f, keys, n);
    if (!s) {
        s = nj_calloc(1, sizeof *s);
        if (!s) {
            pthread_mutex_unlock(&f->lock);
            return NJ_ERR_NOMEM;
        }
        s->nargs = n;
        memcpy(s->keys, keys, sizeof(ArgKey) * (size_t)n);
        st = rt_compile_spec(f, types, n, s);
        if (st) {
            spec_free(s);
            pthread_mutex_unlock(&f->lock);
            return st;
        }
        SpecTable *old = atomic_load(&f->table);
        int on = old ? old->n : 0;
        SpecTable *t = nj_malloc(sizeof *t + sizeof(Spec *) * (size_t)(on + 1));
        if (!t) {
            spec_free(s);
            pthread_mutex_unlock(&f->lock);
            return NJ_ERR_NOMEM;
        }
        t->n = on + 1;
        if (on)
            memcpy(t->items, old->items, sizeof(Spec *) * (size_t)on);
        t->items[on] = s;
        atomic_store_explicit(&f->table, t, memory_order_release);
        if (old)
            pv_push(&f->old_tables, old);
    }
    pthread_mutex_unlock(&f->lock);
    *out = s;
    return NJ_OK;
}

/* Scalar argument storage in its exact C type. */
typedef union {
    bool b;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    float f32;
    double f64;
    float c64[2];
    double c128[2];
} Slot;

static void put_scalar(Slot *s, const NjValue *v) {
    switch (v->dtype) {
    case NJ_BOOL: s->b = v->v.b; break;
    case NJ_INT8: s->i8 = (int8_t)v->v.i; break;
    case NJ_INT16: s->i16 = (int16_t)v->v.i; break;
    case NJ_INT32: s->i32 = (int32_t)v->v.i; break;
    case NJ_INT64: s->i64 = v->v.i; break;
    case NJ_UINT8: s->u8 = (uint8_t)v->v.u; break;
    case NJ_UINT16: s->u16 = (uint16_t)v->v.u; break;
    case NJ_UINT32: s->u32 = (uint32_t)v->v.u; break;
    case NJ_UINT64: s->u64 = v->v.u; break;
    case NJ_FLOAT32: s->f32 = (float)v->v.f; break;
    case NJ_FLOAT64: s->f64 = v->v.f; break;
    case NJ_COMPLEX64: s->c64[0] = (float)v->v.c[0], s->c64[1] = (float)v->v.c[1]; break;
    case NJ_COMPLEX128: s->c128[0] = v->v.c[0], s->c128[1] = v->v.c[1]; break;
    default: break;
    }
}

static void get_result(const Slot *s, const Type *t, NjValue *r) {
    memset(r, 0, sizeof *r);
    if (t == ty_void)
        return;
    r->kind = NJ_KIND_SCALAR;
    rt_dtype_of_type(t, &r->dtype);
    switch (t->kind) {
    case TY_BOOL: r->v.b = s->b; break;
    case TY_I8: r->v.i = s->i8; break;
    case TY_I16: r->v.i = s->i16; break;
    case TY_I32: r->v.i = s->i32; break;
    case TY_I64: r->v.i = s->i64; break;
    case TY_U8: r->v.u = s->u8; break;
    case TY_U16: r->v.u = s->u16; break;
    case TY_U32: r->v.u = s->u32; break;
    case TY_U64: r->v.u = s->u64; break;
    case TY_F32: r->v.f = s->f32; break;
    case TY_F64: r->v.f = s->f64; break;
    case TY_C64: r->v.c[0] = s->c64[0], r->v.c[1] = s->c64[1]; break;
    case TY_C128: r->v.c[0] = s->c128[0], r->v.c[1] = s->c128[1]; break;
    default: r->kind = NJ_KIND_NONE; break;
    }
}

static NjStatus check_args(NjFunction *f, const NjValue *args, int nargs) {
    NjContext *ctx = f->module->ctx;
    int want = f->info->def->params.n;
    if (nargs != want) {
        rt_set_errorf(ctx, "error: %s() takes %d argument%s but %d %s given", f->info->name, want,
                      want == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
        return NJ_ERR_ARGS;
    }
    for (int i = 0; i < nargs; i++) {
        const NjValue *v = &args[i];
        bool ok = (v->kind == NJ_KIND_SCALAR && (unsigned)v->dtype < NJ_DTYPE_COUNT) ||
                  ((v->kind == NJ_KIND_ARRAY || v->kind == NJ_KIND_READONLY_ARRAY) && v->v.a &&
                   (unsigned)v->v.a->dtype < NJ_DTYPE_COUNT &&
                   v->v.a->ndim >= 0 && v->v.a->ndim <= NJ_MAX_NDIM) ||
                  (v->kind == NJ_KIND_STR && v->v.s && v->v.s->data);
        if (!ok) {
            rt_set_errorf(ctx, "error: argument %d of %s() is not a number, a string or an array", i + 1,
                          f->info->name);
            return NJ_ERR_ARGS;
        }
    }
    return NJ_OK;
}

static NjStatus raised(NjFunction *f, Spec *s, int32_t status) {
    if (status > 0 && status <= s->nraises)
        rt_set_error(f->module->ctx, s->raise_msgs[status - 1]);
    else
        rt_set_errorf(f->module->ctx, "error: compiled code failed with status %d", status);
    return NJ_ERR_RUNTIME;
}

NjStatus nj_call(NjFunction *f, const NjValue *args, int nargs, NjValue *result) {
    if (nargs < 0 || nargs > 16 || (nargs && !args))
        return check_args(f, args, nargs < 0 ? 0 : nargs) ? NJ_ERR_ARGS : NJ_ERR_ARGS;
    ArgKey keys[16];
    void *ptrs[16];
    Slot slots[16];
    for (int i = 0; i < nargs; i++) {
        if ((args[i].kind == NJ_KIND_ARRAY || args[i].kind == NJ_KIND_READONLY_ARRAY) && args[i].v.a &&
            (unsigned)args[i].v.a->ndim <= NJ_MAX_NDIM && (unsigned)args[i].v.a->dtype < NJ_DTYPE_COUNT) {
            keys[i] = rt_arg_key(&args[i]);
            ptrs[i] = args[i].v.a;
        } else if (args[i].kind == NJ_KIND_STR && args[i].v.s && args[i].v.s->data) {
            keys[i] = rt_arg_key(&args[i]);
            ptrs[i] = args[i].v.s;
        } else if (args[i].kind == NJ_KIND_SCALAR && (unsigned)args[i].dtype < NJ_DTYPE_COUNT) {
            keys[i] = rt_arg_key(&args[i]);
            put_scalar(&slots[i], &args[i]);
            ptrs[i] = &slots[i];
        } else {
            return check_args(f, args, nargs);
        }
    }
    Spec *s = find_spec(f, keys, nargs);
    if (!s) {
        NjStatus st = check_args(f, args, nargs);
        if (!st)
            st = get_spec(f, keys, NULL, nargs, &s);
        if (st)
            return st;
    }
    bool to_array = s->ret->kind == TY_ARRAY && result && result->kind == NJ_KIND_ARRAY &&
                    result->v.a;
    if (s->ret == ty_str) { /* the entry writes an NjStr where result->v.s points */
        if (!result || result->kind != NJ_KIND_STR || !result->v.s) {
            rt_set_errorf(f->module->ctx, "error: %s() returns a string, which an NjValue holds "
                          "only when kind is NJ_KIND_STR and v.s points to an NjStr",
                          f->info->name);
            return NJ_ERR_UNSUPPORTED;
        }
        int32_t status = s->entry(ptrs, result->v.s);
        return status ? raised(f, s, status) : NJ_OK;
    }
    if ((s->ret->kind == TY_TUPLE || s->ret->kind == TY_ARRAY || s->ret->kind == TY_LIST ||
         s->ret->kind == TY_SET || s->ret->kind == TY_DICT) &&
        !to_array) {
        rt_set_errorf(f->module->ctx, "error: %s() returns %s (%s), which an NjValue cannot "
                      "hold%s: call it through nj_function_entry_info", f->info->name,
                      s->ret->kind == TY_TUPLE  ? "a tuple"
                      : s->ret->kind == TY_LIST ? "a list"
                      : s->ret->kind == TY_SET  ? "a set"
                      : s->ret->kind == TY_DICT ? "a dict"
                                                : "an array",
                      s->ret->name,
                      s->ret->kind == TY_ARRAY ? " unless result->v.a points to an NjArray" : "");
        return NJ_ERR_UNSUPPORTED;
    }
    if (to_array) { /* the entry writes an NjArray (numjit.h: NjEntryInfo) */
        int32_t status = s->entry(ptrs, result->v.a);
        if (status)
            return raised(f, s, status);
        rt_dtype_of_type(s->ret->dtype, &result->dtype);
        return NJ_OK;
    }
    Slot res;
    memset(&res, 0, sizeof res);
    int32_t status = s->entry(ptrs, &res);
    if (status)
        return raised(f, s, status);
    if (result)
        get_result(&res, s->ret, result);
    return NJ_OK;
}

static NjStatus parse_signature(NjFunction *f, const char *sig, const Type **types, int *n) {
    const Type *ret;
    const char *err;
    int k = ty_parse_sig(sig, &ret, types, 16, &err);
    if (k < 0) {
        rt_set_errorf(f->module->ctx, "error: bad signature '%s': %s", sig, err);
        return NJ_ERR_ARGS;
    }
    if (k != f->info->def->params.n) {
        rt_set_errorf(f->module->ctx, "error: %s() takes %d arguments but the signature '%s' has %d",
                      f->info->name, f->info->def->params.n, sig, k);
        return NJ_ERR_ARGS;
    }
    *n = k;
    return NJ_OK;
}

/* Whether t is or holds a record, or holds an array of records (an array of records alone
 * comes back as bytes, NJ_UINT8 with a last dimension of the record's size: cg_put_njarray). */
static bool has_record(const Type *t, bool top) {
    if (top && ty_is_instance(t)) /* a jitclass instance: its record's bytes (cg_put_instance) */
        return false;
    if (t->kind == TY_RECORD || (t->kind == TY_ARRAY && t->dtype->kind == TY_RECORD &&
                                 (!top || t->ndim == TY_MAX_NDIM)))
        return true;
    for (int i = 0; t->kind == TY_TUPLE && i < t->nelems; i++)
        if (has_record(t->elems[i], false))
            return true;
    return false;
}

/* Whether t holds a dict inside a tuple (a dict alone is NJ_KIND_DICT). */
static bool has_inner_dict(const Type *t) {
    for (int i = 0; t->kind == TY_TUPLE && i < t->nelems; i++)
        if (t->elems[i]->kind == TY_DICT || has_inner_dict(t->elems[i]))
            return true;
    return false;
}

/* Whether t is or holds a function value (TR_FUNC), which has no Python form here. */
static bool has_func(const Type *t) {
    if (ty_is_func(t))
        return true;
    for (int i = 0; t->kind == TY_TUPLE && i < t->nelems; i++)
        if (has_func(t->elems[i]))
            return true;
    return false;
}

NjStatus nj_function_entry_info(NjFunction *f, const char *signature, NjEntryInfo *out) {
    const Type *types[16];
    int n;
    NjStatus st = parse_signature(f, signature, types, &n);
    Spec *s = NULL;
    if (!st)
        st = get_spec(f, NULL, types, n, &s);
    if (st)
        return st;
    if (has_func(s->ret)) {
        rt_set_errorf(f->module->ctx, "error: %s() returns %s: numjit gives a function back "
                      "only to compiled code, not to Python, yet", f->info->name, s->ret->name);
        return NJ_ERR_TYPE;
    }
    if (has_record(s->ret, true)) {
        rt_set_errorf(f->module->ctx, "error: %s() returns %s: numjit gives records back to the "
                      "caller only as arrays of them (of at most %d dimensions), not alone or in "
                      "tuples, yet", f->info->name, s->ret->name, TY_MAX_NDIM - 1);
        return NJ_ERR_TYPE;
    }
    NjDictItem kc = 0, vc = 0;
    if (has_inner_dict(s->ret) ||
        (s->ret->kind == TY_DICT &&
         (!rt_dict_item_of_type(s->ret->key, &kc) || !rt_dict_item_of_type(s->ret->dtype, &vc) ||
          !nj_dict_item_ok(kc, vc)))) {
        rt_set_errorf(f->module->ctx, "error: %s() returns %s: numjit gives a dict back to the "
                      "caller only alone (not in a tuple) and with keys and values that are "
                      "numbers or strings (keys not complex), not yet others", f->info->name,
                      s->ret->name);
        return NJ_ERR_TYPE;
    }
    memset(out, 0, sizeof *out);
    out->entry = s->entry;
    out->result_kind = s->ret == ty_void ? NJ_KIND_NONE : NJ_KIND_SCALAR;
    out->result_dtype = NJ_FLOAT64;
    if (s->ret->kind == TY_TUPLE) {
        /* a C struct (cg_result_layout): scalars aligned to their size, NjArrays to 8; an
         * Optional is the pair (valid, value) */
        out->result_kind = ty_is_optional(s->ret) ? NJ_KIND_OPTIONAL : NJ_KIND_TUPLE;
        out->result_size = cg_result_layout(s->ret, out->result_offsets);
        for (int i = 0; i < s->ret->nelems && i < 16; i++) {
            const Type *et = s->ret->elems[i];
            out->result_kinds[i] = et->kind == TY_ARRAY ? NJ_KIND_ARRAY
                                   : et->kind == TY_LIST ? NJ_KIND_LIST
                                   : et->kind == TY_SET  ? NJ_KIND_SET
                                   : et == ty_str        ? NJ_KIND_STR
                                   : ty_is_optional(et)  ? NJ_KIND_OPTIONAL
                                   : ty_is_none(et)      ? NJ_KIND_NONE
                                   : et->kind == TY_TUPLE ? NJ_KIND_TUPLE
                                                         : NJ_KIND_SCALAR;
            if (et == ty_str || et->kind == TY_TUPLE)
                continue;
            if (et->kind == TY_LIST && et->dtype == ty_str) { /* strings: numjit.h */
                out->result_dtypes[i] = NJ_DTYPE_COUNT;
                continue;
            }
            rt_dtype_of_type(et->kind == TY_ARRAY || et->kind == TY_LIST || et->kind == TY_SET
                                 ? et->dtype
                                 : et,
                             &out->result_dtypes[i]);
        }
        out->result_count = s->ret->nelems;
    } else if (s->ret->kind == TY_DICT) { /* the dict's address, a reference (numjit.h) */
        out->result_kind = NJ_KIND_DICT;
        out->result_size = (int)sizeof(void *);
        out->result_count = 2;
        out->result_dtypes[0] = (NjDType)kc;
        out->result_dtypes[1] = (NjDType)vc;
    } else if (s->ret->kind == TY_SET) { /* the items as an NjArray owning a list of them */
        out->result_kind = NJ_KIND_SET;
        out->result_size = (int)sizeof(NjArray);
        rt_dtype_of_type(s->ret->dtype, &out->result_dtype);
    } else if (s->ret->kind == TY_LIST) { /* the items as an NjArray owning the list */
        out->result_kind = NJ_KIND_LIST;
        out->result_size = (int)sizeof(NjArray);
        if (s->ret->dtype == ty_str) /* NjStr items (numjit.h) */
            out->result_dtype = NJ_DTYPE_COUNT;
        else
            rt_dtype_of_type(s->ret->dtype, &out->result_dtype);
    } else if (s->ret == ty_str) {
        out->result_kind = NJ_KIND_STR;
        out->result_size = (int)sizeof(NjStr);
    } else if (s->ret->kind == TY_ARRAY || ty_is_instance(s->ret)) {
        /* a jitclass instance comes as an array of its record's bytes owning its block */
        out->result_kind = NJ_KIND_ARRAY;
        out->result_size = (int)sizeof(NjArray);
        if (s->ret->kind == TY_RECORD)
            out->result_dtype = NJ_UINT8;
        else
            rt_dtype_of_type(s->ret->dtype, &out->result_dtype);
    } else if (s->ret != ty_void) {
        rt_dtype_of_type(s->ret, &out->result_dtype);
    }
    return NJ_OK;
}

/* The preorder nodes of t's C layout at byte base (numjit.h: NjLayoutNode); *n counts all
 * of them, those past cap are not written. */
static void layout_nodes(const Type *t, int base, NjLayoutNode *nodes, int cap, int *n) {
    int k = (*n)++;
    NjLayoutNode node = {.kind = NJ_KIND_SCALAR, .dtype = NJ_FLOAT64, .offset = base};
    if (ty_is_none(t)) {
        node.kind = NJ_KIND_NONE;
    } else if (t->kind == TY_TUPLE) {
        node.kind = ty_is_optional(t) ? NJ_KIND_OPTIONAL : NJ_KIND_TUPLE;
        node.count = t->nelems;
        int buf[16], *off = t->nelems <= 16 ? buf : nj_malloc(sizeof *off * (size_t)t->nelems);
        if (off) {
            cg_c_layout(t, off, NULL);
            for (int i = 0; i < t->nelems; i++)
                layout_nodes(t->elems[i], base + off[i], nodes, cap, n);
            if (off != buf)
                nj_free(off);
        }
    } else if (t->kind == TY_ARRAY) {
        node.kind = NJ_KIND_ARRAY;
        node.count = t->ndim;
        rt_dtype_of_type(t->dtype, &node.dtype);
    } else if (t->kind == TY_SET) { /* an NjArray of the items, owning a list of them */
        node.kind = NJ_KIND_SET;
        node.count = 1;
        rt_dtype_of_type(t->dtype, &node.dtype);
    } else if (t->kind == TY_LIST) { /* an NjArray of the items, owning the list */
        node.kind = NJ_KIND_LIST;
        node.count = 1;
        if (t->dtype == ty_str) /* NjStr items (numjit.h) */
            node.dtype = NJ_DTYPE_COUNT;
        else
            rt_dtype_of_type(t->dtype, &node.dtype);
    } else if (t == ty_str) {
        node.kind = NJ_KIND_STR;
    } else {
        rt_dtype_of_type(t, &node.dtype);
    }
    if (k < cap)
        nodes[k] = node;
}

static int type_layout(const Type *t, NjLayoutNode *nodes, int cap, int *size) {
    int n = 0, sz = t == ty_void ? 0 : cg_c_layout(t, NULL, NULL);
    if (sz < 0)
        return -1;
    if (size)
        *size = sz;
    if (t != ty_void)
        layout_nodes(t, 0, nodes, cap, &n);
    return n;
}

int nj_type_layout(NjContext *ctx, const char *type, NjLayoutNode *nodes, int cap, int *size) {
    const Type *t = type ? ty_from_name(type) : NULL;
    int n = t ? type_layout(t, nodes, cap, size) : -1;
    if (n < 0 && ctx)
        rt_set_errorf(ctx, "error: '%s' is not a type numjit passes to compiled code",
                      type ? type : "(null)");
    return n;
}

int nj_function_result_layout(NjFunction *f, NjEntry entry, NjLayoutNode *nodes, int cap,
                              int *size) {
    SpecTable *t = atomic_load_explicit(&f->table, memory_order_acquire);
    for (int i = 0; t && i < t->n; i++)
        if (t->items[i]->entry == entry)
            return type_layout(t->items[i]->ret, nodes, cap, size);
    rt_set_errorf(f->module->ctx, "error: not an entry of %s()", f->info->name);
    return -1;
}

NjStatus nj_function_entry(NjFunction *f, const char *signature, NjEntry *out) {
    NjEntryInfo info;
    NjStatus st = nj_function_entry_info(f, signature, &info);
    *out = st ? NULL : info.entry;
    return st;
}

NjStatus nj_function_raise(NjFunction *f, NjEntry entry, int32_t site, const char **exc) {
    SpecTable *t = atomic_load_explicit(&f->table, memory_order_acquire);
    for (int i = 0; t && i < t->n; i++) {
        Spec *s = t->items[i];
        if (s->entry == entry) {
            if (exc)
                *exc = site > 0 && site <= s->nraises ? s->raise_exc[site - 1] : "RuntimeError";
            return raised(f, s, site);
        }
    }
    if (exc)
        *exc = "RuntimeError";
    rt_set_errorf(f->module->ctx, "error: compiled code failed with status %d", site);
    return NJ_ERR_RUNTIME;
}

NjStatus nj_function_dump(NjFunction *f, const char *signature, const char *what, char **out) {
    *out = NULL;
    const Type *types[16];
    int n;
    NjStatus st = parse_signature(f, signature, types, &n);
    if (st)
        return st;
    if (!strcmp(what, "ret")) { /* the return type's spelling, from the compiled specialization */
        Spec *s = NULL;
        if ((st = get_spec(f, NULL, types, n, &s)))
            return st;
        return rt_give_string(s->ret->name, out);
    }
    return rt_dump_spec(f, types, n, what, out);
}
