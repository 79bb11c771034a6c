/* cg_internal.h — private to codegen/: the lowering state shared by lower.c and the targets.
 *
 * lower.c turns every IrFunc of an IrProgram into one LLVM function of the ABI described in
 * codegen.h, target-independently.  What differs between targets sits behind CgTarget, a small
 * struct of function pointers (QBE's `struct Target`): the address space of array data, math
 * builtins (llvm intrinsics and libm on the CPU, libdevice on NVPTX), GPU special registers,
 * barriers, atomics, the numba-cuda intrinsics (warp shuffles, votes, popc ...) and static (shared/local) arrays, and per-function attributes.  A hook that
 * cannot lower something reports it with cg_error and returns NULL; lowering then stops at the
 * end of the function and the first message comes back through *err.
 *
 * Values: a scalar is its LLVM register type (bool is i1; i8 in memory); an array value is an
 * LLVM struct { ptr data, [ndim x i64] shape, [ndim x i64] strides, ptr meminfo } (exploded
 * into separate parameters at function boundaries, rebuilt in the prologue: SROA takes it apart
 * again; meminfo is NULL unless compiled code allocated the memory, refs.c); a tuple is an LLVM
 * struct of its elements.
 */
#ifndef NUMJIT_CG_INTERNAL_H
#define NUMJIT_CG_INTERNAL_H

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "codegen.h"
#include "numjit.h" /* NjArray, NJ_MAX_NDIM */

typedef struct CgModule CgModule;
typedef struct CgLower CgLower;

typedef struct CgTarget {
    const char *name; /* "cpu", "nvptx" */
    /* LLVM address space for array data living in `as`. */
    unsigned (*addrspace)(AddrSpace as);
    /* A MK_FLOAT/MK_ROUND builtin with a libm or intrinsic spelling, on float operands of type
     * ty (args already converted).  Returns a value of type ty. */
    LLVMValueRef (*math)(CgLower *L, const MathInfo *mi, const Type *ty, LLVMValueRef *args);
    /* IR_SREG: the special register as i64. */
    LLVMValueRef (*sreg)(CgLower *L, const IrInst *in);
    /* IR_BARRIER / IR_FENCE. */
    bool (*barrier)(CgLower *L, const IrInst *in);
    /* IR_ATOMIC on the element at ptr (memory type elty): returns the old value (memory type). */
    LLVMValueRef (*atomic)(CgLower *L, const IrInst *in, LLVMValueRef ptr, LLVMTypeRef elty,
                           LLVMValueRef v0, LLVMValueRef v1);
    /* IR_CUDA (a numba-cuda intrinsic, ir/cuda.def) on its operands args[0..nargs-1]: the
     * result, or NULL (for syncwarp and the fences, or with cg_error). */
    LLVMValueRef (*cuda)(CgLower *L, const IrInst *in, LLVMValueRef *args);
    /* IR_SHARED / IR_LOCAL: pointer to nbytes of storage for the array (C layout). */
    LLVMValueRef (*static_array)(CgLower *L, const IrInst *in, int64_t nbytes);
    /* Attributes of a lowered function (called once its body is complete); may be NULL. */
    void (*func_attrs)(CgModule *M, const IrFunc *f, LLVMValueRef fn);
} CgTarget;

struct CgModule {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    const IrProgram *prog;
    const CgTarget *target;
    const CgOptions *opt;
    LLVMValueRef *fns;  /* per IrFunc: the lowered function */
    LLVMTypeRef *fntys; /* its function type */
    char *err;          /* the first error (malloc'ed), NULL while fine */
    bool parfor_serial; /* parallel loops run on the calling thread, without the runtime
                           (ahead-of-time objects link no numjit) */
};

/* ---- outline.c ---------------------------------------------------------------------------- */
/* In a long function fn (freshly lowered, not optimized), moves each top-level loop that has one
 * exit into an internal noinline function of its own and calls it there, so that LLVM's
 * per-function passes see bounded functions.  Returns the number of loops moved. */
int cg_outline_loops(CgModule *M, LLVMValueRef fn);

/* ---- lower.c ------------------------------------------------------------------------------ */
/* Sets up M for prog (module already created in ctx); declares and defines every IrFunc.
 * False with M->err set on failure. */
