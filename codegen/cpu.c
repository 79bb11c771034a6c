/* cpu.c — the x86-64 (host) target: CgTarget hooks, the C-ABI entry, the optimization
 * pipeline, and the ORC LLJIT that turns a lowered program into callable machine code.
 *
 * Pipeline of one compilation (cpu_build, read top to bottom): a module in a fresh LLVM context
 * with the host triple and the TargetMachine's data layout → lower.c lowers every IrFunc →
 * the generic entry `i32 @<mangled>.entry(ptr %args, ptr %ret)` unpacks NjArray/scalar
 * arguments and calls funcs[0] → in long functions, runs of top-level loops moved into functions
 * of their own (outline.c) → LLVMVerifyModule → LLVMRunPasses("default<O3>") with the host
 * TargetMachine (without a TargetMachine the vectorizers do nothing).  The JIT then emits an
 * object file with the same TargetMachine (CodeGenLevelAggressive, host CPU and features) and
 * adds it to one LLJIT per CgJit under a resource tracker, so a failed link is removed again.
 * Each compilation's entry symbol carries a unique suffix, so compiling the same function
 * twice never collides; every other function is internal to its object.
 *
 * Process-wide, once: native target initialization, and glibc's libmvec loaded with
 * RTLD_GLOBAL plus `-vector-library=LIBMVEC-X86`, so loops over sin/cos/exp... vectorize into
 * `_ZGV*` calls that the JIT resolves through a process symbol generator (libm symbols too).
 * The CgJit is guarded by a mutex: compilations on one CgJit are serialized.  Functions of
 * the runtime that compiled code calls (the random-number generators) are absolute symbols of
 * the main JITDylib, defined by the runtime through cg_jit_define: found by name, so objects
 * from the on-disk cache link to them as freshly compiled ones do.
 * For the on-disk cache the same builds can stop at the object file (cg_jit_compile_object,
 * cg_cpu_object), and cg_jit_add_object links given object bytes; cg_opt_runs counts the
 * optimizer runs, so tests can show that a cached load ran none.
 */
#include "cg_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Support.h>
#include <llvm-c/Transforms/PassBuilder.h>

/* ---- target hooks -------------------------------------------------------------------------- */
static unsigned cpu_addrspace(AddrSpace as) {
    (void)as;
    return 0; /* one flat address space on the host */
}

/* llvm intrinsic when the table gives one (vectorized through libmvec), else a libm call
 * declared pure so that it is CSE'd, hoisted and vectorizable. */
static LLVMValueRef cpu_math(CgLower *L, const MathInfo *mi, const Type *ty, LLVMValueRef *args) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    LLVMTypeRef T = cg_reg_type(M, ty), fty = NULL;
    LLVMValueRef fn = NULL;
    if (mi->intrinsic[0])
        fn = cg_intrinsic(M, mi->intrinsic, T, &fty);
    if (!fn) {
        const char *sym = ty->kind == TY_F32 ? mi->libm32 : mi->libm64;
        if (!sym[0]) {
            cg_error(L, cg_lower_func(L)->loc, "math.%s has no CPU implementation", mi->name);
            return NULL;
        }
        LLVMTypeRef pt[2] = {T, T};
        fn = cg_declare_pure(M, sym, T, pt, mi->arity);
        fty = LLVMGlobalGetValueType(fn);
    }
    return cg_fm(L, LLVMBuildCall2(B, fty, fn, args, (unsigned)mi->arity, ""));
}

static LLVMValueRef cpu_sreg(CgLower *L, const IrInst *in) {
    cg_error(L, in->loc, "CUDA thread indices are not supported on the CPU");
    return NULL;
}

static bool cpu_barrier(CgLower *L, const IrInst *in) {
    cg_error(L, in->loc, "cuda.%s is not supported on the CPU", ir_op_name[in->op]);
    return false;
}

static LLVMValueRef cpu_atomic(CgLower *L, const IrInst *in, LLVMValueRef ptr, LLVMTypeRef elty,
                               LLVMValueRef v0, LLVMValueRef v1) {
    (void)ptr, (void)elty, (void)v0, (void)v1;
    cg_error(L, in->loc, "cuda.atomic is not supported on the CPU");
    return NULL;
}

static LLVMValueRef cpu_cuda(CgLower *L, const IrInst *in, LLVMValueRef *args) {
    (void)args;
    cg_error(L, in->loc, "cuda.%s is not supported on the CPU",
             in->imm.index >= 0 && in->imm.index < CU__COUNT ? ir_cuda[in->imm.index].name : "?");
    return NULL;
}

/* A local array is a stack slot of the function; shared memory does not exist here. */
static LLVMValueRef cpu_static_array(CgLower *L, const IrInst *in, int64_t nbytes) {
    if (in->op != IR_LOCAL) {
        cg_error(L, in->loc, "cuda.shared.array is not supported on the CPU");
        return NULL;
    }
    if (nbytes < 0 || nbytes > (1 << 20)) {
        cg_error(L, in->loc, "local array of %lld bytes is too large", (long long)nbytes);
        return NULL;
    }
    CgModule *M = cg_lower_module(L);
    LLVMValueRef a = cg_entry_alloca(L, LLVMArrayType2(LLVMInt8TypeInContext(M->ctx), (uint64_t)nbytes), "local");
    LLVMSetAlignment(a, 16);
    return a;
}

const CgTarget cg_cpu_target = {
    .name = "cpu",
    .addrspace = cpu_addrspace,
    .math = cpu_math,
    .sreg = cpu_sreg,
    .barrier = cpu_barrier,
    .atomic = cpu_atomic,
    .cuda = cpu_cuda,
    .static_array = cpu_static_array,
    .func_attrs = NULL,
};

