/* test_ir.c — unit tests of the typed IR's text form, verifier and constant folding.
 *
 *   round trip   programs built with ir.c's builder are printed, parsed back and printed again:
 *                the two texts must be equal and both programs verify clean; every
 *                .ir file in tests/golden/ir (the directory is argv[1], else found from
 *                __FILE__) must parse and print back byte for byte.
 *   parse errors bad texts give a located diagnostic ("ir:LINE:COL: error: ...") and NULL.
 *   verifier     broken programs (missing terminator, operand type mismatch, bad block target,
 *                use of an undefined value, instruction after a terminator, use not dominated,
 *                ...) each give the expected message at the instruction's location.
 *   parfor       a parallel loop's text form (its reductions' operators) reads back, and the
 *                verifier checks its operands against the body and the reductions.
 *   folding      (test_ir_fold.c) one expression at a time: wraparound at the width, Python's
 *                // and %, no fold of a division by zero, of MIN // -1, of out-of-range shifts
 *                and casts; then whole functions: condbr on a constant, select, dead values
 *                removed.
 * Prints one line per failure and exits non-zero when any check failed.
 */
#include "test_ir.h"

#include <dirent.h>

int failures, checks;

static const Source py_src = {"t.py", NULL, 0};
static Loc at(int line, int col) { return (Loc){&py_src, line, col, 1}; }
static const Loc noloc = {0};

char *render(const DiagList *d) {
    StrBuf sb;
    sb_init(&sb);
    diag_render(d, &sb);
    return sb_take(&sb);
}

char *print_program(const IrProgram *p) {
    StrBuf sb;
    sb_init(&sb);
    ir_print_program(p, &sb);
    return sb_take(&sb);
}

/* Parses text; NULL with the rendered diagnostics in *errs (malloc'ed) on failure. */
IrProgram *parse_text(Arena *a, const char *text, char **errs) {
    Source *src = arena_alloc(a, sizeof *src);
    src->name = "ir";
    src->text = arena_strdup(a, text);
    src->len = strlen(text);
    DiagList d;
    diag_init(&d);
    IrProgram *p = ir_parse(a, src, &d);
    if (errs)
        *errs = render(&d);
    diag_free(&d);
    return p;
}

bool verify_clean(const IrProgram *p, const char *what) {
    DiagList d;
    diag_init(&d);
    bool ok = ir_verify(p, &d);
    char *msg = render(&d);
    CHECK(ok && d.n == 0, "%s does not verify:\n%s", what, msg);
    free(msg);
    diag_free(&d);
    return ok;
}

/* print(p) == print(parse(print(p))), and both verify. */
static void check_roundtrip(const IrProgram *p, const char *what) {
    verify_clean(p, what);
    char *t1 = print_program(p);
    Arena *a = arena_new();
    char *errs;
    IrProgram *q = parse_text(a, t1, &errs);
    CHECK(q != NULL, "%s: printed text does not parse:\n%s\n%s", what, errs, t1);
    if (q) {
        verify_clean(q, what);
        char *t2 = print_program(q);
        CHECK(!strcmp(t1, t2), "%s: round trip differs:\n--- first\n%s--- second\n%s", what, t1,
              t2);
        free(t2);
    }
    free(errs);
    free(t1);
    arena_free(a);
}

/* ---- programs built with the builder ------------------------------------------------------- */
static IrInst *emit0(IrFunc *f, IrBlock *b, IrOp op, const Type *t, Loc l) {
    return ir_emit(f, b, op, t, l, 0, NULL);
}
static IrInst *emit1(IrFunc *f, IrBlock *b, IrOp op, const Type *t, Loc l, IrInst *x) {
    return ir_emit(f, b, op, t, l, 1, &x);
}
static IrInst *emit2(IrFunc *f, IrBlock *b, IrOp op, const Type *t, Loc l, IrInst *x, IrInst *y) {
    IrInst *args[2] = {x, y};
    return ir_emit(f, b, op, t, l, 2, args);
}
static IrInst *cint(IrFunc *f, IrBlock *b, const Type *t, int64_t v) {
    IrInst *c = emit0(f, b, IR_CONST, t, noloc);
    c->imm.i = v;
    return c;
}
static IrInst *cflt(IrFunc *f, IrBlock *b, const Type *t, double v) {
    IrInst *c = emit0(f, b, IR_CONST, t, noloc);
    c->imm.f = v;
    return c;
}
static void br(IrFunc *f, IrBlock *b, int target) {
    emit0(f, b, IR_BR, ty_void, noloc)->imm.targets[0] = target;
}
static void condbr(IrFunc *f, IrBlock *b, IrInst *c, int t, int e) {
    IrInst *in = emit1(f, b, IR_CONDBR, ty_void, noloc, c);
    in->imm.targets[0] = t;
    in->imm.targets[1] = e;
}
static IrFunc *new_func(IrProgram *p, const char *name, IrFuncKind kind, const Type *ret,
                        int n, const Type **params, const char **names) {
    IrFunc *f = ir_func_new(p, name, kind, n);
    for (int i = 0; i < n; i++) {
        f->params[i] = params[i];
        f->param_names[i] = names[i];
    }
    f->mangled = ir_mangle(p->arena, name, params, n);
    f->ret = ret;
    f->error_model = kind == IRF_NJIT ? EM_PYTHON : EM_NUMPY;
    f->loc = at(1, 1);
    return f;
}

