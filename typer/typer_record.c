/* typer_record.c — records: items of arrays of NumPy structured dtypes (Numba's Record).
 *
 * An array whose dtype is a record type (ir/record.c) indexes like any array; its item, `a[i]`,
 * is a record value: the item's address (`aload` reads nothing), so writing a field writes the
 * array, as in Numba.  Fields are read and written by name:
 *
 *   r.x, r['x']            rec.get (the field's type)
 *   r.x = v, r['x'] = v    rec.set (v cast to the field's type, as Numba's setattr casts)
 *   a['x']                 fieldview: an array of the field's type over the same items
 *                          (layout A: the record's size is its stride)
 *
 * A field name in brackets is a string literal, as Numba needs a literal there.
 *
 * A jitclass instance is such a record (python/numjit/jitclass.py),
 * marked by a last field _nj_CLASS_N; an array member is kept there as integers, the address
 * (field "NAME$DTYPE$NDIM$LAYOUT") and then the extents and the byte strides, and `obj.NAME`
 * is the array they describe (IR_RAWVIEW: borrowed; the Python object holds the array).  A structured
 * dtype that is a global of the program reaches the compiler as its record type's spelling (a
 * module constant, python/numjit/source.py), which `np.empty(n, dtype=DT)` reads back.
 */
#include "typer_internal.h"

#include <stdio.h>
#include <string.h>

static Val bad(void) { return (Val){.k = V_ERR}; }

/* The name of the jitclass whose instances rec holds, or NULL: the Python package puts a
 * class's scalar members in a record whose last field, a byte, is named _nj_NAME_SERIAL
 * (python/numjit/jitclass.py), so that each class has a record type of its own. */
static const char *class_of(Fn *fn, const Type *rec) {
    const char *last = rec->nelems ? rec->fnames[rec->nelems - 1] : "";
    const char *end = strrchr(last, '_');
    if (strncmp(last, "_nj_", 4) || !end || end - last <= 4 || !end[1] ||
        strspn(end + 1, "0123456789") != strlen(end + 1))
        return NULL;
    return arena_printf(fn->tc->arena, "%.*s", (int)(end - last - 4), last + 4);
}

/* The field number of name in rec, or -1 with Numba's complaint. */
static int field_of(Fn *fn, const Type *rec, const char *name, Loc loc) {
    int k = ty_record_field(rec, name);
    const char *cls = class_of(fn, rec);
    if (k >= 0 && cls && k == rec->nelems - 1)
        k = -1; /* the mark is no member */
    if (k < 0 && cls)
        ty_error(fn, loc, "Unknown attribute '%s' of jitclass %s", name, cls);
    else if (k < 0)
        ty_error(fn, loc, "%s has no field '%s'", rec->name, name);
    return k;
}

/* The literal field name of index ix, or NULL with an error. */
static const char *field_name(Fn *fn, const Node *ix, const Type *t) {
    if (ix->kind == ND_STR)
        return ix->str;
    ty_error(fn, ix->loc, "a field of %s is named by a string literal", t->name);
    return NULL;
}

static Val get_field(Fn *fn, Val r, int k, Loc loc) {
    const Type *ft = r.t->elems[k];
    IrInst *v = ty_emit(fn, IR_RGET, ft, loc, 1, &r.v);
    if (v)
        v->imm.index = k;
    return (Val){.k = V_VAL, .t = ft, .v = v};
}

/* The field that starts jitclass array member name in rec ("name$DTYPE$NDIM$LAYOUT", the
 * address; the extents and the byte strides follow it, python/numjit/jitclass.py), or -1;
 * *at gets the member's array type. */
static int array_member(const Type *rec, const char *name, const Type **at) {
    size_t n = strlen(name);
    for (int k = 0; k < rec->nelems; k++) {
        const char *f = rec->fnames[k];
        if (strncmp(f, name, n) || f[n] != '$')
            continue;
        char dt[32], lay;
        int nd, used = 0;
        const char *tail = f + n + 1, *d = strchr(tail, '$');
        if (!d || d - tail >= (int)sizeof dt)
            continue;
        snprintf(dt, sizeof dt, "%.*s", (int)(d - tail), tail);
        const Type *et = ty_from_name(dt);
        if (sscanf(d, "$%d$%c%n", &nd, &lay, &used) != 2 || d[used] || !et || !ty_is_elem(et) ||
            nd < 1 || nd > TY_MAX_NDIM || !strchr("CFA", lay) || k + 2 * nd >= rec->nelems)
            continue;
        *at = ty_array(et, nd, lay == 'C' ? LAYOUT_C : lay == 'F' ? LAYOUT_F : LAYOUT_A);
        return k;
    }
    return -1;
}

/* Array member k of jitclass record r (array_member): a view of its integers. */
static Val get_array_member(Fn *fn, Val r, int k, const Type *at, Loc loc) {
    IrInst *ops[1 + 2 * TY_MAX_NDIM];
    for (int i = 0; i < 1 + 2 * at->ndim; i++)
        ops[i] = get_field(fn, r, k + i, loc).v;
    return vval(at, ty_emit(fn, IR_RAWVIEW, at, loc, 1 + 2 * at->ndim, ops));
}

