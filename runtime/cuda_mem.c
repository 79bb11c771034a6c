/* cuda_mem.c — device memory through the driver: the caching allocator, copies between host
 * and device, page-locked and registered host memory, and the reset of a device (which
 * forgets the allocator's records: the blocks died with the context).
 *
 * Allocator (per device, one mutex): a request is rounded to its size class — 512 B minimum,
 * powers of two up to 1 MiB, then multiples of 2 MiB — and served from that class's free list
 * (small classes: one list each; large: one list searched for the smallest block that fits
 * with at most 1/8 waste), else from cuMemAlloc.  Live blocks sit in a hash table by address,
 * so cu_mem_free knows the size.  On CUDA_ERROR_OUT_OF_MEMORY every cached block is released
 * and the allocation retried once.
 */
#include "cuda_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
            cu_api.cuMemFree(b->ptr);
            d->stats.cached -= b->size;
            b->next = d->spare;
            d->spare = b;
        }
}

NjStatus cu_mem_alloc(CuDevice *d, size_t n, CuDevPtr *out) {
    *out = 0;
    if (n == 0)
        return NJ_OK;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    size_t size = round_size(n);
    if (size < n) {
        cu_set_msg("cu_mem_alloc: %zu bytes is too large", n);
        return NJ_ERR_NOMEM;
    }
    pthread_mutex_lock(&d->lock);
    d->stats.allocs++;
    CuBlock *b = cache_take(d, size);
    if (!b) {
        CUdeviceptr p = 0;
        CUresult r = cu_api.cuMemAlloc(&p, size);
        if (r == CUDA_ERROR_OUT_OF_MEMORY && d->stats.cached) {
            cache_release(d);
            r = cu_api.cuMemAlloc(&p, size);
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
            cu_api.cuMemFree(p);
            pthread_mutex_unlock(&d->lock);
            cu_set_msg("out of memory");
            return NJ_ERR_NOMEM;
        }
        b->ptr = p;
        b->size = size;
    }
    if (d->nlive + 1 > d->nlive_buckets && !live_grow(d)) {
        cache_put(d, b);
        pthread_mutex_unlock(&d->lock);
        cu_set_msg("out of memory");
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
        cu_set_msg("cu_mem_free: 0x%llx was not allocated by numjit on device %d (or was freed twice)",
                (unsigned long long)p, d->ordinal);
        return NJ_ERR_ARGS;
    }
    return NJ_OK;
}

NjStatus cu_mem_trim(CuDevice *d) {
    NjStatus st = cu_bind(d);
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
    cu_api.cuCtxSetCurrent(NULL);
    NjStatus st = cu_check(d, cu_api.cuDevicePrimaryCtxReset(d->dev), "cuDevicePrimaryCtxReset_v2",
                           "device %d", d->ordinal);
    CUcontext ctx = NULL;
    if (!st) {
        CUresult r = cu_api.cuDevicePrimaryCtxRetain(&ctx, d->dev);
        st = cu_check(NULL, r, "cuDevicePrimaryCtxRetain", "device %d, after a reset", d->ordinal);
        if (st && cu_sticky(r)) {
            size_t n = strlen(cu_msg);
            snprintf(cu_msg + n, sizeof cu_msg - n,
                     "; this driver does not recover from that error inside a process: restart "
                     "the process to use device %d again", d->ordinal);
        }
    }
    if (!st) {
        cu_api.cuDevicePrimaryCtxRelease(d->dev); /* one reference, as before */
        d->ctx = ctx;
        atomic_store(&d->broken, false);
        atomic_store(&d->last_kernel, NULL);
    }
    return st;
}

/* ---- copies ---------------------------------------------------------------------------------------- */
NjStatus cu_memcpy_htod(CuDevice *d, CuDevPtr dst, const void *src, size_t n, CuStream s) {
    NjStatus st = cu_bind(d);
    if (st || !n)
        return st;
    CUresult r = s ? cu_api.cuMemcpyHtoDAsync(dst, src, n, s) : cu_api.cuMemcpyHtoD(dst, src, n);
    return r ? cu_check(d, r, s ? "cuMemcpyHtoDAsync_v2" : "cuMemcpyHtoD_v2", "%zu bytes to 0x%llx", n,
                        (unsigned long long)dst)
             : NJ_OK;
}