/* def total(a): s = 0.0; i = 0; while i < a.shape[0]: s += a[i, 0] * scale(a[i, 1], 2); i += 1
 * return s — plus a callee defined after its caller, a raise site and a math call. */
static IrProgram *build_loop(Arena *a) {
    IrProgram *p = ir_program_new(a, TARGET_CPU);
    const Type *arr = ty_array(ty_f64, 2, LAYOUT_C);
    const Type *pt[] = {arr};
    const char *pn[] = {"a"};
    IrFunc *f = new_func(p, "total", IRF_NJIT, ty_f64, 1, pt, pn);
    const Type *pt2[] = {ty_f64, ty_i64};
    const char *pn2[] = {"x", "n"};
    IrFunc *g = new_func(p, "scale", IRF_NJIT, ty_f64, 2, pt2, pn2);
    int site = ir_raise_site(p, RAISE_ZERO_DIVISION, "division by zero", at(9, 16));
    int s = ir_var_new(f, "s", ty_f64), i = ir_var_new(f, "i", ty_i64);
    IrBlock *b0 = ir_block_new(f), *b1 = ir_block_new(f), *b2 = ir_block_new(f),
            *b3 = ir_block_new(f);
    IrInst *pa = emit0(f, b0, IR_PARAM, arr, at(1, 11));
    emit1(f, b0, IR_STORE, ty_void, at(2, 5), cflt(f, b0, ty_f64, 0.0))->imm.index = s;
    emit1(f, b0, IR_STORE, ty_void, at(3, 5), cint(f, b0, ty_i64, 0))->imm.index = i;
    br(f, b0, 1);
    IrInst *iv = emit0(f, b1, IR_LOAD, ty_i64, at(4, 11));
    iv->imm.index = i;
    IrInst *n0 = emit1(f, b1, IR_SHAPE, ty_i64, at(4, 15), pa);
    n0->imm.index = 0;
    IrInst *lt = emit2(f, b1, IR_CMP, ty_bool, at(4, 11), iv, n0);
    lt->imm.pred = CMP_LT;
    condbr(f, b1, lt, 2, 3);
    IrInst *i2 = emit0(f, b2, IR_LOAD, ty_i64, at(5, 16));
    i2->imm.index = i;
    IrInst *idx[] = {pa, i2, cint(f, b2, ty_i64, 0)};
    IrInst *x = ir_emit(f, b2, IR_ALOAD, ty_f64, at(5, 14), 3, idx);
    IrInst *idx1[] = {pa, i2, cint(f, b2, ty_i64, 1)};
    IrInst *y = ir_emit(f, b2, IR_ALOAD, ty_f64, at(5, 30), 3, idx1);
    IrInst *cargs[] = {y, cint(f, b2, ty_i64, 2)};
    IrInst *call = ir_emit(f, b2, IR_CALL, ty_f64, at(5, 24), 2, cargs);
    call->imm.callee = g;
    IrInst *sq = emit1(f, b2, IR_MATH, ty_f64, at(5, 22), call);
    sq->imm.index = ir_math_lookup("sqrt");
    IrInst *prod = emit2(f, b2, IR_MUL, ty_f64, at(5, 14), x, sq);
    IrInst *sv = emit0(f, b2, IR_LOAD, ty_f64, at(5, 9));
    sv->imm.index = s;
    emit1(f, b2, IR_STORE, ty_void, at(5, 9), emit2(f, b2, IR_ADD, ty_f64, at(5, 9), sv, prod))
        ->imm.index = s;
    emit1(f, b2, IR_STORE, ty_void, at(6, 9),
          emit2(f, b2, IR_ADD, ty_i64, at(6, 9), i2, cint(f, b2, ty_i64, 1)))
        ->imm.index = i;
    br(f, b2, 1);
    IrInst *res = emit0(f, b3, IR_LOAD, ty_f64, at(7, 12));
    res->imm.index = s;
    emit1(f, b3, IR_RET, ty_void, at(7, 5), res);

    /* def scale(x, n): if n == 0: raise ...; return x / float(n) ** 2 ... (roughly) */
    IrBlock *g0 = ir_block_new(g), *g1 = ir_block_new(g), *g2 = ir_block_new(g);
    IrInst *gx = emit0(g, g0, IR_PARAM, ty_f64, at(8, 11));
    IrInst *gn = emit0(g, g0, IR_PARAM, ty_i64, at(8, 14));
    gn->imm.index = 1;
    IrInst *z = emit2(g, g0, IR_CMP, ty_bool, at(9, 8), gn, cint(g, g0, ty_i64, 0));
    z->imm.pred = CMP_EQ;
    condbr(g, g0, z, 1, 2);
    emit0(g, g1, IR_RAISE, ty_void, at(9, 16))->imm.index = site;
    IrInst *fn = emit1(g, g2, IR_CAST, ty_f64, at(10, 16), gn);
    IrInst *pw = emit2(g, g2, IR_POW, ty_f64, at(10, 16), fn, cint(g, g2, ty_i64, 2));
    IrInst *q = emit2(g, g2, IR_DIV, ty_f64, at(10, 12), gx, pw);
    IrInst *neg = emit1(g, g2, IR_NEG, ty_f64, at(10, 12), q);
    IrInst *ispos = emit2(g, g2, IR_CMP, ty_bool, at(10, 12), q, cflt(g, g2, ty_f64, 0.5));
    ispos->imm.pred = CMP_GE;
    IrInst *sel[] = {ispos, q, neg};
    emit1(g, g2, IR_RET, ty_void, at(10, 5), ir_emit(g, g2, IR_SELECT, ty_f64, at(10, 5), 3, sel));
    return p;
}

