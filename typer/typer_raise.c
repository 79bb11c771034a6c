/* typer_raise.c — `raise` and `assert` in compiled functions, as Numba 0.56 types them.
 *
 * Numba freezes the arguments of a raised exception at compile time (its RewriteConstRaises
 * pass): `raise ValueError("negative", 3)` becomes a static exception whose class and
 * arguments are constants, and an argument that is not a constant is refused ("Constant
 * inference not possible").  numjit does the same with its raise sites (docs/design-notes.md):
 * each statement becomes an IR_RAISE of a site that carries the exception class and str() of
 * the exception, which is computed here from the constant arguments as Python writes it
 * (one argument: its str(); several: the repr of the tuple; none: the empty string).  The
 * Python package raises that class with that text.
 *
 * `assert c` and `assert c, msg` are `if not c: raise AssertionError(msg)` (Numba rewrites them
 * the same way).  Forms: a built-in exception class or a call of one with constant positional
 * arguments (str, int, float, bool, None, a negated number).  Refused, each located: a class
 * numjit does not know (user classes), keyword arguments, arguments that are not constants,
 * and a bare `raise` (no exception is being handled in compiled code).  An argument may be a
 * local variable assigned once in the function, to a constant (`msg = "..."; raise
 * RuntimeError(msg)`), which Numba's constant inference reads through as well.
 */
#include "typer_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Python's repr() of a float: the shortest text that reads back as x, in fixed notation
 * for exponents -4..15 and scientific otherwise ("1.5", "1e+16", "1.5e-05", "100.0"). */
static void put_float_repr(StrBuf *sb, double x) {
    if (isnan(x)) {
        sb_puts(sb, "nan");
        return;
    }
    if (isinf(x)) {
        sb_puts(sb, x < 0 ? "-inf" : "inf");
        return;
    }
    char buf[64];
    int prec = 1;
    for (; prec < 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    snprintf(buf, sizeof buf, "%.*e", prec - 1, x);
    int exp = atoi(strchr(buf, 'e') + 1);
    if (exp < -4 || exp >= 16) {
        /* drop the ".0..." of a one-digit mantissa as Python does ("1e+16") */
        sb_puts(sb, buf);
        return;
    }
    int decimals = prec - 1 - exp;
    snprintf(buf, sizeof buf, "%.*f", decimals > 0 ? decimals : 0, x);
    sb_puts(sb, buf);
    if (!strchr(buf, '.'))
        sb_puts(sb, ".0");
}

/* Python's repr() of a str: single quotes unless the text holds one and no double quote. */
static void put_str_repr(StrBuf *sb, const char *s) {
    char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
    sb_putc(sb, q);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == (unsigned char)q || c == '\\')
            sb_printf(sb, "\\%c", c);
        else if (c == '\n')
            sb_puts(sb, "\\n");
        else if (c == '\t')
            sb_puts(sb, "\\t");
        else if (c == '\r')
            sb_puts(sb, "\\r");
        else if (c < 0x20 || c == 0x7f)
            sb_printf(sb, "\\x%02x", c);
        else
            sb_putc(sb, (char)c);
    }
    sb_putc(sb, q);
}

/* Writes str() (repr: false) or repr() of the constant e; false if e is not a constant. */
static bool put_const(StrBuf *sb, const Node *e, bool repr) {
    switch (e->kind) {
    case ND_STR:
        if (repr)
            put_str_repr(sb, e->str);
        else
            sb_puts(sb, e->str);
        return true;
    case ND_INT:
        if (e->str) /* above 2**63-1: the bits are in ival */
            sb_printf(sb, "%llu", (unsigned long long)(uint64_t)e->ival);
        else
            sb_printf(sb, "%lld", (long long)e->ival);
        return true;
    case ND_FLOAT: put_float_repr(sb, e->fval); return true;
    case ND_BOOL: sb_puts(sb, e->ival ? "True" : "False"); return true;
    case ND_NONE: sb_puts(sb, "None"); return true;
    case ND_UNARY:
        if ((e->op == OP_NEG || e->op == OP_POS) && e->a &&
            (e->a->kind == ND_INT || e->a->kind == ND_FLOAT) && !e->a->str) {
            if (e->a->kind == ND_INT)
                sb_printf(sb, "%lld", (long long)(e->op == OP_NEG ? -e->a->ival : e->a->ival));
            else
                put_float_repr(sb, e->op == OP_NEG ? -e->a->fval : e->a->fval);
            return true;
        }
        return false;
    default: return false;
    }
}