/* ---- process-wide setup ---------------------------------------------------------------------- */
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;
static bool cpu_native_ok;
static char cpu_desc[4096], cpu_name[256];
static char *cpu_features;

static void cpu_init_once(void) {
    cpu_native_ok = !LLVMInitializeNativeTarget() && !LLVMInitializeNativeAsmPrinter() &&
                    !LLVMInitializeNativeAsmParser();
    /* LLVM's own options: libmvec (loaded for good, RTLD_GLOBAL: the JIT's process generator
     * finds _ZGV*), then $NUMJIT_LLVM_ARGS (space-separated, for experiments: -time-passes,
     * vectorizer knobs) */
    const char *argv[64] = {"numjit"};
    int argc = 1;
    if (dlopen("libmvec.so.1", RTLD_NOW | RTLD_GLOBAL))
        argv[argc++] = "-vector-library=LIBMVEC-X86";
    /* X86's domain reassignment (moving GPR logic into AVX-512 mask registers) grows
     * quadratically with the blocks of a function: 1.4 s of llc's 3.7 s on a function of 400
     * loops (bench/compile_scaling.py), 0 s of it at 200; the code it improves is rare in
     * numeric loops */
    argv[argc++] = "-disable-x86-domain-reassignment";
    /* A branch on `a and b` of two cheap comparisons stays two branches, as LLVM before 19
     * (Numba's) emits it, instead of setcc/and/test into one: a histogram's `if 0 <= b < n:
     * counts[b] += 1` ran 1.4x slower merged (bench/real_programs.py R7; the 8-bit setcc
     * results merge into registers on AMD cores, a chain across iterations), and the
     * branches of numeric loops are mostly predictable */
    argv[argc++] = "-x86-br-merging-base-cost=-1";
    /* The SLP vectorizer packs only trees that gain at least 3 by its cost model (LLVM's
     * default: 1).  The marginal ones it took packed a complex number's {re, im} in a loop
     * around a libm call (`while abs(z) <= 2: z = z*z + c`): the pair went to the stack and
     * back around each hypot call and through shuffles, and the Mandelbrot and Julia
     * @vectorize ran 0.95x Numba (bench/complex.py C2, C8: gains of 1 and 2; 1.01x with
     * scalar parts, as Numba's code has them) */
    argv[argc++] = "-slp-threshold=2";
    static char extra[1024];
    const char *e = getenv("NUMJIT_LLVM_ARGS");
    snprintf(extra, sizeof extra, "%s", e ? e : "");
    for (char *save = NULL, *t = strtok_r(extra, " ", &save); t && argc < 64;
         t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    LLVMParseCommandLineOptions(argc, argv, NULL);
    char *cpu = LLVMGetHostCPUName(), *feat = LLVMGetHostCPUFeatures();
    snprintf(cpu_desc, sizeof cpu_desc, "%s %s", cpu ? cpu : "", feat ? feat : "");
    snprintf(cpu_name, sizeof cpu_name, "%s", cpu ? cpu : "");
    cpu_features = strdup(feat ? feat : ""); /* kept for the process: every TargetMachine */
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(feat);
}

static bool cpu_init(char **err) {
    pthread_once(&cpu_once, cpu_init_once);
    if (!cpu_native_ok && err)
        *err = strdup("codegen: the native LLVM target is not available");
    return cpu_native_ok;
}

/* For aot.c (ahead-of-time objects): the process-wide setup, the host CPU, the optimizer. */
bool cg_cpu_init(char **err) { return cpu_init(err); }

void cg_cpu_host(const char **name, const char **features) {
    pthread_once(&cpu_once, cpu_init_once);
    *name = cpu_name;
    *features = cpu_features ? cpu_features : "";
}

const char *cg_llvm_version(void) {
    static char buf[32];
    unsigned maj, min, pat;
    LLVMGetVersion(&maj, &min, &pat);
    snprintf(buf, sizeof buf, "%u.%u.%u", maj, min, pat);
    return buf;
}

const char *cg_host_cpu(void) {
    pthread_once(&cpu_once, cpu_init_once);
    return cpu_desc;
}

static char *dup_err(const char *prefix, const char *msg) {
    size_t n = strlen(prefix) + strlen(msg ? msg : "") + 4;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s: %s", prefix, msg ? msg : "");
    return s;
}

static char *take_llvm_error(const char *prefix, LLVMErrorRef e) {
    char *m = LLVMGetErrorMessage(e);
    char *s = dup_err(prefix, m);
    LLVMDisposeErrorMessage(m);
    return s;
}

/* A TargetMachine for the host CPU with all its features. */
static LLVMTargetMachineRef cpu_target_machine(char **err) {
    char *triple = LLVMGetDefaultTargetTriple(), *msg = NULL;
    LLVMTargetRef t;
    LLVMTargetMachineRef tm = NULL;
    if (LLVMGetTargetFromTriple(triple, &t, &msg)) {
        *err = dup_err("codegen: no target for the host", msg);
        LLVMDisposeMessage(msg);
    } else {
        tm = LLVMCreateTargetMachine(t, triple, cpu_name, cpu_features ? cpu_features : "",
                                     LLVMCodeGenLevelAggressive, LLVMRelocPIC,
                                     LLVMCodeModelJITDefault);
        if (!tm)
            *err = strdup("codegen: cannot create a TargetMachine for the host");
    }
    LLVMDisposeMessage(triple);
    return tm;
}

/* ---- the C-ABI entry --------------------------------------------------------------------------- */
/* The C layout of a value (numjit.h): a scalar aligned to its size (complex to its parts'), an
 * NjArray aligned to 8 (a list of numbers or strings is one too: its items, owning the list; a
 * set of numbers one of its items, owning a list of them), an NjStr
 * aligned to 8, a tuple as a C struct of its elements (nested tuples as nested structs).
 * Returns the alignment and sets *size; -1 for a type with no C form. */
static int c_layout(const Type *t, int *size) {
    if (t->kind == TY_STR) {
        *size = (int)sizeof(NjStr);
        return 8;
    }
    if (t->kind == TY_ARRAY ||
        (t->kind == TY_LIST && t->dtype && (ty_is_elem(t->dtype) || t->dtype == ty_str)) ||
        (t->kind == TY_SET && t->dtype && ty_is_elem(t->dtype))) {
        *size = (int)sizeof(NjArray);
        return 8;
    }
    if (t->kind == TY_TUPLE) {
        int off = 0, align = 1, sz;
        for (int i = 0; i < t->nelems; i++) {
            int a = c_layout(t->elems[i], &sz);
            if (a < 0)
                return -1;
            off = (off + a - 1) / a * a + sz;
            align = a > align ? a : align;
        }
        *size = (off + align - 1) / align * align;
        return align;
    }
    if (ty_is_complex(t)) { /* {real, imag}: aligned as its parts */
        *size = ty_size(t);
        return *size / 2;
    }
    if (!ty_is_scalar(t))
        return -1;
    *size = ty_size(t);
    return *size;
}

/* The byte offset of each element of tuple t in its C layout. */
static void c_offsets(const Type *t, int *offsets) {
    int off = 0, sz = 0;
    for (int i = 0; i < t->nelems; i++) {
        int a = c_layout(t->elems[i], &sz);
        off = (off + a - 1) / a * a;
        offsets[i] = off;
        off += sz;
    }
}

int cg_result_layout(const Type *t, int *offsets) {
    int size;
    if (c_layout(t, &size) < 0)
        return -1;
    if (t->kind == TY_TUPLE && offsets) {
        int buf[16], *o = t->nelems <= 16 ? buf : malloc(sizeof *o * (size_t)t->nelems);
        if (!o)
            return -1;
        c_offsets(t, o);
        memcpy(offsets, o, sizeof *o * (size_t)(t->nelems < 16 ? t->nelems : 16));
        if (o != buf)
            free(o);
    }
    return size;
}

int cg_c_layout(const Type *t, int *offsets, int *align) {
    int size, a = c_layout(t, &size);
    if (a < 0)
        return -1;
    if (align)
        *align = a;
    if (t->kind == TY_TUPLE && offsets)
        c_offsets(t, offsets);
    return size;
}

/* Writes the array descriptor v (type t) as an NjArray at p. */
void cg_put_njarray(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef v,
                    LLVMValueRef p) {
    LLVMContextRef C = M->ctx;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(C), i32 = LLVMInt32TypeInContext(C),
                i64 = LLVMInt64TypeInContext(C);
    LLVMBuildMemSet(B, p, LLVMConstNull(i8), LLVMConstInt(i64, sizeof(NjArray), 0), 8);
#define AT(off) LLVMBuildGEP2(B, i8, p, (LLVMValueRef[]){LLVMConstInt(i64, (off), 0)}, 1, "")
    LLVMBuildStore(B, LLVMBuildExtractValue(B, v, CG_DESC_DATA, ""), AT(offsetof(NjArray, data)));
    /* an array of records goes as its bytes: uint8, one more dimension of the record's size */
    bool rec = t->dtype->kind == TY_RECORD && t->ndim < NJ_MAX_NDIM;
    LLVMBuildStore(B, LLVMConstInt(i32, (unsigned long long)(t->ndim + rec), 0), AT(offsetof(NjArray, ndim)));
    LLVMBuildStore(B, LLVMConstInt(i32, (unsigned long long)(rec ? NJ_UINT8 : t->dtype->kind - TY_BOOL), 0),
                   AT(offsetof(NjArray, dtype)));
    if (rec) {
        LLVMBuildStore(B, LLVMConstInt(i64, (unsigned long long)t->dtype->rsize, 0),
                       AT(offsetof(NjArray, shape) + 8 * (size_t)t->ndim));
        LLVMBuildStore(B, LLVMConstInt(i64, 1, 0), AT(offsetof(NjArray, strides) + 8 * (size_t)t->ndim));
    }
    for (int d = 0; d < t->ndim; d++) {
        LLVMBuildStore(B, LLVMBuildExtractValue(B, LLVMBuildExtractValue(B, v, CG_DESC_SHAPE, ""), (unsigned)d, ""),
                       AT(offsetof(NjArray, shape) + 8 * (size_t)d));
        LLVMBuildStore(B, LLVMBuildExtractValue(B, LLVMBuildExtractValue(B, v, CG_DESC_STRIDES, ""), (unsigned)d, ""),
                       AT(offsetof(NjArray, strides) + 8 * (size_t)d));
    }
    LLVMBuildStore(B, LLVMBuildExtractValue(B, v, CG_DESC_MEMINFO, ""), AT(offsetof(NjArray, owner)));
#undef AT
}

/* A jitclass instance v (its record's address, a reference the caller gets) written at p as
 * an NjArray of the record's bytes (uint8, one dimension of the record's size) whose owner is
 * the instance's block: the Python package views those bytes as the class's record
 * (python/numjit/jitclass.py, _from_block), and the array's owner holds the reference. */
static void put_instance(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef v,
                         LLVMValueRef p) {
    LLVMContextRef C = M->ctx;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(C), i32 = LLVMInt32TypeInContext(C),
                i64 = LLVMInt64TypeInContext(C);
    LLVMBuildMemSet(B, p, LLVMConstNull(i8), LLVMConstInt(i64, sizeof(NjArray), 0), 8);
#define AT(off) LLVMBuildGEP2(B, i8, p, (LLVMValueRef[]){LLVMConstInt(i64, (off), 0)}, 1, "")
    LLVMBuildStore(B, v, AT(offsetof(NjArray, data)));
    LLVMBuildStore(B, LLVMConstInt(i32, 1, 0), AT(offsetof(NjArray, ndim)));
    LLVMBuildStore(B, LLVMConstInt(i32, NJ_UINT8, 0), AT(offsetof(NjArray, dtype)));
    LLVMBuildStore(B, LLVMConstInt(i64, (unsigned long long)t->rsize, 0),
                   AT(offsetof(NjArray, shape)));
    LLVMBuildStore(B, LLVMConstInt(i64, 1, 0), AT(offsetof(NjArray, strides)));
    LLVMValueRef off = LLVMConstInt(i64, (unsigned long long)-(int64_t)CG_INSTANCE_HEADER, 1);
    LLVMBuildStore(B, LLVMBuildGEP2(B, i8, v, &off, 1, ""), AT(offsetof(NjArray, owner)));
#undef AT
}

/* A result holding arrays, from funcs[0]'s slot to the caller's layout (cg_result_layout):
 * arrays become NjArrays, tuples C structs, recursively. */
static void put_result(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef v,
                       LLVMValueRef p) {
    if (t->kind == TY_ARRAY) {
        cg_put_njarray(M, B, t, v, p);
        return;
    }
    if (t->kind == TY_LIST) {
        cg_list_put_njarray(M, B, t, v, p);
        return;
    }
    if (t->kind == TY_SET) {
        cg_set_put_njarray(M, B, t, v, p);
        return;
    }
    if (ty_is_instance(t)) { /* a jitclass instance: its record's bytes, owning the block */
        put_instance(M, B, t, v, p);
        return;
    }
    if (t->kind != TY_TUPLE) { /* scalars already in memory form; an NjStr is its value */
        LLVMBuildStore(B, v, p);
        return;
    }
    int buf[16], *offsets = t->nelems <= 16 ? buf : malloc(sizeof *offsets * (size_t)t->nelems);
    if (!offsets) {
        cg_module_error(M, "out of memory");
        return;
    }
    c_offsets(t, offsets);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(M->ctx), i64 = LLVMInt64TypeInContext(M->ctx);
    for (int i = 0; i < t->nelems; i++) {
        LLVMValueRef off = LLVMConstInt(i64, (unsigned long long)offsets[i], 0);
        LLVMValueRef q = LLVMBuildGEP2(B, i8, p, &off, 1, "");
        put_result(M, B, t->elems[i], LLVMBuildExtractValue(B, v, (unsigned)i, ""), q);
    }
    if (offsets != buf)
        free(offsets);
}

/* An argument of type t (not an array at the top) read from its C layout at p, in register
 * form; arrays inside tuples are NjArrays and arrive borrowed (no meminfo). */
static LLVMValueRef get_arg(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef p) {
    LLVMContextRef C = M->ctx;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(C), i64 = LLVMInt64TypeInContext(C),
                ptr = LLVMPointerTypeInContext(C, 0);
#define AT(off) LLVMBuildGEP2(B, i8, p, (LLVMValueRef[]){LLVMConstInt(i64, (unsigned long long)(off), 0)}, 1, "")
    if (t->kind == TY_ARRAY) {
        LLVMTypeRef dt = cg_reg_type(M, t);
        LLVMValueRef r = LLVMGetPoison(dt), data = LLVMBuildLoad2(B, ptr, AT(offsetof(NjArray, data)), "");
        LLVMValueRef shape = LLVMGetPoison(LLVMArrayType2(i64, (uint64_t)t->ndim)), strides = shape;
        for (int d = 0; d < t->ndim; d++) {
            shape = LLVMBuildInsertValue(B, shape, LLVMBuildLoad2(B, i64, AT(offsetof(NjArray, shape) + 8 * (size_t)d), ""), (unsigned)d, "");
            strides = LLVMBuildInsertValue(B, strides, LLVMBuildLoad2(B, i64, AT(offsetof(NjArray, strides) + 8 * (size_t)d), ""), (unsigned)d, "");
        }
        r = LLVMBuildInsertValue(B, r, data, CG_DESC_DATA, "");
        r = LLVMBuildInsertValue(B, r, shape, CG_DESC_SHAPE, "");
        r = LLVMBuildInsertValue(B, r, strides, CG_DESC_STRIDES, "");
        return LLVMBuildInsertValue(B, r, LLVMConstNull(ptr), CG_DESC_MEMINFO, "");
    }
    if (t->kind != TY_TUPLE || !ty_has_refs(t)) /* scalars, and tuples of them: LLVM's layout is C's */
        return cg_from_mem(M, B, t, LLVMBuildLoad2(B, cg_mem_type(M, t), p, ""));
    int buf[16], *offsets = t->nelems <= 16 ? buf : malloc(sizeof *offsets * (size_t)t->nelems);
    LLVMValueRef r = LLVMGetPoison(cg_reg_type(M, t));
    if (!offsets) {
        cg_module_error(M, "out of memory");
        return r;
    }
    c_offsets(t, offsets);
    for (int i = 0; i < t->nelems; i++)
        r = LLVMBuildInsertValue(B, r, get_arg(M, B, t->elems[i], AT(offsets[i])), (unsigned)i, "");
    if (offsets != buf)
        free(offsets);
    return r;
#undef AT
}

/* i32 @name(ptr %args, ptr %ret): args[k] points at a scalar of its type, at an NjArray
 * { ptr data; i32 ndim; i32 dtype; i64 shape[8]; i64 strides[8] } or at an NjList (a list,
 * which the function may change: Numba's reflected list; for a set parameter the list of its
 * items, made into a set before the call and refilled from it after: Numba's reflected set),
 * or is a typed dict itself (the caller's, borrowed and changed in place); calls funcs[0]. */
static void cpu_entry(CgModule *M, const char *name) {
    const IrFunc *f = M->prog->funcs[0];
    LLVMContextRef C = M->ctx;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(C, 0), i64 = LLVMInt64TypeInContext(C),
                i8 = LLVMInt8TypeInContext(C);
    LLVMTypeRef pt[2] = {ptr, ptr};
    LLVMValueRef fn = LLVMAddFunction(M->mod, name, LLVMFunctionType(LLVMInt32TypeInContext(C), pt, 2, false));
    cg_add_fn_attr(M, fn, "nounwind");
    LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
    LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, fn, "entry"));
    LLVMValueRef args = LLVMGetParam(fn, 0);
    int n = cg_abi_params(M, f, NULL);
    LLVMValueRef *cargs = malloc(sizeof *cargs * (size_t)n);
    LLVMValueRef *sets = calloc((size_t)f->nparams + 1, sizeof *sets * 2); /* set, its list */
    if (!cargs || !sets) {
        cg_module_error(M, "out of memory");
        free(cargs);
        free(sets);
        LLVMDisposeBuilder(B);
        return;
    }
    int nsets = 0;
    int k = 0;
    cargs[k++] = LLVMGetParam(fn, 1);
    for (int i = 0; i < f->nparams; i++) {
        const Type *t = f->params[i];
        LLVMValueRef idx = LLVMConstInt(i64, (unsigned long long)i, 0);
        LLVMValueRef p = LLVMBuildLoad2(B, ptr, LLVMBuildGEP2(B, ptr, args, &idx, 1, ""), "");
        if (t->kind == TY_LIST || t->kind == TY_DICT) { /* args[k] is the list itself (an
                                                          * NjList) or the dict (numjit.h) */
            cargs[k++] = p;
            continue;
        }
        if (t->kind == TY_SET) { /* args[k] is a list of the set's items */
            LLVMValueRef s = cg_set_from_arg(M, B, t, p);
            LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(C, fn, "set.ok");
            LLVMBasicBlockRef nomem = LLVMAppendBasicBlockInContext(C, fn, "set.nomem");
            LLVMBuildCondBr(B, LLVMBuildIsNull(B, s, ""), nomem, go);
            LLVMPositionBuilderAtEnd(B, nomem); /* the sets made before are released */
            LLVMValueRef bad = LLVMConstInt(LLVMInt32TypeInContext(C), (unsigned long long)-1, 1);
            for (int j = 0; j < nsets; j++)
                cg_set_reflect_arg(M, B, sets[2 * j], sets[2 * j + 1], bad);
            LLVMBuildRet(B, bad);
            LLVMPositionBuilderAtEnd(B, go);
            sets[2 * nsets] = s;
            sets[2 * nsets++ + 1] = p;
            cargs[k++] = s;
            continue;
        }
        if (t->kind != TY_ARRAY) {
            cargs[k++] = get_arg(M, B, t, p);
            continue;
        }
        LLVMValueRef data = LLVMBuildLoad2(B, ptr, p, "");
        if (M->target->addrspace(t->addrspace) != 0)
            data = LLVMBuildAddrSpaceCast(B, data, LLVMPointerTypeInContext(C, M->target->addrspace(t->addrspace)), "");
        cargs[k++] = data;
        for (int field = 0; field < 2; field++)
            for (int d = 0; d < t->ndim; d++) {
                LLVMValueRef off = LLVMConstInt(i64, (unsigned long long)(16 + 64 * field + 8 * d), 0);
                cargs[k++] = LLVMBuildLoad2(B, i64, LLVMBuildGEP2(B, i8, p, &off, 1, ""), "");
            }
    }
    LLVMValueRef slot = NULL;
    if (ty_has_refs(f->ret)) { /* converted below into NjArrays */
        slot = LLVMBuildAlloca(B, cg_mem_type(M, f->ret), "result");
        cargs[0] = slot;
    }
    LLVMValueRef st = LLVMBuildCall2(B, M->fntys[0], M->fns[0], cargs, (unsigned)k, "");
    if (slot) {
        LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(C, fn, "ok");
        LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(C, fn, "done");
        LLVMBuildCondBr(B, LLVMBuildIsNull(B, st, ""), ok, done);
        LLVMPositionBuilderAtEnd(B, ok);
        put_result(M, B, f->ret, LLVMBuildLoad2(B, cg_mem_type(M, f->ret), slot, ""),
                   LLVMGetParam(fn, 1));
        LLVMBuildBr(B, done);
        LLVMPositionBuilderAtEnd(B, done);
    }
    for (int j = 0; j < nsets; j++)
        st = cg_set_reflect_arg(M, B, sets[2 * j], sets[2 * j + 1], st);
    LLVMBuildRet(B, st);
    free(cargs);
    free(sets);
    LLVMDisposeBuilder(B);
}

