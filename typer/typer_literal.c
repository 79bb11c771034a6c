/* typer_literal.c — Numba's literal types, as far as typing functions see them.
 *
 * Numba types a constant in compiled code as a literal (Literal[int](3), Literal[str](None),
 * Literal[bool](True)), and @overload typing functions may read it (isinstance(order,
 * types.Literal), order.literal_value) to generate code per value; numba.literally(x) makes
 * the function holding x compiled again with x's argument a literal.  numjit's types carry no
 * values, so the literal of an argument is found from the program text where a call is typed:
 *   - ty_literal_of: the constant an expression stands for: a constant (a negated int
 *     included), literally(x) of one, a local variable assigned once to one, a module
 *     constant, or a parameter that this specialization was made for a literal of;
 *   - ty_wants_literal: which parameters a function is specialized per literal: those it
 *     passes to literally() or, directly, to an extension call (a typing function may read
 *     them); a call of it with constants there (ty_call_literals) gets a specialization per
 *     value (typer_spec.c keys it by the values), whose Fn.lits holds them;
 *   - ty_literal_spelling: the literal as the extension hook spells it for numjit.types
 *     ("Literal[str]('None')": the value as Python's repr, which the package parses back).
 * Numba compiles every jitted callee per literal argument; numjit does so only for the
 * parameters above, so that calls with different constants elsewhere share one function.
 */
#include "typer_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- a variable's one definition ----------------------------------------------------------
 * Numba's constant inference looks through a variable to its one definition (`msg = "..."`
 * then `raise RuntimeError(msg)`; `k = literally(order)` then `f(order=k)`).  count_binds
 * counts every statement of body (nested blocks included) that binds name, keeping the value
 * of a plain `name = value` in *value. */
static int count_binds(const NodeList *body, const char *name, const Node **value);

static int target_binds(const Node *t, const char *name) {
    if (!t)
        return 0;
    if (t->kind == ND_NAME)
        return t->name == name || !strcmp(t->name, name);
    if (t->kind == ND_TUPLE || t->kind == ND_LIST) {
        int n = 0;
        for (int i = 0; i < t->list.n; i++)
            n += target_binds(t->list.items[i], name);
        return n;
    }
    return t->kind == ND_STARRED ? target_binds(t->a, name) : 0;
}

static int stmt_binds(const Node *s, const char *name, const Node **value) {
    int n = 0;
    switch (s->kind) {
    case ND_ASSIGN:
        for (int i = 0; i < s->list.n; i++) {
            int k = target_binds(s->list.items[i], name);
            if (k && s->list.items[i]->kind == ND_NAME)
                *value = s->a;
            n += k;
        }
        return n;
    case ND_AUGASSIGN: return target_binds(s->a, name);
    case ND_DEL:
        for (int i = 0; i < s->list.n; i++)
            n += target_binds(s->list.items[i], name);
        return n;
    case ND_FOR:
        return target_binds(s->a, name) + count_binds(&s->list, name, value) +
               count_binds(&s->list2, name, value);
    case ND_IF:
    case ND_WHILE:
    case ND_TRY:
    case ND_EXCEPT:
    case ND_BLOCK:
        n += count_binds(&s->list, name, value) + count_binds(&s->list2, name, value);
        if (s->kind == ND_EXCEPT && s->name && !strcmp(s->name, name))
            n++;
        if (s->kind == ND_TRY) {
            if (s->a)
                n += stmt_binds(s->a, name, value);
            if (s->b)
                n += stmt_binds(s->b, name, value);
        }
        return n;
    case ND_FUNCDEF:
    case ND_IMPORT: return s->name && !strcmp(s->name, name) ? 2 : 0;
    case ND_FROMIMPORT: return 2; /* may bind anything: never a constant */
    default: return 0;
    }
}

int ty_count_binds(const NodeList *body, const char *name, const Node **value) {
    return count_binds(body, name, value);
}

static int count_binds(const NodeList *body, const char *name, const Node **value) {
    int n = 0;
    for (int i = 0; i < body->n; i++)
        n += stmt_binds(body->items[i], name, value);
    return n;
}


