/* ir_print.c — the text form of the typed IR, written; ir_parse.c reads exactly this back.
 *
 * The form is line oriented: one declaration or instruction per line, a location (where known)
 * as a trailing comment "; file:line:col" aligned at column 48, blank lines and other comments
 * free.  A whole program reads:
 *
 *   target cpu
 *   raise 1 ZeroDivisionError "division by zero"   ; f.py:4:9
 *
 *   func @div__float64_float64_(x: float64, y: float64) -> float64 njit python def div {   ; f.py:2:1
 *     var q: float64
 *   b0:
 *     %0 = param 0 : float64                       ; f.py:2:9
 *     %1 = param 1 : float64                       ; f.py:2:12
 *     %2 = const 0.0 : float64
 *     %3 = cmp eq %1, %2 : bool                    ; f.py:4:9
 *     condbr %3, b1, b2
 *   b1:
 *     raise 1
 *   b2:
 *     %4 = div %0, %1 : float64                    ; f.py:4:9
 *     store q, %4
 *     %5 = load q : float64
 *     ret %5
 *   }
 *
 * Header: "target cpu|nvptx", then the raise sites in order ("raise K KindError "msg""), then
 * the functions in program order (funcs[0], the entry, first).  A function line carries the
 * mangled symbol, the parameters, the return type, the kind (njit scalar gufunc kernel device),
 * the error model (python numpy), the flags fastmath (followed by the fast-math flags of a flag
 * set, "fastmath nsz arcp"; alone it is all of them) and boundscheck when set, and "def NAME"
 * when the Python name differs from the symbol.  Variables ("var NAME: TYPE") come before the
 * first block; blocks are labelled b0, b1, ... in order.
 *
 * Instructions: "%ID = OP IMM ARGS : TYPE" for those with a result, "OP IMM ARGS" for void ones.
 * IMM is the non-value operand, where the op has one: a constant (ints in decimal, bool as
 * true/false, floats in the shortest decimal that reads back to the same double, inf/-inf/nan),
 * a parameter or dimension or element number, a variable name, a cmp predicate (eq ne lt le gt
 * ge), a math builtin (sqrt, atan2, ...), an sreg (tid.x, ...), an atomic kind (add, cas, ...),
 * a CUDA intrinsic (shfl_down_sync, ballot_sync, popc, ...: ir/cuda.def),
 * a callee (@symbol, arguments in parentheses; a parfor's body, then its reductions' operators
 * in brackets: "parfor @f$parfor2 [add, min] (%1, %2, %3, %4, %5)"), branch targets (b3), a
 * raise site number, or the
 * static shape of shared.array/local.array (16, 16).  ARGS are SSA values %ID, comma separated.
 *
 * Types are spelled as in Numba signatures: bool int8 ... uint64 float32 float64,
 * "float64[::1]" (1-d C), "float64[:, ::1]" (C), "float64[::1, :]" (F), "float64[:, :]" (A),
 * "float32[]" (0-d), with the prefix "shared "/"local "/"global " for a non-generic address
 * space and the suffix " (readonly)"; tuples "UniTuple(int64, 2)" and "Tuple(int64, float64)";
 * "void", "range_state64".  Names that are not plain identifiers are written as quoted strings;
 * a variable whose name is not unique in its function is referred to by number ($3).
 */
#include "ir.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LOC_COLUMN = 48 };

const char *const ir_func_kind_name[5] = {"njit", "scalar", "gufunc", "kernel", "device"};
const char *const ir_raise_kind_name[RAISE__COUNT] = {
    "?", "ZeroDivisionError", "IndexError", "ValueError", "MemoryError", "LinAlgError",
    "AssertionError", "TypeError", "KeyError", "RuntimeError", "NotImplementedError",
    "OverflowError", "ArithmeticError", "LookupError", "Exception", "StopIteration",
    "FloatingPointError", "AttributeError", "NameError", "UnicodeError"};

