/* ir_parse.c — reads the text form of the typed IR (written by ir_print.c, described there and
 * in docs/ir.md) back into an IrProgram built with ir.c's builder.
 *
 * The form is line oriented, so the parser is too: each line is cut into tokens (identifiers,
 * numbers, %values, @symbols, "strings", punctuation) up to a ';' comment, then parsed as one
 * declaration or instruction by recursive descent.  A trailing comment of the form
 * "file:line:col" becomes the item's Loc (its Source is allocated here with text NULL and the
 * file name; one per distinct name); any other comment is ignored.
 *
 * Forward references are resolved when their scope closes: a %value used before the line that
 * defines it (blocks need not be in dominance order) is patched when its function ends, and a
 * callee @symbol when the whole text has been read.  Every error is a located diagnostic on the
 * IR text (line, column, token length); the parser then skips to the next line, so one text
 * reports several errors, and returns NULL.  SSA ids are kept as written; a function's next_id
 * becomes one more than the largest.  The parser checks syntax and names only: types and
 * structure are ir_verify's business, so broken-but-readable IR can be read and verified.
 */
#include "ir.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static bool grow(void **items, int *cap, int need, size_t elem) {
    if (need <= *cap)
        return true;
    int c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *p = nj_realloc(*items, (size_t)c * elem);
    if (!p)
        return false;
    memset((char *)p + (size_t)*cap * elem, 0, (size_t)(c - *cap) * elem);
    *items = p;
    *cap = c;
    return true;
}

static bool error_at(Parser *P, int col, int len, const char *fmt, ...) NJ_PRINTF(4, 5);
static bool error_at(Parser *P, int col, int len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    Loc loc = {P->src, P->line, col, len};
    diag_vadd(P->diags, DG_ERROR, loc, fmt, ap);
    va_end(ap);
    P->errors++;
    return false;
}

static Tok *peek(Parser *P) { return &P->toks[P->pos]; }

static const char *tok_desc(Parser *P, const Tok *t) {
    if (t->kind == T_EOL)
        return "end of line";
    return arena_printf(P->a, "'%.*s'", t->len > 40 ? 40 : t->len, t->s);
}

static bool error_tok(Parser *P, const Tok *t, const char *what) {
    return error_at(P, t->col, t->len > 0 ? t->len : 1, "expected %s, found %s", what,
                    tok_desc(P, t));
}

/* ---- the line scanner ---------------------------------------------------------------------- */
static bool is_name_start(char c) { /* bytes >= 0x80: UTF-8 of a non-ASCII Python name */
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
           (unsigned char)c >= 0x80;
}
static bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9') || c == '.'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Decodes a "..." string starting at s (the quote); returns its end or NULL. */
static const char *scan_string(Parser *P, const char *s, const char *end, int col,
                               const char **out) {
    StrBuf sb;
    sb_init(&sb);
    const char *p = s + 1;
    for (;;) {
        if (p >= end) {
            sb_free(&sb);
            error_at(P, col, (int)(p - s), "unterminated string");
            return NULL;
        }
        char c = *p++;
        if (c == '"')
            break;
        if (c != '\\') {
            sb_putc(&sb, c);
            continue;
        }
        char e = p < end ? *p++ : 0;
        if (e == 'n')
            sb_putc(&sb, '\n');
        else if (e == 't')
            sb_putc(&sb, '\t');
        else if (e == '"' || e == '\\')
            sb_putc(&sb, e);
        else if (e == 'x' && p + 1 < end) {
            char hex[3] = {p[0], p[1], 0}, *stop;
            long v = strtol(hex, &stop, 16);
            if (*stop) {
                sb_free(&sb);
                error_at(P, col + (int)(p - s) - 2, 4, "bad \\x escape");
                return NULL;
            }
            sb_putc(&sb, (char)v);
            p += 2;
        } else {
            sb_free(&sb);
            error_at(P, col + (int)(p - s) - 2, 2, "unknown escape in a string");
            return NULL;
        }
    }
    *out = arena_strndup(P->a, sb.data ? sb.data : "", sb.len);
    sb_free(&sb);
    return p;
}

