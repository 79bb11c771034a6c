/* ast.c — AST nodes: creation, lists, the name tables, and the S-expression printer.
 *
 * Nodes and lists live in the caller's arena.  A NodeList stores only items and n; its
 * capacity is implied by n (0, then 4, 8, 16, ...: a power of two at least 4), so
 * ast_list_push grows it by doubling when n reaches a power of two — every list must grow
 * through ast_list_push (or be a prefix of one that did, which only lowers the implied size).
 *
 * ast_print writes one statement per line, indented by two spaces per block, and expressions
 * inline in prefix form, e.g.
 *     (def@3:1 f (x (y = 1))
 *       (decorator (call njit (kw cache True)))
 *       (doc "Adds.")
 *       (return@5:5 (+ x y)))
 * Statements carry @line:col; binary and unary operators print as their spelling, names bare,
 * strings quoted with C escapes, floats in the shortest form that reads back exactly.  The
 * output is stable: golden tests compare it byte for byte.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

const char *const ast_op_spelling[OP__COUNT] = {
#define X(e, s) s,
    NJ_OPERATORS(X)
#undef X
};

const char *const ast_kind_name[ND__COUNT] = {
#define X(e, n, f) n,
    NJ_NODE_KINDS(X)
#undef X
};

Node *ast_new(Arena *arena, NodeKind kind, Loc loc)
{
    Node *n = arena_alloc(arena, sizeof *n);
    if (!n)
        return NULL;
    n->kind = kind;
    n->loc = loc;
    return n;
}

void ast_list_push(Arena *arena, NodeList *list, Node *n)
{
    int k = list->n;
    if (k == 0 || (k >= 4 && (k & (k - 1)) == 0)) {
        int cap = k == 0 ? 4 : k * 2;
        Node **items = arena_alloc(arena, sizeof(Node *) * (size_t)cap);
        if (!items)
            return;
        if (k)
            memcpy(items, list->items, sizeof(Node *) * (size_t)k);
        list->items = items;
    }
    list->items[k] = n;
    list->n = k + 1;
}

/* ---- printer ------------------------------------------------------------------------------ */

enum { AST_PRINT_MAX_DEPTH = 4000 };

static void print_expr(const Node *n, StrBuf *out, int depth);
static void print_stmt(const Node *n, StrBuf *out, int indent, int depth);

/* Python's repr of a float: the shortest digits that read back exactly, positional for
 * exponents in [-4, 16), scientific otherwise ("1e-05", "1e+16"), ".0" on integral values. */
static void print_float(double v, StrBuf *out)
{
    char buf[40], digits[24];
    int prec, exp, nd = 0;
    if (isnan(v)) {
        sb_puts(out, "nan");
        return;
    }
    if (isinf(v)) {
        sb_puts(out, v < 0 ? "-inf" : "inf");
        return;
    }
    for (prec = 0; prec < 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    /* buf = [-]d.ddde[+-]XX */
    const char *p = buf;
    if (*p == '-') {
        sb_putc(out, '-');
        p++;
    }
    for (; *p && *p != 'e'; p++)
        if (*p != '.')
            digits[nd++] = *p;
    digits[nd] = 0;
    exp = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0')
        digits[--nd] = 0;
    if (exp >= -4 && exp < 16) {
        if (exp < 0) {
            sb_puts(out, "0.");
            for (int i = -1; i > exp; i--)
                sb_putc(out, '0');
            sb_puts(out, digits);
        } else {
            for (int i = 0; i <= exp; i++)
                sb_putc(out, i < nd ? digits[i] : '0');
            sb_putc(out, '.');
            if (nd > exp + 1)
                sb_puts(out, digits + exp + 1);
            else
                sb_putc(out, '0');
        }
    } else {
        sb_putc(out, digits[0]);
        if (nd > 1) {
            sb_putc(out, '.');
            sb_puts(out, digits + 1);
        }
        sb_printf(out, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    }
}

static void print_string(const char *s, StrBuf *out)
{
    sb_putc(out, '"');
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '"': sb_puts(out, "\\\""); break;
        case '\\': sb_puts(out, "\\\\"); break;
        case '\n': sb_puts(out, "\\n"); break;
        case '\t': sb_puts(out, "\\t"); break;
        case '\r': sb_puts(out, "\\r"); break;
        default:
            if (c < 0x20 || c == 0x7f)
                sb_printf(out, "\\x%02x", c);
            else
                sb_putc(out, (char)c);
        }
    }
    sb_putc(out, '"');
}