/* A CUDA kernel: i, j = cuda.grid(2); shared tile; atomics; a tuple; a device function. */
static IrProgram *build_kernel(Arena *a) {
    IrProgram *p = ir_program_new(a, TARGET_NVPTX);
    const Type *arr = ty_array(ty_f32, 2, LAYOUT_A);
    const Type *cnt = ty_array(ty_i32, 1, LAYOUT_C);
    const Type *pt[] = {arr, cnt};
    const char *pn[] = {"img", "hist"};
    IrFunc *k = new_func(p, "kern", IRF_KERNEL, ty_void, 2, pt, pn);
    const Type *dpt[] = {ty_f32};
    const char *dpn[] = {"v"};
    IrFunc *d = new_func(p, "bucket", IRF_DEVICE, ty_i64, 1, dpt, dpn);
    const Type *el[] = {ty_i64, ty_i64};
    const Type *tup = ty_tuple(el, 2);
    int vi = ir_var_new(k, "i", ty_i64), vj = ir_var_new(k, "j", ty_i64);
    IrBlock *b0 = ir_block_new(k);
    IrInst *img = emit0(k, b0, IR_PARAM, arr, at(3, 10));
    IrInst *hist = emit0(k, b0, IR_PARAM, cnt, at(3, 15));
    hist->imm.index = 1;
    IrInst *sr[6];
    for (int s = 0; s < 6; s++) {
        sr[s] = emit0(k, b0, IR_SREG, ty_i64, at(4, 12));
        sr[s]->imm.index = (int[]){SREG_TID_X, SREG_CTAID_X, SREG_NTID_X, SREG_TID_Y,
                                   SREG_CTAID_Y, SREG_NTID_Y}[s];
    }
    IrInst *gx = emit2(k, b0, IR_ADD, ty_i64, at(4, 12), sr[0],
                       emit2(k, b0, IR_MUL, ty_i64, at(4, 12), sr[1], sr[2]));
    IrInst *gy = emit2(k, b0, IR_ADD, ty_i64, at(4, 12), sr[3],
                       emit2(k, b0, IR_MUL, ty_i64, at(4, 12), sr[4], sr[5]));
    IrInst *targs[] = {gx, gy};
    IrInst *t = ir_emit(k, b0, IR_TUPLE, tup, at(4, 12), 2, targs);
    IrInst *e0 = emit1(k, b0, IR_EXTRACT, ty_i64, at(4, 5), t);
    IrInst *e1 = emit1(k, b0, IR_EXTRACT, ty_i64, at(4, 8), t);
    e1->imm.index = 1;
    emit1(k, b0, IR_STORE, ty_void, at(4, 5), e0)->imm.index = vi;
    emit1(k, b0, IR_STORE, ty_void, at(4, 8), e1)->imm.index = vj;
    IrInst *tile = emit0(k, b0, IR_SHARED, ty_array_ex(ty_f32, 2, LAYOUT_C, AS_SHARED, false),
                         at(5, 12));
    tile->imm.dims[0] = 16;
    tile->imm.dims[1] = 17;
    IrInst *loc = emit0(k, b0, IR_LOCAL, ty_array_ex(ty_i32, 1, LAYOUT_C, AS_LOCAL, false),
                        at(6, 11));
    loc->imm.dims[0] = 4;
    IrInst *li = emit0(k, b0, IR_LOAD, ty_i64, noloc);
    IrInst *lj = emit0(k, b0, IR_LOAD, ty_i64, noloc);
    lj->imm.index = vj;
    IrInst *ld[] = {img, li, lj};
    IrInst *v = ir_emit(k, b0, IR_ALOAD, ty_f32, at(7, 15), 3, ld);
    IrInst *st[] = {tile, cint(k, b0, ty_i64, 0), cint(k, b0, ty_i64, 1), v};
    ir_emit(k, b0, IR_ASTORE, ty_void, at(7, 5), 4, st);
    emit0(k, b0, IR_BARRIER, ty_void, at(8, 5));
    IrInst *c = emit1(k, b0, IR_CALL, ty_i64, at(9, 11), v);
    c->imm.callee = d;
    IrInst *one = cint(k, b0, ty_i32, 1);
    IrInst *at_args[] = {hist, c, one};
    ir_emit(k, b0, IR_ATOMIC, ty_i32, at(10, 5), 3, at_args)->imm.index = ATOM_ADD;
    IrInst *cas[] = {hist, c, one, cint(k, b0, ty_i32, 2)};
    ir_emit(k, b0, IR_ATOMIC, ty_i32, at(11, 5), 4, cas)->imm.index = ATOM_CAS;
    emit0(k, b0, IR_FENCE, ty_void, at(12, 5));
    emit0(k, b0, IR_RET, ty_void, at(13, 5));

    IrBlock *d0 = ir_block_new(d);
    IrInst *dv = emit0(d, d0, IR_PARAM, ty_f32, at(15, 12));
    IrInst *fl = emit1(d, d0, IR_MATH, ty_i64, at(16, 12),
                       emit2(d, d0, IR_MUL, ty_f32, at(16, 22), dv, cflt(d, d0, ty_f32, 0.1f)));
    fl->imm.index = ir_math_lookup("floor");
    emit1(d, d0, IR_RET, ty_void, at(16, 5), fl);
    return p;
}

