/* fstring.c — f-strings, rewritten into what the typer knows, as Numba 0.56 compiles them.
 *
 * CPython compiles f"a{x}b" into FORMAT_VALUE (str() of x when there is no format spec) and
 * BUILD_STRING (concatenation); Numba 0.56 turns those into `str(x)` calls and `+`
 * (numba/core/interpreter.py, op_FORMAT_VALUE and op_BUILD_STRING) and refuses a format spec or
 * a conversion ("format spec in f-strings not supported yet").  So the parser, when a literal
 * (or a run of adjacent literals) holds an f-string part, builds 'a' + str(x) + 'b' here: each
 * {expression} is parsed on its own by a nested fe_parse of its text, and every node of it is
 * given the f-string's location (the text has lost its columns to escape decoding), so an error
 * in it points at the f-string.  '{{' and '}}' are braces.  The typer then types str() and +
 * as for any strings (typer/typer_str.c).
 */
#include "fe_internal.h"

#include <string.h>

void fe_note_fstring(FeParser *p, const char *text) {
    if (p->def_indent < 0) /* module-level code runs under Python, never compiled: a string */
        return;
    FeFstr *f = arena_alloc(p->arena, sizeof *f);
    if (!f)
        return;
    f->text = text;
    f->next = p->fstrings;
    p->fstrings = f;
}

bool fe_is_fstring(const FeParser *p, const char *text) {
    for (const FeFstr *f = p->fstrings; f; f = f->next)
        if (f->text == text)
            return true;
    return false;
}

/* Every node of e at loc (a nested parse's locations are those of its own text). */
static void relocate(Node *e, Loc loc, int depth) {
    if (!e || depth > FE_MAX_DEPTH)
        return;
    e->loc = loc;
    relocate(e->a, loc, depth + 1);
    relocate(e->b, loc, depth + 1);
    relocate(e->c, loc, depth + 1);
    for (int i = 0; i < e->list.n; i++)
        relocate(e->list.items[i], loc, depth + 1);
    for (int i = 0; i < e->list2.n; i++)
        relocate(e->list2.items[i], loc, depth + 1);
}

/* The expression of the text s[0..n-1] between braces, as `str(expr)`; NULL after an error. */
static Node *replacement(FeParser *p, const char *s, size_t n, Loc loc) {
    /* a conversion (!r), a format spec (:>8) or a self-documenting '=' at the top level */
    int depth = 0;
    char quote = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (quote) {
            quote = c == quote ? 0 : quote;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if (c == ')' || c == ']' || c == '}') {
            depth--;
        } else if (!depth && ((c == '!' && (i + 1 >= n || s[i + 1] != '=')) || c == ':' ||
                              (c == '=' && i + 1 == n && (i == 0 || !strchr("=!<>", s[i - 1]))))) {
            diag_error(p->diags, loc, "format spec in f-strings not supported yet (Numba 0.56 "
                                      "formats a value with str() only)");
            return NULL;
        }
    }
    Source *src = arena_alloc(p->arena, sizeof *src);
    char *text = arena_alloc(p->arena, n + 4);
    if (!src || !text)
        return NULL;
    text[0] = '(';
    memcpy(text + 1, s, n);
    memcpy(text + 1 + n, ")\n", 3);
    *src = (Source){p->src->name, text, n + 3, 0};
    DiagList d;
    diag_init(&d);
    Node *m = fe_parse(p->arena, src, &d);
    Node *e = m && !d.nerrors && m->list.n == 1 && m->list.items[0]->kind == ND_EXPR
                  ? m->list.items[0]->a
                  : NULL;
    if (!e && m)
        diag_error(p->diags, loc, "invalid expression in f-string: {%.*s}", (int)(n > 60 ? 60 : n), s);
    diag_free(&d);
    if (!e)
        return NULL;
    relocate(e, loc, 0);
    Node *callee = ast_new(p->arena, ND_NAME, loc), *call = ast_new(p->arena, ND_CALL, loc);
    if (!callee || !call)
        return NULL;
    callee->name = "str";
    call->a = callee;
    ast_list_push(p->arena, &call->list, e);
    return call;
}

/* Appends piece to the sum *acc (NULL: none yet). */
static void add(FeParser *p, Node **acc, Node *piece, Loc loc) {
    if (!*acc) {
        *acc = piece;
        return;
    }
    Node *b = ast_new(p->arena, ND_BINOP, loc);
    if (!b)
        return;
    b->op = OP_ADD;
    b->a = *acc;
    b->b = piece;
    *acc = b;
}

/* Ends the literal text collected in lit (if any) as a piece of the sum. */
static void flush(FeParser *p, StrBuf *lit, Node **acc, Loc loc) {
    if (!lit->len)
        return;
    Node *s = ast_new(p->arena, ND_STR, loc);
    if (s)
        s->str = arena_strndup(p->arena, lit->data, lit->len);
    add(p, acc, s, loc);
    lit->len = 0;
}

Node *fe_fstring(FeParser *p, NodeList parts, Loc loc) {
    StrBuf lit;
    sb_init(&lit);
    Node *acc = NULL;
    bool ok = true;
    for (int k = 0; k < parts.n && ok; k++) {
        const char *s = parts.items[k]->str;
        if (!parts.items[k]->ival) { /* a plain literal */
            sb_puts(&lit, s);
            continue;
        }
        for (size_t i = 0; s[i] && ok; i++) {
            if ((s[i] == '{' || s[i] == '}') && s[i + 1] == s[i]) { /* {{ and }} */
                sb_putc(&lit, s[i++]);
                continue;
            }
            if (s[i] == '}') {
                diag_error(p->diags, loc, "f-string: single '}' is not allowed");
                ok = false;
                break;
            }
            if (s[i] != '{') {
                sb_putc(&lit, s[i]);
                continue;
            }
            size_t j = i + 1; /* the matching '}', past nested brackets and quotes */
            int depth = 0;
            char quote = 0;
            for (; s[j] && (quote || depth || s[j] != '}'); j++) {
                if (quote)
                    quote = s[j] == quote ? 0 : quote;
                else if (s[j] == '\'' || s[j] == '"')
                    quote = s[j];
                else if (strchr("([{", s[j]))
                    depth++;
                else if (strchr(")]}", s[j]))
                    depth--;
            }
            if (!s[j]) {
                diag_error(p->diags, loc, "f-string: expecting '}'");
                ok = false;
                break;
            }
            Node *r = replacement(p, s + i + 1, j - i - 1, loc);
            if (!r) {
                ok = false;
                break;
            }
            flush(p, &lit, &acc, loc);
            add(p, &acc, r, loc);
            i = j;
        }
    }
    if (ok && (lit.len || !acc)) { /* the trailing text, or f"" */
        Node *s = ast_new(p->arena, ND_STR, loc);
        if (s)
            s->str = arena_strndup(p->arena, lit.data ? lit.data : "", lit.len);
        add(p, &acc, s, loc);
    }
    sb_free(&lit);
    return ok ? acc : NULL;
}
