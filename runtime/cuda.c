/* cuda.c — the CUDA driver API, loaded at run time: devices and their primary contexts, a
 * caching device allocator, copies, page-locked host memory, streams and events, modules (PTX
 * through the driver's JIT, cubins), kernel launches and the occupancy API.  runtime/cuda.h is its face.
 *
 * Loading: dlopen("libcuda.so.1") (or $NUMJIT_LIBCUDA), then dlsym of every entry point under
 * its versioned name (cuMemAlloc_v2, cuCtxPushCurrent_v2, ...: the unversioned names are the
 * CUDA 3.x ABIs) with the plain name as a fallback for the few that have none, then cuInit(0).
 * This runs once per process (pthread_once); the outcome and its message are kept, so that a
 * machine without a driver answers NJ_ERR_UNSUPPORTED every time, cheaply, and never crashes.
 * The toolkit's stub libcuda answers CUDA_ERROR_STUB_LIBRARY (34) to everything, including
 * cuGetErrorName: error names and descriptions therefore come from our own table.
 *
 * Errors: one checker, cu_check(result, call, context...), turns a failing CUresult into the
 * calling thread's message "call (context): CUDA_ERROR_NAME: description" and NJ_ERR_CUDA.
 * Errors that leave the context unusable (700-series: illegal address, launch failure...) mark
 * the device broken and say so; every later call on that device then fails at once with that
 * first message.  cu_device_reset tries to recover (drivers of CUDA 13 refuse: the process
 * must restart).
 *
 * Allocator (per device, one mutex): a request is rounded to its size class — 512 B minimum,
 * powers of two up to 1 MiB, then multiples of 2 MiB — and served from that class's free list
 * (small classes: one list each; large: one list searched for the smallest block that fits
 * with at most 1/8 waste), else from cuMemAlloc.  Live blocks sit in a hash table by address,
 * so cu_mem_free knows the size.  On CUDA_ERROR_OUT_OF_MEMORY every cached block is released
 * and the allocation retried once.
 *
 * The launch path (cu_launch) does no allocation and takes no lock: a bounds check of the
 * block size against the kernel's limit, an opt-in for large dynamic shared memory when first
 * needed, and cuLaunchKernel.
 */
#include "cuda.h"

