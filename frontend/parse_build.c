/* parse_build.c — the parser's node builders, called from the actions of parser.y: nodes in
 * the arena with their Loc (fe_mk), node lists that grow by doubling (fe_one, fe_push,
 * fe_append), operators, sequences, calls with their keyword arguments, comparison chains
 * (a < b < c as one node), adjacent string literals joined (f-strings kept apart), function
 * definitions with their parameters and decorators, and the checks of the actions: assignment
 * targets (fe_check_target), node depth (fe_limit, so later recursive walks cannot overflow the
 * C stack) and an arena that has failed (fe_check_arena). Errors go through fe_error/fe_errl.
 */
#include "fe_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* An error at a node's location, under the same cap as fe_error. */
void fe_errl(FeParser *p, Loc l, const char *fmt, ...)
{
    va_list ap;
    if (p->diags->nerrors >= FE_MAX_ERRORS)
        return;
    va_start(ap, fmt);
    diag_vadd(p->diags, DG_ERROR, l, fmt, ap);
    va_end(ap);
}

/* Once the arena has failed its blocks may alias: stop at once (fe_parse returns NULL). */
void fe_check_arena(FeParser *p)
{
    if (arena_failed(p->arena))
        longjmp(p->fatal, 2);
}

Node *fe_mk(FeParser *p, NodeKind k, FeLoc l)
{
    Node *n = ast_new(p->arena, k, fe_loc(p, l));
    fe_check_arena(p);
    return n;
}

void fe_push(FeParser *p, NodeList *l, Node *n)
{
    if (n)
        ast_list_push(p->arena, l, n);
    fe_check_arena(p);
}

NodeList fe_one(FeParser *p, Node *n)
{
    NodeList l = {0};
    fe_push(p, &l, n);
    return l;
}

void fe_append(FeParser *p, NodeList *l, NodeList more)
{
    for (int i = 0; i < more.n; i++)
        fe_push(p, l, more.items[i]);
}

Node *fe_binop(FeParser *p, OpKind op, Node *a, Node *b, FeLoc l)
{
    Node *n = fe_mk(p, ND_BINOP, l);
    n->op = op;
    n->a = a;
    n->b = b;
    return n;
}

Node *fe_unary(FeParser *p, OpKind op, Node *a, FeLoc l)
{
    Node *n = fe_mk(p, ND_UNARY, l);
    n->op = op;
    n->a = a;
    return n;
}

Node *fe_seq(FeParser *p, NodeKind k, NodeList items, FeLoc l)
{
    Node *n = fe_mk(p, k, l);
    n->list = items;
    return n;
}

/* ND_COMPARE keeps list.n - 1 operators; the array grows by doubling (capacity implied by
 * the count, as in ast_list_push) so long chains stay linear. */
Node *fe_compare_push(FeParser *p, Node *chain, OpKind op, Node *rhs)
{
    int nops = chain->list.n - 1;
    if (nops == 0 || (nops >= 4 && (nops & (nops - 1)) == 0)) {
        int cap = nops == 0 ? 4 : nops * 2;
        OpKind *ops = arena_alloc(p->arena, sizeof(OpKind) * (size_t)cap);
        fe_check_arena(p);
        if (nops)
            memcpy(ops, chain->ops, sizeof(OpKind) * (size_t)nops);
        chain->ops = ops;
    }
    chain->ops[nops] = op;
    fe_push(p, &chain->list, rhs);
    return chain;
}

Node *fe_join_strings(FeParser *p, NodeList parts, FeLoc l)
{
    Node *n;
    StrBuf sb;
    for (int i = 0; i < parts.n; i++)
        if (parts.items[i]->ival) { /* an f-string part: 'a' + str(x) + ... (fstring.c) */
            n = fe_fstring(p, parts, fe_loc(p, l));
            fe_check_arena(p);
            if (!n) { /* the error is reported: an empty literal stands in */
                n = fe_mk(p, ND_STR, l);
                n->str = "";
            }
            return n;
        }
    if (parts.n == 1)
        return parts.items[0];
    sb_init(&sb);
    for (int i = 0; i < parts.n; i++)
        sb_puts(&sb, parts.items[i]->str);
    n = fe_mk(p, ND_STR, l);
    n->str = arena_strndup(p->arena, sb.data ? sb.data : "", sb.len);
    sb_free(&sb);
    fe_check_arena(p);
    return n;
}

Node *fe_keyword(FeParser *p, Node *name, Node *value, FeLoc l)
{
    Node *n = fe_mk(p, ND_KEYWORD, l);
    if (name->kind != ND_NAME) {
        fe_error(p, l, "expression cannot be a keyword argument; did you mean '=='?");
        n->name = "?";
    } else {
        n->name = name->name;
    }
    n->a = value;
    return n;
}

Node *fe_call(FeParser *p, Node *callee, NodeList args, FeLoc l)
{
    Node *n = fe_mk(p, ND_CALL, l);
    n->a = callee;
    for (int i = 0; i < args.n; i++) {
        Node *x = args.items[i];
        if (x->kind == ND_KEYWORD) {
            for (int j = 0; j < n->list2.n; j++)
                if (strcmp(n->list2.items[j]->name, x->name) == 0)
                    fe_errl(p, x->loc, "keyword argument repeated: '%s'", x->name);
            fe_push(p, &n->list2, x);
        } else {
            if (n->list2.n > 0)
                fe_errl(p, x->loc, "positional argument follows keyword argument");
            fe_push(p, &n->list, x);
        }
    }
    return n;
}