/* ---- the pipeline ------------------------------------------------------------------------------ */
static atomic_ulong opt_runs; /* LLVM optimizer runs in this process (cg_opt_runs) */

unsigned long cg_opt_runs(void) { return atomic_load(&opt_runs); }

static bool cpu_optimize(LLVMModuleRef mod, LLVMTargetMachineRef tm, int level, char **err) {
    atomic_fetch_add(&opt_runs, 1);
    char pipeline[32];
    snprintf(pipeline, sizeof pipeline, "default<O%d>", level < 0 ? 0 : level > 3 ? 3 : level);
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(po, level >= 2);
    LLVMPassBuilderOptionsSetSLPVectorization(po, level >= 2);
    LLVMPassBuilderOptionsSetLoopInterleaving(po, level >= 2);
    LLVMPassBuilderOptionsSetLoopUnrolling(po, level >= 2);
    LLVMErrorRef e = LLVMRunPasses(mod, pipeline, tm, po);
    LLVMDisposePassBuilderOptions(po);
    if (e) {
        *err = take_llvm_error("codegen: optimization failed", e);
        return false;
    }
    return true;
}

bool cg_cpu_optimize(LLVMModuleRef mod, LLVMTargetMachineRef tm, int level, char **err) {
    return cpu_optimize(mod, tm, level, err);
}