/* ---- small spellings ----------------------------------------------------------------------- */
static bool ir_is_plain_name(const char *s) {
    if (!s || !*s || (*s >= '0' && *s <= '9'))
        return false;
    for (; *s; s++) {
        char c = *s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '$' || c == '.'))
            return false;
    }
    return true;
}

static void put_quoted(StrBuf *out, const char *s) {
    sb_putc(out, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            sb_printf(out, "\\%c", c);
        else if (c == '\n')
            sb_puts(out, "\\n");
        else if (c == '\t')
            sb_puts(out, "\\t");
        else if (c < 32 || c >= 127)
            sb_printf(out, "\\x%02x", c);
        else
            sb_putc(out, (char)c);
    }
    sb_putc(out, '"');
}

static void put_name(StrBuf *out, const char *s) {
    if (ir_is_plain_name(s))
        sb_puts(out, s);
    else
        put_quoted(out, s ? s : "");
}

void ir_print_type(const Type *t, StrBuf *out) {
    if (!t) {
        sb_puts(out, "?");
        return;
    }
    switch (t->kind) {
    case TY_VOID:
        sb_puts(out, "void");
        return;
    case TY_ARRAY:
        if (t->addrspace == AS_SHARED)
            sb_puts(out, "shared ");
        else if (t->addrspace == AS_LOCAL)
            sb_puts(out, "local ");
        else if (t->addrspace == AS_GLOBAL)
            sb_puts(out, "global ");
        ir_print_type(t->dtype, out);
        sb_putc(out, '[');
        for (int i = 0; i < t->ndim; i++) {
            bool unit = (t->layout == LAYOUT_C && i == t->ndim - 1) ||
                        (t->layout == LAYOUT_F && i == 0 && t->ndim > 1);
            sb_printf(out, "%s%s", i ? ", " : "", unit ? "::1" : ":");
        }
        sb_putc(out, ']');
        if (t->readonly)
            sb_puts(out, " (readonly)");
        return;
    case TY_TUPLE: {
        bool uni = t->nelems > 0;
        for (int i = 1; i < t->nelems; i++)
            uni &= t->elems[i] == t->elems[0];
        if (uni) {
            sb_puts(out, "UniTuple(");
            ir_print_type(t->elems[0], out);
            sb_printf(out, ", %d)", t->nelems);
            return;
        }
        sb_puts(out, "Tuple(");
        for (int i = 0; i < t->nelems; i++) {
            if (i)
                sb_puts(out, ", ");
            ir_print_type(t->elems[i], out);
        }
        sb_putc(out, ')');
        return;
    }
    default:
        sb_puts(out, t->name ? t->name : "?");
        return;
    }
}

/* The shortest %.Ng that reads back to the same double, made to look like a float ("1.0", not
 * "1"). */
static void put_float(StrBuf *out, double v) {
    if (isnan(v)) {
        sb_puts(out, signbit(v) ? "-nan" : "nan");
        return;
    }
    if (isinf(v)) {
        sb_puts(out, v < 0 ? "-inf" : "inf");
        return;
    }
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    sb_puts(out, buf);
    if (!strpbrk(buf, ".e"))
        sb_puts(out, ".0");
}

static void put_quoted(StrBuf *out, const char *s);

static void print_const(const IrInst *in, StrBuf *out) {
    const Type *t = in->type;
    if (t && t->kind == TY_STR)
        put_quoted(out, in->imm.str ? in->imm.str : "");
    else if (ty_is_float(t))
        put_float(out, in->imm.f);
    else if (t && t->kind == TY_BOOL)
        sb_puts(out, in->imm.i ? "true" : "false");
    else if (t && t->kind == TY_U64)
        sb_printf(out, "%llu", (unsigned long long)(uint64_t)in->imm.i);
    else
        sb_printf(out, "%lld", (long long)in->imm.i);
}

