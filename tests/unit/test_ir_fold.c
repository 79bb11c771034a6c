/* test_ir_fold.c — test_ir's checks of constant folding (ir/pass_fold.c): one expression at a
 * time (wraparound at the width, Python's // and %, no fold of a division by zero, of
 * MIN // -1, of out-of-range shifts and casts), then whole functions (condbr on a constant,
 * select, dead values removed).  test_ir.c's main runs them.
 */
#include "test_ir.h"

/* ---- folding ------------------------------------------------------------------------------- */
/* Folds "func @f() -> RET ... { b0: BODY; ret %9 }" and returns what %9 became: the constant's
 * spelling, or "no" when it was not folded. */
static char *fold_result(const char *ret, const char *body) {
    static char out[128];
    char text[2048];
    snprintf(text, sizeof text, "target cpu\n\nfunc @f() -> %s njit numpy {\nb0:\n%s\n  ret %%9\n}\n",
             ret, body);
    Arena *a = arena_new();
    char *errs;
    IrProgram *p = parse_text(a, text, &errs);
    CHECK(p != NULL, "fold test does not parse:\n%s\n%s", errs, text);
    free(errs);
    snprintf(out, sizeof out, "(error)");
    if (p && verify_clean(p, text)) {
        ir_pass_fold(p);
        verify_clean(p, "folded");
        const IrInst *r = p->funcs[0]->blocks[0]->last->args[0];
        if (r->op == IR_CONST) {
            char *t = print_program(p);
            const char *s = strstr(t, "%9 = const ");
            const char *e = s ? strstr(s, " : ") : NULL;
            if (s && e)
                snprintf(out, sizeof out, "%.*s", (int)(e - s - 11), s + 11);
            free(t);
        } else {
            snprintf(out, sizeof out, "no");
        }
    }
    arena_free(a);
    return out;
}

static void fold_bin(const char *ty, const char *op, const char *x, const char *y,
                     const char *want) {
    char body[512];
    snprintf(body, sizeof body, "  %%0 = const %s : %s\n  %%1 = const %s : %s\n  %%9 = %s %%0, %%1 : %s",
             x, ty, y, ty, op, ty);
    const char *got = fold_result(ty, body);
    CHECK(!strcmp(got, want), "%s %s %s : %s gave %s, wanted %s", op, x, y, ty, got, want);
}

static void fold_cmp(const char *ty, const char *pred, const char *x, const char *y,
                     const char *want) {
    char body[512];
    snprintf(body, sizeof body,
             "  %%0 = const %s : %s\n  %%1 = const %s : %s\n  %%9 = cmp %s %%0, %%1 : bool", x, ty,
             y, ty, pred);
    const char *got = fold_result("bool", body);
    CHECK(!strcmp(got, want), "cmp %s %s %s : %s gave %s, wanted %s", pred, x, y, ty, got, want);
}

static void fold_un(const char *from, const char *op, const char *x, const char *to,
                    const char *want) {
    char body[512];
    snprintf(body, sizeof body, "  %%0 = const %s : %s\n  %%9 = %s %%0 : %s", x, from, op, to);
    const char *got = fold_result(to, body);
    CHECK(!strcmp(got, want), "%s %s (%s) : %s gave %s, wanted %s", op, x, from, to, got, want);
}

