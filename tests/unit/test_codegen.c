/* test_codegen.c — unit tests of codegen/: IR programs built by hand with ir.c's builder, JIT'ed
 * with cg_jit_compile and called through their C-ABI entry; results checked against Python's
 * and NumPy's semantics (values below were taken from CPython 3.11, NumPy 1.24 and Numba
 * 0.56).  Also checks that the O3 pipeline vectorizes a simple loop (vector registers in the
 * assembly), that libmvec is used for sin, that compiling one program twice works, and that
 * malformed IR is reported through *err instead of crashing.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../codegen/codegen.h"
#include "numjit.h"

static int failures, checks;
static CgJit *jit;
static Arena *arena;
static const Loc L0;

#define CHECK(cond, ...)                                                                        \
    do {                                                                                        \
        checks++;                                                                               \
        if (!(cond)) {                                                                          \
            failures++;                                                                         \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);            \
            fprintf(stderr, __VA_ARGS__);                                                       \
            fputc('\n', stderr);                                                                \
        }                                                                                       \
    } while (0)

typedef int32_t (*Entry)(void **args, void *ret);

/* ---- building IR ------------------------------------------------------------------------------ */
static IrInst *E(IrFunc *f, IrBlock *b, IrOp op, const Type *t, int n, ...) {
    IrInst *args[8] = {0};
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        args[i] = va_arg(ap, IrInst *);
    va_end(ap);
    return ir_emit(f, b, op, t, L0, n, args);
}
static IrInst *iconst(IrFunc *f, IrBlock *b, const Type *t, int64_t v) {
    IrInst *in = E(f, b, IR_CONST, t, 0);
    in->imm.i = v;
    return in;
}
static IrInst *fconst(IrFunc *f, IrBlock *b, const Type *t, double v) {
    IrInst *in = E(f, b, IR_CONST, t, 0);
    in->imm.f = v;
    return in;
}
static IrInst *param(IrFunc *f, IrBlock *b, int k) {
    IrInst *in = E(f, b, IR_PARAM, f->params[k], 0);
    in->imm.index = k;
    return in;
}
static IrInst *load(IrFunc *f, IrBlock *b, int var) {
    IrInst *in = E(f, b, IR_LOAD, f->vars[var].type, 0);
    in->imm.index = var;
    return in;
}
static void store(IrFunc *f, IrBlock *b, int var, IrInst *v) {
    IrInst *in = E(f, b, IR_STORE, ty_void, 1, v);
    in->imm.index = var;
}
static void br(IrFunc *f, IrBlock *b, IrBlock *to) {
    E(f, b, IR_BR, ty_void, 0)->imm.targets[0] = to->id;
}
static void condbr(IrFunc *f, IrBlock *b, IrInst *c, IrBlock *t, IrBlock *e) {
    IrInst *in = E(f, b, IR_CONDBR, ty_void, 1, c);
    in->imm.targets[0] = t->id;
    in->imm.targets[1] = e->id;
}
static IrInst *cmp(IrFunc *f, IrBlock *b, CmpPred p, IrInst *x, IrInst *y) {
    IrInst *in = E(f, b, IR_CMP, ty_bool, 2, x, y);
    in->imm.pred = p;
    return in;
}
static IrFunc *func(IrProgram *p, const char *name, const Type *ret, int n, ...) {
    IrFunc *f = ir_func_new(p, name, IRF_NJIT, n);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        f->params[i] = va_arg(ap, const Type *);
    va_end(ap);
    f->ret = ret;
    f->mangled = ir_mangle(p->arena, name, f->params, n);
    return f;
}

static Entry compile(IrProgram *p) {
    void *e = NULL;
    char *err = NULL;
    bool ok = cg_jit_compile(jit, p, NULL, &e, &err);
    CHECK(ok && e, "%s", err ? err : "(no message)");
    free(err);
    return ok ? (Entry)e : NULL;
}

/* f(a: ta, b: tb) -> tr = op(a, b) */
static Entry binop_fn(IrOp op, const Type *ta, const Type *tb, const Type *tr) {
    IrProgram *p = ir_program_new(arena, TARGET_CPU);
    IrFunc *f = func(p, ir_op_name[op], tr, 2, ta, tb);
    IrBlock *b = ir_block_new(f);
    IrInst *r = E(f, b, op, tr, 2, param(f, b, 0), param(f, b, 1));
    E(f, b, IR_RET, ty_void, 1, r);
    return compile(p);
}

/* f(a: ta) -> tr = op(a) or cast */
static Entry unop_fn(IrOp op, const Type *ta, const Type *tr) {
    IrProgram *p = ir_program_new(arena, TARGET_CPU);
    IrFunc *f = func(p, ir_op_name[op], tr, 1, ta);
    IrBlock *b = ir_block_new(f);
    IrInst *r = E(f, b, op, tr, 1, param(f, b, 0));
    E(f, b, IR_RET, ty_void, 1, r);
    return compile(p);
}

static int64_t call_ii(Entry e, int64_t a, int64_t b) {
    int64_t r = 0x5a5a;
    void *args[2] = {&a, &b};
    int32_t st = e(args, &r);
    CHECK(st == 0, "status %d", st);
    return r;
}
static double call_dd(Entry e, double a, double b) {
    double r = -12345;
    void *args[2] = {&a, &b};
    int32_t st = e(args, &r);
    CHECK(st == 0, "status %d", st);
    return r;
}
static double call_di(Entry e, double a, int64_t b) {
    double r = -12345;
    void *args[2] = {&a, &b};
    int32_t st = e(args, &r);
    CHECK(st == 0, "status %d", st);
    return r;
}

static bool same(double a, double b) {
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return a == b && signbit(a) == signbit(b);
}

