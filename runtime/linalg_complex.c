/* linalg_complex.c — np.linalg's LU-based functions on complex matrices (det, slogdet, inv,
 * solve of complex128 and complex64: ir/linalg.def's _c128 / _c64 rows; the complex matrix
 * product is linalg.c's, four real products on the parts).  The kernels are
 * linalg_complex_kernel.h, included once per precision; typer/typer_linalg.c types the calls
 * and turns a singular matrix into Numba's LinAlgError.
 */
#include "runtime.h"

#include <math.h>
#include <stdint.h>

#define LC_PTR(x) ((char *)(uintptr_t)(x))

#define LC_T double
#define LC_HYPOT hypot
#define LC_LOG log
#define LC(x) x##_c128
#include "linalg_complex_kernel.h"
#undef LC_T
#undef LC_HYPOT
#undef LC_LOG
#undef LC

#define LC_T float
#define LC_HYPOT hypotf
#define LC_LOG logf
#define LC(x) x##_c64
#include "linalg_complex_kernel.h"
#undef LC_T
#undef LC_HYPOT
#undef LC_LOG
#undef LC

bool rt_linalg_complex_define(CgJit *jit, char **err) {
    static const struct {
        RtFn f;
        uintptr_t addr;
    } fns[] = {
        {LA_DET_C128, (uintptr_t)det_c128},         {LA_DET_C64, (uintptr_t)det_c64},
        {LA_SLOGDET_C128, (uintptr_t)slogdet_c128}, {LA_SLOGDET_C64, (uintptr_t)slogdet_c64},
        {LA_INV_C128, (uintptr_t)inv_c128},         {LA_INV_C64, (uintptr_t)inv_c64},
        {LA_SOLVE_C128, (uintptr_t)solve_c128},     {LA_SOLVE_C64, (uintptr_t)solve_c64},
    };
    enum { N = sizeof fns / sizeof *fns };
    const char *names[N];
    uintptr_t addrs[N];
    for (int i = 0; i < N; i++)
        names[i] = ir_rtcall[fns[i].f].symbol, addrs[i] = fns[i].addr;
    return cg_jit_define(jit, names, addrs, N, err);
}
