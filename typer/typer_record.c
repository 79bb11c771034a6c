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
 * A field name in brackets is a string literal, as Numba needs a literal there.  A structured
 * dtype that is a global of the program reaches the compiler as its record type's spelling (a
 * module constant, python/numjit/source.py), which `np.empty(n, dtype=DT)` reads back.
 */
#include "typer_internal.h"

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

Val ty_record_attr(Fn *fn, Val r, const char *name, Loc loc) {
    int k = field_of(fn, r.t, name, loc);
    return k < 0 ? bad() : get_field(fn, r, k, loc);
}

bool ty_record_index(Fn *fn, Val o, Node *ix, Loc loc, Val *out) {
    bool rec_array = o.t->kind == TY_ARRAY && o.t->dtype->kind == TY_RECORD;
    if (o.t->kind != TY_RECORD && !(rec_array && ix->kind == ND_STR))
        return false;
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
    const char *name = attr ? target->name : field_name(fn, target->b, r.t);
    if (attr && ty_record_field(r.t, name) < 0 && ty_ext_setattr(fn, r, name, v, loc))
        return true; /* a jitclass's property setter: typer_ext.c */
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