void cg_set_module_target(LLVMModuleRef mod, LLVMTargetMachineRef tm) {
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMSetTarget(mod, triple);
    LLVMDisposeMessage(triple);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(mod, td);
    LLVMDisposeTargetData(td);
}

/* Lowers p into a new module of ctx, adds the entry `entry_name`, verifies and optimizes. */
static LLVMModuleRef cpu_build(LLVMContextRef ctx, LLVMTargetMachineRef tm, const IrProgram *p,
                               const CgOptions *opt, const char *entry_name, char **err) {
    static const CgOptions defaults = {.opt_level = 3};
    if (!opt)
        opt = &defaults;
    if (p->nfuncs < 1) {
        *err = strdup("codegen: empty program");
        return NULL;
    }
    if (p->target != TARGET_CPU) {
        *err = strdup("codegen: this program was typed for the GPU; the CPU target cannot build it");
        return NULL;
    }
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(p->funcs[0]->name, ctx);
    cg_set_module_target(mod, tm);

    CgModule M = {.ctx = ctx, .mod = mod, .prog = p, .target = &cg_cpu_target, .opt = opt};
    bool ok = cg_lower_program(&M);
    if (ok)
        cpu_entry(&M, entry_name);
    if (ok && !M.err && opt->opt_level >= 2 && !getenv("NUMJIT_NO_OUTLINE"))
        for (int i = 0; i < p->nfuncs; i++)
            if (!p->funcs[i]->yield) /* a coroutine's loops hold its suspensions */
                cg_outline_loops(&M, M.fns[i]); /* long functions: each loop its own (outline.c) */
    ok = ok && !M.err && cg_verify(&M);
    if (!ok) {
        *err = M.err ? M.err : strdup("codegen: lowering failed");
        M.err = NULL;
    }
    cg_module_dispose(&M);
    if (ok && !cpu_optimize(mod, tm, opt->opt_level, err))
        ok = false;
    if (!ok) {
        LLVMDisposeModule(mod);
        return NULL;
    }
    return mod;
}