/* ---- literals ------------------------------------------------------------------------------ */
/* Whether callee is numba.literally (however imported). */
static bool is_literally(Fn *fn, const Node *callee) {
    const ModuleInfo *m = fn->tc->m;
    if (callee->kind == ND_NAME) {
        const char *t = fe_resolve_import(m, callee->name);
        return t && (!strcmp(t, "numba.literally") || !strcmp(t, "numjit.literally"));
    }
    if (callee->kind == ND_ATTR && callee->a->kind == ND_NAME && !strcmp(callee->name, "literally")) {
        const char *t = fe_resolve_import(m, callee->a->name);
        return t && (!strcmp(t, "numba") || !strcmp(t, "numjit"));
    }
    return false;
}

static int param_index(const FuncInfo *fi, const char *name) {
    if (!fi || !fi->def)
        return -1;
    const NodeList *ps = &fi->def->params;
    for (int i = 0; i < ps->n; i++)
        if (ps->items[i]->ival != 1 && !strcmp(ps->items[i]->name, name))
            return i;
    return -1;
}

static const Node *literal_of(Fn *fn, const Node *e, int depth) {
    if (!e || depth > 16)
        return NULL;
    switch (e->kind) {
    case ND_INT: return e->str ? NULL : e; /* past int64 it is a uint64, not Literal[int] */
    case ND_BOOL:
    case ND_STR: return e;
    case ND_UNARY:
        if (e->op == OP_NEG && e->a->kind == ND_INT && !e->a->str) {
            Node *n = ast_new(fn->tc->arena, ND_INT, e->loc);
            n->ival = -e->a->ival;
            return n;
        }
        return NULL;
    case ND_CALL:
        if (e->list.n == 1 && !e->list2.n && e->list.items[0]->kind != ND_STARRED &&
            is_literally(fn, e->a))
            return literal_of(fn, e->list.items[0], depth + 1);
        return NULL;
    case ND_NAME: {
        const Node *value = NULL;
        int binds = fn->fi && fn->fi->def ? ty_count_binds(&fn->fi->def->list, e->name, &value)
                                          : 2;
        int k = param_index(fn->fi, e->name);
        if (k >= 0)
            return binds == 0 && fn->lits ? fn->lits[k] : NULL;
        if (binds == 1)
            return value ? literal_of(fn, value, depth + 1) : NULL;
        if (binds)
            return NULL;
        const ModuleInfo *m = fn->tc->m;
        for (int i = 0; i < m->nconsts; i++)
            if (!strcmp(m->consts[i].name, e->name))
                return literal_of(fn, m->consts[i].value, depth + 1);
        return NULL;
    }
    default: return NULL;
    }
}

const Node *ty_literal_of(Fn *fn, const Node *e) {
    return literal_of(fn, e, 0);
}

/* Whether the subtree e calls literally(name), or passes name to an extension function. */
static bool asks_literal(Fn *fn, const Node *e, const char *name) {
    if (!e)
        return false;
    if (e->kind == ND_CALL) {
        bool lit = is_literally(fn, e->a);
        bool ext = !lit && e->a->kind == ND_NAME && ty_ext_is_func(fn, e->a->name);
        if (lit || ext) {
            for (int i = 0; i < e->list.n; i++) {
                const Node *x = e->list.items[i];
                if (x->kind == ND_NAME && !strcmp(x->name, name))
                    return true;
            }
            for (int i = 0; i < e->list2.n && ext; i++) {
                const Node *x = e->list2.items[i]->a;
                if (x && x->kind == ND_NAME && !strcmp(x->name, name))
                    return true;
            }
        }
    }
    if (asks_literal(fn, e->a, name) || asks_literal(fn, e->b, name) ||
        asks_literal(fn, e->c, name))
        return true;
    for (int i = 0; i < e->list.n; i++)
        if (asks_literal(fn, e->list.items[i], name))
            return true;
    for (int i = 0; i < e->list2.n; i++)
        if (asks_literal(fn, e->list2.items[i], name))
            return true;
    return false;
}

