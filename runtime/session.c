/* session.c — NjSession: the engine of the numjit REPL and of `numjit run FILE.py`.
 *
 * A session executes top-level Python statements one chunk at a time (a statement or a def
 * block typed at the prompt, or a whole file).  It keeps
 *   - a virtual file: every chunk's lines, numbered across the session, where the lines of
 *     defs and imports keep their text and all other lines are empty.  Compiling that text
 *     (plus the constants the defs read) gives the module of the session's functions, and
 *     diagnostics in a def point at the line the user typed;
 *   - the variables: scalars, arrays, tuples, strings (session_call.c, arrays.c);
 *   - caches of synthesized functions (session_eval.c), flushed when the defs change.
 * Statements: expression statements (echoed NumPy-style in interactive mode), assignment,
 * augmented assignment, if/while/for-in-range, break/continue/pass, def, import.  Errors stop
 * the chunk and leave the session as it was after the last statement that ran.
 *
 * The inspection commands (":type", ":ir", ":llvm", ":asm", ":ptx", ":time", ":target",
 * ":load", ":vars", ":help") and tab completion are here too.
 */
#include "session.h"
#include "cuda.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double ss_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* ---- variables ----------------------------------------------------------------------------- */
/* Variables are found through a hash of their names (vindex), so a loop body or a long script
 * costs the same per statement however many variables the session has. */
static uint64_t name_hash(const char *p) {
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211u;
    return h;
}

static int *vindex_slot(NjSession *s, const char *name) {
    size_t mask = (size_t)s->nvindex - 1;
    for (size_t i = name_hash(name) & mask;; i = (i + 1) & mask) {
        int k = s->vindex[i];
        if (!k || !strcmp(s->vars[k - 1].name, name))
            return &s->vindex[i];
    }
}

static void vindex_fill(NjSession *s) {
    memset(s->vindex, 0, sizeof *s->vindex * (size_t)s->nvindex);
    for (int i = 0; i < s->nvars; i++)
        *vindex_slot(s, s->vars[i].name) = i + 1;
}

/* Makes the index room for nvars + 1 variables. */
static bool vindex_grow(NjSession *s) {
    int n = 16;
    while (n < 2 * (s->nvars + 1))
        n *= 2;
    int *t = calloc((size_t)n, sizeof *t);
    if (!t)
        return false;
    free(s->vindex);
    s->vindex = t;
    s->nvindex = n;
    vindex_fill(s);
    return true;
}

SVal *ss_lookup(NjSession *s, const char *name) {
    if (!s->nvindex)
        return NULL;
    int k = *vindex_slot(s, name);
    return k ? &s->vars[k - 1].v : NULL;
}

bool ss_set(NjSession *s, const char *name, SVal v) {
    SVal *old = ss_lookup(s, name);
    if (old) {
        SVal o = *old;
        *old = v;
        sv_free(&o);
        return true;
    }
    if (2 * (s->nvars + 1) > s->nvindex && !vindex_grow(s)) {
        sv_free(&v);
        return false;
    }
    if (s->nvars == s->capvars) {
        int cap = s->capvars ? s->capvars * 2 : 16;
        SVar *n = realloc(s->vars, sizeof *n * (size_t)cap);
        if (!n) {
            sv_free(&v);
            return false;
        }
        s->vars = n;
        s->capvars = cap;
    }
    char *nm = strdup(name);
    if (!nm) {
        sv_free(&v);
        return false;
    }
    s->vars[s->nvars].name = nm;
    s->vars[s->nvars].v = v;
    *vindex_slot(s, nm) = ++s->nvars;
    return true;
}

static void ss_unset(NjSession *s, const char *name) {
    for (int i = 0; i < s->nvars; i++)
        if (!strcmp(s->vars[i].name, name)) {
            free(s->vars[i].name);
            sv_free(&s->vars[i].v);
            s->vars[i] = s->vars[--s->nvars];
            vindex_fill(s); /* the last variable moved */
            return;
        }
}

typedef struct DefRec {
    char *name;
    int first, last; /* lines of the virtual file, 1-based */
} DefRec;