static char *entry_name(const IrProgram *p, unsigned long serial) {
    const IrFunc *f = p->funcs[0];
    const char *base = f->mangled ? f->mangled : f->name;
    size_t n = strlen(base) + 40;
    char *s = malloc(n);
    if (!s)
        return NULL;
    if (serial)
        snprintf(s, n, "%s.entry.%lu", base, serial);
    else
        snprintf(s, n, "%s.entry", base);
    return s;
}

/* Builds p and hands back text: LLVM IR (asm false) or assembly. */
static char *cpu_emit_text(const IrProgram *p, const CgOptions *opt, bool asm_text, char **err) {
    if (!cpu_init(err))
        return NULL;
    if (!p || p->nfuncs < 1) {
        *err = strdup("codegen: empty program");
        return NULL;
    }
    LLVMTargetMachineRef tm = cpu_target_machine(err);
    if (!tm)
        return NULL;
    LLVMContextRef ctx = LLVMContextCreate();
    char *name = entry_name(p, 0), *out = NULL;
    LLVMModuleRef mod = name ? cpu_build(ctx, tm, p, opt, name, err) : NULL;
    if (!name)
        *err = strdup("codegen: out of memory");
    if (mod && !asm_text) {
        char *s = LLVMPrintModuleToString(mod);
        out = strdup(s);
        LLVMDisposeMessage(s);
    } else if (mod) {
        char *msg = NULL;
        LLVMMemoryBufferRef buf;
        if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMAssemblyFile, &msg, &buf)) {
            *err = dup_err("codegen: assembly emission failed", msg);
            LLVMDisposeMessage(msg);
        } else {
            size_t n = LLVMGetBufferSize(buf);
            out = malloc(n + 1);
            if (out) {
                memcpy(out, LLVMGetBufferStart(buf), n);
                out[n] = 0;
            }
            LLVMDisposeMemoryBuffer(buf);
        }
    }
    if (mod)
        LLVMDisposeModule(mod);
    free(name);
    LLVMContextDispose(ctx);
    LLVMDisposeTargetMachine(tm);
    return out;
}

