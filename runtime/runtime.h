/* runtime.h — the face of runtime/: contexts, modules, dispatchers and the compile pipeline.
 *
 * The runtime never sees an LLVM type: it asks codegen/ for addresses and text.  Ownership: a
 * context owns its modules, a module its dispatchers (NjFunction), a dispatcher its
 * specializations.  Each specialization is published into an immutable array that readers
 * scan without a lock; a miss takes the dispatcher's lock and compiles.
 */
#ifndef NUMJIT_RUNTIME_H
#define NUMJIT_RUNTIME_H

#include "../codegen/codegen.h"
#include "../include/numjit.h"

#include <pthread.h>
#include <stdatomic.h>

/* A key of one argument: kind, dtype, ndim and layout packed into 32 bits. */
typedef uint32_t ArgKey;

typedef struct Spec {
    int nargs;
    ArgKey keys[16];
    NjEntry entry;
    const Type *ret;
    char **raise_msgs;      /* rendered, one per raise site (index = status - 1) */
    const char **raise_exc; /* Python exception names */
    int nraises;
} Spec;

typedef struct SpecTable { /* immutable once published */
    int n;
    Spec *items[];
} SpecTable;

struct NjFunction {
    NjModule *module;
    const FuncInfo *info;
    pthread_mutex_t lock;
    _Atomic(SpecTable *) table;
    PtrVec old_tables; /* retired tables, freed with the function (readers may hold them) */
};

struct NjModule {
    NjContext *ctx;
    Arena *arena; /* source copy, AST, module table */
    Source src;
    ModuleInfo *info;
    NjFunction **funcs;
    int nfuncs;
};

struct NjContext {
    CgJit *jit;
    pthread_mutex_t lock; /* guards modules and jit */
    PtrVec modules;
    pthread_t preparer;   /* nj_context_prepare's thread, joined by nj_context_free */
    bool preparing;
    int preparer_pid;     /* the process that started it */
};

/* context.c */
void rt_set_error(NjContext *ctx, const char *msg);
void rt_set_errorf(NjContext *ctx, const char *fmt, ...) NJ_PRINTF(2, 3);
void rt_set_diags(NjContext *ctx, const DiagList *d);
NjStatus rt_ensure_jit(NjContext *ctx);
/* random.c: defines the random-number functions of ir/random.def in a new JIT. */
bool rt_random_define(CgJit *jit, char **err);
/* sort.c: defines the functions of ir/rtcall.def (sorting, selection) in a new JIT. */
bool rt_sort_define(CgJit *jit, char **err);
/* objmode.c: the rtcall of numba.objmode blocks (ir/rtcall.def), defined with sort.c's range */
int64_t numjit_rt_objmode(int64_t id, int64_t ib, int64_t fb, int64_t stage);
/* linalg.c: defines the linear-algebra functions of ir/linalg.def in a new JIT. */
bool rt_linalg_define(CgJit *jit, char **err);
/* linalg.c, for the files below: defines each function of fns[] (an rtcall and its address) */
typedef struct {
    RtFn f;
    uintptr_t addr;
} RtDef;
bool rt_define_each(CgJit *jit, const RtDef *fns, int n, char **err);
/* linalg_decomp.c, linalg_eig.c: the decompositions' (linalg.def's XD rows), for it */
bool rt_linalg_decomp_define(CgJit *jit, char **err);
bool rt_linalg_eig_define(CgJit *jit, char **err);
/* linalg_complex.c: the complex LU-based functions' (linalg.def's _c128 / _c64 XD rows) */
bool rt_linalg_complex_define(CgJit *jit, char **err);
/* linalg_symeig.c: the eigenvalues d (unsorted) and, when z is not NULL, the eigenvectors
 * (columns of the n x n column-major z) of the symmetric column-major a (both triangles; a is
 * overwritten).  0, 1 when the iteration did not converge, -1 without memory. */
int64_t rt_la_symeig(int64_t n, double *a, double *d, double *z);
/* linalg_svd.c: the SVD of b (r x c, column-major, r >= c; overwritten): s (c) the singular
 * values (unsorted, >= 0), v (c x c) the right singular vectors as columns, u (r x uc, c <= uc
 * <= r) the left ones, columns c.. completing them to an orthonormal basis.  0, 1 when the
 * iteration did not converge, -1 without memory. */
