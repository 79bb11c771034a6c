/* test_frontend.c — unit tests of frontend/: layout filter tokens, precedence, every statement
 * kind, decorators and the module table, unsupported constructs and error recovery.
 *
 * Each check parses a small source and compares ast_print output (or a token stream from the
 * layout filter, or rendered diagnostics) with what is expected.  Failures are printed with
 * the source; the program exits 0 when every check passed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontend/fe_internal.h"

static int failures, checks;

#define FAIL(...)                                                                              \
    do {                                                                                       \
        failures++;                                                                            \
        printf("FAIL %s:%d: ", __FILE__, __LINE__);                                            \
        printf(__VA_ARGS__);                                                                   \
        printf("\n");                                                                          \
    } while (0)

/* ---- helpers ---------------------------------------------------------------------------------- */

typedef struct Parsed {
    Arena *arena;
    Source src;
    DiagList diags;
    Node *mod;
    ModuleInfo *info;
    char *ast;  /* malloc'ed */
    char *errs; /* malloc'ed rendered diagnostics ("" if none) */
} Parsed;

static void parse(Parsed *p, const char *text)
{
    StrBuf sb;
    memset(p, 0, sizeof *p);
    p->arena = arena_new();
    p->src = (Source){"t.py", text, strlen(text)};
    diag_init(&p->diags);
    p->mod = fe_parse(p->arena, &p->src, &p->diags);
    sb_init(&sb);
    if (p->mod) {
        ast_print(p->mod, &sb);
        p->info = fe_module_info(p->arena, &p->src, p->mod, &p->diags);
    }
    p->ast = sb.data ? sb_take(&sb) : strdup("");
    sb_free(&sb);
    sb_init(&sb);
    diag_render(&p->diags, &sb);
    p->errs = sb.data ? sb_take(&sb) : strdup("");
    sb_free(&sb);
}

static void done(Parsed *p)
{
    free(p->ast);
    free(p->errs);
    diag_free(&p->diags);
    arena_free(p->arena);
}

/* The AST of a one-statement module, without the "(module\n  " wrapper: "(expr@1:1 (+ 1 2))". */
static void check_stmt(int line, const char *text, const char *want)
{
    Parsed p;
    checks++;
    parse(&p, text);
    const char *s = p.ast;
    if (strncmp(s, "(module\n  ", 10) == 0)
        s += 10;
    size_t n = strlen(s);
    if (p.diags.n) {
        failures++;
        printf("FAIL line %d: unexpected errors for\n%s\n%s", line, text, p.errs);
    } else if (n < 3 || strncmp(s, want, strlen(want)) != 0 || strlen(want) != n - 2) {
        failures++;
        printf("FAIL line %d: for\n%s\nwant %s\ngot  %.*s\n", line, text, want, (int)(n > 2 ? n - 2 : n), s);
    }
    done(&p);
}
#define STMT(text, want) check_stmt(__LINE__, text, want)

/* The expression of "x = EXPR". */
static void check_expr(int line, const char *expr, const char *want)
{
    char src[512], full[600];
    snprintf(src, sizeof src, "x = %s\n", expr);
    snprintf(full, sizeof full, "(assign@1:1 (x) %s)", want);
    check_stmt(line, src, full);
}
#define EXPR(text, want) check_expr(__LINE__, text, want)

/* The whole ast_print contains `want`. */
static void check_ast_has(int line, const char *text, const char *want)
{
    Parsed p;
    checks++;
    parse(&p, text);
    if (p.diags.n)
        printf("FAIL line %d: unexpected errors for\n%s\n%s", line, text, p.errs), failures++;
    else if (!strstr(p.ast, want))
        printf("FAIL line %d: for\n%s\nwant %s\ngot\n%s", line, text, want, p.ast), failures++;
    done(&p);
}
#define HAS(text, want) check_ast_has(__LINE__, text, want)

/* The rendered diagnostics contain "t.py:LOC: error: MSG". */
static void check_error(int line, const char *text, const char *loc, const char *msg)
{
    Parsed p;
    char want[512];
    checks++;
    parse(&p, text);
    snprintf(want, sizeof want, "t.py:%s: error: %s", loc, msg);
    if (!strstr(p.errs, want))
        printf("FAIL line %d: for\n%s\nwant %s\ngot\n%s", line, text, want, p.errs), failures++;
    done(&p);
}
#define ERR(text, loc, msg) check_error(__LINE__, text, loc, msg)

/* Number of errors. */
static void check_nerrors(int line, const char *text, int n)
{
    Parsed p;
    checks++;
    parse(&p, text);
    if (p.diags.nerrors != n)
        printf("FAIL line %d: for\n%s\nwant %d errors, got %d:\n%s", line, text, n,
               p.diags.nerrors, p.errs), failures++;
    done(&p);
}
#define NERR(text, n) check_nerrors(__LINE__, text, n)

