/* ir_verify_types.c — the verifier's per-op rules: how many operands each op takes (ops.def, or
 * the op's own rule where the count varies: aload 1+ndim, astore 2+ndim, call the callee's
 * parameters, parfor its body's and reductions, math the builtin's arity, atomic 2+ndim or
 * 3+ndim for cas, cuda the intrinsic's count in cuda.def), and the types of the operands and
 * the result of each op (arithmetic operands equal to the result, cmp operands equal and a bool
 * result, condbr on a bool, aload of the dtype with int64 indices, ...), with its immediates
 * in range. ir_verify.c calls ir_vtypes once per instruction after the structural and dominance
 * checks; every violation goes through ir_vreport, so verification goes on.
 */
#include "ir_verify_internal.h"

#include <string.h>

/* ---- per instruction ----------------------------------------------------------------------- */
static void want_type(Verifier *V, const IrInst *in, int b, int k, const Type *want) {
    const Type *t = in->args[k]->type;
    if (t != want)
        ir_vreport(V, in, b, "operand %d of '%s' has type %s, expected %s", k + 1, ir_vopname(in),
               ir_vtname(V, t), ir_vtname(V, want));
}

static void want_result(Verifier *V, const IrInst *in, int b, bool ok, const char *what) {
    if (!ok)
        ir_vreport(V, in, b, "'%s' cannot have type %s (%s)", ir_vopname(in), ir_vtname(V, in->type), what);
}

/* The callee of a call when it is a function of the program (never dereferenced otherwise). */
static const IrFunc *known_callee(const IrProgram *p, const IrInst *in) {
    for (int i = 0; i < p->nfuncs; i++)
        if (p->funcs[i] == in->imm.callee)
            return in->imm.callee;
    return NULL;
}

/* The body of a parfor when it is a function of the program with a body's first parameters
 * (lo, hi: int64, start: int64 or uint64, step: int64), else NULL. */
static const IrFunc *known_body(const IrProgram *p, const IrInst *in) {
    const IrFunc *g = NULL;
    for (int i = 0; i < p->nfuncs && !g; i++)
        if (p->funcs[i] == in->imm.par.body)
            g = in->imm.par.body;
    if (!g || g->nparams < 4 || g->params[0] != ty_i64 || g->params[1] != ty_i64 ||
        (g->params[2] != ty_i64 && g->params[2] != ty_u64) || g->params[3] != ty_i64)
        return NULL;
    return g;
}

/* The operand count op needs, or -1 when any count is fine. */
int ir_vnargs(const IrProgram *p, const IrInst *in) {
    const Type *a0 = in->nargs > 0 && in->args[0] ? in->args[0]->type : NULL;
    int ndim = a0 && a0->kind == TY_ARRAY ? a0->ndim : 0;
    switch (in->op) {
    case IR_CALL: return known_callee(p, in) ? in->imm.callee->nparams : -1;
    case IR_PARFOR:
        return known_body(p, in) ? in->imm.par.body->nparams - 1 + in->imm.par.nred : -1;
    case IR_MATH:
        return in->imm.index >= 0 && in->imm.index < MATH__COUNT ? ir_math[in->imm.index].arity
                                                                 : -1;
    case IR_ALOAD: return 1 + ndim;
    case IR_ALLOC: return in->type && in->type->kind == TY_ARRAY ? in->type->ndim : -1;
    case IR_ASTORE: return 2 + ndim;
    case IR_ATOMIC: return (in->imm.index == ATOM_CAS ? 3 : 2) + ndim;
    case IR_CUDA:
        return in->imm.index >= 0 && in->imm.index < CU__COUNT ? ir_cuda[in->imm.index].nargs : -1;
    case IR_RANDOM:
        return in->imm.index >= 0 && in->imm.index < RND__COUNT ? ir_random[in->imm.index].nargs
                                                                 : -1;
    case IR_RTCALL:
        return in->imm.index >= 0 && in->imm.index < RT__COUNT
                   ? (int)strlen(ir_rtcall[in->imm.index].args)
                   : -1;
    case IR_PRINT: { /* one operand per \x01 of the line */
        int n = 0;
        for (const char *c = in->imm.str; c && *c; c++)
            n += *c == '\x01';
        return in->imm.str ? n : -1;
    }
    case IR_TUPLE: return in->type && in->type->kind == TY_TUPLE ? in->type->nelems : -1;
    case IR_RESHAPE:
    case IR_ADDRARRAY: return in->type && in->type->kind == TY_ARRAY ? 1 + in->type->ndim : -1;
    case IR_RAWVIEW: return in->type && in->type->kind == TY_ARRAY ? 1 + 2 * in->type->ndim : -1;
    case IR_VIEW: {
        int n = 1;
        for (int k = 0; k < ndim; k++)
            n += (in->imm.i >> k) & 1 ? 3 : 1;
        return n;
    }
    case IR_RET: return -1;
    default: return in->op < IR__COUNT ? ir_op_nargs[in->op] : -1;
    }
}

