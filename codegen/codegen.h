/* codegen.h — the face of codegen/: typed IR in, machine code (or text) out.
 *
 * The only folder that includes LLVM headers.  The runtime sees opaque handles, addresses and
 * strings; it never sees an LLVM type.
 *
 *   IrProgram ─ lower.c (IR → LLVM IR, one function per IrFunc) ─ target wrappers (cpu.c: the
 *   C-ABI entry; ufunc/gufunc inner loops) ─ LLVMRunPasses("default<O3>") on a TargetMachine for
 *   the host CPU ─ ORC LLJIT ─▶ addresses.
 *
 * ABI of a lowered IrFunc (internal, fastcc-free plain C convention):
 *   i32 @mangled(ptr %ret, <params>)     returns 0 or a raise site number of the IrProgram
 *   a scalar parameter   → its LLVM scalar (bool as i1)
 *   an array parameter   → ptr data, i64 shape[0..ndim-1], i64 strides[0..ndim-1] (bytes),
 *                          then, for functions other than funcs[0] of a CPU program, ptr meminfo
 *                          (funcs[0] is only ever called by wrappers, with borrowed arrays)
 *   a tuple parameter    → an LLVM struct by value
 *   an array result      → its descriptor { data, shape, strides, meminfo } through %ret, a new
 *                          reference (refs.c)
 * and of the generic entry of funcs[0] (the one nj_call uses):
 *   i32 @mangled.entry(ptr %args, ptr %ret)     args[k] → scalar, or an NjArray (numjit.h);
 *   the result at %ret in the layout cg_result_layout gives (arrays as NjArray, owner set)
 */
#ifndef NUMJIT_CODEGEN_H
#define NUMJIT_CODEGEN_H

#include "../ir/ir.h"

typedef struct CgJit CgJit; /* one per context: an LLJIT and a host TargetMachine; locked inside */

/* Which backend turns an NVPTX module into PTX (see the NVPTX section below). */
typedef enum CgPtxBackend {
    CG_PTX_AUTO = 0, /* LLVM for the archs LLVM 19 targets, libNVVM for sm_100 and newer */
    CG_PTX_LLVM,     /* LLVM 19's NVPTX backend (sm_20 ... sm_90a) */
    CG_PTX_NVVM,     /* libNVVM from the CUDA toolkit, dlopen'ed (sm_100 and newer) */
} CgPtxBackend;

typedef struct CgOptions {
    int opt_level;   /* 0..3; default 3 */
    bool fastmath;   /* overridden per function by IrFunc.fastmath */
    CgPtxBackend ptx_backend; /* NVPTX only; default CG_PTX_AUTO */
    bool loop_basic; /* CPU ufunc loops: the contiguous and strided paths only, no broadcast
                        paths (a third of the code and compile time for two inputs) */
} CgOptions;

/* err: a malloc'ed message on failure (free with free()). */
CgJit *cg_jit_new(char **err);
void cg_jit_free(CgJit *jit);

/* Defines names[i] at address addrs[i] in the JIT (functions of the runtime that compiled code
 * calls: the random-number functions of ir/random.def, the parallel-loop entry
 * CG_PARFOR_SYMBOL), before code needing them is added.  Returns false with *err set. */
bool cg_jit_define(CgJit *jit, const char *const *names, const uintptr_t *addrs, int n,
                   char **err);

/* Lowers, optimizes and adds the program to the JIT; *entry receives the address of the generic
 * entry of p->funcs[0].  Returns false with *err set on failure. */
bool cg_jit_compile(CgJit *jit, const IrProgram *p, const CgOptions *opt, void **entry,
                    char **err);

/* Ufunc and gufunc inner loops, NumPy's shape:
 *   void loop(char **args, const int64_t *dims, const int64_t *steps, void *data)
 * ufunc (p->funcs[0] is IRF_SCALAR with nin scalar params, one result):
 *   args[0..nin-1] inputs, args[nin] the output; dims[0] = n; steps[k] = byte step of args[k]
 *   (any sign, 0 for a broadcast scalar).  Input k is loaded as arg_dtypes[k] and converted to
 *   the function's parameter type (IR_CAST rules); the result is converted to arg_dtypes[nin]
 *   and stored.  Contiguous arguments and stride-0 inputs take specialized, vectorized paths.
 * gufunc (p->funcs[0] is IRF_GUFUNC returning void; every param an array of the argument's
 *   core dimensions, or a scalar for a "()" input declared scalar):
 *   dims[0] = n (outer), dims[1..] = the core dimension sizes, numbered in order of first
 *   appearance in the layout; steps[0..nargs-1] the outer steps, then each argument's core
 *   strides in argument order.  arg_dtypes must equal the parameters' dtypes.
 * nargs counts inputs and outputs; nout is 1 for ufuncs. */