/* Cuts [s, end) into P->toks; false (with a diagnostic) on a bad character. */
static bool scan_line(Parser *P, const char *s, const char *end) {
    const char *line0 = s;
    P->ntoks = P->pos = 0;
    P->comment = NULL;
    for (;;) {
        while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
            s++;
        if (!grow((void **)&P->toks, &P->captoks, P->ntoks + 1, sizeof(Tok)))
            return error_at(P, 1, 0, "out of memory");
        Tok *t = &P->toks[P->ntoks];
        *t = (Tok){T_EOL, s, 0, (int)(s - line0) + 1, NULL};
        if (s >= end)
            return true;
        if (*s == ';') {
            P->comment = s + 1;
            P->comment_len = (size_t)(end - s - 1);
            return true;
        }
        const char *q = s;
        char c = *s;
        if (is_name_start(c)) {
            while (q < end && is_name_char(*q))
                q++;
            t->kind = T_IDENT;
        } else if (is_digit(c) || (c == '-' && q + 1 < end && is_digit(q[1]))) {
            bool hex = q + 1 < end && q[c == '-'] == '0' && (q[1 + (c == '-')] | 32) == 'x';
            q++;
            while (q < end) {
                char d = *q;
                if (is_digit(d) || is_name_start(d) || d == '.')
                    q++;
                else if ((d == '+' || d == '-') &&
                         ((!hex && (q[-1] | 32) == 'e') || (q[-1] | 32) == 'p'))
                    q++;
                else
                    break;
            }
            t->kind = T_NUM;
        } else if (c == '%') {
            q++;
            while (q < end && is_digit(*q))
                q++;
            if (q == s + 1)
                return error_at(P, t->col, 1, "expected a value number after '%%'");
            t->kind = T_VALUE;
        } else if (c == '@') {
            q++;
            if (q < end && *q == '"') {
                q = scan_string(P, q, end, t->col + 1, &t->str);
                if (!q)
                    return false;
            } else {
                while (q < end && !strchr(" \t\r(),;:\"", *q))
                    q++;
                if (q == s + 1)
                    return error_at(P, t->col, 1, "expected a symbol after '@'");
                t->str = arena_strndup(P->a, s + 1, (size_t)(q - s - 1));
            }
            t->kind = T_SYM;
        } else if (c == '"') {
            q = scan_string(P, q, end, t->col, &t->str);
            if (!q)
                return false;
            t->kind = T_STR;
        } else if (c == '-' && q + 1 < end && q[1] == '>') {
            q += 2;
            t->kind = T_PUNCT;
        } else if (strchr("()[],:={}?-", c)) {
            q++;
            t->kind = T_PUNCT;
        } else {
            return error_at(P, t->col, 1, "unexpected character '%c'", c);
        }
        t->len = (int)(q - s);
        s = q;
        P->ntoks++;
    }
}

static bool is_punct(const Tok *t, const char *p) {
    return t->kind == T_PUNCT && (size_t)t->len == strlen(p) && !memcmp(t->s, p, (size_t)t->len);
}
static bool is_word(const Tok *t, const char *w) {
    return t->kind == T_IDENT && (size_t)t->len == strlen(w) && !memcmp(t->s, w, (size_t)t->len);
}

static bool accept(Parser *P, const char *p) {
    if (!is_punct(peek(P), p))
        return false;
    P->pos++;
    return true;
}

static bool expect(Parser *P, const char *p) {
    if (accept(P, p))
        return true;
    return error_tok(P, peek(P), arena_printf(P->a, "'%s'", p));
}

static bool expect_eol(Parser *P) {
    if (peek(P)->kind == T_EOL)
        return true;
    return error_at(P, peek(P)->col, peek(P)->len, "unexpected %s at the end of the line",
                    tok_desc(P, peek(P)));
}

static char *tok_text(Parser *P, const Tok *t) {
    return arena_strndup(P->a, t->s, (size_t)t->len);
}

/* A non-negative decimal integer token. */
static bool parse_index(Parser *P, int *out, const char *what) {
    Tok *t = peek(P);
    if (t->kind == T_NUM) {
        char *s = tok_text(P, t), *stop;
        errno = 0;
        long v = strtol(s, &stop, 10);
        if (!*stop && !errno && v >= 0 && v <= 0x7fffffff) {
            *out = (int)v;
            P->pos++;
            return true;
        }
    }
    return error_tok(P, t, what);
}

/* A name: identifier or quoted string. */
static const char *parse_name(Parser *P, const char *what) {
    Tok *t = peek(P);
    if (t->kind == T_IDENT) {
        P->pos++;
        return tok_text(P, t);
    }
    if (t->kind == T_STR) {
        P->pos++;
        return t->str;
    }
    error_tok(P, t, what);
    return NULL;
}

/* ---- types --------------------------------------------------------------------------------- */
static const Type *parse_type(Parser *P);