Val ty_record_attr(Fn *fn, Val r, const char *name, Loc loc) {
    const Type *at;
    int m = class_of(fn, r.t) && ty_record_field(r.t, name) < 0 ? array_member(r.t, name, &at)
                                                                : -1;
    if (m >= 0)
        return get_array_member(fn, r, m, at, loc);
    int k = field_of(fn, r.t, name, loc);
    return k < 0 ? bad() : get_field(fn, r, k, loc);
}

bool ty_record_index(Fn *fn, Val o, Node *ix, Loc loc, Val *out) {
    bool rec_array = o.t->kind == TY_ARRAY && o.t->dtype->kind == TY_RECORD;
    if (o.t->kind != TY_RECORD && !(rec_array && ix->kind == ND_STR))
        return false;
    if (o.t->kind == TY_RECORD && ix->kind != ND_STR && class_of(fn, o.t)) {
        Val a[2] = {o, ty_value(fn, ix)}; /* a jitclass's o[i]: typer_ext.c */
        if (!ty_ext_special(fn, "__getitem__", a, 2, loc, out)) {
            if (a[1].k == V_VAL)
                ty_error(fn, loc, "jitclass %s has no __getitem__", class_of(fn, o.t));
            *out = bad();
        }
        return true;
    }
    *out = bad();
    const Type *rec = rec_array ? o.t->dtype : o.t;
    const char *name = field_name(fn, ix, o.t);
    int k = name ? field_of(fn, rec, name, ix->loc) : -1;
    if (k < 0)
        return true;
    if (!rec_array) {
        *out = get_field(fn, o, k, loc);
        return true;
    }
    const Type *vt = ty_array_ex(rec->elems[k], o.t->ndim, LAYOUT_A, o.t->addrspace,
                                 o.t->readonly);
    IrInst *v = ty_emit(fn, IR_FIELDVIEW, vt, loc, 1, &o.v);
    if (v)
        v->imm.index = k;
    *out = (Val){.k = V_VAL, .t = vt, .v = v};
    return true;
}

/* Stores v into field k of record r. */
static void set_field(Fn *fn, Val r, int k, Val v, Loc loc) {
    const Type *ft = r.t->elems[k];
    if (!ty_is_elem(v.t) || (ty_is_complex(v.t) && !ty_is_complex(ft))) {
        ty_error(fn, loc, "cannot store %s into field '%s' (%s) of a record", v.t->name,
                 r.t->fnames[k], ft->name);
        return;
    }
    IrInst *ops[2] = {r.v, ty_cast(fn, v.v, v.t, ft, loc)};
    IrInst *st = ty_emit(fn, IR_RSET, ty_void, loc, 2, ops);
    if (st)
        st->imm.index = k;
}

bool ty_record_store(Fn *fn, Node *target, Val v, Loc loc) {
    bool attr = target->kind == ND_ATTR;
    if (!attr && target->kind != ND_SUBSCRIPT)
        return false;
    bool emit = fn->emit;
    fn->emit = false; /* the object's type first, without emitting it */
    Val r = ty_value(fn, target->a);
    fn->emit = emit;
    if (r.k != V_VAL || r.t->kind != TY_RECORD)
        return false;
    r = ty_value(fn, target->a);
    if (r.k != V_VAL || v.k != V_VAL)
        return true;
    if (!attr && target->b->kind != ND_STR && class_of(fn, r.t)) {
        Val a[3] = {r, ty_value(fn, target->b), v}, out; /* o[i] = v: typer_ext.c */
        if (!ty_ext_special(fn, "__setitem__", a, 3, target->loc, &out) && a[1].k == V_VAL)
            ty_error(fn, target->loc, "jitclass %s has no __setitem__", class_of(fn, r.t));
        return true;
    }
    const char *name = attr ? target->name : field_name(fn, target->b, r.t);
    if (attr && ty_record_field(r.t, name) < 0 && ty_ext_setattr(fn, r, name, v, loc))
        return true; /* a jitclass's property setter: typer_ext.c */
    const Type *at;
    if (attr && class_of(fn, r.t) && ty_record_field(r.t, name) < 0 &&
        array_member(r.t, name, &at) >= 0) {
        ty_error(fn, target->loc, "assigning the array member '%s' of jitclass %s in compiled "
                 "code is not supported by numjit yet (assign to its elements, or assign the "
                 "member from Python)", name, class_of(fn, r.t));
        return true;
    }
    int k = name ? field_of(fn, r.t, name, attr ? target->loc : target->b->loc) : -1;
    if (k >= 0)
        set_field(fn, r, k, v, loc);
    return true;
}

bool ty_record_target(Fn *fn, Node *target) {
    if (target->kind != ND_ATTR && target->kind != ND_SUBSCRIPT)
        return false;
    bool emit = fn->emit;
    fn->emit = false;
    Val r = ty_value(fn, target->a);
    fn->emit = emit;
    return r.k == V_VAL && r.t->kind == TY_RECORD;
}

const Type *ty_record_dtype(Fn *fn, Node *e) {
    const Node *v = e;
    for (int i = 0; v->kind == ND_NAME && i < fn->tc->m->nconsts; i++)
        if (!strcmp(fn->tc->m->consts[i].name, v->name)) {
            v = fn->tc->m->consts[i].value;
            break;
        }
    if (v->kind != ND_STR || strncmp(v->str, "Record(", 7))
        return NULL;
    return ty_from_name(v->str);
}
