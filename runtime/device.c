/* device.c — the public API's CUDA devices and memory (nj_cuda_*): the calling thread's
 * current device, device memory, copies, streams, events, page-locked and registered host
 * memory, memory information and device attributes.
 *
 * Each function is a thin wrapper of runtime/cuda.h on the calling thread's current device
 * (nj_cuda_set_device; device 0 until set), which copies the driver layer's message into the
 * context on failure (rt_cu_fail).  Kernels themselves are kernel.c.
 */
#include "cuda.h"
#include "runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local int tl_device;

/* ---- errors ------------------------------------------------------------------------------- */
/* Copies the driver layer's message into the context; returns st. */
NjStatus rt_cu_fail(NjContext *ctx, NjStatus st, const char *what) {
    const char *m = cu_error();
    if (what)
        rt_set_errorf(ctx, "error: %s: %s", what, m && *m ? m : nj_status_name(st));
    else
        rt_set_errorf(ctx, "error: %s", m && *m ? m : nj_status_name(st));
    return st;
}

static NjStatus current_device(NjContext *ctx, CuDevice **d) {
    NjStatus st = cu_device_get(tl_device, d);
    return st ? rt_cu_fail(ctx, st, NULL) : NJ_OK;
}

/* ---- device memory, copies, streams ---------------------------------------------------------- */
NjStatus nj_cuda_device_count(NjContext *ctx, int *n) {
    NjStatus st = cu_device_count(n);
    if (st == NJ_ERR_UNSUPPORTED) { /* no driver: no devices */
        rt_cu_fail(ctx, st, NULL);
        *n = 0;
        return NJ_OK;
    }
    return st ? rt_cu_fail(ctx, st, NULL) : NJ_OK;
}

NjStatus nj_cuda_set_device(NjContext *ctx, int ordinal) {
    CuDevice *d;
    NjStatus st = cu_device_get(ordinal, &d);
    if (st)
        return rt_cu_fail(ctx, st, NULL);
    tl_device = ordinal;
    return NJ_OK;
}

int nj_cuda_get_device(void) { return tl_device; }

NjStatus nj_cuda_device_name(NjContext *ctx, char *name, size_t cap, int *major, int *minor) {
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (st)
        return st;
    const CuDeviceInfo *di = cu_device_info(d);
    if (name && cap)
        snprintf(name, cap, "%s", di->name);
    if (major)
        *major = di->cc_major;
    if (minor)
        *minor = di->cc_minor;
    return NJ_OK;
}

NjStatus nj_cuda_malloc(NjContext *ctx, size_t n, void **dptr) {
    *dptr = NULL;
    CuDevice *d;
    CuDevPtr p = 0;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_mem_alloc(d, n, &p)))
        return rt_cu_fail(ctx, st, NULL);
    *dptr = (void *)(uintptr_t)p;
    return st;
}