typedef void (*CgLoop)(char **args, const int64_t *dims, const int64_t *steps, void *data);
bool cg_jit_compile_loop(CgJit *jit, const IrProgram *p, const Type *const *arg_dtypes,
                         int nargs, int nout, const int *core_dim_index, const CgOptions *opt,
                         CgLoop *loop, char **err);
/* core_dim_index (gufuncs only, else NULL): for argument k's j-th core dimension, the number
 * of that dimension in dims[1..], flattened in argument order. */

/* Text dumps for the CLI and nj_function_dump: malloc'ed, NULL with *err on failure. */
char *cg_emit_llvm(const IrProgram *p, const CgOptions *opt, char **err);
char *cg_emit_asm(const IrProgram *p, const CgOptions *opt, char **err);

/* The header in front of the data of every array compiled code creates (refs.c): a reference
 * count, the data's size in bytes, an optional destructor, padding to CG_MEMINFO_SIZE; the data
 * follows it at the next multiple of 64.  The block comes from malloc and goes back with free()
 * when the count drops to 0, after `dtor` (when not NULL) has released what the data holds (the references a
 * container of arrays keeps; arrays of numbers have none).  An NjArray's `owner` points at it. */
typedef struct CgMemInfo {
    int64_t refcount; /* atomic */
    int64_t nbytes;
    void (*dtor)(struct CgMemInfo *mi); /* NULL for plain data */
} CgMemInfo;
enum { CG_MEMINFO_DTOR = 16 }; /* offsetof(CgMemInfo, dtor), which generated code loads */
enum { CG_MEMINFO_SIZE = 64 };
/* A jitclass instance's block (ty_is_instance; record.c, IR_NEWREC): the header, padding to
 * CG_INSTANCE_HEADER bytes, then the instance's record; a value of the record type is the
 * record's address, the header CG_INSTANCE_HEADER bytes before it.  The Python package makes
 * the instances Python creates the same way (python/numjit/_result.c, instance_block). */
enum { CG_INSTANCE_HEADER = 32 };
/* A list's block (codegen/list.c): the header, then the length, the capacity and the address of
 * the items (malloc'd, each in its memory form: bool one byte, an array a descriptor). */
enum { CG_LIST_SIZE = 24, CG_LIST_CAP = 32, CG_LIST_DATA = 40, CG_LIST_BLOCK = 48 };
/* A dict's block (runtime/dict.c): the header, then the number of live items. */
enum { CG_DICT_USED = 24 };

/* Where the generic entry writes a result of type t, and where it reads a tuple argument: a
 * scalar as its C type (bool one byte), an array as an NjArray (numjit.h; a result's `owner`
 * is a new reference or NULL), a tuple as a C struct of such fields, each aligned to its size
 * (an NjArray to 8), a nested tuple as a nested struct.  Returns the size in bytes, -1 for a
 * type without a C form; offsets (may be NULL) receive the first 16 fields' offsets. */
int cg_result_layout(const Type *t, int *offsets);
/* The same for any length: offsets (may be NULL) receive all of a tuple's fields' offsets,
 * *align (may be NULL) the alignment. */
int cg_c_layout(const Type *t, int *offsets, int *align);

/* ==== parallel loops (parfor.c; added with prange) ===========================================
 * A prange loop of an @njit(parallel=True) function (IR_PARFOR) becomes, in the JIT, a call of
 *   int32_t CG_PARFOR_SYMBOL(CgParforChunk chunk, CgParforCombine combine, void *closure,
 *                            int64_t n, int64_t slot_size, uint64_t *state)
 * which the runtime defines (runtime/parfor.c) and registers in each JIT with cg_jit_define:
 * it runs chunk(closure, lo, hi, slot) over a partition of [0, n) into consecutive chunks, each
 * writing its partial reductions (slot_size bytes) into a slot of its own, then, when every
 * chunk returned 0, combine(closure, slot) for each chunk in order on the calling thread.  It
 * returns 0, or the non-zero status of the lowest-numbered chunk that failed (the chunks after
 * it may be skipped).  combine is NULL and slot_size 0 when the loop has no reductions.  state:
 * a word per loop in the generated code, zero at first, that only the runtime reads and writes
 * (what the loop's iterations cost, for the choice between threads and the calling thread). */
