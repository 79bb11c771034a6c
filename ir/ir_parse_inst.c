/* ir_parse_inst.c — one instruction line of the IR's text form: "%id = op args : type",
 * stores, branches, calls and constants, with %values resolved now or patched when their
 * function ends (Fixup) and callee @symbols when the whole text has been read (CallFixup).
 * The op's row in ir/ops.def says how many operands and constants it takes; the parser checks
 * syntax and names only, as ir_parse.c says.
 */
#include "ir_parse_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- instructions -------------------------------------------------------------------------- */
enum { MAX_ID = 1 << 22 };

/* The number of a %value token, or -1 when it is absurdly large. */
static int value_id(const Tok *t) {
    long v = 0;
    for (int i = 1; i < t->len; i++) {
        v = v * 10 + (t->s[i] - '0');
        if (v >= MAX_ID)
            return -1;
    }
    return (int)v;
}

static bool use_value(Parser *P, IrInst *in, int k, const Tok *t) {
    int id = value_id(t);
    if (id < 0)
        return irp_error_at(P, t->col, t->len, "value number too large");
    if (id < P->capdefs && P->defs[id]) {
        in->args[k] = P->defs[id];
        return true;
    }
    if (!irp_grow((void **)&P->fix, &P->capfix, P->nfix + 1, sizeof(Fixup)))
        return irp_error_at(P, t->col, t->len, "out of memory");
    P->fix[P->nfix++] = (Fixup){in, k, id, P->line, t->col, t->len};
    return true;
}

/* A comma-separated list of %values (possibly empty, up to the end or a closing paren). */
static int parse_values(Parser *P, Tok **vals, int max) {
    int n = 0;
    if (irp_peek(P)->kind != T_VALUE)
        return 0;
    for (;;) {
        Tok *t = irp_peek(P);
        if (t->kind != T_VALUE) {
            irp_error_tok(P, t, "a value (%N)");
            return -1;
        }
        if (n == max) {
            irp_error_at(P, t->col, t->len, "too many operands");
            return -1;
        }
        vals[n++] = t;
        P->pos++;
        /* a comma continues the list only when a value follows (condbr %c, b1, b2) */
        if (!irp_is_punct(irp_peek(P), ",") || P->toks[P->pos + 1].kind != T_VALUE)
            return n;
        P->pos++;
    }
}

bool irp_parse_block_ref(Parser *P, int *out) {
    Tok *t = irp_peek(P);
    if (t->kind == T_IDENT && t->len > 1 && t->s[0] == 'b') {
        char *s = irp_tok_text(P, t) + 1, *stop;
        long v = strtol(s, &stop, 10);
        if (!*stop && irp_is_digit(*s) && v >= 0 && v < 0x7fffffff) {
            *out = (int)v;
            P->pos++;
            return true;
        }
    }
    return irp_error_tok(P, t, "a block label (bN)");
}

int irp_lookup_name(const char *const *names, int n, const Tok *t) {
    for (int i = 0; i < n; i++)
        if (names[i] && strlen(names[i]) == (size_t)t->len && !memcmp(names[i], t->s, (size_t)t->len))
            return i;
    return -1;
}

static bool parse_var_ref(Parser *P, int *out) {
    Tok *t = irp_peek(P);
    if (t->kind == T_IDENT && t->s[0] == '$' && t->len > 1) {
        bool digits = true;
        for (int i = 1; i < t->len; i++)
            digits &= irp_is_digit(t->s[i]);
        if (digits) {
            *out = atoi(t->s + 1);
            if (*out >= P->f->nvars)
                return irp_error_at(P, t->col, t->len, "no variable number %d", *out);
            P->pos++;
            return true;
        }
    }
    const char *name = irp_parse_name(P, "a variable");
    if (!name)
        return false;
    for (int i = 0; i < P->f->nvars; i++)
        if (!strcmp(P->f->vars[i].name, name)) {
            *out = i;
            return true;
        }
    return irp_error_at(P, t->col, t->len, "unknown variable '%s'", name);
}