/* The layout filter's token stream, as short names (fe_tok_name). */
static void check_tokens(int line, const char *text, const char *want)
{
    Arena *arena = arena_new();
    DiagList diags;
    Source src = {"t.py", text, strlen(text)};
    FeParser *p = calloc(1, sizeof *p);
    StrBuf sb;
    checks++;
    diag_init(&diags);
    sb_init(&sb);
    p->arena = arena;
    p->src = &src;
    p->diags = &diags;
    fe_scan_init(p);
    fe_layout_init(p);
    for (int i = 0; i < 200; i++) {
        FeTok t;
        fe_layout_next(p, &t);
        if (i)
            sb_putc(&sb, ' ');
        sb_puts(&sb, fe_tok_name(t.kind));
        if (t.kind == 0)
            break;
    }
    fe_scan_done(p);
    if (strcmp(sb.data, want) != 0)
        printf("FAIL line %d: tokens of\n%s\nwant %s\ngot  %s\n", line, text, want, sb.data),
            failures++;
    sb_free(&sb);
    free(p);
    diag_free(&diags);
    arena_free(arena);
}
#define TOKENS(text, want) check_tokens(__LINE__, text, want)

/* ---- layout ----------------------------------------------------------------------------------- */

static void test_layout(void)
{
    TOKENS("x = 1\n", "n = 1 NL EOF");
    TOKENS("x = 1", "n = 1 NL EOF");
    TOKENS("", "EOF");
    TOKENS("\n\n  \n# c\n", "EOF");
    TOKENS("if x:\n    y\nz\n", "if n : NL IN n NL DE n NL EOF");
    TOKENS("if x:\n    if y:\n        z\n", "if n : NL IN if n : NL IN n NL DE DE EOF");
    TOKENS("if x:\n    y\n\n    # comment\n        # deeper comment\n    z\n",
           "if n : NL IN n NL n NL DE EOF");
    TOKENS("x = (1,\n  2,\n\n 3)\n", "n = ( 1 , 1 , 1 ) NL EOF");
    TOKENS("x = [1 +\n1]\n", "n = [ 1 + 1 ] NL EOF");
    TOKENS("x = 1 + \\\n    2\n", "n = 1 + 1 NL EOF");
    TOKENS("if x:\n\ty\n        z\n", "if n : NL IN n NL n NL DE EOF"); /* tab == 8 */
    TOKENS("class A:\n    x = 1\ny\n", "UNSUP NL IN n = 1 NL DE n NL EOF");
    TOKENS("x = lambda a: a, 2\n", "n = lambda n : n , 1 NL EOF");
    TOKENS("x = [a for a in b]\n", "n = [ n ? n ? n ] NL EOF"); /* a list comprehension */
    TOKENS("x = f(a for a in b)\n", "n = n ( n ) NL EOF");       /* a generator: an error */
    TOKENS("x = {1: 2}\n", "n = ? 1 : 1 ? NL EOF"); /* a dict display: the typer's */
    TOKENS("if x:\n    y\n  z\n", "if n : NL IN n NL DE n NL EOF");
    ERR("if x:\n    y\n  z\n", "3:3", "unindent does not match any outer indentation level");
    ERR("x = 1\n    y = 2\n", "2:5", "unexpected indent");
    NERR("x = 1\n    y = 2\n    z = 3\nw = 4\n", 1);
    ERR("x = (1,\n", "1:5", "'(' was never closed");
    ERR("x = 1)\n", "1:6", "unmatched ')'");
    /* bytes that are not UTF-8 are an error anywhere, comments and strings included, as Python
     * refuses such a file; well-formed non-ASCII text is fine there */
    ERR("x = 1  # caf\xe9\n", "1:13", "invalid UTF-8 sequence in source (byte 0xe9)");
    ERR("x = 'caf\xe9'\n", "1:9", "invalid UTF-8 sequence in source (byte 0xe9)");
    ERR("x = '''a\nb\xc3'''\n", "2:2", "invalid UTF-8 sequence in source (byte 0xc3)");
    ERR("x = '\xed\xa0\x80'\n", "1:6", "invalid UTF-8 sequence in source (byte 0xed)");
    ERR("x = '\xe0\x80\xaf'\n", "1:6", "invalid UTF-8 sequence in source (byte 0xe0)");
    NERR("x = 'ok \xcf\x80 \xc3\xa9'  # \xc3\xbcn\xc3\xaf" "code \xf0\x9f\x98\x80\n", 0);
    ERR("x = (1]\n", "1:7", "closing ']' does not match opening '('");
    ERR("if x:\ny = 1\n", "2:1", "expected an indented block");
    STMT("if x:\n\n  # c\n\n  y = 1\n", "(if@1:1 x\n    (then\n      (assign@5:3 (y) 1)))");
}

/* ---- expressions ------------------------------------------------------------------------------- */

