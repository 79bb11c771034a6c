/* typer_dict.c — typed dicts in compiled code (Numba's DictType), typed as Numba 0.56 types
 * them and expanded into the dict ops of the IR (dict.new ... dict.clear; the hash table is
 * runtime/dict.c's, the lowering codegen/dict.c's).
 *
 *   {k: v, ...}        dict.new, then each item stored; keys and values each unified to one
 *                      type (Numba refuses a literal whose keys or values do not unify)
 *   {}, dict()         DictType[undefined,undefined]: the variable holding it gets its types
 *                      from the first `d[k] = v` (Numba's refinement of an empty dict)
 *   Dict.empty(key_type=..., value_type=...)   numba.typed.Dict.empty, the types read from
 *                      the arguments as written (types.int64, types.float64[:], ...)
 *   d[k]               dict.find, KeyError (no message, as Numba's) when absent, dict.value
 *   d[k] = v           dict.find, then dict.setvalue or dict.insert
 *   k in d, len(d)     dict.find >= 0, dict.len
 *   del d[k]           dict.find, KeyError when absent, dict.delete
 *   for k in d         entries from dict.next(d, 0) on, in insertion order; also d.keys(),
 *                      d.values() and d.items() as the iterable of a for loop
 *   d.get, d.pop, ...  rows of lib/dict.c, whose handlers are here
 *
 * A dict variable owns a reference to the dict (ty_has_refs), as a list variable does; a new
 * dict is owned by the statement that made it (ty_own) until a variable takes it.  Dicts are a
 * CPU feature: in CUDA code each construct is refused at its location.
 */
#include "typer_internal.h"
#include "../lib/lib.h"

#include <string.h>

static bool on_cpu(Fn *fn, Loc loc) {
    if (fn->tc->target == TARGET_CPU)
        return true;
    ty_error(fn, loc, "dicts are not supported in CUDA kernels and device functions");
    return false;
}

static bool typed_items(Fn *fn, Val d, Loc loc) {
    if (d.t->key)
        return true;
    ty_error(fn, loc, "the types of this empty dict's keys and values are not known: assign "
             "an item to it first");
    return false;
}

/* A new empty dict of type dt, owned until the end of the statement. */
static Val new_dict(Fn *fn, const Type *dt, Loc loc) {
    IrInst *d = ty_emit(fn, IR_DNEW, dt, loc, 0, NULL);
    if (d)
        d->imm.index = ir_raise_site(fn->tc->p, RAISE_MEMORY, "cannot allocate a dict", loc);
    return ty_own(fn, vval(dt, d), loc);
}

static IrInst *dop(Fn *fn, IrOp op, const Type *t, Loc loc, IrInst *a, IrInst *b, IrInst *c) {
    IrInst *ops[3] = {a, b, c};
    return ty_emit(fn, op, t, loc, c ? 3 : b ? 2 : 1, ops);
}

static IrInst *find(Fn *fn, Val d, IrInst *k, Loc loc) {
    return dop(fn, IR_DFIND, ty_i64, loc, d.v, k, NULL);
}

/* KeyError() when c holds: Numba raises it without a message. */
static void key_error_if(Fn *fn, IrInst *c, Loc loc) {
    if (!c || !fn->emit)
        return;
    IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
    ty_condbr(fn, c, bad, ok, loc);
    ty_set_block(fn, bad);
    IrInst *in = ty_emit(fn, IR_RAISE, ty_void, loc, 0, NULL);
    if (in)
        in->imm.index = ir_user_raise_site(fn->tc->p, RAISE_KEY, "", loc);
    ty_set_block(fn, ok);
}

/* Key k converted to the key type of d; NULL (and an error while emitting) when it cannot be. */
static bool key_ok(Fn *fn, Val d, Val k, Loc loc) {
    const Type *u = ty_unify(d.t->key, k.t);
    if (k.t == d.t->key || (u == d.t->key && ty_is_scalar(k.t) == ty_is_scalar(d.t->key)))
        return true;
    ty_error(fn, loc, "cannot use %s as a key of %s", k.t->name, d.t->name);
    return false;
}