static void print_list(const NodeList *l, StrBuf *out, int depth)
{
    for (int i = 0; i < l->n; i++) {
        sb_putc(out, ' ');
        print_expr(l->items[i], out, depth);
    }
}

static void print_opt(const Node *n, StrBuf *out, int depth)
{
    sb_putc(out, ' ');
    if (n)
        print_expr(n, out, depth);
    else
        sb_putc(out, '_');
}

static void print_expr(const Node *n, StrBuf *out, int depth)
{
    if (!n) {
        sb_puts(out, "_");
        return;
    }
    if (depth > AST_PRINT_MAX_DEPTH) {
        sb_puts(out, "...");
        return;
    }
    depth++;
    switch (n->kind) {
    case ND_INT:
        if (n->str)
            sb_printf(out, "%llu", (unsigned long long)n->ival);
        else
            sb_printf(out, "%lld", (long long)n->ival);
        break;
    case ND_FLOAT: print_float(n->fval, out); break;
    case ND_IMAG: print_float(n->fval, out); sb_putc(out, 'j'); break;
    case ND_BOOL: sb_puts(out, n->ival ? "True" : "False"); break;
    case ND_NONE: sb_puts(out, "None"); break;
    case ND_STR: print_string(n->str, out); break;
    case ND_NAME:
        sb_puts(out, n->name ? n->name : "?");
        if (n->a) { /* a parameter with a default is printed by the def */
            sb_puts(out, " = ");
            print_expr(n->a, out, depth);
        }
        break;
    case ND_ATTR:
        sb_puts(out, "(. ");
        print_expr(n->a, out, depth);
        sb_printf(out, " %s)", n->name);
        break;
    case ND_BINOP: case ND_BOOLOP:
        sb_printf(out, "(%s ", ast_op_spelling[n->op]);
        print_expr(n->a, out, depth);
        sb_putc(out, ' ');
        print_expr(n->b, out, depth);
        sb_putc(out, ')');
        break;
    case ND_UNARY:
        sb_printf(out, "(%s ", ast_op_spelling[n->op]);
        print_expr(n->a, out, depth);
        sb_putc(out, ')');
        break;
    case ND_COMPARE:
        sb_puts(out, "(compare ");
        for (int i = 0; i < n->list.n; i++) {
            if (i > 0)
                sb_printf(out, " %s ", ast_op_spelling[n->ops[i - 1]]);
            print_expr(n->list.items[i], out, depth);
        }
        sb_putc(out, ')');
        break;
    case ND_LAMBDA:
        sb_puts(out, "(lambda (");
        for (int i = 0; i < n->a->params.n; i++) {
            const Node *p = n->a->params.items[i];
            if (i > 0)
                sb_putc(out, ' ');
            if (p->a) {
                sb_printf(out, "(%s = ", p->name);
                print_expr(p->a, out, depth);
                sb_putc(out, ')');
            } else {
                sb_puts(out, p->name);
            }
        }
        sb_puts(out, ") ");
        print_expr(n->a->list.items[0]->a, out, depth);
        sb_putc(out, ')');
        break;
    case ND_IFEXP:
        sb_puts(out, "(ifexp ");
        print_expr(n->a, out, depth);
        sb_putc(out, ' ');
        print_expr(n->b, out, depth);
        sb_putc(out, ' ');
        print_expr(n->c, out, depth);
        sb_putc(out, ')');
        break;
    case ND_CALL:
        sb_puts(out, "(call ");
        print_expr(n->a, out, depth);
        print_list(&n->list, out, depth);
        print_list(&n->list2, out, depth);
        sb_putc(out, ')');
        break;
    case ND_STARRED:
        sb_puts(out, "(star ");
        print_expr(n->a, out, depth);
        sb_putc(out, ')');
        break;
    case ND_KEYWORD:
        sb_printf(out, "(kw %s ", n->name);
        print_expr(n->a, out, depth);
        sb_putc(out, ')');
        break;
    case ND_SUBSCRIPT:
        sb_puts(out, "(index ");
        print_expr(n->a, out, depth);
        sb_putc(out, ' ');
        print_expr(n->b, out, depth);
        sb_putc(out, ')');
        break;
    case ND_SLICE:
        sb_puts(out, "(slice");
        print_opt(n->a, out, depth);
        print_opt(n->b, out, depth);
        print_opt(n->c, out, depth);
        sb_putc(out, ')');
        break;
    case ND_TUPLE: case ND_LIST: case ND_SET: case ND_DEL:
        sb_printf(out, "(%s", ast_kind_name[n->kind]);
        print_list(&n->list, out, depth);
        sb_putc(out, ')');
        break;
    case ND_LISTCOMP:
        sb_puts(out, "(listcomp ");
        print_expr(n->a, out, depth);
        for (int i = 0; i < n->list.n; i++) {
            const Node *c = n->list.items[i];
            sb_puts(out, c->kind == ND_FOR ? " (for " : " (if ");
            print_expr(c->a, out, depth);
            if (c->kind == ND_FOR) {
                sb_puts(out, " in ");
                print_expr(c->b, out, depth);
            }
            sb_putc(out, ')');
        }
        sb_putc(out, ')');
        break;
    case ND_DICT:
        sb_puts(out, "(dict");
        print_list(&n->list, out, depth);
        sb_puts(out, " :");
        print_list(&n->list2, out, depth);
        sb_putc(out, ')');
        break;
    default: /* a statement where an expression was expected */
        print_stmt(n, out, 0, depth);
        break;
    }
}