static void test_expressions(void)
{
    EXPR("1 + 2 * 3", "(+ 1 (* 2 3))");
    EXPR("(1 + 2) * 3", "(* (+ 1 2) 3)");
    EXPR("1 - 2 - 3", "(- (- 1 2) 3)");
    EXPR("2 ** 3 ** 2", "(** 2 (** 3 2))");
    EXPR("-2 ** 2", "(- (** 2 2))");
    EXPR("2 ** -1", "(** 2 (- 1))");
    EXPR("-x.y[0](1)", "(- (call (index (. x y) 0) 1))");
    EXPR("~a & b | c ^ d", "(| (& (~ a) b) (^ c d))");
    EXPR("a << 1 + 2", "(<< a (+ 1 2))");
    EXPR("a // b % c * d / e @ f", "(@ (/ (* (% (// a b) c) d) e) f)");
    EXPR("a < b <= c", "(compare a < b <= c)");
    EXPR("(a < b) < c", "(compare (compare a < b) < c)");
    EXPR("a == b != c > d >= e", "(compare a == b != c > d >= e)");
    EXPR("a is not b", "(compare a is not b)");
    EXPR("a not in b", "(compare a not in b)");
    EXPR("a in b", "(compare a in b)");
    EXPR("not a == b", "(not (compare a == b))");
    EXPR("a or b and not c", "(or a (and b (not c)))");
    EXPR("a and b or c", "(or (and a b) c)");
    EXPR("a if c else b", "(ifexp c a b)");
    EXPR("a if c else b if d else e", "(ifexp c a (ifexp d b e))");
    EXPR("a or b if c or d else e", "(ifexp (or c d) (or a b) e)");
    EXPR("0x1F + 0o17 + 0b101 + 1_000", "(+ (+ (+ 31 15) 5) 1000)");
    EXPR("0", "0");
    EXPR("9223372036854775807", "9223372036854775807");
    EXPR("1.", "1.0");
    EXPR(".5", "0.5");
    EXPR("1e3", "1000.0");
    EXPR("1.5E-3", "0.0015");
    EXPR("1_0.2_5", "10.25");
    EXPR("True", "True");
    EXPR("None", "None");
    EXPR("'a' \"b\"", "\"ab\"");
    EXPR("'''x\ny'''", "\"x\\ny\"");
    EXPR("\"\"\"q\"\"\"", "\"q\"");
    EXPR("r'\\n'", "\"\\\\n\"");
    EXPR("'\\t\\x41\\u00e9\\101'", "\"\\tA\xc3\xa9" "A\"");
    EXPR("f(a, b=1, c=2)", "(call f a (kw b 1) (kw c 2))");
    EXPR("f()", "(call f)");
    EXPR("f(a,)", "(call f a)");
    EXPR("a[i, j]", "(index a (tuple i j))");
    EXPR("a[i,]", "(index a (tuple i))");
    EXPR("a[1:2]", "(index a (slice 1 2 _))");
    EXPR("a[:, ::1]", "(index a (tuple (slice _ _ _) (slice _ _ 1)))");
    EXPR("a[::-1]", "(index a (slice _ _ (- 1)))");
    EXPR("a[1:2:3, i]", "(index a (tuple (slice 1 2 3) i))");
    EXPR("float64[:, ::1]", "(index float64 (tuple (slice _ _ _) (slice _ _ 1)))");
    EXPR("1, 2", "(tuple 1 2)");
    EXPR("1,", "(tuple 1)");
    EXPR("()", "(tuple)");
    EXPR("(1,)", "(tuple 1)");
    EXPR("(1)", "1");
    EXPR("[]", "(list)");
    EXPR("[1, 2,]", "(list 1 2)");
    EXPR("a.shape[0]", "(index (. a shape) 0)");
    EXPR("np.float32(x)", "(call (. np float32) x)");
}

/* ---- statements ----------------------------------------------------------------------------------- */