static bool value_ok(Fn *fn, Val d, Val v, Loc loc) {
    const Type *u = ty_unify(d.t->dtype, v.t);
    if (v.t == d.t->dtype || (u == d.t->dtype && ty_is_elem(v.t) == ty_is_elem(d.t->dtype)))
        return true;
    ty_error(fn, loc, "cannot store %s in %s", v.t->name, d.t->name);
    return false;
}

/* d[k] = v (k and v already of the dict's types): the entry's value replaced, or a new one. */
static void store(Fn *fn, Val d, IrInst *k, IrInst *v, Loc loc) {
    if (!fn->emit)
        return;
    IrInst *ix = find(fn, d, k, loc);
    IrBlock *has = ty_block(fn), *add = ty_block(fn), *done = ty_block(fn);
    ty_condbr(fn, cmp(fn, CMP_GE, ix, i64c(fn, 0, loc), loc), has, add, loc);
    ty_set_block(fn, has);
    dop(fn, IR_DSETVALUE, ty_void, loc, d.v, ix, v);
    ty_br(fn, done, loc);
    ty_set_block(fn, add);
    IrInst *in = dop(fn, IR_DINSERT, ty_void, loc, d.v, k, v);
    if (in)
        in->imm.index = ir_raise_site(fn->tc->p, RAISE_MEMORY, "cannot allocate a dict", loc);
    ty_br(fn, done, loc);
    ty_set_block(fn, done);
}

/* ---- literals and constructors ---------------------------------------------------------------- */
Val ty_dict_literal(Fn *fn, Node *e) {
    if (!on_cpu(fn, e->loc))
        return verr();
    int n = e->list.n;
    Val *ks = arena_alloc(fn->tc->arena, sizeof *ks * (size_t)(2 * n + 1)), *vs = ks + n;
    const Type *kt = NULL, *vt = NULL;
    for (int i = 0; i < n; i++) {
        ks[i] = ty_value(fn, e->list.items[i]);
        vs[i] = ty_value(fn, e->list2.items[i]);
        if (ks[i].k != V_VAL || vs[i].k != V_VAL)
            return verr();
        const Type *uk = kt ? ty_unify(kt, ks[i].t) : ks[i].t;
        const Type *uv = vt ? ty_unify(vt, vs[i].t) : vs[i].t;
        if (!uk || !uv) { /* Numba types such a literal as a heterogeneous one it cannot compile */
            ty_error(fn, (uk ? e->list2.items[i] : e->list.items[i])->loc,
                     "a dict literal's %s must share one type: cannot unify %s and %s",
                     uk ? "values" : "keys", uk ? vt->name : kt->name,
                     uk ? vs[i].t->name : ks[i].t->name);
            return verr();
        }
        kt = uk;
        vt = uv;
    }
    const Type *dt = ty_dict(kt, vt);
    if (!dt) {
        if (vt->kind == TY_LIST) /* Numba's words */
            ty_error(fn, e->loc, "%s as value is forbidden", vt->name);
        else
            ty_error(fn, e->loc, "a dict cannot have keys of %s and values of %s", kt->name,
                     vt->name);
        return verr();
    }
    Val d = new_dict(fn, dt, e->loc);
    for (int i = 0; i < n; i++)
        store(fn, d, ty_cast(fn, ks[i].v, ks[i].t, kt, e->loc),
              ty_cast(fn, vs[i].v, vs[i].t, vt, e->loc), e->loc);
    return d;
}

/* dict() */
Val ty_dict_empty(Fn *fn, Loc loc) {
    if (!on_cpu(fn, loc))
        return verr();
    return new_dict(fn, ty_dict(NULL, NULL), loc);
}

/* The type a type expression of the program stands for (types.int64, numba.float64[:],
 * types.unicode_type, types.UniTuple(types.int64, 2), types.Tuple((a, b)), types.DictType(k,
 * v), types.ListType(t)); NULL with the error reported. */
