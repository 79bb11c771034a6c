/* cuda.h — private to runtime/: the CUDA driver API as the rest of the runtime uses it.
 *
 * Everything goes through runtime/cuda.c (with cuda_mem.c and cuda_module.c), which loads libcuda.so.1 with dlopen (never linked:
 * the library runs where there is no driver, and GPU features then fail with
 * NJ_ERR_UNSUPPORTED "no CUDA driver found (libcuda.so.1)").  Every function returns an
 * NjStatus; on failure cu_error() holds the calling thread's message, naming the failing `cu*`
 * call, the driver's error name and its description, e.g.
 *
 *   cuLaunchKernel (kernel 'axpy', grid 1x1x1, block 2048x1x1, 0 bytes dynamic shared memory):
 *   CUDA_ERROR_INVALID_VALUE: an argument is out of range
 *
 * and the runtime copies it into the context (rt_set_error).  Devices are process-wide objects
 * (one per ordinal, created on first use, never freed): the device's primary context, shared
 * with every other user of the driver API in the process (CuPy, PyTorch, numba-cuda), and a
 * caching allocator.  Each call makes the device's context current on the calling thread when
 * it is not already.  All functions are thread-safe.
 */
#ifndef NUMJIT_RUNTIME_CUDA_H
#define NUMJIT_RUNTIME_CUDA_H

#include "../include/numjit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t CuDevPtr;           /* a device address (CUdeviceptr) */
typedef void *CuStream;              /* a CUstream; NULL is the legacy default stream */
typedef void *CuEvent;               /* a CUevent */
typedef struct CuDevice CuDevice;    /* process-wide, per ordinal */
typedef struct CuModule CuModule;    /* a loaded module; owns its kernels */

typedef struct CuKernel {
    CuModule *module;
    void *fn;                /* CUfunction */
    const char *name;        /* the .entry name */
    int max_threads;         /* threads per block this kernel can be launched with */
    int num_regs;            /* registers per thread */
    int static_shared;       /* bytes of static shared memory */
    int local_bytes;         /* bytes of local memory per thread */
    int max_dynamic_shared;  /* dynamic shared memory allowed so far (raised on demand) */
    int carveout_max;        /* the shared-memory carveout is preferred (a launch > 48 KiB) */
} CuKernel;

typedef struct CuDeviceInfo {
    int ordinal;
    char name[256];
    int cc_major, cc_minor;
    char arch[16];                  /* "sm_90" */
    int sm_count;
    int warp_size;
    int max_threads_per_block;
    int max_block_dim[3], max_grid_dim[3];
    int max_shared_per_block;       /* without opt-in (48 KiB) */
    int max_shared_per_block_optin; /* with cuFuncSetAttribute */
    int max_threads_per_sm;
    size_t total_mem;
} CuDeviceInfo;

typedef struct CuMemStats {
    size_t in_use;       /* bytes handed out (rounded sizes) */
    size_t cached;       /* bytes held in the free lists */
    long allocs;         /* cu_mem_alloc calls */
    long driver_allocs;  /* of which went to cuMemAlloc */
} CuMemStats;

/* ---- the driver ------------------------------------------------------------------------------
 * cu_init loads the driver and calls cuInit(0) once per process; later calls return the same
 * status (and set the same message).  $NUMJIT_LIBCUDA names another library to load (tests use
 * the toolkit's stub library to exercise the failure path). */
NjStatus cu_init(void);
const char *cu_error(void);          /* the calling thread's last message ("" when none) */
int cu_driver_version(void);         /* 12040 for CUDA 12.4; 0 before a successful cu_init */
/* The newest PTX ISA the driver's JIT accepts (85 for 8.5), from the driver version; 0 when
 * unknown.  A cap for cg_emit_ptx_ex. */
int cu_driver_max_ptx(void);
int cu_ptx_for_driver_version(int driver_version); /* the table behind it */
/* CUresult code → "CUDA_ERROR_OUT_OF_MEMORY" and a description (our own table: the stub
 * library's cuGetErrorName fails too). */
const char *cu_result_name(int code);
const char *cu_result_string(int code);

/* ---- devices ---------------------------------------------------------------------------------- */
NjStatus cu_device_count(int *n);
/* The device of this ordinal with its primary context retained (created on first use). */
NjStatus cu_device_get(int ordinal, CuDevice **out);
const CuDeviceInfo *cu_device_info(const CuDevice *d);
/* Any CUdevice_attribute by its number (cuDeviceGetAttribute). */
NjStatus cu_device_attribute(CuDevice *d, int attr, int *value);
NjStatus cu_device_synchronize(CuDevice *d);
/* After an error that leaves the context unusable (illegal address, launch failure...; every
 * call on the device fails from then on, repeating that first error): forgets the cached
 * memory records, resets the primary context and retains it again.  Every module, stream and
 * allocation of the device is gone afterwards.  The CUDA 13 driver (580) does not recover in
 * the same process (the new context reports the old error): the message then says to restart
 * the process. */
NjStatus cu_device_reset(CuDevice *d);
/* True when a sticky error (illegal address, ...) has made the device's context unusable. */
bool cu_device_broken(const CuDevice *d);

/* ---- memory: a caching allocator ------------------------------------------------------------
 * Sizes are rounded to classes (512 B, then powers of two up to 1 MiB, then multiples of 2 MiB);
 * freed blocks go to a free list of their class and are reused; when cuMemAlloc fails with
 * CUDA_ERROR_OUT_OF_MEMORY every cached block is released and the allocation retried.  Zero
 * bytes give address 0, which cu_mem_free accepts. */
