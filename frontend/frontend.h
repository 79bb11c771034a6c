/* frontend.h — the face of frontend/ to the rest of numjit: the AST, the module table and the
 * entry points of the parser.
 *
 *   source text ─ scanner.l (Flex, reentrant) ─ layout.c (NEWLINE/INDENT/DEDENT, CPython's
 *   indent stack) ─ parser.y (Bison, pure, %locations) ─▶ AST (one Node type, every node has a
 *   Loc) ─ module.c ─▶ ModuleInfo (decorated defs, signatures, layouts, options, constants).
 *
 * All memory comes from the caller's Arena.  Errors go to the caller's DiagList; parsing
 * recovers at NEWLINE/DEDENT so one file reports several errors.
 */
#ifndef NUMJIT_FRONTEND_H
#define NUMJIT_FRONTEND_H

#include "../base/base.h"

/* Operators, shared by ND_BINOP, ND_UNARY, ND_AUGASSIGN, ND_BOOLOP and ND_COMPARE.
 * X(enumerator, spelling) */
#define NJ_OPERATORS(X)                                                                        \
    X(OP_ADD, "+")                                                                             \
    X(OP_SUB, "-")                                                                             \
    X(OP_MUL, "*")                                                                             \
    X(OP_DIV, "/")                                                                             \
    X(OP_FLOORDIV, "//")                                                                       \
    X(OP_MOD, "%")                                                                             \
    X(OP_POW, "**")                                                                            \
    X(OP_MATMUL, "@")                                                                          \
    X(OP_LSHIFT, "<<")                                                                         \
    X(OP_RSHIFT, ">>")                                                                         \
    X(OP_BITAND, "&")                                                                          \
    X(OP_BITOR, "|")                                                                           \
    X(OP_BITXOR, "^")                                                                          \
    X(OP_NEG, "-")                                                                             \
    X(OP_POS, "+")                                                                             \
    X(OP_INVERT, "~")                                                                          \
    X(OP_NOT, "not")                                                                           \
    X(OP_AND, "and")                                                                           \
    X(OP_OR, "or")                                                                             \
    X(OP_EQ, "==")                                                                             \
    X(OP_NE, "!=")                                                                             \
    X(OP_LT, "<")                                                                              \
    X(OP_LE, "<=")                                                                             \
    X(OP_GT, ">")                                                                              \
    X(OP_GE, ">=")                                                                             \
    X(OP_IS, "is")                                                                             \
    X(OP_ISNOT, "is not")                                                                      \
    X(OP_IN, "in")                                                                             \
    X(OP_NOTIN, "not in")

typedef enum {
#define X(e, s) e,
    NJ_OPERATORS(X)
#undef X
        OP__COUNT
} OpKind;
extern const char *const ast_op_spelling[OP__COUNT];

/* AST node kinds.  X(enumerator, name, fields used) — the legend says which generic Node
 * fields each kind uses. */