static void put_loc(StrBuf *out, size_t line_start, Loc loc) {
    if (!loc.src)
        return;
    size_t col = out->len - line_start;
    do
        sb_putc(out, ' ');
    while (++col < LOC_COLUMN);
    sb_puts(out, "; ");
    sb_printf(out, "%s:%d:%d", loc.src->name ? loc.src->name : "<input>", loc.line, loc.col);
}

/* ---- instructions -------------------------------------------------------------------------- */
static void put_value(StrBuf *out, const IrInst *v) {
    if (v && v->id >= 0)
        sb_printf(out, "%%%d", v->id);
    else
        sb_puts(out, "%?");
}

static void put_args(StrBuf *out, const IrInst *in, int from) {
    for (int i = from; i < in->nargs; i++) {
        if (i > from)
            sb_puts(out, ", ");
        put_value(out, in->args[i]);
    }
}

/* Which variables of f share their name with another: dup[k] set.  By sorting the numbers by
 * name (n log n), not by a search per printed use, which was quadratic in the variables of
 * a long function.  NULL when out of memory (then every variable prints by number). */
typedef struct {
    const char *name;
    int k;
} VarName;

static int by_name(const void *a, const void *b) {
    const char *x = ((const VarName *)a)->name, *y = ((const VarName *)b)->name;
    return !x || !y ? (x != NULL) - (y != NULL) : strcmp(x, y);
}