void test_fold_values(void) {
    /* wraparound at the width */
    fold_bin("int8", "add", "127", "1", "-128");
    fold_bin("uint8", "add", "200", "100", "44");
    fold_bin("int16", "mul", "300", "300", "24464");
    fold_bin("int64", "add", "9223372036854775807", "1", "-9223372036854775808");
    fold_bin("uint64", "sub", "0", "1", "18446744073709551615");
    fold_bin("int32", "sub", "-2147483648", "1", "2147483647");
    fold_un("int8", "neg", "-128", "int8", "-128");
    fold_un("uint16", "invert", "0", "uint16", "65535");
    fold_un("int32", "invert", "5", "int32", "-6");
    fold_un("bool", "invert", "true", "bool", "false");
    fold_un("bool", "not", "false", "bool", "true");
    /* Python's // and % */
    fold_bin("int64", "floordiv", "-7", "2", "-4");
    fold_bin("int64", "mod", "-7", "2", "1");
    fold_bin("int64", "floordiv", "7", "-2", "-4");
    fold_bin("int64", "mod", "7", "-2", "-1");
    fold_bin("int64", "mod", "-6", "3", "0");
    fold_bin("int32", "floordiv", "-1", "3", "-1");
    fold_bin("uint64", "floordiv", "18446744073709551615", "2", "9223372036854775807");
    fold_bin("float64", "floordiv", "-7.0", "2.0", "-4.0");
    fold_bin("float64", "mod", "7.5", "-2.0", "-0.5");
    fold_bin("float64", "mod", "-6.0", "3.0", "0.0");
    fold_bin("float64", "mod", "6.0", "-3.0", "-0.0");
    fold_bin("float64", "floordiv", "1.0", "3.0", "0.0");
    fold_bin("float64", "floordiv", "-1.0", "3.0", "-1.0");
    fold_bin("float32", "mod", "-1.5", "0.5", "0.0");
    /* never a division by zero, nor what the hardware would trap on */
    fold_bin("int64", "floordiv", "5", "0", "no");
    fold_bin("int64", "mod", "5", "0", "no");
    fold_bin("uint8", "mod", "5", "0", "no");
    fold_bin("float64", "div", "1.0", "0.0", "no");
    fold_bin("float64", "div", "1.0", "-0.0", "no");
    fold_bin("float64", "floordiv", "1.0", "0.0", "no");
    fold_bin("float32", "mod", "1.0", "0.0", "no");
    fold_bin("int64", "floordiv", "-9223372036854775808", "-1", "no");
    fold_bin("int64", "mod", "-9223372036854775808", "-1", "no");
    fold_bin("int8", "floordiv", "-128", "-1", "no");
    fold_bin("float64", "floordiv", "inf", "2.0", "no");
    /* floats */
    fold_bin("float64", "add", "0.1", "0.2", "0.30000000000000004");
    fold_bin("float32", "add", "0.1", "0.2", "0.30000001192092896");
    fold_bin("float64", "div", "1.0", "3.0", "0.3333333333333333");
    fold_bin("float64", "mul", "1e308", "10.0", "inf");
    fold_bin("float64", "sub", "inf", "inf", "-nan"); /* x86's default NaN has the sign set */
    fold_bin("float64", "pow", "2.0", "3.0", "no");
    /* integer powers */
    fold_bin("int64", "pow", "3", "4", "81");
    fold_bin("int64", "pow", "2", "64", "0");
    fold_bin("int8", "pow", "3", "5", "-13");
    fold_bin("int64", "pow", "2", "-1", "0");
    fold_bin("int64", "pow", "-1", "-3", "-1");
    fold_bin("int64", "pow", "1", "-3", "1");
    fold_bin("int64", "pow", "0", "-1", "no");
    /* shifts and bits */
    fold_bin("int64", "shl", "1", "63", "-9223372036854775808");
    fold_bin("int64", "shr", "-16", "2", "-4");
    fold_bin("uint8", "shr", "255", "3", "31");
    fold_bin("int32", "shl", "1", "31", "-2147483648");
    fold_bin("int64", "shl", "1", "64", "no");
    fold_bin("int64", "shr", "1", "-1", "no");
    fold_bin("uint32", "shl", "1", "32", "no");
    fold_bin("int64", "bitxor", "12", "10", "6");
    fold_bin("bool", "bitand", "true", "false", "false");
    /* comparisons */
    fold_cmp("int64", "lt", "-1", "0", "true");
    fold_cmp("uint64", "lt", "18446744073709551615", "0", "false");
    fold_cmp("float64", "eq", "nan", "nan", "false");
    fold_cmp("float64", "ne", "nan", "nan", "true");
    fold_cmp("float64", "le", "-0.0", "0.0", "true");
    fold_cmp("float32", "gt", "0.1", "0.1", "false");
    /* casts */
    fold_un("float64", "cast", "3.9", "int32", "3");
    fold_un("float64", "cast", "-3.9", "int64", "-3");
    fold_un("float64", "cast", "1e20", "int64", "no");
    fold_un("float64", "cast", "nan", "int64", "no");
    fold_un("float64", "cast", "-1.0", "uint8", "no");
    fold_un("float64", "cast", "255.5", "uint8", "255");
    fold_un("float64", "cast", "nan", "bool", "true");
    fold_un("float64", "cast", "0.1", "float32", "0.10000000149011612");
    fold_un("int64", "cast", "4294967297", "int32", "1");
    fold_un("int64", "cast", "-1", "uint16", "65535");
    fold_un("int64", "cast", "-1", "uint64", "18446744073709551615");
    fold_un("uint64", "cast", "18446744073709551615", "float64", "1.8446744073709552e+19");
    fold_un("int64", "cast", "16777217", "float32", "16777216.0");
    fold_un("int64", "cast", "9007199254740993", "float64", "9007199254740992.0");
    fold_un("int64", "cast", "2", "bool", "true");
    fold_un("bool", "cast", "true", "float64", "1.0");
    fold_un("float32", "neg", "0.0", "float32", "-0.0");
}