#define NJ_NODE_KINDS(X)                                                                       \
    /* expressions */                                                                          \
    X(ND_INT, "int", "ival; str = \"uint64\" above 2**63-1 (bits in ival)")                    \
    X(ND_FLOAT, "float", "fval")                                                               \
    X(ND_IMAG, "imag", "fval: the imaginary literal fval*1j")                                  \
    X(ND_BOOL, "bool", "ival (0/1)")                                                           \
    X(ND_NONE, "None", "")                                                                     \
    X(ND_STR, "str", "str (decoded contents)")                                                 \
    X(ND_NAME, "name", "name")                                                                 \
    X(ND_ATTR, "attr", "a = object, name = attribute")                                         \
    X(ND_BINOP, "binop", "op, a, b")                                                           \
    X(ND_UNARY, "unary", "op, a")                                                              \
    X(ND_BOOLOP, "boolop", "op (OP_AND/OP_OR), a, b")                                          \
    X(ND_COMPARE, "compare", "list = operands (n >= 2), ops[n-1]")                             \
    X(ND_IFEXP, "ifexp", "a = cond, b = then, c = else")                                       \
    X(ND_CALL, "call", "a = callee, list = positional args, list2 = keyword args (ND_KEYWORD)") \
    X(ND_KEYWORD, "keyword", "name = keyword, a = value")                                      \
    X(ND_STARRED, "starred", "a = the tuple a call's `*t` argument unpacks")                   \
    X(ND_SUBSCRIPT, "subscript", "a = value, b = index (ND_TUPLE for a[i, j])")                \
    X(ND_SLICE, "slice", "a = lower, b = upper, c = step (each may be NULL)")                  \
    X(ND_ELLIPSIS, "ellipsis", "'...' (an array index only)")                                  \
    X(ND_TUPLE, "tuple", "list = elements")                                                    \
    X(ND_LIST, "list", "list = elements")                                                      \
    X(ND_LISTCOMP, "listcomp", "a = element, list = clauses: ND_FOR (a = target, b = iterable) " \
                               "and ND_IF (a = condition), in source order")                    \
    X(ND_SET, "set", "list = elements (decorator option values only)")                         \
    X(ND_DICT, "dict", "list = keys, list2 = values (decorator option values only)")           \
    /* statements */                                                                           \
    X(ND_ASSIGN, "assign", "list = targets (a = b = v has two), a = value")                    \
    X(ND_AUGASSIGN, "augassign", "op, a = target, b = value")                                  \
    X(ND_EXPR, "exprstmt", "a = expression")                                                   \
    X(ND_IF, "if", "a = cond, list = body, list2 = else body (elif = one ND_IF there)")        \
    X(ND_WHILE, "while", "a = cond, list = body, list2 = else body (run unless a break left)")  \
    X(ND_FOR, "for", "a = target, b = iterable, list = body, list2 = else body")               \
    X(ND_BREAK, "break", "")                                                                   \
    X(ND_CONTINUE, "continue", "")                                                             \
    X(ND_RETURN, "return", "a = value or NULL")                                                \
    X(ND_YIELD, "yield", "a = value or NULL (a statement: Numba cannot send values in); in an " \
                         "inlined copy (typer_gen.c) list = the statements it became")        \
    X(ND_PASS, "pass", "")                                                                     \
    X(ND_RAISE, "raise", "a = exception (a class or a call of one) or NULL (bare raise)")      \
    X(ND_ASSERT, "assert", "a = condition, b = message or NULL")                               \
    X(ND_DEL, "del", "list = the targets")                                                     \
    X(ND_TRY, "try", "list = body, list2 = handlers (ND_EXCEPT), a = else, b = finally "         \
                     "(ND_BLOCK or NULL)")                                                      \
    X(ND_EXCEPT, "except", "a = class or NULL (bare), name = `as` name or NULL, list = body")   \
    X(ND_BLOCK, "block", "list = statements (a try's else and finally)")                       \
    X(ND_LAMBDA, "lambda", "a = its ND_FUNCDEF (name '<lambda>', body one ND_RETURN); `f = "   \
                           "lambda ...` alone is parsed as `def f`")                            \
    X(ND_FUNCDEF, "def", "name, params (list of ND_NAME; a `*args` one is last, ival 1), "    \
                         "list = body, list2 = decorators, str = docstring or NULL")           \
    X(ND_IMPORT, "import", "name = module (dotted), str = alias or NULL")                      \
    X(ND_FROMIMPORT, "from", "name = module, list = ND_NAME imported (str = alias or NULL)")   \
    X(ND_MODULE, "module", "list = statements")

typedef enum {
#define X(e, n, f) e,
    NJ_NODE_KINDS(X)
#undef X
        ND__COUNT
} NodeKind;
extern const char *const ast_kind_name[ND__COUNT];

typedef struct Node Node;
typedef struct NodeList {
    Node **items;
    int n;
} NodeList;

struct Node {
    NodeKind kind;
    Loc loc;          /* the whole construct; for a binop, from the left operand's start */
    OpKind op;        /* ND_BINOP, ND_UNARY, ND_BOOLOP, ND_AUGASSIGN */
    OpKind *ops;      /* ND_COMPARE: list.n - 1 operators */
    Node *a, *b, *c;  /* see the legend above */
    NodeList list;    /* see the legend above */
    NodeList list2;   /* see the legend above */
    NodeList params;  /* ND_FUNCDEF: ND_NAME nodes */
    const char *name; /* interned in the arena */
    const char *str;
    int64_t ival;
    double fval;
};

/* ---- parser.y / layout.c / scanner.l -------------------------------------------------------
 * Parses a whole file into an ND_MODULE.  Always returns a module (possibly with fewer
 * statements) unless memory ran out; errors land in diags (diags->nerrors > 0).  Python
 * syntax outside the subset (class, with, global, nonlocal,
 * f-strings, ...) gives "'X' is not supported by numjit" at its location. */
Node *fe_parse(Arena *arena, const Source *src, DiagList *diags);

/* ---- ast.c ------------------------------------------------------------------------------ */
Node *ast_new(Arena *arena, NodeKind kind, Loc loc);
void ast_list_push(Arena *arena, NodeList *list, Node *n);
/* S-expression dump used by golden tests and --dump=ast. */
void ast_print(const Node *n, StrBuf *out);

/* ---- module.c: the module table ------------------------------------------------------------
 * Reads the decorated defs of a parsed module.  Decorators are recognized by what the
 * imports bind them to (`from numba import njit`, `import numba` + `@numba.njit`, `from numba
 * import cuda` + `@cuda.jit`, `from numjit import ...`, `import numjit as nb`, ...). */
