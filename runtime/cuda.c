/* cuda.c — the CUDA driver API, loaded at run time: the loader, error names and the checker,
 * devices and their primary contexts, streams and events.  runtime/cuda.h is the face of the
 * driver layer (cuda.c, cuda_mem.c, cuda_module.c).
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
 * Device memory (the caching allocator, copies, host memory) is cuda_mem.c; modules, kernels
 * and launches are cuda_module.c; cuda_internal.h holds what the three share.
 */
#include "cuda_internal.h"

#include "../base/base.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

CuApi cu_api;
static void *cu_lib;
static pthread_once_t cu_once = PTHREAD_ONCE_INIT;
static NjStatus cu_init_status = NJ_ERR_INTERNAL;
static char cu_init_msg[1024];
static int cu_version;

_Thread_local char cu_msg[8192];

const char *cu_error(void) { return cu_msg; }

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

void cu_set_msg(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cu_msg, sizeof cu_msg, fmt, ap);
    va_end(ap);
}

bool cu_sticky(CUresult r) {
    switch (r) {
    case 700: case 702: case 709: case 710: case 714: case 715: case 716:
    case 717: case 718: case 719: case 721:
        return true;
    default:
        return false;
    }
}

#define CU_MAX_DEVICES 64
static CuDevice *cu_devices[CU_MAX_DEVICES];
static pthread_mutex_t cu_devices_lock = PTHREAD_MUTEX_INITIALIZER;

NjStatus cu_check(CuDevice *d, CUresult r, const char *call, const char *fmt, ...) {
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
    if (cu_api.cuGetErrorName && cu_api.cuGetErrorName(r, &dn) == CUDA_SUCCESS && dn)
        name = dn;
    if (cu_api.cuGetErrorString && cu_api.cuGetErrorString(r, &ds) == CUDA_SUCCESS && ds)
        desc = ds;
    int n = snprintf(cu_msg, sizeof cu_msg, "%s%s%s%s: %s: %s", call, ctxbuf[0] ? " (" : "",
                     ctxbuf, ctxbuf[0] ? ")" : "", name, desc);
    if (d && cu_sticky(r)) {
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
            memset(&cu_api, 0, sizeof cu_api);
            return;
        }
        memcpy((char *)&cu_api + cu_syms[i].off, &f, sizeof f);
    }
    CUresult r = cu_api.cuInit(0);
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
    if (cu_api.cuDriverGetVersion(&cu_version) != CUDA_SUCCESS)
        cu_version = 0;
    cu_init_status = NJ_OK;
}

