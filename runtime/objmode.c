/* objmode.c — numjit_rt_objmode, the runtime side of numba.objmode blocks: compiled code (the
 * rtcall of lib/objmode.c) hands the block's number and its two buffers to the hook the host
 * program registered (nj_set_objmode_hook; the Python package's runs the block's Python
 * code).  Without a hook the call reports failure, and compiled code raises. */
#include "runtime.h"

#include <stdatomic.h>

static _Atomic(NjObjmodeHook) objmode_hook;

void nj_set_objmode_hook(NjObjmodeHook hook) { atomic_store(&objmode_hook, hook); }

int64_t numjit_rt_objmode(int64_t id, int64_t ib, int64_t fb, int64_t stage) {
    NjObjmodeHook h = atomic_load(&objmode_hook);
    if (!h)
        return 1;
    return h(id, (int64_t *)(intptr_t)ib, (double *)(intptr_t)fb, stage);
}