typedef enum {
    FK_PLAIN,       /* undecorated def: callable from compiled functions, compiled as njit */
    FK_NJIT,        /* @njit / @jit */
    FK_VECTORIZE,   /* @vectorize */
    FK_GUVECTORIZE, /* @guvectorize */
    FK_KERNEL,      /* @cuda.jit (not device=True) */
    FK_DEVICE,      /* @cuda.jit(device=True) */
} FuncKind;

typedef enum { EM_PYTHON, EM_NUMPY } ErrorModel;

/* Numba's fast-math flags (fastmath={'nsz', 'arcp'}), in LLVM's bit order (LLVMFastMath*):
 * fe_fastmath_flag_names[i] names bit 1 << i. */
enum { FM_NFLAGS = 7 };
extern const char *const fe_fastmath_flag_names[FM_NFLAGS];

typedef struct FuncInfo {
    const char *name;
    Node *def;       /* the ND_FUNCDEF */
    FuncKind kind;
    const char *target;    /* "cpu" (default), "parallel", "cuda" */
    NodeList sigs;         /* declared signatures, each an ND_STR ('f8(f8, f8)') or an
                              expression node (float64(float64, float64), or a tuple of types
                              for guvectorize); empty = lazy/dynamic */
    const char *layout;    /* guvectorize layout string, "(n),(n)->()" */
    bool cache, fastmath, boundscheck, parallel, nopython;
    unsigned fastmath_flags; /* with fastmath: FM_* bits of a flag set, 0 = all ('fast') */
    ErrorModel error_model; /* default EM_PYTHON for njit, EM_NUMPY for ufunc/gufunc/cuda */
    Node *identity;         /* vectorize identity= (ND_INT/ND_FLOAT/ND_NONE) or NULL */
    const char *source_text; /* the def's source, decorators included (for cache keys) */
    int first_line, last_line; /* the def's extent, decorators included */
    const char *taint;       /* the first construct numjit cannot compile in it (the message):
                                reported if compiled code calls the function, or (a decorated
                                one, lazily compiled modules) when it is specialized */
    Loc taint_loc;
    bool library;            /* from a stdlib/ module the compiler added (_nj_ names) */
} FuncInfo;

typedef struct ConstInfo {
    const char *name;
    Node *value; /* ND_INT, ND_FLOAT, ND_BOOL or a constant expression of those */
    bool library; /* from a stdlib/ module (_NJ_ names) */
} ConstInfo;

typedef struct ModuleInfo {
    const Source *src;
    Node *ast;
    FuncInfo *funcs;
    int nfuncs;
    ConstInfo *consts;
    int nconsts;
    /* import bindings: local name -> module ("math", "numpy", "numba", "numba.cuda",
     * "numjit", ...) or to an imported object ("numba.njit", "math.sqrt", ...) */
    const char **bind_names;
    const char **bind_targets;
    int nbinds;
} ModuleInfo;

/* Builds the table; decorator errors (unknown option, bad layout string) go to diags. */
ModuleInfo *fe_module_info(Arena *arena, const Source *src, Node *module, DiagList *diags);
const FuncInfo *fe_find_func(const ModuleInfo *m, const char *name);
/* fi->boundscheck unless NUMJIT_BOUNDSCHECK / NUMBA_BOUNDSCHECK overrides it (Numba's rule) */
bool fe_boundscheck(const FuncInfo *fi);
/* A real Python file may use Python freely outside the functions numjit compiles.  This
 * removes the "... is not supported by numjit" errors that lie outside every decorated def:
 * in an undecorated def the first becomes that FuncInfo's taint (reported when compiled code
 * calls it); at module level they are dropped (the Python runner executes that code).  With
 * decorated_too, a decorated def's become its taint as well, and so does every other error
 * located in a def's body (nj_compile_source_lazy: the file is one CPython parsed, so what
 * numjit's parser refuses there — a `match` statement — is that function's problem alone, and
 * the module's other functions compile).  Returns the number of errors left. */
int fe_defer_unsupported(Arena *arena, ModuleInfo *m, DiagList *diags, bool decorated_too);
/* What a local name is bound to by the imports ("np" -> "numpy", "sqrt" -> "math.sqrt");
 * NULL when not imported. */
const char *fe_resolve_import(const ModuleInfo *m, const char *name);

/* ---- stdlib/ (generated from its .py files) ---------------------------------------------------
 * The text of a library module written in numjit's language ("cuda_random"), or NULL.  A
 * module that imports from numba.cuda.random gets that library's functions (module.c). */
const char *fe_stdlib_text(const char *name);

/* ---- library.c: the bundled libraries parsed once per process -------------------------------
 * The parsed module of library lib, shared by every caller and thread: read-only (copy a node
 * before changing it).  *src is set to the Source its locations refer to.  NULL when lib has
 * no text or its parse reports an error (parse it yourself then, to see the error). */
Node *fe_library_module(const char *lib, const Source **src);

#endif