#include "../base/base.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Where each entry point is found: the versioned symbol first, the plain name second. */
static const struct {
    size_t off;
    const char *sym, *fallback;
} cu_syms[] = {
#define E(field, sym, fb) {offsetof(CuApi, field), sym, fb}
    E(cuInit, "cuInit", NULL),
    E(cuDriverGetVersion, "cuDriverGetVersion", NULL),
    E(cuGetErrorName, "cuGetErrorName", NULL),
    E(cuGetErrorString, "cuGetErrorString", NULL),
    E(cuDeviceGetCount, "cuDeviceGetCount", NULL),
    E(cuDeviceGet, "cuDeviceGet", NULL),
    E(cuDeviceGetName, "cuDeviceGetName", NULL),
    E(cuDeviceGetAttribute, "cuDeviceGetAttribute", NULL),
    E(cuDeviceTotalMem, "cuDeviceTotalMem_v2", NULL),
    E(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", NULL),
    E(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"),
    E(cuDevicePrimaryCtxReset, "cuDevicePrimaryCtxReset_v2", "cuDevicePrimaryCtxReset"),
    E(cuCtxGetCurrent, "cuCtxGetCurrent", NULL),
    E(cuCtxSetCurrent, "cuCtxSetCurrent", NULL),
    E(cuCtxSynchronize, "cuCtxSynchronize", NULL),
    E(cuMemAlloc, "cuMemAlloc_v2", NULL),
    E(cuMemFree, "cuMemFree_v2", NULL),
    E(cuMemHostAlloc, "cuMemHostAlloc", NULL),
    E(cuMemFreeHost, "cuMemFreeHost", NULL),
    E(cuMemHostRegister, "cuMemHostRegister_v2", "cuMemHostRegister"),
    E(cuMemHostUnregister, "cuMemHostUnregister", NULL),
    E(cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2", NULL),
    E(cuMemGetInfo, "cuMemGetInfo_v2", NULL),
    E(cuMemcpyHtoD, "cuMemcpyHtoD_v2", NULL),
    E(cuMemcpyDtoH, "cuMemcpyDtoH_v2", NULL),
    E(cuMemcpyDtoD, "cuMemcpyDtoD_v2", NULL),
    E(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", NULL),
    E(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", NULL),
    E(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", NULL),
    E(cuMemsetD8, "cuMemsetD8_v2", NULL),
    E(cuMemsetD8Async, "cuMemsetD8Async", NULL),
    E(cuStreamCreate, "cuStreamCreate", NULL),
    E(cuStreamDestroy, "cuStreamDestroy_v2", "cuStreamDestroy"),
    E(cuStreamSynchronize, "cuStreamSynchronize", NULL),
    E(cuStreamWaitEvent, "cuStreamWaitEvent", NULL),
    E(cuEventCreate, "cuEventCreate", NULL),
    E(cuEventDestroy, "cuEventDestroy_v2", "cuEventDestroy"),
    E(cuEventRecord, "cuEventRecord", NULL),
    E(cuEventSynchronize, "cuEventSynchronize", NULL),
    E(cuEventQuery, "cuEventQuery", NULL),
    E(cuEventElapsedTime, "cuEventElapsedTime", NULL),
    E(cuModuleLoadDataEx, "cuModuleLoadDataEx", NULL),
    E(cuModuleUnload, "cuModuleUnload", NULL),
    E(cuModuleGetFunction, "cuModuleGetFunction", NULL),
    E(cuLinkCreate, "cuLinkCreate_v2", NULL),
    E(cuLinkAddData, "cuLinkAddData_v2", NULL),
    E(cuLinkComplete, "cuLinkComplete", NULL),
    E(cuLinkDestroy, "cuLinkDestroy", NULL),
    E(cuFuncGetAttribute, "cuFuncGetAttribute", NULL),
    E(cuFuncSetAttribute, "cuFuncSetAttribute", NULL),
    E(cuLaunchKernel, "cuLaunchKernel", NULL),
    E(cuOccupancyMaxPotentialBlockSize, "cuOccupancyMaxPotentialBlockSize", NULL),
    E(cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor", NULL),
#undef E
};

static CuApi cu;
static void *cu_lib;
static pthread_once_t cu_once = PTHREAD_ONCE_INIT;
static NjStatus cu_init_status = NJ_ERR_INTERNAL;
static char cu_init_msg[1024];
static int cu_version;

static _Thread_local char cu_msg[8192];

const char *cu_error(void) { return cu_msg; }

static void set_msg(const char *fmt, ...) NJ_PRINTF(1, 2);

/* ---- error names and descriptions --------------------------------------------------------------- */
static const struct {
    int code;
    const char *name, *desc;
} cu_errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "an argument is out of range"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of device memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "the driver is not initialized (cuInit)"},
    {4, "CUDA_ERROR_DEINITIALIZED", "the driver is shutting down"},
    {5, "CUDA_ERROR_PROFILER_DISABLED", "the profiler is disabled"},
    {6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED", "the profiler is not initialized"},
    {7, "CUDA_ERROR_PROFILER_ALREADY_STARTED", "the profiler is already started"},
    {8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED", "the profiler is already stopped"},
    {34, "CUDA_ERROR_STUB_LIBRARY", "the CUDA stub library was loaded instead of the driver"},
    {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER", "this call needs a newer driver"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE", "the device is unavailable (busy or exclusive)"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is present"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {102, "CUDA_ERROR_DEVICE_NOT_LICENSED", "the device is not licensed for this use"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "the module image is not valid"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "no valid context is current"},
    {202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT", "the context is already current"},
    {205, "CUDA_ERROR_MAP_FAILED", "mapping failed"},
    {206, "CUDA_ERROR_UNMAP_FAILED", "unmapping failed"},
    {207, "CUDA_ERROR_ARRAY_IS_MAPPED", "the array is mapped"},
    {208, "CUDA_ERROR_ALREADY_MAPPED", "the resource is already mapped"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU", "the module has no code for this GPU"},
    {210, "CUDA_ERROR_ALREADY_ACQUIRED", "the resource is already acquired"},
    {211, "CUDA_ERROR_NOT_MAPPED", "the resource is not mapped"},
    {212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY", "the resource is not mapped as an array"},
    {213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER", "the resource is not mapped as a pointer"},
    {214, "CUDA_ERROR_ECC_UNCORRECTABLE", "an uncorrectable ECC error was detected"},
    {215, "CUDA_ERROR_UNSUPPORTED_LIMIT", "the limit is not supported by the device"},
    {216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE", "the context is in use by another thread"},
    {217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "peer access is not supported"},
    {218, "CUDA_ERROR_INVALID_PTX", "the PTX JIT compilation failed"},
    {219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT", "invalid graphics context"},
    {220, "CUDA_ERROR_NVLINK_UNCORRECTABLE", "an uncorrectable NVLink error was detected"},
    {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "the PTX JIT compiler library was not found"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the driver does not support this PTX version"},
    {223, "CUDA_ERROR_JIT_COMPILATION_DISABLED", "PTX JIT compilation is disabled"},
    {224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY", "unsupported execution affinity"},
    {225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC", "device-side synchronization is not supported"},
    {226, "CUDA_ERROR_CONTAINED", "an error was contained by the hardware"},
    {300, "CUDA_ERROR_INVALID_SOURCE", "the kernel source is not valid"},
    {301, "CUDA_ERROR_FILE_NOT_FOUND", "file not found"},
    {302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND", "a shared object symbol was not found"},
    {303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", "a shared object failed to initialize"},
    {304, "CUDA_ERROR_OPERATING_SYSTEM", "an operating system call failed"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {401, "CUDA_ERROR_ILLEGAL_STATE", "the resource is in an illegal state"},
    {402, "CUDA_ERROR_LOSSY_QUERY", "the query would lose information"},
    {500, "CUDA_ERROR_NOT_FOUND", "a named symbol was not found"},
    {600, "CUDA_ERROR_NOT_READY", "the asynchronous work has not completed yet"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "a kernel accessed an illegal memory address"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for the launch"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT", "the kernel ran too long and was stopped"},
    {703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING", "incompatible texturing mode"},
    {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", "peer access is already enabled"},
    {705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", "peer access is not enabled"},
    {708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE", "the primary context is already active"},
    {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED", "the context was destroyed"},
    {710, "CUDA_ERROR_ASSERT", "a device-side assertion failed"},
    {711, "CUDA_ERROR_TOO_MANY_PEERS", "too many peer mappings"},
    {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED", "host memory is already registered"},
    {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED", "host memory is not registered"},
    {714, "CUDA_ERROR_HARDWARE_STACK_ERROR", "a kernel overflowed or corrupted its stack"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "a kernel executed an illegal instruction"},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS", "a kernel accessed a misaligned address"},
    {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE", "a kernel used an address in the wrong space"},
    {718, "CUDA_ERROR_INVALID_PC", "a kernel's program counter became invalid"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "the kernel failed while running"},
    {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "too many blocks for a cooperative launch"},
    {721, "CUDA_ERROR_TENSOR_MEMORY_LEAK", "tensor memory was not freed by the kernel"},
    {800, "CUDA_ERROR_NOT_PERMITTED", "the operation is not permitted"},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "the operation is not supported on this system"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY", "the system is not ready (driver or fabric manager)"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "the driver and kernel module versions differ"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "forward compatibility is not supported"},
    {805, "CUDA_ERROR_MPS_CONNECTION_FAILED", "cannot connect to the MPS server"},
    {806, "CUDA_ERROR_MPS_RPC_FAILURE", "an MPS remote call failed"},
    {807, "CUDA_ERROR_MPS_SERVER_NOT_READY", "the MPS server is not ready"},
    {808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED", "the MPS server has too many clients"},
    {809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED", "the MPS server has too many connections"},
    {810, "CUDA_ERROR_MPS_CLIENT_TERMINATED", "the MPS client was terminated"},
    {811, "CUDA_ERROR_CDP_NOT_SUPPORTED", "dynamic parallelism is not supported"},
    {812, "CUDA_ERROR_CDP_VERSION_MISMATCH", "dynamic parallelism version mismatch"},
    {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", "not allowed while a stream is captured"},
    {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED", "the stream capture was invalidated"},
    {902, "CUDA_ERROR_STREAM_CAPTURE_MERGE", "stream captures cannot be merged"},
    {903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED", "the capture was not started in this stream"},
    {904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED", "a forked capture was not joined"},
    {905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION", "a dependency crosses the capture boundary"},
    {906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT", "implicit dependency on a capturing stream"},
    {907, "CUDA_ERROR_CAPTURED_EVENT", "not allowed on an event of a stream capture"},
    {908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD", "the capture belongs to another thread"},
    {909, "CUDA_ERROR_TIMEOUT", "the wait timed out"},
    {910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE", "the graph update was not applied"},
    {911, "CUDA_ERROR_EXTERNAL_DEVICE", "an error in an external device"},
    {912, "CUDA_ERROR_INVALID_CLUSTER_SIZE", "invalid cluster size"},
    {913, "CUDA_ERROR_FUNCTION_NOT_LOADED", "the function is not loaded"},
    {914, "CUDA_ERROR_INVALID_RESOURCE_TYPE", "invalid resource type"},
    {915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION", "invalid resource configuration"},
    {916, "CUDA_ERROR_KEY_ROTATION", "a key rotation error occurred"},
    {999, "CUDA_ERROR_UNKNOWN", "an unknown internal error"},
};

static int err_index(int code) {
    for (size_t i = 0; i < sizeof cu_errors / sizeof *cu_errors; i++)
        if (cu_errors[i].code == code)
            return (int)i;
    return -1;
}

const char *cu_result_name(int code) {
    int i = err_index(code);
    return i >= 0 ? cu_errors[i].name : "CUDA_ERROR_(unknown code)";
}

const char *cu_result_string(int code) {
    int i = err_index(code);
    return i >= 0 ? cu_errors[i].desc : "an error code this version of numjit does not know";
}

static void set_msg(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cu_msg, sizeof cu_msg, fmt, ap);
    va_end(ap);
}

/* Errors after which the context cannot be used any more (the driver's "sticky" errors). */
static bool sticky(CUresult r) {
    switch (r) {
    case 700: case 702: case 709: case 710: case 714: case 715: case 716:
    case 717: case 718: case 719: case 721:
        return true;
    default:
        return false;
    }
}

/* ---- devices -------------------------------------------------------------------------------------- */
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

#define CU_MAX_DEVICES 64
static CuDevice *cu_devices[CU_MAX_DEVICES];
static pthread_mutex_t cu_devices_lock = PTHREAD_MUTEX_INITIALIZER;

/* The checker: NJ_OK, or the message "call (context): NAME: description" and NJ_ERR_CUDA. */
static NjStatus cu_check(CuDevice *d, CUresult r, const char *call, const char *fmt, ...)
    NJ_PRINTF(4, 5);
static NjStatus cu_check(CuDevice *d, CUresult r, const char *call, const char *fmt, ...) {
    if (r == CUDA_SUCCESS)
        return NJ_OK;
    char ctxbuf[1024] = "";
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctxbuf, sizeof ctxbuf, fmt, ap);
        va_end(ap);
    }
    const char *name = cu_result_name(r), *desc = cu_result_string(r);
    const char *dn = NULL, *ds = NULL; /* the driver's own words, when it gives them */
    if (cu.cuGetErrorName && cu.cuGetErrorName(r, &dn) == CUDA_SUCCESS && dn)
        name = dn;
    if (cu.cuGetErrorString && cu.cuGetErrorString(r, &ds) == CUDA_SUCCESS && ds)
        desc = ds;
    int n = snprintf(cu_msg, sizeof cu_msg, "%s%s%s%s: %s: %s", call, ctxbuf[0] ? " (" : "",
                     ctxbuf, ctxbuf[0] ? ")" : "", name, desc);
    if (d && sticky(r)) {
        if (!atomic_load(&d->broken)) {
            snprintf(d->broken_msg, sizeof d->broken_msg, "%.1000s", cu_msg);
            atomic_store(&d->broken, true);
        }
        if (n > 0 && (size_t)n < sizeof cu_msg)
            snprintf(cu_msg + n, sizeof cu_msg - (size_t)n,
                     "; the CUDA context of device %d is unusable from now on", d->ordinal);
    }
    return r == CUDA_ERROR_OUT_OF_MEMORY ? NJ_ERR_NOMEM : NJ_ERR_CUDA;
}

/* ---- loading the driver ------------------------------------------------------------------------ */
static void cu_load(void) {
    const char *path = getenv("NUMJIT_LIBCUDA");
    if (!path || !*path)
        path = "libcuda.so.1";
    cu_lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!cu_lib) {
        const char *why = dlerror();
        snprintf(cu_init_msg, sizeof cu_init_msg, "no CUDA driver found (%s): %s", path,
                 why ? why : "dlopen failed");
        cu_init_status = NJ_ERR_UNSUPPORTED;
        return;
    }
    for (size_t i = 0; i < sizeof cu_syms / sizeof *cu_syms; i++) {
        void *f = dlsym(cu_lib, cu_syms[i].sym);
        if (!f && cu_syms[i].fallback)
            f = dlsym(cu_lib, cu_syms[i].fallback);
        if (!f) {
            snprintf(cu_init_msg, sizeof cu_init_msg,
                     "the CUDA driver (%s) is too old: it lacks %s", path, cu_syms[i].sym);
            cu_init_status = NJ_ERR_UNSUPPORTED;
            memset(&cu, 0, sizeof cu);
            return;
        }
        memcpy((char *)&cu + cu_syms[i].off, &f, sizeof f);
    }
    CUresult r = cu.cuInit(0);
    if (r != CUDA_SUCCESS) {
        const char *what = r == CUDA_ERROR_STUB_LIBRARY ? "no CUDA driver found (%s is the toolkit's stub library)"
                           : r == CUDA_ERROR_NO_DEVICE  ? "no CUDA device found (%s)"
                                                        : "the CUDA driver (%s) failed to initialize";
        int n = snprintf(cu_init_msg, sizeof cu_init_msg, what, path);
        if (n > 0 && (size_t)n < sizeof cu_init_msg)
            snprintf(cu_init_msg + n, sizeof cu_init_msg - (size_t)n, ": cuInit: %s: %s",
                     cu_result_name(r), cu_result_string(r));
        cu_init_status = NJ_ERR_UNSUPPORTED;
        return;
    }
    if (cu.cuDriverGetVersion(&cu_version) != CUDA_SUCCESS)
        cu_version = 0;
    cu_init_status = NJ_OK;
}

NjStatus cu_init(void) {
    pthread_once(&cu_once, cu_load);
    if (cu_init_status != NJ_OK)
        set_msg("%s", cu_init_msg);
    return cu_init_status;
}

int cu_driver_version(void) { return cu_init_status == NJ_OK ? cu_version : 0; }

int cu_ptx_for_driver_version(int v) {
    int major = v / 1000, minor = (v % 1000) / 10;
    if (major < 11)
        return major == 10 ? 63 + (minor >= 2 ? 2 : minor) : 0; /* 10.0: 6.3, 10.1: 6.4, 10.2: 6.5 */
    if (major == 11)
        return 70 + (minor > 8 ? 8 : minor);                    /* 11.0: 7.0 ... 11.8: 7.8 */
    if (major == 12) {
        static const int by_minor[] = {80, 81, 82, 83, 84, 85, 85, 86, 87, 88}; /* 12.0 ... 12.9 */
        return by_minor[minor > 9 ? 9 : minor];
    }
    return 90 + (major - 13) * 10 + minor; /* 13.0: 9.0; later drivers read at least that */
}

int cu_driver_max_ptx(void) { return cu_version ? cu_ptx_for_driver_version(cu_version) : 0; }

/* Makes d's context current on this thread (cheap when it already is). */
static NjStatus bind(CuDevice *d) {
    if (atomic_load_explicit(&d->broken, memory_order_acquire)) {
        set_msg("CUDA device %d is unusable since an earlier error: %s", d->ordinal, d->broken_msg);
        return NJ_ERR_CUDA;
    }
    CUcontext cur = NULL;
    if (cu.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == d->ctx)
        return NJ_OK;
    return cu_check(d, cu.cuCtxSetCurrent(d->ctx), "cuCtxSetCurrent", "device %d", d->ordinal);
}

NjStatus cu_device_count(int *n) {
    *n = 0;
    NjStatus st = cu_init();
    if (st != NJ_OK)
        return st;
    return cu_check(NULL, cu.cuDeviceGetCount(n), "cuDeviceGetCount", NULL);
}

static NjStatus read_info(CuDevice *d) {
    CuDeviceInfo *I = &d->info;
    I->ordinal = d->ordinal;
    NjStatus st = cu_check(d, cu.cuDeviceGetName(I->name, (int)sizeof I->name, d->dev), "cuDeviceGetName", NULL);
    if (st)
        return st;
    struct { int *dst, attr; } attrs[] = {
        {&I->cc_major, CU_DEV_ATTR_COMPUTE_CAPABILITY_MAJOR},
        {&I->cc_minor, CU_DEV_ATTR_COMPUTE_CAPABILITY_MINOR},
        {&I->sm_count, CU_DEV_ATTR_MULTIPROCESSOR_COUNT},
        {&I->warp_size, CU_DEV_ATTR_WARP_SIZE},
        {&I->max_threads_per_block, CU_DEV_ATTR_MAX_THREADS_PER_BLOCK},
        {&I->max_block_dim[0], CU_DEV_ATTR_MAX_BLOCK_DIM_X},
        {&I->max_block_dim[1], CU_DEV_ATTR_MAX_BLOCK_DIM_X + 1},
        {&I->max_block_dim[2], CU_DEV_ATTR_MAX_BLOCK_DIM_X + 2},
        {&I->max_grid_dim[0], CU_DEV_ATTR_MAX_GRID_DIM_X},
        {&I->max_grid_dim[1], CU_DEV_ATTR_MAX_GRID_DIM_X + 1},
        {&I->max_grid_dim[2], CU_DEV_ATTR_MAX_GRID_DIM_X + 2},
        {&I->max_shared_per_block, CU_DEV_ATTR_MAX_SHARED_MEMORY_PER_BLOCK},
        {&I->max_shared_per_block_optin, CU_DEV_ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
        {&I->max_threads_per_sm, CU_DEV_ATTR_MAX_THREADS_PER_MULTIPROCESSOR},
    };
    for (size_t i = 0; i < sizeof attrs / sizeof *attrs; i++)
        if ((st = cu_check(d, cu.cuDeviceGetAttribute(attrs[i].dst, attrs[i].attr, d->dev),
                           "cuDeviceGetAttribute", "attribute %d", attrs[i].attr)))
            return st;
    snprintf(I->arch, sizeof I->arch, "sm_%d%d", I->cc_major, I->cc_minor);
    return cu_check(d, cu.cuDeviceTotalMem(&I->total_mem, d->dev), "cuDeviceTotalMem_v2", NULL);
}

NjStatus cu_device_get(int ordinal, CuDevice **out) {
    *out = NULL;
    NjStatus st = cu_init();
    if (st != NJ_OK)
        return st;
    int n = 0;
    if ((st = cu_check(NULL, cu.cuDeviceGetCount(&n), "cuDeviceGetCount", NULL)))
        return st;
    if (ordinal < 0 || ordinal >= n || ordinal >= CU_MAX_DEVICES) {
        set_msg("no CUDA device %d (this machine has %d)", ordinal, n);
        return n ? NJ_ERR_ARGS : NJ_ERR_UNSUPPORTED;
    }
    pthread_mutex_lock(&cu_devices_lock);
    CuDevice *d = cu_devices[ordinal];
    if (!d) {
        d = calloc(1, sizeof *d);
        if (!d) {
            pthread_mutex_unlock(&cu_devices_lock);
            set_msg("out of memory");
            return NJ_ERR_NOMEM;
        }
        d->ordinal = ordinal;
        pthread_mutex_init(&d->lock, NULL);
        st = cu_check(d, cu.cuDeviceGet(&d->dev, ordinal), "cuDeviceGet", "device %d", ordinal);
        if (!st)
            st = cu_check(d, cu.cuDevicePrimaryCtxRetain(&d->ctx, d->dev), "cuDevicePrimaryCtxRetain",
                          "device %d", ordinal);
        if (!st)
            st = read_info(d);
        if (st) {
            if (d->ctx)
                cu.cuDevicePrimaryCtxRelease(d->dev);
            pthread_mutex_destroy(&d->lock);
            free(d);
            pthread_mutex_unlock(&cu_devices_lock);
            return st;
        }
        cu_devices[ordinal] = d;
    }
    pthread_mutex_unlock(&cu_devices_lock);
    *out = d;
    return NJ_OK;
}

const CuDeviceInfo *cu_device_info(const CuDevice *d) { return &d->info; }
NjStatus cu_device_attribute(CuDevice *d, int attr, int *value) {
    *value = 0;
    return cu_check(d, cu.cuDeviceGetAttribute(value, attr, d->dev), "cuDeviceGetAttribute",
                    "attribute %d of device %d", attr, d->ordinal);
}

bool cu_device_broken(const CuDevice *d) { return atomic_load(&((CuDevice *)d)->broken); }

/* "after kernel 'k'" for messages of synchronizations. */
static const char *after_kernel(CuDevice *d, char *buf, size_t n) {
    const char *k = atomic_load_explicit(&d->last_kernel, memory_order_relaxed);
    if (k)
        snprintf(buf, n, "device %d, after kernel '%s'", d->ordinal, k);
    else
        snprintf(buf, n, "device %d", d->ordinal);
    return buf;
}

NjStatus cu_device_synchronize(CuDevice *d) {
    NjStatus st = bind(d);
    if (st)
        return st;
    CUresult r = cu.cuCtxSynchronize();
    char buf[512];
    return r ? cu_check(d, r, "cuCtxSynchronize", "%s", after_kernel(d, buf, sizeof buf)) : NJ_OK;
}

/* ---- the allocator -------------------------------------------------------------------------------- */
static int small_class(size_t n) { /* n <= 1 MiB */
    int c = 0;
    for (size_t s = 512; s < n; s <<= 1)
        c++;
    return c;
}

static size_t round_size(size_t n) {
    if (n <= (1u << 20)) {
        size_t s = 512;
        while (s < n)
            s <<= 1;
        return s;
    }
    return (n + CU_LARGE_UNIT - 1) / CU_LARGE_UNIT * CU_LARGE_UNIT;
}

static size_t addr_hash(CUdeviceptr p, size_t nb) { return (size_t)((p >> 9) * 0x9E3779B97F4A7C15ull >> 20) & (nb - 1); }

static bool live_grow(CuDevice *d) {
    size_t nb = d->nlive_buckets ? d->nlive_buckets * 2 : 256;
    CuBlock **fresh = calloc(nb, sizeof *fresh);
    if (!fresh)
        return false;
    for (size_t i = 0; i < d->nlive_buckets; i++)
        for (CuBlock *b = d->live[i], *next; b; b = next) {
            next = b->next;
            size_t h = addr_hash(b->ptr, nb);
            b->next = fresh[h];
            fresh[h] = b;
        }
    free(d->live);
    d->live = fresh;
    d->nlive_buckets = nb;
    return true;
}

static void live_add(CuDevice *d, CuBlock *b) {
    size_t h = addr_hash(b->ptr, d->nlive_buckets);
    b->next = d->live[h];
    d->live[h] = b;
    d->nlive++;
}

static CuBlock *live_take(CuDevice *d, CUdeviceptr p) {
    if (!d->nlive_buckets)
        return NULL;
    for (CuBlock **pp = &d->live[addr_hash(p, d->nlive_buckets)]; *pp; pp = &(*pp)->next)
        if ((*pp)->ptr == p) {
            CuBlock *b = *pp;
            *pp = b->next;
            d->nlive--;
            return b;
        }
    return NULL;
}

/* A cached block of exactly this rounded size (small) or the best fit within 1/8 (large). */
static CuBlock *cache_take(CuDevice *d, size_t size) {
    CuBlock **best = NULL;
    if (size <= (1u << 20)) {
        best = d->small_free[small_class(size)] ? &d->small_free[small_class(size)] : NULL;
    } else {
        for (CuBlock **pp = &d->large_free; *pp; pp = &(*pp)->next)
            if ((*pp)->size >= size && (*pp)->size <= size + size / 8 &&
                (!best || (*pp)->size < (*best)->size))
                best = pp;
    }
    if (!best)
        return NULL;
    CuBlock *b = *best;
    *best = b->next;
    d->stats.cached -= b->size;
    return b;
}

static void cache_put(CuDevice *d, CuBlock *b) {
    CuBlock **list = b->size <= (1u << 20) ? &d->small_free[small_class(b->size)] : &d->large_free;
    b->next = *list;
    *list = b;
    d->stats.cached += b->size;
}

/* Returns every cached block to the driver (d->lock held, context bound). */
static void cache_release(CuDevice *d) {
    CuBlock **lists[CU_SMALL_CLASSES + 1];
    for (int i = 0; i < CU_SMALL_CLASSES; i++)
        lists[i] = &d->small_free[i];
    lists[CU_SMALL_CLASSES] = &d->large_free;
    for (int i = 0; i <= CU_SMALL_CLASSES; i++)
        while (*lists[i]) {
            CuBlock *b = *lists[i];
            *lists[i] = b->next;
            cu.cuMemFree(b->ptr);
            d->stats.cached -= b->size;
            b->next = d->spare;
            d->spare = b;
        }
}

NjStatus cu_mem_alloc(CuDevice *d, size_t n, CuDevPtr *out) {
    *out = 0;
    if (n == 0)
        return NJ_OK;
    NjStatus st = bind(d);
    if (st)
        return st;
    size_t size = round_size(n);
    if (size < n) {
        set_msg("cu_mem_alloc: %zu bytes is too large", n);
        return NJ_ERR_NOMEM;
    }
    pthread_mutex_lock(&d->lock);
    d->stats.allocs++;
    CuBlock *b = cache_take(d, size);
    if (!b) {
        CUdeviceptr p = 0;
        CUresult r = cu.cuMemAlloc(&p, size);
        if (r == CUDA_ERROR_OUT_OF_MEMORY && d->stats.cached) {
            cache_release(d);
            r = cu.cuMemAlloc(&p, size);
        }
        if (r != CUDA_SUCCESS) {
            st = cu_check(d, r, "cuMemAlloc_v2", "%zu bytes on device %d; %zu bytes in use by numjit",
                          size, d->ordinal, d->stats.in_use);
            pthread_mutex_unlock(&d->lock);
            return st;
        }
        d->stats.driver_allocs++;
        if (d->spare) {
            b = d->spare;
            d->spare = b->next;
        } else if (!(b = malloc(sizeof *b))) {
            cu.cuMemFree(p);
            pthread_mutex_unlock(&d->lock);
            set_msg("out of memory");
            return NJ_ERR_NOMEM;
        }
        b->ptr = p;
        b->size = size;
    }
    if (d->nlive + 1 > d->nlive_buckets && !live_grow(d)) {
        cache_put(d, b);
        pthread_mutex_unlock(&d->lock);
        set_msg("out of memory");
        return NJ_ERR_NOMEM;
    }
    live_add(d, b);
    d->stats.in_use += b->size;
    *out = b->ptr;
    pthread_mutex_unlock(&d->lock);
    return NJ_OK;
}

NjStatus cu_mem_free(CuDevice *d, CuDevPtr p) {
    if (!p)
        return NJ_OK;
    pthread_mutex_lock(&d->lock);
    CuBlock *b = live_take(d, p);
    if (b) {
        d->stats.in_use -= b->size;
        cache_put(d, b);
    }
    pthread_mutex_unlock(&d->lock);
    if (!b) {
        set_msg("cu_mem_free: 0x%llx was not allocated by numjit on device %d (or was freed twice)",
                (unsigned long long)p, d->ordinal);
        return NJ_ERR_ARGS;
    }
    return NJ_OK;
}

NjStatus cu_mem_trim(CuDevice *d) {
    NjStatus st = bind(d);
    if (st)
        return st;
    pthread_mutex_lock(&d->lock);
    cache_release(d);
    pthread_mutex_unlock(&d->lock);
    return NJ_OK;
}

void cu_mem_stats(CuDevice *d, CuMemStats *out) {
    pthread_mutex_lock(&d->lock);
    *out = d->stats;
    pthread_mutex_unlock(&d->lock);
}

/* Forgets every record (the blocks died with the context). */
static void mem_forget(CuDevice *d) {
    pthread_mutex_lock(&d->lock);
    for (size_t i = 0; i < d->nlive_buckets; i++)
        for (CuBlock *b = d->live[i], *next; b; b = next) {
            next = b->next;
            free(b);
        }
    free(d->live);
    d->live = NULL;
    d->nlive_buckets = d->nlive = 0;
    CuBlock *lists[CU_SMALL_CLASSES + 2];
    memcpy(lists, d->small_free, sizeof d->small_free);
    lists[CU_SMALL_CLASSES] = d->large_free;
    lists[CU_SMALL_CLASSES + 1] = d->spare;
    for (int i = 0; i < CU_SMALL_CLASSES + 2; i++)
        for (CuBlock *b = lists[i], *next; b; b = next) {
            next = b->next;
            free(b);
        }
    memset(d->small_free, 0, sizeof d->small_free);
    d->large_free = d->spare = NULL;
    memset(&d->stats, 0, sizeof d->stats);
    pthread_mutex_unlock(&d->lock);
}

NjStatus cu_device_reset(CuDevice *d) {
    mem_forget(d);
    /* the thread must not keep the dead context current; the reset keeps our retain */
    cu.cuCtxSetCurrent(NULL);
    NjStatus st = cu_check(d, cu.cuDevicePrimaryCtxReset(d->dev), "cuDevicePrimaryCtxReset_v2",
                           "device %d", d->ordinal);
    CUcontext ctx = NULL;
    if (!st) {
        CUresult r = cu.cuDevicePrimaryCtxRetain(&ctx, d->dev);
        st = cu_check(NULL, r, "cuDevicePrimaryCtxRetain", "device %d, after a reset", d->ordinal);
        if (st && sticky(r)) {
            size_t n = strlen(cu_msg);
            snprintf(cu_msg + n, sizeof cu_msg - n,
                     "; this driver does not recover from that error inside a process: restart "
                     "the process to use device %d again", d->ordinal);
        }
    }
    if (!st) {
        cu.cuDevicePrimaryCtxRelease(d->dev); /* one reference, as before */
        d->ctx = ctx;
        atomic_store(&d->broken, false);
        atomic_store(&d->last_kernel, NULL);
    }
    return st;
}

/* ---- copies ---------------------------------------------------------------------------------------- */
NjStatus cu_memcpy_htod(CuDevice *d, CuDevPtr dst, const void *src, size_t n, CuStream s) {
    NjStatus st = bind(d);
    if (st || !n)
        return st;
    CUresult r = s ? cu.cuMemcpyHtoDAsync(dst, src, n, s) : cu.cuMemcpyHtoD(dst, src, n);
    return r ? cu_check(d, r, s ? "cuMemcpyHtoDAsync_v2" : "cuMemcpyHtoD_v2", "%zu bytes to 0x%llx", n,
                        (unsigned long long)dst)
             : NJ_OK;
}

NjStatus cu_memcpy_dtoh(CuDevice *d, void *dst, CuDevPtr src, size_t n, CuStream s) {
    NjStatus st = bind(d);
    if (st || !n)
        return st;
    CUresult r = s ? cu.cuMemcpyDtoHAsync(dst, src, n, s) : cu.cuMemcpyDtoH(dst, src, n);
    char buf[512];
    return r ? cu_check(d, r, s ? "cuMemcpyDtoHAsync_v2" : "cuMemcpyDtoH_v2", "%zu bytes from 0x%llx; %s",
                        n, (unsigned long long)src, after_kernel(d, buf, sizeof buf))
             : NJ_OK;
}

NjStatus cu_memcpy_dtod(CuDevice *d, CuDevPtr dst, CuDevPtr src, size_t n, CuStream s) {
    NjStatus st = bind(d);
    if (st || !n)
        return st;
    CUresult r = s ? cu.cuMemcpyDtoDAsync(dst, src, n, s) : cu.cuMemcpyDtoD(dst, src, n);
    return r ? cu_check(d, r, s ? "cuMemcpyDtoDAsync_v2" : "cuMemcpyDtoD_v2", "%zu bytes", n) : NJ_OK;
}

NjStatus cu_memset8(CuDevice *d, CuDevPtr dst, unsigned char v, size_t n, CuStream s) {
    NjStatus st = bind(d);
    if (st || !n)
        return st;
    CUresult r = s ? cu.cuMemsetD8Async(dst, v, n, s) : cu.cuMemsetD8(dst, v, n);
    return r ? cu_check(d, r, s ? "cuMemsetD8Async" : "cuMemsetD8_v2", "%zu bytes", n) : NJ_OK;
}

NjStatus cu_host_alloc(CuDevice *d, size_t n, void **out) {
    *out = NULL;
    NjStatus st = bind(d);
    if (st)
        return st;
    /* portable: pinned for every context; mapped: kernels may use it in place (the device
     * address is cu_host_device_pointer's; with unified addressing it is the same) */
    return cu_check(d, cu.cuMemHostAlloc(out, n ? n : 1, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
                    "cuMemHostAlloc", "%zu bytes", n);
}

NjStatus cu_host_free(CuDevice *d, void *p) {
    if (!p)
        return NJ_OK;
    NjStatus st = bind(d);
    if (st)
        return st;
    return cu_check(d, cu.cuMemFreeHost(p), "cuMemFreeHost", NULL);
}

NjStatus cu_host_register(CuDevice *d, void *p, size_t n, bool mapped, bool *registered) {
    *registered = false;
    if (!p || !n)
        return NJ_OK;
    NjStatus st = bind(d);
    if (st)
        return st;
    CUresult r = cu.cuMemHostRegister(p, n, mapped ? CU_MEMHOSTREGISTER_DEVICEMAP : 0);
    if (r == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED) /* pinned already: nothing to undo */
        return NJ_OK;
    *registered = r == CUDA_SUCCESS;
    return cu_check(d, r, "cuMemHostRegister_v2", "%zu bytes at %p", n, p);
}

NjStatus cu_host_unregister(CuDevice *d, void *p) {
    if (!p)
        return NJ_OK;
    NjStatus st = bind(d);
    if (st)
        return st;
    return cu_check(d, cu.cuMemHostUnregister(p), "cuMemHostUnregister", "%p", p);
}

NjStatus cu_host_device_pointer(CuDevice *d, void *p, CuDevPtr *out) {
    *out = 0;
    NjStatus st = bind(d);
    if (st)
        return st;
    CUdeviceptr dp = 0;
    st = cu_check(d, cu.cuMemHostGetDevicePointer(&dp, p, 0), "cuMemHostGetDevicePointer_v2",
                  "host address %p", p);
    *out = dp;
    return st;
}

NjStatus cu_mem_info(CuDevice *d, size_t *free_bytes, size_t *total_bytes) {
    *free_bytes = *total_bytes = 0;
    NjStatus st = bind(d);
    if (st)
        return st;
    return cu_check(d, cu.cuMemGetInfo(free_bytes, total_bytes), "cuMemGetInfo_v2", "device %d",
                    d->ordinal);
}

/* ---- streams -------------------------------------------------------------------------------------- */
NjStatus cu_stream_new(CuDevice *d, CuStream *out) {
    *out = NULL;
    NjStatus st = bind(d);
    if (st)
        return st;
    return cu_check(d, cu.cuStreamCreate(out, CU_STREAM_NON_BLOCKING), "cuStreamCreate", "device %d",
                    d->ordinal);
}

NjStatus cu_stream_free(CuDevice *d, CuStream s) {
    if (!s)
        return NJ_OK;
    NjStatus st = bind(d);
    if (st)
        return st;
    return cu_check(d, cu.cuStreamDestroy(s), "cuStreamDestroy_v2", NULL);
}

NjStatus cu_stream_sync(CuDevice *d, CuStream s) {
    NjStatus st = bind(d);
    if (st)
        return st;
    CUresult r = cu.cuStreamSynchronize(s);
    char buf[512];
    return r ? cu_check(d, r, "cuStreamSynchronize", "%s", after_kernel(d, buf, sizeof buf)) : NJ_OK;
}

NjStatus cu_stream_wait_event(CuDevice *d, CuStream s, CuEvent e) {
    NjStatus st = bind(d);
    if (st)
        return st;
    return cu_check(d, cu.cuStreamWaitEvent(s, e, 0), "cuStreamWaitEvent", "device %d", d->ordinal);
}

/* ---- events ---------------------------------------------------------------------------------------
 * An event without timing (CU_EVENT_DISABLE_TIMING) is cheaper to record and to wait on; asking
 * the time between such events is the driver's CUDA_ERROR_INVALID_HANDLE, reported as usual. */
NjStatus cu_event_new(CuDevice *d, bool timing, CuEvent *out) {
    *out = NULL;
    NjStatus st = bind(d);
    if (st)
        return st;
    return cu_check(d, cu.cuEventCreate(out, timing ? 0 : CU_EVENT_DISABLE_TIMING), "cuEventCreate",
                    "device %d%s", d->ordinal, timing ? "" : ", without timing");
}

NjStatus cu_event_free(CuDevice *d, CuEvent e) {
    if (!e)
        return NJ_OK;
    NjStatus st = bind(d);
    if (st)
        return st;
    return cu_check(d, cu.cuEventDestroy(e), "cuEventDestroy_v2", NULL);
}

NjStatus cu_event_record(CuDevice *d, CuEvent e, CuStream s) {
    NjStatus st = bind(d);
    if (st)
        return st;
    return cu_check(d, cu.cuEventRecord(e, s), "cuEventRecord", "device %d", d->ordinal);
}

NjStatus cu_event_sync(CuDevice *d, CuEvent e) {
    NjStatus st = bind(d);
    if (st)
        return st;
    CUresult r = cu.cuEventSynchronize(e);
    char buf[512];
    return r ? cu_check(d, r, "cuEventSynchronize", "%s", after_kernel(d, buf, sizeof buf)) : NJ_OK;
}

NjStatus cu_event_query(CuDevice *d, CuEvent e, bool *done) {
    *done = false;
    NjStatus st = bind(d);
    if (st)
        return st;
    CUresult r = cu.cuEventQuery(e);
    if (r == CUDA_ERROR_NOT_READY) /* the work before it is still running: an answer, not an error */
        return NJ_OK;
    *done = r == CUDA_SUCCESS;
    char buf[512];
    return r ? cu_check(d, r, "cuEventQuery", "%s", after_kernel(d, buf, sizeof buf)) : NJ_OK;
}

NjStatus cu_event_elapsed(CuDevice *d, CuEvent start, CuEvent end, float *ms) {
    *ms = 0.0f;
    NjStatus st = bind(d);
    if (st)
        return st;
    CUresult r = cu.cuEventElapsedTime(ms, start, end);
    if (!r)
        return NJ_OK;
    st = cu_check(d, r, "cuEventElapsedTime", "device %d", d->ordinal);
    size_t n = strlen(cu_msg);
    snprintf(cu_msg + n, sizeof cu_msg - n, "%s",
             r == CUDA_ERROR_NOT_READY ? " (synchronize the end event first)"
                                       : " (both events must be recorded, and created with timing)");
    return st;
}

/* ---- modules ------------------------------------------------------------------------------------- */
#define CU_LOG_SIZE 16384

static NjStatus module_new(CuDevice *d, CUmodule mod, CuModule **out) {
    CuModule *m = calloc(1, sizeof *m);
    if (!m) {
        cu.cuModuleUnload(mod);
        set_msg("out of memory");
        return NJ_ERR_NOMEM;
    }
    m->dev = d;
    m->mod = mod;
    pthread_mutex_init(&m->lock, NULL);
    *out = m;
    return NJ_OK;
}

/* Appends the JIT's log to the current message. */
static void append_log(const char *what, const char *log) {
    if (!log || !log[0])
        return;
    size_t n = strlen(cu_msg);
    snprintf(cu_msg + n, sizeof cu_msg - n, "\n%s:\n%s", what, log);
}

static NjStatus load_image(CuDevice *d, const void *image, const char *what, CuModule **out) {
    *out = NULL;
    NjStatus st = bind(d);
    if (st)
        return st;
    char *log = calloc(1, CU_LOG_SIZE);
    int opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[2] = {log, (void *)(uintptr_t)CU_LOG_SIZE};
    CUmodule mod = NULL;
    CUresult r = cu.cuModuleLoadDataEx(&mod, image, log ? 2 : 0, opts, vals);
    if (r) {
        st = cu_check(d, r, "cuModuleLoadDataEx", "%s for %s on device %d", what, d->info.arch,
                      d->ordinal);
        append_log("JIT error log", log);
        free(log);
        return st;
    }
    free(log);
    return module_new(d, mod, out);
}

NjStatus cu_module_load_ptx(CuDevice *d, const char *ptx, CuModule **out) {
    return load_image(d, ptx, "PTX", out);
}

NjStatus cu_module_load_cubin(CuDevice *d, const void *image, size_t n, CuModule **out) {
    if (n < 4 || memcmp(image, "\177ELF", 4)) {
        *out = NULL;
        set_msg("cu_module_load_cubin: the image is not a cubin (no ELF header)");
        return NJ_ERR_ARGS;
    }
    return load_image(d, image, "cubin", out);
}

NjStatus cu_link_ptx(CuDevice *d, const char *ptx, void **cubin, size_t *n) {
    *cubin = NULL;
    *n = 0;
    NjStatus st = bind(d);
    if (st)
        return st;
    char *log = calloc(1, CU_LOG_SIZE);
    int opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[2] = {log, (void *)(uintptr_t)CU_LOG_SIZE};
    CUlinkState ls = NULL;
    CUresult r = cu.cuLinkCreate(log ? 2 : 0, opts, vals, &ls);
    if (r) {
        free(log);
        return cu_check(d, r, "cuLinkCreate_v2", "device %d", d->ordinal);
    }
    r = cu.cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)ptx, strlen(ptx) + 1, "numjit.ptx", 0, NULL, NULL);
    const char *call = "cuLinkAddData_v2";
    void *img = NULL;
    size_t size = 0;
    if (!r) {
        r = cu.cuLinkComplete(ls, &img, &size);
        call = "cuLinkComplete";
    }
    if (r) {
        st = cu_check(d, r, call, "PTX for %s on device %d", d->info.arch, d->ordinal);
        append_log("JIT error log", log);
    } else if (!(*cubin = malloc(size ? size : 1))) {
        set_msg("out of memory");
        st = NJ_ERR_NOMEM;
    } else {
        memcpy(*cubin, img, size); /* the image belongs to the link state */
        *n = size;
    }
    cu.cuLinkDestroy(ls);
    free(log);
    return st;
}

CuDevice *cu_module_device(const CuModule *m) { return m->dev; }

void cu_module_free(CuModule *m) {
    if (!m)
        return;
    if (!atomic_load(&m->dev->broken) && bind(m->dev) == NJ_OK)
        cu.cuModuleUnload(m->mod);
    for (int i = 0; i < m->kernels.n; i++) {
        CuKernel *k = m->kernels.items[i];
        free((char *)k->name);
        free(k);
    }
    pv_free(&m->kernels);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

NjStatus cu_module_kernel(CuModule *m, const char *name, CuKernel **out) {
    *out = NULL;
    pthread_mutex_lock(&m->lock);
    for (int i = 0; i < m->kernels.n; i++) {
        CuKernel *k = m->kernels.items[i];
        if (!strcmp(k->name, name)) {
            pthread_mutex_unlock(&m->lock);
            *out = k;
            return NJ_OK;
        }
    }
    CuDevice *d = m->dev;
    NjStatus st = bind(d);
    CUfunction fn = NULL;
    if (!st) { /* the symbol as codegen/nvptx.c wrote it: non-ASCII bytes as $xx */
        StrBuf sym;
        sb_init(&sym);
        sb_put_symbol(&sym, name);
        st = cu_check(d, cu.cuModuleGetFunction(&fn, m->mod, sym.data ? sym.data : name),
                      "cuModuleGetFunction", "kernel '%s'", name);
        sb_free(&sym);
    }
    CuKernel *k = NULL;
    if (!st && (!(k = calloc(1, sizeof *k)) || !(k->name = strdup(name)))) {
        free(k);
        k = NULL;
        set_msg("out of memory");
        st = NJ_ERR_NOMEM;
    }
    if (!st) {
        k->module = m;
        k->fn = fn;
        struct { int *dst, attr; } attrs[] = {
            {&k->max_threads, CU_FUNC_ATTR_MAX_THREADS_PER_BLOCK},
            {&k->num_regs, CU_FUNC_ATTR_NUM_REGS},
            {&k->static_shared, CU_FUNC_ATTR_SHARED_SIZE_BYTES},
            {&k->local_bytes, CU_FUNC_ATTR_LOCAL_SIZE_BYTES},
            {&k->max_dynamic_shared, CU_FUNC_ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES},
        };
        for (size_t i = 0; i < sizeof attrs / sizeof *attrs && !st; i++)
            st = cu_check(d, cu.cuFuncGetAttribute(attrs[i].dst, attrs[i].attr, fn),
                          "cuFuncGetAttribute", "kernel '%s', attribute %d", name, attrs[i].attr);
        if (!st) {
            pv_push(&m->kernels, k);
            *out = k;
        } else {
            free((char *)k->name);
            free(k);
        }
    }
    pthread_mutex_unlock(&m->lock);
    return st;
}

/* ---- launches ---------------------------------------------------------------------------------- */
NjStatus cu_launch(CuKernel *k, const unsigned grid[3], const unsigned block[3],
                   unsigned shared_bytes, CuStream s, void **params) {
    CuDevice *d = k->module->dev;
    unsigned long long threads = (unsigned long long)block[0] * block[1] * block[2];
    if (threads == 0 || (unsigned long long)grid[0] * grid[1] * grid[2] == 0) {
        set_msg("kernel '%s': empty launch (grid %ux%ux%u, block %ux%ux%u)", k->name, grid[0],
                grid[1], grid[2], block[0], block[1], block[2]);
        return NJ_ERR_ARGS;
    }
    if (threads > (unsigned long long)k->max_threads) {
        set_msg("kernel '%s': a block of %ux%ux%u = %llu threads exceeds the %d threads per "
                "block this kernel allows on %s",
                k->name, block[0], block[1], block[2], threads, k->max_threads, d->info.arch);
        return NJ_ERR_ARGS;
    }
    NjStatus st = bind(d);
    if (st)
        return st;
    if ((int)shared_bytes > k->max_dynamic_shared) {
        /* Opt in to more than the default 48 KiB: once, to everything the device allows, with
         * the shared-memory carveout preferred for such launches (below).  Opting in to just
         * the bytes asked for let the driver pick a carveout that held fewer such blocks per SM
         * than the occupancy API promised (a staged gufunc ran at half speed so); a kernel
         * launched without that much goes back to the default carveout (its L1). */
        int limit = d->info.max_shared_per_block_optin - k->static_shared;
        if ((int)shared_bytes > limit) {
            set_msg("kernel '%s': %u bytes of dynamic shared memory exceed the %d bytes available "
                    "to it on %s", k->name, shared_bytes, limit, d->info.arch);
            return NJ_ERR_ARGS;
        }
        st = cu_check(d, cu.cuFuncSetAttribute(k->fn, CU_FUNC_ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                               limit),
                      "cuFuncSetAttribute", "kernel '%s', %d bytes of dynamic shared memory",
                      k->name, limit);
        if (st)
            return st;
        k->max_dynamic_shared = limit;
    }
    bool carve = shared_bytes > 48 * 1024; /* launches this large want shared memory over L1 */
    if (carve != (bool)k->carveout_max) {  /* a hint (100%, or the default -1): never fatal */
        (void)cu.cuFuncSetAttribute(k->fn, CU_FUNC_ATTR_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                    carve ? 100 : -1);
        k->carveout_max = carve;
    }
    atomic_store_explicit(&d->last_kernel, k->name, memory_order_relaxed);
    CUresult r = cu.cuLaunchKernel(k->fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                   shared_bytes, s, params, NULL);
    if (r)
        return cu_check(d, r, "cuLaunchKernel",
                        "kernel '%s', grid %ux%ux%u, block %ux%ux%u, %u bytes dynamic shared memory",
                        k->name, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared_bytes);
    return NJ_OK;
}

NjStatus cu_occupancy_block_size(CuKernel *k, size_t dynamic_shared, int *min_grid, int *block) {
    CuDevice *d = k->module->dev;
    NjStatus st = bind(d);
    if (st)
        return st;
    return cu_check(d, cu.cuOccupancyMaxPotentialBlockSize(min_grid, block, k->fn, NULL, dynamic_shared, 0),
                    "cuOccupancyMaxPotentialBlockSize", "kernel '%s'", k->name);
}

NjStatus cu_occupancy_blocks_per_sm(CuKernel *k, int block, size_t dynamic_shared, int *n) {
    CuDevice *d = k->module->dev;
    NjStatus st = bind(d);
    if (st)
        return st;
    return cu_check(d, cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(n, k->fn, block, dynamic_shared),
                    "cuOccupancyMaxActiveBlocksPerMultiprocessor", "kernel '%s', block %d", k->name,
                    block);
}
