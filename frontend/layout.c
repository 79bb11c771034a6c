/* layout.c — the filter between the scanner and the parser: Python's off-side rule, and the
 * first word on constructs numjit does not accept.
 *
 * The scanner hands over raw tokens and one FE_TOK_NL per physical newline.  This filter keeps
 * CPython's indent stack and a bracket stack and gives the parser NEWLINE, INDENT and DEDENT:
 *   - inside (), [] or {} newlines are dropped;
 *   - a newline ends a logical line only if the line had a token (blank and comment-only
 *     lines vanish);
 *   - at the first token of a logical line its indentation width is compared with the top of
 *     the stack: deeper pushes and gives INDENT (after a line ending in ':'; otherwise it is an
 *     "unexpected indent" and the level is pushed as a phantom that gives no tokens), shallower
 *     pops and gives one DEDENT per real level, and a width that matches no level is an error;
 *   - at the end of the file: a last NEWLINE, the DEDENTs that close every open block, EOF.
 * Synthesized tokens wait in a small queue.
 *
 * It also gives the errors for Python outside the subset where it sees them first, and keeps
 * the parser from piling syntax errors on top: an unsupported keyword at the start of a
 * statement ('class', 'with', 'try', ...) is reported and the whole logical line becomes one
 * UNSUP_STMT token (the grammar then swallows an indented block after it); 'yield' starting a
 * statement becomes the parser's YIELD; 'yield' inside an expression, a comprehension's 'for' and a dict or set
 * display become a PLACEHOLDER atom (or vanish) so the rest of the line still parses; on a decorator line dict and set
 * displays go to the parser (option values such as fastmath={'nsz', 'arcp'}).  After such a report syntax errors on
 * the same logical line are silenced (suppress_line).  Nesting deeper than FE_MAX_BRACKETS
 * brackets or FE_MAX_INDENT levels is a fatal error: the rest of the file is skipped, which
 * bounds the parser's stack and every later recursive walk.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fe_internal.h"
#include "frontend/parser.h"

void fe_layout_init(FeParser *p)
{
    p->nindents = 1;
    p->indents[0] = 0;
    p->phantom[0] = false;
    p->depth = 0;
    p->line_empty = true;
    p->def_indent = -1;
    p->try_indent = -1;
}

static void enqueue(FeParser *p, const FeTok *t)
{
    if (p->qlen >= FE_QUEUE) /* cannot happen: at most FE_MAX_INDENT + 3 per raw token */
        return;
    p->queue[(p->qhead + p->qlen) % FE_QUEUE] = *t;
    p->qlen++;
}

/* A token made by the filter, located at l's start (zero width) unless wide. */
static void synth(FeParser *p, int kind, FeLoc l, bool wide)
{
    FeTok t;
    memset(&t, 0, sizeof t);
    t.kind = kind;
    t.loc = l;
    if (!wide) {
        t.loc.end_line = l.line;
        t.loc.end_col = l.col;
        t.loc.end_off = l.off;
    }
    enqueue(p, &t);
}

static void raw(FeParser *p, FeTok *t)
{
    if (p->has_pushback) {
        *t = p->pushback;
        p->has_pushback = false;
        return;
    }
    if (p->at_eof) {
        memset(t, 0, sizeof *t);
        t->loc = p->last_end;
        return;
    }
    fe_scan_next(p, t);
    if (t->kind == 0)
        p->at_eof = true;
}

static void push_back(FeParser *p, const FeTok *t)
{
    p->pushback = *t;
    p->has_pushback = true;
}

/* Errors of the filter are skipped once the logical line already has one: they would be
 * echoes of it (a bracket left open by a syntax error swallows the lines after it). */
static void lay_error(FeParser *p, FeLoc l, const char *fmt, ...) NJ_PRINTF(3, 4);
static void lay_error(FeParser *p, FeLoc l, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    if (p->suppress_line)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fe_error(p, l, "%s", msg);
}