static void test_builder_roundtrip(void) {
    Arena *a = arena_new();
    check_roundtrip(build_loop(a), "loop program");
    check_roundtrip(build_kernel(a), "kernel program");
    /* a fast-math flag set (fastmath={'nsz', 'arcp'}) prints after "fastmath" and parses back */
    IrProgram *fm = build_loop(a);
    fm->funcs[0]->fastmath = true;
    fm->funcs[0]->fastmath_flags = (1u << 3) | (1u << 4);
    char *ft = print_program(fm);
    CHECK(strstr(ft, " njit python fastmath nsz arcp def ") != NULL, "%s", ft);
    free(ft);
    check_roundtrip(fm, "fast-math flags");
    /* a raise site of the program's own `raise`/`assert` prints "user" and parses back so */
    IrProgram *up = build_loop(a);
    CHECK(ir_user_raise_site(up, RAISE_KEY, "'k'", up->raises[0].loc) == 2, "second site");
    char *ut = print_program(up);
    CHECK(strstr(ut, "raise 2 KeyError user \"'k'\"") != NULL, "%s", ut);
    free(ut);
    check_roundtrip(up, "a user raise site");
    CHECK(ir_raise_kind_of("NotImplementedError") == RAISE_NOT_IMPLEMENTED &&
              ir_raise_kind_of("Warning") == 0, "raise kinds by name");
    /* the first one printed looks as documented */
    char *t = print_program(build_loop(a));
    CHECK(strstr(t, "\nfunc @total__") != NULL &&
              strstr(t, "(a: float64[:, ::1]) -> float64 njit python def total { ; t.py:1:1\n"),
          "header:\n%s", t);
    CHECK(strstr(t, "raise 1 ZeroDivisionError \"division by zero\"") != NULL, "%s", t);
    CHECK(strstr(t, "  %12 = call @scale__float64_int64_(%10, %11) : float64 ; t.py:5:24\n") != NULL, "%s", t);
    char line[128];
    snprintf(line, sizeof line, "\n%-48s; t.py:2:5\n", "  store s, %1"); /* locations at col 49 */
    CHECK(strstr(t, line) != NULL, "%s", t);
    CHECK(strstr(t, "  condbr %5, b2, b3\n") != NULL, "%s", t);
    free(t);
    t = print_program(build_kernel(a));
    CHECK(strstr(t, "shared.array 16, 17 : shared float32[:, ::1]") != NULL, "%s", t);
    CHECK(strstr(t, "%26 = atomic cas %1, %22, %23, %25 : int32    ; t.py:11:5\n") != NULL, "%s", t);
    CHECK(strstr(t, "= math floor %2 : int64") != NULL, "%s", t);
    free(t);
    arena_free(a);
}

/* ---- golden texts -------------------------------------------------------------------------- */
static char *read_file(const char *path) {
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    StrBuf sb;
    sb_init(&sb);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
        sb_putn(&sb, buf, n);
    fclose(fp);
    return sb_take(&sb);
}

static void test_golden(const char *dir) {
    DIR *d = opendir(dir);
    CHECK(d != NULL, "cannot open %s", dir);
    if (!d)
        return;
    int files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".ir"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = read_file(path);
        CHECK(text != NULL, "cannot read %s", path);
        if (!text)
            continue;
        files++;
        Arena *a = arena_new();
        char *errs;
        IrProgram *p = parse_text(a, text, &errs);
        CHECK(p != NULL, "%s does not parse:\n%s", path, errs);
        if (p) {
            verify_clean(p, path);
            char *out = print_program(p);
            CHECK(!strcmp(out, text), "%s does not print back the same:\n%s", path, out);
            free(out);
        }
        free(errs);
        free(text);
        arena_free(a);
    }
    closedir(d);
    CHECK(files >= 4, "only %d golden files in %s", files, dir);
}

/* ---- parse errors -------------------------------------------------------------------------- */
static void expect_parse_error(const char *text, const char *want) {
    Arena *a = arena_new();
    char *errs;
    IrProgram *p = parse_text(a, text, &errs);
    CHECK(p == NULL, "parsed although it should not:\n%s", text);
    CHECK(strstr(errs, want) != NULL, "wanted '%s' in:\n%s", want, errs);
    free(errs);
    arena_free(a);
}

static const char *ok_head = "target cpu\n\nfunc @f(x: int64) -> int64 njit python {\nb0:\n";