/* The constant a raised exception's argument stands for: e itself, or the value of the one
 * assignment of the local variable e names (not a parameter), as Numba's get_definition. */
static const Node *const_arg(Fn *fn, const Node *e) {
    if (e->kind != ND_NAME || !fn->fi || !fn->fi->def)
        return e;
    const Node *def = fn->fi->def;
    for (int i = 0; i < def->params.n; i++)
        if (!strcmp(def->params.items[i]->name, e->name))
            return e;
    const Node *value = NULL;
    if (ty_count_binds(&def->list, e->name, &value) != 1 || !value)
        return e;
    return value;
}

/* str() of an exception made from args; NULL (after an error at the argument) if one of them is
 * not a constant. */
static const char *exception_text(Fn *fn, const NodeList *args) {
    StrBuf sb;
    sb_init(&sb);
    bool ok = true;
    if (args->n > 1)
        sb_putc(&sb, '(');
    for (int i = 0; i < args->n && ok; i++) {
        if (i)
            sb_puts(&sb, ", ");
        ok = put_const(&sb, const_arg(fn, args->items[i]), args->n > 1);
        if (!ok)
            ty_error(fn, args->items[i]->loc,
                     "the arguments of a raised exception must be constants (Numba 0.56 freezes "
                     "them when it compiles: constant inference is not possible here)");
    }
    if (args->n > 1)
        sb_putc(&sb, ')');
    const char *text = ok ? arena_strdup(fn->tc->arena, sb.data ? sb.data : "") : NULL;
    sb_free(&sb);
    return text;
}

/* The program's own raise: ends the current block. */
static void user_raise(Fn *fn, RaiseKind kind, const char *text, Loc loc) {
    if (!fn->emit || !fn->cur || ir_block_terminated(fn->cur))
        return;
    IrInst *in = ir_emit(fn->f, fn->cur, IR_RAISE, ty_void, loc, 0, NULL);
    in->imm.index = ir_user_raise_site(fn->tc->p, kind, text, loc);
}

void ty_stmt_raise(Fn *fn, Node *s) {
    Node *e = s->a;
    if (!e) {
        ty_error(fn, s->loc, "a bare 'raise' is not supported in a compiled function (there is no "
                             "exception being handled to raise again)");
        return;
    }
    Node *cls = e->kind == ND_CALL ? e->a : e;
    RaiseKind kind = cls->kind == ND_NAME ? ir_raise_kind_of(cls->name) : (RaiseKind)0;
    if (!kind || kind == RAISE_LINALG) {
        ty_error(fn, cls->loc,
                 "numjit raises only Python's built-in exception classes (a class, or a call of "
                 "one with constant arguments), not this");
        return;
    }
    if (e->kind == ND_CALL && e->list2.n) {
        ty_error(fn, e->list2.items[0]->loc,
                 "an exception raised in a compiled function takes no keyword arguments");
        return;
    }
    static const NodeList none;
    const char *text = exception_text(fn, e->kind == ND_CALL ? &e->list : &none);
    if (text)
        user_raise(fn, kind, text, s->loc);
}

void ty_stmt_assert(Fn *fn, Node *s) {
    IrInst *c = ty_truth(fn, ty_value(fn, s->a), s->a->loc);
    NodeList msg = {0};
    if (s->b) {
        msg.items = &s->b;
        msg.n = 1;
    }
    const char *text = exception_text(fn, &msg);
    if (!c || !fn->emit || !text)
        return;
    IrBlock *bad = ty_block(fn), *ok = ty_block(fn);
    ty_condbr(fn, c, ok, bad, s->loc);
    ty_set_block(fn, bad);
    user_raise(fn, RAISE_ASSERTION, text, s->loc);
    ty_set_block(fn, ok);
}
