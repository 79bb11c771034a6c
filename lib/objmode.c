/* objmode.c — the call a numba.objmode block becomes: `objmode(ID, "T0;T1", x, a, ...)`.
 *
 * numjit compiles no Python object code: the Python package (numjit.objmode) cuts each
 * `with objmode(y='float64[:]'):` block out of the function's text into a Python function of
 * the block's inputs and puts this call, with the declared output types spelled, in its place.
 * Here the call is typed and emitted: two scratch arrays of the same length, ib (int64) and
 * fb (float64), carry the inputs to the host program and the outputs back, through the rtcall
 * RT_OBJMODE (runtime/objmode.c, the hook of nj_set_objmode_hook).  The layout, from index 0:
 *   ib[0] inputs, ib[1] outputs;
 *   per input, 4 slots for a scalar: ib[h] = -1, ib[h+1] its TypeKind, the value in ib[h+2]
 *     (integers and bool, as int64) or fb[h+2] (floats); 3 + 2 * ndim slots for an array:
 *     ib[h] = ndim, ib[h+1] its dtype's TypeKind, ib[h+2] the data address, then its
 *     extents and byte strides;
 *   per output, max(2, ndim + 1) slots: a scalar comes back in ib[o] or fb[o], an
 *     array's extents in ib[o...]; compiled code then allocates the array (C order) and writes
 *     its address in ib[o + ndim], and stage 1 of the hook copies the block's array into it.
 * A nonzero status from stage 0 (the block raised) raises an Exception at the call.  The
 * result is the tuple of the outputs, typed as declared (arrays C-contiguous).  Complex numbers
 * and other types are refused at the call.
 */
#include "lib.h"

#include <string.h>

enum { OM_MAX_OUT = 16 };

static IrInst *slot_store(Fn *fn, Val buf, int64_t at, IrInst *v, Loc loc) {
    IrInst *i = i64c(fn, at, loc);
    ty_astore(fn, buf.v, &i, 1, v, loc);
    return v;
}

static IrInst *slot_load(Fn *fn, Val buf, int64_t at, Loc loc) {
    IrInst *i = i64c(fn, at, loc);
    return ty_aload(fn, buf.v, buf.t->dtype, &i, 1, loc);
}

static IrInst *rtcall(Fn *fn, int64_t id, Val ib, Val fb, int stage, Loc loc) {
    IrInst *ops[4] = {i64c(fn, id, loc), ty_emit(fn, IR_ADDR, ty_i64, loc, 1, &ib.v),
                      ty_emit(fn, IR_ADDR, ty_i64, loc, 1, &fb.v), i64c(fn, stage, loc)};
    IrInst *c = ty_emit(fn, IR_RTCALL, ty_i64, loc, 4, ops);
    if (c)
        c->imm.index = RT_OBJMODE;
    return c;
}

/* The declared output types of "T0;T1;...": false with the error reported. */
static bool out_types(Fn *fn, const char *spec, const Type **outs, int *n, Loc loc) {
    *n = 0;
    char buf[256];
    for (const char *p = spec; *p;) {
        const char *e = strchr(p, ';');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len >= sizeof buf || *n >= OM_MAX_OUT) {
            ty_error(fn, loc, "objmode: too many or too long output types");
            return false;
        }
        memcpy(buf, p, len);
        buf[len] = 0;
        const Type *t = ty_from_name(buf);
        const Type *et = t && t->kind == TY_ARRAY ? t->dtype : t;
        if (!t || !et || !ty_is_scalar(et) || ty_is_complex(et)) {
            ty_error(fn, loc, "objmode: output type '%s' is not supported by numjit (numbers "
                     "and arrays of numbers)", buf);
            return false;
        }
        outs[(*n)++] = t->kind == TY_ARRAY ? ty_array(t->dtype, t->ndim, LAYOUT_C) : t;
        p += len + (e ? 1 : 0);
    }
    return true;
}

static int slots_of_input(const Type *t) { return t->kind == TY_ARRAY ? 3 + 2 * t->ndim : 4; }
static int slots_of_output(const Type *t) {
    return t->kind == TY_ARRAY ? (t->ndim + 1 > 2 ? t->ndim + 1 : 2) : 2;
}

static void put_input(Fn *fn, Val ib, Val fb, int64_t h, Val v, Loc loc) {
    if (v.t->kind == TY_ARRAY) {
        slot_store(fn, ib, h, i64c(fn, v.t->ndim, loc), loc);
        slot_store(fn, ib, h + 1, i64c(fn, v.t->dtype->kind, loc), loc);
        slot_store(fn, ib, h + 2, ty_emit(fn, IR_ADDR, ty_i64, loc, 1, &v.v), loc);
        for (int d = 0; d < v.t->ndim; d++) {
            IrInst *e = ty_emit(fn, IR_SHAPE, ty_i64, loc, 1, &v.v);
            IrInst *s = ty_emit(fn, IR_STRIDE, ty_i64, loc, 1, &v.v);
            if (e)
                e->imm.index = d;
            if (s)
                s->imm.index = d;
            slot_store(fn, ib, h + 3 + d, e, loc);
            slot_store(fn, ib, h + 3 + v.t->ndim + d, s, loc);
        }
        return;
    }
    slot_store(fn, ib, h, i64c(fn, -1, loc), loc);
    slot_store(fn, ib, h + 1, i64c(fn, v.t->kind, loc), loc);
    if (ty_is_float(v.t)) {
        slot_store(fn, fb, h + 2, ty_cast(fn, v.v, v.t, ty_f64, loc), loc);
    } else {
        slot_store(fn, ib, h + 2, ty_cast(fn, v.v, v.t, ty_i64, loc), loc);
    }
}