static const Type *parse_array_dims(Parser *P, const Type *dtype, AddrSpace as, Tok *start) {
    int ndim = 0, unit_at = -1, units = 0;
    if (!accept(P, "]")) {
        for (;;) {
            if (!expect(P, ":"))
                return NULL;
            if (accept(P, ":")) {
                Tok *one = peek(P);
                if (one->kind != T_NUM || one->len != 1 || one->s[0] != '1') {
                    error_tok(P, one, "'1' after '::'");
                    return NULL;
                }
                P->pos++;
                unit_at = ndim;
                units++;
            }
            ndim++;
            if (accept(P, "]"))
                break;
            if (!expect(P, ","))
                return NULL;
        }
    }
    ArrayLayout lay = LAYOUT_A;
    if (units > 1 || (units == 1 && unit_at != 0 && unit_at != ndim - 1)) {
        error_at(P, start->col, start->len, "'::1' may mark only the first or the last dimension");
        return NULL;
    }
    if (ndim == 0 || unit_at == ndim - 1)
        lay = LAYOUT_C;
    else if (unit_at == 0)
        lay = LAYOUT_F;
    bool readonly = false;
    if (is_punct(peek(P), "(") && is_word(&P->toks[P->pos + 1], "readonly")) {
        P->pos += 2;
        if (!expect(P, ")"))
            return NULL;
        readonly = true;
    }
    const Type *t = ty_array_ex(dtype, ndim, lay, as, readonly);
    if (!t)
        error_at(P, start->col, start->len, "not a valid array type");
    return t;
}

static const Type *parse_type(Parser *P) {
    Tok *t = peek(P);
    if (t->kind != T_IDENT) {
        error_tok(P, t, "a type");
        return NULL;
    }
    AddrSpace as = AS_GENERIC;
    bool has_as = true;
    if (is_word(t, "shared"))
        as = AS_SHARED;
    else if (is_word(t, "local"))
        as = AS_LOCAL;
    else if (is_word(t, "global"))
        as = AS_GLOBAL;
    else
        has_as = false;
    if (has_as) {
        P->pos++;
        t = peek(P);
        if (t->kind != T_IDENT) {
            error_tok(P, t, "an array type");
            return NULL;
        }
    }
    P->pos++;
    if (!has_as && (is_word(t, "UniTuple") || is_word(t, "Tuple"))) {
        if (!expect(P, "("))
            return NULL;
        const Type *elems[64];
        int n = 0;
        if (is_word(t, "UniTuple")) {
            const Type *el = parse_type(P);
            if (!el || !expect(P, ","))
                return NULL;
            if (!parse_index(P, &n, "the number of elements") || !expect(P, ")"))
                return NULL;
            if (n > 64) {
                error_at(P, t->col, t->len, "too many tuple elements");
                return NULL;
            }
            for (int i = 0; i < n; i++)
                elems[i] = el;
        } else if (!accept(P, ")")) {
            for (;;) {
                if (n == 64) {
                    error_at(P, t->col, t->len, "too many tuple elements");
                    return NULL;
                }
                if (!(elems[n++] = parse_type(P)))
                    return NULL;
                if (accept(P, ")"))
                    break;
                if (!expect(P, ","))
                    return NULL;
            }
        }
        const Type *tt = ty_tuple(elems, n);
        if (!tt)
            error_at(P, t->col, t->len, "not a valid tuple type");
        return tt;
    }
    char *name = tok_text(P, t);
    const Type *s = !strcmp(name, "range_state64") ? ty_range : ty_from_name(name);
    if (!s || !(ty_is_elem(s) || s == ty_void || s == ty_range)) {
        error_at(P, t->col, t->len, "unknown type '%s'", name);
        return NULL;
    }
    if (accept(P, "["))
        return parse_array_dims(P, s, as, t);
    if (has_as) {
        error_at(P, t->col, t->len, "an address space needs an array type");
        return NULL;
    }
    return s;
}

/* ---- locations ------------------------------------------------------------------------------ */
static const Source *file_source(Parser *P, const char *name, size_t n) {
    for (int i = 0; i < P->nfiles; i++)
        if (strlen(P->files[i]->name) == n && !memcmp(P->files[i]->name, name, n))
            return P->files[i];
    if (!grow((void **)&P->files, &P->capfiles, P->nfiles + 1, sizeof(Source *)))
        return NULL;
    Source *s = arena_alloc(P->a, sizeof *s);
    s->name = arena_strndup(P->a, name, n);
    s->text = NULL;
    s->len = 0;
    P->files[P->nfiles++] = s;
    return s;
}

/* "file:line:col" in the line's comment, or no location. */
static Loc comment_loc(Parser *P) {
    Loc none = {0};
    if (!P->comment)
        return none;
    const char *s = P->comment, *e = s + P->comment_len;
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        e--;
    long num[2];
    for (int k = 1; k >= 0; k--) {
        const char *d = e;
        while (d > s && is_digit(d[-1]))
            d--;
        if (d == e || d == s || d[-1] != ':' || e - d > 9)
            return none;
        num[k] = strtol(d, NULL, 10);
        e = d - 1;
    }
    if (e == s)
        return none;
    Loc loc = {file_source(P, s, (size_t)(e - s)), (int)num[0], (int)num[1], 0};
    return loc;
}

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
        return error_at(P, t->col, t->len, "value number too large");
    if (id < P->capdefs && P->defs[id]) {
        in->args[k] = P->defs[id];
        return true;
    }
    if (!grow((void **)&P->fix, &P->capfix, P->nfix + 1, sizeof(Fixup)))
        return error_at(P, t->col, t->len, "out of memory");
    P->fix[P->nfix++] = (Fixup){in, k, id, P->line, t->col, t->len};
    return true;
}

