/* ir_parse_internal.h — private to ir/ir_parse.c and ir/ir_parse_inst.c: the parser of the
 * IR's text form, its tokens and forward-reference fixups, and the helpers the two share.
 *
 * ir_parse.c scans lines into tokens, reads types, locations, declarations and functions;
 * ir_parse_inst.c reads one instruction line.  ir_parse.c's header comment gives the design.
 */
#ifndef NUMJIT_IR_PARSE_INTERNAL_H
#define NUMJIT_IR_PARSE_INTERNAL_H

#include "ir.h"

typedef enum { T_EOL, T_IDENT, T_NUM, T_VALUE, T_SYM, T_STR, T_PUNCT } TokKind;

typedef struct Tok {
    TokKind kind;
    const char *s; /* start in the text */
    int len;       /* length in the text */
    int col;       /* 1-based */
    const char *str; /* T_STR and quoted T_SYM: the decoded string (arena) */
} Tok;

typedef struct Fixup {
    IrInst *in;
    int arg, id;
    int line, col, len;
} Fixup;

typedef struct CallFixup {
    IrInst *in;
    const char *name;
    int line, col, len;
} CallFixup;

typedef struct Parser {
    Arena *a;
    const Source *src;
    DiagList *diags;
    IrProgram *prog;
    int errors;
    /* the current line */
    int line;
    Tok *toks;
    int ntoks, captoks, pos;
    const char *comment; /* after ';', or NULL */
    size_t comment_len;
    /* the current function */
    bool in_func;        /* between "func ... {" and "}" (f is NULL when its header was bad) */
    IrFunc *f;
    IrBlock *b;
    IrInst **defs;       /* defs[id] */
    int capdefs;
    Fixup *fix;
    int nfix, capfix;
    /* the program */
    CallFixup *cfix;
    int ncfix, capcfix;
    Source **files;
    int nfiles, capfiles;
} Parser;

/* Grows *items (nj_realloc'ed) to hold at least need elements. */
bool irp_grow(void **items, int *cap, int need, size_t elem);
/* A diagnostic at column col (len bytes) of the current line; counts it; false. */
bool irp_error_at(Parser *P, int col, int len, const char *fmt, ...) NJ_PRINTF(4, 5);
Tok *irp_peek(Parser *P);
/* "expected WHAT, found TOKEN" at t; false. */
bool irp_error_tok(Parser *P, const Tok *t, const char *what);
bool irp_is_digit(char c);
bool irp_is_punct(const Tok *t, const char *p);
/* The next token when it is the punctuation p (consumed), as a question or a demand. */
bool irp_accept(Parser *P, const char *p);
bool irp_expect(Parser *P, const char *p);
bool irp_expect_eol(Parser *P);
char *irp_tok_text(Parser *P, const Tok *t); /* arena copy of the token's text */
bool irp_parse_index(Parser *P, int *out, const char *what);
const char *irp_parse_name(Parser *P, const char *what);
const Type *irp_parse_type(Parser *P);
/* The item's Loc from a trailing "file:line:col" comment, or none. */
Loc irp_comment_loc(Parser *P);

/* ir_parse_inst.c */
bool irp_parse_block_ref(Parser *P, int *out);
/* The index of the name t in names[0..n), or -1. */
int irp_lookup_name(const char *const *names, int n, const Tok *t);
/* One instruction line of the current block. */
bool irp_parse_inst(Parser *P);

#endif
