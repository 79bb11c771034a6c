/* session_region.h — private to runtime/session_eval.c and runtime/session_reduce.c: a
 * region (a fused elementwise expression) of a session, its leaves and the spans of its
 * emitted text, and the steps that collect, emit, compile and run one.
 *
 * session_eval.c builds and runs regions; session_reduce.c reduces them (sum, prod, min, max,
 * mean) as one compiled loop, or over an axis with the helper ufuncs.
 */
#ifndef NUMJIT_RUNTIME_SESSION_REGION_H
#define NUMJIT_RUNTIME_SESSION_REGION_H

#include "session.h"

#define MAX_LEAVES 15
#define MAX_SPANS 256

typedef struct Leaf {
    SVal v;        /* borrowed for a variable, owned for an opaque value */
    bool owned;
    const char *name; /* variable name or NULL */
    Node *node;    /* the opaque node, or NULL for a variable */
    char pname[48];
    char sbuf[8];  /* a scalar as stored, for its 0-d array */
} Leaf;

typedef struct Span {
    int start, end;
    Node *node;
} Span;

typedef struct Region {
    NjSession *s;
    Leaf leaves[MAX_LEAVES];
    int nleaves;
    bool any_array;
    /* emission */
    int mode;            /* 0: params, 1: key ($k), 2: indexed (array leaves read at idx) */
    const char *idx;
    Span spans[MAX_SPANS];
    int nspans;
    /* a session function call at the root: its arguments, evaluated once */
    Node *pre;
    SVal pre_vals[16];
    int npre;
} Region;

/* Collecting the leaves of a region rooted at e (opaque subexpressions evaluated first). */
NjStatus se_add_leaf(Region *R, SVal v, bool owned, const char *name, Node *node);
NjStatus se_collect_opaque(Region *R, Node *e);
NjStatus se_collect(Region *R, Node *e);
/* The source text of a region: mode 0 parameters, 1 the cache key ($k), 2 array leaves read
 * at idx; nj_malloc'ed. */
char *se_region_text(Region *R, Node *root, int mode, const char *idx);
void se_free_region(Region *R);
/* Synthesized functions, by normalized expression text. */
SCache *se_cache_find(NjSession *s, const char *key);
SCache *se_cache_add(NjSession *s, const char *key);
/* Compiles func_src (a synthesized function fname) in a module of the session's defs, typed
 * for the leaves' types; reports type errors at the user's expression. */
NjStatus se_compile_synth(Region *R, Node *root, const char *fname, const char *func_src,
                          int ret_line_in_func, int col0, IrFuncKind kind, bool whole,
                          NjModule **mout, const Type **ret);
void se_params_text(Region *R, StrBuf *sb);
void se_note_last(NjSession *s, NjModule *m, const char *fname, Region *R, bool scalar_types);
/* Runs an elementwise region: a ufunc over arrays, or a scalar call. */
NjStatus se_exec_elementwise(NjSession *s, Region *R, Node *root, SArr *hint, SArr *force,
                             SVal *out);

#endif