bool cg_lower_program(CgModule *M);
void cg_module_dispose(CgModule *M); /* frees fns/fntys/err, not the LLVM module */
/* Verifies the module; on failure sets M->err naming the failing function. */
bool cg_verify(CgModule *M);

LLVMTypeRef cg_reg_type(CgModule *M, const Type *t); /* bool → i1, array → descriptor struct */
LLVMTypeRef cg_mem_type(CgModule *M, const Type *t); /* bool → i8 */
/* Converts between register and memory form of a scalar value (bool i1 <-> i8). */
LLVMValueRef cg_to_mem(CgModule *M, LLVMBuilderRef b, const Type *t, LLVMValueRef v);
LLVMValueRef cg_from_mem(CgModule *M, LLVMBuilderRef b, const Type *t, LLVMValueRef v);
/* A malloc'ed formatted message (codegen's *err strings). */
char *cg_errf(const char *fmt, ...) NJ_PRINTF(1, 2);
/* v (register form of `from`) converted to `to` by IR_CAST's rules; NULL when none applies. */
LLVMValueRef cg_convert(CgModule *M, LLVMBuilderRef b, LLVMValueRef v, const Type *from,
                        const Type *to);
/* Parameter types of the lowered ABI of f (ptr %ret first): count, and types into out (may be
 * NULL to count only). */
int cg_abi_params(CgModule *M, const IrFunc *f, LLVMTypeRef *out);
/* A function declaration that LLVM may treat as pure: memory(none) nounwind willreturn. */
LLVMValueRef cg_declare_pure(CgModule *M, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                             int n);
/* The overloaded intrinsic `name` (e.g. "llvm.sin") for type t, or NULL when unknown. */
LLVMValueRef cg_intrinsic(CgModule *M, const char *name, LLVMTypeRef t, LLVMTypeRef *fnty);
void cg_add_fn_attr(CgModule *M, LLVMValueRef fn, const char *name);

/* For target hooks. */
CgModule *cg_lower_module(CgLower *L);
LLVMBuilderRef cg_lower_builder(CgLower *L);
const IrFunc *cg_lower_func(CgLower *L);
LLVMValueRef cg_entry_alloca(CgLower *L, LLVMTypeRef t, const char *name);
void cg_error(CgLower *L, Loc loc, const char *fmt, ...) NJ_PRINTF(3, 4);
void cg_module_error(CgModule *M, const char *fmt, ...) NJ_PRINTF(2, 3);
/* Applies the function's fast-math setting to a float instruction. */
LLVMValueRef cg_fm(CgLower *L, LLVMValueRef v);

/* For parfor.c: operand k of in (NULL with cg_error when it has no value), a new block of the
 * function, the ABI form of a value of type t passed to g (arrays exploded; returns the count),
 * a callee's status passed on (non-zero: the function returns it), the index of f in the
 * program (-1 when absent). */
LLVMValueRef cg_lower_val(CgLower *L, const IrInst *in, int k);
LLVMBasicBlockRef cg_lower_new_bb(CgLower *L, const char *name);
int cg_lower_explode(CgLower *L, const IrFunc *g, const Type *t, LLVMValueRef v,
                     LLVMValueRef *out);
void cg_lower_propagate(CgLower *L, LLVMValueRef status);
int cg_func_index(const CgModule *M, const IrFunc *f);

/* The state of lowering one function (lower.c); lower_arith.c, lower_lib.c and lower_array.c
 * read its module and builder. Other files go through the accessors above. */
struct CgLower {
    CgModule *M;
    const IrFunc *f;
    LLVMValueRef fn;
    LLVMBuilderRef b;
    LLVMBasicBlockRef entry;
    LLVMBasicBlockRef *bbs;
    LLVMValueRef *vals;   /* by SSA id */
    LLVMValueRef *vars;   /* allocas by var index */
    LLVMValueRef *shadow; /* counted variables: the copy the raise exit reads (finish_exit) */
    bool *borrowed;       /* by variable: a parameter's, not counted (cg_borrowed_vars) */
    LLVMValueRef *params; /* register values by parameter index */
    LLVMValueRef ret_ptr;
    bool failed;
    bool rc;                   /* counted variables: exits go through exit_bb or raise_bb */
    LLVMBasicBlockRef exit_bb; /* `ret`: made on first use */
    LLVMValueRef exit_phi;     /* the status */
    LLVMBasicBlockRef raise_bb; /* raises and failed allocations: made on first use */
    LLVMValueRef raise_phi;
    struct CgScopes *scopes;    /* functions that allocate: fresh-memory alias scopes */
    int cur_block, cur_pos;     /* where the instruction being lowered is */
    const IrBlock *blk;         /* the block being lowered (its handler catches raises) */
    /* a coroutine (IrFunc.yield, genobj.c): its id token, frame handle, promise, and the blocks
     * that release and free the frame and leave at a suspension */
    LLVMValueRef co_id, co_hdl, co_promise;
    LLVMBasicBlockRef co_drop, co_free, co_susp, co_final;
};