const Type *ty_type_expr(Fn *fn, Node *e) {
    if (e->kind == ND_NAME || e->kind == ND_ATTR) {
        const char *name = e->name;
        if (!strcmp(name, "unicode_type") || !strcmp(name, "string"))
            return ty_str;
        const Type *t = ty_from_name(!strcmp(name, "intp") ? "int64" : name);
        if (t && t != ty_void && ty_is_elem(t))
            return t;
    } else if (e->kind == ND_SUBSCRIPT) {
        const Type *dt = ty_type_expr(fn, e->a);
        if (!dt)
            return NULL;
        Node *ix = e->b;
        int nd = ix->kind == ND_TUPLE ? ix->list.n : 1;
        Node *last = ix->kind == ND_TUPLE ? ix->list.items[nd - 1] : ix;
        bool c = last->kind == ND_SLICE && last->c && last->c->kind == ND_INT && last->c->ival == 1;
        const Type *at = ty_is_elem(dt) && nd <= TY_MAX_NDIM
                             ? ty_array(dt, nd, c ? LAYOUT_C : LAYOUT_A) : NULL;
        if (at)
            return at;
    } else if (e->kind == ND_CALL && (e->a->kind == ND_ATTR || e->a->kind == ND_NAME)) {
        const char *f = e->a->name;
        int n = e->list.n;
        Node **a = e->list.items;
        if (!strcmp(f, "UniTuple") && n == 2 && a[1]->kind == ND_INT && a[1]->ival > 0 &&
            a[1]->ival <= 64) {
            const Type *t = ty_type_expr(fn, a[0]);
            if (!t)
                return NULL;
            const Type **el = arena_alloc(fn->tc->arena, sizeof *el * (size_t)a[1]->ival);
            for (int i = 0; i < a[1]->ival; i++)
                el[i] = t;
            return ty_tuple(el, (int)a[1]->ival);
        }
        if (!strcmp(f, "Tuple") && n == 1 && a[0]->kind == ND_TUPLE && a[0]->list.n > 0) {
            int m = a[0]->list.n;
            const Type **el = arena_alloc(fn->tc->arena, sizeof *el * (size_t)m);
            for (int i = 0; i < m; i++)
                if (!(el[i] = ty_type_expr(fn, a[0]->list.items[i])))
                    return NULL;
            return ty_tuple(el, m);
        }
        if (!strcmp(f, "DictType") && n == 2) {
            const Type *k = ty_type_expr(fn, a[0]), *v = k ? ty_type_expr(fn, a[1]) : NULL;
            const Type *dt = v ? ty_dict(k, v) : NULL;
            if (dt)
                return dt;
            if (v)
                ty_error(fn, e->loc, "a dict cannot have keys of %s and values of %s", k->name,
                         v->name);
            return NULL;
        }
        if (!strcmp(f, "ListType") && n == 1) {
            const Type *t = ty_type_expr(fn, a[0]);
            return t ? ty_list(t, false) : NULL;
        }
    }
    ty_error(fn, e->loc, "numjit does not know this as a Numba type (write types.int64, "
             "types.float64[:], types.unicode_type, types.UniTuple(types.int64, 2), ...)");
    return NULL;
}

/* numba.typed.Dict.empty(key_type, value_type, n_keys=0) */
Val ty_dict_typed_empty(Fn *fn, Node *call) {
    static const char *const params[] = {"key_type", "value_type", "n_keys", NULL};
    Node *a[3];
    if (!on_cpu(fn, call->loc) || !ty_bind_args(fn, call, "Dict.empty", params, 3, 2, 0, a))
        return verr();
    const Type *kt = ty_type_expr(fn, a[0]), *vt = kt ? ty_type_expr(fn, a[1]) : NULL;
    if (!vt)
        return verr();
    const Type *dt = ty_dict(kt, vt);
    if (!dt) {
        ty_error(fn, call->loc, "a dict cannot have keys of %s and values of %s", kt->name,
                 vt->name);
        return verr();
    }
    return new_dict(fn, dt, call->loc);
}

IrInst *ty_dict_cast(Fn *fn, IrInst *v, const Type *from, const Type *to, Loc loc) {
    return ty_emit(fn, IR_CAST, to, loc, 1, &v);
}