bool ty_wants_literal(Fn *fn, const FuncInfo *fi, int k) {
    const Node *def = fi->def;
    if (!def || k < 0 || k >= def->params.n || def->params.items[k]->ival == 1)
        return false;
    const char *name = def->params.items[k]->name;
    const Node *value = NULL;
    if (ty_count_binds(&def->list, name, &value)) /* reassigned: its value varies */
        return false;
    for (int i = 0; i < def->list.n; i++)
        if (asks_literal(fn, def->list.items[i], name))
            return true;
    return false;
}

bool ty_call_literals(Fn *fn, const FuncInfo *fi, const Node *call, const Node **lits) {
    const NodeList *ps = &fi->def->params;
    bool any = false;
    for (int k = 0; k < ps->n && k < 16; k++)
        lits[k] = NULL;
    for (int i = 0; i < call->list.n; i++)
        if (call->list.items[i]->kind == ND_STARRED)
            return false; /* positions past a `*t` are not known from the text */
    for (int k = 0; k < ps->n && k < 16; k++) {
        const Node *arg = k < call->list.n ? call->list.items[k] : NULL;
        for (int j = 0; !arg && j < call->list2.n; j++)
            if (!strcmp(call->list2.items[j]->name, ps->items[k]->name))
                arg = call->list2.items[j]->a;
        if (!arg) { /* a default: only a constant one, its names being the callee's */
            arg = ps->items[k]->a;
            if (arg && arg->kind != ND_INT && arg->kind != ND_BOOL && arg->kind != ND_STR)
                arg = NULL;
        }
        const Node *lit = arg ? ty_literal_of(fn, arg) : NULL;
        if (lit && ty_wants_literal(fn, fi, k)) {
            lits[k] = lit;
            any = true;
        }
    }
    return any;
}

/* Python's repr of a str, which the package reads back with ast.literal_eval. */
static void put_repr(StrBuf *sb, const char *s) {
    sb_puts(sb, "'");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\\' || *p == '\'')
            sb_printf(sb, "\\%c", *p);
        else if (*p == '\n')
            sb_puts(sb, "\\n");
        else if (*p == '\t')
            sb_puts(sb, "\\t");
        else if (*p == '\r')
            sb_puts(sb, "\\r");
        else if (*p < 0x20 || *p == 0x7f)
            sb_printf(sb, "\\x%02x", *p);
        else
            sb_printf(sb, "%c", *p);
    }
    sb_puts(sb, "'");
}

const char *ty_literal_spelling(Arena *a, const Node *lit, const Type *t) {
    if (!lit)
        return NULL;
    switch (lit->kind) {
    case ND_INT:
        return t == ty_i64 ? arena_printf(a, "Literal[int](%lld)", (long long)lit->ival) : NULL;
    case ND_BOOL:
        return t == ty_bool ? arena_printf(a, "Literal[bool](%s)", lit->ival ? "True" : "False")
                            : NULL;
    case ND_STR: {
        if (t->kind != TY_STR)
            return NULL;
        StrBuf sb;
        sb_init(&sb);
        sb_puts(&sb, "Literal[str](");
        put_repr(&sb, lit->str ? lit->str : "");
        sb_puts(&sb, ")");
        const char *r = arena_strdup(a, sb.data);
        sb_free(&sb);
        return r;
    }
    default: return NULL;
    }
}

/* A specialization's name for its literals: mangled, then a hash of their spellings. */
const char *ty_literal_mangle(Arena *a, const char *mangled, const Node *const *lits, int n) {
    uint32_t h = 2166136261u;
    bool any = false;
    for (int i = 0; i < n; i++) {
        const Node *l = lits ? lits[i] : NULL;
        char buf[32];
        const char *s = !l ? "-" : l->kind == ND_STR ? l->str : buf;
        if (l && l->kind != ND_STR)
            snprintf(buf, sizeof buf, "%d:%lld", (int)l->kind, (long long)l->ival);
        any |= l != NULL;
        for (const char *p = s ? s : ""; *p; p++)
            h = (h ^ (unsigned char)*p) * 16777619u;
        h = (h ^ (uint32_t)(l ? l->kind + 1 : 0)) * 16777619u;
    }
    return any ? arena_printf(a, "%s$lit%08x", mangled, h) : mangled;
}
