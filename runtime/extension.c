/* extension.c — nj_set_extension_hook: the host program's answers to names the typer does not
 * know (Numba's @overload and its relatives, which the Python package implements).
 *
 * The typer (typer/typer_ext.c) asks with the argument types spelled as Numba spells them and
 * wants a module table back; the public hook answers with an NjModule handle.  This file is
 * the adapter between the two: it hands the implementation module's table to the typer.  The module stays
 * owned by its context, so the table outlives the compile that asked for it.
 */
#include "runtime.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t ext_mu = PTHREAD_MUTEX_INITIALIZER;
static NjExtensionHook ext_fn;
static void *ext_arg;

static int adapter(void *arg, int kind, const char *file, const char *name, const char *attr,
                   int nargs, const char *const *argtypes, const ModuleInfo **impl_module,
                   char **impl_func, char **message) {
    (void)arg;
    pthread_mutex_lock(&ext_mu);
    NjExtensionHook hook = ext_fn;
    void *harg = ext_arg;
    pthread_mutex_unlock(&ext_mu);
    if (!hook)
        return NJ_EXT_NOT_MINE;
    NjModule *m = NULL;
    int r = hook(harg, (NjExtKind)kind, file, name, attr, nargs, argtypes, &m, impl_func,
                 message);
    if (r == NJ_EXT_IMPL) {
        if (!m || !m->info || !*impl_func) {
            free(*impl_func);
            *impl_func = NULL;
            return NJ_EXT_ERROR;
        }
        *impl_module = m->info;
    }
    return r;
}

void nj_set_extension_hook(NjExtensionHook hook, void *arg) {
    pthread_mutex_lock(&ext_mu);
    ext_fn = hook;
    ext_arg = arg;
    pthread_mutex_unlock(&ext_mu);
    ty_set_ext_hook(hook ? adapter : NULL, NULL);
}