static const char *describe(const Node *n)
{
    switch (n->kind) {
    case ND_INT: case ND_FLOAT: case ND_IMAG: case ND_BOOL: case ND_NONE: case ND_STR: return "a literal";
    case ND_CALL: return "a function call";
    case ND_BINOP: case ND_UNARY: case ND_BOOLOP: return "an expression";
    case ND_COMPARE: return "a comparison";
    case ND_IFEXP: return "a conditional expression";
    case ND_TUPLE: return "a tuple";
    case ND_LIST: return "a list";
    default: return "this expression";
    }
}

/* Assignment targets: names, attributes, subscripts, and tuples/lists of those. */
void fe_check_target(FeParser *p, Node *t, bool aug)
{
    switch (t->kind) {
    case ND_NAME: case ND_ATTR: case ND_SUBSCRIPT:
        return;
    case ND_TUPLE: case ND_LIST:
        if (aug)
            break;
        if (t->list.n == 0)
            break;
        for (int i = 0; i < t->list.n; i++)
            fe_check_target(p, t->list.items[i], false);
        return;
    default:
        break;
    }
    if (aug)
        fe_errl(p, t->loc, "cannot use %s as the target of an augmented assignment",
                   describe(t));
    else
        fe_errl(p, t->loc, "cannot assign to %s", describe(t));
}

/* Depth of n, stopping early past FE_MAX_DEPTH: the recursion is bounded by the limit. */
static int depth_of(const Node *n, int d)
{
    int m = d;
    if (!n)
        return d - 1;
    if (d > FE_MAX_DEPTH)
        return d;
    const Node *kids[3] = {n->a, n->b, n->c};
    for (int i = 0; i < 3 && m <= FE_MAX_DEPTH; i++) {
        int k = depth_of(kids[i], d + 1);
        if (k > m)
            m = k;
    }
    const NodeList *lists[3] = {&n->list, &n->list2, &n->params};
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < lists[j]->n && m <= FE_MAX_DEPTH; i++) {
            int k = depth_of(lists[j]->items[i], d + 1);
            if (k > m)
                m = k;
        }
    return m;
}

Node *fe_limit(FeParser *p, Node *n)
{
    if (!n || depth_of(n, 1) <= FE_MAX_DEPTH)
        return n;
    fe_errl(p, n->loc, "expression is too deeply nested");
    return ast_new(p->arena, ND_NONE, n->loc);
}

Node *fe_param(FeParser *p, const char *name, Node *dflt, FeLoc l)
{
    Node *n = fe_mk(p, ND_NAME, l);
    n->name = name;
    n->a = dflt;
    return n;
}

Node *fe_funcdef(FeParser *p, const char *name, NodeList params, NodeList body, FeLoc l)
{
    Node *n = fe_mk(p, ND_FUNCDEF, l);
    bool seen_default = false;
    n->name = name;
    for (int i = 0; i < params.n; i++) {
        Node *x = params.items[i];
        for (int j = 0; j < i; j++)
            if (strcmp(params.items[j]->name, x->name) == 0)
                fe_errl(p, x->loc,
                           "duplicate parameter '%s' in function definition", x->name);
        if (x->ival == 1) {       /* *args */
            if (i + 1 < params.n)
                fe_errl(p, params.items[i + 1]->loc, "keyword-only parameters are not "
                        "supported by numjit");
        } else if (x->a)
            seen_default = true;
        else if (seen_default)
            fe_errl(p, x->loc, "parameter without a default follows parameter with "
                                         "a default");
    }
    n->params = params;
    /* a leading string is the docstring: kept in str, dropped from the body */
    if (body.n > 0 && body.items[0]->kind == ND_EXPR && body.items[0]->a &&
        body.items[0]->a->kind == ND_STR) {
        n->str = body.items[0]->a->str;
        body.items++;
        body.n--;
    }
    n->list = body;
    return n;
}

/* `lambda params: body`: an inner def of the hidden name '<lambda>' whose body returns body,
 * wrapped in an ND_LAMBDA.  Assigned alone to a name (`f = lambda x: ...`) it becomes that
 * def under the name (fe_assign_lambda), as in Python apart from f.__name__. */
Node *fe_lambda(FeParser *p, NodeList params, Node *body, FeLoc l)
{
    Node *ret = fe_mk(p, ND_RETURN, l);
    ret->loc = body->loc;
    ret->a = body;
    Node *def = fe_funcdef(p, "<lambda>", params, fe_one(p, ret), l);
    Node *n = fe_mk(p, ND_LAMBDA, l);
    n->a = def;
    return n;
}

/* `name = lambda ...`: the lambda's def under the target's name; any other statement as is. */
Node *fe_assign_lambda(FeParser *p, Node *assign)
{
    (void)p;
    if (assign->list.n != 1 || assign->list.items[0]->kind != ND_NAME || !assign->a ||
        assign->a->kind != ND_LAMBDA)
        return assign;
    Node *def = assign->a->a;
    def->name = assign->list.items[0]->name;
    def->loc = assign->loc;
    return def;
}

/* A decorator is a name, a dotted name, or a call of one. */
Node *fe_decorator(FeParser *p, Node *e, FeLoc l)
{
    Node *callee = e->kind == ND_CALL ? e->a : e;
    while (callee->kind == ND_ATTR)
        callee = callee->a;
    if (callee->kind != ND_NAME)
        fe_error(p, l, "this form of decorator is not supported by numjit (use a name, a "
                       "dotted name or a call of one)");
    return e;
}
