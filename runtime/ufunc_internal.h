/* ufunc_internal.h — private to runtime/ufunc.c and runtime/ufunc_loops.c: the NjUfunc record,
 * its signatures and its published table of loop entries.
 *
 * ufunc.c owns the object (declarations, creation, teardown, the calls of the C API);
 * ufunc_loops.c chooses and compiles the loop a call runs (type resolution, the loop cache in
 * memory and on disk, signatures compiled ahead of need, the loops of NumPy's ufunc objects).
 */
#ifndef NUMJIT_RUNTIME_UFUNC_INTERNAL_H
#define NUMJIT_RUNTIME_UFUNC_INTERNAL_H

#include "runtime.h"

#define UF_MAXCORE 32

typedef struct UfSig {
    const Type *args[RT_UF_MAXARGS]; /* ufunc: nin scalars; gufunc: nin + nout types */
    const Type *ret;                 /* ufunc: the output type */
    char *text;
} UfSig;

typedef struct UfEntry {
    uint8_t key[RT_UF_MAXARGS];
    RtLoop loop;
    int sig; /* index of the signature, -1 for a dynamic loop */
    /* A ufunc's loop is compiled "basic" first (contiguous and strided paths: what arrays of
     * one shape need); the first call that broadcasts an input compiles the full loop (with
     * the broadcast paths) into `full`, under the ufunc's lock. */
    bool basic;
    _Atomic(CgLoop) full;
} UfEntry;

typedef struct UfTable {
    int n;
    UfEntry *items[];
} UfTable;

struct NjUfunc {
    NjModule *module;
    const FuncInfo *fi;
    char *name;
    bool from_decorator;
    NjTarget target;
    int nin, nout;
    UfSig *sigs;   /* a dynamic ufunc appends one per compiled loop (under lock) */
    int nsigs, capsigs;
    bool dynamic;
    bool gufunc;
    int ncore;
    char *core_names[UF_MAXCORE];
    int8_t core_n[RT_UF_MAXARGS];
    int8_t core_idx[RT_UF_MAXARGS][NJ_MAX_NDIM];
    bool has_identity;
    NjValue identity;
    pthread_mutex_t lock;
    _Atomic(UfTable *) table;
    /* declared signatures compiled ahead of need on a thread (started by the first compile,
     * joined by ufunc_free); ahead_mu guards the rest, ahead_cv signals a finished loop */
    pthread_t ahead;
    bool ahead_started;
    pthread_mutex_t ahead_mu;
    pthread_cond_t ahead_cv;
    int nahead;
    struct AheadSlot *ahead_slot; /* the loops queued, nahead of them */
    PtrVec old_tables;
    PtrVec np_loops; /* RtNpLoop: loops handed to NumPy's ufunc objects (nj_ufunc_numpy_loop) */
    void *gpu; /* target 'cuda': gpu_ufunc.c's kernels */
};

/* The entry for these arrays (their dtypes, and which outputs are allocated): the lock-free
 * scan of the published table, then, under the ufunc's lock, type resolution and a compile. */
NjStatus rt_uf_get_entry(NjUfunc *u, const NjArray *ins, const NjArray *outs, UfEntry **out);
/* The full loop (with the broadcast paths) of a basic entry, compiled on first need under the
 * ufunc's lock. */
NjStatus rt_uf_full_loop(NjUfunc *u, UfEntry *e, CgLoop *out);

#endif