static void test_statements(void)
{
    STMT("x = 1\n", "(assign@1:1 (x) 1)");
    STMT("a = b = 0\n", "(assign@1:1 (a b) 0)");
    STMT("i, j = cuda.grid(2)\n", "(assign@1:1 ((tuple i j)) (call (. cuda grid) 2))");
    STMT("(i, j) = 1, 2\n", "(assign@1:1 ((tuple i j)) (tuple 1 2))");
    STMT("a[i] = a.b = 1\n", "(assign@1:1 ((index a i) (. a b)) 1)");
    STMT("x += 1\n", "(+=@1:1 x 1)");
    STMT("x -= 1\n", "(-=@1:1 x 1)");
    STMT("x *= 1\n", "(*=@1:1 x 1)");
    STMT("x /= 1\n", "(/=@1:1 x 1)");
    STMT("x //= 1\n", "(//=@1:1 x 1)");
    STMT("x %= 1\n", "(%=@1:1 x 1)");
    STMT("x **= 1\n", "(**=@1:1 x 1)");
    STMT("x <<= 1\n", "(<<=@1:1 x 1)");
    STMT("x >>= 1\n", "(>>=@1:1 x 1)");
    STMT("x &= 1\n", "(&=@1:1 x 1)");
    STMT("x |= 1\n", "(|=@1:1 x 1)");
    STMT("x ^= 1\n", "(^=@1:1 x 1)");
    STMT("a[i, j] += 1\n", "(+=@1:1 (index a (tuple i j)) 1)");
    STMT("f(x)\n", "(expr@1:1 (call f x))");
    STMT("pass\n", "(pass@1:1)");
    STMT("while x:\n    break\n", "(while@1:1 x\n    (break@2:5))");
    STMT("while x:\n    continue\n", "(while@1:1 x\n    (continue@2:5))");
    STMT("for i in range(10):\n    pass\n", "(for@1:1 i (call range 10)\n    (pass@2:5))");
    STMT("for i, j in x: pass\n", "(for@1:1 (tuple i j) x\n    (pass@1:16))");
    STMT("if a:\n    x\nelif b:\n    y\nelse:\n    z\n",
         "(if@1:1 a\n    (then\n      (expr@2:5 x))\n    (else\n      (if@3:1 b\n        "
         "(then\n          (expr@4:5 y))\n        (else\n          (expr@6:5 z)))))");
    STMT("if a: x = 1; y = 2\n", "(if@1:1 a\n    (then\n      (assign@1:7 (x) 1)\n      (assign@1:14 (y) 2)))");
    STMT("def f():\n    return\n", "(def@1:1 f ()\n    (return@2:5))");
    STMT("def f(a, b=1.5):\n    return a, b\n",
         "(def@1:1 f (a (b = 1.5))\n    (return@2:5 (tuple a b)))");
    STMT("def f(a):\n    \"\"\"Doc.\"\"\"\n    return a\n",
         "(def@1:1 f (a)\n    (doc \"Doc.\")\n    (return@3:5 a))");
    STMT("def f(): return 1\n", "(def@1:1 f ()\n    (return@1:10 1))");
    /* a lambda is an inner def: assigned alone to a name, that def under the name */
    STMT("f = lambda x, y=2: x * y\n", "(def@1:1 f (x (y = 2))\n    (return@1:20 (* x y)))");
    STMT("f = lambda: 5\n", "(def@1:1 f ()\n    (return@1:13 5))");
    EXPR("(lambda x: x + 1)(2)", "(call (lambda (x) (+ x 1)) 2)");
    STMT("g(lambda a: lambda b: a + b)\n", "(expr@1:1 (call g (lambda (a) (lambda (b) (+ a b)))))");
    STMT("g(lambda x: x if x else 0)\n", "(expr@1:1 (call g (lambda (x) (ifexp x x 0))))");
    EXPR("[lambda: 1, 2]", "(list (lambda () 1) 2)");
    STMT("f = g = lambda x: x\n", "(assign@1:1 (f g) (lambda (x) x))");
    STMT("f, g = lambda: 1, 2\n", "(assign@1:1 ((tuple f g)) (tuple (lambda () 1) 2))");
    STMT("sorted(l, key=lambda t: t[1])\n",
         "(expr@1:1 (call sorted l (kw key (lambda (t) (index t 1)))))");
    STMT("import math\n", "(import@1:8 math)");
    STMT("import numpy as np\n", "(import@1:8 numpy as np)");
    STMT("from numba import njit, cuda\n", "(from@1:1 numba import njit cuda)");
    STMT("from numba import vectorize as vec\n", "(from@1:1 numba import (vectorize as vec))");
    STMT("from numba import (njit,\n    jit,)\n", "(from@1:1 numba import njit jit)");
    STMT("x = 1;\n", "(assign@1:1 (x) 1)");
    HAS("import numba.cuda, math\n", "(import@1:8 numba.cuda)\n  (import@1:20 math)");
    HAS("if __name__ == \"__main__\":\n    print(f(np.arange(10.0)))\n",
        "(expr@2:5 (call print (call f (call (. np arange) 10.0))))");
    HAS("print(\"x\", end=\"\")\nprint('%d' % 3)\na.sum()\n", "(kw end \"\")");
    HAS("@njit(cache=True, fastmath=True)\ndef f(x):\n    return x\n",
        "(decorator (call njit (kw cache True) (kw fastmath True)))");
    HAS("@vectorize(['float64(float64, float64)', float32(float32, float32)], target='parallel')\n"
        "def f(a, b):\n    return a + b\n",
        "(list \"float64(float64, float64)\" (call float32 float32 float32))");
    HAS("@guvectorize([(float64[:], float64[:], float64[:])], '(n),(n)->()')\ndef g(a, b, c):\n    pass\n",
        "(list (tuple (index float64 (slice _ _ _)) (index float64 (slice _ _ _)) (index float64 (slice _ _ _))))");
}

/* ---- locations ------------------------------------------------------------------------------------ */

static void test_locations(void)
{
    Parsed p;
    checks++;
    parse(&p, "def f(x):\n    y = x + foo(1,\n      2)\n    return y\n");
    Node *def = p.mod->list.items[0];
    Node *asg = def->list.items[0];
    Node *add = asg->a;
    if (def->loc.line != 1 || def->loc.col != 1 || def->loc.len != 9)
        FAIL("def loc %d:%d+%d", def->loc.line, def->loc.col, def->loc.len);
    if (add->loc.line != 2 || add->loc.col != 9 || add->loc.len != 10)
        FAIL("binop loc %d:%d+%d", add->loc.line, add->loc.col, add->loc.len);
    if (add->a->loc.col != 9 || add->a->loc.len != 1)
        FAIL("name loc %d:%d+%d", add->a->loc.line, add->a->loc.col, add->a->loc.len);
    if (add->b->loc.col != 13 || add->b->loc.len != 6)
        FAIL("call loc %d:%d+%d", add->b->loc.line, add->b->loc.col, add->b->loc.len);
    if (p.mod->list.items[0]->loc.src != &p.src)
        FAIL("loc.src");
    done(&p);

    ERR("x = 1\ny = x + else\n", "2:9", "expected an expression, found 'else'");
    /* the caret and underline */
    parse(&p, "def f(x):\n    y = = 2\n");
    checks++;
    if (!strstr(p.errs, "t.py:2:9: error: expected an expression, found '='\n    2 |     y = = 2\n"
                        "      |         ^\n"))
        FAIL("rendering:\n%s", p.errs);
    done(&p);
}