#define CG_PARFOR_SYMBOL "numjit_parfor_run"

/* ==== print() (print.c) ========================================================================
 * print() in CPU code calls
 *   void CG_PRINT_SYMBOL(const char *line, const int64_t *values)
 * which the runtime defines in each JIT (runtime/print.c): the line holds the text, each
 * "\x01K" in it standing for the next of values, K saying its kind: b bool, i signed, u
 * unsigned (zero-extended), f float64, g float32 (both as the bits of a float64). */
#define CG_PRINT_SYMBOL "numjit_print"
typedef void (*CgPrintFn)(const char *line, const int64_t *values);
typedef int32_t (*CgParforChunk)(void *closure, int64_t lo, int64_t hi, void *slot);
typedef void (*CgParforCombine)(void *closure, void *slot);
typedef int32_t (*CgParforRun)(CgParforChunk chunk, CgParforCombine combine, void *closure,
                               int64_t n, int64_t slot_size, uint64_t *state);
/* ==== end parallel loops ==================================================================== */

/* "19.1.7" */
const char *cg_llvm_version(void);
/* Host CPU name and features, for cache keys: "sapphirerapids +avx512f,..." (static). */
const char *cg_host_cpu(void);

/* ==== object files for the on-disk cache (cpu.c, loops.c) ===================================
 * The builds above stopped at the object file, under an entry symbol the caller chooses (the
 * cache derives it from its key), and the way back into the JIT.  *obj is malloc'ed (free()).
 * cg_jit_add_object: when the JIT already defines sym (the same entry added twice), returns
 * that definition and adds nothing. */
bool cg_jit_compile_object(CgJit *jit, const IrProgram *p, const CgOptions *opt, const char *sym,
                           void **obj, size_t *len, char **err);
bool cg_jit_compile_loop_object(CgJit *jit, const IrProgram *p, const Type *const *arg_dtypes,
                                int nargs, int nout, const int *core_dim_index,
                                const CgOptions *opt, const char *sym, void **obj, size_t *len,
                                char **err);
bool cg_jit_add_object(CgJit *jit, const void *obj, size_t len, const char *sym, void **addr,
                       char **err);
/* ==== C callbacks (cfunc.c; Numba's @cfunc) ====================================================
 * A function `symbol` of the C signature ret(params...) that runs the specialization whose
 * generic entry is `entry`, linked into the JIT; *addr its address.  A parameter typed as a
 * 1-d C array (float64[::1]) is a C pointer to its first element (the compiled code sees an
 * array of CG_CFUNC_EXTENT bytes from there; ptr_dtypes[k] is its NjDType); the others and the
 * result are numbers (bool one byte) or, for the result, ty_void.  spec_ret is what the
 * specialization returns; it is converted to ret.  An exception in the call returns zero. */
enum { CG_CFUNC_MAX_PARAMS = 16 };
#define CG_CFUNC_EXTENT ((int64_t)1 << 47)
typedef struct CgCfunc {
    const char *symbol;
    const Type *ret, *spec_ret;
    const Type *params[CG_CFUNC_MAX_PARAMS];
    int32_t ptr_dtypes[CG_CFUNC_MAX_PARAMS];
    int nparams;
    uintptr_t entry;
} CgCfunc;
bool cg_jit_cfunc(CgJit *jit, const CgCfunc *cf, void **addr, char **err);

/* LLVM optimizer runs in this process so far (every CPU compilation runs it once). */
unsigned long cg_opt_runs(void);
/* ==== end object files ====================================================================== */

