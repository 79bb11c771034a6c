/* gpu_ufunc_internal.h — private to runtime/gpu_ufunc.c and runtime/gpu_ufunc_launch.c: the
 * compiled kernels of a target='cuda' ufunc, the operands of one call and what a launch needs.
 *
 * gpu_ufunc.c resolves a call (signature, loop dtypes, shapes), gets the kernel and moves the
 * operands to and from the device; gpu_ufunc_launch.c broadcasts and collapses the iteration
 * space, chooses the gufunc staging variant and the launch shape, and launches.
 */
#ifndef NUMJIT_RUNTIME_GPU_UFUNC_INTERNAL_H
#define NUMJIT_RUNTIME_GPU_UFUNC_INTERNAL_H

#include "cuda.h"
#include "runtime.h"

#define GU_MAXCORE (RT_UF_MAXARGS * NJ_MAX_NDIM)
#define GU_STAGE_BYTES (48 * 1024)

typedef struct GKernel {
    int sig, device;
    NjDType dtypes[RT_UF_MAXARGS];
    CuModule *cm;
    CuKernel *ck;
    int block, blocks_per_sm; /* occupancy at no dynamic shared memory */
    int group;                /* elements per thread-group of the vector path */
} GKernel;

typedef struct GState {
    PtrVec kernels;
} GState;

typedef struct Operand {
    NjArray a;        /* the array as the kernel sees it (data: a device address) */
    bool host;        /* lives on the host: copied in (inputs, out=) and/or back (outputs) */
    bool alloc;       /* an output allocated here */
    CuDevPtr dev;     /* our device allocation (span or output), 0 when none */
    char *hspan;      /* host: where the span starts */
    size_t nbytes;    /* of the span */
    NjArray *user;    /* outputs: the caller's NjArray */
    NjArray cast;     /* a host copy converted to the signature's dtype (gufuncs) */
    bool has_cast;
    uint64_t scalar[2]; /* a scalar's storage (a complex128 takes both words) */
} Operand;

typedef struct Launch {
    const RtUfDesc *u;
    GKernel *k;
    CuDevice *dev;
    CuStream s;
    int na;
    int64_t core_size[GU_MAXCORE];
} Launch;

/* Copies the driver layer's message into the context as "error: name(): message"; returns st. */
NjStatus rt_gu_cu_failed(NjContext *ctx, NjStatus st, const char *name);
/* Broadcast strides, collapse, and the launches (one per index of the leading dimensions
 * beyond two). */
NjStatus rt_gu_run(const Launch *L, Operand *ops);

#endif