NjStatus cu_init(void) {
    pthread_once(&cu_once, cu_load);
    if (cu_init_status != NJ_OK)
        cu_set_msg("%s", cu_init_msg);
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
NjStatus cu_bind(CuDevice *d) {
    if (atomic_load_explicit(&d->broken, memory_order_acquire)) {
        cu_set_msg("CUDA device %d is unusable since an earlier error: %s", d->ordinal, d->broken_msg);
        return NJ_ERR_CUDA;
    }
    CUcontext cur = NULL;
    if (cu_api.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == d->ctx)
        return NJ_OK;
    return cu_check(d, cu_api.cuCtxSetCurrent(d->ctx), "cuCtxSetCurrent", "device %d", d->ordinal);
}

NjStatus cu_device_count(int *n) {
    *n = 0;
    NjStatus st = cu_init();
    if (st != NJ_OK)
        return st;
    return cu_check(NULL, cu_api.cuDeviceGetCount(n), "cuDeviceGetCount", NULL);
}

static NjStatus read_info(CuDevice *d) {
    CuDeviceInfo *I = &d->info;
    I->ordinal = d->ordinal;
    NjStatus st = cu_check(d, cu_api.cuDeviceGetName(I->name, (int)sizeof I->name, d->dev), "cuDeviceGetName", NULL);
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
        if ((st = cu_check(d, cu_api.cuDeviceGetAttribute(attrs[i].dst, attrs[i].attr, d->dev),
                           "cuDeviceGetAttribute", "attribute %d", attrs[i].attr)))
            return st;
    snprintf(I->arch, sizeof I->arch, "sm_%d%d", I->cc_major, I->cc_minor);
    return cu_check(d, cu_api.cuDeviceTotalMem(&I->total_mem, d->dev), "cuDeviceTotalMem_v2", NULL);
}

NjStatus cu_device_get(int ordinal, CuDevice **out) {
    *out = NULL;
    NjStatus st = cu_init();
    if (st != NJ_OK)
        return st;
    int n = 0;
    if ((st = cu_check(NULL, cu_api.cuDeviceGetCount(&n), "cuDeviceGetCount", NULL)))
        return st;
    if (ordinal < 0 || ordinal >= n || ordinal >= CU_MAX_DEVICES) {
        cu_set_msg("no CUDA device %d (this machine has %d)", ordinal, n);
        return n ? NJ_ERR_ARGS : NJ_ERR_UNSUPPORTED;
    }
    pthread_mutex_lock(&cu_devices_lock);
    CuDevice *d = cu_devices[ordinal];
    if (!d) {
        d = calloc(1, sizeof *d);
        if (!d) {
            pthread_mutex_unlock(&cu_devices_lock);
            cu_set_msg("out of memory");
            return NJ_ERR_NOMEM;
        }
        d->ordinal = ordinal;
        pthread_mutex_init(&d->lock, NULL);
        st = cu_check(d, cu_api.cuDeviceGet(&d->dev, ordinal), "cuDeviceGet", "device %d", ordinal);
        if (!st)
            st = cu_check(d, cu_api.cuDevicePrimaryCtxRetain(&d->ctx, d->dev), "cuDevicePrimaryCtxRetain",
                          "device %d", ordinal);
        if (!st)
            st = read_info(d);
        if (st) {
            if (d->ctx)
                cu_api.cuDevicePrimaryCtxRelease(d->dev);
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
    return cu_check(d, cu_api.cuDeviceGetAttribute(value, attr, d->dev), "cuDeviceGetAttribute",
                    "attribute %d of device %d", attr, d->ordinal);
}

bool cu_device_broken(const CuDevice *d) { return atomic_load(&((CuDevice *)d)->broken); }

/* "after kernel 'k'" for messages of synchronizations. */
const char *cu_after_kernel(CuDevice *d, char *buf, size_t n) {
    const char *k = atomic_load_explicit(&d->last_kernel, memory_order_relaxed);
    if (k)
        snprintf(buf, n, "device %d, after kernel '%s'", d->ordinal, k);
    else
        snprintf(buf, n, "device %d", d->ordinal);
    return buf;
}

NjStatus cu_device_synchronize(CuDevice *d) {
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    CUresult r = cu_api.cuCtxSynchronize();
    char buf[512];
    return r ? cu_check(d, r, "cuCtxSynchronize", "%s", cu_after_kernel(d, buf, sizeof buf)) : NJ_OK;
}

/* ---- streams -------------------------------------------------------------------------------------- */
NjStatus cu_stream_new(CuDevice *d, CuStream *out) {
    *out = NULL;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    return cu_check(d, cu_api.cuStreamCreate(out, CU_STREAM_NON_BLOCKING), "cuStreamCreate", "device %d",
                    d->ordinal);
}

NjStatus cu_stream_free(CuDevice *d, CuStream s) {
    if (!s)
        return NJ_OK;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    return cu_check(d, cu_api.cuStreamDestroy(s), "cuStreamDestroy_v2", NULL);
}

NjStatus cu_stream_sync(CuDevice *d, CuStream s) {
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    CUresult r = cu_api.cuStreamSynchronize(s);
    char buf[512];
    return r ? cu_check(d, r, "cuStreamSynchronize", "%s", cu_after_kernel(d, buf, sizeof buf)) : NJ_OK;
}

NjStatus cu_stream_wait_event(CuDevice *d, CuStream s, CuEvent e) {
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    return cu_check(d, cu_api.cuStreamWaitEvent(s, e, 0), "cuStreamWaitEvent", "device %d", d->ordinal);
}

/* ---- events ---------------------------------------------------------------------------------------
 * An event without timing (CU_EVENT_DISABLE_TIMING) is cheaper to record and to wait on; asking
 * the time between such events is the driver's CUDA_ERROR_INVALID_HANDLE, reported as usual. */
NjStatus cu_event_new(CuDevice *d, bool timing, CuEvent *out) {
    *out = NULL;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    return cu_check(d, cu_api.cuEventCreate(out, timing ? 0 : CU_EVENT_DISABLE_TIMING), "cuEventCreate",
                    "device %d%s", d->ordinal, timing ? "" : ", without timing");
}

NjStatus cu_event_free(CuDevice *d, CuEvent e) {
    if (!e)
        return NJ_OK;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    return cu_check(d, cu_api.cuEventDestroy(e), "cuEventDestroy_v2", NULL);
}

NjStatus cu_event_record(CuDevice *d, CuEvent e, CuStream s) {
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    return cu_check(d, cu_api.cuEventRecord(e, s), "cuEventRecord", "device %d", d->ordinal);
}

NjStatus cu_event_sync(CuDevice *d, CuEvent e) {
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    CUresult r = cu_api.cuEventSynchronize(e);
    char buf[512];
    return r ? cu_check(d, r, "cuEventSynchronize", "%s", cu_after_kernel(d, buf, sizeof buf)) : NJ_OK;
}

NjStatus cu_event_query(CuDevice *d, CuEvent e, bool *done) {
    *done = false;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    CUresult r = cu_api.cuEventQuery(e);
    if (r == CUDA_ERROR_NOT_READY) /* the work before it is still running: an answer, not an error */
        return NJ_OK;
    *done = r == CUDA_SUCCESS;
    char buf[512];
    return r ? cu_check(d, r, "cuEventQuery", "%s", cu_after_kernel(d, buf, sizeof buf)) : NJ_OK;
}

NjStatus cu_event_elapsed(CuDevice *d, CuEvent start, CuEvent end, float *ms) {
    *ms = 0.0f;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    CUresult r = cu_api.cuEventElapsedTime(ms, start, end);
    if (!r)
        return NJ_OK;
    st = cu_check(d, r, "cuEventElapsedTime", "device %d", d->ordinal);
    size_t n = strlen(cu_msg);
    snprintf(cu_msg + n, sizeof cu_msg - n, "%s",
             r == CUDA_ERROR_NOT_READY ? " (synchronize the end event first)"
                                       : " (both events must be recorded, and created with timing)");
    return st;
}