static void check_array_access(Verifier *V, const IrInst *in, int b, int nvalues) {
    const Type *a = in->args[0]->type;
    if (!a || a->kind != TY_ARRAY) {
        ir_vreport(V, in, b, "operand 1 of '%s' is %s, not an array", ir_vopname(in), ir_vtname(V, a));
        return;
    }
    for (int k = 1; k <= a->ndim; k++)
        want_type(V, in, b, k, ty_i64);
    for (int k = a->ndim + 1; k < a->ndim + 1 + nvalues; k++)
        want_type(V, in, b, k, a->dtype);
}

/* Whether an IR_CUDA instruction produces nothing (syncwarp, the fences). */
static bool cuda_void(const IrInst *in) {
    if (in->imm.index < 0 || in->imm.index >= CU__COUNT)
        return false;
    CudaKind k = ir_cuda[in->imm.index].kind;
    return k == CK_SYNCWARP || k == CK_FENCE;
}

/* A parfor's operands against its body: start and stop of the counter's type, an int64 step,
 * the live-ins as the body's parameters after lo, hi, start and step, then one value per
 * reduction of the body's result tuple; the result is that tuple (void without reductions). */
static void check_parfor(Verifier *V, const IrInst *in, int b) {
    const IrFunc *g = known_body(V->p, in);
    int nred = in->imm.par.nred;
    if (!g) {
        ir_vreport(V, in, b, "'parfor' of a body that is not in the program or lacks the parameters "
                         "(int64 lo, int64 hi, start, int64 step)");
        return;
    }
    if (nred < 0 || nred > IR_PARFOR_MAXRED) {
        ir_vreport(V, in, b, "'parfor' with %d reductions", nred);
        return;
    }
    if (in->nargs != g->nparams - 1 + nred)
        return; /* the operand count is reported by the caller */
    want_type(V, in, b, 0, g->params[2]);
    want_type(V, in, b, 1, g->params[2]);
    want_type(V, in, b, 2, ty_i64);
    for (int k = 4; k < g->nparams; k++)
        want_type(V, in, b, k - 1, g->params[k]);
    const Type *r = g->ret;
    if (nred == 0) {
        if (r != ty_void || in->type != ty_void)
            ir_vreport(V, in, b, "'parfor' without reductions of a body returning %s, type %s",
                   ir_vtname(V, r), ir_vtname(V, in->type));
        return;
    }
    if (!r || r->kind != TY_TUPLE || r->nelems != nred || in->type != r) {
        ir_vreport(V, in, b, "'parfor' with %d reductions has type %s, its body returns %s", nred,
               ir_vtname(V, in->type), ir_vtname(V, r));
        return;
    }
    for (int k = 0; k < nred; k++) {
        bool cplx = ty_is_complex(r->elems[k]) &&
                    (in->imm.par.ops[k] == REDUCE_ADD || in->imm.par.ops[k] == REDUCE_MUL);
        if (!ty_is_scalar(r->elems[k]) && !cplx)
            ir_vreport(V, in, b, "reduction %d of 'parfor' is %s, not a scalar (or a complex sum "
                   "or product)", k + 1, ir_vtname(V, r->elems[k]));
        if (in->imm.par.ops[k] >= REDUCE__COUNT)
            ir_vreport(V, in, b, "reduction %d of 'parfor' has no operator %d", k + 1,
                   in->imm.par.ops[k]);
        want_type(V, in, b, g->nparams - 1 + k, r->elems[k]);
    }
}

/* Operands and result of `cuda NAME` by the function's kind (ir/cuda.def). */
static void check_cuda(Verifier *V, const IrInst *in, int b) {
    if (in->imm.index < 0 || in->imm.index >= CU__COUNT) {
        ir_vreport(V, in, b, "no CUDA intrinsic number %d", in->imm.index);
        return;
    }
    if (in->nargs != ir_cuda[in->imm.index].nargs)
        return; /* reported with the operand count */
    const Type *t = in->type, *a1 = in->nargs > 1 ? in->args[1]->type : NULL;
    const Type *a0 = in->nargs > 0 ? in->args[0]->type : NULL;
    bool word = t == ty_i32 || t == ty_i64 || t == ty_u32 || t == ty_u64 || t == ty_f32 ||
                t == ty_f64;
    switch (ir_cuda[in->imm.index].kind) {
    case CK_SHFL:
        want_result(V, in, b, word, "a 32- or 64-bit integer or float");
        want_type(V, in, b, 0, ty_i32);
        want_type(V, in, b, 1, t);
        want_type(V, in, b, 2, ty_i32);
        break;
    case CK_VOTE:
    case CK_BALLOT:
        want_result(V, in, b, t == (ir_cuda[in->imm.index].kind == CK_VOTE ? ty_bool : ty_i32),
                    "a vote gives bool, a ballot int32");
        want_type(V, in, b, 0, ty_i32);
        want_type(V, in, b, 1, ty_bool);
        break;
    case CK_MATCH_ANY:
    case CK_MATCH_ALL: {
        want_type(V, in, b, 0, ty_i32);
        if (!(a1 == ty_i32 || a1 == ty_i64 || a1 == ty_f32 || a1 == ty_f64))
            ir_vreport(V, in, b, "'cuda %s' of a %s value (int32 int64 float32 float64)",
                   ir_cuda[in->imm.index].name, ir_vtname(V, a1));
        const Type *el[2] = {ty_i32, ty_bool};
        if (ir_cuda[in->imm.index].kind == CK_MATCH_ANY)
            want_result(V, in, b, t == ty_i32, "int32");
        else
            want_result(V, in, b, t == ty_tuple(el, 2), "Tuple(int32, bool)");
        break;
    }
    case CK_SYNCWARP:
        want_type(V, in, b, 0, ty_i32);
        break;
    case CK_LANEMASK:
        want_result(V, in, b, t == ty_u32, "uint32");
        break;
    case CK_BARPRED:
        want_result(V, in, b, t == ty_i32, "int32");
        want_type(V, in, b, 0, ty_i32);
        break;
    case CK_FENCE:
        break;
    case CK_BITS:
        want_result(V, in, b, ty_is_int(t), "an integer");
        want_type(V, in, b, 0, t);
        break;
    case CK_FFS:
        want_result(V, in, b, t == ty_u32, "uint32");
        if (!ty_is_int(a0))
            ir_vreport(V, in, b, "'cuda ffs' of a %s value", ir_vtname(V, a0));
        break;
    case CK_FLOAT:
        want_result(V, in, b, ty_is_float(t), "float32 or float64");
        for (int k = 0; k < in->nargs; k++)
            want_type(V, in, b, k, t);
        break;
    }
}