/* ==== ahead-of-time object files (aot.c; added with `numjit obj`) ===========================
 * Several specializations in ONE relocatable x86-64 ELF object that a C program links with no
 * numjit at run time (docs/aot.md).  Each CgAotFunc's program (typed for TARGET_CPU) is lowered
 * into one module; its funcs[0] is exported under `name`, everything else is internal.  C ABI:
 *   int32_t name([RET *result,] args...)
 *   array    const NjArray * (numjit.h's layout), checked: ndim, dtype and, for C and F
 *            layouts, contiguity (extent-1 dimensions ignored); a mismatch or NULL for
 *            argument k (0-based) returns -1 - k before anything runs
 *   scalar   by value: bool as C bool, ints of their width, float32 as float, float64 as double
 *   tuple    const struct * with the elements as fields in order (C layout)
 *   result   first parameter, absent when the function returns None; may be NULL; written
 *            (bool as one byte, a tuple as a C struct) only on success
 *   returns  0, -1 - k, or status_base + the program's raise site (1-based)
 * The object's undefined symbols are libc/libm ones (memcpy, memset, sin, pow, ...); with
 * vector_math, also libmvec's _ZGV* (link -lmvec), else the vectorizer's libmvec calls are
 * defined in the object lane by lane over libm.  cpu: NULL or "generic" (the x86-64 baseline:
 * SSE2), "x86-64-v2" / "-v3" / "-v4", an LLVM CPU name (cg_aot_cpu_known) or "native" (this
 * host's CPU with all its features).  opt_level 0..3 (the JIT uses 3).  *obj is malloc'ed;
 * false with a malloc'ed *err on failure. */
typedef struct CgAotFunc {
    const IrProgram *prog;
    const char *name;    /* the exported C symbol */
    int32_t status_base; /* added to the program's raise sites */
} CgAotFunc;
typedef struct CgAotOptions {
    const char *cpu;
    bool vector_math;
    int opt_level;
} CgAotOptions;
bool cg_aot_object(const CgAotFunc *fns, int n, const CgAotOptions *opt, void **obj, size_t *len,
                   char **err);
/* Whether cpu is a name cg_aot_object takes (NULL, "generic" and "native" included). */
bool cg_aot_cpu_known(const char *cpu);
/* ==== end ahead-of-time object files ======================================================== */

/* ==== NVPTX: PTX for CUDA devices (ptx.c, nvptx.c, libdevice.c) ============================
 * PTX generation needs no GPU and no driver; math needs the CUDA toolkit's libdevice.10.bc.
 *
 * Kernel ABI (stable, documented for AOT users): every IRF_KERNEL function of the program
 * becomes `.visible .entry NAME(...)`, NAME its Python name, unmangled; its parameters are, for
 * each argument in order:
 *   array    .u64 data (a global-memory pointer), .u64 shape[ndim], .u64 strides[ndim]
 *            (strides in bytes, NumPy's convention; any sign)
 *   scalar   by value: bool as .u8 (0 or 1), ints of their width, .f32 / .f64
 *   tuple    its elements, flattened in order, by the same rules
 * No return value.  A program with no kernel exports funcs[0] under its Python name as a
 * `.func` with the internal ABI above (i32 status, ptr %ret, params).
 *
 * arch: "sm_75" ... "sm_90a" (what LLVM 19 can target; Blackwell needs libNVVM: with it
 * present, "sm_100" and newer too, see the backends below).
 * The PTX ISA version is the newest LLVM 19 emits (8.5) unless max_ptx caps it (e.g. 78 for a
 * CUDA 11.8 driver; cg_ptx_version says what a pair gives).  Returns malloc'ed PTX text, or
 * NULL with a malloc'ed *err. */
char *cg_emit_ptx(const IrProgram *p, const char *arch, const CgOptions *opt, char **err);
/* The same with a PTX version cap (0: none), or, when llvm_ir is set, the optimized LLVM IR
 * text of the NVPTX module instead of PTX (for --dump=llvm). */
char *cg_emit_ptx_ex(const IrProgram *p, const char *arch, int max_ptx, bool llvm_ir,
                     const CgOptions *opt, char **err);
/* The PTX ISA version (e.g. 85 for 8.5) cg_emit_ptx_ex uses for arch under the cap max_ptx
 * (0: none); 0 when LLVM 19 cannot target arch or the cap is below what arch needs. */
int cg_ptx_version(const char *arch, int max_ptx);
/* Path of the libdevice.10.bc in use (static string), NULL when no CUDA toolkit is found. */
const char *cg_libdevice_path(void);

/* ---- backends (ptx.c chooses, nvvm.c holds libNVVM; added with the libNVVM backend) -------
 * Every PTX entry point here (cg_emit_ptx*, cg_emit_gpu_loop_ptx*) lowers the same module and
 * hands it to the backend CgOptions.ptx_backend names.  CG_PTX_AUTO: $NUMJIT_PTX_BACKEND
 * ("llvm", "nvvm" or "auto") when set, else LLVM's NVPTX backend for every arch LLVM 19 can
 * target and libNVVM for sm_100 and newer (sm_100, sm_100a, sm_101, sm_120, ...).  libNVVM is
 * found at run time (docs/cuda.md); without it sm_100+ fails with a message naming libNVVM.
 * libNVVM for sm_90 and older is refused: its reader for those archs takes only an LLVM 7
 * dialect.  A libNVVM compilation ignores max_ptx except as a check (its PTX version is its
 * own), and arch may end in 'a' or 'f'. */