/* ---- items -------------------------------------------------------------------------------- */
Val ty_dict_get(Fn *fn, Val d, Node *ix, Loc loc) {
    if (!typed_items(fn, d, loc))
        return verr();
    Val k = ty_value(fn, ix);
    if (k.k != V_VAL || !key_ok(fn, d, k, ix->loc))
        return verr();
    if (!fn->emit)
        return vval(d.t->dtype, NULL);
    IrInst *i = find(fn, d, ty_cast(fn, k.v, k.t, d.t->key, loc), loc);
    key_error_if(fn, cmp(fn, CMP_LT, i, i64c(fn, 0, loc), loc), loc);
    return vval(d.t->dtype, dop(fn, IR_DVALUE, d.t->dtype, loc, d.v, i, NULL));
}

/* While inferring, `name[k] = v` of an empty dict gives the variable `name` its types. */
static void refine(Fn *fn, Node *target, Val d, Val k, Val v) {
    Node *recv = target->a;
    if (fn->emit || recv->kind != ND_NAME || d.t->key)
        return;
    const Type *dt = ty_dict(k.t, v.t);
    if (dt)
        ty_assign_name(fn, recv->name, vval(dt, NULL), recv->loc);
}

void ty_dict_set(Fn *fn, Val d, Node *target, Val v, Loc loc) {
    Val k = ty_value(fn, target->b);
    if (k.k != V_VAL || v.k != V_VAL)
        return;
    if (!d.t->key) {
        refine(fn, target, d, k, v);
        if (fn->emit && !ty_dict(k.t, v.t))
            ty_error(fn, loc, "a dict cannot have keys of %s and values of %s", k.t->name,
                     v.t->name);
        else if (fn->emit)
            typed_items(fn, d, loc);
        return;
    }
    if (!key_ok(fn, d, k, target->b->loc) || !value_ok(fn, d, v, loc))
        return;
    store(fn, d, ty_cast(fn, k.v, k.t, d.t->key, loc), ty_cast(fn, v.v, v.t, d.t->dtype, loc),
          loc);
}

static void dict_del(Fn *fn, Val d, Node *ix, Loc loc) {
    if (!typed_items(fn, d, loc))
        return;
    Val k = ty_value(fn, ix);
    if (k.k != V_VAL || !key_ok(fn, d, k, ix->loc) || !fn->emit)
        return;
    IrInst *i = find(fn, d, ty_cast(fn, k.v, k.t, d.t->key, loc), loc);
    key_error_if(fn, cmp(fn, CMP_LT, i, i64c(fn, 0, loc), loc), loc);
    dop(fn, IR_DDELETE, ty_void, loc, d.v, i, NULL);
}

/* del t, ...: each target an item of a dict (Numba 0.56 also deletes list items and slices,
 * which numjit does not yet) */
void ty_stmt_del(Fn *fn, Node *s) {
    for (int i = 0; i < s->list.n; i++) {
        Node *t = s->list.items[i];
        Val d = t->kind == ND_SUBSCRIPT ? ty_value(fn, t->a) : verr();
        if (t->kind == ND_SUBSCRIPT && d.k != V_VAL)
            return;
        if (d.k != V_VAL || d.t->kind != TY_DICT) {
            ty_error(fn, t->loc, "numjit supports 'del' of dict items only (del d[key])");
            return;
        }
        dict_del(fn, d, t->b, t->loc);
    }
}

Val ty_dict_len(Fn *fn, Val d, Loc loc) {
    if (!d.t->key) /* nothing was ever stored: 0 */
        return vval(ty_i64, i64c(fn, 0, loc));
    return vval(ty_i64, dop(fn, IR_DLEN, ty_i64, loc, d.v, NULL, NULL));
}

Val ty_dict_contains(Fn *fn, Val d, Val k, bool negate, Loc loc) {
    if (!typed_items(fn, d, loc) || !key_ok(fn, d, k, loc))
        return verr();
    IrInst *i = find(fn, d, ty_cast(fn, k.v, k.t, d.t->key, loc), loc);
    return vval(ty_bool, cmp(fn, negate ? CMP_LT : CMP_GE, i, i64c(fn, 0, loc), loc));
}