static void test_parse_errors(void) {
    char buf[1024];
#define BODY(s) (snprintf(buf, sizeof buf, "%s%s}\n", ok_head, s), buf)
    expect_parse_error(BODY("  %0 = param 0 : int64\n  ret %1\n"),
                       "ir:6:7: error: %1 is never defined");
    expect_parse_error(BODY("  %0 = frob 0 : int64\n"),
                       "ir:5:8: error: expected an instruction, found 'frob'");
    expect_parse_error(BODY("  %0 = param 0 : int65\n"), "ir:5:18: error: unknown type 'int65'");
    expect_parse_error(BODY("  %0 = param 0 : int64\n  %0 = param 0 : int64\n"),
                       "ir:6:3: error: %0 is defined twice");
    expect_parse_error(BODY("  %0 = param 0\n"), "ir:5:3: error: a result needs a type");
    expect_parse_error(BODY("  %0 = const 1.5x : float64\n"), "ir:5:14: error: bad float constant '1.5x'");
    expect_parse_error(BODY("  %0 = const 99999999999999999999 : int64\n"),
                       "error: bad integer constant");
    expect_parse_error(BODY("  %0 = cmp lq %1, %1 : bool\n"),
                       "ir:5:12: error: expected a comparison (eq ne lt le gt ge), found 'lq'");
    expect_parse_error(BODY("  %0 = call @nowhere() : int64\n  ret %0\n"),
                       "ir:5:13: error: no function @nowhere");
    expect_parse_error(BODY("  br b2 b3\n"), "ir:5:9: error: unexpected 'b3'");
    expect_parse_error(BODY("  store y, %0\n"), "ir:5:9: error: unknown variable 'y'");
    expect_parse_error(BODY("  %0 = param 0 : float64[:, ::1, :]\n"),
                       "'::1' may mark only the first or the last dimension");
    expect_parse_error(BODY("b2:\n"), "ir:5:1: error: expected block b1");
    expect_parse_error(BODY("  %0 = math sine %0 : float64\n"), "expected a math builtin");
    expect_parse_error(BODY("  %0 = cuda shuffle %0 : float64\n"),
                       "ir:5:13: error: expected a CUDA intrinsic (shfl_sync, ballot_sync, popc, ...)");
    expect_parse_error(BODY("  %0 = atomic frob %0 : float64\n"), "expected an atomic operation");
    expect_parse_error(BODY("  raise \"x\n"), "ir:5:9: error: unterminated string");
    expect_parse_error("target gpu\n", "ir:1:8: error: expected a target (cpu nvptx)");
    expect_parse_error("func @f() -> void njit python {\nb0 catch b1:\n  ret\nb1:\n  ret\n}\n",
                       "a handler block comes before the blocks it catches for");
    expect_parse_error("func @f() -> int64 njit python {\nb0:\n  ret\n", "missing '}'");
    expect_parse_error("func @f() -> int64 sometimes python {\n}\n",
                       "ir:1:20: error: expected a function kind");
    expect_parse_error("hello\n", "ir:1:1: error: expected 'target', 'raise' or 'func'");
    expect_parse_error("raise 2 IndexError \"x\"\n", "ir:1:7: error: expected raise site 1");
    expect_parse_error("func @f() -> int64 njit python {\n  %0 = const 1 : int64\n}\n",
                       "ir:2:8: error: an instruction outside a block");
    /* several errors in one text */
    Arena *a = arena_new();
    char *errs;
    IrProgram *p = parse_text(a, BODY("  %0 = frob\n  %1 = param 0 : int65\n  ret %9\n"), &errs);
    CHECK(!p && strstr(errs, "ir:5:") && strstr(errs, "ir:6:") && strstr(errs, "ir:7:"),
          "three errors wanted:\n%s", errs);
    free(errs);
    /* odd bytes and empty text do not crash */
    const char *odd[] = {"", "\n\n", "func", "func @", "func @f(", "func @f(x: int64[", "%",
                         "target cpu\nfunc @f() -> int64 njit python {\nb0:\n  %0 = const \"",
                         "\x01\x02\xff", "func @f() -> int64 njit python {\nb0:\n  %0 = const - : int64\n}"};
    for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
        p = parse_text(a, odd[i], &errs);
        CHECK(p == NULL || i < 2, "odd text %zu parsed", i);
        free(errs);
    }
    arena_free(a);
#undef BODY
}

/* ---- the verifier -------------------------------------------------------------------------- */
typedef struct Broken {
    Arena *a;
    IrProgram *p;
    IrFunc *f;
    IrBlock *b0, *b1;
    IrInst *x; /* param 0 : int64 */
} Broken;

/* def f(x: int64) -> int64 with two blocks (the second unused unless a test uses it). */
static Broken broken_start(void) {
    Broken k;
    k.a = arena_new();
    k.p = ir_program_new(k.a, TARGET_CPU);
    const Type *pt[] = {ty_i64};
    const char *pn[] = {"x"};
    k.f = new_func(k.p, "f", IRF_NJIT, ty_i64, 1, pt, pn);
    k.b0 = ir_block_new(k.f);
    k.x = emit0(k.f, k.b0, IR_PARAM, ty_i64, at(1, 7));
    k.b1 = NULL;
    return k;
}

static void expect_verify_error(Broken *k, const char *want) {
    DiagList d;
    diag_init(&d);
    bool ok = ir_verify(k->p, &d);
    char *msg = render(&d);
    CHECK(!ok, "verified although broken (wanted '%s')", want);
    CHECK(strstr(msg, want) != NULL, "wanted '%s' in:\n%s", want, msg);
    free(msg);
    diag_free(&d);
    arena_free(k->a);
}