static FeLoc end_of(FeLoc l)
{
    l.line = l.end_line;
    l.col = l.end_col;
    l.off = l.end_off;
    return l;
}

static void fatal(FeParser *p, FeLoc l, const char *msg)
{
    fe_error(p, l, "%s", msg);
    p->fatal_error = true;
    p->depth = 0;
}

static bool is_open(int k) { return k == TK_LPAR || k == TK_LBRACK || k == TK_LBRACE; }
static bool is_close(int k) { return k == TK_RPAR || k == TK_RBRACK || k == TK_RBRACE; }

static char bracket_char(int k)
{
    switch (k) {
    case TK_LPAR: return '(';
    case TK_RPAR: return ')';
    case TK_LBRACK: return '[';
    case TK_RBRACK: return ']';
    case TK_LBRACE: return '{';
    default: return '}';
    }
}

/* Bracket bookkeeping for one token; false when the token is to be dropped. */
static bool track(FeParser *p, const FeTok *t)
{
    if (is_open(t->kind)) {
        if (p->depth >= FE_MAX_BRACKETS) {
            fatal(p, t->loc, "too many nested parentheses");
            return false;
        }
        p->brackets[p->depth] = bracket_char(t->kind);
        p->bracket_locs[p->depth] = t->loc;
        p->depth++;
    } else if (is_close(t->kind)) {
        char c = bracket_char(t->kind);
        if (p->depth == 0) {
            lay_error(p, t->loc, "unmatched '%c'", c);
            p->suppress_line = true;
            return false;
        }
        char o = p->brackets[p->depth - 1];
        if ((o == '(' && c != ')') || (o == '[' && c != ']') || (o == '{' && c != '}')) {
            lay_error(p, t->loc, "closing '%c' does not match opening '%c'", c, o);
            p->suppress_line = true;
        }
        p->depth--;
    }
    return true;
}

static bool is_kw(const FeTok *t, const char *w)
{
    return t->kind == TK_KW_UNSUP && strcmp(t->str, w) == 0;
}

static void unsupported(FeParser *p, const FeTok *t)
{
    lay_error(p, t->loc, "'%s' is not supported by numjit", t->str);
}

/* Skips the rest of a logical line whose first token t is outside the subset; the parser
 * gets UNSUP_STMT (and then the NEWLINE, and maybe an INDENT of a block to swallow). */
static void skip_statement(FeParser *p, const FeTok *first)
{
    FeTok t;
    FeLoc l = first->loc;
    bool colon = false;
    for (;;) {
        raw(p, &t);
        if (t.kind == 0 || p->fatal_error || (t.kind == FE_TOK_NL && p->depth == 0)) {
            push_back(p, &t);
            break;
        }
        if (t.kind == FE_TOK_NL)
            continue;
        track(p, &t);
        colon = t.kind == TK_COLON;
        l.end_line = t.loc.end_line;
        l.end_col = t.loc.end_col;
        l.end_off = t.loc.end_off;
        p->last_end = end_of(t.loc);
    }
    p->last_was_colon = colon;
    p->suppress_line = true;
    synth(p, TK_UNSUP_STMT, l, true);
}

/* Skips an expression that starts at t (a yield): up to a ',' or a closing bracket
 * at the same depth, or the end of the line.  Returns its extent. */
static FeLoc skip_expression(FeParser *p, const FeTok *first)
{
    FeTok t;
    FeLoc l = first->loc;
    int d = p->depth;
    for (;;) {
        raw(p, &t);
        if (t.kind == 0 || p->fatal_error || (t.kind == FE_TOK_NL && p->depth == 0) ||
            (p->depth == d && (t.kind == TK_COMMA || is_close(t.kind)))) {
            push_back(p, &t);
            break;
        }
        if (t.kind == FE_TOK_NL)
            continue;
        track(p, &t);
        l.end_line = t.loc.end_line;
        l.end_col = t.loc.end_col;
        l.end_off = t.loc.end_off;
    }
    return l;
}