NjStatus cu_memcpy_dtoh(CuDevice *d, void *dst, CuDevPtr src, size_t n, CuStream s) {
    NjStatus st = cu_bind(d);
    if (st || !n)
        return st;
    CUresult r = s ? cu_api.cuMemcpyDtoHAsync(dst, src, n, s) : cu_api.cuMemcpyDtoH(dst, src, n);
    char buf[512];
    return r ? cu_check(d, r, s ? "cuMemcpyDtoHAsync_v2" : "cuMemcpyDtoH_v2", "%zu bytes from 0x%llx; %s",
                        n, (unsigned long long)src, cu_after_kernel(d, buf, sizeof buf))
             : NJ_OK;
}

NjStatus cu_memcpy_dtod(CuDevice *d, CuDevPtr dst, CuDevPtr src, size_t n, CuStream s) {
    NjStatus st = cu_bind(d);
    if (st || !n)
        return st;
    CUresult r = s ? cu_api.cuMemcpyDtoDAsync(dst, src, n, s) : cu_api.cuMemcpyDtoD(dst, src, n);
    return r ? cu_check(d, r, s ? "cuMemcpyDtoDAsync_v2" : "cuMemcpyDtoD_v2", "%zu bytes", n) : NJ_OK;
}

NjStatus cu_memset8(CuDevice *d, CuDevPtr dst, unsigned char v, size_t n, CuStream s) {
    NjStatus st = cu_bind(d);
    if (st || !n)
        return st;
    CUresult r = s ? cu_api.cuMemsetD8Async(dst, v, n, s) : cu_api.cuMemsetD8(dst, v, n);
    return r ? cu_check(d, r, s ? "cuMemsetD8Async" : "cuMemsetD8_v2", "%zu bytes", n) : NJ_OK;
}

NjStatus cu_host_alloc(CuDevice *d, size_t n, void **out) {
    *out = NULL;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    /* portable: pinned for every context; mapped: kernels may use it in place (the device
     * address is cu_host_device_pointer's; with unified addressing it is the same) */
    return cu_check(d, cu_api.cuMemHostAlloc(out, n ? n : 1, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
                    "cuMemHostAlloc", "%zu bytes", n);
}

NjStatus cu_host_free(CuDevice *d, void *p) {
    if (!p)
        return NJ_OK;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    return cu_check(d, cu_api.cuMemFreeHost(p), "cuMemFreeHost", NULL);
}

NjStatus cu_host_register(CuDevice *d, void *p, size_t n, bool mapped, bool *registered) {
    *registered = false;
    if (!p || !n)
        return NJ_OK;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    CUresult r = cu_api.cuMemHostRegister(p, n, mapped ? CU_MEMHOSTREGISTER_DEVICEMAP : 0);
    if (r == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED) /* pinned already: nothing to undo */
        return NJ_OK;
    *registered = r == CUDA_SUCCESS;
    return cu_check(d, r, "cuMemHostRegister_v2", "%zu bytes at %p", n, p);
}

NjStatus cu_host_unregister(CuDevice *d, void *p) {
    if (!p)
        return NJ_OK;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    return cu_check(d, cu_api.cuMemHostUnregister(p), "cuMemHostUnregister", "%p", p);
}

NjStatus cu_host_device_pointer(CuDevice *d, void *p, CuDevPtr *out) {
    *out = 0;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    CUdeviceptr dp = 0;
    st = cu_check(d, cu_api.cuMemHostGetDevicePointer(&dp, p, 0), "cuMemHostGetDevicePointer_v2",
                  "host address %p", p);
    *out = dp;
    return st;
}

NjStatus cu_mem_info(CuDevice *d, size_t *free_bytes, size_t *total_bytes) {
    *free_bytes = *total_bytes = 0;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    return cu_check(d, cu_api.cuMemGetInfo(free_bytes, total_bytes), "cuMemGetInfo_v2", "device %d",
                    d->ordinal);
}