static void test_verifier(void) {
    Broken k = broken_start();
    emit2(k.f, k.b0, IR_ADD, ty_i64, at(2, 9), k.x, k.x);
    expect_verify_error(&k, "t.py:2:9: error: in @f__int64_, b0: block b0 does not end with a "
                            "terminator");

    k = broken_start();
    IrInst *c = cflt(k.f, k.b0, ty_f64, 1.0);
    emit1(k.f, k.b0, IR_RET, ty_void, at(3, 5), emit2(k.f, k.b0, IR_ADD, ty_i64, at(3, 12), k.x, c));
    expect_verify_error(&k, "t.py:3:12: error: in @f__int64_, b0: operand 2 of 'add' has type "
                            "float64, expected int64");

    k = broken_start();
    br(k.f, k.b0, 7);
    expect_verify_error(&k, "branch to b7, which does not exist");

    k = broken_start();
    {
        Broken other = broken_start();
        emit1(k.f, k.b0, IR_RET, ty_void, at(4, 5), other.x);
        expect_verify_error(&k, "t.py:4:5: error: in @f__int64_, b0: operand 1 of 'ret' (%0) is "
                                "not defined in this function");
        arena_free(other.a);
    }

    k = broken_start();
    emit1(k.f, k.b0, IR_RET, ty_void, at(5, 5), k.x);
    emit2(k.f, k.b0, IR_ADD, ty_i64, at(6, 5), k.x, k.x);
    expect_verify_error(&k, "t.py:6:5: error: in @f__int64_, b0: 'add' after the terminator 'ret'");

    k = broken_start(); /* defined on one side of a branch, used after the join */
    {
        IrBlock *b1 = ir_block_new(k.f), *b2 = ir_block_new(k.f), *b3 = ir_block_new(k.f);
        IrInst *z = emit2(k.f, k.b0, IR_CMP, ty_bool, noloc, k.x, k.x);
        condbr(k.f, k.b0, z, 1, 2);
        IrInst *y = emit2(k.f, b1, IR_MUL, ty_i64, noloc, k.x, k.x);
        br(k.f, b1, 3);
        br(k.f, b2, 3);
        emit1(k.f, b3, IR_RET, ty_void, at(7, 5), y);
        expect_verify_error(&k, "b3: %2 is used where its definition (in b1) does not dominate");
    }

    k = broken_start(); /* used before its definition in the same block */
    {
        IrInst *y = emit2(k.f, k.b0, IR_ADD, ty_i64, noloc, k.x, k.x);
        IrInst *w = emit2(k.f, k.b0, IR_ADD, ty_i64, noloc, k.x, k.x);
        y->args[1] = w;
        emit1(k.f, k.b0, IR_RET, ty_void, noloc, w);
        expect_verify_error(&k, "%2 is used where its definition (in b0) does not dominate");
    }

    k = broken_start();
    condbr(k.f, k.b0, k.x, 0, 0);
    expect_verify_error(&k, "operand 1 of 'condbr' has type int64, expected bool");

    k = broken_start();
    emit1(k.f, k.b0, IR_RET, ty_void, noloc, cflt(k.f, k.b0, ty_f64, 2));
    expect_verify_error(&k, "operand 1 of 'ret' has type float64, expected int64");

    k = broken_start();
    emit0(k.f, k.b0, IR_RET, ty_void, noloc);
    expect_verify_error(&k, "'ret' needs a int64 value");

    k = broken_start();
    ir_var_new(k.f, "v", ty_f32);
    emit1(k.f, k.b0, IR_STORE, ty_void, at(8, 5), k.x);
    emit1(k.f, k.b0, IR_RET, ty_void, noloc, k.x);
    expect_verify_error(&k, "'store v' of a int64 value, the variable is float32");

    k = broken_start();
    {
        IrInst *l = emit0(k.f, k.b0, IR_LOAD, ty_i64, noloc);
        l->imm.index = 3;
        emit1(k.f, k.b0, IR_RET, ty_void, noloc, l);
        expect_verify_error(&k, "no variable number 3");
    }

    k = broken_start();
    {
        IrInst *y = emit2(k.f, k.b0, IR_CMP, ty_i64, noloc, k.x, k.x);
        emit1(k.f, k.b0, IR_RET, ty_void, noloc, y);
        expect_verify_error(&k, "'cmp' cannot have type int64 (a comparison gives bool)");
    }

    k = broken_start();
    {
        const Type *arr = ty_array(ty_f64, 2, LAYOUT_C);
        IrInst *e = emit1(k.f, k.b0, IR_ALOAD, ty_f64, noloc, k.x);
        emit1(k.f, k.b0, IR_RET, ty_void, noloc, e);
        expect_verify_error(&k, "operand 1 of 'aload' is int64, not an array");
        k = broken_start();
        k.f->params[0] = arr;
        k.x->type = arr;
        IrInst *one = cflt(k.f, k.b0, ty_f64, 1);
        IrInst *idx2[] = {k.x, one};
        e = ir_emit(k.f, k.b0, IR_ALOAD, ty_f64, noloc, 2, idx2);
        emit1(k.f, k.b0, IR_RET, ty_void, noloc, e);
        expect_verify_error(&k, "'aload' has 2 operands, expected 3");
    }

    k = broken_start();
    {
        IrInst *args[] = {k.x, k.x};
        IrInst *c2 = ir_emit(k.f, k.b0, IR_CALL, ty_i64, noloc, 2, args);
        c2->imm.callee = k.f;
        emit1(k.f, k.b0, IR_RET, ty_void, noloc, c2);
        expect_verify_error(&k, "'call' has 2 operands, expected 1");
    }

    k = broken_start();
    emit0(k.f, k.b0, IR_RAISE, ty_void, at(9, 9))->imm.index = 1;
    expect_verify_error(&k, "t.py:9:9: error: in @f__int64_, b0: no raise site 1");

    k = broken_start();
    {
        IrInst *y = emit2(k.f, k.b0, IR_ADD, ty_i64, noloc, k.x, k.x);
        y->id = 0; /* the param's id */
        emit1(k.f, k.b0, IR_RET, ty_void, noloc, y);
        expect_verify_error(&k, "%0 is defined twice");
    }

    k = broken_start();
    {
        IrBlock *b1 = ir_block_new(k.f);
        br(k.f, k.b0, 1);
        emit1(k.f, b1, IR_RET, ty_void, noloc, emit0(k.f, b1, IR_PARAM, ty_i64, at(3, 3)));
        expect_verify_error(&k, "t.py:3:3: error: in @f__int64_, b1: 'param' outside the entry "
                                "block");
    }

    k = broken_start();
    ir_block_new(k.f);
    br(k.f, k.b0, 1);
    expect_verify_error(&k, "block b1 is empty");

    k = broken_start();
    emit0(k.f, k.b0, IR_BARRIER, ty_void, noloc);
    emit1(k.f, k.b0, IR_RET, ty_void, noloc, k.x);
    expect_verify_error(&k, "'syncthreads' is only for the nvptx target");

    k = broken_start(); /* the numba-cuda intrinsics: operand types by kind, GPU only */
    {
        IrInst *m = cint(k.f, k.b0, ty_i32, -1), *lane = cint(k.f, k.b0, ty_i32, 1);
        IrInst *args[] = {m, k.x, lane};
        IrInst *s = ir_emit(k.f, k.b0, IR_CUDA, ty_f64, at(4, 9), 3, args);
        s->imm.index = CU_SHFL_DOWN_SYNC;
        emit1(k.f, k.b0, IR_RET, ty_void, noloc, k.x);
        expect_verify_error(&k, "t.py:4:9: error: in @f__int64_, b0: operand 2 of 'cuda' has "
                                "type int64, expected float64");
        k = broken_start();
        k.p->target = TARGET_NVPTX;
        IrInst *b = ir_emit(k.f, k.b0, IR_CUDA, ty_u32, noloc, 1, &k.x);
        b->imm.index = CU_FFS;
        IrInst *v = ir_emit(k.f, k.b0, IR_CUDA, ty_i32, noloc, 2, (IrInst *[]){k.x, k.x});
        v->imm.index = CU_BALLOT_SYNC;
        emit1(k.f, k.b0, IR_RET, ty_void, noloc, k.x);
        expect_verify_error(&k, "operand 2 of 'cuda' has type int64, expected bool");
        k = broken_start();
        k.p->target = TARGET_NVPTX;
        ir_emit(k.f, k.b0, IR_CUDA, ty_i64, noloc, 0, NULL)->imm.index = CU_THREADFENCE_BLOCK;
        emit1(k.f, k.b0, IR_RET, ty_void, noloc, k.x);
        expect_verify_error(&k, "'cuda' has no result, but has type int64");
        k = broken_start();
        ir_emit(k.f, k.b0, IR_CUDA, ty_u32, noloc, 0, NULL)->imm.index = CU_ACTIVEMASK;
        emit1(k.f, k.b0, IR_RET, ty_void, noloc, k.x);
        expect_verify_error(&k, "'cuda' is only for the nvptx target");
        k = broken_start();
        k.p->target = TARGET_NVPTX;
        ir_emit(k.f, k.b0, IR_CUDA, ty_u32, noloc, 1, &k.x)->imm.index = CU__COUNT;
        emit1(k.f, k.b0, IR_RET, ty_void, noloc, k.x);
        expect_verify_error(&k, "no CUDA intrinsic number");
    }

    /* a use in an unreachable block is not checked for dominance; the rest is */
    k = broken_start();
    {
        IrBlock *b1 = ir_block_new(k.f), *b2 = ir_block_new(k.f);
        br(k.f, k.b0, 2);
        IrInst *y = emit2(k.f, b2, IR_ADD, ty_i64, noloc, k.x, k.x);
        emit1(k.f, b2, IR_RET, ty_void, noloc, y);
        emit1(k.f, b1, IR_RET, ty_void, noloc, y);
        CHECK(verify_clean(k.p, "unreachable use"), "see above");
        arena_free(k.a);
    }
}