/* ---- for loops ------------------------------------------------------------------------------ */
enum { IT_KEYS, IT_VALUES, IT_ITEMS };

/* The dict a for loop iterates and how (`d`, `d.keys()`, `d.values()`, `d.items()`), peeked
 * without emitting; NULL when it is not a dict. */
static Node *iterated_dict(Fn *fn, Node *iter, int *how) {
    Node *dn = iter;
    *how = IT_KEYS;
    if (iter->kind == ND_CALL && iter->a->kind == ND_ATTR && iter->list.n == 0 &&
        iter->list2.n == 0) {
        const char *m = iter->a->name;
        int h = !strcmp(m, "keys") ? IT_KEYS : !strcmp(m, "values") ? IT_VALUES
                : !strcmp(m, "items") ? IT_ITEMS : -1;
        if (h >= 0) {
            dn = iter->a->a;
            *how = h;
        }
    }
    bool emit = fn->emit;
    fn->emit = false;
    Val it = ty_expr(fn, dn);
    fn->emit = emit;
    if (it.k == V_VAL && it.t->kind == TY_DICT)
        return dn;
    return NULL;
}

static void assign_targets(Fn *fn, Node *s, Val d, IrInst *i, int how, Loc loc) {
    const Type *kt = d.t->key, *vt = d.t->dtype;
    IrInst *k = how != IT_VALUES && fn->emit ? dop(fn, IR_DKEY, kt, loc, d.v, i, NULL) : NULL;
    IrInst *v = how != IT_KEYS && fn->emit ? dop(fn, IR_DVALUE, vt, loc, d.v, i, NULL) : NULL;
    if (how == IT_KEYS)
        ty_assign_target(fn, s->a, vval(kt, k), loc);
    else if (how == IT_VALUES)
        ty_assign_target(fn, s->a, vval(vt, v), loc);
    else {
        const Type *el[2] = {kt, vt};
        const Type *tt = ty_tuple(el, 2);
        IrInst *ops[2] = {k, v};
        ty_assign_target(fn, s->a, vval(tt, ty_emit(fn, IR_TUPLE, tt, loc, 2, ops)), loc);
    }
}

bool ty_dict_for(Fn *fn, Node *s) {
    int how;
    Node *dn = iterated_dict(fn, s->b, &how);
    if (!dn)
        return false;
    Val d = ty_keep(fn, ty_value(fn, dn), dn->loc);
    if (d.k == V_VAL && typed_items(fn, d, dn->loc))
        ty_entries_for(fn, s, d, IR_DNEXT, assign_targets, how);
    return true;
}

/* ---- methods (lib/dict.c's rows) ------------------------------------------------------------ */
/* A value chosen by the entry: found (i >= 0) gives hit(i), else miss; of type t. */
typedef IrInst *(*HitFn)(Fn *fn, Val d, IrInst *i, Loc loc);

static IrInst *value_at(Fn *fn, Val d, IrInst *i, Loc loc) {
    return dop(fn, IR_DVALUE, d.t->dtype, loc, d.v, i, NULL);
}

static IrInst *value_removed(Fn *fn, Val d, IrInst *i, Loc loc) {
    IrInst *v = dop(fn, IR_DVALUE, d.t->dtype, loc, d.v, i, NULL);
    Val kept = ty_keep(fn, vval(d.t->dtype, v), loc); /* the dict's reference goes with delete */
    dop(fn, IR_DDELETE, ty_void, loc, d.v, i, NULL);
    return kept.v;
}

/* d.get(k[, default]) and d.pop(k[, default]): the value (removed by pop), else the default
 * (None for get without one: the result is then Optional), else KeyError (pop). */