/* Reads the constant in tokens [c0, c1) for type t into in->imm. */
static bool const_value(Parser *P, IrInst *in, int c0, int c1) {
    const Type *t = in->type;
    Tok *first = &P->toks[c0];
    if (c1 == c0)
        return irp_error_tok(P, first, "a constant");
    int col = first->col, len = (int)(P->toks[c1 - 1].s + P->toks[c1 - 1].len - first->s);
    char *text = arena_strndup(P->a, first->s, (size_t)len);
    if (t->kind == TY_STR) { /* a string constant: one quoted token */
        if (c1 - c0 != 1 || first->kind != T_STR)
            return irp_error_at(P, col, len, "bad string constant '%s'", text);
        in->imm.str = first->str;
        return true;
    }
    if (c1 - c0 > 2 || (c1 - c0 == 2 && !irp_is_punct(first, "-")))
        return irp_error_at(P, col, len, "bad constant '%s'", text);
    if (t->kind == TY_BOOL) {
        if (!strcmp(text, "true") || !strcmp(text, "1"))
            in->imm.i = 1;
        else if (!strcmp(text, "false") || !strcmp(text, "0"))
            in->imm.i = 0;
        else
            return irp_error_at(P, col, len, "bad bool constant '%s'", text);
        return true;
    }
    char *stop;
    errno = 0;
    if (ty_is_float(t)) {
        const char *s = text[0] == '-' ? text + 1 : text;
        while (*s == ' ' || *s == '\t')
            s++;
        double v;
        if (!strcmp(s, "inf"))
            v = INFINITY;
        else if (!strcmp(s, "nan"))
            v = NAN;
        else if (c1 - c0 == 1 && first->kind == T_NUM) {
            v = strtod(text, &stop);
            if (*stop)
                return irp_error_at(P, col, len, "bad float constant '%s'", text);
            in->imm.f = v;
            return true;
        } else
            return irp_error_at(P, col, len, "bad float constant '%s'", text);
        in->imm.f = text[0] == '-' ? -v : v;
        return true;
    }
    if (!ty_is_int(t))
        return irp_error_at(P, col, len, "a constant of type %s", t->name);
    if (c1 - c0 != 1 || first->kind != T_NUM)
        return irp_error_at(P, col, len, "bad integer constant '%s'", text);
    if (t->kind == TY_U64 && text[0] != '-')
        in->imm.i = (int64_t)strtoull(text, &stop, 10);
    else
        in->imm.i = strtoll(text, &stop, 10);
    if (*stop || errno)
        return irp_error_at(P, col, len, "bad integer constant '%s'", text);
    return true;
}