/* ---- parfor: text form and verifier -------------------------------------------------------- */
static const char *PARFOR_TEXT =
    "target cpu\n"
    "\n"
    "func @f(a: float64[::1]) -> float64 njit python {\n"
    "b0:\n"
    "  %0 = param 0 : float64[::1]\n"
    "  %1 = const 0 : int64\n"
    "  %2 = shape 0 %0 : int64\n"
    "  %3 = const 1 : int64\n"
    "  %4 = const 0.0 : float64\n"
    "  %5 = parfor @body [OPS] (%1, %2, %3, %0, %4) : UniTuple(float64, 1)\n"
    "  %6 = extract 0 %5 : float64\n"
    "  ret %6\n"
    "}\n"
    "\n"
    "func @body($lo: int64, $hi: int64, $start: int64, $step: int64, a: float64[::1]) -> "
    "UniTuple(float64, 1) njit python def f {\n"
    "b0:\n"
    "  %0 = const 0.0 : float64\n"
    "  %1 = tuple %0 : UniTuple(float64, 1)\n"
    "  ret %1\n"
    "}\n";

static void test_parfor(void) {
    struct { const char *ops, *want; } cases[] = {
        {"add", NULL},
        {"max", NULL},
        {"", "'parfor' has 5 operands"},
        {"add, mul", "'parfor' has 5 operands"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[2048];
        const char *at = strstr(PARFOR_TEXT, "OPS");
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - PARFOR_TEXT), PARFOR_TEXT,
                 cases[i].ops, at + 3);
        Arena *a = arena_new();
        char *errs;
        IrProgram *p = parse_text(a, text, &errs);
        CHECK(p != NULL, "parfor [%s] does not parse:\n%s", cases[i].ops, errs);
        if (p) {
            DiagList d;
            diag_init(&d);
            bool ok = ir_verify(p, &d);
            char *msg = render(&d);
            if (cases[i].want)
                CHECK(!ok && strstr(msg, cases[i].want), "parfor [%s]: wanted '%s' in:\n%s",
                      cases[i].ops, cases[i].want, msg);
            else
                CHECK(ok, "parfor [%s] does not verify:\n%s", cases[i].ops, msg);
            free(msg);
            diag_free(&d);
        }
        free(errs);
        arena_free(a);
    }
    Arena *a = arena_new();
    char *errs;
    CHECK(!parse_text(a, "target cpu\nfunc @f() -> void njit python {\nb0:\n"
                         "  parfor @f [sum] (%0)\n  ret\n}\n", &errs) &&
              strstr(errs, "a reduction operator (add mul min max)"),
          "parfor with an unknown operator: %s", errs);
    free(errs);
    arena_free(a);
}