static Val lookup(Fn *fn, Val d, Val k, Val *dflt, bool pop, Loc loc) {
    if (!typed_items(fn, d, loc) || !key_ok(fn, d, k, loc))
        return verr();
    const Type *vt = d.t->dtype, *rt = vt;
    if (!dflt && !pop)
        rt = ty_optional(vt);
    else if (dflt) {
        rt = ty_unify(vt, dflt->t);
        if (!rt || ty_is_elem(vt) != ty_is_elem(ty_optional_value(dflt->t))) {
            ty_error(fn, loc, "the default %s does not unify with the values of %s",
                     dflt->t->name, d.t->name);
            return verr();
        }
    }
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *i = find(fn, d, ty_cast(fn, k.v, k.t, d.t->key, loc), loc);
    IrInst *miss = cmp(fn, CMP_LT, i, i64c(fn, 0, loc), loc);
    if (pop && !dflt)
        key_error_if(fn, miss, loc);
    if (!dflt && pop)
        return vval(vt, value_removed(fn, d, i, loc));
    int r = ty_temp_var(fn, rt);
    IrBlock *has = ty_block(fn), *none = ty_block(fn), *done = ty_block(fn);
    ty_condbr(fn, miss, none, has, loc);
    ty_set_block(fn, has);
    IrInst *v = (pop ? value_removed : value_at)(fn, d, i, loc);
    ty_store_var(fn, r, ty_cast(fn, v, vt, rt, loc), loc);
    ty_br(fn, done, loc);
    ty_set_block(fn, none);
    Val dv = dflt ? *dflt : ty_none_value(fn, loc);
    ty_store_var(fn, r, ty_cast(fn, dv.v, dv.t, rt, loc), loc);
    ty_br(fn, done, loc);
    ty_set_block(fn, done);
    return ty_keep(fn, vval(rt, ty_load_var(fn, r, rt, loc)), loc);
}

Val ty_dict_getitem_default(Fn *fn, Val d, Val k, Val *dflt, Loc loc) {
    return lookup(fn, d, k, dflt, false, loc);
}

Val ty_dict_pop(Fn *fn, Val d, Val k, Val *dflt, Loc loc) {
    return lookup(fn, d, k, dflt, true, loc);
}

/* d.setdefault(k, default=None): d[k], stored first when absent. */
Val ty_dict_setdefault(Fn *fn, Val d, Val k, Val *dflt, Loc loc) {
    if (!typed_items(fn, d, loc) || !key_ok(fn, d, k, loc))
        return verr();
    if (!dflt) {
        ty_error(fn, loc, "numjit needs the default of d.setdefault(key, default)");
        return verr();
    }
    if (!value_ok(fn, d, *dflt, loc))
        return verr();
    if (!fn->emit)
        return vval(d.t->dtype, NULL);
    IrInst *kv = ty_cast(fn, k.v, k.t, d.t->key, loc);
    IrInst *i = find(fn, d, kv, loc);
    IrBlock *add = ty_block(fn), *done = ty_block(fn);
    ty_condbr(fn, cmp(fn, CMP_LT, i, i64c(fn, 0, loc), loc), add, done, loc);
    ty_set_block(fn, add);
    IrInst *in = dop(fn, IR_DINSERT, ty_void, loc, d.v, kv,
                     ty_cast(fn, dflt->v, dflt->t, d.t->dtype, loc));
    if (in)
        in->imm.index = ir_raise_site(fn->tc->p, RAISE_MEMORY, "cannot allocate a dict", loc);
    ty_br(fn, done, loc);
    ty_set_block(fn, done);
    return vval(d.t->dtype, value_at(fn, d, find(fn, d, kv, loc), loc));
}

/* d.popitem(): the last item (key, value), removed; KeyError (no message, as Numba's) when
 * the dict is empty. */