NjStatus cu_mem_alloc(CuDevice *d, size_t n, CuDevPtr *out);
NjStatus cu_mem_free(CuDevice *d, CuDevPtr p);
NjStatus cu_mem_trim(CuDevice *d); /* returns every cached block to the driver */
void cu_mem_stats(CuDevice *d, CuMemStats *out);
/* Copies; stream NULL: synchronous (cuMemcpy*), else asynchronous on that stream. */
NjStatus cu_memcpy_htod(CuDevice *d, CuDevPtr dst, const void *src, size_t n, CuStream s);
NjStatus cu_memcpy_dtoh(CuDevice *d, void *dst, CuDevPtr src, size_t n, CuStream s);
NjStatus cu_memcpy_dtod(CuDevice *d, CuDevPtr dst, CuDevPtr src, size_t n, CuStream s);
NjStatus cu_memset8(CuDevice *d, CuDevPtr dst, unsigned char v, size_t n, CuStream s);
/* Page-locked host memory (faster copies), portable and mapped into the device's address
 * space (cuMemHostAlloc); cu_host_free(NULL) is a no-op. */
NjStatus cu_host_alloc(CuDevice *d, size_t n, void **out);
NjStatus cu_host_free(CuDevice *d, void *p);
/* Page-locks an existing host range (cuMemHostRegister; mapped: also into the device's address
 * space) until cu_host_unregister.  *registered tells whether this call did it: a range that is
 * pinned already is NJ_OK, registered false. */
NjStatus cu_host_register(CuDevice *d, void *p, size_t n, bool mapped, bool *registered);
NjStatus cu_host_unregister(CuDevice *d, void *p);
/* The device address of mapped page-locked host memory (cuMemHostGetDevicePointer). */
NjStatus cu_host_device_pointer(CuDevice *d, void *p, CuDevPtr *out);
/* Free and total bytes of the device's memory (cuMemGetInfo). */
NjStatus cu_mem_info(CuDevice *d, size_t *free_bytes, size_t *total_bytes);

/* ---- streams ---------------------------------------------------------------------------------- */
NjStatus cu_stream_new(CuDevice *d, CuStream *out); /* non-blocking w.r.t. the default stream */
NjStatus cu_stream_free(CuDevice *d, CuStream s);
NjStatus cu_stream_sync(CuDevice *d, CuStream s);
/* Work queued on s after this call waits until e has completed (cuStreamWaitEvent). */
NjStatus cu_stream_wait_event(CuDevice *d, CuStream s, CuEvent e);

/* ---- events ------------------------------------------------------------------------------------
 * timing false: CU_EVENT_DISABLE_TIMING.  cu_event_query: *done false while work recorded before
 * the event is still running (CUDA_ERROR_NOT_READY is no error there).  cu_event_elapsed: the
 * milliseconds from start to end, both recorded with timing and completed. */
NjStatus cu_event_new(CuDevice *d, bool timing, CuEvent *out);
NjStatus cu_event_free(CuDevice *d, CuEvent e);
NjStatus cu_event_record(CuDevice *d, CuEvent e, CuStream s);
NjStatus cu_event_sync(CuDevice *d, CuEvent e);
NjStatus cu_event_query(CuDevice *d, CuEvent e, bool *done);
NjStatus cu_event_elapsed(CuDevice *d, CuEvent start, CuEvent end, float *ms);

/* ---- modules and kernels ----------------------------------------------------------------------
 * Loading PTX runs the driver's JIT; its error log comes back in the message on failure.
 * cu_link_ptx compiles PTX to a cubin for the device (malloc'ed, for the disk cache); loading
 * a cubin later skips the JIT. */
NjStatus cu_module_load_ptx(CuDevice *d, const char *ptx, CuModule **out);
NjStatus cu_module_load_cubin(CuDevice *d, const void *image, size_t n, CuModule **out);
NjStatus cu_link_ptx(CuDevice *d, const char *ptx, void **cubin, size_t *n);
void cu_module_free(CuModule *m); /* unloads; its kernels are gone */
CuDevice *cu_module_device(const CuModule *m);
/* The kernel `name` of the module (looked up once, then cached; owned by the module). */
NjStatus cu_module_kernel(CuModule *m, const char *name, CuKernel **out);

/* Launches k.  params[i] points at the value of the kernel's i-th parameter (the PTX kernel
 * ABI of codegen.h: an array is 1 + 2*ndim parameters).  A block larger than the kernel allows
 * fails before the driver is called (NJ_ERR_ARGS naming the kernel); dynamic shared memory
 * above 48 KiB is opted into as needed.  Asynchronous: errors inside the kernel (an illegal
 * address) surface at the next synchronization, whose message names the last kernel launched
 * on the device. */
NjStatus cu_launch(CuKernel *k, const unsigned grid[3], const unsigned block[3],
                   unsigned shared_bytes, CuStream s, void **params);
/* The occupancy API: the block size giving the best occupancy and the minimum grid for it;
 * the number of resident blocks per SM at a block size. */
NjStatus cu_occupancy_block_size(CuKernel *k, size_t dynamic_shared, int *min_grid, int *block);
NjStatus cu_occupancy_blocks_per_sm(CuKernel *k, int block, size_t dynamic_shared, int *n);

#endif