char *cg_emit_llvm(const IrProgram *p, const CgOptions *opt, char **err) {
    return cpu_emit_text(p, opt, false, err);
}

char *cg_emit_asm(const IrProgram *p, const CgOptions *opt, char **err) {
    return cpu_emit_text(p, opt, true, err);
}

/* ---- the JIT --------------------------------------------------------------------------------- */
struct CgJit {
    pthread_mutex_t lock;
    LLVMOrcLLJITRef jit;
    LLVMTargetMachineRef tm; /* made on the first compilation (a process that only loads
                                cached objects never needs one) */
    unsigned long serial;
    char *report; /* the last message of the session's error reporter */
};

/* ORC reports link failures here as well as to the caller: keep it, never print. */
static void jit_report(void *ctx, LLVMErrorRef e) {
    CgJit *j = ctx;
    char *m = LLVMGetErrorMessage(e);
    free(j->report);
    j->report = strdup(m);
    LLVMDisposeErrorMessage(m);
}

CgJit *cg_jit_new(char **err) {
    if (!cpu_init(err))
        return NULL;
    CgJit *j = calloc(1, sizeof *j);
    if (!j) {
        *err = strdup("codegen: out of memory");
        return NULL;
    }
    pthread_mutex_init(&j->lock, NULL);
    LLVMErrorRef e = LLVMOrcCreateLLJIT(&j->jit, NULL);
    if (e) {
        *err = take_llvm_error("codegen: cannot create the JIT", e);
        goto fail;
    }
    LLVMOrcExecutionSessionSetErrorReporter(LLVMOrcLLJITGetExecutionSession(j->jit), jit_report, j);
    LLVMOrcDefinitionGeneratorRef gen;
    e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen, LLVMOrcLLJITGetGlobalPrefix(j->jit),
                                                             NULL, NULL);
    if (e) {
        *err = take_llvm_error("codegen: cannot resolve process symbols", e);
        goto fail;
    }
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(j->jit), gen);
    return j;