int64_t rt_la_gksvd(int64_t r, int64_t c, double *b, double *s, double *v, double *u,
                    int64_t uc);
/* linalg_decomp.c: the largest (or smallest) singular value of the nonempty m x n matrix at a
 * (byte strides a0, a1; float32 elements when f32, the value then rounded to float32); nan
 * when the iteration did not converge or no memory was had */
double rt_la_matrix_norm2(int64_t m, int64_t n, const char *a, int64_t a0, int64_t a1,
                          bool smallest, bool f32);
/* str.c: the string functions of ir/str.def in a JIT */
bool rt_str_define(CgJit *jit, char **err);
/* dict.c: the hash table of typed dicts and Python's hashes (numjit_dict_*) in a JIT */
bool rt_dict_define(CgJit *jit, char **err);
/* set.c: the hash table of sets of numbers, Numba's layout and probing (numjit_set_*) */
bool rt_set_define(CgJit *jit, char **err);
/* A new string of nbytes bytes and nchars characters whose text the caller writes (NULL and
 * the empty string in *out for nbytes <= 0 or no memory). */
char *rt_str_new(NjStr *out, int64_t nbytes, int64_t nchars);
/* str_methods.c: the methods of ir/str.def (case, is, ord, chr, search, replace, strip, pad) */
void numjit_str_case(NjStr *out, const NjStr *s, int64_t mode);
int64_t numjit_str_is(const NjStr *s, int64_t mode);
int64_t numjit_str_ord(const NjStr *s);
void numjit_str_chr(NjStr *out, int64_t c);
int64_t numjit_str_search(const NjStr *a, const NjStr *b, int64_t start, int64_t end,
                          int64_t mode);
void numjit_str_replace(NjStr *out, const NjStr *s, const NjStr *old, const NjStr *new_,
                        int64_t count);
void numjit_str_strip(NjStr *out, const NjStr *s, const NjStr *chars, int64_t mode);
void numjit_str_pad(NjStr *out, const NjStr *s, int64_t width, const NjStr *fill,
                    int64_t mode);
/* A copy of s in the library's memory, for a caller to release with nj_free_string. */
NjStatus rt_give_string(const char *s, char **out);
/* Starts fn(arg) on a joinable thread of the library's own (JIT start, ahead-of-need loop
 * compiles), counted from now until fn returns: fork() and exit() wait until none runs, so no
 * child inherits locks held by a thread it does not have and no thread outlives LLVM. */
bool rt_background_start(pthread_t *t, void *(*fn)(void *), void *arg);

/* dispatch.c */
ArrayLayout rt_layout_of(const NjArray *a);  /* C, F or A, read off the strides */
/* The byte span [lo, hi) that a's elements reach, relative to a->data; false when empty. */
bool rt_array_span(const NjArray *a, int64_t *lo, int64_t *hi);
ArgKey rt_arg_key(const NjValue *v);         /* host and device arrays alike */
const Type *rt_type_of_key(ArgKey k);
const Type *rt_type_of_dtype(NjDType d);
NjStatus rt_dtype_of_type(const Type *t, NjDType *out);
void rt_function_free(NjFunction *f);

/* pipeline.c: parse-free part of the pipeline for one specialization.  Types, runs the IR
 * passes, lowers and JITs; fills spec (entry, ret, raise messages). */
NjStatus rt_compile_spec(NjFunction *f, const Type **args, int nargs, Spec *spec);
/* The same program for dumps: "typed", "llvm", "asm". */
NjStatus rt_dump_spec(NjFunction *f, const Type **args, int nargs, const char *what, char **out);

/* ==== ufuncs and gufuncs (ufunc.c, ufunc_loops.c, ufunc_exec.c, pool.c) ====================
 * ufunc.c owns NjUfunc (signatures, the calls); ufunc_loops.c its type resolution and loop
 * cache (ufunc_internal.h is private to the two); ufunc_exec.c runs one
 * resolved loop over arrays; pool.c is the thread pool of target 'parallel'. */
#define RT_UF_MAXARGS 16 /* inputs + outputs of one ufunc */

/* One compiled inner loop and how to call it.  The executor does not care where fn came from
 * (a JIT'ed loop or a hand-written C function in a test). */