/* ---- unsupported constructs and recovery ----------------------------------------------------------- */

static void test_unsupported(void)
{
    ERR("class A:\n    pass\n", "1:1", "'class' is not supported by numjit");
    ERR("def f():\n    g = lambda x: x\n    h = lambda x=1, y: x\n", "3:21",
        "parameter without a default follows parameter with a default");
    ERR("g = lambda x, x: x\n", "1:15", "duplicate parameter 'x' in function definition");
    ERR("g = lambda **k: k\n", "1:12", "'**k' parameters are not supported by numjit");
    ERR("with a as b:\n    pass\n", "1:1", "'with' is not supported by numjit");
    NERR("try:\n    x\nexcept E:\n    y\nfinally:\n    z\n", 0); /* the typer judges handlers */
    NERR("try:\n    x\nexcept E:\n    y\nelse:\n    w\nfinally:\n    z\nq = 1\n", 0);
    NERR("try:\n    x\nexcept:\n    y\nexcept E as e:\n    w\n", 0);
    ERR("try:\n    x\nq = 1\n", "3:1", "expected");
    ERR("except:\n    y\n", "1:1", "invalid syntax: unexpected 'except'");
    NERR("raise ValueError('x')\n", 0);
    NERR("def f(x):\n    raise\n    raise E\n    raise E(1, 'a')\n", 0);
    ERR("raise ValueError('x') from e\n", "1:23", "'raise ... from ...' is not supported by numjit");
    NERR("x = [i for i in a]\n", 0);
    NERR("x = [i * j for i in a if i for j in b if j > i]\n", 0);
    ERR("x = sum(i for i in a)\n", "1:11", "generator expressions are not supported");
    NERR("def f():\n    yield 1\n    yield\n    yield a, b\n", 0); /* typer_gen.c */
    ERR("def f():\n    x = yield 1\n", "2:9", "'yield' is supported as a statement only");
    ERR("yield 1\n", "1:1", "'yield' outside function");
    ERR("global x\n", "1:1", "'global' is not supported by numjit");
    ERR("def f():\n    nonlocal x\n", "2:5", "'nonlocal' is not supported by numjit");
    ERR("async def f():\n    pass\n", "1:1", "'async' is not supported by numjit");
    ERR("def f():\n    await g()\n", "2:5", "'await' is not supported by numjit");
    NERR("del x\n", 0); /* the typer refuses what it cannot delete */
    NERR("assert x\nassert x > 0, 'message'\n", 0);
    ERR("assert\n", "1:7", "expected");
    NERR("def f(x):\n    return f\"{x} and {x + 1}}}{{\" f'{(x, 1)[0]}' 'y'\n", 0);
    ERR("def f(x):\n    return f\"{x:.2f}\"\n", "2:12", "format spec in f-strings not supported");
    ERR("def f(x):\n    return f\"{x!r}\"\n", "2:12", "format spec in f-strings not supported");
    ERR("def f(x):\n    return f\"{x=}\"\n", "2:12", "format spec in f-strings not supported");
    ERR("def f(x):\n    return f\"{x\"\n", "2:12", "f-string: expecting '}'");
    ERR("def f(x):\n    return f\"a}b\"\n", "2:12", "f-string: single '}' is not allowed");
    ERR("def f(x):\n    return f\"{x +}\"\n", "2:12", "invalid expression in f-string: {x +}");
    NERR("print(f\"{x:.2f}\")\n", 0); /* module-level code runs under Python */
    ERR("if (n := 10) > 5: pass\n", "1:7", "':=' is not supported by numjit");
    NERR("f(*a)\nf(x, *a, y)\n", 0); /* *t in calls (ND_STARRED): the typer unpacks tuples */
    ERR("f(**a)\n", "1:3", "'**' arguments are not supported by numjit");
    NERR("def f(*a): pass\ndef g(x, y=1, *rest): pass\n", 0); /* *args: a tuple (ival 1) */
    ERR("def f(*a, b): pass\n", "1:11", "keyword-only parameters are not supported by numjit");
    ERR("def f(**kw): pass\n", "1:7", "'**kw' parameters are not supported by numjit");
    NERR("x = {1, 2}\n", 0); /* set and dict displays: the typer judges them */
    NERR("x = {}\ny = {1: 2.5, 3: 4.0}\n", 0);
    NERR("del d[1], d[2]\n", 0);
    ERR("@a[0]\ndef f(): pass\n", "1:2", "this form of decorator is not supported by numjit");
    NERR("x = 1j + 2.5J\n", 0); /* imaginary literals (ND_IMAG) */
    ERR("x = b'a'\n", "1:5", "bytes literals are not supported by numjit");
    ERR("x = 99999999999999999999\n", "1:5", "integer literal is too large for uint64");
    ERR("x = 0777\n", "1:5", "leading zeros in decimal integer literals are not permitted");
    ERR("x = 'abc\n", "1:5", "unterminated string literal");
    ERR("x = '''abc\n", "1:5", "unterminated triple-quoted string literal");
    ERR("x = a ? b\n", "1:7", "invalid character '?' in source");
    NERR("x: int = 1\ny: float\n", 0); /* annotations are ignored, as Numba ignores them */
    NERR("def f(x: int, y: 'float' = 2.0) -> int:\n    z: int = x\n    return z\n", 0);
    ERR("1: int = x\n", "1:1", "cannot assign to a literal");
    ERR("1 = x\n", "1:1", "cannot assign to a literal");
    ERR("f() = x\n", "1:1", "cannot assign to a function call");
    ERR("x, y += 1\n", "1:1", "cannot use a tuple as the target of an augmented assignment");
    ERR("f(a=1, 2)\n", "1:8", "positional argument follows keyword argument");
    ERR("f(a=1, a=2)\n", "1:8", "keyword argument repeated: 'a'");
    ERR("f(a + 1=2)\n", "1:3", "expression cannot be a keyword argument");
    ERR("def f(a, a): pass\n", "1:10", "duplicate parameter 'a'");
    ERR("return 1\n", "1:1", "'return' outside function");
    ERR("break\n", "1:1", "'break' outside loop");
    ERR("def f():\n    continue\n", "2:5", "'continue' not properly in loop");
    ERR("if x\n    pass\n", "1:5", "expected ':', found end of line");
    ERR("def (x): pass\n", "1:5", "expected a name, found '('");
    ERR("print(1 2)\n", "1:9", "expected ')' or ',', found number");
    /* several errors in one file, one per broken line */
    NERR("x = = 1\ny = 2\nz = = 3\ndef f x:\n    pass\nclass A: pass\nw = (1 +\n", 5);
    NERR("def f(x):\n    if x\n        return 1\n    return 2\n", 1);
    /* nesting limits */
    {
        char buf[2048];
        int n = 0;
        n += sprintf(buf, "x = ");
        for (int i = 0; i < 250; i++)
            buf[n++] = '(';
        buf[n++] = '1';
        for (int i = 0; i < 250; i++)
            buf[n++] = ')';
        buf[n++] = '\n';
        buf[n] = 0;
        ERR(buf, "1:205", "too many nested parentheses");
    }
}