/* A token inside a logical line (or the first one, after the indentation was handled). */
static void middle(FeParser *p, FeTok *t)
{
    switch (t->kind) {
    case TK_LBRACE: /* dict and set displays, and decorator option values */
        if (!track(p, t))
            return;
        break;
    case TK_FOR:
        if (p->depth > 0 && p->brackets[p->depth - 1] != '[') {
            /* a generator expression (a list comprehension goes on to the parser): Numba 0.56
             * refuses them ("the use of yield in a closure is unsupported"); drop 'for ...'
             * up to the bracket */
            int d = p->depth;
            lay_error(p, t->loc, p->brackets[d - 1] == '(' ?
                                 "generator expressions are not supported (Numba refuses them "
                                 "too); use a list comprehension: sum([x for x in a])" :
                                 "dict and set comprehensions are not supported by numjit");
            for (;;) {
                FeTok u;
                raw(p, &u);
                if (u.kind == 0 || p->fatal_error || (p->depth == d && is_close(u.kind))) {
                    push_back(p, &u);
                    break;
                }
                if (u.kind != FE_TOK_NL)
                    track(p, &u);
            }
            return;
        }
        break;
    case TK_KW_UNSUP:
        if (is_kw(t, "yield")) /* `x = yield v`: the value sent in, which Numba does not have */
            lay_error(p, t->loc, "'yield' is supported as a statement only (yield value): "
                                 "a generator cannot be sent values");
        else
            unsupported(p, t);
        if (is_kw(t, "yield")) {
            FeLoc l = skip_expression(p, t);
            synth(p, TK_PLACEHOLDER, l, true);
            p->last_was_colon = false;
            p->last_end = end_of(l);
            return;
        }
        if (is_kw(t, "await"))
            return;
        p->suppress_line = true;
        break;
    case TK_WALRUS:
        lay_error(p, t->loc, "':=' is not supported by numjit");
        p->suppress_line = true;
        return;
    case TK_STRING: /* f-strings are the parser's (fstring.c) */
        break;
    default:
        if (!track(p, t))
            return;
        break;
    }
    p->last_was_colon = t->kind == TK_COLON;
    p->last_end = end_of(t->loc);
    enqueue(p, t);
}

/* The first token of a logical line: indentation, then statement-level checks. */
static void start_line(FeParser *p, FeTok *t)
{
    int ind = t->indent, top = p->indents[p->nindents - 1];
    /* after a line that ended in ':' a block is due; after a line with an error too: the
     * parser's recovery (stmt: error NEWLINE block) then swallows the block quietly */
    bool expect = p->expect_indent || p->suppress_line;

    p->suppress_line = false;
    p->line_empty = false;
    p->expect_indent = false;
    p->last_was_colon = false;
    if (ind > top) {
        if (p->nindents > FE_MAX_INDENT) {
            fatal(p, t->loc, "too many levels of indentation");
            return;
        }
        p->indents[p->nindents] = ind;
        p->phantom[p->nindents] = !expect;
        p->nindents++;
        if (expect) {
            synth(p, TK_INDENT, t->loc, false);
        } else {
            fe_error(p, t->loc, "unexpected indent");
            p->suppress_line = true;
        }
    } else if (ind < top) {
        while (p->nindents > 1 && ind < p->indents[p->nindents - 1]) {
            if (!p->phantom[p->nindents - 1])
                synth(p, TK_DEDENT, t->loc, false);
            p->nindents--;
        }
        if (ind != p->indents[p->nindents - 1]) {
            fe_error(p, t->loc, "unindent does not match any outer indentation level");
            p->suppress_line = true;
            p->indents[p->nindents] = ind;
            p->phantom[p->nindents] = true;
            p->nindents++;
        }
    }

    p->in_decorator = t->kind == TK_AT;
    if (p->def_indent >= 0 && ind <= p->def_indent)
        p->def_indent = -1;
    if (t->kind == TK_DEF && p->def_indent < 0)
        p->def_indent = ind;

    /* 'except', 'finally' and 'else' that continue an unsupported 'try' are skipped quietly */
    if (p->try_indent >= 0) {
        bool cont = ind == p->try_indent &&
                    (is_kw(t, "except") || is_kw(t, "finally") || t->kind == TK_ELSE);
        if (cont) {
            skip_statement(p, t);
            return;
        }
        if (ind <= p->try_indent)
            p->try_indent = -1;
    }
    if (t->kind == TK_KW_UNSUP && is_kw(t, "yield")) /* a yield statement (typer_gen.c) */
        t->kind = TK_YIELD;
    if (t->kind == TK_KW_UNSUP) {
        unsupported(p, t);
        if (is_kw(t, "try"))
            p->try_indent = ind;
        skip_statement(p, t);
        return;
    }
    middle(p, t);
}

