/* fe_internal.h — private to frontend/: the state shared by the scanner (scanner.l), the layout
 * filter (layout.c) and the parser (parser.y).
 *
 * One FeParser lives for one call of fe_parse.  The Flex scanner keeps its position (line,
 * column in characters, byte offset) and the indentation width of the current physical line in
 * it; the layout filter keeps CPython's indent stack, the bracket stack and a small queue of
 * tokens it has synthesized (NEWLINE, INDENT, DEDENT, placeholders); the parser's actions build
 * nodes in the arena.  Locations travel as FeLoc (start and end, both as line/column and byte
 * offsets) and become a base Loc (line, col, characters on the first line) on the nodes.
 */
#ifndef NUMJIT_FE_INTERNAL_H
#define NUMJIT_FE_INTERNAL_H

#include <setjmp.h>

#include "frontend.h"

typedef struct FeLoc {
    int line, col, off;             /* first character: 1-based line/col, byte offset */
    int end_line, end_col, end_off; /* one past the last character */
} FeLoc;

/* Limits that keep every later recursive walk of the AST on a small C stack. */
enum {
    FE_MAX_INDENT = 100,   /* indentation levels (CPython's limit) */
    FE_MAX_BRACKETS = 200, /* nested (), [], {} (CPython's limit) */
    FE_MAX_DEPTH = 1000,   /* node depth inside one statement */
    FE_MAX_ERRORS = 50,    /* errors reported per file (fe_error, fe_errl) */
    FE_QUEUE = 256,        /* synthesized tokens waiting for the parser (> FE_MAX_INDENT) */
};

/* A token as the scanner hands it to the layout filter.  Its value is kept in a small union
 * of its own so layout.c does not depend on the parser's semantic type. */
typedef struct FeTok {
    int kind;      /* a token kind of parser.y, FE_TOK_NL for a physical newline, 0 at EOF */
    FeLoc loc;
    int indent;    /* indentation width of the token's physical line (tabs to multiples of 8) */
    bool first;    /* first token on its physical line */
    int64_t ival;  /* NUMBER_INT; the OpKind of AUGASSIGN */
    double fval;   /* NUMBER_FLOAT */
    const char *str; /* NAME (interned), STRING (decoded), keyword spelling */
    bool fstring;  /* STRING: had an f prefix */
} FeTok;

#define FE_TOK_NL (-2)

/* The decoded text of an f-string token (its pointer identifies it; fstring.c). */
typedef struct FeFstr {
    const char *text;
    struct FeFstr *next;
} FeFstr;

typedef struct FeParser {
    Arena *arena;
    const Source *src;
    DiagList *diags;
    void *scanner; /* yyscan_t */
    jmp_buf fatal; /* the scanner's out-of-memory escape */

    /* scanner position */
    int line, col, off;
    int line_indent;     /* width of the leading blanks of the current physical line */
    bool line_has_token; /* a token was seen on the current physical line */

    /* layout filter */
    int indents[FE_MAX_INDENT + 1];
    bool phantom[FE_MAX_INDENT + 1]; /* pushed after an "unexpected indent": no DEDENT */
    int nindents;
    char brackets[FE_MAX_BRACKETS];
    FeLoc bracket_locs[FE_MAX_BRACKETS];
    int depth;
    FeTok queue[FE_QUEUE];
    int qhead, qlen;
    FeTok pushback;
    bool has_pushback;
    bool line_empty;      /* no token yet on this logical line */
    bool last_was_colon;  /* the last token of the logical line so far is ':' */
    bool in_decorator;    /* the logical line starts with '@' (a decorator) */
    bool expect_indent;   /* the previous logical line ended with ':' */
    FeLoc last_end;       /* end of the last real token (for synthesized tokens) */
    int def_indent;       /* indentation of the enclosing top-most def, -1 outside */
    int try_indent;       /* indentation of an unsupported 'try' being skipped, -1 none */
    bool suppress_line;   /* a located error was already given on this logical line */
    bool unsuppress_next; /* clear suppress_line when the next token goes out */
    bool fatal_error;     /* input too deep: skip to the end, silence syntax errors */
    bool at_eof;
    FeTok last_tok; /* the parser's lookahead, for "found 'x'" in syntax errors */
    FeFstr *fstrings; /* the f-string tokens seen so far */

    Node *module;
} FeParser;

/* scanner.l */
int fe_scan_init(FeParser *p);
void fe_scan_done(FeParser *p);
void fe_scan_next(FeParser *p, FeTok *t); /* the next raw token (kind 0 at EOF) */

/* layout.c: the filter the parser calls as its yylex */
void fe_layout_init(FeParser *p);
void fe_layout_next(FeParser *p, FeTok *t);
const char *fe_tok_name(int kind); /* "NL", "IN", "DE", "n", ... (tests, dumps) */

/* fstring.c: f-strings.  The lexer notes each f-string token's text; a literal of parts (ND_STR
 * nodes, ival 1 for an f-string) becomes 'text' + str(expr) + ... at loc. */
void fe_note_fstring(FeParser *p, const char *text);
bool fe_is_fstring(const FeParser *p, const char *text);
Node *fe_fstring(FeParser *p, NodeList parts, Loc loc);

/* parser.y helpers shared with layout.c */
Loc fe_loc(const FeParser *p, FeLoc l);
void fe_error(FeParser *p, FeLoc l, const char *fmt, ...) NJ_PRINTF(3, 4);

/* parse_build.c: the node builders of parser.y's actions (see there), an error at a node's
 * Loc under fe_error's cap, and the arena check (a failed arena stops the parse at once). */
void fe_errl(FeParser *p, Loc l, const char *fmt, ...) NJ_PRINTF(3, 4);
void fe_check_arena(FeParser *p);
Node *fe_mk(FeParser *p, NodeKind k, FeLoc l);
NodeList fe_one(FeParser *p, Node *n);
void fe_push(FeParser *p, NodeList *l, Node *n);
void fe_append(FeParser *p, NodeList *l, NodeList more);
Node *fe_binop(FeParser *p, OpKind op, Node *a, Node *b, FeLoc l);
Node *fe_unary(FeParser *p, OpKind op, Node *a, FeLoc l);
Node *fe_seq(FeParser *p, NodeKind k, NodeList items, FeLoc l);
Node *fe_call(FeParser *p, Node *callee, NodeList args, FeLoc l);
Node *fe_keyword(FeParser *p, Node *name, Node *value, FeLoc l);
Node *fe_compare_push(FeParser *p, Node *chain, OpKind op, Node *rhs);
Node *fe_join_strings(FeParser *p, NodeList parts, FeLoc l);
void fe_check_target(FeParser *p, Node *t, bool aug);
Node *fe_limit(FeParser *p, Node *n);
Node *fe_funcdef(FeParser *p, const char *name, NodeList params, NodeList body, FeLoc l);
Node *fe_decorator(FeParser *p, Node *e, FeLoc l);
Node *fe_lambda(FeParser *p, NodeList params, Node *body, FeLoc l);
Node *fe_assign_lambda(FeParser *p, Node *assign);
Node *fe_param(FeParser *p, const char *name, Node *dflt, FeLoc l);

#endif