bool ss_is_func(NjSession *s, const char *name) {
    for (int i = 0; i < s->funcs.n; i++)
        if (!strcmp(((DefRec *)s->funcs.items[i])->name, name))
            return true;
    return false;
}

NjStatus ss_error(NjSession *s, Loc loc, NjStatus st, const char *fmt, ...) {
    DiagList d;
    diag_init(&d);
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(&d, DG_ERROR, loc, fmt, ap);
    va_end(ap);
    rt_set_diags(s->ctx, &d);
    diag_free(&d);
    return st;
}

void ss_note_sig(NjSession *s, const char *fname, const SVal *args, int n) {
    StrBuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%s(", fname);
    for (int i = 0; i < n; i++) {
        const Type *t;
        if (args[i].kind == SV_ARRAY) {
            const NjArray *a = &args[i].arr->a;
            t = ty_array(rt_type_of_dtype(a->dtype), a->ndim, sa_is_contig(a) ? LAYOUT_C : LAYOUT_A);
        } else
            t = rt_type_of_dtype(args[i].dtype);
        sb_printf(&sb, "%s%s", i ? ", " : "", t ? t->name : "?");
    }
    sb_putc(&sb, ')');
    size_t k = strlen(fname);
    for (int i = 0; i < s->sigs.n; i++) {
        char *old = s->sigs.items[i];
        if (!strncmp(old, fname, k) && old[k] == '(') {
            nj_free(old);
            s->sigs.items[i] = sb_take(&sb);
            return;
        }
    }
    pv_push(&s->sigs, sb_take(&sb));
}

const char *ss_last_sig(NjSession *s, const char *fname) {
    size_t k = strlen(fname);
    for (int i = 0; i < s->sigs.n; i++) {
        const char *old = s->sigs.items[i];
        if (!strncmp(old, fname, k) && old[k] == '(')
            return old + k;
    }
    return NULL;
}

/* ---- the module text --------------------------------------------------------------------- */
static bool is_free_name(NjSession *s, const char *name) {
    for (int i = 0; i < s->free_names.n; i++)
        if (!strcmp(s->free_names.items[i], name))
            return true;
    return false;
}

char *ss_base_text(NjSession *s) {
    StrBuf sb;
    sb_init(&sb);
    sb_puts(&sb, "");
    /* up to the last kept line: the empty lines of later statements change nothing */
    int n = s->vtext_lines.n;
    while (n > 0 && !s->vtext_lines.items[n - 1])
        n--;
    for (int i = 0; i < n; i++) {
        const char *l = s->vtext_lines.items[i];
        if (l)
            sb_puts(&sb, l);
        sb_putc(&sb, '\n');
    }
    /* scalars the defs read are module constants, as Numba freezes globals */
    for (int i = 0; i < s->nvars; i++) {
        const SVal *v = &s->vars[i].v;
        if (v->kind != SV_SCALAR || !is_free_name(s, s->vars[i].name) ||
            ss_is_func(s, s->vars[i].name))
            continue;
        double f = v->s.f;
        if (v->dtype == NJ_COMPLEX64 || v->dtype == NJ_COMPLEX128) {
            double re = v->s.c[0], im = v->s.c[1];
            if (re != re || re - re != 0 || im != im || im - im != 0)
                continue;
            sb_printf(&sb, "%s = (%.17g %c %.17gj)\n", s->vars[i].name, re,
                      signbit(im) ? '-' : '+', fabs(im));
        } else if (v->dtype == NJ_BOOL)
            sb_printf(&sb, "%s = %s\n", s->vars[i].name, v->s.b ? "True" : "False");
        else if (v->dtype == NJ_FLOAT32 || v->dtype == NJ_FLOAT64) {
            if (f != f || f - f != 0)
                continue;
            char buf[64];
            snprintf(buf, sizeof buf, "%.17g", f);
            if (!strpbrk(buf, ".e"))
                strcat(buf, ".0");
            sb_printf(&sb, "%s = %s\n", s->vars[i].name, buf);
        } else
            sb_printf(&sb, "%s = %lld\n", s->vars[i].name, (long long)v->s.i);
    }
    return sb_take(&sb);
}

static void flush_cache(NjSession *s) {
    for (int i = 0; i < s->ncache; i++) {
        free(s->cache[i].key);
        free(s->cache[i].fname);
    }
    s->ncache = 0;
}

/* A hash of what ss_base_text reads besides the kept lines: the scalars the defs use. */
static uint64_t consts_hash(NjSession *s) {
    uint64_t h = (uint64_t)s->free_names.n;
    for (int i = 0; i < s->free_names.n; i++) {
        const SVal *v = ss_lookup(s, s->free_names.items[i]);
        uint64_t w[3] = {0, 0, 0};
        if (v && v->kind == SV_SCALAR) {
            w[0] = (uint64_t)v->dtype + 1;
            bool cx = v->dtype == NJ_COMPLEX64 || v->dtype == NJ_COMPLEX128;
            memcpy(&w[1], v->s.c, cx ? 16 : 8);
        }
        for (int k = 0; k < 3; k++)
            h = (h ^ w[k]) * 1099511628211u + (uint64_t)i;
    }
    return h;
}

NjStatus ss_sync(NjSession *s) {
    /* the common case, every statement of a loop: nothing the defs' module reads changed */
    uint64_t ch = consts_hash(s);
    if (s->defs && s->base && s->synced_gen == s->text_gen && s->synced_consts == ch)
        return NJ_OK;
    char *base = ss_base_text(s);
    if (!base)
        return NJ_ERR_NOMEM;
    if (s->defs && s->base && !strcmp(base, s->base)) {
        nj_free(base);
        s->synced_gen = s->text_gen;
        s->synced_consts = ch;
        return NJ_OK;
    }
    NjModule *m;
    NjStatus st = nj_compile_source(s->ctx, s->main_name ? s->main_name : "<stdin>", base, &m);
    if (st) {
        nj_free(base);
        return st;
    }
    nj_free(s->base);
    s->base = base;
    s->defs = m;
    s->synced_gen = s->text_gen;
    s->synced_consts = ch;
    flush_cache(s);
    return NJ_OK;
}

/* ---- chunks -------------------------------------------------------------------------------- */
typedef struct Chunk {
    Source src;
    const char *text;   /* the chunk as given */
    int line0;          /* its first line in the virtual file minus its first line in src */
    Node *module;
    int last_line;      /* last line of the chunk in src */
} Chunk;

static void collect_names(Node *n, PtrVec *out) {
    if (!n)
        return;
    if (n->kind == ND_NAME && n->name) {
        for (int i = 0; i < out->n; i++)
            if (!strcmp(out->items[i], n->name))
                goto kids;
        pv_push(out, strdup(n->name));
    }
kids:
    collect_names(n->a, out);
    collect_names(n->b, out);
    collect_names(n->c, out);
    for (int i = 0; i < n->list.n; i++)
        collect_names(n->list.items[i], out);
    for (int i = 0; i < n->list2.n; i++)
        collect_names(n->list2.items[i], out);
}

/* The src line `line` of the chunk (without its newline), malloc'ed. */
static char *chunk_line(const Chunk *c, int line) {
    const char *p = c->src.text;
    for (int l = 1 + c->src.line0; l < line && p; l++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p)
        return strdup("");
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char *r = malloc(n + 1);
    if (r) {
        memcpy(r, p, n);
        r[n] = 0;
    }
    return r;
}

static void set_vline(NjSession *s, int vline, char *text) {
    while (s->vtext_lines.n < vline)
        pv_push(&s->vtext_lines, NULL);
    free(s->vtext_lines.items[vline - 1]);
    s->vtext_lines.items[vline - 1] = text;
    s->text_gen++;
}

/* The extent of top-level statement k of the chunk: from its first line (decorators
 * included) to the line before the next statement. */
static void stmt_extent(const Chunk *c, int k, int *first, int *last) {
    Node *st = c->module->list.items[k];
    int f = st->loc.line;
    for (int i = 0; st->kind == ND_FUNCDEF && i < st->list2.n; i++)
        if (st->list2.items[i]->loc.line && st->list2.items[i]->loc.line < f)
            f = st->list2.items[i]->loc.line;
    /* a decorator line starts with '@' before the decorator expression */
    *first = f;
    if (k + 1 < c->module->list.n) {
        Node *nx = c->module->list.items[k + 1];
        int nf = nx->loc.line;
        for (int i = 0; nx->kind == ND_FUNCDEF && i < nx->list2.n; i++)
            if (nx->list2.items[i]->loc.line < nf)
                nf = nx->list2.items[i]->loc.line;
        *last = nf - 1;
    } else
        *last = c->last_line;
}

static NjStatus exec_def(NjSession *s, const Chunk *c, int k) {
    Node *st = c->module->list.items[k];
    int first, last;
    stmt_extent(c, k, &first, &last);
    if (ss_lookup(s, st->name))
        ss_unset(s, st->name); /* def rebinds the name, as in Python */
    /* keep the old lines to restore them if the new def does not compile */
    DefRec *old = NULL;
    int oldi = -1;
    for (int i = 0; i < s->funcs.n; i++)
        if (!strcmp(((DefRec *)s->funcs.items[i])->name, st->name))
            old = s->funcs.items[i], oldi = i;
    PtrVec saved = {0};
    if (old)
        for (int l = old->first; l <= old->last; l++) {
            char *t = l <= s->vtext_lines.n ? s->vtext_lines.items[l - 1] : NULL;
            pv_push(&saved, t);
            if (l <= s->vtext_lines.n)
                s->vtext_lines.items[l - 1] = NULL;
            s->text_gen++;
        }
    for (int l = first; l <= last; l++)
        set_vline(s, l + c->line0, chunk_line(c, l));
    DefRec *r = calloc(1, sizeof *r);
    if (!r)
        return NJ_ERR_NOMEM;
    r->name = strdup(st->name);
    r->first = first + c->line0;
    r->last = last + c->line0;
    if (oldi >= 0)
        s->funcs.items[oldi] = r;
    else
        pv_push(&s->funcs, r);
    NjStatus rc = ss_sync(s);
    if (rc) { /* undo */
        for (int l = first; l <= last; l++)
            set_vline(s, l + c->line0, NULL);
        if (old) {
            for (int l = old->first, i = 0; l <= old->last; l++, i++)
                if (l <= s->vtext_lines.n)
                    s->vtext_lines.items[l - 1] = saved.items[i];
            s->text_gen++;
            s->funcs.items[oldi] = old;
        } else
            s->funcs.n--;
        free(r->name);
        free(r);
        pv_free(&saved);
        return rc;
    }
    for (int i = 0; i < saved.n; i++)
        free(saved.items[i]);
    pv_free(&saved);
    if (old) {
        free(old->name);
        free(old);
    }
    collect_names(st, &s->free_names);
    return NJ_OK;
}

static NjStatus exec_import(NjSession *s, const Chunk *c, int k) {
    Node *st = c->module->list.items[k];
    const char *mod = st->name;
    static const char *const known[] = {"math", "numpy", "numba", "numba.cuda", "numjit", NULL};
    bool ok = false;
    for (int i = 0; known[i]; i++)
        ok |= !strcmp(mod, known[i]);
    if (!ok)
        return ss_error(s, st->loc, NJ_ERR_UNSUPPORTED,
                        "module '%s' is not available in numjit (math, numpy, numba and numjit "
                        "are)", mod);
    if (st->kind == ND_IMPORT && st->str && !strcmp(mod, "numpy") && strcmp(st->str, "np"))
        return ss_error(s, st->loc, NJ_ERR_UNSUPPORTED,
                        "import numpy as np (numjit's sessions know NumPy by that name)");
    int first, last;
    stmt_extent(c, k, &first, &last);
    for (int l = first; l <= last; l++)
        set_vline(s, l + c->line0, chunk_line(c, l));
    return NJ_OK;
}

static NjStatus exec_block(NjSession *s, const Chunk *c, NodeList *body, int *ctl);

static NjStatus truth(NjSession *s, Node *cond, bool *out) {
    SVal v;
    NjStatus st = se_eval(s, cond, &v);
    if (st)
        return st;
    if (v.kind == SV_ARRAY && sa_size(&v.arr->a) != 1) {
        sv_free(&v);
        return ss_error(s, cond->loc, NJ_ERR_TYPE, "ValueError: the truth value of an array "
                        "with more than one element is ambiguous (use .any() or .all())");
    }
    if (v.kind == SV_ARRAY)
        *out = sv_truth(&(SVal){.kind = SV_SCALAR, .dtype = v.arr->a.dtype,
                                .s = sv_load(v.arr->a.data, v.arr->a.dtype).s});
    else
        *out = sv_truth(&v);
    sv_free(&v);
    return NJ_OK;
}

enum { CTL_NONE, CTL_BREAK, CTL_CONTINUE };

static NjStatus exec_stmt(NjSession *s, const Chunk *c, Node *st, int *ctl) {
    NjStatus rc = NJ_OK;
    if (s->interrupt) { /* checked before every statement, so loops stop too */
        s->interrupt = 0;
        return ss_error(s, st->loc, NJ_ERR_RUNTIME, "KeyboardInterrupt");
    }
    switch (st->kind) {
    case ND_EXPR: {
        SVal v;
        if ((rc = se_eval(s, st->a, &v)))
            return rc;
        if (s->echo && v.kind != SV_NONE) {
            sv_repr(&v, &s->out);
            sb_putc(&s->out, '\n');
        }
        sv_free(&v);
        return NJ_OK;
    }
    case ND_ASSIGN: {
        if (st->list.n == 1 && st->list.items[0]->kind == ND_NAME) {
            SVal *cur = ss_lookup(s, st->list.items[0]->name);
            if (cur && cur->kind == SV_ARRAY && cur->arr->refs == 1 && !cur->arr->base)
                s->hint = cur->arr;
        }
        SVal v;
        rc = se_eval(s, st->a, &v);
        s->hint = NULL;
        if (rc)
            return rc;
        for (int i = 0; i < st->list.n && !rc; i++)
            rc = se_assign(s, st->list.items[i], &v);
        sv_free(&v);
        return rc;
    }
    case ND_AUGASSIGN:
        return se_augassign(s, st);
    case ND_IF: {
        bool t;
        if ((rc = truth(s, st->a, &t)))
            return rc;
        return exec_block(s, c, t ? &st->list : &st->list2, ctl);
    }
    case ND_WHILE: {
        bool broke = false;
        s->loop_depth++;
        for (;;) {
            bool t;
            if ((rc = truth(s, st->a, &t)) || !t)
                break;
            int k = CTL_NONE;
            if ((rc = exec_block(s, c, &st->list, &k)) || (broke = k == CTL_BREAK))
                break;
        }
        s->loop_depth--;
        return rc || broke ? rc : exec_block(s, c, &st->list2, ctl); /* while ... else */
    }
    case ND_FOR: {
        Node *it = st->b;
        char q[64];
        if (st->a->kind != ND_NAME || it->kind != ND_CALL || !se_qualname(s, it->a, q, sizeof q) ||
            strcmp(q, "builtin.range") || it->list.n < 1 || it->list.n > 3 || it->list2.n)
            return ss_error(s, it->loc, NJ_ERR_UNSUPPORTED,
                            "only 'for NAME in range(...)' loops are supported at the top level");
        int64_t r[3] = {0, 0, 1};
        for (int i = 0; i < it->list.n; i++) {
            SVal v;
            if ((rc = se_eval(s, it->list.items[i], &v)))
                return rc;
            bool isint = v.kind == SV_SCALAR && v.dtype != NJ_FLOAT32 && v.dtype != NJ_FLOAT64 &&
                         v.dtype != NJ_COMPLEX64 && v.dtype != NJ_COMPLEX128;
            int64_t x = sv_as_int(&v);
            sv_free(&v);
            if (!isint)
                return ss_error(s, it->list.items[i]->loc, NJ_ERR_TYPE,
                                "range() takes integers");
            r[it->list.n == 1 ? 1 : i] = x;
        }
        if (r[2] == 0)
            return ss_error(s, it->loc, NJ_ERR_ARGS, "ValueError: range() arg 3 must not be zero");
        bool broke = false;
        s->loop_depth++;
        /* counted, never stepped past INT64_MAX: range(0, 2**63-1, 2**62) runs twice */
        uint64_t n = nj_range_len(r[0], r[1], r[2]);
        for (uint64_t k = 0; k < n; k++) {
            if (!ss_set(s, st->a->name, sv_scalar_i(NJ_INT64, nj_range_at(r[0], r[2], k)))) {
                rc = NJ_ERR_NOMEM;
                break;
            }
            int k = CTL_NONE;
            if ((rc = exec_block(s, c, &st->list, &k)) || (broke = k == CTL_BREAK))
                break;
        }
        s->loop_depth--;
        return rc || broke ? rc : exec_block(s, c, &st->list2, ctl); /* for ... else */
    }
    case ND_BREAK: case ND_CONTINUE:
        if (!s->loop_depth)
            return ss_error(s, st->loc, NJ_ERR_SYNTAX, "'%s' outside loop",
                            st->kind == ND_BREAK ? "break" : "continue");
        *ctl = st->kind == ND_BREAK ? CTL_BREAK : CTL_CONTINUE;
        return NJ_OK;
    case ND_PASS:
        return NJ_OK;
    case ND_RETURN:
        return ss_error(s, st->loc, NJ_ERR_SYNTAX, "'return' outside function");
    case ND_FUNCDEF: case ND_IMPORT: case ND_FROMIMPORT:
        return ss_error(s, st->loc, NJ_ERR_UNSUPPORTED,
                        "def and import are supported only at the top level");
    default:
        return ss_error(s, st->loc, NJ_ERR_UNSUPPORTED,
                        "this statement is not supported at the top level of a numjit session");
    }
}

static NjStatus exec_block(NjSession *s, const Chunk *c, NodeList *body, int *ctl) {
    for (int i = 0; i < body->n; i++) {
        NjStatus rc = exec_stmt(s, c, body->items[i], ctl);
        if (rc || *ctl != CTL_NONE)
            return rc;
    }
    return NJ_OK;
}

static int text_lines(const char *t) {
    int n = 0;
    const char *p = t;
    for (; *p; p++)
        n += *p == '\n';
    if (p > t && p[-1] != '\n')
        n++;
    return n;
}

char *ss_take_output(NjSession *s) {
    char *o = nj_malloc(s->out.len + 1);
    if (o) {
        if (s->out.len)
            memcpy(o, s->out.data, s->out.len);
        o[s->out.len] = 0;
    }
    s->out.len = 0;
    if (s->out.data)
        s->out.data[0] = 0;
    return o;
}

NjStatus ss_exec_text(NjSession *s, const char *filename, const char *text, bool keep_lines) {
    if (!s->main_name)
        s->main_name = strdup(filename);
    bool main_file = !strcmp(filename, s->main_name);
    int start = s->nlines + 1; /* the chunk's first line in the virtual file */
    int nl = text_lines(text);
    Chunk c = {.text = text};
    StrBuf src;
    sb_init(&src);
    /* the main file's chunks are numbered across the session (Source.line0, not padding:
       lexing the lines before a chunk again would make a long session quadratic) */
    int pad = main_file && keep_lines ? start - 1 : 0;
    sb_puts(&src, text);
    sb_putc(&src, '\n');
    c.src = (Source){.name = filename, .text = src.data, .len = src.len, .line0 = pad};
    c.line0 = start - 1 - pad;
    c.last_line = pad + nl;
    Arena *a = arena_new();
    DiagList d;
    diag_init(&d);
    if (!a) {
        sb_free(&src);
        return NJ_ERR_NOMEM;
    }
    if (keep_lines)
        s->nlines += nl;
    c.module = fe_parse(a, &c.src, &d);
    NjStatus rc = NJ_OK;
    if (d.nerrors || !c.module) {
        rt_set_diags(s->ctx, &d);
        rc = NJ_ERR_SYNTAX;
    }
    for (int k = 0; !rc && k < c.module->list.n; k++) {
        Node *st = c.module->list.items[k];
        int ctl = CTL_NONE;
        if (st->kind == ND_FUNCDEF)
            rc = keep_lines ? exec_def(s, &c, k)
                            : ss_error(s, st->loc, NJ_ERR_UNSUPPORTED, "def is not allowed here");
        else if (st->kind == ND_IMPORT || st->kind == ND_FROMIMPORT)
            rc = keep_lines ? exec_import(s, &c, k) : NJ_OK;
        else
            rc = exec_stmt(s, &c, st, &ctl);
    }
    diag_free(&d);
    arena_free(a);
    sb_free(&src);
    return rc;
}

/* ---- public API ----------------------------------------------------------------------------- */
NjStatus nj_session_new(NjContext *ctx, NjTarget target, NjSession **out) {
    if (!ctx || !out)
        return NJ_ERR_ARGS;
    nj_context_prepare(ctx); /* a session compiles: the JIT starts while it reads input */
    if (target == NJ_TARGET_CUDA) {
        int ndev = 0;
        if (cu_init() || cu_device_count(&ndev) || ndev == 0) {
            const char *why = cu_error();
            rt_set_errorf(ctx, "error: target cuda is not available: %s (no GPU or no CUDA "
                          "driver here)", why && *why ? why : "no CUDA device");
            return NJ_ERR_UNSUPPORTED;
        }
    }
    NjSession *s = calloc(1, sizeof *s);
    if (!s)
        return NJ_ERR_NOMEM;
    s->ctx = ctx;
    s->target = target;
    sb_init(&s->out);
    *out = s;
    return NJ_OK;
}

void nj_session_free(NjSession *s) {
    if (!s)
        return;
    for (int i = 0; i < s->nvars; i++) {
        free(s->vars[i].name);
        sv_free(&s->vars[i].v);
    }
    free(s->vars);
    free(s->vindex);
    for (int i = 0; i < s->funcs.n; i++) {
        DefRec *r = s->funcs.items[i];
        free(r->name);
        free(r);
    }
    pv_free(&s->funcs);
    for (int i = 0; i < s->free_names.n; i++)
        free(s->free_names.items[i]);
    pv_free(&s->free_names);
    for (int i = 0; i < s->vtext_lines.n; i++)
        free(s->vtext_lines.items[i]);
    pv_free(&s->vtext_lines);
    for (int i = 0; i < s->sigs.n; i++)
        nj_free(s->sigs.items[i]);
    pv_free(&s->sigs);
    flush_cache(s);
    free(s->cache);
    nj_free(s->base);
    free(s->main_name);
    free(s->last_expr_fn);
    free(s->last_expr_sig);
    sb_free(&s->out);
    free(s);
}

void nj_session_interrupt(NjSession *s) {
    if (s)
        s->interrupt = 1;
}

void nj_session_set_echo(NjSession *s, bool echo) {
    if (s)
        s->echo = echo;
}

NjStatus nj_session_exec(NjSession *s, const char *filename, const char *text, char **output) {
    if (output)
        *output = NULL;
    if (!s || !text)
        return NJ_ERR_ARGS;
    NjStatus rc = ss_exec_text(s, filename ? filename : "<stdin>", text, true);
    s->interrupt = 0; /* one that came during the last statement is spent */
    char *o = ss_take_output(s);
    if (output)
        *output = o;
    else
        nj_free(o);
    return rc;
}

NjStatus nj_session_get(NjSession *s, const char *name, NjValue *out) {
    SVal *v = s ? ss_lookup(s, name) : NULL;
    if (!v) {
        if (s)
            rt_set_errorf(s->ctx, "error: name '%s' is not defined", name);
        return NJ_ERR_NAME;
    }
    if (v->kind != SV_SCALAR && v->kind != SV_ARRAY) {
        rt_set_errorf(s->ctx, "error: '%s' is neither a number nor an array", name);
        return NJ_ERR_TYPE;
    }
    *out = sv_to_nj(v);
    return NJ_OK;
}

NjStatus nj_session_set_array(NjSession *s, const char *name, const NjArray *a) {
    if (!s || !a || (unsigned)a->dtype >= NJ_DTYPE_COUNT || a->ndim < 0 || a->ndim > NJ_MAX_NDIM)
        return NJ_ERR_ARGS;
    SArr *c = sa_cast_copy(a, a->dtype);
    if (!c)
        return NJ_ERR_NOMEM;
    return ss_set(s, name, sv_array(c)) ? NJ_OK : NJ_ERR_NOMEM;
}