typedef struct RtLoop {
    CgLoop fn;
    void *data;
    int nin, nout;
    NjDType dtypes[RT_UF_MAXARGS]; /* every argument's dtype as the loop reads/writes it */
    /* gufuncs: core dimensions (ncore distinct names, numbered in order of first appearance) */
    bool gufunc;
    int ncore;
    int8_t core_n[RT_UF_MAXARGS];               /* core dims of each argument */
    int8_t core_idx[RT_UF_MAXARGS][NJ_MAX_NDIM]; /* their numbers */
    int8_t param_nd[RT_UF_MAXARGS]; /* ndim of the loop's parameter (1 for a "()" argument
                                       declared as a 1-d array, 0 for a scalar) */
    const char *const *core_names;  /* ncore names, for errors */
} RtLoop;

/* Runs L on ins/outs: broadcasting, output allocation (outs[k].data == NULL; dtype
 * L->dtypes[nin+k]), out= shape checks, collapsing, threads when parallel.  shape_only: fills
 * the outputs' dtype/ndim/shape (C strides, data NULL) and runs nothing.  name: for errors. */
NjStatus rt_uf_exec(NjContext *ctx, const char *name, const RtLoop *L, const NjArray *ins,
                    NjArray *outs, bool parallel, bool shape_only);
/* A loop handed to NumPy's ufunc objects (nj_ufunc_numpy_loop), and the inner loop of target
 * 'parallel' that runs it on the pool: NumPy's one-dimensional call (args, dims, steps) becomes
 * rt_uf_exec over arrays of that one outer dimension (plus a gufunc's core dimensions). */
typedef struct RtNpLoop {
    RtLoop loop;
    NjContext *ctx;
    const char *name;
} RtNpLoop;
void rt_uf_numpy_par_loop(char **args, const int64_t *dims, const int64_t *steps, void *data);
/* A binary loop (out = op(a, b), all dtypes equal to out's) reduced along axis of in into out
 * (allocated when out->data == NULL).  init: the identity or NULL (then the first element;
 * an empty axis is an error without an identity). */
NjStatus rt_uf_reduce_exec(NjContext *ctx, const char *name, const RtLoop *L, const NjArray *in,
                           int axis, const NjValue *init, NjArray *out);
/* A C-contiguous copy of src converted to dtype `to` (NumPy's casting of values). */
NjStatus rt_uf_cast_copy(const NjArray *src, NjDType to, NjArray *dst);
/* Stores v converted to dtype d at p. */
void rt_uf_store_value(void *p, NjDType d, const NjValue *v);
/* Frees the ufuncs of a module (module teardown; context.c calls it). */
void rt_module_ufuncs_free(NjModule *m);

/* ==== on-disk cache (cache.c) ==============================================================
 * Compiled code that a later process reuses without typing or LLVM.  An entry is one object
 * file plus what the caller needs besides the code (the return type, rendered raise messages,
 * a loop's parameter ranks), under a key that covers everything the code depends on; see
 * cache.c for the key, the file format and the rules (atomic writes, damaged entries ignored).
 * Every function here fails quietly: no entry means "compile as usual". */
typedef struct RtCacheKey {
    uint8_t hash[32];  /* SHA-256 of the key text */
    char hex[65];      /* its hex digits: the file name and the entry symbol */
    char sym[96];      /* "nj_cache.<first 32 hex digits>": the entry symbol of the object */
    char *desc;        /* "file.py: f(float64, float64) [njit]" for `numjit cache list` */
} RtCacheKey;

/* Whether f's compilations go through the cache: cache=True, or NUMJIT_CACHE=1 for all. */
bool rt_cache_wanted(const FuncInfo *fi);
/* Builds the key of function fi of m for one compilation: what (e.g. "njit", "ufunc"), the
 * argument types, and extra text (loop dtypes, layout).  False when out of memory. */
bool rt_cache_key(RtCacheKey *k, const NjModule *m, const FuncInfo *fi, const char *what,
                  const Type *const *args, int nargs, const char *extra);
void rt_cache_key_free(RtCacheKey *k);