Val ty_dict_popitem(Fn *fn, Val d, Loc loc) {
    if (!typed_items(fn, d, loc))
        return verr();
    const Type *el[2] = {d.t->key, d.t->dtype};
    const Type *tt = ty_tuple(el, 2);
    if (!fn->emit)
        return vval(tt, NULL);
    IrInst *i = dop(fn, IR_DLAST, ty_i64, loc, d.v, NULL, NULL);
    IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
    ty_condbr(fn, cmp(fn, CMP_LT, i, i64c(fn, 0, loc), loc), bad, ok, loc);
    ty_set_block(fn, bad);
    IrInst *r = ty_emit(fn, IR_RAISE, ty_void, loc, 0, NULL);
    if (r)
        r->imm.index = ir_user_raise_site(fn->tc->p, RAISE_KEY, "", loc);
    ty_set_block(fn, ok);
    IrInst *ops[2] = {dop(fn, IR_DKEY, d.t->key, loc, d.v, i, NULL),
                      dop(fn, IR_DVALUE, d.t->dtype, loc, d.v, i, NULL)};
    Val t = ty_keep(fn, vval(tt, ty_emit(fn, IR_TUPLE, tt, loc, 2, ops)), loc);
    dop(fn, IR_DDELETE, ty_void, loc, d.v, i, NULL);
    return t;
}

Val ty_dict_clear(Fn *fn, Val d, Loc loc) {
    if (d.t->key)
        dop(fn, IR_DCLEAR, ty_void, loc, d.v, NULL, NULL);
    return vval(ty_none(), ty_emit(fn, IR_TUPLE, ty_none(), loc, 0, NULL));
}

/* Every item of src stored into dst (both typed alike). */
static void store_all(Fn *fn, Val dst, Val src, Loc loc) {
    TyLoop L;
    IrInst *i = ty_entries_open(fn, &L, IR_DNEXT, src.v, NULL, loc);
    IrInst *key = dop(fn, IR_DKEY, src.t->key, loc, src.v, i, NULL);
    IrInst *val = dop(fn, IR_DVALUE, src.t->dtype, loc, src.v, i, NULL);
    store(fn, dst, key, val, loc);
    ty_br(fn, L.head, loc);
    ty_set_block(fn, L.exit);
}

Val ty_dict_copy(Fn *fn, Val d, Loc loc) {
    Val r = new_dict(fn, d.t, loc);
    if (fn->emit && d.t->key)
        store_all(fn, r, d, loc);
    return r;
}

Val ty_dict_update(Fn *fn, Val d, Val other, Loc loc) {
    if (other.t->kind != TY_DICT || (d.t->key && other.t->key && other.t != d.t)) {
        ty_error(fn, loc, "cannot update %s with %s", d.t->name, other.t->name);
        return verr();
    }
    if (!typed_items(fn, d, loc))
        return verr();
    if (fn->emit && other.t->key)
        store_all(fn, d, other, loc);
    return vval(ty_none(), ty_emit(fn, IR_TUPLE, ty_none(), loc, 0, NULL));
}

Val ty_dict_view(Fn *fn, const char *name, Loc loc) {
    ty_error(fn, loc, "numjit supports d.%s() only as the iterable of a for loop", name);
    return verr();
}

/* Whether dict type t can be held by the host (numjit.h: NjDictItem): keys of numbers (not
 * complex) or strings, values of numbers or strings. */
static bool dict_crosses(const Type *t) {
    const Type *k = t->key, *v = t->dtype;
    return k && v && (k == ty_str || (ty_is_scalar(k) && !ty_is_complex(k))) &&
           (v == ty_str || ty_is_scalar(v));
}

static bool holds_dict(const Type *t) {
    for (int i = 0; t->kind == TY_TUPLE && i < t->nelems; i++)
        if (t->elems[i]->kind == TY_DICT || holds_dict(t->elems[i]))
            return true;
    return false;
}

/* The entry's result: a dict goes back to Python as a numba.typed.Dict holding the same table
 * when the host can hold its items, and alone (an error at loc otherwise). */
bool ty_dict_result_ok(DiagList *diags, const char *name, const Type *ret, Loc loc) {
    if (ret && holds_dict(ret)) {
        diag_error(diags, loc, "'%s' returns %s: numjit gives a typed dict back to Python alone, "
                   "not yet inside a tuple", name, ret->name);
        return false;
    }
    if (!ret || ret->kind != TY_DICT || dict_crosses(ret))
        return true;
    diag_error(diags, loc, "'%s' returns %s: numjit gives typed dicts back to Python with keys "
               "and values of numbers (not complex) or strings, not yet others (inside compiled "
               "code they work)", name, ret->name);
    return false;
}