/* Signature strings that end inside Numba's "array(DTYPE, Nd, LAYOUT)" spelling are refused
 * without reading past their end (found by the signature fuzzer: "array(f8,3d,\n"); an array
 * of more than TY_MAX_NDIM dimensions is refused with a message, not a bare failure (also the
 * fuzzer's: "(float32[::1, :,:, :,:, :,:, :,:, :,:, :])"). */
static void test_sig_truncated(void) {
    const char *cases[] = {"array(f8,3d,", "array(f8,3d,\n\n", "array(f8,3d", "array(f8,", "(array(f8,1d,",
                           "(float32[::1, :,:, :,:, :,:, :,:, :,:, :])", "f8[:,:,:,:,:,:,:,:,:](f8)"};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t n = strlen(cases[i]);
        char *s = malloc(n + 1); /* exactly sized, so a read past the NUL is a sanitizer error */
        memcpy(s, cases[i], n + 1);
        const Type *ret = NULL, *args[4];
        const char *err = NULL;
        int got = ty_parse_sig(s, &ret, args, 4, &err);
        CHECK(got < 0 && err, "signature %s: %d (%s)", cases[i], got, err ? err : "no error");
        free(s);
    }
}

/* None and Optional: distinct from tuples, unified as Numba's, an argument spelled none */
static void test_optional_types(void) {
    const Type *none = ty_none(), *of = ty_optional(ty_f64);
    const Type *el[2] = {ty_bool, ty_f64};
    CHECK(ty_is_none(none) && !ty_is_none(ty_tuple(NULL, 0)), "none is not the empty tuple");
    CHECK(of != ty_tuple(el, 2) && ty_is_optional(of), "an Optional is not its pair");
    CHECK(!strcmp(of->name, "OptionalType(float64)") && !strcmp(none->name, "none"), "names");
    CHECK(ty_optional(of) == of && ty_optional_value(of) == ty_f64, "Optional of an Optional");
    CHECK(ty_unify(none, ty_f64) == of && ty_unify(ty_f64, none) == of, "none | float64");
    CHECK(ty_unify(ty_optional(ty_i64), ty_f64) == of, "Optional(int64) | float64");
    CHECK(ty_unify(of, none) == of && ty_unify(none, none) == none, "with none again");
    CHECK(ty_unify(none, ty_void) == NULL, "none | void");
    CHECK(ty_has_refs(ty_optional(ty_array(ty_f64, 1, LAYOUT_C))), "an Optional array counts");
    const Type *ret, *args[4];
    const char *err;
    CHECK(ty_parse_sig("(float64, none)", &ret, args, 4, &err) == 2 && args[1] == none,
          "an argument none");
    CHECK(ty_parse_sig("(void)", &ret, args, 4, &err) < 0, "an argument void");
    CHECK(ty_parse_sig("none(float64)", &ret, args, 4, &err) == 1 && ret == ty_void,
          "a result none");
}

int main(int argc, char **argv) {
    test_optional_types();
    test_sig_truncated();
    test_builder_roundtrip();
    test_parfor();
    test_parse_errors();
    test_verifier();
    test_fold_values();
    test_fold_functions();
    if (argc > 1) {
        test_golden(argv[1]);
    } else { /* no directory given: next to this source file, where the build left its path */
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", __FILE__);
        char *slash = strrchr(dir, '/');
        snprintf(slash ? slash + 1 : dir, sizeof dir - (size_t)(slash ? slash + 1 - dir : 0),
                 "../golden/ir");
        DIR *d = opendir(dir);
        if (d) {
            closedir(d);
            test_golden(dir);
        } else {
            printf("ir: golden texts not found (pass their directory as the argument)\n");
        }
    }
    printf("ir: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