/* The payload of an entry: a list of fields (u32 and byte strings) in the order written. */
typedef struct RtBlob {
    uint8_t *data;
    size_t len, cap, pos; /* pos: the reader's position */
    bool bad;             /* a write ran out of memory, or a read went past the end */
} RtBlob;
void rt_blob_u32(RtBlob *b, uint32_t v);
void rt_blob_bytes(RtBlob *b, const void *p, size_t n);
void rt_blob_str(RtBlob *b, const char *s);
void rt_blob_type(RtBlob *b, const Type *t); /* NULL writes "no type" */
uint32_t rt_blob_get_u32(RtBlob *b);
/* The next byte string (pointing into the blob; strings are NUL-terminated). */
const void *rt_blob_get_bytes(RtBlob *b, size_t *n);
const char *rt_blob_get_str(RtBlob *b);
const Type *rt_blob_get_type(RtBlob *b); /* NULL: "no type" (or bad) */
void rt_blob_free(RtBlob *b);

/* Reads the entry of k: true with the payload in *b (a damaged entry: false, and a debug
 * note).  Writes one atomically; failures only show under NUMJIT_CACHE_DEBUG=1. */
bool rt_cache_load(const RtCacheKey *k, RtBlob *b);
void rt_cache_store(const RtCacheKey *k, const RtBlob *b);
/* A line on stderr when NUMJIT_CACHE_DEBUG=1 (the one place the library prints). */
void rt_cache_debug(const char *fmt, ...) NJ_PRINTF(1, 2);

/* ---- compiled GPU code: cubins ------------------------------------------------------------
 * The same cache for GPU compilations: an entry holds the cubin the driver linked from our PTX
 * (cu_link_ptx) plus what the launch needs (entry name, parameter types, the caller's own
 * fields), so a hit skips the typer, LLVM and the driver's PTX JIT alike.  cache.c builds the
 * key and the payload (no device needed); kernel.c loads and links.  Any GPU compilation can
 * use it, in three steps (explicit kernels do; a GPU ufunc kernel would pass "gpu-ufunc" and
 * its loop dtypes as extra text, and its launch shape as meta):
 *   RtGpuTarget t;  rt_gpu_target(dev, &t);          (generate PTX for t.gen_arch, t.max_ptx)
 *   rt_cubin_key(&key, m, fi, "kernel", params, n, &t, extra)  when rt_cache_wanted(fi)
 *   rt_cubin_load(&key, dev, &want, &meta, &cm)  → a hit: cm loaded, no compiling at all;
 *   else generate PTX and rt_cubin_build(dev, ptx, &key (or NULL: no cache), &want, &cm). */
typedef struct RtGpuTarget {
    char dev_arch[16]; /* the device's sm_XX: the cubin runs on that SM only */
    char gen_arch[16]; /* the arch the PTX is generated for (an older one when LLVM cannot
                          target the device's; the driver JITs it forward) */
    int max_ptx;       /* the driver's PTX cap (cu_driver_max_ptx; 0 unknown) */
    int driver;        /* the driver's version (cu_driver_version) */
} RtGpuTarget;

#define RT_CUBIN_MAXPARAMS 32
typedef struct RtCubinEntry {
    const char *dev_arch;
    const char *entry; /* the .entry name of the kernel */
    int nparams;
    const Type *params[RT_CUBIN_MAXPARAMS]; /* the parameter types the launch marshals */
    const void *meta;  /* the caller's own fields (an RtBlob's bytes), may be NULL */
    size_t meta_len;
    const void *cubin;
    size_t cubin_len;
} RtCubinEntry;

/* The key of a GPU compilation: rt_cache_key's, with the GPU target (t) instead of the host
 * CPU; what is e.g. "kernel". */
bool rt_cubin_key(RtCacheKey *k, const NjModule *m, const FuncInfo *fi, const char *what,
                  const Type *const *args, int nargs, const RtGpuTarget *t, const char *extra);
/* The payload of a GPU entry (cache.c); rt_cubin_get's pointers point into b; it returns NULL,
 * or what is wrong with the payload (a cubin must start with an ELF header). */
void rt_cubin_put(RtBlob *b, const RtCubinEntry *e);
const char *rt_cubin_get(RtBlob *b, RtCubinEntry *e);

/* kernel.c.  rt_gpu_target: the target of device d (gen_arch chosen as for kernels).
 * rt_cubin_load: the entry of k, when its device arch, entry name and parameters equal want's,
 * loaded on d; *meta (may be NULL) receives a copy of the caller's fields (read it from pos 0,
 * then rt_blob_free).  False: compile (a damaged or unusable entry is a debug note).
 * rt_cubin_build: a miss.  With k, links ptx to a cubin, stores it under k with want's
 * fields, and loads the cubin; without k, or when linking fails, loads the PTX (the usual
 * error, with the driver's log, in cu_error()). */