/* ---- the module table ------------------------------------------------------------------------------ */

static const FuncInfo *func(Parsed *p, const char *name)
{
    const FuncInfo *f = p->info ? fe_find_func(p->info, name) : NULL;
    if (!f)
        FAIL("no function %s in\n%s", name, p->src.text);
    return f;
}

static void test_module(void)
{
    Parsed p;
    const FuncInfo *f;
    checks++;
    parse(&p,
          "import math\nimport numpy as np\nimport numba as nb\nimport numba\n"
          "from numba import njit, jit, cuda, vectorize as vec, guvectorize\n"
          "from math import sqrt\n"
          "TPB = 16\nEPS = 1e-9\nTWO = TPB * 2\nFLAG = True\nNOTC = np.pi\nGONE = 1\nGONE = f(2)\n"
          "A, B = 1, 2.5\n"
          "\n"
          "@njit(cache=True, fastmath=True, error_model='numpy', boundscheck=True)\n"
          "def a(x):\n    return x\n\n# trailing comment\n\n"
          "@nb.njit\ndef b(x):\n    return x\n"
          "@numba.jit(nopython=True, parallel=True)\ndef c(x):\n    return x\n"
          "@jit\ndef c2(x):\n    return x\n"
          "@vec(['float64(float64, float64)', 'float32(float32, float32)'], target='parallel', identity=0)\n"
          "def d(x, y):\n    return x + y\n"
          "@vec\ndef d2(x):\n    return x\n"
          "@guvectorize([(float64[:], float64[:], float64[:])], '(n),(n)->()', target='cuda')\n"
          "def e(x, y, out):\n    out[0] = 0\n"
          "@cuda.jit('void(float32[:])')\ndef k(a):\n    pass\n"
          "@cuda.jit(device=True)\ndef dev(a):\n    return a\n"
          "@njit(float64(float64))\ndef g(x):\n    return x\n"
          "@njit('float64(float64)')\ndef g2(x):\n    return x\n"
          "def plain(x):\n    return x\n"
          "@other\ndef notmine(x):\n    return x\n"
          "if __name__ == '__main__':\n    print(a(1.0))\n");
    if (p.diags.n)
        FAIL("errors:\n%s", p.errs);
    if (!p.info) {
        FAIL("no module info");
        done(&p);
        return;
    }
    if (strcmp(fe_resolve_import(p.info, "np"), "numpy") || strcmp(fe_resolve_import(p.info, "nb"), "numba") ||
        strcmp(fe_resolve_import(p.info, "sqrt"), "math.sqrt") ||
        strcmp(fe_resolve_import(p.info, "vec"), "numba.vectorize") ||
        strcmp(fe_resolve_import(p.info, "cuda"), "numba.cuda") || fe_resolve_import(p.info, "zz"))
        FAIL("imports");
    if ((f = func(&p, "a")) && (f->kind != FK_NJIT || !f->cache || !f->fastmath || !f->boundscheck ||
                                f->error_model != EM_NUMPY || strcmp(f->target, "cpu") ||
                                f->sigs.n != 0 || !f->source_text ||
                                strcmp(f->source_text, "@njit(cache=True, fastmath=True, "
                                                       "error_model='numpy', boundscheck=True)\n"
                                                       "def a(x):\n    return x")))
        FAIL("a: kind %d source [%s]", f->kind, f->source_text);
    if ((f = func(&p, "b")) && (f->kind != FK_NJIT || f->cache || f->error_model != EM_PYTHON))
        FAIL("b");
    if ((f = func(&p, "c")) && (f->kind != FK_NJIT || !f->parallel || !f->nopython))
        FAIL("c");
    if ((f = func(&p, "c2")) && f->kind != FK_NJIT)
        FAIL("c2");
    if ((f = func(&p, "d")) && (f->kind != FK_VECTORIZE || f->sigs.n != 2 || strcmp(f->target, "parallel") ||
                                f->error_model != EM_NUMPY || !f->identity || f->identity->ival != 0 ||
                                f->sigs.items[1]->kind != ND_STR))
        FAIL("d");
    if ((f = func(&p, "d2")) && (f->kind != FK_VECTORIZE || f->sigs.n != 0))
        FAIL("d2");
    if ((f = func(&p, "e")) && (f->kind != FK_GUVECTORIZE || !f->layout || strcmp(f->layout, "(n),(n)->()") ||
                                f->sigs.n != 1 || f->sigs.items[0]->kind != ND_TUPLE ||
                                strcmp(f->target, "cuda")))
        FAIL("e");
    if ((f = func(&p, "k")) && (f->kind != FK_KERNEL || f->sigs.n != 1 || strcmp(f->target, "cuda") ||
                                f->error_model != EM_NUMPY))
        FAIL("k");
    if ((f = func(&p, "dev")) && f->kind != FK_DEVICE)
        FAIL("dev");
    if ((f = func(&p, "g")) && (f->sigs.n != 1 || f->sigs.items[0]->kind != ND_CALL))
        FAIL("g");
    if ((f = func(&p, "g2")) && (f->sigs.n != 1 || f->sigs.items[0]->kind != ND_STR))
        FAIL("g2");
    if ((f = func(&p, "plain")) && (f->kind != FK_PLAIN || f->error_model != EM_PYTHON))
        FAIL("plain");
    if (fe_find_func(p.info, "notmine"))
        FAIL("a def with a foreign decorator is not compiled");
    {
        const char *want[] = {"TPB", "EPS", "TWO", "FLAG", "A", "B"};
        const ConstInfo *mine[8]; /* the program's, without stdlib/cmath.py's */
        int n = 0;
        for (int i = 0; i < p.info->nconsts; i++)
            if (!p.info->consts[i].library && n < 8)
                mine[n++] = &p.info->consts[i];
        if (n != 6)
            FAIL("nconsts %d", n);
        for (int i = 0; i < 6 && i < n; i++)
            if (strcmp(mine[i]->name, want[i]))
                FAIL("const %d is %s", i, mine[i]->name);
        if (n >= 3) {
            Node *v = mine[2]->value; /* TWO = TPB * 2 with TPB copied in */
            if (v->kind != ND_BINOP || v->a->kind != ND_INT || v->a->ival != 16)
                FAIL("TWO");
        }
    }
    done(&p);

    ERR("from numba import guvectorize\n@guvectorize(['void(f8[:], f8[:])'], '(n)->(n')\ndef f(a, b): pass\n",
        "2:38", "invalid gufunc layout '(n)->(n': expected ',' or ')' at character 8");
    ERR("from numba import guvectorize\n@guvectorize(['void(f8[:], f8[:])'], '(n)(n)')\ndef f(a, b): pass\n",
        "2:38", "invalid gufunc layout '(n)(n)': expected '->' at character 4");
    ERR("from numba import guvectorize\n@guvectorize(['void(f8[:], f8[:])'])\ndef f(a, b): pass\n",
        "2:2", "@guvectorize needs a layout string");
    ERR("from numba import njit\n@njit(cahce=True)\ndef f(a): pass\n", "2:7", "unknown option 'cahce' for @njit");
    ERR("from numba import njit\n@njit(error_model='c')\ndef f(a): pass\n", "2:19", "error_model must be 'python' or 'numpy'");
    ERR("from numba import njit\n@njit(cache=3.0)\ndef f(a): pass\n", "2:13", "option 'cache' must be True or False");
    ERR("from numba import jit\n@jit(nopython=False)\ndef f(a): pass\n", "2:6", "object mode (nopython=False) is not supported");
    ERR("from numba import vectorize\n@vectorize(target='gpu')\ndef f(a): pass\n", "2:19", "target must be 'cpu', 'parallel' or 'cuda'");
    ERR("import numba\n@numba.stencil\ndef f(a): pass\n", "2:2", "'@stencil' is not supported by numjit");
    ERR("from numba import cuda\n@cuda.jit(device=True, foo=1)\ndef f(a): pass\n", "2:24", "unknown option 'foo' for @cuda.jit");
    /* decorators through numjit's own package, and with no import at all */
    parse(&p, "from numjit import njit as nj\n@nj\ndef f(a): pass\n@vectorize\ndef g(a): pass\n");
    checks++;
    if (!p.info || !fe_find_func(p.info, "f") || fe_find_func(p.info, "f")->kind != FK_NJIT ||
        !fe_find_func(p.info, "g") || fe_find_func(p.info, "g")->kind != FK_VECTORIZE)
        FAIL("numjit decorators");
    done(&p);
}