fail:
    cg_jit_free(j);
    return NULL;
}

bool cg_jit_define(CgJit *j, const char *const *names, const uintptr_t *addrs, int n,
                   char **err) {
    if (n <= 0)
        return true;
    LLVMOrcCSymbolMapPair *pairs = calloc((size_t)n, sizeof *pairs);
    if (!pairs) {
        *err = strdup("codegen: out of memory");
        return false;
    }
    for (int i = 0; i < n; i++) {
        pairs[i].Name = LLVMOrcLLJITMangleAndIntern(j->jit, names[i]);
        pairs[i].Sym.Address = (LLVMOrcExecutorAddress)addrs[i];
        pairs[i].Sym.Flags.GenericFlags =
            LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
    }
    /* the unit takes over the interned names */
    LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, (size_t)n);
    free(pairs);
    pthread_mutex_lock(&j->lock);
    LLVMErrorRef e = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(j->jit), mu);
    pthread_mutex_unlock(&j->lock);
    if (e) {
        *err = take_llvm_error("codegen: cannot define the runtime's symbols", e);
        return false;
    }
    return true;
}

void cg_jit_free(CgJit *j) {
    if (!j)
        return;
    if (j->jit) {
        LLVMErrorRef e = LLVMOrcDisposeLLJIT(j->jit);
        if (e)
            LLVMConsumeError(e);
    }
    if (j->tm)
        LLVMDisposeTargetMachine(j->tm);
    free(j->report);
    pthread_mutex_destroy(&j->lock);
    free(j);
}

/* The JIT's TargetMachine, made on first use (lock held).  NULL with *err. */
static LLVMTargetMachineRef jit_tm(CgJit *j, char **err) {
    if (!j->tm)
        j->tm = cpu_target_machine(err);
    return j->tm;
}

/* Emits mod as an object file with the JIT's TargetMachine (lock held).  NULL with *err. */
static LLVMMemoryBufferRef emit_object(LLVMTargetMachineRef tm, LLVMModuleRef mod, char **err) {
    char *msg = NULL;
    LLVMMemoryBufferRef obj = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &msg, &obj)) {
        *err = dup_err("codegen: object emission failed", msg);
        LLVMDisposeMessage(msg);
        return NULL;
    }
    return obj;
}

/* Adds obj (consumed) to the main JITDylib under its own resource tracker and looks up sym;
 * a failed link is removed again.  Lock held. */
static bool jit_link(CgJit *j, LLVMMemoryBufferRef obj, const char *sym, void **addr, char **err) {
    LLVMOrcResourceTrackerRef rt =
        LLVMOrcJITDylibCreateResourceTracker(LLVMOrcLLJITGetMainJITDylib(j->jit));
    LLVMErrorRef e = LLVMOrcLLJITAddObjectFileWithRT(j->jit, rt, obj);
    LLVMOrcExecutorAddress a = 0;
    if (!e)
        e = LLVMOrcLLJITLookup(j->jit, &a, sym);
    bool ok = !e;
    if (e) {
        *err = take_llvm_error("codegen: JIT link failed", e);
        LLVMErrorRef e2 = LLVMOrcResourceTrackerRemove(rt);
        if (e2)
            LLVMConsumeError(e2);
    } else {
        *addr = (void *)(uintptr_t)a;
    }
    LLVMOrcReleaseResourceTracker(rt);
    return ok;
}

bool cg_jit_compile(CgJit *j, const IrProgram *p, const CgOptions *opt, void **entry, char **err) {
    *entry = NULL;
    if (!p || p->nfuncs < 1) {
        *err = strdup("codegen: empty program");
        return false;
    }
    pthread_mutex_lock(&j->lock);
    bool ok = false;
    char *name = entry_name(p, ++j->serial);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = name && jit_tm(j, err) ? cpu_build(ctx, j->tm, p, opt, name, err) : NULL;
    if (!name)
        *err = strdup("codegen: out of memory");
    LLVMMemoryBufferRef obj = NULL;
    if (mod) {
        obj = emit_object(j->tm, mod, err);
        LLVMDisposeModule(mod);
    }
    LLVMContextDispose(ctx);
    if (obj)
        ok = jit_link(j, obj, name, entry, err);
    free(name);
    pthread_mutex_unlock(&j->lock);
    return ok;
}

