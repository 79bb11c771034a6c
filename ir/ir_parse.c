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
 * An instruction line is ir_parse_inst.c's; ir_parse_internal.h is private to the two.
 */
#include "ir_parse_internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Grows *items (nj_realloc'ed) to hold at least need elements. */
bool irp_grow(void **items, int *cap, int need, size_t elem) {
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

bool irp_error_at(Parser *P, int col, int len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    Loc loc = {P->src, P->line, col, len};
    diag_vadd(P->diags, DG_ERROR, loc, fmt, ap);
    va_end(ap);
    P->errors++;
    return false;
}

Tok *irp_peek(Parser *P) { return &P->toks[P->pos]; }

static const char *tok_desc(Parser *P, const Tok *t) {
    if (t->kind == T_EOL)
        return "end of line";
    return arena_printf(P->a, "'%.*s'", t->len > 40 ? 40 : t->len, t->s);
}

bool irp_error_tok(Parser *P, const Tok *t, const char *what) {
    return irp_error_at(P, t->col, t->len > 0 ? t->len : 1, "expected %s, found %s", what,
                    tok_desc(P, t));
}

/* ---- the line scanner ---------------------------------------------------------------------- */
static bool is_name_start(char c) { /* bytes >= 0x80: UTF-8 of a non-ASCII Python name */
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
           (unsigned char)c >= 0x80;
}
static bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9') || c == '.'; }
bool irp_is_digit(char c) { return c >= '0' && c <= '9'; }

/* Decodes a "..." string starting at s (the quote); returns its end or NULL. */
static const char *scan_string(Parser *P, const char *s, const char *end, int col,
                               const char **out) {
    StrBuf sb;
    sb_init(&sb);
    const char *p = s + 1;
    for (;;) {
        if (p >= end) {
            sb_free(&sb);
            irp_error_at(P, col, (int)(p - s), "unterminated string");
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
                irp_error_at(P, col + (int)(p - s) - 2, 4, "bad \\x escape");
                return NULL;
            }
            sb_putc(&sb, (char)v);
            p += 2;
        } else {
            sb_free(&sb);
            irp_error_at(P, col + (int)(p - s) - 2, 2, "unknown escape in a string");
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
        if (!irp_grow((void **)&P->toks, &P->captoks, P->ntoks + 1, sizeof(Tok)))
            return irp_error_at(P, 1, 0, "out of memory");
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
        } else if (irp_is_digit(c) || (c == '-' && q + 1 < end && irp_is_digit(q[1]))) {
            bool hex = q + 1 < end && q[c == '-'] == '0' && (q[1 + (c == '-')] | 32) == 'x';
            q++;
            while (q < end) {
                char d = *q;
                if (irp_is_digit(d) || is_name_start(d) || d == '.')
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
            while (q < end && irp_is_digit(*q))
                q++;
            if (q == s + 1)
                return irp_error_at(P, t->col, 1, "expected a value number after '%%'");
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
                    return irp_error_at(P, t->col, 1, "expected a symbol after '@'");
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
            return irp_error_at(P, t->col, 1, "unexpected character '%c'", c);
        }
        t->len = (int)(q - s);
        s = q;
        P->ntoks++;
    }
}

bool irp_is_punct(const Tok *t, const char *p) {
    return t->kind == T_PUNCT && (size_t)t->len == strlen(p) && !memcmp(t->s, p, (size_t)t->len);
}
static bool is_word(const Tok *t, const char *w) {
    return t->kind == T_IDENT && (size_t)t->len == strlen(w) && !memcmp(t->s, w, (size_t)t->len);
}

bool irp_accept(Parser *P, const char *p) {
    if (!irp_is_punct(irp_peek(P), p))
        return false;
    P->pos++;
    return true;
}

bool irp_expect(Parser *P, const char *p) {
    if (irp_accept(P, p))
        return true;
    return irp_error_tok(P, irp_peek(P), arena_printf(P->a, "'%s'", p));
}

bool irp_expect_eol(Parser *P) {
    if (irp_peek(P)->kind == T_EOL)
        return true;
    return irp_error_at(P, irp_peek(P)->col, irp_peek(P)->len, "unexpected %s at the end of the line",
                    tok_desc(P, irp_peek(P)));
}

char *irp_tok_text(Parser *P, const Tok *t) {
    return arena_strndup(P->a, t->s, (size_t)t->len);
}

/* A non-negative decimal integer token. */
bool irp_parse_index(Parser *P, int *out, const char *what) {
    Tok *t = irp_peek(P);
    if (t->kind == T_NUM) {
        char *s = irp_tok_text(P, t), *stop;
        errno = 0;
        long v = strtol(s, &stop, 10);
        if (!*stop && !errno && v >= 0 && v <= 0x7fffffff) {
            *out = (int)v;
            P->pos++;
            return true;
        }
    }
    return irp_error_tok(P, t, what);
}

/* A name: identifier or quoted string. */
const char *irp_parse_name(Parser *P, const char *what) {
    Tok *t = irp_peek(P);
    if (t->kind == T_IDENT) {
        P->pos++;
        return irp_tok_text(P, t);
    }
    if (t->kind == T_STR) {
        P->pos++;
        return t->str;
    }
    irp_error_tok(P, t, what);
    return NULL;
}

/* ---- types --------------------------------------------------------------------------------- */

static const Type *parse_array_dims(Parser *P, const Type *dtype, AddrSpace as, Tok *start) {
    int ndim = 0, unit_at = -1, units = 0;
    if (!irp_accept(P, "]")) {
        for (;;) {
            if (!irp_expect(P, ":"))
                return NULL;
            if (irp_accept(P, ":")) {
                Tok *one = irp_peek(P);
                if (one->kind != T_NUM || one->len != 1 || one->s[0] != '1') {
                    irp_error_tok(P, one, "'1' after '::'");
                    return NULL;
                }
                P->pos++;
                unit_at = ndim;
                units++;
            }
            ndim++;
            if (irp_accept(P, "]"))
                break;
            if (!irp_expect(P, ","))
                return NULL;
        }
    }
    ArrayLayout lay = LAYOUT_A;
    if (units > 1 || (units == 1 && unit_at != 0 && unit_at != ndim - 1)) {
        irp_error_at(P, start->col, start->len, "'::1' may mark only the first or the last dimension");
        return NULL;
    }
    if (ndim == 0 || unit_at == ndim - 1)
        lay = LAYOUT_C;
    else if (unit_at == 0)
        lay = LAYOUT_F;
    bool readonly = false;
    if (irp_is_punct(irp_peek(P), "(") && is_word(&P->toks[P->pos + 1], "readonly")) {
        P->pos += 2;
        if (!irp_expect(P, ")"))
            return NULL;
        readonly = true;
    }
    const Type *t = ty_array_ex(dtype, ndim, lay, as, readonly);
    if (!t)
        irp_error_at(P, start->col, start->len, "not a valid array type");
    return t;
}

const Type *irp_parse_type(Parser *P) {
    Tok *t = irp_peek(P);
    if (t->kind != T_IDENT) {
        irp_error_tok(P, t, "a type");
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
        t = irp_peek(P);
        if (t->kind != T_IDENT) {
            irp_error_tok(P, t, "an array type");
            return NULL;
        }
    }
    P->pos++;
    if (!has_as && (is_word(t, "UniTuple") || is_word(t, "Tuple"))) {
        if (!irp_expect(P, "("))
            return NULL;
        const Type *elems[64];
        int n = 0;
        if (is_word(t, "UniTuple")) {
            const Type *el = irp_parse_type(P);
            if (!el || !irp_expect(P, ","))
                return NULL;
            if (!irp_parse_index(P, &n, "the number of elements") || !irp_expect(P, ")"))
                return NULL;
            if (n > 64) {
                irp_error_at(P, t->col, t->len, "too many tuple elements");
                return NULL;
            }
            for (int i = 0; i < n; i++)
                elems[i] = el;
        } else if (!irp_accept(P, ")")) {
            for (;;) {
                if (n == 64) {
                    irp_error_at(P, t->col, t->len, "too many tuple elements");
                    return NULL;
                }
                if (!(elems[n++] = irp_parse_type(P)))
                    return NULL;
                if (irp_accept(P, ")"))
                    break;
                if (!irp_expect(P, ","))
                    return NULL;
            }
        }
        const Type *tt = ty_tuple(elems, n);
        if (!tt)
            irp_error_at(P, t->col, t->len, "not a valid tuple type");
        return tt;
    }
    char *name = irp_tok_text(P, t);
    const Type *s = !strcmp(name, "range_state64") ? ty_range : ty_from_name(name);
    if (!s || !(ty_is_elem(s) || s == ty_void || s == ty_range)) {
        irp_error_at(P, t->col, t->len, "unknown type '%s'", name);
        return NULL;
    }
    if (irp_accept(P, "["))
        return parse_array_dims(P, s, as, t);
    if (has_as) {
        irp_error_at(P, t->col, t->len, "an address space needs an array type");
        return NULL;
    }
    return s;
}

/* ---- locations ------------------------------------------------------------------------------ */
static const Source *file_source(Parser *P, const char *name, size_t n) {
    for (int i = 0; i < P->nfiles; i++)
        if (strlen(P->files[i]->name) == n && !memcmp(P->files[i]->name, name, n))
            return P->files[i];
    if (!irp_grow((void **)&P->files, &P->capfiles, P->nfiles + 1, sizeof(Source *)))
        return NULL;
    Source *s = arena_alloc(P->a, sizeof *s);
    s->name = arena_strndup(P->a, name, n);
    s->text = NULL;
    s->len = 0;
    P->files[P->nfiles++] = s;
    return s;
}

/* "file:line:col" in the line's comment, or no location. */
Loc irp_comment_loc(Parser *P) {
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
        while (d > s && irp_is_digit(d[-1]))
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

/* ---- declarations ---------------------------------------------------------------------------- */
static bool parse_func_header(Parser *P) {
    Tok *sym = irp_peek(P);
    if (sym->kind != T_SYM)
        return irp_error_tok(P, sym, "a function symbol (@name)");
    P->pos++;
    if (!irp_expect(P, "("))
        return false;
    enum { MAXP = 256 };
    const Type *types[MAXP];
    const char *names[MAXP];
    int n = 0;
    if (!irp_accept(P, ")")) {
        for (;;) {
            if (n == MAXP)
                return irp_error_at(P, irp_peek(P)->col, 1, "too many parameters");
            if (irp_accept(P, "?"))
                names[n] = NULL;
            else if (!(names[n] = irp_parse_name(P, "a parameter name")))
                return false;
            if (!irp_expect(P, ":") || !(types[n] = irp_parse_type(P)))
                return false;
            n++;
            if (irp_accept(P, ")"))
                break;
            if (!irp_expect(P, ","))
                return false;
        }
    }
    const Type *ret;
    if (!irp_expect(P, "->") || !(ret = irp_parse_type(P)))
        return false;
    Tok *kt = irp_peek(P);
    int kind = kt->kind == T_IDENT ? irp_lookup_name(ir_func_kind_name, 5, kt) : -1;
    if (kind < 0)
        return irp_error_tok(P, kt, "a function kind (njit scalar gufunc kernel device)");
    P->pos++;
    ErrorModel em;
    if (is_word(irp_peek(P), "python"))
        em = EM_PYTHON;
    else if (is_word(irp_peek(P), "numpy"))
        em = EM_NUMPY;
    else
        return irp_error_tok(P, irp_peek(P), "an error model (python numpy)");
    P->pos++;
    bool fastmath = false, boundscheck = false;
    const Type *yields = NULL;
    unsigned fm_flags = 0;
    const char *pyname = NULL;
    for (;;) {
        int flag = -1;
        for (int i = 0; fastmath && i < FM_NFLAGS; i++)
            if (is_word(irp_peek(P), fe_fastmath_flag_names[i]))
                flag = i;
        if (flag >= 0)
            fm_flags |= 1u << flag;
        else if (is_word(irp_peek(P), "fastmath"))
            fastmath = true;
        else if (is_word(irp_peek(P), "boundscheck"))
            boundscheck = true;
        else if (is_word(irp_peek(P), "yields")) {
            P->pos++;
            if (!(yields = irp_parse_type(P)))
                return false;
            continue;
        } else if (is_word(irp_peek(P), "def")) {
            P->pos++;
            if (!(pyname = irp_parse_name(P, "the Python name")))
                return false;
            continue;
        } else
            break;
        P->pos++;
    }
    if (!irp_expect(P, "{") || !irp_expect_eol(P))
        return false;
    for (int i = 0; i < P->prog->nfuncs; i++)
        if (!strcmp(P->prog->funcs[i]->mangled, sym->str))
            return irp_error_at(P, sym->col, sym->len, "function @%s is defined twice", sym->str);

    IrFunc *f = ir_func_new(P->prog, pyname ? pyname : sym->str, (IrFuncKind)kind, n);
    f->mangled = sym->str;
    f->error_model = em;
    f->fastmath = fastmath;
    f->fastmath_flags = fm_flags;
    f->boundscheck = boundscheck;
    f->yield = yields;
    f->ret = ret;
    for (int i = 0; i < n; i++) {
        f->params[i] = types[i];
        f->param_names[i] = names[i];
    }
    f->loc = irp_comment_loc(P);
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
            irp_error_at(P, x->col, x->len, "%%%d is never defined", x->id);
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
    Tok *kt = irp_peek(P);
    if (!irp_parse_index(P, &k, "a raise site number"))
        return false;
    if (k != P->prog->nraises + 1)
        return irp_error_at(P, kt->col, kt->len, "expected raise site %d", P->prog->nraises + 1);
    Tok *nt = irp_peek(P);
    int kind = nt->kind == T_IDENT ? irp_lookup_name(ir_raise_kind_name, RAISE__COUNT, nt) : -1;
    if (kind < 1)
        return irp_error_tok(P, nt, "an exception (ZeroDivisionError IndexError ValueError MemoryError "
                                     "LinAlgError)");
    P->pos++;
    Tok *ut = irp_peek(P);
    bool user = ut->kind == T_IDENT && ut->len == 4 && !memcmp(ut->s, "user", 4);
    if (user)
        P->pos++;
    Tok *st = irp_peek(P);
    if (st->kind != T_STR)
        return irp_error_tok(P, st, "a message string");
    P->pos++;
    if (!irp_expect_eol(P))
        return false;
    int site = ir_raise_site(P->prog, (RaiseKind)kind, st->str, irp_comment_loc(P));
    P->prog->raises[site - 1].user = user;
    return true;
}

static void parse_line(Parser *P) {
    Tok *t = irp_peek(P);
    if (t->kind == T_EOL)
        return;
    if (P->in_func) {
        if (irp_is_punct(t, "}")) {
            P->pos++;
            if (irp_expect_eol(P))
                end_func(P);
            return;
        }
        if (!P->f) /* skipping the body of a function whose header was bad */
            return;
        if (is_word(t, "var")) {
            P->pos++;
            if (P->b) {
                irp_error_at(P, t->col, t->len, "variables are declared before the first block");
                return;
            }
            const char *name = irp_parse_name(P, "a variable name");
            const Type *ty;
            if (!name || !irp_expect(P, ":") || !(ty = irp_parse_type(P)) || !irp_expect_eol(P))
                return;
            ir_var_new(P->f, name, ty);
            return;
        }
        if (t->kind == T_IDENT && irp_is_punct(&P->toks[P->pos + 1], ":") &&
            P->toks[P->pos + 2].kind == T_EOL) {
            int k;
            if (!irp_parse_block_ref(P, &k))
                return;
            if (k != P->f->nblocks) {
                irp_error_at(P, t->col, t->len, "expected block b%d", P->f->nblocks);
                return;
            }
            P->b = ir_block_new(P->f);
            return;
        }
        if (t->kind == T_IDENT && is_word(&P->toks[P->pos + 1], "catch")) { /* bN catch bM: */
            int k, h;
            if (!irp_parse_block_ref(P, &k))
                return;
            if (k != P->f->nblocks) {
                irp_error_at(P, t->col, t->len, "expected block b%d", P->f->nblocks);
                return;
            }
            P->pos++;
            Tok *ht = irp_peek(P);
            if (!irp_parse_block_ref(P, &h) || !irp_expect(P, ":") || !irp_expect_eol(P))
                return;
            if (h < 0 || h >= k) { /* the typer makes a try's except before its body */
                irp_error_at(P, ht->col, ht->len, "a handler block comes before the blocks it catches for");
                return;
            }
            P->b = ir_block_new(P->f);
            P->b->handler = P->f->blocks[h];
            return;
        }
        irp_parse_inst(P);
        return;
    }
    P->pos++;
    if (is_word(t, "target")) {
        if (P->prog->nfuncs || P->prog->nraises) {
            irp_error_at(P, t->col, t->len, "'target' comes first");
            return;
        }
        if (is_word(irp_peek(P), "cpu"))
            P->prog->target = TARGET_CPU;
        else if (is_word(irp_peek(P), "nvptx"))
            P->prog->target = TARGET_NVPTX;
        else {
            irp_error_tok(P, irp_peek(P), "a target (cpu nvptx)");
            return;
        }
        P->pos++;
        irp_expect_eol(P);
    } else if (is_word(t, "raise")) {
        if (P->prog->nfuncs)
            irp_error_at(P, t->col, t->len, "raise sites come before the functions");
        else
            parse_raise_site(P);
    } else if (is_word(t, "func")) {
        P->in_func = true;
        parse_func_header(P);
    } else {
        irp_error_at(P, t->col, t->len > 0 ? t->len : 1,
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
        irp_error_at(&P, 1, 0, "missing '}' at the end of the text");
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
            irp_error_at(&P, x->col, x->len, "no function @%s", x->name);
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
