/* ir.c — building typed IR, and the tables generated from ops.def, math.def, cuda.def and
 * random.def and linalg.def.
 *
 * Everything lives in the IrProgram's arena.  ir_emit appends to a block and numbers results
 * (SSA ids are per function, in creation order).  Arrays of blocks/vars/funcs grow by doubling
 * inside the arena (the old copy is left behind: programs are small and die together).
 */
#include "ir.h"

#include <string.h>

const char *const ir_op_name[IR__COUNT] = {
#define X(e, s, n, legend) s,
#include "ops.def"
#undef X
};
const int ir_op_nargs[IR__COUNT] = {
#define X(e, s, n, legend) n,
#include "ops.def"
#undef X
};
const char *const ir_cmp_name[6] = {"eq", "ne", "lt", "le", "gt", "ge"};
const char *const ir_sreg_name[] = {"tid.x",    "tid.y",    "tid.z",    "ctaid.x",  "ctaid.y",
                                    "ctaid.z",  "ntid.x",   "ntid.y",   "ntid.z",   "nctaid.x",
                                    "nctaid.y", "nctaid.z", "laneid",   "warpsize"};
const char *const ir_atomic_name[ATOM__COUNT] = {"add", "sub", "max",    "min",   "exch",
                                                 "cas", "and", "or",     "xor",   "inc",
                                                 "dec", "nanmax", "nanmin"};
const char *const ir_reduce_name[REDUCE__COUNT] = {"add", "mul", "min", "max"};

const CudaInfo ir_cuda[CU__COUNT] = {
#define X(e, name, nargs, kind, pure) {name, nargs, kind, pure},
#include "cuda.def"
#undef X
};

int ir_cuda_lookup(const char *name) {
    for (int i = 0; i < CU__COUNT; i++)
        if (!strcmp(ir_cuda[i].name, name))
            return i;
    return -1;
}

const RandomInfo ir_random[RND__COUNT] = {
#define X(e, name, nargs, arg, ret, pure) {#name, "numjit_rnd_" #name, nargs, arg, ret, pure},
#include "random.def"
#undef X
};

int ir_random_lookup(const char *name) {
    for (int i = 0; i < RND__COUNT; i++)
        if (!strcmp(ir_random[i].name, name))
            return i;
    return -1;
}

const RtInfo ir_rtcall[RT__COUNT] = {
#define X(e, name, args, ret) {#name, "numjit_rt_" #name, args, ret},
#include "rtcall.def"
#undef X
#define X(e, name, args, ret) {#name, "numjit_la_" #name, args, ret},
#include "linalg.def"
#undef X
#define X(e, name, args, ret) {#name, "numjit_str_" #name, args, ret},
#include "str.def"
#undef X
};

int ir_rtcall_lookup(const char *name) {
    for (int i = 0; i < RT__COUNT; i++)
        if (!strcmp(ir_rtcall[i].name, name))
            return i;
    return -1;
}

const Type *ir_rtcall_arg(const RtInfo *r, int k) {
    return r->args[k] == 'd' ? ty_f64 : r->args[k] == 's' ? ty_str : ty_i64;
}

const MathInfo ir_math[MATH__COUNT] = {
#define X(e, name, arity, kind, intr, f64, f32, nv64, nv32) {name, arity, kind, intr, f64, f32, nv64, nv32},
#include "../stdlib/math.def"
#undef X
};

int ir_math_lookup(const char *name) {
    for (int i = 0; i < MATH__COUNT; i++)
        if (!strcmp(ir_math[i].name, name))
            return i;
    return -1;
}

/* Grows an arena-allocated array of pointers to hold n+1 items. */
static void *grow(Arena *a, void *items, int n, size_t elem) {
    if (n & (n - 1) && n != 0) /* capacity is the next power of two >= n */
        return items;
    int cap = n ? n * 2 : 4;
    void *fresh = arena_alloc(a, (size_t)cap * elem);
    if (fresh && n)
        memcpy(fresh, items, (size_t)n * elem);
    return fresh;
}

IrProgram *ir_program_new(Arena *arena, Target target) {
    IrProgram *p = arena_alloc(arena, sizeof *p);
    p->arena = arena;
    p->target = target;
    return p;
}