bool irp_parse_inst(Parser *P) {
    IrFunc *f = P->f;
    int id = -1;
    Tok *idtok = NULL;
    if (irp_peek(P)->kind == T_VALUE) {
        idtok = irp_peek(P);
        id = value_id(idtok);
        if (id < 0)
            return irp_error_at(P, idtok->col, idtok->len, "value number too large");
        P->pos++;
        if (!irp_expect(P, "="))
            return false;
    }
    Tok *optok = irp_peek(P);
    int op = optok->kind == T_IDENT ? irp_lookup_name(ir_op_name, IR__COUNT, optok) : -1;
    if (op < 0)
        return irp_error_tok(P, optok, "an instruction");
    P->pos++;
    if (!P->b)
        return irp_error_at(P, optok->col, optok->len, "an instruction outside a block");

    /* The non-value operand, then the values. */
    enum { MAXV = 256 };
    Tok *vals[MAXV];
    int nv = 0, c0 = 0, c1 = 0;
    int64_t dims[3] = {0, 0, 0};
    int ndims = 0, index = 0, targets[2] = {0, 0};
    int64_t mask = 0;
    CmpPred pred = CMP_EQ;
    Tok *callee = NULL;
    const char *text = NULL;
    uint8_t redops[IR_PARFOR_MAXRED];
    int nred = 0;
    switch ((IrOp)op) {
    case IR_CONST:
        c0 = P->pos;
        while (irp_peek(P)->kind != T_EOL && !irp_is_punct(irp_peek(P), ":"))
            P->pos++;
        c1 = P->pos;
        break;
    case IR_PARAM:
    case IR_RAISE:
        if (!irp_parse_index(P, &index, op == IR_PARAM ? "a parameter number" : "a raise site number"))
            return false;
        break;
    case IR_SHAPE:
    case IR_STRIDE:
    case IR_EXTRACT:
    case IR_CPART:
    case IR_CPARTVIEW:
    case IR_LNEW:
    case IR_LRESIZE:
    case IR_DNEW:
    case IR_DINSERT:
    case IR_SNEW: case IR_SADD: case IR_SCOPY: case IR_SMERGE: case IR_SBINOP:
    case IR_ALLOC: case IR_NEWREC:
    case IR_RGET:
    case IR_RSET:
    case IR_FIELDVIEW:
        if (!irp_parse_index(P, &index, op == IR_EXTRACT ? "an element number"
                                    : op == IR_RGET || op == IR_RSET || op == IR_FIELDVIEW
                                        ? "a field number"
                                    : op == IR_CPART || op == IR_CPARTVIEW ? "0 (real) or 1 (imag)"
                                    : op == IR_ALLOC || op == IR_NEWREC || op == IR_LNEW || op == IR_LRESIZE ||
                                      op == IR_DNEW || op == IR_DINSERT || op == IR_SNEW ||
                                      op == IR_SADD || op == IR_SCOPY || op == IR_SMERGE ||
                                      op == IR_SBINOP
                                        ? "a raise site number"
                                                     : "a dimension"))
            return false;
        nv = parse_values(P, vals, MAXV);
        break;
    case IR_VIEW: {
        Tok *t = irp_peek(P);
        const char *text = t->kind == T_IDENT ? irp_tok_text(P, t) : "";
        size_t len = strlen(text);
        if (!len || len > TY_MAX_NDIM || strspn(text, "si") != len)
            return irp_error_tok(P, t, "one letter per dimension, s (sliced) or i (indexed)");
        for (size_t k = 0; k < len; k++)
            if (text[k] == 's')
                mask |= (int64_t)1 << k;
        P->pos++;
        nv = parse_values(P, vals, MAXV);
        break;
    }
    case IR_LOAD:
    case IR_CLEAR:
        if (!parse_var_ref(P, &index))
            return false;
        break;
    case IR_STORE:
    case IR_OWN:
        if (!parse_var_ref(P, &index) || !irp_expect(P, ","))
            return false;
        nv = parse_values(P, vals, MAXV);
        break;
    case IR_CMP: {
        int k = irp_peek(P)->kind == T_IDENT ? irp_lookup_name(ir_cmp_name, 6, irp_peek(P)) : -1;
        if (k < 0)
            return irp_error_tok(P, irp_peek(P), "a comparison (eq ne lt le gt ge)");
        pred = (CmpPred)k;
        P->pos++;
        nv = parse_values(P, vals, MAXV);
        break;
    }
    case IR_MATH: {
        Tok *t = irp_peek(P);
        index = t->kind == T_IDENT ? ir_math_lookup(irp_tok_text(P, t)) : -1;
        if (index < 0)
            return irp_error_tok(P, t, "a math builtin");
        P->pos++;
        nv = parse_values(P, vals, MAXV);
        break;
    }
    case IR_ATOMIC:
        index = irp_peek(P)->kind == T_IDENT ? irp_lookup_name(ir_atomic_name, ATOM__COUNT, irp_peek(P)) : -1;
        if (index < 0)
            return irp_error_tok(P, irp_peek(P), "an atomic operation (add sub max min exch cas and or "
                                         "xor inc dec nanmax nanmin)");
        P->pos++;
        nv = parse_values(P, vals, MAXV);
        break;
    case IR_CUDA: {
        Tok *t = irp_peek(P);
        index = t->kind == T_IDENT ? ir_cuda_lookup(irp_tok_text(P, t)) : -1;
        if (index < 0)
            return irp_error_tok(P, t, "a CUDA intrinsic (shfl_sync, ballot_sync, popc, ...)");
        P->pos++;
        nv = parse_values(P, vals, MAXV);
        break;
    }
    case IR_PRINT: {
        Tok *t = irp_peek(P);
        if (t->kind != T_STR)
            return irp_error_tok(P, t, "the printed line (a string)");
        text = t->str;
        P->pos++;
        if (irp_accept(P, ","))
            nv = parse_values(P, vals, MAXV);
        break;
    }
    case IR_RANDOM: {
        Tok *t = irp_peek(P);
        index = t->kind == T_IDENT ? ir_random_lookup(irp_tok_text(P, t)) : -1;
        if (index < 0)
            return irp_error_tok(P, t, "a random-number function (np_random, py_gauss, ...)");
        P->pos++;
        nv = parse_values(P, vals, MAXV);
        break;
    }
    case IR_RTCALL: {
        Tok *t = irp_peek(P);
        index = t->kind == T_IDENT ? ir_rtcall_lookup(irp_tok_text(P, t)) : -1;
        if (index < 0)
            return irp_error_tok(P, t, "a runtime function (sort, argsort, select, ...)");
        P->pos++;
        nv = parse_values(P, vals, MAXV);
        break;
    }
    case IR_SREG:
        index = irp_peek(P)->kind == T_IDENT ? irp_lookup_name(ir_sreg_name, SREG_WARPSIZE + 1, irp_peek(P))
                                         : -1;
        if (index < 0)
            return irp_error_tok(P, irp_peek(P), "a special register (tid.x ... warpsize)");
        P->pos++;
        break;
    case IR_CALL:
    case IR_PARFOR:
        callee = irp_peek(P);
        if (callee->kind != T_SYM)
            return irp_error_tok(P, callee, op == IR_CALL ? "a callee (@symbol)"
                                                      : "a loop body (@symbol)");
        P->pos++;
        if (op == IR_PARFOR) { /* [add, min]: the reductions' operators */
            if (!irp_expect(P, "["))
                return false;
            while (!irp_accept(P, "]")) {
                if (nred && !irp_expect(P, ","))
                    return false;
                Tok *t = irp_peek(P);
                int k = t->kind == T_IDENT ? irp_lookup_name(ir_reduce_name, REDUCE__COUNT, t) : -1;
                if (k < 0)
                    return irp_error_tok(P, t, "a reduction operator (add mul min max) or ']'");
                if (nred == IR_PARFOR_MAXRED)
                    return irp_error_at(P, t->col, t->len, "more than %d reductions",
                                    IR_PARFOR_MAXRED);
                redops[nred++] = (uint8_t)k;
                P->pos++;
            }
        }
        if (!irp_expect(P, "("))
            return false;
        nv = parse_values(P, vals, MAXV);
        if (nv < 0 || !irp_expect(P, ")"))
            return false;
        break;
    case IR_BR:
        if (!irp_parse_block_ref(P, &targets[0]))
            return false;
        break;
    case IR_CONDBR:
        nv = parse_values(P, vals, MAXV);
        if (nv < 0 || !irp_expect(P, ",") || !irp_parse_block_ref(P, &targets[0]) || !irp_expect(P, ",") ||
            !irp_parse_block_ref(P, &targets[1]))
            return false;
        break;
    case IR_SHARED:
    case IR_LOCAL:
        for (;;) {
            Tok *t = irp_peek(P);
            char *stop;
            long long v = t->kind == T_NUM ? strtoll(irp_tok_text(P, t), &stop, 10) : 0;
            if (t->kind != T_NUM || *stop || v <= 0)
                return irp_error_tok(P, t, "a positive array extent");
            if (ndims == 3)
                return irp_error_at(P, t->col, t->len, "at most 3 dimensions");
            dims[ndims++] = v;
            P->pos++;
            if (!irp_accept(P, ","))
                break;
        }
        break;
    default:
        nv = parse_values(P, vals, MAXV);
        break;
    }
    if (nv < 0)
        return false;

    const Type *type = ty_void;
    if (irp_accept(P, ":")) {
        if (!(type = irp_parse_type(P)))
            return false;
        if (!idtok)
            return irp_error_at(P, optok->col, optok->len,
                            "an instruction with a type needs a result (%%N = ...)");
    }
    if (!irp_expect_eol(P))
        return false;
    if (idtok && type == ty_void)
        return irp_error_at(P, idtok->col, idtok->len, "a result needs a type (': TYPE')");
    if (id >= 0 && id < P->capdefs && P->defs[id])
        return irp_error_at(P, idtok->col, idtok->len, "%%%d is defined twice", id);
    if ((op == IR_SHARED || op == IR_LOCAL) && type->kind == TY_ARRAY && type->ndim != ndims)
        return irp_error_at(P, optok->col, optok->len, "%d extents for a %d-d array", ndims,
                        type->ndim);

    IrInst *in = ir_emit(f, P->b, (IrOp)op, type, irp_comment_loc(P), nv, NULL);
    in->id = id;
    if (op == IR_CONST && !const_value(P, in, c0, c1))
        return false;
    switch ((IrOp)op) {
    case IR_CONST: break;
    case IR_CMP: in->imm.pred = pred; break;
    case IR_BR:
    case IR_CONDBR: in->imm.targets[0] = targets[0], in->imm.targets[1] = targets[1]; break;
    case IR_SHARED:
    case IR_LOCAL: memcpy(in->imm.dims, dims, sizeof dims); break;
    case IR_VIEW: in->imm.i = mask; break;
    case IR_PRINT: in->imm.str = text; break;
    case IR_PARFOR: /* the body is found like a callee */
        in->imm.par.nred = nred;
        memcpy(in->imm.par.ops, redops, (size_t)nred);
        /* fall through */
    case IR_CALL:
        if (!irp_grow((void **)&P->cfix, &P->capcfix, P->ncfix + 1, sizeof(CallFixup)))
            return irp_error_at(P, callee->col, callee->len, "out of memory");
        P->cfix[P->ncfix++] = (CallFixup){in, callee->str, P->line, callee->col, callee->len};
        break;
    default: in->imm.index = index; break;
    }
    if (id >= 0) {
        if (!irp_grow((void **)&P->defs, &P->capdefs, id + 1, sizeof(IrInst *)))
            return irp_error_at(P, idtok->col, idtok->len, "out of memory");
        P->defs[id] = in;
        if (id >= f->next_id)
            f->next_id = id + 1;
    }
    for (int k = 0; k < nv; k++)
        if (!use_value(P, in, k, vals[k]))
            return false;
    return true;
}