/* A comma-separated list of %values (possibly empty, up to the end or a closing paren). */
static int parse_values(Parser *P, Tok **vals, int max) {
    int n = 0;
    if (peek(P)->kind != T_VALUE)
        return 0;
    for (;;) {
        Tok *t = peek(P);
        if (t->kind != T_VALUE) {
            error_tok(P, t, "a value (%N)");
            return -1;
        }
        if (n == max) {
            error_at(P, t->col, t->len, "too many operands");
            return -1;
        }
        vals[n++] = t;
        P->pos++;
        /* a comma continues the list only when a value follows (condbr %c, b1, b2) */
        if (!is_punct(peek(P), ",") || P->toks[P->pos + 1].kind != T_VALUE)
            return n;
        P->pos++;
    }
}

static bool parse_block_ref(Parser *P, int *out) {
    Tok *t = peek(P);
    if (t->kind == T_IDENT && t->len > 1 && t->s[0] == 'b') {
        char *s = tok_text(P, t) + 1, *stop;
        long v = strtol(s, &stop, 10);
        if (!*stop && is_digit(*s) && v >= 0 && v < 0x7fffffff) {
            *out = (int)v;
            P->pos++;
            return true;
        }
    }
    return error_tok(P, t, "a block label (bN)");
}

static int lookup_name(const char *const *names, int n, const Tok *t) {
    for (int i = 0; i < n; i++)
        if (names[i] && strlen(names[i]) == (size_t)t->len && !memcmp(names[i], t->s, (size_t)t->len))
            return i;
    return -1;
}

static bool parse_var_ref(Parser *P, int *out) {
    Tok *t = peek(P);
    if (t->kind == T_IDENT && t->s[0] == '$' && t->len > 1) {
        bool digits = true;
        for (int i = 1; i < t->len; i++)
            digits &= is_digit(t->s[i]);
        if (digits) {
            *out = atoi(t->s + 1);
            if (*out >= P->f->nvars)
                return error_at(P, t->col, t->len, "no variable number %d", *out);
            P->pos++;
            return true;
        }
    }
    const char *name = parse_name(P, "a variable");
    if (!name)
        return false;
    for (int i = 0; i < P->f->nvars; i++)
        if (!strcmp(P->f->vars[i].name, name)) {
            *out = i;
            return true;
        }
    return error_at(P, t->col, t->len, "unknown variable '%s'", name);
}

/* Reads the constant in tokens [c0, c1) for type t into in->imm. */
static bool const_value(Parser *P, IrInst *in, int c0, int c1) {
    const Type *t = in->type;
    Tok *first = &P->toks[c0];
    if (c1 == c0)
        return error_tok(P, first, "a constant");
    int col = first->col, len = (int)(P->toks[c1 - 1].s + P->toks[c1 - 1].len - first->s);
    char *text = arena_strndup(P->a, first->s, (size_t)len);
    if (t->kind == TY_STR) { /* a string constant: one quoted token */
        if (c1 - c0 != 1 || first->kind != T_STR)
            return error_at(P, col, len, "bad string constant '%s'", text);
        in->imm.str = first->str;
        return true;
    }
    if (c1 - c0 > 2 || (c1 - c0 == 2 && !is_punct(first, "-")))
        return error_at(P, col, len, "bad constant '%s'", text);
    if (t->kind == TY_BOOL) {
        if (!strcmp(text, "true") || !strcmp(text, "1"))
            in->imm.i = 1;
        else if (!strcmp(text, "false") || !strcmp(text, "0"))
            in->imm.i = 0;
        else
            return error_at(P, col, len, "bad bool constant '%s'", text);
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
                return error_at(P, col, len, "bad float constant '%s'", text);
            in->imm.f = v;
            return true;
        } else
            return error_at(P, col, len, "bad float constant '%s'", text);
        in->imm.f = text[0] == '-' ? -v : v;
        return true;
    }
    if (!ty_is_int(t))
        return error_at(P, col, len, "a constant of type %s", t->name);
    if (c1 - c0 != 1 || first->kind != T_NUM)
        return error_at(P, col, len, "bad integer constant '%s'", text);
    if (t->kind == TY_U64 && text[0] != '-')
        in->imm.i = (int64_t)strtoull(text, &stop, 10);
    else
        in->imm.i = strtoll(text, &stop, 10);
    if (*stop || errno)
        return error_at(P, col, len, "bad integer constant '%s'", text);
    return true;
}