IrFunc *ir_func_new(IrProgram *p, const char *name, IrFuncKind kind, int nparams) {
    IrFunc *f = arena_alloc(p->arena, sizeof *f);
    f->name = arena_strdup(p->arena, name);
    f->mangled = f->name;
    f->kind = kind;
    f->ret = ty_void;
    f->nparams = nparams;
    f->params = arena_alloc(p->arena, sizeof(Type *) * (size_t)(nparams + 1));
    f->param_names = arena_alloc(p->arena, sizeof(char *) * (size_t)(nparams + 1));
    f->arena = p->arena;
    p->funcs = grow(p->arena, p->funcs, p->nfuncs, sizeof *p->funcs);
    p->funcs[p->nfuncs++] = f;
    return f;
}

static Arena *func_arena(IrFunc *f) { return f->arena; }

IrBlock *ir_block_new(IrFunc *f) {
    Arena *a = func_arena(f);
    IrBlock *b = arena_alloc(a, sizeof *b);
    b->id = f->nblocks;
    f->blocks = grow(a, f->blocks, f->nblocks, sizeof *f->blocks);
    f->blocks[f->nblocks++] = b;
    return b;
}

int ir_var_new(IrFunc *f, const char *name, const Type *type) {
    Arena *a = func_arena(f);
    f->vars = grow(a, f->vars, f->nvars, sizeof *f->vars);
    f->vars[f->nvars] = (IrVar){arena_strdup(a, name), type};
    return f->nvars++;
}

IrInst *ir_emit(IrFunc *f, IrBlock *b, IrOp op, const Type *type, Loc loc, int nargs,
                IrInst **args) {
    Arena *a = func_arena(f);
    IrInst *in = arena_alloc(a, sizeof *in);
    in->op = op;
    in->type = type ? type : ty_void;
    in->id = in->type == ty_void ? -1 : f->next_id++;
    in->nargs = nargs;
    if (nargs) {
        in->args = arena_alloc(a, sizeof(IrInst *) * (size_t)nargs);
        if (args)
            memcpy(in->args, args, sizeof(IrInst *) * (size_t)nargs);
    }
    in->loc = loc;
    if (b->last)
        b->last->next = in;
    else
        b->first = in;
    b->last = in;
    return in;
}

int ir_raise_site(IrProgram *p, RaiseKind kind, const char *msg, Loc loc) {
    p->raises = grow(p->arena, p->raises, p->nraises, sizeof *p->raises);
    p->raises[p->nraises++] = (RaiseSite){kind, msg, loc, false};
    return p->nraises;
}

int ir_user_raise_site(IrProgram *p, RaiseKind kind, const char *msg, Loc loc) {
    int k = ir_raise_site(p, kind, msg, loc);
    p->raises[k - 1].user = true;
    return k;
}

RaiseKind ir_raise_kind_of(const char *name) {
    for (int k = 1; name && k < RAISE__COUNT; k++)
        if (!strcmp(ir_raise_kind_name[k], name))
            return (RaiseKind)k;
    return (RaiseKind)0;
}

bool ir_block_terminated(const IrBlock *b) {
    if (!b->last)
        return false;
    IrOp op = b->last->op;
    return op == IR_BR || op == IR_CONDBR || op == IR_RET || op == IR_RAISE;
}

/* name + "__" + a compact encoding of the parameter types, identifier-safe. */
const char *ir_mangle(Arena *a, const char *name, const Type **params, int n) {
    StrBuf sb;
    sb_init(&sb);
    sb_puts(&sb, name);
    sb_puts(&sb, "__");
    for (int i = 0; i < n; i++) {
        for (const char *s = params[i]->name; *s; s++) {
            char c = *s;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
                sb_putc(&sb, c);
            else if (c == '[')
                sb_putc(&sb, 'A');
            else if (c == ':')
                sb_putc(&sb, 'x');
            else if (c == ',')
                sb_putc(&sb, '_');
        }
        sb_putc(&sb, '_');
    }
    char *s = arena_strdup(a, sb.data ? sb.data : name);
    sb_free(&sb);
    return s;
}