NjStatus nj_cuda_free(NjContext *ctx, void *dptr) {
    if (!dptr)
        return NJ_OK;
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_mem_free(d, (CuDevPtr)(uintptr_t)dptr)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

NjStatus nj_cuda_memcpy_htod(NjContext *ctx, void *dst, const void *src, size_t n, NjStream s) {
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_memcpy_htod(d, (CuDevPtr)(uintptr_t)dst, src, n, (CuStream)s)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

NjStatus nj_cuda_memcpy_dtoh(NjContext *ctx, void *dst, const void *src, size_t n, NjStream s) {
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_memcpy_dtoh(d, dst, (CuDevPtr)(uintptr_t)src, n, (CuStream)s)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

NjStatus nj_cuda_memcpy_dtod(NjContext *ctx, void *dst, const void *src, size_t n, NjStream s) {
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_memcpy_dtod(d, (CuDevPtr)(uintptr_t)dst, (CuDevPtr)(uintptr_t)src, n,
                                    (CuStream)s)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

NjStatus nj_cuda_synchronize(NjContext *ctx) {
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_device_synchronize(d)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

NjStatus nj_cuda_stream_new(NjContext *ctx, NjStream *out) {
    *out = NULL;
    CuDevice *d;
    CuStream s = NULL;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_stream_new(d, &s)))
        return rt_cu_fail(ctx, st, NULL);
    *out = s;
    return st;
}

NjStatus nj_cuda_stream_free(NjContext *ctx, NjStream s) {
    if (!s)
        return NJ_OK;
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_stream_free(d, (CuStream)s)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

NjStatus nj_cuda_stream_sync(NjContext *ctx, NjStream s) {
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = s ? cu_stream_sync(d, (CuStream)s) : cu_device_synchronize(d)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

NjStatus nj_cuda_stream_wait_event(NjContext *ctx, NjStream s, NjEvent e) {
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_stream_wait_event(d, (CuStream)s, (CuEvent)e)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

/* ---- events ---------------------------------------------------------------------------------- */
NjStatus nj_cuda_event_new(NjContext *ctx, int timing, NjEvent *out) {
    *out = NULL;
    CuDevice *d;
    CuEvent e = NULL;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_event_new(d, timing != 0, &e)))
        return rt_cu_fail(ctx, st, NULL);
    *out = e;
    return st;
}

NjStatus nj_cuda_event_free(NjContext *ctx, NjEvent e) {
    if (!e)
        return NJ_OK;
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_event_free(d, (CuEvent)e)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

static NjStatus no_event(NjContext *ctx, const char *what) {
    rt_set_errorf(ctx, "error: %s: the event is NULL", what);
    return NJ_ERR_ARGS;
}

NjStatus nj_cuda_event_record(NjContext *ctx, NjEvent e, NjStream s) {
    if (!e)
        return no_event(ctx, "nj_cuda_event_record");
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_event_record(d, (CuEvent)e, (CuStream)s)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

NjStatus nj_cuda_event_sync(NjContext *ctx, NjEvent e) {
    if (!e)
        return no_event(ctx, "nj_cuda_event_sync");
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_event_sync(d, (CuEvent)e)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

NjStatus nj_cuda_event_query(NjContext *ctx, NjEvent e, int *done) {
    *done = 0;
    if (!e)
        return no_event(ctx, "nj_cuda_event_query");
    CuDevice *d;
    bool b = false;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_event_query(d, (CuEvent)e, &b)))
        return rt_cu_fail(ctx, st, NULL);
    *done = b;
    return st;
}

NjStatus nj_cuda_event_elapsed(NjContext *ctx, NjEvent start, NjEvent end, float *ms) {
    *ms = 0.0f;
    if (!start || !end)
        return no_event(ctx, "nj_cuda_event_elapsed");
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_event_elapsed(d, (CuEvent)start, (CuEvent)end, ms)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

/* ---- page-locked host memory, memory information, attributes --------------------------------- */
NjStatus nj_cuda_host_alloc(NjContext *ctx, size_t n, void **p) {
    *p = NULL;
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_host_alloc(d, n, p)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

NjStatus nj_cuda_host_free(NjContext *ctx, void *p) {
    if (!p)
        return NJ_OK;
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_host_free(d, p)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

NjStatus nj_cuda_host_register(NjContext *ctx, void *p, size_t n, int mapped, int *registered) {
    *registered = 0;
    CuDevice *d;
    bool r = false;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_host_register(d, p, n, mapped != 0, &r)))
        return rt_cu_fail(ctx, st, NULL);
    *registered = r;
    return st;
}

NjStatus nj_cuda_host_unregister(NjContext *ctx, void *p) {
    if (!p)
        return NJ_OK;
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_host_unregister(d, p)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

NjStatus nj_cuda_host_device_pointer(NjContext *ctx, void *p, void **dptr) {
    *dptr = NULL;
    CuDevice *d;
    CuDevPtr dp = 0;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_host_device_pointer(d, p, &dp)))
        return rt_cu_fail(ctx, st, NULL);
    *dptr = (void *)(uintptr_t)dp;
    return st;
}

NjStatus nj_cuda_mem_info(NjContext *ctx, size_t *free_bytes, size_t *total_bytes) {
    *free_bytes = *total_bytes = 0;
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_mem_info(d, free_bytes, total_bytes)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

NjStatus nj_cuda_device_attribute(NjContext *ctx, int attr, int *value) {
    *value = 0;
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_device_attribute(d, attr, value)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}

NjStatus nj_cuda_mem_trim(NjContext *ctx) {
    CuDevice *d;
    NjStatus st = current_device(ctx, &d);
    if (!st && (st = cu_mem_trim(d)))
        return rt_cu_fail(ctx, st, NULL);
    return st;
}