/* genobj.c: a generator compiled as a coroutine.  begin: the frame (in the entry block, after
 * the variables); start: the generator object into *ret and the first suspension, before
 * `body`; yield: IR_YIELD of v; final: an exit with status (0: the end); finish: the shared
 * blocks, once the body is lowered. */
void cg_genobj_begin(CgLower *L);
void cg_genobj_start(CgLower *L, LLVMBasicBlockRef body);
void cg_genobj_yield(CgLower *L, LLVMValueRef v);
void cg_genobj_final(CgLower *L, LLVMValueRef status);
void cg_genobj_finish(CgLower *L);

/* Shared by lower.c and the lower_*.c files: an integer constant of type t, a call of an LLVM
 * intrinsic (NULL with cg_error when unknown), a conversion (NULL with cg_error when none). */
static inline LLVMValueRef cg_ci(LLVMTypeRef t, int64_t v) {
    return LLVMConstInt(t, (unsigned long long)v, 1);
}
LLVMValueRef cg_call_intr(CgLower *L, const char *name, LLVMTypeRef t, LLVMValueRef *args, int n);
LLVMValueRef cg_lower_cast(CgLower *L, LLVMValueRef v, const Type *from, const Type *to);

/* lower_arith.c: binary arithmetic and comparisons of lowered operands a, b. */
LLVMValueRef cg_lower_binop(CgLower *L, const IrInst *in, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef cg_lower_compare(CgLower *L, const IrInst *in, LLVMValueRef a, LLVMValueRef b);
/* lower_lib.c: rtcall, calladdr, random and math instructions. */
LLVMValueRef cg_lower_rtcall(CgLower *L, const IrInst *in);
LLVMValueRef cg_lower_calladdr(CgLower *L, const IrInst *in);
LLVMValueRef cg_lower_random(CgLower *L, const IrInst *in);
LLVMValueRef cg_lower_math(CgLower *L, const IrInst *in);
/* lower_array.c: field k of the shape (field 1) or strides (field 2), element addresses,
 * static descriptors, views and reshapes. */
LLVMValueRef cg_lower_dim(CgLower *L, LLVMValueRef arr, unsigned field, unsigned k);
LLVMValueRef cg_lower_elem_addr(CgLower *L, const IrInst *in, const Type *at, LLVMValueRef arr);
LLVMValueRef cg_lower_static_desc(CgLower *L, const Type *at, LLVMValueRef data,
                                  const int64_t *dims);
LLVMValueRef cg_lower_view(CgLower *L, const IrInst *in, LLVMValueRef arr);
LLVMValueRef cg_lower_reshape(CgLower *L, const IrInst *in, LLVMValueRef arr);
LLVMValueRef cg_lower_rawview(CgLower *L, const IrInst *in); /* record.c */
/* refs.c: by variable of f, whether it is a borrowed parameter (calloc'd; NULL when out of
 * memory): a jitclass instance variable stored once, from a parameter, and never owned or
 * cleared holds the caller's reference, which lives through the call, so it is not counted. */
bool *cg_borrowed_vars(const IrFunc *f);
/* newrec (record.c): the new instance's record, and *failed (i1) when malloc gave nothing. */
LLVMValueRef cg_lower_newrec(CgLower *L, const IrInst *in, LLVMValueRef *failed);

/* ---- parfor.c: IR_PARFOR (a parallel loop) ------------------------------------------------ */
/* The loop: its closure filled, the chunk and combine functions made, the runtime's
 * CG_PARFOR_SYMBOL called (or, with M->parfor_serial, the chunk function once on [0, n)); the
 * result is the reductions' tuple (NULL for none). */
LLVMValueRef cg_lower_parfor(CgLower *L, const IrInst *in);

/* scopes.c: fresh allocations alias nothing computed before them (scoped noalias metadata). */
typedef struct CgScopes CgScopes;
CgScopes *cg_scopes_new(CgModule *M, const IrFunc *f); /* NULL: out of memory (no metadata) */
void cg_scopes_free(CgScopes *S);
void cg_scopes_alloc(CgScopes *S, LLVMBuilderRef B, const IrInst *alloc);
void cg_scopes_access(CgScopes *S, const IrInst *in, LLVMValueRef mem, int block, int at);
/* cpu.c: writes array descriptor v (type t) as an NjArray at p (its owner field: the
 * descriptor's, borrowed). */
void cg_put_njarray(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef v, LLVMValueRef p);
/* list.c: the list ops (list.new, list.len, list.get, list.set, list.resize), and a result
 * list of numbers written as an NjArray of its items owning the list (NJ_KIND_LIST). */
LLVMValueRef cg_lower_list(CgLower *L, const IrInst *in);
void cg_list_put_njarray(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef l,
                         LLVMValueRef p);
/* record.c: the record ops (rec.get, rec.set, fieldview); a record value is an item's address. */
LLVMValueRef cg_lower_record(CgLower *L, const IrInst *in);
/* dict.c: a returned set of numbers written as an NjArray of its items owning a new list of
 * them (NJ_KIND_SET); the set given back. */
void cg_set_put_njarray(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef s,
                        LLVMValueRef p);
/* dict.c: a set parameter of the C entry made from the caller's list of its items (NULL
 * without memory), and after the call the items written back and the set released. */
LLVMValueRef cg_set_from_arg(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef l);
LLVMValueRef cg_set_reflect_arg(CgModule *M, LLVMBuilderRef B, LLVMValueRef s, LLVMValueRef l,
                                LLVMValueRef status);
/* dict.c: the dict ops (dict.new ... dict.clear) as calls of runtime/dict.c's hash table */
LLVMValueRef cg_lower_dict(CgLower *L, const IrInst *in);
/* dict.c: the set ops (set.new ... set.binop) as calls of runtime/set.c's table */
LLVMValueRef cg_lower_set(CgLower *L, const IrInst *in);
/* print.c: IR_PRINT (the runtime's print function on the CPU, vprintf on the GPU). */
LLVMValueRef cg_lower_print(CgLower *L, const IrInst *in);

/* The fields of an array descriptor value. */
enum { CG_DESC_DATA = 0, CG_DESC_SHAPE = 1, CG_DESC_STRIDES = 2, CG_DESC_MEMINFO = 3 };

/* ---- str.c: strings (unicode_type, an NjStr value) ------------------------------------------- */
/* The constant string value of the text s (UTF-8, NUL-terminated), owned by nobody. */
LLVMValueRef cg_str_const(CgModule *M, const char *s);

/* ---- refs.c: counted array memory (CPU) ------------------------------------------------------ */
/* One reference more / less to every array in v (an array or a tuple; nothing for others). */
void cg_incref(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef v);
void cg_decref(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef v);
/* A new array of type t (layout C or F) with the int64 extents dims (>= 0): its descriptor, a
 * new reference; *failed (i1) is true when the size overflows or the memory cannot be had (the
 * descriptor is then not to be used). */
LLVMValueRef cg_alloc_array(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef *dims,
                            LLVMValueRef *failed);

/* ---- cpu.c -------------------------------------------------------------------------------- */
extern const CgTarget cg_cpu_target;
/* Sets mod's triple and data layout to tm's. */
void cg_set_module_target(LLVMModuleRef mod, LLVMTargetMachineRef tm);
/* Optimizes mod (built in ctx by another codegen/ file, e.g. loops.c) for the host, links it
 * into the JIT and looks up sym.  Takes ownership of mod and ctx. */
bool cg_cpu_jit_add(CgJit *j, LLVMContextRef ctx, LLVMModuleRef mod, int opt_level,
                    const char *sym, void **addr, char **err);
/* The same up to the object file: *obj (malloc'ed) and *len, nothing linked (on-disk cache). */
bool cg_cpu_object(CgJit *j, LLVMContextRef ctx, LLVMModuleRef mod, int opt_level, void **obj,
                   size_t *len, char **err);

/* For aot.c (added with ahead-of-time objects): the process-wide CPU setup (native target,
 * libmvec), this host's CPU name and features (static strings), and the O3 pipeline that the
 * JIT runs, on a TargetMachine of the caller's. */
bool cg_cpu_init(char **err);
void cg_cpu_host(const char **name, const char **features);
bool cg_cpu_optimize(LLVMModuleRef mod, LLVMTargetMachineRef tm, int level, char **err);

/* ---- nvptx.c, libdevice.c: the NVPTX target (ptx.c runs its pipeline) ---------------------- */
extern const CgTarget cg_nvptx_target;
/* After cg_lower_program: adds the `.entry` wrapper of every IRF_KERNEL function (the kernel
 * ABI of codegen.h), gives a kernel-less program's funcs[0] an external name, and rewrites what
 * the NVPTX backend cannot select (llvm.pow/exp/log/sin/cos..., frem) into libdevice calls.
 * False with M->err set on failure. */
bool cg_nvptx_finish(CgModule *M);
/* nvptx_intrin.c: the CgTarget.cuda hook of the NVPTX target. */
LLVMValueRef cg_nvptx_cuda(CgLower *L, const IrInst *in, LLVMValueRef *args);
/* Gives the libdevice functions linked into M->mod the fastmath function attributes. */
void cg_nvptx_fast_libdevice(CgModule *M);
/* True when fn is a kernel entry (PTX kernel calling convention). */
bool cg_nvptx_is_kernel(LLVMValueRef fn);
/* Links the libdevice functions that mod calls (`__nv_*` declarations) into mod, lazily, and
 * gives every non-kernel definition internal linkage so the optimizer drops what is unused.
 * A module calling no libdevice function is left alone (true without reading the file). */
bool cg_libdevice_link(LLVMModuleRef mod, char **err);
/* Whether mod declares a libdevice function (`__nv_*`) it calls. */
bool cg_calls_libdevice(LLVMModuleRef mod);
/* Rewrites a module's libdevice calls before either backend links libdevice (not with
 * fastmath, whose approximations replace sin and cos): sin and cos of one value in one block
 * become one sincos. */
void cg_libdevice_prepare(LLVMModuleRef mod);
/* ptx.c: the whole NVPTX pipeline with `finish` in place of cg_nvptx_finish (after lowering,
 * before verification); finish returns false with M->err set on failure.  gpu_loops.c builds
 * its ufunc/gufunc kernel there. */
typedef bool (*CgNvFinish)(CgModule *M, void *arg);
char *cg_ptx_build(const IrProgram *p, const char *arch, int max_ptx, bool llvm_ir,
                   const CgOptions *opt, CgNvFinish finish, void *arg, char **err);

/* ---- libdevice.c, nvvm.c: the libNVVM backend (ptx.c chooses it) -------------------------- */
/* Whether p names a regular file. */
bool cg_is_file(const char *p);
/* Calls try_root on each candidate CUDA toolkit root until one returns true: $CUDA_HOME,
 * $CUDA_PATH, $CUDA_ROOT, /usr/local/cuda, the parent of the directory of the nvcc on $PATH,
 * /opt/cuda, then the NULL-terminated `extra` roots, then /usr/local/cuda-* newest first.
 * try_root gets NULL for an unset variable.  libdevice.c and nvvm.c search the same roots. */
bool cg_cuda_find_root(bool (*try_root)(const char *root), const char *const *extra);
/* The bytes of libdevice.10.bc, read once per process and kept; false with *err (malloc'ed)
 * when there is no toolkit. */
bool cg_libdevice_bytes(const char **data, size_t *size, char **err);
/* PTX from a lowered, finished and verified NVPTX module (triple and data layout set) through
 * libNVVM for arch ("sm_100", "sm_120a"...; compute_90 and older are refused): adds the NVVM IR
 * version, compiles with libdevice added lazily.  llvm_ir: the NVVM IR text instead.  max_ptx
 * (0: none) caps the PTX ISA version.  The module is changed, not consumed.  Malloc'ed PTX, or
 * NULL with a malloc'ed *err. */
char *cg_nvvm_compile(LLVMModuleRef mod, const char *arch, int max_ptx, bool llvm_ir,
                      int opt_level, bool fast, char **err);

#endif