/* "llvm" | "nvvm" | "auto" → *out; false for anything else. */
bool cg_ptx_backend_parse(const char *s, CgPtxBackend *out);
const char *cg_ptx_backend_name(CgPtxBackend b); /* "llvm", "nvvm", "auto" */
/* What `want` resolves to for arch (CG_PTX_LLVM or CG_PTX_NVVM), $NUMJIT_PTX_BACKEND included. */
CgPtxBackend cg_ptx_backend_for(const char *arch, CgPtxBackend want);
/* True when PTX for arch can be made with `want` here (the arch known to LLVM 19, or libNVVM
 * loaded and arch sm_100+); else false with *why (may be NULL) a malloc'ed reason. */
bool cg_ptx_can_target(const char *arch, CgPtxBackend want, char **why);
/* libNVVM, loaded on first use: false with *why (static text; may be NULL) when absent. */
bool cg_nvvm_available(const char **why);
const char *cg_nvvm_path(void);             /* the libnvvm.so in use, NULL when none */
bool cg_nvvm_version(int *major, int *minor); /* nvvmVersion; false when absent */
/* The PTX ISA version libNVVM writes (e.g. 90), probed once; 0 when libNVVM is absent. */
int cg_nvvm_ptx_isa(void);
/* 100 for "sm_100", 120 for "sm_120a"...: the arch number when libNVVM can take it, else 0. */
int cg_nvvm_arch(const char *arch);

/* ---- GPU ufunc and gufunc kernels (gpu_loops.c; added with target='cuda' ufuncs) ----------
 * p->funcs[0] is a ufunc core (IRF_SCALAR) or a gufunc core (IRF_GUFUNC), typed for
 * TARGET_NVPTX; arg_dtypes, nargs, nout and core_dim_index as for cg_jit_compile_loop (a ufunc
 * reads inputs in their dtypes and converts; a gufunc's dtypes equal its parameters'); ncore:
 * the number of distinct core dimensions (gufuncs).  One `.visible .entry NAME` (the Python
 * name) whose parameters are
 *   ufunc    .u64 n, .u64 inner, then per argument (inputs, then the output):
 *            .u64 data, .s64 istride, .s64 ostride
 *   gufunc   .u64 n, .u64 inner, .u32 staged, .u64 dims[ncore], then per argument:
 *            .u64 data, .s64 istride, .s64 ostride, .s64 core_strides[its core dims]
 * Outer element i < n is at data + (i % inner) * istride + (i / inner) * ostride (bytes;
 * inner >= 1; a 1-D problem passes inner = n, ostride = 0).  staged: bits 0..15: bit k stages
 * argument k's core through shared memory (one row, C-contiguous core, istride = core bytes);
 * bits 16..27: rows per tile T (0: blockDim.x); bit 28: 16-byte copies allowed; bit 29:
 * cp.async into two buffers (sm_80+; ignored before).  Dynamic shared memory: (bit 29 ? 2 : 1)
 * * sum over staged k of round_up(T * pitch_k, 16) bytes, pitch_k = the core's bytes rounded up
 * to an odd number of max(item size, 4)-byte words; 0 is always valid.  Any grid and block shape of
 * x-extent only works (grid-stride loops).  Returns malloc'ed PTX or NULL with *err. */
char *cg_emit_gpu_loop_ptx(const IrProgram *p, const Type *const *arg_dtypes, int nargs,
                           int nout, const int *core_dim_index, int ncore, const char *arch,
                           int max_ptx, const CgOptions *opt, char **err);
/* The same, or the optimized LLVM IR instead of PTX when llvm_ir is set. */
char *cg_emit_gpu_loop_ptx_ex(const IrProgram *p, const Type *const *arg_dtypes, int nargs,
                              int nout, const int *core_dim_index, int ncore, const char *arch,
                              int max_ptx, bool llvm_ir, const CgOptions *opt, char **err);
/* Elements per thread and group in a ufunc kernel's vector path (4, or 8 with 1- and 2-byte
 * dtypes): the host sizes the grid by it. */
int cg_gpu_loop_group(const Type *const *arg_dtypes, int nargs);
/* ==== end NVPTX ============================================================================= */

#endif