static Val get_output(Fn *fn, Val ib, Val fb, int64_t o, const Type *t, Loc loc) {
    if (t->kind == TY_ARRAY) {
        IrInst *dims[TY_MAX_NDIM];
        for (int d = 0; d < t->ndim; d++)
            dims[d] = slot_load(fn, ib, o + d, loc);
        Val a = ty_alloc_array(fn, t, dims, loc);
        if (a.k == V_VAL)
            slot_store(fn, ib, o + t->ndim, ty_emit(fn, IR_ADDR, ty_i64, loc, 1, &a.v), loc);
        return a;
    }
    if (ty_is_float(t))
        return vval(t, ty_cast(fn, slot_load(fn, fb, o, loc), ty_f64, t, loc));
    IrInst *x = slot_load(fn, ib, o, loc);
    if (t == ty_bool)
        return vval(t, cmp(fn, CMP_NE, x, i64c(fn, 0, loc), loc));
    return vval(t, ty_cast(fn, x, ty_i64, t, loc));
}

Val lib_objmode_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    (void)le;
    (void)callee;
    Loc loc = call->loc;
    NodeList *args = &call->list;
    if (call->list2.n || args->n < 2 || args->items[0]->kind != ND_INT ||
        args->items[1]->kind != ND_STR) {
        ty_error(fn, loc, "numba.objmode is supported by numjit as a `with objmode(...):` "
                 "block in a function compiled from Python only");
        return verr();
    }
    if (fn->tc->target != TARGET_CPU) {
        ty_error(fn, loc, "objmode blocks cannot run in CUDA kernels");
        return verr();
    }
    const Type *outs[OM_MAX_OUT];
    int nout;
    if (!out_types(fn, args->items[1]->str, outs, &nout, loc))
        return verr();
    int nin = args->n - 2;
    Val in[16];
    if (nin > 16) {
        ty_error(fn, loc, "objmode: a block may read at most 16 variables in numjit");
        return verr();
    }
    int64_t size = 2;
    for (int k = 0; k < nin; k++) {
        in[k] = ty_value(fn, args->items[2 + k]);
        if (in[k].k != V_VAL)
            return verr();
        const Type *t = in[k].t;
        const Type *e = t->kind == TY_ARRAY ? t->dtype : t;
        if (!ty_is_scalar(e) || ty_is_complex(e) ||
            (t->kind == TY_ARRAY && t->addrspace != AS_GENERIC)) {
            ty_error(fn, args->items[2 + k]->loc, "objmode: numjit passes numbers and arrays "
                     "of numbers into an objmode block, not %s", t->name);
            return verr();
        }
        size += slots_of_input(t);
    }
    for (int j = 0; j < nout; j++)
        size += slots_of_output(outs[j]);
    const Type *rt = ty_tuple(outs, nout);
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *n = i64c(fn, size, loc);
    Val ib = ty_alloc_array(fn, ty_array(ty_i64, 1, LAYOUT_C), &n, loc);
    Val fb = ty_alloc_array(fn, ty_array(ty_f64, 1, LAYOUT_C), &n, loc);
    if (ib.k != V_VAL || fb.k != V_VAL)
        return verr();
    slot_store(fn, ib, 0, i64c(fn, nin, loc), loc);
    slot_store(fn, ib, 1, i64c(fn, nout, loc), loc);
    int64_t h = 2;
    for (int k = 0; k < nin; k++) {
        put_input(fn, ib, fb, h, in[k], loc);
        h += slots_of_input(in[k].t);
    }
    int64_t id = args->items[0]->ival;
    IrInst *st = rtcall(fn, id, ib, fb, 0, loc);
    ty_raise_if(fn, cmp(fn, CMP_NE, st, i64c(fn, 0, loc), loc), RAISE_EXCEPTION,
                "an exception was raised in an objmode block (see the message before it)", loc);
    IrInst *vals[OM_MAX_OUT];
    bool arrays = false;
    for (int j = 0; j < nout; j++) {
        Val v = get_output(fn, ib, fb, h, outs[j], loc);
        if (v.k != V_VAL)
            return verr();
        vals[j] = v.v;
        arrays |= outs[j]->kind == TY_ARRAY;
        h += slots_of_output(outs[j]);
    }
    if (arrays)
        rtcall(fn, id, ib, fb, 1, loc);
    return vval(rt, ty_emit(fn, IR_TUPLE, rt, loc, nout, vals));
}