struct CuDevice;
struct CuModule;
void rt_gpu_target(struct CuDevice *d, RtGpuTarget *t);
bool rt_cubin_load(const RtCacheKey *k, struct CuDevice *d, const RtCubinEntry *want,
                   RtBlob *meta, struct CuModule **out);
NjStatus rt_cubin_build(struct CuDevice *d, const char *ptx, const RtCacheKey *k,
                        const RtCubinEntry *want, struct CuModule **out);
/* ==== end on-disk cache ===================================================================== */

/* ==== GPU ufuncs and gufuncs (gpu_ufunc.c; ufunc.c hands target 'cuda' over) ============= */
/* What gpu_ufunc.c reads of an NjUfunc (ufunc.c owns it). */
typedef struct RtUfDesc {
    NjModule *module;
    const FuncInfo *fi;
    const char *name;
    NjTarget target;
    int nin, nout;
    bool gufunc;
    int ncore;
    const char *const *core_names;
    const int8_t *core_n;                  /* [nin + nout] */
    const int8_t (*core_idx)[NJ_MAX_NDIM]; /* [nin + nout] */
    int nsigs;
    pthread_mutex_t *lock;                 /* the ufunc's lock */
    void **gpu;                            /* the ufunc's slot for gpu_ufunc.c's state */
} RtUfDesc;
void rt_ufunc_describe(NjUfunc *u, RtUfDesc *d);
/* Signature sig's type of argument k (a ufunc's k == nin: its return type); NULL if none. */
const Type *rt_ufunc_sig_type(const NjUfunc *u, int sig, int k);
const char *rt_ufunc_sig_text(const NjUfunc *u, int sig);
/* nj_ufunc_call / nj_ufunc_resolve of a target='cuda' ufunc (host arrays); the state free. */
NjStatus rt_gpu_ufunc_call_arrays(NjUfunc *u, const NjArray *ins, int nin, NjArray *outs,
                                  int nout);
NjStatus rt_gpu_ufunc_resolve(NjUfunc *u, const NjArray *ins, int nin, NjArray *outs,
                              int nout);
void rt_gpu_ufunc_free(void *gpu);
/* nj_ptx of a @vectorize / @guvectorize function: sig is "(float32, float32)" (a ufunc's
 * scalar signature) or "(float64[:], float64[:], float64[:])" (a gufunc's, inputs and outputs);
 * *out nj_malloc'ed PTX. */
NjStatus rt_gpu_ufunc_ptx(NjModule *m, const FuncInfo *fi, const char *sig, const char *arch,
                          char **out);

/* kernel.c: frees the CUDA kernels of a module (module teardown; context.c calls it). */
void rt_module_kernels_free(NjModule *m);
/* device.c: copies the CUDA driver layer's message (cu_error) into the context as "error:
 * what: message" (or "error: message" when what is NULL); returns st. */
NjStatus rt_cu_fail(NjContext *ctx, NjStatus st, const char *what);

/* print.c: CG_PRINT_SYMBOL (codegen.h gives the contract; context.c defines it in every JIT). */
void rt_print_line(const char *line, const int64_t *values);
/* arrays.c: Python's repr of a float (float32 values with their own shortest digits) and of
 * a complex, appended to out */
void rt_float_repr(double x, bool f32, StrBuf *out);
void rt_complex_repr(double re, double im, StrBuf *out);
void rt_array_str(const NjArray *a, StrBuf *out); /* str(a) as NumPy (real dtypes) */

/* pool.c: runs fn(arg, k) for k in [0, nchunks) on the pool's threads and the caller's;
 * returns when all are done.  Runs serially when the pool is busy (another caller or a
 * nested call) or has one thread. */
int rt_pool_threads(void);
void rt_pool_run(int nchunks, void (*fn)(void *arg, int k), void *arg);
/* whether every worker is polling for a job now (one would start within a microsecond) */
bool rt_pool_hot(void);
/* wakes the workers without a job, so that they poll for a while; never waits */
void rt_pool_warm(void);

/* parfor.c: the runtime of parallel loops, CG_PARFOR_SYMBOL (codegen.h gives the contract);
 * context.c defines it in every JIT. */
int32_t rt_parfor_run(CgParforChunk chunk, CgParforCombine combine, void *closure, int64_t n,
                      int64_t slot_size, uint64_t *state);

#endif