void ir_vtypes(Verifier *V, const IrInst *in, int b) {
    const IrFunc *f = V->f;
    const Type *t = in->type;
    const Type *a0 = in->nargs > 0 ? in->args[0]->type : NULL;
    bool is_void = t->kind == TY_VOID;
    switch (in->op) {
    case IR_CONST:
        want_result(V, in, b, ty_is_scalar(t) || t == ty_str,
                    "a constant is a scalar or a string");
        break;
    case IR_PARAM:
        if (b != 0)
            ir_vreport(V, in, b, "'param' outside the entry block");
        if (in->imm.index < 0 || in->imm.index >= f->nparams)
            ir_vreport(V, in, b, "no parameter %d", in->imm.index);
        else if (t != f->params[in->imm.index])
            ir_vreport(V, in, b, "'param %d' has type %s, the parameter is %s", in->imm.index,
                   ir_vtname(V, t), ir_vtname(V, f->params[in->imm.index]));
        break;
    case IR_LOAD:
    case IR_STORE:
    case IR_OWN:
    case IR_CLEAR: {
        int k = in->imm.index;
        if (k < 0 || k >= f->nvars) {
            ir_vreport(V, in, b, "no variable number %d", k);
            break;
        }
        const Type *vt = f->vars[k].type;
        if (in->op == IR_LOAD && t != vt)
            ir_vreport(V, in, b, "'load %s' has type %s, the variable is %s", f->vars[k].name,
                   ir_vtname(V, t), ir_vtname(V, vt));
        if ((in->op == IR_STORE || in->op == IR_OWN) && a0 != vt)
            ir_vreport(V, in, b, "'%s %s' of a %s value, the variable is %s", ir_vopname(in),
                   f->vars[k].name, ir_vtname(V, a0), ir_vtname(V, vt));
        if ((in->op == IR_OWN || in->op == IR_CLEAR) && !ty_has_refs(vt))
            ir_vreport(V, in, b, "'%s %s': a %s variable holds no reference", ir_vopname(in),
                   f->vars[k].name, ir_vtname(V, vt));
        break;
    }
    case IR_NEWREC:
        want_result(V, in, b, ty_is_instance(t), "a jitclass instance's record");
        break;
    case IR_ALLOC:
        if (t->kind != TY_ARRAY || (t->layout != LAYOUT_C && t->layout != LAYOUT_F) ||
            t->addrspace != AS_GENERIC || t->ndim < 1) {
            want_result(V, in, b, false, "a C or F array of host memory");
            break;
        }
        for (int k = 0; k < in->nargs; k++)
            want_type(V, in, b, k, ty_i64);
        if (in->imm.index < 1 || in->imm.index > V->p->nraises)
            ir_vreport(V, in, b, "no raise site %d", in->imm.index);
        break;
    case IR_ADD:
    case IR_SUB:
    case IR_MUL:
    case IR_FLOORDIV:
    case IR_MOD:
    case IR_NEG:
        want_result(V, in, b, ty_is_number(t), "a number");
        for (int k = 0; k < in->nargs; k++)
            want_type(V, in, b, k, t);
        break;
    case IR_DIV:
        want_result(V, in, b, ty_is_float(t), "true division is on floats");
        for (int k = 0; k < in->nargs; k++)
            want_type(V, in, b, k, t);
        break;
    case IR_POW:
        want_result(V, in, b, ty_is_number(t), "a number");
        want_type(V, in, b, 0, t);
        if (!(ty_is_float(t) && in->args[1]->type == ty_i64))
            want_type(V, in, b, 1, t);
        break;
    case IR_INVERT:
    case IR_BITAND:
    case IR_BITOR:
    case IR_BITXOR:
        want_result(V, in, b, ty_is_int(t) || t == ty_bool, "an integer or bool");
        for (int k = 0; k < in->nargs; k++)
            want_type(V, in, b, k, t);
        break;
    case IR_SHL:
    case IR_SHR:
        want_result(V, in, b, ty_is_int(t), "an integer");
        for (int k = 0; k < in->nargs; k++)
            want_type(V, in, b, k, t);
        break;
    case IR_NOT:
        want_result(V, in, b, t == ty_bool, "bool");
        want_type(V, in, b, 0, ty_bool);
        break;
    case IR_CMP:
        want_result(V, in, b, t == ty_bool, "a comparison gives bool");
        if ((unsigned)in->imm.pred > CMP_GE)
            ir_vreport(V, in, b, "bad comparison predicate %d", (int)in->imm.pred);
        if (!ty_is_scalar(a0))
            ir_vreport(V, in, b, "'cmp' of %s values", ir_vtname(V, a0));
        want_type(V, in, b, 1, a0);
        break;
    case IR_CAST:
        if (t->kind == TY_ARRAY) { /* another layout of the same array, never to writable */
            if (!a0 || a0->kind != TY_ARRAY || a0->dtype != t->dtype || a0->ndim != t->ndim ||
                a0->addrspace != t->addrspace || (a0->readonly && !t->readonly))
                ir_vreport(V, in, b, "'cast' of a %s value to %s", ir_vtname(V, a0), ir_vtname(V, t));
            break;
        }
        if (t->kind == TY_LIST) { /* the same block: [] gets its item type, reflected or not */
            if (!a0 || a0->kind != TY_LIST || (a0->dtype && a0->dtype != t->dtype))
                ir_vreport(V, in, b, "'cast' of a %s value to %s", ir_vtname(V, a0), ir_vtname(V, t));
            break;
        }
        if (t->kind == TY_DICT || t->kind == TY_SET) { /* the same block: {} gets its types */
            if (!a0 || a0->kind != t->kind || ((a0->key || a0->dtype) && a0 != t))
                ir_vreport(V, in, b, "'cast' of a %s value to %s", ir_vtname(V, a0), ir_vtname(V, t));
            break;
        }
        want_result(V, in, b, ty_is_scalar(t), "a scalar");
        if (!ty_is_scalar(a0))
            ir_vreport(V, in, b, "'cast' of a %s value", ir_vtname(V, a0));
        break;
    case IR_DNEW:
        want_result(V, in, b, t->kind == TY_DICT, "a dict");
        if (in->imm.index < 1 || in->imm.index > V->p->nraises)
            ir_vreport(V, in, b, "no raise site %d", in->imm.index);
        break;
    case IR_DLEN: case IR_DFIND: case IR_DINSERT: case IR_DKEY: case IR_DVALUE:
    case IR_DSETVALUE: case IR_DDELETE: case IR_DNEXT: case IR_DLAST: case IR_DCLEAR:
        if (!a0 || a0->kind != TY_DICT || !a0->key) {
            ir_vreport(V, in, b, "'%s' of a %s value", ir_vopname(in), ir_vtname(V, a0));
            break;
        }
        if (in->op == IR_DFIND || in->op == IR_DINSERT)
            want_type(V, in, b, 1, a0->key);
        else if (in->nargs > 1)
            want_type(V, in, b, 1, ty_i64);
        if (in->op == IR_DINSERT || in->op == IR_DSETVALUE)
            want_type(V, in, b, 2, a0->dtype);
        if (in->op == IR_DKEY)
            want_result(V, in, b, t == a0->key, "the dict's key type");
        else if (in->op == IR_DVALUE)
            want_result(V, in, b, t == a0->dtype, "the dict's value type");
        else if (in->op == IR_DLEN || in->op == IR_DFIND || in->op == IR_DNEXT ||
                 in->op == IR_DLAST)
            want_result(V, in, b, t == ty_i64, "int64");
        if (in->op == IR_DINSERT && (in->imm.index < 1 || in->imm.index > V->p->nraises))
            ir_vreport(V, in, b, "no raise site %d", in->imm.index);
        break;
    case IR_SNEW: case IR_SLEN: case IR_SFIND: case IR_SADD: case IR_SDISCARD: case IR_SKEY:
    case IR_SNEXT: case IR_SPOP: case IR_SCLEAR: case IR_SCOPY: case IR_SMERGE: case IR_SBINOP: {
        const Type *st = in->op == IR_SNEW ? t : a0;
        if (!st || st->kind != TY_SET || (in->op != IR_SNEW && !st->dtype)) {
            ir_vreport(V, in, b, "'%s' of a %s value", ir_vopname(in), ir_vtname(V, st));
            break;
        }
        if (in->op == IR_SFIND || in->op == IR_SADD || in->op == IR_SDISCARD)
            want_type(V, in, b, 1, st->dtype);
        else if (in->op == IR_SKEY || in->op == IR_SNEXT || in->op == IR_SNEW)
            want_type(V, in, b, in->op == IR_SNEW ? 0 : 1, ty_i64);
        if (in->op == IR_SMERGE || in->op == IR_SBINOP) {
            want_type(V, in, b, 1, st);
            want_type(V, in, b, 2, ty_i64);
        }
        if (in->op == IR_SKEY || in->op == IR_SPOP)
            want_result(V, in, b, t == st->dtype, "the set's item type");
        else if (in->op == IR_SCOPY || in->op == IR_SBINOP)
            want_result(V, in, b, t == st, "the set's type");
        else if (in->op == IR_SLEN || in->op == IR_SFIND || in->op == IR_SDISCARD ||
                 in->op == IR_SNEXT)
            want_result(V, in, b, t == ty_i64, "int64");
        bool site = in->op == IR_SNEW || in->op == IR_SADD || in->op == IR_SCOPY ||
                    in->op == IR_SMERGE || in->op == IR_SBINOP;
        if (site && (in->imm.index < 1 || in->imm.index > V->p->nraises))
            ir_vreport(V, in, b, "no raise site %d", in->imm.index);
        break;
    }
    case IR_LNEW:
    case IR_LRESIZE:
        want_type(V, in, b, in->op == IR_LNEW ? 0 : 1, ty_i64);
        if (in->op == IR_LNEW)
            want_result(V, in, b, t->kind == TY_LIST, "a list");
        else if (!a0 || a0->kind != TY_LIST)
            ir_vreport(V, in, b, "'%s' of a %s value", ir_vopname(in), ir_vtname(V, a0));
        if (in->imm.index < 1 || in->imm.index > V->p->nraises)
            ir_vreport(V, in, b, "no raise site %d", in->imm.index);
        break;
    case IR_LLEN:
    case IR_LGET:
    case IR_LSET:
        if (!a0 || a0->kind != TY_LIST || (in->op != IR_LLEN && !a0->dtype)) {
            ir_vreport(V, in, b, "'%s' of a %s value", ir_vopname(in), ir_vtname(V, a0));
            break;
        }
        if (in->op != IR_LLEN)
            want_type(V, in, b, 1, ty_i64);
        if (in->op == IR_LLEN)
            want_result(V, in, b, t == ty_i64, "int64");
        else if (in->op == IR_LGET)
            want_result(V, in, b, t == a0->dtype, "the list's item type");
        else
            want_type(V, in, b, 2, a0->dtype);
        break;
    case IR_SELECT:
        want_type(V, in, b, 0, ty_bool);
        want_type(V, in, b, 1, t);
        want_type(V, in, b, 2, t);
        break;
    case IR_CALL: {
        const IrFunc *c = known_callee(V->p, in);
        if (!c) {
            ir_vreport(V, in, b, "'call' of a function that is not in the program");
            break;
        }
        for (int k = 0; k < in->nargs; k++)
            want_type(V, in, b, k, c->params[k]);
        if (t != c->ret)
            ir_vreport(V, in, b, "'call @%s' has type %s, the function returns %s", c->mangled,
                   ir_vtname(V, t), ir_vtname(V, c->ret));
        break;
    }
    case IR_PARFOR:
        check_parfor(V, in, b);
        break;
    case IR_MATH: {
        if (in->imm.index < 0 || in->imm.index >= MATH__COUNT) {
            ir_vreport(V, in, b, "no math builtin number %d", in->imm.index);
            break;
        }
        const MathInfo *m = &ir_math[in->imm.index];
        if (!ty_is_float(a0))
            ir_vreport(V, in, b, "'math %s' of a %s value (the typer converts to a float)", m->name,
                   ir_vtname(V, a0));
        for (int k = 1; k < in->nargs; k++)
            want_type(V, in, b, k, a0);
        if (m->kind == MK_PRED)
            want_result(V, in, b, t == ty_bool, "a predicate gives bool");
        else if (m->kind == MK_ROUND)
            want_result(V, in, b, t == a0 || t == ty_i64, "the operand's type or int64");
        else
            want_result(V, in, b, t == a0, "the operand's type");
        break;
    }
    case IR_SHAPE:
        want_result(V, in, b, t == ty_i64, "int64");
        if (!a0 || a0->kind != TY_ARRAY)
            ir_vreport(V, in, b, "'shape' of a %s value", ir_vtname(V, a0));
        else if (in->imm.index < 0 || in->imm.index >= a0->ndim)
            ir_vreport(V, in, b, "'shape %d' of a %d-d array", in->imm.index, a0->ndim);
        break;
    case IR_STRIDE:
    case IR_ADDR:
        want_result(V, in, b, t == ty_i64, "int64");
        if (!a0 || a0->kind != TY_ARRAY)
            ir_vreport(V, in, b, "'%s' of a %s value", ir_vopname(in), ir_vtname(V, a0));
        else if (in->op == IR_STRIDE && (in->imm.index < 0 || in->imm.index >= a0->ndim))
            ir_vreport(V, in, b, "'stride %d' of a %d-d array", in->imm.index, a0->ndim);
        break;
    case IR_VIEW: {
        if (!a0 || a0->kind != TY_ARRAY) {
            ir_vreport(V, in, b, "'view' of a %s value", ir_vtname(V, a0));
            break;
        }
        int nsliced = 0;
        for (int k = 1; k < in->nargs; k++)
            want_type(V, in, b, k, ty_i64);
        for (int k = 0; k < a0->ndim; k++)
            nsliced += (int)((in->imm.i >> k) & 1);
        if (in->imm.i >> a0->ndim)
            ir_vreport(V, in, b, "'view' slices a dimension that %s does not have", ir_vtname(V, a0));
        if (t->kind != TY_ARRAY || t->dtype != a0->dtype || t->ndim != nsliced ||
            t->addrspace != a0->addrspace || t->readonly != a0->readonly)
            ir_vreport(V, in, b, "'view' of %s slicing %d dimensions has type %s", ir_vtname(V, a0),
                   nsliced, ir_vtname(V, t));
        break;
    }
    case IR_TRANSPOSE:
        if (!a0 || a0->kind != TY_ARRAY || t->kind != TY_ARRAY || t->dtype != a0->dtype ||
            t->ndim != a0->ndim || t->addrspace != a0->addrspace || t->readonly != a0->readonly)
            ir_vreport(V, in, b, "'transpose' of %s has type %s", ir_vtname(V, a0), ir_vtname(V, t));
        else if (in->nargs != 1 && in->nargs != 1 + t->ndim)
            ir_vreport(V, in, b, "'transpose' of %s takes %d axes, not %d", ir_vtname(V, a0), t->ndim,
                   in->nargs - 1);
        else
            for (int k = 1; k < in->nargs; k++)
                if (!in->args[k] || in->args[k]->type != ty_i64)
                    ir_vreport(V, in, b, "'transpose' axis %d is not int64", k - 1);
        break;
    case IR_RAWVIEW:
        if (t->kind != TY_ARRAY || t->addrspace != 0)
            ir_vreport(V, in, b, "'rawview' has type %s", ir_vtname(V, t));
        for (int k = 0; k < in->nargs; k++)
            want_type(V, in, b, k, ty_i64);
        break;
    case IR_RESHAPE:
        if (!a0 || a0->kind != TY_ARRAY || a0->layout != LAYOUT_C || t->kind != TY_ARRAY ||
            t->layout != LAYOUT_C || (t->dtype != a0->dtype && a0->dtype != ty_u8) ||
            t->addrspace != a0->addrspace ||
            t->readonly != a0->readonly)
            ir_vreport(V, in, b, "'reshape' of %s has type %s", ir_vtname(V, a0), ir_vtname(V, t));
        for (int k = 1; k < in->nargs; k++)
            want_type(V, in, b, k, ty_i64);
        break;
    case IR_ADDRARRAY:
        if (t->kind != TY_ARRAY || t->layout != LAYOUT_C || t->addrspace != AS_GENERIC)
            ir_vreport(V, in, b, "'addrarray' has type %s, not a C array", ir_vtname(V, t));
        for (int k = 0; k < in->nargs; k++)
            want_type(V, in, b, k, ty_i64);
        break;
    case IR_ALOAD:
        check_array_access(V, in, b, 0);
        if (a0 && a0->kind == TY_ARRAY && t != a0->dtype)
            ir_vreport(V, in, b, "'aload' has type %s, the array holds %s", ir_vtname(V, t),
                   ir_vtname(V, a0->dtype));
        break;
    case IR_ASTORE:
        check_array_access(V, in, b, 1);
        if (a0 && a0->kind == TY_ARRAY && a0->readonly)
            ir_vreport(V, in, b, "'astore' into a readonly array");
        break;
    case IR_ATOMIC:
        if (in->imm.index < 0 || in->imm.index >= ATOM__COUNT) {
            ir_vreport(V, in, b, "bad atomic kind %d", in->imm.index);
            break;
        }
        check_array_access(V, in, b, in->imm.index == ATOM_CAS ? 2 : 1);
        if (a0 && a0->kind == TY_ARRAY && t != a0->dtype)
            ir_vreport(V, in, b, "'atomic' has type %s, the array holds %s", ir_vtname(V, t),
                   ir_vtname(V, a0->dtype));
        break;
    case IR_TUPLE:
        if (t->kind != TY_TUPLE) {
            want_result(V, in, b, false, "a tuple");
            break;
        }
        for (int k = 0; k < in->nargs; k++)
            want_type(V, in, b, k, t->elems[k]);
        break;
    case IR_COMPLEX:
        want_result(V, in, b, ty_is_complex(t), "complex64 or complex128");
        if (ty_is_complex(t))
            for (int k = 0; k < 2; k++)
                want_type(V, in, b, k, ty_complex_part(t));
        break;
    case IR_CPART:
        if (!ty_is_complex(a0))
            ir_vreport(V, in, b, "'cpart' of a %s value", ir_vtname(V, a0));
        else if (in->imm.index != 0 && in->imm.index != 1)
            ir_vreport(V, in, b, "'cpart %d': 0 (real) or 1 (imag)", in->imm.index);
        else
            want_result(V, in, b, t == ty_complex_part(a0), "the complex's part type");
        break;
    case IR_CPARTVIEW:
        if (!a0 || a0->kind != TY_ARRAY || !ty_is_complex(a0->dtype))
            ir_vreport(V, in, b, "'cpartview' of a %s value", ir_vtname(V, a0));
        else if (in->imm.index != 0 && in->imm.index != 1)
            ir_vreport(V, in, b, "'cpartview %d': 0 (real) or 1 (imag)", in->imm.index);
        else
            want_result(V, in, b, t && t->kind == TY_ARRAY && t->ndim == a0->ndim &&
                                      t->dtype == ty_complex_part(a0->dtype) &&
                                      t->layout == LAYOUT_A && t->addrspace == a0->addrspace,
                        "an array of the part type, layout A");
        break;
    case IR_RGET:
    case IR_RSET:
    case IR_FIELDVIEW: {
        const Type *rec = in->op == IR_FIELDVIEW ? (a0 && a0->kind == TY_ARRAY ? a0->dtype : NULL)
                                                 : a0;
        if (!rec || rec->kind != TY_RECORD || in->imm.index < 0 ||
            in->imm.index >= rec->nelems) {
            ir_vreport(V, in, b, "'%s %d' of a %s value", ir_vopname(in), in->imm.index, ir_vtname(V, a0));
            break;
        }
        const Type *ft = rec->elems[in->imm.index];
        if (in->op == IR_RGET)
            want_result(V, in, b, t == ft, "the field's type");
        else if (in->op == IR_RSET)
            want_type(V, in, b, 1, ft);
        else
            want_result(V, in, b, t && t->kind == TY_ARRAY && t->dtype == ft &&
                                      t->ndim == a0->ndim && t->layout == LAYOUT_A,
                        "an array of the field's type, layout A");
        break;
    }
    case IR_EXTRACT:
        if (a0 && a0->kind == TY_STR) { /* a string's byte (1) or character (2) count */
            if (in->imm.index != 1 && in->imm.index != 2)
                ir_vreport(V, in, b, "'extract %d' from a string (1: bytes, 2: characters)",
                       in->imm.index);
            else if (t != ty_i64)
                ir_vreport(V, in, b, "'extract %d' of a string has type int64", in->imm.index);
        } else if (!a0 || a0->kind != TY_TUPLE)
            ir_vreport(V, in, b, "'extract' from a %s value", ir_vtname(V, a0));
        else if (in->imm.index < 0 || in->imm.index >= a0->nelems)
            ir_vreport(V, in, b, "'extract %d' from a tuple of %d", in->imm.index, a0->nelems);
        else if (t != a0->elems[in->imm.index])
            ir_vreport(V, in, b, "'extract %d' has type %s, the element is %s", in->imm.index,
                   ir_vtname(V, t), ir_vtname(V, a0->elems[in->imm.index]));
        break;
    case IR_BR:
    case IR_CONDBR:
        for (int k = 0; k < (in->op == IR_BR ? 1 : 2); k++)
            if (in->imm.targets[k] < 0 || in->imm.targets[k] >= f->nblocks)
                ir_vreport(V, in, b, "branch to b%d, which does not exist", in->imm.targets[k]);
        if (in->op == IR_CONDBR)
            want_type(V, in, b, 0, ty_bool);
        break;
    case IR_YIELD:
        if (!f->yield)
            ir_vreport(V, in, b, "'yield' in a function that is not a generator");
        else
            want_type(V, in, b, 0, f->yield);
        break;
    case IR_RET:
        if (f->yield && in->nargs != 0) /* a coroutine's end: no value */
            ir_vreport(V, in, b, "'ret' with a value in a generator");
        else if (f->yield)
            break;
        else if (f->ret->kind == TY_VOID && in->nargs != 0)
            ir_vreport(V, in, b, "'ret' with a value in a function returning void");
        else if (f->ret->kind != TY_VOID && in->nargs != 1)
            ir_vreport(V, in, b, "'ret' needs a %s value", ir_vtname(V, f->ret));
        else if (in->nargs == 1)
            want_type(V, in, b, 0, f->ret);
        break;
    case IR_RAISE:
        if (in->imm.index < 1 || in->imm.index > V->p->nraises)
            ir_vreport(V, in, b, "no raise site %d", in->imm.index);
        break;
    case IR_SREG:
        want_result(V, in, b, t == ty_i64, "int64");
        if (in->imm.index < 0 || in->imm.index > SREG_WARPSIZE)
            ir_vreport(V, in, b, "no special register %d", in->imm.index);
        break;
    case IR_SHARED:
    case IR_LOCAL:
        if (t->kind != TY_ARRAY || t->layout != LAYOUT_C || t->ndim < 1 || t->ndim > 3) {
            want_result(V, in, b, false, "a C-layout array of 1 to 3 dimensions");
            break;
        }
        if (in->op == IR_SHARED && t->addrspace != AS_SHARED)
            ir_vreport(V, in, b, "'shared.array' of type %s (not in shared memory)", ir_vtname(V, t));
        for (int k = 0; k < t->ndim; k++)
            if (in->imm.dims[k] <= 0)
                ir_vreport(V, in, b, "extent %d of '%s' is %lld", k, ir_vopname(in),
                       (long long)in->imm.dims[k]);
        break;
    case IR_BARRIER:
    case IR_FENCE:
        break;
    case IR_CUDA:
        check_cuda(V, in, b);
        break;
    case IR_PRINT:
        for (int k = 0; k < in->nargs; k++)
            if (in->args[k] && !ty_is_elem(in->args[k]->type) && in->args[k]->type != ty_str &&
                !(in->args[k]->type->kind == TY_ARRAY && ty_is_scalar(in->args[k]->type->dtype)))
                ir_vreport(V, in, b, "operand %d of 'print' is %s, not a scalar", k,
                       ir_vtname(V, in->args[k]->type));
        break;
    case IR_RANDOM: {
        if (in->imm.index < 0 || in->imm.index >= RND__COUNT) {
            ir_vreport(V, in, b, "no random-number function number %d", in->imm.index);
            break;
        }
        const RandomInfo *r = &ir_random[in->imm.index];
        for (int k = 0; k < in->nargs; k++)
            want_type(V, in, b, k, ty_scalar(r->arg));
        want_result(V, in, b, t == ty_scalar(r->ret), "the type random.def gives");
        break;
    }
    case IR_CALLADDR:
        if (in->nargs < 1) {
            ir_vreport(V, in, b, "calladdr needs the function's address");
            break;
        }
        want_type(V, in, b, 0, ty_i64);
        for (int k = 1; k < in->nargs; k++)
            if (in->args[k] && !(ty_is_int(in->args[k]->type) || ty_is_float(in->args[k]->type)))
                ir_vreport(V, in, b, "operand %d of calladdr is not an integer or a float", k);
        want_result(V, in, b, t == ty_void || ty_is_int(t) || ty_is_float(t),
                    "an integer, a float or void");
        break;
    case IR_RTCALL: {
        if (in->imm.index < 0 || in->imm.index >= RT__COUNT) {
            ir_vreport(V, in, b, "no runtime function number %d", in->imm.index);
            break;
        }
        const RtInfo *r = &ir_rtcall[in->imm.index];
        for (int k = 0; k < in->nargs; k++)
            want_type(V, in, b, k, ir_rtcall_arg(r, k));
        want_result(V, in, b, t == ty_scalar(r->ret), "the type rtcall.def gives");
        break;
    }
    default:
        ir_vreport(V, in, b, "unknown instruction %d", (int)in->op);
        return;
    }
    bool void_op = in->op == IR_STORE || in->op == IR_OWN || in->op == IR_CLEAR ||
                   in->op == IR_PRINT || in->op == IR_YIELD ||
                   in->op == IR_ASTORE || ir_vterminator(in->op) ||
                   in->op == IR_LSET || in->op == IR_LRESIZE || in->op == IR_RSET ||
                   in->op == IR_DINSERT || in->op == IR_DSETVALUE || in->op == IR_DDELETE ||
                   in->op == IR_DCLEAR || in->op == IR_SADD || in->op == IR_SCLEAR ||
                   in->op == IR_SMERGE ||
                   in->op == IR_BARRIER || in->op == IR_FENCE ||
                   (in->op == IR_CUDA && cuda_void(in)) ||
                   (in->op == IR_RTCALL && t == ty_void) ||
                   (in->op == IR_CALLADDR && t == ty_void) ||
                   (in->op == IR_RANDOM && t == ty_void);
    if (void_op && !is_void)
        ir_vreport(V, in, b, "'%s' has no result, but has type %s", ir_vopname(in), ir_vtname(V, t));
    if (!void_op && is_void && in->op != IR_CALL && in->op != IR_PARFOR)
        ir_vreport(V, in, b, "'%s' needs a result type", ir_vopname(in));
    bool gpu_op = in->op == IR_SREG || in->op == IR_BARRIER || in->op == IR_FENCE ||
                  in->op == IR_ATOMIC || in->op == IR_SHARED || in->op == IR_LOCAL ||
                  in->op == IR_CUDA;
    if (gpu_op && V->p->target != TARGET_NVPTX)
        ir_vreport(V, in, b, "'%s' is only for the nvptx target", ir_vopname(in));
    bool cpu_op = in->op == IR_ALLOC || in->op == IR_NEWREC || in->op == IR_OWN || in->op == IR_CLEAR ||
                  in->op == IR_RTCALL || in->op == IR_CALLADDR || in->op == IR_ADDRARRAY ||
                  in->op == IR_RANDOM || in->op == IR_PARFOR;
    if (cpu_op && V->p->target != TARGET_CPU)
        ir_vreport(V, in, b, "'%s' is only for the cpu target", ir_vopname(in));
}
