/* cuda_internal.h — private to runtime/cuda*.c: the driver API's types, the table of entry
 * points loaded by cuda.c, the device and module records, and the helpers the three files
 * share (the checker cu_check, the thread's message, binding a device's context).
 *
 * The driver is split by concept: cuda.c loads it, names its errors and keeps the devices,
 * streams and events; cuda_mem.c is the caching device allocator, the copies and page-locked
 * host memory; cuda_module.c loads modules (PTX, cubins), finds kernels and launches them.
 * The rest of runtime/ includes runtime/cuda.h only.
 */
#ifndef NUMJIT_RUNTIME_CUDA_INTERNAL_H
#define NUMJIT_RUNTIME_CUDA_INTERNAL_H

#include "cuda.h"

#include "../base/base.h"

#include <pthread.h>
#include <stdatomic.h>

/* ---- the driver's types (ABI-stable; no cuda.h needed to build) ----------------------------- */
typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef void *CUmodule;
typedef void *CUfunction;
typedef void *CUstream;
typedef void *CUlinkState;
typedef void *CUevent;
typedef unsigned long long CUdeviceptr;
typedef size_t (*CUoccupancyB2DSize)(int block);

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_STUB_LIBRARY = 34,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
    CU_EVENT_DISABLE_TIMING = 2,
    CU_MEMHOSTREGISTER_DEVICEMAP = 2,
    CU_MEMHOSTALLOC_PORTABLE = 1,
    CU_MEMHOSTALLOC_DEVICEMAP = 2,
    CU_JIT_INFO_LOG_BUFFER = 3,
    CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    CU_JIT_ERROR_LOG_BUFFER = 5,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
    CU_JIT_INPUT_PTX = 1,
    CU_STREAM_NON_BLOCKING = 1,
    CU_DEV_ATTR_MAX_THREADS_PER_BLOCK = 1,
    CU_DEV_ATTR_MAX_BLOCK_DIM_X = 2,
    CU_DEV_ATTR_MAX_GRID_DIM_X = 5,
    CU_DEV_ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    CU_DEV_ATTR_WARP_SIZE = 10,
    CU_DEV_ATTR_MULTIPROCESSOR_COUNT = 16,
    CU_DEV_ATTR_MAX_THREADS_PER_MULTIPROCESSOR = 39,
    CU_DEV_ATTR_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEV_ATTR_COMPUTE_CAPABILITY_MINOR = 76,
    CU_DEV_ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
    CU_FUNC_ATTR_MAX_THREADS_PER_BLOCK = 0,
    CU_FUNC_ATTR_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTR_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTR_NUM_REGS = 4,
    CU_FUNC_ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    CU_FUNC_ATTR_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
};

/* ---- entry points ------------------------------------------------------------------------------ */
typedef struct CuApi {
    CUresult (*cuInit)(unsigned);
    CUresult (*cuDriverGetVersion)(int *);
    CUresult (*cuGetErrorName)(CUresult, const char **);
    CUresult (*cuGetErrorString)(CUresult, const char **);
    CUresult (*cuDeviceGetCount)(int *);
    CUresult (*cuDeviceGet)(CUdevice *, int);
    CUresult (*cuDeviceGetName)(char *, int, CUdevice);
    CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
    CUresult (*cuDeviceTotalMem)(size_t *, CUdevice);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
    CUresult (*cuDevicePrimaryCtxReset)(CUdevice);
    CUresult (*cuCtxGetCurrent)(CUcontext *);
    CUresult (*cuCtxSetCurrent)(CUcontext);
    CUresult (*cuCtxSynchronize)(void);
    CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
    CUresult (*cuMemFree)(CUdeviceptr);
    CUresult (*cuMemHostAlloc)(void **, size_t, unsigned);
    CUresult (*cuMemFreeHost)(void *);
    CUresult (*cuMemHostRegister)(void *, size_t, unsigned);
    CUresult (*cuMemHostUnregister)(void *);
    CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
    CUresult (*cuMemGetInfo)(size_t *, size_t *);
    CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
    CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
    CUresult (*cuMemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
    CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
    CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
    CUresult (*cuStreamCreate)(CUstream *, unsigned);
    CUresult (*cuStreamDestroy)(CUstream);
    CUresult (*cuStreamSynchronize)(CUstream);
    CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
    CUresult (*cuEventCreate)(CUevent *, unsigned);
    CUresult (*cuEventDestroy)(CUevent);
    CUresult (*cuEventRecord)(CUevent, CUstream);
    CUresult (*cuEventSynchronize)(CUevent);
    CUresult (*cuEventQuery)(CUevent);
    CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
    CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
    CUresult (*cuModuleUnload)(CUmodule);
    CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*cuLinkCreate)(unsigned, int *, void **, CUlinkState *);
    CUresult (*cuLinkAddData)(CUlinkState, int, void *, size_t, const char *, unsigned, int *, void **);
    CUresult (*cuLinkComplete)(CUlinkState, void **, size_t *);
    CUresult (*cuLinkDestroy)(CUlinkState);
    CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
    CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
    CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, unsigned, CUstream, void **, void **);
    CUresult (*cuOccupancyMaxPotentialBlockSize)(int *, int *, CUfunction, CUoccupancyB2DSize,
                                                 size_t, int);
    CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int, size_t);
} CuApi;

typedef struct CuBlock {
    CUdeviceptr ptr;
    size_t size;
    struct CuBlock *next;
} CuBlock;

#define CU_SMALL_CLASSES 12          /* 512 B .. 1 MiB */
#define CU_LARGE_UNIT (2u << 20)     /* large blocks: multiples of 2 MiB */

struct CuDevice {
    int ordinal;
    CUdevice dev;
    CUcontext ctx;
    CuDeviceInfo info;
    atomic_bool broken;
    char broken_msg[1024];               /* the sticky error, written before broken is set */
    _Atomic(const char *) last_kernel;
    pthread_mutex_t lock;                /* the allocator */
    CuBlock **live;                      /* hash buckets by address */
    size_t nlive_buckets, nlive;
    CuBlock *small_free[CU_SMALL_CLASSES];
    CuBlock *large_free;
    CuBlock *spare;                      /* unused records */
    CuMemStats stats;
};

struct CuModule {
    CuDevice *dev;
    CUmodule mod;
    pthread_mutex_t lock;
    PtrVec kernels; /* CuKernel* */
};

/* The entry points, filled by cuda.c's loader (all NULL where there is no driver). */
extern CuApi cu_api;
/* The calling thread's last message (cu_error()). */
extern _Thread_local char cu_msg[8192];
void cu_set_msg(const char *fmt, ...) NJ_PRINTF(1, 2);
/* Errors after which the context cannot be used any more (the driver's "sticky" errors). */
bool cu_sticky(CUresult r);
/* The checker: NJ_OK, or the message "call (context): NAME: description" and NJ_ERR_CUDA. */
NjStatus cu_check(CuDevice *d, CUresult r, const char *call, const char *fmt, ...) NJ_PRINTF(4, 5);
/* Makes d's context current on this thread (cheap when it already is). */
NjStatus cu_bind(CuDevice *d);
/* "after kernel 'k'" for messages of synchronizations. */
const char *cu_after_kernel(CuDevice *d, char *buf, size_t n);

#endif