/* Reads raw tokens until at least one token is queued for the parser. */
static void produce(FeParser *p)
{
    FeTok t;
    raw(p, &t);
    if (p->fatal_error && t.kind != 0)
        return;
    if (t.kind == FE_TOK_NL) {
        if (p->depth > 0 || p->line_empty)
            return;
        t.loc.end_line = t.loc.line;
        t.loc.end_col = t.loc.col + 1;
        synth(p, TK_NEWLINE, t.loc, true);
        p->line_empty = true;
        p->expect_indent = p->last_was_colon;
        return;
    }
    if (t.kind == 0) {
        if (p->depth > 0) {
            fe_error(p, p->bracket_locs[p->depth - 1], "'%c' was never closed",
                     p->brackets[p->depth - 1]);
            p->suppress_line = true;
            p->depth = 0;
        }
        if (!p->line_empty) {
            FeLoc l = p->last_end;
            l.end_line = l.line;
            l.end_col = l.col + 1;
            l.end_off = l.off;
            synth(p, TK_NEWLINE, l, true);
            p->line_empty = true;
        }
        while (p->nindents > 1) {
            if (!p->phantom[p->nindents - 1])
                synth(p, TK_DEDENT, p->last_end, false);
            p->nindents--;
        }
        t.loc = p->last_end;
        enqueue(p, &t);
        return;
    }
    if (p->line_empty)
        start_line(p, &t);
    else
        middle(p, &t);
}

void fe_layout_next(FeParser *p, FeTok *out)
{
    while (p->qlen == 0)
        produce(p);
    *out = p->queue[p->qhead];
    p->qhead = (p->qhead + 1) % FE_QUEUE;
    p->qlen--;
}

/* Short token names for tests and debugging dumps of the filter's output. */
const char *fe_tok_name(int kind)
{
    switch (kind) {
    case 0: return "EOF";
    case FE_TOK_NL: return "nl";
    case TK_NEWLINE: return "NL";
    case TK_INDENT: return "IN";
    case TK_DEDENT: return "DE";
    case TK_NAME: return "n";
    case TK_INT: return "1";
    case TK_FLOAT: return "1.0";
    case TK_IMAG: return "1j";
    case TK_STRING: return "s";
    case TK_ASSIGN: return "=";
    case TK_COLON: return ":";
    case TK_LPAR: return "(";
    case TK_RPAR: return ")";
    case TK_LBRACK: return "[";
    case TK_RBRACK: return "]";
    case TK_COMMA: return ",";
    case TK_PLUS: return "+";
    case TK_IF: return "if";
    case TK_ELSE: return "else";
    case TK_DEF: return "def";
    case TK_LAMBDA: return "lambda";
    case TK_RETURN: return "return";
    case TK_YIELD: return "yield";
    case TK_UNSUP_STMT: return "UNSUP";
    case TK_PLACEHOLDER: return "PH";
    default: return "?";
    }
}