/* ---- arithmetic --------------------------------------------------------------------------------- */
static int64_t py_floordiv(int64_t a, int64_t b) {
    if (b == 0)
        return 0;
    if (b == -1) /* MIN // -1 is 0, as in Numba */
        return a == INT64_MIN ? 0 : -a;
    int64_t q = a / b, r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
}
static int64_t py_mod(int64_t a, int64_t b) {
    if (b == 0 || b == -1)
        return 0;
    int64_t r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

static void test_int_arith(void) {
    Entry fd = binop_fn(IR_FLOORDIV, ty_i64, ty_i64, ty_i64);
    Entry md = binop_fn(IR_MOD, ty_i64, ty_i64, ty_i64);
    Entry add = binop_fn(IR_ADD, ty_i64, ty_i64, ty_i64);
    if (!fd || !md || !add)
        return;
    const int64_t v[] = {0, 1, -1, 2, -2, 7, -7, 3, -3, 100, INT64_MAX, INT64_MIN, INT64_MIN + 1};
    int n = (int)(sizeof v / sizeof v[0]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int64_t a = v[i], b = v[j];
            CHECK(call_ii(fd, a, b) == py_floordiv(a, b), "%lld // %lld", (long long)a, (long long)b);
            CHECK(call_ii(md, a, b) == py_mod(a, b), "%lld %% %lld", (long long)a, (long long)b);
        }
    CHECK(call_ii(fd, -7, 2) == -4, "-7 // 2");
    CHECK(call_ii(md, -7, 2) == 1, "-7 %% 2");
    CHECK(call_ii(md, 7, -2) == -1, "7 %% -2");
    CHECK(call_ii(fd, INT64_MIN, -1) == 0, "MIN // -1 is 0 (Numba)");
    CHECK(call_ii(add, INT64_MAX, 1) == INT64_MIN, "wrapping add");

    /* unsigned */
    Entry ufd = binop_fn(IR_FLOORDIV, ty_u64, ty_u64, ty_u64);
    if (ufd) {
        CHECK((uint64_t)call_ii(ufd, -1, 2) == UINT64_MAX / 2, "u64 //");
        CHECK(call_ii(ufd, 5, 0) == 0, "u64 // 0");
    }
    /* int32 floordiv (narrow type) */
    Entry fd32 = binop_fn(IR_FLOORDIV, ty_i32, ty_i32, ty_i32);
    if (fd32) {
        int32_t a = INT32_MIN, b = -1, r = 7;
        void *args[2] = {&a, &b};
        CHECK(fd32(args, &r) == 0 && r == 0, "i32 MIN // -1 = %d", r);
        a = -9, b = 4;
        CHECK(fd32(args, &r) == 0 && r == -3, "i32 -9 // 4 = %d", r);
    }
    /* shifts */
    Entry shl = binop_fn(IR_SHL, ty_i64, ty_i64, ty_i64), shr = binop_fn(IR_SHR, ty_i64, ty_i64, ty_i64);
    Entry ushr = binop_fn(IR_SHR, ty_u64, ty_u64, ty_u64);
    if (shl && shr && ushr) {
        CHECK(call_ii(shl, 1, 3) == 8, "1 << 3");
        CHECK(call_ii(shl, 1, 64) == 0, "1 << 64");
        CHECK(call_ii(shl, 1, 200) == 0, "1 << 200");
        CHECK(call_ii(shr, -16, 2) == -4, "-16 >> 2");
        CHECK(call_ii(shr, -16, 99) == -1, "-16 >> 99");
        CHECK(call_ii(shr, 16, 99) == 0, "16 >> 99");
        CHECK((uint64_t)call_ii(ushr, -1, 63) == 1, "u64 >> 63");
        CHECK(call_ii(ushr, -1, 64) == 0, "u64 >> 64");
    }
}

static void test_float_arith(void) {
    Entry fd = binop_fn(IR_FLOORDIV, ty_f64, ty_f64, ty_f64);
    Entry md = binop_fn(IR_MOD, ty_f64, ty_f64, ty_f64);
    if (!fd || !md)
        return;
    static const struct { double a, b, q, m; } t[] = {
        {7.5, -2.0, -4.0, -0.5},     {-7.5, 2.0, -4.0, 0.5},   {7.5, 2.0, 3.0, 1.5},
        {-7.5, -2.0, 3.0, -1.5},     {1.0, 0.0, INFINITY, NAN}, {-1.0, 0.0, -INFINITY, NAN},
        {0.0, 0.0, NAN, NAN},        {-0.0, 5.0, -0.0, 0.0},   {5.0, -INFINITY, -1.0, -INFINITY},
        {0.1, 0.01, 10.0, 3.469446951953614e-18},              {-3.0, 3.0, -1.0, 0.0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        double q = call_dd(fd, t[i].a, t[i].b), m = call_dd(md, t[i].a, t[i].b);
        CHECK(same(q, t[i].q), "%g // %g = %g, want %g", t[i].a, t[i].b, q, t[i].q);
        CHECK(same(m, t[i].m), "%g %% %g = %g, want %g", t[i].a, t[i].b, m, t[i].m);
    }
    Entry dv = binop_fn(IR_DIV, ty_f64, ty_f64, ty_f64);
    if (dv)
        CHECK(call_dd(dv, 1.0, 4.0) == 0.25, "1/4");
    /* float32 arithmetic stays float32 */
    Entry fd32 = binop_fn(IR_MOD, ty_f32, ty_f32, ty_f32);
    if (fd32) {
        float a = -7.5f, b = 2.0f, r = 0;
        void *args[2] = {&a, &b};
        CHECK(fd32(args, &r) == 0 && r == 0.5f, "f32 -7.5 %% 2 = %g", r);
    }
}

static void test_pow(void) {
    Entry ip = binop_fn(IR_POW, ty_i64, ty_i64, ty_i64);
    if (ip) {
        CHECK(call_ii(ip, 3, 4) == 81, "3**4");
        CHECK(call_ii(ip, -2, 3) == -8, "(-2)**3");
        CHECK(call_ii(ip, 2, 63) == INT64_MIN, "2**63 wraps");
        CHECK(call_ii(ip, 7, 0) == 1, "7**0");
        CHECK(call_ii(ip, 0, 0) == 1, "0**0");
        CHECK(call_ii(ip, 2, -1) == 0, "2**-1");
        CHECK(call_ii(ip, 3, -1) == 0, "3**-1");
        CHECK(call_ii(ip, 1, -5) == 1, "1**-5");
        CHECK(call_ii(ip, -1, -3) == -1, "(-1)**-3");
        CHECK(call_ii(ip, -1, -2) == 1, "(-1)**-2");
        CHECK(call_ii(ip, 10, 18) == 1000000000000000000LL, "10**18");
    }
    Entry fp = binop_fn(IR_POW, ty_f64, ty_i64, ty_f64);
    if (fp) {
        CHECK(call_di(fp, 2.0, -2) == 0.25, "2.0**-2");
        CHECK(call_di(fp, 1.5, 3) == 3.375, "1.5**3");
        CHECK(call_di(fp, 2.0, 100000) == INFINITY, "2.0**100000");
        CHECK(call_di(fp, 0.5, 0) == 1.0, "0.5**0");
        CHECK(call_di(fp, -2.0, 5) == -32.0, "(-2.0)**5");
    }
    Entry ff = binop_fn(IR_POW, ty_f64, ty_f64, ty_f64);
    if (ff)
        CHECK(fabs(call_dd(ff, 2.0, 0.5) - sqrt(2.0)) < 1e-15, "2.0**0.5");
    /* a constant exponent: x ** 2 and x ** -3 */
    for (int k = 0; k < 2; k++) {
        IrProgram *p = ir_program_new(arena, TARGET_CPU);
        IrFunc *f = func(p, "powc", ty_f64, 1, ty_f64);
        IrBlock *b = ir_block_new(f);
        IrInst *r = E(f, b, IR_POW, ty_f64, 2, param(f, b, 0), iconst(f, b, ty_i64, k ? -3 : 2));
        E(f, b, IR_RET, ty_void, 1, r);
        Entry e = compile(p);
        if (e) {
            double x = 2.0, y = 0;
            void *args[1] = {&x};
            CHECK(e(args, &y) == 0 && y == (k ? 0.125 : 4.0), "2.0**c = %g", y);
        }
    }
}

static void test_casts(void) {
    Entry f2i = unop_fn(IR_CAST, ty_f64, ty_i64);
    Entry f2b = unop_fn(IR_CAST, ty_f64, ty_bool);
    Entry i2i8 = unop_fn(IR_CAST, ty_i64, ty_i8);
    Entry f2u8 = unop_fn(IR_CAST, ty_f64, ty_u8);
    Entry b2f = unop_fn(IR_CAST, ty_bool, ty_f64);
    Entry i2b = unop_fn(IR_CAST, ty_i64, ty_bool);
    Entry u2f = unop_fn(IR_CAST, ty_u64, ty_f64);
    Entry i8toi = unop_fn(IR_CAST, ty_i8, ty_i64);
    Entry d2f = unop_fn(IR_CAST, ty_f64, ty_f32);
    Entry inv = unop_fn(IR_INVERT, ty_bool, ty_bool);
    if (!f2i || !f2b || !i2i8 || !f2u8 || !b2f || !i2b || !u2f || !i8toi || !d2f || !inv)
        return;
    double d;
    int64_t i;
    void *a[1];
    int64_t ri;
    double rd;
    uint8_t rb;
    a[0] = &d;
    d = -2.7, f2i(a, &ri); CHECK(ri == -2, "int(-2.7) = %lld", (long long)ri);
    d = 2.7, f2i(a, &ri); CHECK(ri == 2, "int(2.7)");
    rb = 7, d = NAN, f2b(a, &rb); CHECK(rb == 1, "bool(nan) = %d", rb);
    rb = 7, d = 0.0, f2b(a, &rb); CHECK(rb == 0, "bool(0.0) = %d", rb);
    rb = 7, d = -0.0, f2b(a, &rb); CHECK(rb == 0, "bool(-0.0)");
    rb = 7, d = 0.25, f2b(a, &rb); CHECK(rb == 1, "bool(0.25)");
    uint8_t u = 0;
    d = -1.0, f2u8(a, &u); CHECK(u == 255, "uint8(-1.0) = %d", u);
    a[0] = &i;
    int8_t r8 = 0;
    i = 300, i2i8(a, &r8); CHECK(r8 == 44, "int8(300) = %d", r8);
    i = 0, rb = 7, i2b(a, &rb); CHECK(rb == 0, "bool(0)");
    i = -5, rb = 7, i2b(a, &rb); CHECK(rb == 1, "bool(-5)");
    i = -1, u2f(a, &rd); CHECK(rd == 18446744073709551616.0, "float(uint64 max) = %g", rd);
    int8_t s8 = -3;
    a[0] = &s8, i8toi(a, &ri); CHECK(ri == -3, "int64(int8 -3)");
    bool bv = true;
    a[0] = &bv, b2f(a, &rd); CHECK(rd == 1.0, "float(True)");
    rb = 7, inv(a, &rb); CHECK(rb == 0, "~True (bool) = %d", rb);
    float rf = 0;
    d = 0.1, a[0] = &d, d2f(a, &rf); CHECK(rf == 0.1f, "float32(0.1)");

    /* comparisons: nan != nan is True, nan == nan False; unsigned compare */
    IrProgram *p = ir_program_new(arena, TARGET_CPU);
    IrFunc *f = func(p, "cmps", ty_i64, 2, ty_f64, ty_u64);
    IrBlock *b = ir_block_new(f);
    IrInst *x = param(f, b, 0), *y = param(f, b, 1);
    IrInst *ne = E(f, b, IR_CAST, ty_i64, 1, cmp(f, b, CMP_NE, x, x));
    IrInst *eq = E(f, b, IR_CAST, ty_i64, 1, cmp(f, b, CMP_EQ, x, x));
    IrInst *gt = E(f, b, IR_CAST, ty_i64, 1, cmp(f, b, CMP_GT, y, iconst(f, b, ty_u64, 1)));
    IrInst *r = E(f, b, IR_ADD, ty_i64, 2, E(f, b, IR_MUL, ty_i64, 2, ne, iconst(f, b, ty_i64, 100)),
                  E(f, b, IR_ADD, ty_i64, 2, E(f, b, IR_MUL, ty_i64, 2, eq, iconst(f, b, ty_i64, 10)), gt));
    E(f, b, IR_RET, ty_void, 1, r);
    Entry e = compile(p);
    if (e) {
        d = NAN;
        uint64_t uv = UINT64_MAX;
        void *args[2] = {&d, &uv};
        e(args, &ri);
        CHECK(ri == 101, "nan cmp: %lld", (long long)ri);
        d = 1.0;
        e(args, &ri);
        CHECK(ri == 11, "1.0 cmp: %lld", (long long)ri);
    }
}

/* ---- arrays ----------------------------------------------------------------------------------- */
/* sum(a[i] for i in range(len(a))) over a 1-d array of the given layout */
static Entry sum1d_fn(ArrayLayout layout) {
    IrProgram *p = ir_program_new(arena, TARGET_CPU);
    const Type *at = ty_array(ty_f64, 1, layout);
    IrFunc *f = func(p, "sum", ty_f64, 1, at);
    int vi = ir_var_new(f, "i", ty_i64), vs = ir_var_new(f, "s", ty_f64);
    IrBlock *b0 = ir_block_new(f), *b1 = ir_block_new(f), *b2 = ir_block_new(f), *b3 = ir_block_new(f);
    IrInst *a = param(f, b0, 0);
    store(f, b0, vi, iconst(f, b0, ty_i64, 0));
    store(f, b0, vs, fconst(f, b0, ty_f64, 0.0));
    br(f, b0, b1);
    IrInst *n = E(f, b1, IR_SHAPE, ty_i64, 1, a);
    n->imm.index = 0;
    condbr(f, b1, cmp(f, b1, CMP_LT, load(f, b1, vi), n), b2, b3);
    IrInst *i = load(f, b2, vi);
    IrInst *x = E(f, b2, IR_ALOAD, ty_f64, 2, a, i);
    store(f, b2, vs, E(f, b2, IR_ADD, ty_f64, 2, load(f, b2, vs), x));
    store(f, b2, vi, E(f, b2, IR_ADD, ty_i64, 2, i, iconst(f, b2, ty_i64, 1)));
    br(f, b2, b1);
    E(f, b3, IR_RET, ty_void, 1, load(f, b3, vs));
    return compile(p);
}


static NjArray view(void *data, NjDType dt, int ndim, const int64_t *shape, const int64_t *strides) {
    NjArray a;
    memset(&a, 0, sizeof a);
    a.data = data;
    a.ndim = ndim;
    a.dtype = dt;
    for (int k = 0; k < ndim; k++)
        a.shape[k] = shape[k], a.strides[k] = strides[k];
    return a;
}

static double call_arr(Entry e, NjArray *a) {
    double r = -1;
    void *args[1] = {a};
    int32_t st = e(args, &r);
    CHECK(st == 0, "status %d", st);
    return r;
}

static void test_arrays_1d(void) {
    double data[100];
    for (int i = 0; i < 100; i++)
        data[i] = i + 1;
    Entry c = sum1d_fn(LAYOUT_C), a = sum1d_fn(LAYOUT_A);
    if (!c || !a)
        return;
    int64_t n = 100, st = 8;
    NjArray arr = view(data, NJ_FLOAT64, 1, &n, &st);
    CHECK(call_arr(c, &arr) == 5050.0, "sum C");
    CHECK(call_arr(a, &arr) == 5050.0, "sum A");
    /* every second element: 1 + 3 + ... + 99 */
    n = 50, st = 16;
    arr = view(data, NJ_FLOAT64, 1, &n, &st);
    CHECK(call_arr(a, &arr) == 2500.0, "strided sum = %g", call_arr(a, &arr));
    /* reversed view data[::-1] */
    n = 100, st = -8;
    arr = view(data + 99, NJ_FLOAT64, 1, &n, &st);
    CHECK(call_arr(a, &arr) == 5050.0, "negative-stride sum");
    n = 0;
    arr = view(data, NJ_FLOAT64, 1, &n, &st);
    CHECK(call_arr(c, &arr) == 0.0, "empty sum");
}

/* get(a, i, j) -> a[i, j] */
static Entry get2d_fn(ArrayLayout layout) {
    IrProgram *p = ir_program_new(arena, TARGET_CPU);
    IrFunc *f = func(p, "get2", ty_f64, 3, ty_array(ty_f64, 2, layout), ty_i64, ty_i64);
    IrBlock *b = ir_block_new(f);
    IrInst *x = E(f, b, IR_ALOAD, ty_f64, 3, param(f, b, 0), param(f, b, 1), param(f, b, 2));
    E(f, b, IR_RET, ty_void, 1, x);
    return compile(p);
}

static void test_arrays_2d(void) {
    enum { R = 3, C = 4 };
    double data[R * C];
    for (int k = 0; k < R * C; k++)
        data[k] = k;
    Entry ec = get2d_fn(LAYOUT_C), ef = get2d_fn(LAYOUT_F), ea = get2d_fn(LAYOUT_A);
    if (!ec || !ef || !ea)
        return;
    int64_t shape[2] = {R, C}, cst[2] = {C * 8, 8}, fst[2] = {8, R * 8};
    NjArray ac = view(data, NJ_FLOAT64, 2, shape, cst), af = view(data, NJ_FLOAT64, 2, shape, fst);
    for (int64_t i = -R; i < R; i++)
        for (int64_t j = -C; j < C; j++) {
            int64_t ii = i < 0 ? i + R : i, jj = j < 0 ? j + C : j;
            double r = -1;
            void *args[3] = {&ac, &i, &j};
            ec(args, &r);
            CHECK(r == data[ii * C + jj], "C a[%lld,%lld] = %g", (long long)i, (long long)j, r);
            ea(args, &r);
            CHECK(r == data[ii * C + jj], "A(C) a[%lld,%lld] = %g", (long long)i, (long long)j, r);
            args[0] = &af;
            ef(args, &r);
            CHECK(r == data[jj * R + ii], "F a[%lld,%lld] = %g", (long long)i, (long long)j, r);
            ea(args, &r);
            CHECK(r == data[jj * R + ii], "A(F) a[%lld,%lld] = %g", (long long)i, (long long)j, r);
        }
}

/* flag(a: bool[:], i, v) -> bool: a[i] = v > 0; return not a[i] */
static void test_bool_array(void) {
    IrProgram *p = ir_program_new(arena, TARGET_CPU);
    IrFunc *f = func(p, "flag", ty_bool, 3, ty_array(ty_bool, 1, LAYOUT_C), ty_i64, ty_f64);
    IrBlock *b = ir_block_new(f);
    IrInst *a = param(f, b, 0), *i = param(f, b, 1);
    IrInst *c = cmp(f, b, CMP_GT, param(f, b, 2), fconst(f, b, ty_f64, 0.0));
    E(f, b, IR_ASTORE, ty_void, 3, a, i, c);
    IrInst *x = E(f, b, IR_ALOAD, ty_bool, 2, a, i);
    E(f, b, IR_RET, ty_void, 1, E(f, b, IR_NOT, ty_bool, 1, x));
    Entry e = compile(p);
    if (!e)
        return;
    uint8_t flags[4] = {9, 9, 9, 9}, r = 7;
    int64_t n = 4, st = 1, idx = 2;
    double v = 1.5;
    NjArray arr = view(flags, NJ_BOOL, 1, &n, &st);
    void *args[3] = {&arr, &idx, &v};
    CHECK(e(args, &r) == 0 && r == 0 && flags[2] == 1, "flag set: r=%d flags[2]=%d", r, flags[2]);
    v = -1, idx = -1;
    CHECK(e(args, &r) == 0 && r == 1 && flags[3] == 0 && flags[0] == 9, "flag clear");
}

/* ---- calls and raises ------------------------------------------------------------------------ */
static void test_calls(void) {
    IrProgram *p = ir_program_new(arena, TARGET_CPU);
    int site = ir_raise_site(p, RAISE_VALUE, "negative", L0);
    IrFunc *f = func(p, "outer", ty_i64, 2, ty_i64, ty_array(ty_i64, 1, LAYOUT_A));
    IrFunc *g = func(p, "inner", ty_i64, 2, ty_i64, ty_array(ty_i64, 1, LAYOUT_A));
    /* inner(x, a): if x < 0: raise; return x * a[1] */
    IrBlock *g0 = ir_block_new(g), *g1 = ir_block_new(g), *g2 = ir_block_new(g);
    IrInst *x = param(g, g0, 0), *a = param(g, g0, 1);
    condbr(g, g0, cmp(g, g0, CMP_LT, x, iconst(g, g0, ty_i64, 0)), g1, g2);
    E(g, g1, IR_RAISE, ty_void, 0)->imm.index = site;
    IrInst *el = E(g, g2, IR_ALOAD, ty_i64, 2, a, iconst(g, g2, ty_i64, 1));
    E(g, g2, IR_RET, ty_void, 1, E(g, g2, IR_MUL, ty_i64, 2, x, el));
    /* outer(x, a): return inner(x, a) + 1 */
    IrBlock *f0 = ir_block_new(f);
    IrInst *call = E(f, f0, IR_CALL, ty_i64, 2, param(f, f0, 0), param(f, f0, 1));
    call->imm.callee = g;
    E(f, f0, IR_RET, ty_void, 1, E(f, f0, IR_ADD, ty_i64, 2, call, iconst(f, f0, ty_i64, 1)));
    Entry e = compile(p);
    if (!e)
        return;
    int64_t data[3] = {10, 20, 30}, n = 3, st = 8, xv = 3, r = 0;
    NjArray arr = view(data, NJ_INT64, 1, &n, &st);
    void *args[2] = {&xv, &arr};
    CHECK(e(args, &r) == 0 && r == 61, "outer(3) = %lld", (long long)r);
    xv = -2;
    int32_t status = e(args, &r);
    CHECK(status == site, "raise propagates: status %d", status);
}

/* ---- tuples and local arrays ---------------------------------------------------------------- */
static void test_tuples(void) {
    const Type *el[2] = {ty_i64, ty_i64};
    const Type *tt = ty_tuple(el, 2);
    /* swap(t: UniTuple(int64, 2)) -> (t[1], t[0] * 10) */
    IrProgram *p = ir_program_new(arena, TARGET_CPU);
    IrFunc *f = func(p, "swap", tt, 1, tt);
    IrBlock *b = ir_block_new(f);
    IrInst *t = param(f, b, 0);
    IrInst *x0 = E(f, b, IR_EXTRACT, ty_i64, 1, t), *x1 = E(f, b, IR_EXTRACT, ty_i64, 1, t);
    x0->imm.index = 0, x1->imm.index = 1;
    IrInst *r = E(f, b, IR_TUPLE, tt, 2, x1, E(f, b, IR_MUL, ty_i64, 2, x0, iconst(f, b, ty_i64, 10)));
    E(f, b, IR_RET, ty_void, 1, r);
    Entry e = compile(p);
    if (e) {
        int64_t in[2] = {3, 4}, out[2] = {0, 0};
        void *args[1] = {in};
        CHECK(e(args, out) == 0 && out[0] == 4 && out[1] == 30, "swap -> (%lld, %lld)",
              (long long)out[0], (long long)out[1]);
    }
    /* loc() -> float: a = local.array(4); a[0] = 1.5; a[3] = 2; return a[0] + a[-1] */
    p = ir_program_new(arena, TARGET_CPU);
    f = func(p, "loc", ty_f64, 0);
    b = ir_block_new(f);
    const Type *at = ty_array(ty_f64, 1, LAYOUT_C);
    IrInst *la = E(f, b, IR_LOCAL, at, 0);
    la->imm.dims[0] = 4;
    E(f, b, IR_ASTORE, ty_void, 3, la, iconst(f, b, ty_i64, 0), fconst(f, b, ty_f64, 1.5));
    E(f, b, IR_ASTORE, ty_void, 3, la, iconst(f, b, ty_i64, 3), fconst(f, b, ty_f64, 2.0));
    IrInst *s = E(f, b, IR_ADD, ty_f64, 2, E(f, b, IR_ALOAD, ty_f64, 2, la, iconst(f, b, ty_i64, 0)),
                  E(f, b, IR_ALOAD, ty_f64, 2, la, iconst(f, b, ty_i64, -1)));
    E(f, b, IR_RET, ty_void, 1, s);
    e = compile(p);
    if (e) {
        double d = 0;
        CHECK(e(NULL, &d) == 0 && d == 3.5, "local array: %g", d);
    }
}

/* ---- math ------------------------------------------------------------------------------------- */
static Entry math_fn(MathFn m, const Type *ta, const Type *tr) {
    IrProgram *p = ir_program_new(arena, TARGET_CPU);
    int ar = ir_math[m].arity;
    IrFunc *f = ar == 1 ? func(p, ir_math[m].name, tr, 1, ta) : func(p, ir_math[m].name, tr, 2, ta, ta);
    IrBlock *b = ir_block_new(f);
    IrInst *in = ar == 1 ? E(f, b, IR_MATH, tr, 1, param(f, b, 0))
                         : E(f, b, IR_MATH, tr, 2, param(f, b, 0), param(f, b, 1));
    in->imm.index = m;
    E(f, b, IR_RET, ty_void, 1, in);
    return compile(p);
}

static void test_math(void) {
    Entry s = math_fn(MATH_SIN, ty_f64, ty_f64), q = math_fn(MATH_SQRT, ty_f64, ty_f64);
    Entry e1 = math_fn(MATH_EXPM1, ty_f64, ty_f64), at = math_fn(MATH_ATAN2, ty_f64, ty_f64);
    Entry rad = math_fn(MATH_RADIANS, ty_f64, ty_f64), fl = math_fn(MATH_FLOOR, ty_f64, ty_i64);
    Entry nan_ = math_fn(MATH_ISNAN, ty_f64, ty_bool), inf = math_fn(MATH_ISINF, ty_f64, ty_bool);
    Entry fin = math_fn(MATH_ISFINITE, ty_f64, ty_bool), sf = math_fn(MATH_SIN, ty_f32, ty_f32);
    Entry ga = math_fn(MATH_GAMMA, ty_f64, ty_f64), nani = math_fn(MATH_ISNAN, ty_i64, ty_bool);
    if (!s || !q || !e1 || !at || !rad || !fl || !nan_ || !inf || !fin || !sf || !ga || !nani)
        return;
    double x, r, y;
    void *a[2] = {&x, &y};
    x = 1.0, s(a, &r); CHECK(r == sin(1.0), "sin(1) = %.17g", r);
    x = 2.0, q(a, &r); CHECK(r == sqrt(2.0), "sqrt(2)");
    x = 1e-10, e1(a, &r); CHECK(r == expm1(1e-10), "expm1");
    x = 1.0, y = -1.0, at(a, &r); CHECK(r == atan2(1.0, -1.0), "atan2");
    x = 180.0, rad(a, &r); CHECK(fabs(r - M_PI) < 1e-15, "radians(180) = %.17g", r);
    x = 5.0, ga(a, &r); CHECK(fabs(r - 24.0) < 1e-12, "gamma(5) = %.17g", r);
    int64_t ri;
    x = -2.5, fl(a, &ri); CHECK(ri == -3, "floor(-2.5) = %lld", (long long)ri);
    uint8_t rb;
    x = NAN, rb = 9, nan_(a, &rb); CHECK(rb == 1, "isnan(nan)");
    x = 1.0, rb = 9, nan_(a, &rb); CHECK(rb == 0, "isnan(1)");
    x = -INFINITY, rb = 9, inf(a, &rb); CHECK(rb == 1, "isinf(-inf)");
    x = NAN, rb = 9, inf(a, &rb); CHECK(rb == 0, "isinf(nan)");
    x = NAN, rb = 9, fin(a, &rb); CHECK(rb == 0, "isfinite(nan)");
    x = 3.0, rb = 9, fin(a, &rb); CHECK(rb == 1, "isfinite(3)");
    int64_t iv = 4;
    void *ai[1] = {&iv};
    rb = 9, nani(ai, &rb); CHECK(rb == 0, "isnan(int)");
    float fx = 0.5f, fr = 0;
    void *af[1] = {&fx};
    sf(af, &fr); CHECK(fr == sinf(0.5f), "sinf");
}

/* ---- vectorization ------------------------------------------------------------------------ */
/* rel(x, y, out): for i in range(x.shape[0]): out[i] = 2*(x[i]-y[i])/(x[i]+y[i])  (or
 * out[i] = sin(x[i]) when use_sin) */
static IrProgram *rel_prog(bool use_sin) {
    IrProgram *p = ir_program_new(arena, TARGET_CPU);
    const Type *at = ty_array(ty_f64, 1, LAYOUT_C);
    IrFunc *f = func(p, use_sin ? "vsin" : "rel", ty_void, 3, at, at, at);
    int vi = ir_var_new(f, "i", ty_i64);
    IrBlock *b0 = ir_block_new(f), *b1 = ir_block_new(f), *b2 = ir_block_new(f), *b3 = ir_block_new(f);
    IrInst *x = param(f, b0, 0), *y = param(f, b0, 1), *out = param(f, b0, 2);
    IrInst *n = E(f, b0, IR_SHAPE, ty_i64, 1, x);
    n->imm.index = 0;
    store(f, b0, vi, iconst(f, b0, ty_i64, 0));
    br(f, b0, b1);
    condbr(f, b1, cmp(f, b1, CMP_LT, load(f, b1, vi), n), b2, b3);
    IrInst *i = load(f, b2, vi);
    IrInst *xi = E(f, b2, IR_ALOAD, ty_f64, 2, x, i), *yi = E(f, b2, IR_ALOAD, ty_f64, 2, y, i);
    IrInst *v;
    if (use_sin) {
        v = E(f, b2, IR_MATH, ty_f64, 1, xi);
        v->imm.index = MATH_SIN;
    } else {
        IrInst *d = E(f, b2, IR_SUB, ty_f64, 2, xi, yi), *s = E(f, b2, IR_ADD, ty_f64, 2, xi, yi);
        v = E(f, b2, IR_DIV, ty_f64, 2, E(f, b2, IR_MUL, ty_f64, 2, fconst(f, b2, ty_f64, 2.0), d), s);
    }
    E(f, b2, IR_ASTORE, ty_void, 3, out, i, v);
    store(f, b2, vi, E(f, b2, IR_ADD, ty_i64, 2, i, iconst(f, b2, ty_i64, 1)));
    br(f, b2, b1);
    E(f, b3, IR_RET, ty_void, 0);
    return p;
}

static void run_rel(Entry e, bool use_sin) {
    enum { N = 1003 };
    static double x[N], y[N], out[N];
    for (int k = 0; k < N; k++)
        x[k] = k + 1.0, y[k] = 0.5 * k, out[k] = -1;
    int64_t n = N, st = 8;
    NjArray ax = view(x, NJ_FLOAT64, 1, &n, &st), ay = view(y, NJ_FLOAT64, 1, &n, &st),
            ao = view(out, NJ_FLOAT64, 1, &n, &st);
    void *args[3] = {&ax, &ay, &ao};
    CHECK(e(args, NULL) == 0, "rel status");
    int bad = 0;
    for (int k = 0; k < N; k++) {
        double want = use_sin ? sin(x[k]) : 2 * (x[k] - y[k]) / (x[k] + y[k]);
        if (use_sin ? fabs(out[k] - want) > 1e-15 : out[k] != want)
            bad++;
    }
    CHECK(bad == 0, "%d wrong elements", bad);
}

static void test_vectorize(void) {
    IrProgram *p = rel_prog(false);
    char *err = NULL;
    char *as = cg_emit_asm(p, NULL, &err);
    CHECK(as != NULL, "emit_asm: %s", err ? err : "");
    if (as)
        CHECK(strstr(as, "ymm") || strstr(as, "zmm"), "no vector registers in the loop");
    free(as);
    free(err), err = NULL;
    char *ll = cg_emit_llvm(p, NULL, &err);
    CHECK(ll != NULL, "emit_llvm: %s", err ? err : "");
    if (ll)
        CHECK(strstr(ll, "x double>") != NULL, "no vector type in the IR");
    if (ll && getenv("NUMJIT_TEST_DUMP")) /* a look at the optimized loop */
        fputs(ll, stdout);
    free(ll);
    free(err), err = NULL;
    /* the same program compiled twice: two working entries */
    Entry e1 = compile(p), e2 = compile(p);
    if (e1 && e2) {
        CHECK(e1 != e2, "distinct entries");
        run_rel(e1, false);
        run_rel(e2, false);
    }
    /* without optimization (allocas stay, nothing inlined) the results are the same */
    CgOptions o0 = {.opt_level = 0};
    void *e0 = NULL;
    CHECK(cg_jit_compile(jit, p, &o0, &e0, &err), "O0: %s", err ? err : "");
    free(err), err = NULL;
    if (e0)
        run_rel((Entry)e0, false);
    /* sin through libmvec */
    p = rel_prog(true);
    ll = cg_emit_llvm(p, NULL, &err);
    CHECK(ll && strstr(ll, "_ZGV"), "sin loop not vectorized through libmvec");
    free(ll);
    free(err), err = NULL;
    Entry es = compile(p);
    if (es)
        run_rel(es, true);
}

/* scale2(a, out): for i in range(a.shape[0]): for j in range(a.shape[1]): out[i, j] = a[i, j] * 2 */
static void test_vectorize_2d(void) {
    IrProgram *p = ir_program_new(arena, TARGET_CPU);
    const Type *at = ty_array(ty_f64, 2, LAYOUT_C);
    IrFunc *f = func(p, "scale2", ty_void, 2, at, at);
    int vi = ir_var_new(f, "i", ty_i64), vj = ir_var_new(f, "j", ty_i64);
    IrBlock *b0 = ir_block_new(f), *oh = ir_block_new(f), *ih = ir_block_new(f),
            *body = ir_block_new(f), *olatch = ir_block_new(f), *done = ir_block_new(f);
    IrInst *a = param(f, b0, 0), *out = param(f, b0, 1);
    IrInst *n0 = E(f, b0, IR_SHAPE, ty_i64, 1, a), *n1 = E(f, b0, IR_SHAPE, ty_i64, 1, a);
    n0->imm.index = 0, n1->imm.index = 1;
    store(f, b0, vi, iconst(f, b0, ty_i64, 0));
    br(f, b0, oh);
    condbr(f, oh, cmp(f, oh, CMP_LT, load(f, oh, vi), n0), ih, done);
    store(f, ih, vj, iconst(f, ih, ty_i64, 0));
    IrBlock *ih2 = ir_block_new(f);
    br(f, ih, ih2);
    condbr(f, ih2, cmp(f, ih2, CMP_LT, load(f, ih2, vj), n1), body, olatch);
    IrInst *i = load(f, body, vi), *j = load(f, body, vj);
    IrInst *x = E(f, body, IR_ALOAD, ty_f64, 3, a, i, j);
    E(f, body, IR_ASTORE, ty_void, 4, out, i, j,
      E(f, body, IR_MUL, ty_f64, 2, x, fconst(f, body, ty_f64, 2.0)));
    store(f, body, vj, E(f, body, IR_ADD, ty_i64, 2, j, iconst(f, body, ty_i64, 1)));
    br(f, body, ih2);
    store(f, olatch, vi, E(f, olatch, IR_ADD, ty_i64, 2, load(f, olatch, vi), iconst(f, olatch, ty_i64, 1)));
    br(f, olatch, oh);
    E(f, done, IR_RET, ty_void, 0);
    char *err = NULL, *ll = cg_emit_llvm(p, NULL, &err);
    CHECK(ll && strstr(ll, "x double>"), "2-d inner loop not vectorized");
    free(ll);
    free(err);
    Entry e = compile(p);
    if (!e)
        return;
    enum { R = 7, C = 37 };
    static double in[R * C], res[R * C];
    for (int k = 0; k < R * C; k++)
        in[k] = k * 0.5, res[k] = -1;
    int64_t shape[2] = {R, C}, st[2] = {C * 8, 8};
    NjArray ai = view(in, NJ_FLOAT64, 2, shape, st), ao = view(res, NJ_FLOAT64, 2, shape, st);
    void *args[2] = {&ai, &ao};
    CHECK(e(args, NULL) == 0, "scale2 status");
    int bad = 0;
    for (int k = 0; k < R * C; k++)
        bad += res[k] != in[k] * 2;
    CHECK(bad == 0, "scale2: %d wrong", bad);
}

static void test_fastmath(void) {
    IrProgram *p = ir_program_new(arena, TARGET_CPU);
    IrFunc *f = func(p, "fm", ty_f64, 2, ty_f64, ty_f64);
    f->fastmath = true;
    IrBlock *b = ir_block_new(f);
    E(f, b, IR_RET, ty_void, 1, E(f, b, IR_MUL, ty_f64, 2, param(f, b, 0), param(f, b, 1)));
    char *err = NULL, *ll = cg_emit_llvm(p, NULL, &err);
    CHECK(ll && strstr(ll, "fmul fast"), "fast-math flags missing");
    free(ll);
    free(err);
    /* a flag set gives those flags only: nsz and arcp */
    f->fastmath_flags = (1u << 3) | (1u << 4);
    err = NULL;
    ll = cg_emit_llvm(p, NULL, &err);
    CHECK(ll && strstr(ll, "fmul nsz arcp double") && !strstr(ll, "fmul fast"),
          "fast-math flag set: %s", ll ? ll : err);
    free(ll);
    free(err);
}

/* ---- threads: compilations from several threads, on one CgJit and on a second one ---------- */
typedef struct { CgJit *jit; IrProgram *p; int ok; } ThreadJob;

static void *compile_thread(void *arg) {
    ThreadJob *job = arg;
    for (int k = 0; k < 3; k++) {
        void *e = NULL;
        char *err = NULL;
        if (cg_jit_compile(job->jit, job->p, NULL, &e, &err) && e)
            job->ok++;
        free(err);
    }
    return NULL;
}

static void test_threads(void) {
    char *err = NULL;
    CgJit *second = cg_jit_new(&err);
    CHECK(second, "second jit: %s", err ? err : "");
    free(err);
    if (!second)
        return;
    ThreadJob jobs[3] = {{jit, rel_prog(false), 0}, {jit, rel_prog(true), 0}, {second, rel_prog(false), 0}};
    pthread_t th[3];
    for (int k = 0; k < 3; k++)
        pthread_create(&th[k], NULL, compile_thread, &jobs[k]);
    for (int k = 0; k < 3; k++)
        pthread_join(th[k], NULL);
    for (int k = 0; k < 3; k++)
        CHECK(jobs[k].ok == 3, "thread %d: %d of 3 compiled", k, jobs[k].ok);
    cg_jit_free(second);
}

/* ---- errors ------------------------------------------------------------------------------------ */
static void test_errors(void) {
    /* a block without terminator */
    IrProgram *p = ir_program_new(arena, TARGET_CPU);
    IrFunc *f = func(p, "broken", ty_i64, 1, ty_i64);
    IrBlock *b = ir_block_new(f);
    param(f, b, 0);
    void *e = NULL;
    char *err = NULL;
    CHECK(!cg_jit_compile(jit, p, NULL, &e, &err) && err && strstr(err, "broken"), "%s",
          err ? err : "(no error)");
    free(err), err = NULL;
    /* mistyped operands: rejected by LLVM's verifier, reported with the function's name */
    p = ir_program_new(arena, TARGET_CPU);
    f = func(p, "mistyped", ty_i64, 2, ty_i64, ty_f64);
    b = ir_block_new(f);
    IrInst *r = E(f, b, IR_ADD, ty_i64, 2, param(f, b, 0), param(f, b, 1));
    E(f, b, IR_RET, ty_void, 1, r);
    CHECK(!cg_jit_compile(jit, p, NULL, &e, &err) && err && strstr(err, "mistyped"), "%s",
          err ? err : "(no error)");
    if (err && getenv("NUMJIT_TEST_DUMP"))
        fprintf(stderr, "%s\n", err);
    free(err), err = NULL;
    /* GPU-only instructions on the CPU */
    p = ir_program_new(arena, TARGET_CPU);
    f = func(p, "kern", ty_i64, 0);
    b = ir_block_new(f);
    IrInst *t = E(f, b, IR_SREG, ty_i64, 0);
    t->imm.index = SREG_TID_X;
    E(f, b, IR_RET, ty_void, 1, t);
    CHECK(!cg_jit_compile(jit, p, NULL, &e, &err) && err && strstr(err, "CPU"), "%s",
          err ? err : "(no error)");
    free(err), err = NULL;
}

int main(void) {
    char *err = NULL;
    jit = cg_jit_new(&err);
    if (!jit) {
        fprintf(stderr, "cg_jit_new: %s\n", err ? err : "?");
        free(err);
        return 1;
    }
    arena = arena_new();
    test_int_arith();
    test_float_arith();
    test_pow();
    test_casts();
    test_arrays_1d();
    test_arrays_2d();
    test_bool_array();
    test_calls();
    test_tuples();
    test_math();
    test_vectorize();
    test_vectorize_2d();
    test_fastmath();
    test_threads();
    test_errors();
    arena_free(arena);
    cg_jit_free(jit);
    const char *cpu = cg_host_cpu();
    printf("codegen (LLVM %s, %.*s): %d checks, %d failed\n", cg_llvm_version(),
           (int)strcspn(cpu, " "), cpu, checks, failures);
    return failures ? 1 : 0;
}