static void newline(StrBuf *out, int indent)
{
    sb_putc(out, '\n');
    for (int i = 0; i < indent; i++)
        sb_puts(out, "  ");
}

static void print_body(const NodeList *l, StrBuf *out, int indent, int depth)
{
    for (int i = 0; i < l->n; i++) {
        newline(out, indent);
        print_stmt(l->items[i], out, indent, depth);
    }
}

static void print_stmt(const Node *n, StrBuf *out, int indent, int depth)
{
    if (!n) {
        sb_puts(out, "_");
        return;
    }
    if (depth > AST_PRINT_MAX_DEPTH) {
        sb_puts(out, "...");
        return;
    }
    depth++;
    switch (n->kind) {
    case ND_ASSIGN:
        sb_printf(out, "(assign@%d:%d (", n->loc.line, n->loc.col);
        for (int i = 0; i < n->list.n; i++) {
            if (i > 0)
                sb_putc(out, ' ');
            print_expr(n->list.items[i], out, depth);
        }
        sb_puts(out, ") ");
        print_expr(n->a, out, depth);
        sb_putc(out, ')');
        break;
    case ND_AUGASSIGN:
        sb_printf(out, "(%s=@%d:%d ", ast_op_spelling[n->op], n->loc.line, n->loc.col);
        print_expr(n->a, out, depth);
        sb_putc(out, ' ');
        print_expr(n->b, out, depth);
        sb_putc(out, ')');
        break;
    case ND_EXPR:
        sb_printf(out, "(expr@%d:%d ", n->loc.line, n->loc.col);
        print_expr(n->a, out, depth);
        sb_putc(out, ')');
        break;
    case ND_IF:
        sb_printf(out, "(if@%d:%d ", n->loc.line, n->loc.col);
        print_expr(n->a, out, depth);
        newline(out, indent + 1);
        sb_puts(out, "(then");
        print_body(&n->list, out, indent + 2, depth);
        sb_putc(out, ')');
        if (n->list2.n > 0) {
            newline(out, indent + 1);
            sb_puts(out, "(else");
            print_body(&n->list2, out, indent + 2, depth);
            sb_putc(out, ')');
        }
        sb_putc(out, ')');
        break;
    case ND_WHILE:
    case ND_FOR:
        sb_printf(out, "(%s@%d:%d ", n->kind == ND_WHILE ? "while" : "for", n->loc.line,
                  n->loc.col);
        print_expr(n->a, out, depth);
        if (n->kind == ND_FOR) {
            sb_putc(out, ' ');
            print_expr(n->b, out, depth);
        }
        print_body(&n->list, out, indent + 1, depth);
        if (n->list2.n) {
            newline(out, indent + 1);
            sb_puts(out, "(else");
            print_body(&n->list2, out, indent + 2, depth);
            sb_putc(out, ')');
        }
        sb_putc(out, ')');
        break;
    case ND_TRY: /* (try (body ...) (except CLASS [as NAME] ...)... (else ...) (finally ...)) */
        sb_printf(out, "(try@%d:%d", n->loc.line, n->loc.col);
        print_body(&n->list, out, indent + 1, depth);
        for (int i = 0; i < n->list2.n; i++) {
            const Node *h = n->list2.items[i];
            newline(out, indent + 1);
            sb_printf(out, "(except@%d:%d", h->loc.line, h->loc.col);
            if (h->a) {
                sb_putc(out, ' ');
                print_expr(h->a, out, depth);
            }
            if (h->name)
                sb_printf(out, " as %s", h->name);
            print_body(&h->list, out, indent + 2, depth);
            sb_putc(out, ')');
        }
        for (int k = 0; k < 2; k++) {
            const Node *blk = k ? n->b : n->a;
            if (!blk)
                continue;
            newline(out, indent + 1);
            sb_puts(out, k ? "(finally" : "(else");
            print_body(&blk->list, out, indent + 2, depth);
            sb_putc(out, ')');
        }
        sb_putc(out, ')');
        break;
    case ND_BREAK: case ND_CONTINUE: case ND_PASS:
        sb_printf(out, "(%s@%d:%d)", ast_kind_name[n->kind], n->loc.line, n->loc.col);
        break;
    case ND_RETURN:
    case ND_YIELD:
    case ND_RAISE:
    case ND_ASSERT:
        sb_printf(out, "(%s@%d:%d", ast_kind_name[n->kind], n->loc.line, n->loc.col);
        if (n->a) {
            sb_putc(out, ' ');
            print_expr(n->a, out, depth);
        }
        if (n->b) {
            sb_putc(out, ' ');
            print_expr(n->b, out, depth);
        }
        sb_putc(out, ')');
        break;
    case ND_FUNCDEF:
        sb_printf(out, "(def@%d:%d %s (", n->loc.line, n->loc.col, n->name);
        for (int i = 0; i < n->params.n; i++) {
            const Node *p = n->params.items[i];
            if (i > 0)
                sb_putc(out, ' ');
            if (p->a) {
                sb_printf(out, "(%s = ", p->name);
                print_expr(p->a, out, depth);
                sb_putc(out, ')');
            } else {
                sb_puts(out, p->name);
            }
        }
        sb_putc(out, ')');
        for (int i = 0; i < n->list2.n; i++) {
            newline(out, indent + 1);
            sb_puts(out, "(decorator ");
            print_expr(n->list2.items[i], out, depth);
            sb_putc(out, ')');
        }
        if (n->str) {
            newline(out, indent + 1);
            sb_puts(out, "(doc ");
            print_string(n->str, out);
            sb_putc(out, ')');
        }
        print_body(&n->list, out, indent + 1, depth);
        sb_putc(out, ')');
        break;
    case ND_IMPORT:
        sb_printf(out, "(import@%d:%d %s", n->loc.line, n->loc.col, n->name);
        if (n->str)
            sb_printf(out, " as %s", n->str);
        sb_putc(out, ')');
        break;
    case ND_FROMIMPORT:
        sb_printf(out, "(from@%d:%d %s import", n->loc.line, n->loc.col, n->name);
        for (int i = 0; i < n->list.n; i++) {
            const Node *x = n->list.items[i];
            if (x->str)
                sb_printf(out, " (%s as %s)", x->name, x->str);
            else
                sb_printf(out, " %s", x->name);
        }
        sb_putc(out, ')');
        break;
    case ND_MODULE:
        sb_puts(out, "(module");
        print_body(&n->list, out, indent + 1, depth);
        sb_putc(out, ')');
        break;
    default:
        print_expr(n, out, depth);
        break;
    }
}

void ast_print(const Node *n, StrBuf *out)
{
    print_stmt(n, out, 0, 0);
    sb_putc(out, '\n');
}