static unsigned char *dup_names(const IrFunc *f) {
    int n = f->nvars;
    VarName *v = malloc(sizeof *v * ((size_t)n + 1));
    unsigned char *dup = calloc((size_t)n + 1, 1);
    if (!v || !dup) {
        free(v);
        free(dup);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        v[i] = (VarName){f->vars[i].name, i};
    qsort(v, (size_t)n, sizeof *v, by_name);
    for (int i = 1; i < n; i++)
        if (v[i - 1].name && v[i].name && !strcmp(v[i - 1].name, v[i].name))
            dup[v[i - 1].k] = dup[v[i].k] = 1;
    free(v);
    return dup;
}

/* A variable by name when no other variable has that name, else by number ($3). */
static void put_var(StrBuf *out, const IrFunc *f, const unsigned char *dup, int k) {
    if (k < 0 || k >= f->nvars) {
        sb_printf(out, "$%d", k);
        return;
    }
    const char *name = f->vars[k].name;
    if (name && name[0] != '$' && dup && !dup[k])
        put_name(out, name);
    else
        sb_printf(out, "$%d", k);
}

static const char *table_name(const char *const *names, int n, int k) {
    return k >= 0 && k < n ? names[k] : "?";
}

/* p, when given, vouches for callees: a call whose callee is not one of its functions prints
 * as "@?" (the IR may be broken: printing it is how one looks at it). */
static void print_inst(const IrProgram *p, const IrFunc *f, const unsigned char *dup, const IrInst *in,
                       StrBuf *out) {
    size_t start = out->len;
    sb_puts(out, "  ");
    bool has_result = in->type && in->type->kind != TY_VOID;
    if (has_result)
        sb_printf(out, "%%%d = ", in->id);
    const char *opname = in->op < IR__COUNT ? ir_op_name[in->op] : "?";
    sb_puts(out, opname);
    sb_putc(out, ' ');
    size_t after_op = out->len;
    switch (in->op) {
    case IR_CONST:
        print_const(in, out);
        break;
    case IR_PARAM:
    case IR_RAISE:
        sb_printf(out, "%d", in->imm.index);
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
        sb_printf(out, in->nargs ? "%d " : "%d", in->imm.index);
        put_args(out, in, 0);
        break;
    case IR_VIEW: {
        /* one letter per dimension of the viewed array: s (sliced) or i (indexed) */
        const Type *at = in->nargs > 0 && in->args[0] ? in->args[0]->type : NULL;
        int nd = at && at->kind == TY_ARRAY ? at->ndim : 0;
        for (int k = 0; k < nd; k++)
            sb_putc(out, (in->imm.i >> k) & 1 ? 's' : 'i');
        if (!nd)
            sb_putc(out, '?');
        sb_putc(out, ' ');
        put_args(out, in, 0);
        break;
    }
    case IR_LOAD:
    case IR_CLEAR:
        put_var(out, f, dup, in->imm.index);
        break;
    case IR_STORE:
    case IR_OWN:
        put_var(out, f, dup, in->imm.index);
        sb_puts(out, ", ");
        put_args(out, in, 0);
        break;
    case IR_CMP:
        sb_printf(out, "%s ", table_name(ir_cmp_name, 6, (int)in->imm.pred));
        put_args(out, in, 0);
        break;
    case IR_MATH:
        sb_printf(out, "%s ", in->imm.index >= 0 && in->imm.index < MATH__COUNT
                                  ? ir_math[in->imm.index].name
                                  : "?");
        put_args(out, in, 0);
        break;
    case IR_ATOMIC:
        sb_printf(out, "%s ", table_name(ir_atomic_name, ATOM__COUNT, in->imm.index));
        put_args(out, in, 0);
        break;
    case IR_CUDA:
        sb_puts(out, in->imm.index >= 0 && in->imm.index < CU__COUNT ? ir_cuda[in->imm.index].name
                                                                     : "?");
        if (in->nargs) {
            sb_putc(out, ' ');
            put_args(out, in, 0);
        }
        break;
    case IR_PRINT:
        put_quoted(out, in->imm.str ? in->imm.str : "");
        if (in->nargs) {
            sb_puts(out, ", ");
            put_args(out, in, 0);
        }
        break;
    case IR_RANDOM:
        sb_puts(out, in->imm.index >= 0 && in->imm.index < RND__COUNT
                         ? ir_random[in->imm.index].name
                         : "?");
        if (in->nargs) {
            sb_putc(out, ' ');
            put_args(out, in, 0);
        }
        break;
    case IR_RTCALL:
        sb_puts(out, in->imm.index >= 0 && in->imm.index < RT__COUNT
                         ? ir_rtcall[in->imm.index].name
                         : "?");
        if (in->nargs) {
            sb_putc(out, ' ');
            put_args(out, in, 0);
        }
        break;
    case IR_SREG:
        sb_puts(out, table_name(ir_sreg_name, SREG_WARPSIZE + 1, in->imm.index));
        break;
    case IR_CALL:
    case IR_PARFOR: {
        sb_putc(out, '@');
        const IrFunc *callee = in->op == IR_CALL ? in->imm.callee : in->imm.par.body;
        if (callee && p) {
            bool found = false;
            for (int i = 0; i < p->nfuncs; i++)
                found |= p->funcs[i] == callee;
            if (!found)
                callee = NULL;
        }
        if (callee)
            put_name(out, callee->mangled);
        else
            sb_puts(out, "?");
        if (in->op == IR_PARFOR) { /* the reductions' operators: [add, min] */
            sb_puts(out, " [");
            for (int k = 0; k < in->imm.par.nred && k < IR_PARFOR_MAXRED; k++)
                sb_printf(out, "%s%s", k ? ", " : "",
                          table_name(ir_reduce_name, REDUCE__COUNT, in->imm.par.ops[k]));
            sb_puts(out, "] ");
        }
        sb_putc(out, '(');
        put_args(out, in, 0);
        sb_putc(out, ')');
        break;
    }
    case IR_BR:
        sb_printf(out, "b%d", in->imm.targets[0]);
        break;
    case IR_CONDBR:
        put_args(out, in, 0);
        sb_printf(out, ", b%d, b%d", in->imm.targets[0], in->imm.targets[1]);
        break;
    case IR_SHARED:
    case IR_LOCAL: {
        int nd = in->type && in->type->kind == TY_ARRAY ? in->type->ndim : 1;
        if (nd < 1 || nd > 3)
            nd = nd < 1 ? 1 : 3;
        for (int i = 0; i < nd; i++)
            sb_printf(out, "%s%lld", i ? ", " : "", (long long)in->imm.dims[i]);
        break;
    }
    default:
        put_args(out, in, 0);
        break;
    }
    if (out->len == after_op) /* nothing after the op name: drop the space */
        out->data[--out->len] = 0;
    if (has_result) {
        sb_puts(out, " : ");
        ir_print_type(in->type, out);
    }
    put_loc(out, start, in->loc);
    sb_putc(out, '\n');
}

/* ---- functions and programs ---------------------------------------------------------------- */
static void print_func(const IrProgram *p, const IrFunc *f, StrBuf *out) {
    size_t start = out->len;
    sb_puts(out, "func @");
    put_name(out, f->mangled ? f->mangled : f->name);
    sb_putc(out, '(');
    for (int i = 0; i < f->nparams; i++) {
        if (i)
            sb_puts(out, ", ");
        const char *pn = f->param_names ? f->param_names[i] : NULL;
        if (pn)
            put_name(out, pn);
        else
            sb_putc(out, '?');
        sb_puts(out, ": ");
        ir_print_type(f->params ? f->params[i] : NULL, out);
    }
    sb_puts(out, ") -> ");
    ir_print_type(f->ret, out);
    sb_printf(out, " %s %s", table_name(ir_func_kind_name, 5, (int)f->kind),
              f->error_model == EM_NUMPY ? "numpy" : "python");
    if (f->fastmath)
        sb_puts(out, " fastmath");
    for (int i = 0; f->fastmath && i < FM_NFLAGS; i++)
        if (f->fastmath_flags & (1u << i))
            sb_printf(out, " %s", fe_fastmath_flag_names[i]);
    if (f->boundscheck)
        sb_puts(out, " boundscheck");
    if (f->yield) {
        sb_puts(out, " yields ");
        ir_print_type(f->yield, out);
    }
    if (f->name && f->mangled && strcmp(f->name, f->mangled)) {
        sb_puts(out, " def ");
        put_name(out, f->name);
    }
    sb_puts(out, " {");
    put_loc(out, start, f->loc);
    sb_putc(out, '\n');
    for (int i = 0; i < f->nvars; i++) {
        sb_puts(out, "  var ");
        put_name(out, f->vars[i].name);
        sb_puts(out, ": ");
        ir_print_type(f->vars[i].type, out);
        sb_putc(out, '\n');
    }
    unsigned char *dup = dup_names(f);
    for (int b = 0; b < f->nblocks; b++) {
        if (f->blocks[b]->handler)
            sb_printf(out, "b%d catch b%d:\n", b, f->blocks[b]->handler->id);
        else
            sb_printf(out, "b%d:\n", b);
        for (const IrInst *in = f->blocks[b]->first; in; in = in->next)
            print_inst(p, f, dup, in, out);
    }
    free(dup);
    sb_puts(out, "}\n");
}

void ir_print_func(const IrFunc *f, StrBuf *out) { print_func(NULL, f, out); }

void ir_print_program(const IrProgram *p, StrBuf *out) {
    sb_printf(out, "target %s\n", p->target == TARGET_NVPTX ? "nvptx" : "cpu");
    for (int k = 0; k < p->nraises; k++) {
        const RaiseSite *r = &p->raises[k];
        size_t start = out->len;
        sb_printf(out, "raise %d %s%s ", k + 1, table_name(ir_raise_kind_name, RAISE__COUNT, (int)r->kind),
                  r->user ? " user" : "");
        put_quoted(out, r->msg ? r->msg : "");
        put_loc(out, start, r->loc);
        sb_putc(out, '\n');
    }
    for (int i = 0; i < p->nfuncs; i++) {
        sb_putc(out, '\n');
        print_func(p, p->funcs[i], out);
    }
}