/* ---- TargetMachines for compiling in parallel ---------------------------------------------------
 * A TargetMachine is not for two threads at once, and the JIT's own (j->tm) is used under
 * j->lock.  Loops (cg_cpu_jit_add) take one from this process-wide free list instead, so two
 * threads optimize and emit at the same time and lock only to link; the machines are kept
 * for the process (like libmvec), at most as many as threads ever compiled at once. */
#define TM_POOL 16
static pthread_mutex_t tm_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static LLVMTargetMachineRef tm_pool[TM_POOL];
static int tm_pool_n;

static LLVMTargetMachineRef tm_acquire(char **err) {
    pthread_mutex_lock(&tm_pool_lock);
    LLVMTargetMachineRef tm = tm_pool_n ? tm_pool[--tm_pool_n] : NULL;
    pthread_mutex_unlock(&tm_pool_lock);
    return tm ? tm : cpu_target_machine(err);
}

static void tm_release(LLVMTargetMachineRef tm) {
    pthread_mutex_lock(&tm_pool_lock);
    if (tm_pool_n < TM_POOL) {
        tm_pool[tm_pool_n++] = tm;
        tm = NULL;
    }
    pthread_mutex_unlock(&tm_pool_lock);
    if (tm)
        LLVMDisposeTargetMachine(tm);
}

/* Host triple, data layout, the O3 pipeline and object emission for a module built elsewhere
 * in codegen/ (loops.c: ufunc/gufunc inner loops), with a pooled TargetMachine and no lock.
 * Takes ownership of mod and ctx; NULL with *err on failure. */
static LLVMMemoryBufferRef finish_module(LLVMContextRef ctx, LLVMModuleRef mod, int opt_level,
                                         char **err) {
    LLVMTargetMachineRef tm = tm_acquire(err);
    LLVMMemoryBufferRef obj = NULL;
    if (tm) {
        cg_set_module_target(mod, tm);
        if (cpu_optimize(mod, tm, opt_level, err))
            obj = emit_object(tm, mod, err);
        tm_release(tm);
    }
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
    return obj;
}

/* finish_module, then linking under the JIT's lock.  Takes ownership of mod and ctx. */
bool cg_cpu_jit_add(CgJit *j, LLVMContextRef ctx, LLVMModuleRef mod, int opt_level,
                    const char *sym, void **addr, char **err) {
    *addr = NULL;
    LLVMMemoryBufferRef obj = finish_module(ctx, mod, opt_level, err);
    if (!obj)
        return false;
    pthread_mutex_lock(&j->lock);
    bool ok = jit_link(j, obj, sym, addr, err);
    pthread_mutex_unlock(&j->lock);
    return ok;
}

/* ---- object files for the on-disk cache -------------------------------------------------------
 * The same builds, stopped at the object file: its bytes are what the cache stores, and
 * cg_jit_add_object links them (from the compiler or from disk) into the JIT.  Symbols of
 * these objects are chosen by the caller from the cache key, so one key always has one name:
 * adding an object whose symbol the JIT already defines (a second module in the same context
 * compiling the same function) hands back the existing definition, which is the same code. */
static bool take_bytes(LLVMMemoryBufferRef buf, void **obj, size_t *len, char **err) {
    size_t n = LLVMGetBufferSize(buf);
    void *d = malloc(n ? n : 1);
    if (d)
        memcpy(d, LLVMGetBufferStart(buf), n);
    else
        *err = strdup("codegen: out of memory");
    LLVMDisposeMemoryBuffer(buf);
    *obj = d;
    *len = n;
    return d != NULL;
}

bool cg_jit_compile_object(CgJit *j, const IrProgram *p, const CgOptions *opt, const char *sym,
                           void **obj, size_t *len, char **err) {
    *obj = NULL;
    *len = 0;
    if (!p || p->nfuncs < 1) {
        *err = strdup("codegen: empty program");
        return false;
    }
    pthread_mutex_lock(&j->lock);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = jit_tm(j, err) ? cpu_build(ctx, j->tm, p, opt, sym, err) : NULL;
    LLVMMemoryBufferRef buf = NULL;
    if (mod) {
        buf = emit_object(j->tm, mod, err);
        LLVMDisposeModule(mod);
    }
    LLVMContextDispose(ctx);
    pthread_mutex_unlock(&j->lock);
    return buf && take_bytes(buf, obj, len, err);
}

bool cg_cpu_object(CgJit *j, LLVMContextRef ctx, LLVMModuleRef mod, int opt_level, void **obj,
                   size_t *len, char **err) {
    *obj = NULL;
    *len = 0;
    LLVMMemoryBufferRef buf = finish_module(ctx, mod, opt_level, err);
    return buf && take_bytes(buf, obj, len, err);
}

bool cg_jit_add_object(CgJit *j, const void *obj, size_t len, const char *sym, void **addr,
                       char **err) {
    *addr = NULL;
    pthread_mutex_lock(&j->lock);
    LLVMOrcExecutorAddress a = 0;
    LLVMErrorRef e = LLVMOrcLLJITLookup(j->jit, &a, sym);
    bool ok;
    if (!e) {
        *addr = (void *)(uintptr_t)a;
        ok = true;
    } else {
        LLVMConsumeError(e);
        LLVMMemoryBufferRef buf =
            LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)obj, len, sym);
        ok = buf && jit_link(j, buf, sym, addr, err);
        if (!buf)
            *err = strdup("codegen: out of memory");
    }
    pthread_mutex_unlock(&j->lock);
    return ok;
}