static bool parse_inst(Parser *P) {
    IrFunc *f = P->f;
    int id = -1;
    Tok *idtok = NULL;
    if (peek(P)->kind == T_VALUE) {
        idtok = peek(P);
        id = value_id(idtok);
        if (id < 0)
            return error_at(P, idtok->col, idtok->len, "value number too large");
        P->pos++;
        if (!expect(P, "="))
            return false;
    }
    Tok *optok = peek(P);
    int op = optok->kind == T_IDENT ? lookup_name(ir_op_name, IR__COUNT, optok) : -1;
    if (op < 0)
        return error_tok(P, optok, "an instruction");
    P->pos++;
    if (!P->b)
        return error_at(P, optok->col, optok->len, "an instruction outside a block");

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
        while (peek(P)->kind != T_EOL && !is_punct(peek(P), ":"))
            P->pos++;
        c1 = P->pos;
        break;
    case IR_PARAM:
    case IR_RAISE:
        if (!parse_index(P, &index, op == IR_PARAM ? "a parameter number" : "a raise site number"))
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
    case IR_ALLOC:
        if (!parse_index(P, &index, op == IR_EXTRACT ? "an element number"
                                    : op == IR_CPART || op == IR_CPARTVIEW ? "0 (real) or 1 (imag)"
                                    : op == IR_ALLOC || op == IR_LNEW || op == IR_LRESIZE ||
                                      op == IR_DNEW || op == IR_DINSERT || op == IR_SNEW ||
                                      op == IR_SADD || op == IR_SCOPY || op == IR_SMERGE ||
                                      op == IR_SBINOP
                                        ? "a raise site number"
                                                     : "a dimension"))
            return false;
        nv = parse_values(P, vals, MAXV);
        break;
    case IR_VIEW: {
        Tok *t = peek(P);
        const char *text = t->kind == T_IDENT ? tok_text(P, t) : "";
        size_t len = strlen(text);
        if (!len || len > TY_MAX_NDIM || strspn(text, "si") != len)
            return error_tok(P, t, "one letter per dimension, s (sliced) or i (indexed)");
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
        if (!parse_var_ref(P, &index) || !expect(P, ","))
            return false;
        nv = parse_values(P, vals, MAXV);
        break;
    case IR_CMP: {
        int k = peek(P)->kind == T_IDENT ? lookup_name(ir_cmp_name, 6, peek(P)) : -1;
        if (k < 0)
            return error_tok(P, peek(P), "a comparison (eq ne lt le gt ge)");
        pred = (CmpPred)k;
        P->pos++;
        nv = parse_values(P, vals, MAXV);
        break;
    }
    case IR_MATH: {
        Tok *t = peek(P);
        index = t->kind == T_IDENT ? ir_math_lookup(tok_text(P, t)) : -1;
        if (index < 0)
            return error_tok(P, t, "a math builtin");
        P->pos++;
        nv = parse_values(P, vals, MAXV);
        break;
    }
    case IR_ATOMIC:
        index = peek(P)->kind == T_IDENT ? lookup_name(ir_atomic_name, ATOM__COUNT, peek(P)) : -1;
        if (index < 0)
            return error_tok(P, peek(P), "an atomic operation (add sub max min exch cas and or "
                                         "xor inc dec nanmax nanmin)");
        P->pos++;
        nv = parse_values(P, vals, MAXV);
        break;
    case IR_CUDA: {
        Tok *t = peek(P);
        index = t->kind == T_IDENT ? ir_cuda_lookup(tok_text(P, t)) : -1;
        if (index < 0)
            return error_tok(P, t, "a CUDA intrinsic (shfl_sync, ballot_sync, popc, ...)");
        P->pos++;
        nv = parse_values(P, vals, MAXV);
        break;
    }
    case IR_PRINT: {
        Tok *t = peek(P);
        if (t->kind != T_STR)
            return error_tok(P, t, "the printed line (a string)");
        text = t->str;
        P->pos++;
        if (accept(P, ","))
            nv = parse_values(P, vals, MAXV);
        break;
    }
    case IR_RANDOM: {
        Tok *t = peek(P);
        index = t->kind == T_IDENT ? ir_random_lookup(tok_text(P, t)) : -1;
        if (index < 0)
            return error_tok(P, t, "a random-number function (np_random, py_gauss, ...)");
        P->pos++;
        nv = parse_values(P, vals, MAXV);
        break;
    }
    case IR_RTCALL: {
        Tok *t = peek(P);
        index = t->kind == T_IDENT ? ir_rtcall_lookup(tok_text(P, t)) : -1;
        if (index < 0)
            return error_tok(P, t, "a runtime function (sort, argsort, select, ...)");
        P->pos++;
        nv = parse_values(P, vals, MAXV);
        break;
    }
    case IR_SREG:
        index = peek(P)->kind == T_IDENT ? lookup_name(ir_sreg_name, SREG_WARPSIZE + 1, peek(P))
                                         : -1;
        if (index < 0)
            return error_tok(P, peek(P), "a special register (tid.x ... warpsize)");
        P->pos++;
        break;
    case IR_CALL:
    case IR_PARFOR:
        callee = peek(P);
        if (callee->kind != T_SYM)
            return error_tok(P, callee, op == IR_CALL ? "a callee (@symbol)"
                                                      : "a loop body (@symbol)");
        P->pos++;
        if (op == IR_PARFOR) { /* [add, min]: the reductions' operators */
            if (!expect(P, "["))
                return false;
            while (!accept(P, "]")) {
                if (nred && !expect(P, ","))
                    return false;
                Tok *t = peek(P);
                int k = t->kind == T_IDENT ? lookup_name(ir_reduce_name, REDUCE__COUNT, t) : -1;
                if (k < 0)
                    return error_tok(P, t, "a reduction operator (add mul min max) or ']'");
                if (nred == IR_PARFOR_MAXRED)
                    return error_at(P, t->col, t->len, "more than %d reductions",
                                    IR_PARFOR_MAXRED);
                redops[nred++] = (uint8_t)k;
                P->pos++;
            }
        }
        if (!expect(P, "("))
            return false;
        nv = parse_values(P, vals, MAXV);
        if (nv < 0 || !expect(P, ")"))
            return false;
        break;
    case IR_BR:
        if (!parse_block_ref(P, &targets[0]))
            return false;
        break;
    case IR_CONDBR:
        nv = parse_values(P, vals, MAXV);
        if (nv < 0 || !expect(P, ",") || !parse_block_ref(P, &targets[0]) || !expect(P, ",") ||
            !parse_block_ref(P, &targets[1]))
            return false;
        break;
    case IR_SHARED:
    case IR_LOCAL:
        for (;;) {
            Tok *t = peek(P);
            char *stop;
            long long v = t->kind == T_NUM ? strtoll(tok_text(P, t), &stop, 10) : 0;
            if (t->kind != T_NUM || *stop || v <= 0)
                return error_tok(P, t, "a positive array extent");
            if (ndims == 3)
                return error_at(P, t->col, t->len, "at most 3 dimensions");
            dims[ndims++] = v;
            P->pos++;
            if (!accept(P, ","))
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
    if (accept(P, ":")) {
        if (!(type = parse_type(P)))
            return false;
        if (!idtok)
            return error_at(P, optok->col, optok->len,
                            "an instruction with a type needs a result (%%N = ...)");
    }
    if (!expect_eol(P))
        return false;
    if (idtok && type == ty_void)
        return error_at(P, idtok->col, idtok->len, "a result needs a type (': TYPE')");
    if (id >= 0 && id < P->capdefs && P->defs[id])
        return error_at(P, idtok->col, idtok->len, "%%%d is defined twice", id);
    if ((op == IR_SHARED || op == IR_LOCAL) && type->kind == TY_ARRAY && type->ndim != ndims)
        return error_at(P, optok->col, optok->len, "%d extents for a %d-d array", ndims,
                        type->ndim);

    IrInst *in = ir_emit(f, P->b, (IrOp)op, type, comment_loc(P), nv, NULL);
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
        if (!grow((void **)&P->cfix, &P->capcfix, P->ncfix + 1, sizeof(CallFixup)))
            return error_at(P, callee->col, callee->len, "out of memory");
        P->cfix[P->ncfix++] = (CallFixup){in, callee->str, P->line, callee->col, callee->len};
        break;
    default: in->imm.index = index; break;
    }
    if (id >= 0) {
        if (!grow((void **)&P->defs, &P->capdefs, id + 1, sizeof(IrInst *)))
            return error_at(P, idtok->col, idtok->len, "out of memory");
        P->defs[id] = in;
        if (id >= f->next_id)
            f->next_id = id + 1;
    }
    for (int k = 0; k < nv; k++)
        if (!use_value(P, in, k, vals[k]))
            return false;
    return true;
}

/* ---- declarations ---------------------------------------------------------------------------- */
static bool parse_func_header(Parser *P) {
    Tok *sym = peek(P);
    if (sym->kind != T_SYM)
        return error_tok(P, sym, "a function symbol (@name)");
    P->pos++;
    if (!expect(P, "("))
        return false;
    enum { MAXP = 256 };
    const Type *types[MAXP];
    const char *names[MAXP];
    int n = 0;
    if (!accept(P, ")")) {
        for (;;) {
            if (n == MAXP)
                return error_at(P, peek(P)->col, 1, "too many parameters");
            if (accept(P, "?"))
                names[n] = NULL;
            else if (!(names[n] = parse_name(P, "a parameter name")))
                return false;
            if (!expect(P, ":") || !(types[n] = parse_type(P)))
                return false;
            n++;
            if (accept(P, ")"))
                break;
            if (!expect(P, ","))
                return false;
        }
    }
    const Type *ret;
    if (!expect(P, "->") || !(ret = parse_type(P)))
        return false;
    Tok *kt = peek(P);
    int kind = kt->kind == T_IDENT ? lookup_name(ir_func_kind_name, 5, kt) : -1;
    if (kind < 0)
        return error_tok(P, kt, "a function kind (njit scalar gufunc kernel device)");
    P->pos++;
    ErrorModel em;
    if (is_word(peek(P), "python"))
        em = EM_PYTHON;
    else if (is_word(peek(P), "numpy"))
        em = EM_NUMPY;
    else
        return error_tok(P, peek(P), "an error model (python numpy)");
    P->pos++;
    bool fastmath = false, boundscheck = false;
    unsigned fm_flags = 0;
    const char *pyname = NULL;
    for (;;) {
        int flag = -1;
        for (int i = 0; fastmath && i < FM_NFLAGS; i++)
            if (is_word(peek(P), fe_fastmath_flag_names[i]))
                flag = i;
        if (flag >= 0)
            fm_flags |= 1u << flag;
        else if (is_word(peek(P), "fastmath"))
            fastmath = true;
        else if (is_word(peek(P), "boundscheck"))
            boundscheck = true;
        else if (is_word(peek(P), "def")) {
            P->pos++;
            if (!(pyname = parse_name(P, "the Python name")))
                return false;
            continue;
        } else
            break;
        P->pos++;
    }
    if (!expect(P, "{") || !expect_eol(P))
        return false;
    for (int i = 0; i < P->prog->nfuncs; i++)
        if (!strcmp(P->prog->funcs[i]->mangled, sym->str))
            return error_at(P, sym->col, sym->len, "function @%s is defined twice", sym->str);

    IrFunc *f = ir_func_new(P->prog, pyname ? pyname : sym->str, (IrFuncKind)kind, n);
    f->mangled = sym->str;
    f->error_model = em;
    f->fastmath = fastmath;
    f->fastmath_flags = fm_flags;
    f->boundscheck = boundscheck;
    f->ret = ret;
    for (int i = 0; i < n; i++) {
        f->params[i] = types[i];
        f->param_names[i] = names[i];
    }
    f->loc = comment_loc(P);
    P->f = f;
    return true;
}

/* Closes the current function: patches the forward %value references. */
static void end_func(Parser *P) {
    for (int i = 0; i < P->nfix; i++) {
        Fixup *x = &P->fix[i];
        if (x->id < P->capdefs && P->defs[x->id]) {
            x->in->args[x->arg] = P->defs[x->id];
        } else {
            int line = P->line;
            P->line = x->line;
            error_at(P, x->col, x->len, "%%%d is never defined", x->id);
            P->line = line;
        }
    }
    P->nfix = 0;
    if (P->capdefs)
        memset(P->defs, 0, sizeof(IrInst *) * (size_t)P->capdefs);
    P->f = NULL;
    P->b = NULL;
    P->in_func = false;
}

static bool parse_raise_site(Parser *P) {
    int k;
    Tok *kt = peek(P);
    if (!parse_index(P, &k, "a raise site number"))
        return false;
    if (k != P->prog->nraises + 1)
        return error_at(P, kt->col, kt->len, "expected raise site %d", P->prog->nraises + 1);
    Tok *nt = peek(P);
    int kind = nt->kind == T_IDENT ? lookup_name(ir_raise_kind_name, RAISE__COUNT, nt) : -1;
    if (kind < 1)
        return error_tok(P, nt, "an exception (ZeroDivisionError IndexError ValueError MemoryError "
                                     "LinAlgError)");
    P->pos++;
    Tok *ut = peek(P);
    bool user = ut->kind == T_IDENT && ut->len == 4 && !memcmp(ut->s, "user", 4);
    if (user)
        P->pos++;
    Tok *st = peek(P);
    if (st->kind != T_STR)
        return error_tok(P, st, "a message string");
    P->pos++;
    if (!expect_eol(P))
        return false;
    int site = ir_raise_site(P->prog, (RaiseKind)kind, st->str, comment_loc(P));
    P->prog->raises[site - 1].user = user;
    return true;
}

static void parse_line(Parser *P) {
    Tok *t = peek(P);
    if (t->kind == T_EOL)
        return;
    if (P->in_func) {
        if (is_punct(t, "}")) {
            P->pos++;
            if (expect_eol(P))
                end_func(P);
            return;
        }
        if (!P->f) /* skipping the body of a function whose header was bad */
            return;
        if (is_word(t, "var")) {
            P->pos++;
            if (P->b) {
                error_at(P, t->col, t->len, "variables are declared before the first block");
                return;
            }
            const char *name = parse_name(P, "a variable name");
            const Type *ty;
            if (!name || !expect(P, ":") || !(ty = parse_type(P)) || !expect_eol(P))
                return;
            ir_var_new(P->f, name, ty);
            return;
        }
        if (t->kind == T_IDENT && is_punct(&P->toks[P->pos + 1], ":") &&
            P->toks[P->pos + 2].kind == T_EOL) {
            int k;
            if (!parse_block_ref(P, &k))
                return;
            if (k != P->f->nblocks) {
                error_at(P, t->col, t->len, "expected block b%d", P->f->nblocks);
                return;
            }
            P->b = ir_block_new(P->f);
            return;
        }
        if (t->kind == T_IDENT && is_word(&P->toks[P->pos + 1], "catch")) { /* bN catch bM: */
            int k, h;
            if (!parse_block_ref(P, &k))
                return;
            if (k != P->f->nblocks) {
                error_at(P, t->col, t->len, "expected block b%d", P->f->nblocks);
                return;
            }
            P->pos++;
            Tok *ht = peek(P);
            if (!parse_block_ref(P, &h) || !expect(P, ":") || !expect_eol(P))
                return;
            if (h < 0 || h >= k) { /* the typer makes a try's except before its body */
                error_at(P, ht->col, ht->len, "a handler block comes before the blocks it catches for");
                return;
            }
            P->b = ir_block_new(P->f);
            P->b->handler = P->f->blocks[h];
            return;
        }
        parse_inst(P);
        return;
    }
    P->pos++;
    if (is_word(t, "target")) {
        if (P->prog->nfuncs || P->prog->nraises) {
            error_at(P, t->col, t->len, "'target' comes first");
            return;
        }
        if (is_word(peek(P), "cpu"))
            P->prog->target = TARGET_CPU;
        else if (is_word(peek(P), "nvptx"))
            P->prog->target = TARGET_NVPTX;
        else {
            error_tok(P, peek(P), "a target (cpu nvptx)");
            return;
        }
        P->pos++;
        expect_eol(P);
    } else if (is_word(t, "raise")) {
        if (P->prog->nfuncs)
            error_at(P, t->col, t->len, "raise sites come before the functions");
        else
            parse_raise_site(P);
    } else if (is_word(t, "func")) {
        P->in_func = true;
        parse_func_header(P);
    } else {
        error_at(P, t->col, t->len > 0 ? t->len : 1,
                 "expected 'target', 'raise' or 'func', found %s", tok_desc(P, t));
    }
}

IrProgram *ir_parse(Arena *arena, const Source *src, DiagList *diags) {
    Parser P = {.a = arena, .src = src, .diags = diags};
    P.prog = ir_program_new(arena, TARGET_CPU);
    const char *s = src->text ? src->text : "", *end = s + (src->text ? src->len : 0);
    while (s < end || P.line == 0) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *e = nl ? nl : end;
        P.line++;
        if (scan_line(&P, s, e))
            parse_line(&P);
        s = nl ? nl + 1 : end;
        if (s >= end)
            break;
    }
    if (P.in_func) {
        error_at(&P, 1, 0, "missing '}' at the end of the text");
        if (P.f)
            end_func(&P);
    }
    for (int i = 0; i < P.ncfix; i++) {
        CallFixup *x = &P.cfix[i];
        IrFunc *callee = NULL;
        for (int k = 0; k < P.prog->nfuncs && !callee; k++)
            if (!strcmp(P.prog->funcs[k]->mangled, x->name))
                callee = P.prog->funcs[k];
        if (callee) {
            if (x->in->op == IR_PARFOR)
                x->in->imm.par.body = callee;
            else
                x->in->imm.callee = callee;
        } else {
            P.line = x->line;
            error_at(&P, x->col, x->len, "no function @%s", x->name);
        }
    }
    if (arena_failed(arena)) {
        Loc none = {0};
        diag_error(diags, none, "out of memory while reading IR");
        P.errors++;
    }
    nj_free(P.toks);
    nj_free(P.defs);
    nj_free(P.fix);
    nj_free(P.cfix);
    nj_free(P.files);
    return P.errors ? NULL : P.prog;
}