/* Whole functions: text in, text out. */
static void fold_text(const char *in, const char *want) {
    Arena *a = arena_new();
    char *errs;
    IrProgram *p = parse_text(a, in, &errs);
    CHECK(p != NULL, "does not parse:\n%s", errs);
    free(errs);
    if (p) {
        DiagList d;
        diag_init(&d);
        bool ok = ir_run_passes(p, true, &d);
        char *msg = render(&d);
        CHECK(ok, "passes failed:\n%s", msg);
        free(msg);
        diag_free(&d);
        char *out = print_program(p);
        CHECK(!strcmp(out, want), "folded to:\n%s--- wanted:\n%s", out, want);
        free(out);
    }
    arena_free(a);
}

void test_fold_functions(void) {
    fold_text("target cpu\n\n"
              "func @f(x: int64) -> int64 njit python {\n"
              "  var v: int64\n"
              "b0:\n"
              "  %0 = param 0 : int64\n"
              "  %1 = const 2 : int64\n"
              "  %2 = const 3 : int64\n"
              "  %3 = mul %1, %2 : int64\n"
              "  %4 = cmp gt %3, %1 : bool\n"
              "  %5 = load v : int64\n"
              "  %6 = add %5, %0 : int64\n"
              "  condbr %4, b1, b2\n"
              "b1:\n"
              "  %7 = select %4, %0, %3 : int64\n"
              "  %8 = add %7, %3 : int64\n"
              "  ret %8\n"
              "b2:\n"
              "  ret %3\n"
              "}\n",
              "target cpu\n\n"
              "func @f(x: int64) -> int64 njit python {\n"
              "  var v: int64\n"
              "b0:\n"
              "  %0 = param 0 : int64\n"
              "  %3 = const 6 : int64\n"
              "  br b1\n"
              "b1:\n"
              "  %8 = add %0, %3 : int64\n"
              "  ret %8\n"
              "b2:\n"
              "  ret %3\n"
              "}\n");
    /* a condbr whose targets are equal, a chain of dead values, a call kept (it may raise) */
    fold_text("target cpu\n\n"
              "func @g(x: float64) -> float64 njit python {\n"
              "b0:\n"
              "  %0 = param 0 : float64\n"
              "  %1 = cmp lt %0, %0 : bool\n"
              "  %2 = math sqrt %0 : float64\n"
              "  %3 = neg %2 : float64\n"
              "  %4 = call @g(%3) : float64\n"
              "  %5 = const 1 : int64\n"
              "  %6 = cast %5 : float64\n"
              "  %7 = add %0, %6 : float64\n"
              "  condbr %1, b1, b1\n"
              "b1:\n"
              "  ret %7\n"
              "}\n",
              "target cpu\n\n"
              "func @g(x: float64) -> float64 njit python {\n"
              "b0:\n"
              "  %0 = param 0 : float64\n"
              "  %2 = math sqrt %0 : float64\n"
              "  %3 = neg %2 : float64\n"
              "  %4 = call @g(%3) : float64\n"
              "  %6 = const 1.0 : float64\n"
              "  %7 = add %0, %6 : float64\n"
              "  br b1\n"
              "b1:\n"
              "  ret %7\n"
              "}\n");
}