/* ---- robustness --------------------------------------------------------------------------------- */

static void test_robustness(void)
{
    static const char *inputs[] = {
        "", "\n", "\\", "(", ")", "]]]]", "'''", "\"", "@", "@\n", "def", "def f(", "if", "\t\t\tx",
        "x = \\\n", "if x:\n", "if x:\n  y\n z\n", "\0x = 1", "x = 1\n\f  y = 2\n", "\xff\xfe",
        "def f():\n    '''doc'''\n", "class", "lambda", "x = (lambda: (yield))", "for for for",
        "lambda:", "x = lambda", "f(lambda x, : 1)", "lambda lambda: 1", "x = lambda: lambda",
        "x = [for]", "{{{{", "}}}}", "x = 1 if", "import", "from . import x", "a[::,:,]",
        "a = b = c = ", "x = $", "\r\nx = 1\r\n", "from x import *",
    };
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        Parsed p;
        checks++;
        parse(&p, inputs[i]);
        if (!p.mod)
            FAIL("no module for input %zu", i);
        done(&p);
    }
    /* very long and very deep inputs finish with an error, no crash */
    size_t n = 200000;
    char *buf = malloc(n + 16);
    const char *pats[] = {"-", "(", "a.", "2**", "x<", "not ", "[", "f(", "\"s\" ", "1+"};
    for (size_t k = 0; k < sizeof pats / sizeof pats[0]; k++) {
        size_t l = strlen(pats[k]), o = 0;
        Parsed p;
        memcpy(buf, "x = ", 4);
        o = 4;
        while (o + l < n) {
            memcpy(buf + o, pats[k], l);
            o += l;
        }
        memcpy(buf + o, "1\n", 3);
        checks++;
        parse(&p, buf);
        if (!p.mod)
            FAIL("no module for deep input %s", pats[k]);
        done(&p);
    }
    free(buf);
    /* many long defs: each def's source text is found from the last one's, not from the start
     * of the file (that was the defs times the text's length: several seconds of CPU here) */
    size_t ndefs = 2000, body = 100, cap = ndefs * (body * 12 + 40);
    char *text = malloc(cap);
    size_t o = 0, quarter = 0;
    for (size_t k = 0; k < ndefs; k++) {
        if (k == ndefs / 4)
            quarter = o;
        o += (size_t)snprintf(text + o, cap - o, "@njit\ndef f%zu(x):\n", k);
        for (size_t j = 0; j < body; j++)
            o += (size_t)snprintf(text + o, cap - o, "    x = 1\n");
    }
    /* a quarter of the text first: linear work takes 4 times as long for the whole, the old
     * quadratic search 16 times (a ratio, so a slow machine or a sanitizer build does not
     * matter) */
    Parsed p;
    char saved = text[quarter];
    text[quarter] = '\0';
    clock_t t0 = clock();
    parse(&p, text);
    double small = (double)(clock() - t0) / CLOCKS_PER_SEC;
    done(&p);
    text[quarter] = saved;
    t0 = clock();
    parse(&p, text);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    const FuncInfo *f = p.info ? fe_find_func(p.info, "f1999") : NULL;
    checks++;
    if (!f || !f->source_text || strncmp(f->source_text, "@njit\ndef f1999(x):\n    x = 1\n", 30) ||
        strlen(f->source_text) != 20 + body * 10 - 1)
        FAIL("source of the last of many defs: [%.40s]", f && f->source_text ? f->source_text : "");
    if (secs > 10 * small + 0.5)
        FAIL("%zu defs of %zu lines took %.1f s of CPU, a quarter of them %.2f s", ndefs, body,
             secs, small);
    done(&p);
    free(text);
}

static void test_tables(void)
{
    checks++;
    if (strcmp(ast_op_spelling[OP_FLOORDIV], "//") || strcmp(ast_op_spelling[OP_NOTIN], "not in") ||
        strcmp(ast_kind_name[ND_FUNCDEF], "def") || strcmp(ast_kind_name[ND_MODULE], "module"))
        FAIL("name tables");
}

int main(void)
{
    test_tables();
    test_layout();
    test_expressions();
    test_statements();
    test_locations();
    test_unsupported();
    test_module();
    test_robustness();
    printf("frontend: %d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
