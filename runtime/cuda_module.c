/* cuda_module.c — code on the device: modules loaded from PTX (through the driver's JIT, with
 * its logs in the message) or from cubins, PTX linked to a cubin (cuLink*), the kernels of a
 * module with their attributes, launches and the occupancy API.
 *
 * The launch path (cu_launch) does no allocation and takes no lock: a bounds check of the
 * block size against the kernel's limit, an opt-in for large dynamic shared memory when first
 * needed, and cuLaunchKernel.
 */
#include "cuda_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- modules ------------------------------------------------------------------------------------- */
#define CU_LOG_SIZE 16384

static NjStatus module_new(CuDevice *d, CUmodule mod, CuModule **out) {
    CuModule *m = calloc(1, sizeof *m);
    if (!m) {
        cu_api.cuModuleUnload(mod);
        cu_set_msg("out of memory");
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
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    char *log = calloc(1, CU_LOG_SIZE);
    int opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[2] = {log, (void *)(uintptr_t)CU_LOG_SIZE};
    CUmodule mod = NULL;
    CUresult r = cu_api.cuModuleLoadDataEx(&mod, image, log ? 2 : 0, opts, vals);
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
        cu_set_msg("cu_module_load_cubin: the image is not a cubin (no ELF header)");
        return NJ_ERR_ARGS;
    }
    return load_image(d, image, "cubin", out);
}

NjStatus cu_link_ptx(CuDevice *d, const char *ptx, void **cubin, size_t *n) {
    *cubin = NULL;
    *n = 0;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    char *log = calloc(1, CU_LOG_SIZE);
    int opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[2] = {log, (void *)(uintptr_t)CU_LOG_SIZE};
    CUlinkState ls = NULL;
    CUresult r = cu_api.cuLinkCreate(log ? 2 : 0, opts, vals, &ls);
    if (r) {
        free(log);
        return cu_check(d, r, "cuLinkCreate_v2", "device %d", d->ordinal);
    }
    r = cu_api.cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)ptx, strlen(ptx) + 1, "numjit.ptx", 0, NULL, NULL);
    const char *call = "cuLinkAddData_v2";
    void *img = NULL;
    size_t size = 0;
    if (!r) {
        r = cu_api.cuLinkComplete(ls, &img, &size);
        call = "cuLinkComplete";
    }
    if (r) {
        st = cu_check(d, r, call, "PTX for %s on device %d", d->info.arch, d->ordinal);
        append_log("JIT error log", log);
    } else if (!(*cubin = malloc(size ? size : 1))) {
        cu_set_msg("out of memory");
        st = NJ_ERR_NOMEM;
    } else {
        memcpy(*cubin, img, size); /* the image belongs to the link state */
        *n = size;
    }
    cu_api.cuLinkDestroy(ls);
    free(log);
    return st;
}

CuDevice *cu_module_device(const CuModule *m) { return m->dev; }

void cu_module_free(CuModule *m) {
    if (!m)
        return;
    if (!atomic_load(&m->dev->broken) && cu_bind(m->dev) == NJ_OK)
        cu_api.cuModuleUnload(m->mod);
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
    NjStatus st = cu_bind(d);
    CUfunction fn = NULL;
    if (!st) { /* the symbol as codegen/nvptx.c wrote it: non-ASCII bytes as $xx */
        StrBuf sym;
        sb_init(&sym);
        sb_put_symbol(&sym, name);
        st = cu_check(d, cu_api.cuModuleGetFunction(&fn, m->mod, sym.data ? sym.data : name),
                      "cuModuleGetFunction", "kernel '%s'", name);
        sb_free(&sym);
    }
    CuKernel *k = NULL;
    if (!st && (!(k = calloc(1, sizeof *k)) || !(k->name = strdup(name)))) {
        free(k);
        k = NULL;
        cu_set_msg("out of memory");
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
            st = cu_check(d, cu_api.cuFuncGetAttribute(attrs[i].dst, attrs[i].attr, fn),
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
        cu_set_msg("kernel '%s': empty launch (grid %ux%ux%u, block %ux%ux%u)", k->name, grid[0],
                grid[1], grid[2], block[0], block[1], block[2]);
        return NJ_ERR_ARGS;
    }
    if (threads > (unsigned long long)k->max_threads) {
        cu_set_msg("kernel '%s': a block of %ux%ux%u = %llu threads exceeds the %d threads per "
                "block this kernel allows on %s",
                k->name, block[0], block[1], block[2], threads, k->max_threads, d->info.arch);
        return NJ_ERR_ARGS;
    }
    NjStatus st = cu_bind(d);
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
            cu_set_msg("kernel '%s': %u bytes of dynamic shared memory exceed the %d bytes available "
                    "to it on %s", k->name, shared_bytes, limit, d->info.arch);
            return NJ_ERR_ARGS;
        }
        st = cu_check(d, cu_api.cuFuncSetAttribute(k->fn, CU_FUNC_ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                               limit),
                      "cuFuncSetAttribute", "kernel '%s', %d bytes of dynamic shared memory",
                      k->name, limit);
        if (st)
            return st;
        k->max_dynamic_shared = limit;
    }
    bool carve = shared_bytes > 48 * 1024; /* launches this large want shared memory over L1 */
    if (carve != (bool)k->carveout_max) {  /* a hint (100%, or the default -1): never fatal */
        (void)cu_api.cuFuncSetAttribute(k->fn, CU_FUNC_ATTR_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                    carve ? 100 : -1);
        k->carveout_max = carve;
    }
    atomic_store_explicit(&d->last_kernel, k->name, memory_order_relaxed);
    CUresult r = cu_api.cuLaunchKernel(k->fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                   shared_bytes, s, params, NULL);
    if (r)
        return cu_check(d, r, "cuLaunchKernel",
                        "kernel '%s', grid %ux%ux%u, block %ux%ux%u, %u bytes dynamic shared memory",
                        k->name, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared_bytes);
    return NJ_OK;
}

NjStatus cu_occupancy_block_size(CuKernel *k, size_t dynamic_shared, int *min_grid, int *block) {
    CuDevice *d = k->module->dev;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    return cu_check(d, cu_api.cuOccupancyMaxPotentialBlockSize(min_grid, block, k->fn, NULL, dynamic_shared, 0),
                    "cuOccupancyMaxPotentialBlockSize", "kernel '%s'", k->name);
}

NjStatus cu_occupancy_blocks_per_sm(CuKernel *k, int block, size_t dynamic_shared, int *n) {
    CuDevice *d = k->module->dev;
    NjStatus st = cu_bind(d);
    if (st)
        return st;
    return cu_check(d, cu_api.cuOccupancyMaxActiveBlocksPerMultiprocessor(n, k->fn, block, dynamic_shared),
                    "cuOccupancyMaxActiveBlocksPerMultiprocessor", "kernel '%s', block %d", k->name,
                    block);
}
