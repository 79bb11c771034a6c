/* cg_nvptx.h — private to codegen/: the declarations shared by nvptx.c, libdevice.c and ptx.c.
 *
 * (Kept apart from cg_internal.h only while that header is being finished; its contents belong
 * in cg_internal.h's NVPTX section and move there unchanged.)
 */
#ifndef NUMJIT_CG_NVPTX_H
#define NUMJIT_CG_NVPTX_H

#include "cg_internal.h"

/* ---- nvptx.c ------------------------------------------------------------------------------- */
extern const CgTarget cg_nvptx_target;
/* After cg_lower_program: adds the `.entry` wrapper of every IRF_KERNEL function (the kernel
 * ABI of codegen.h), gives a kernel-less program's funcs[0] an external name, and rewrites what
 * the NVPTX backend cannot select (llvm.pow/exp/log/sin/cos..., frem) into libdevice calls.
 * False with M->err set on failure. */
bool cg_nvptx_finish(CgModule *M);
/* True when fn is a kernel entry (PTX kernel calling convention). */
bool cg_nvptx_is_kernel(LLVMValueRef fn);

/* ---- libdevice.c --------------------------------------------------------------------------- */
/* Links the libdevice functions that mod calls (`__nv_*` declarations) into mod, lazily, and
 * gives every non-kernel definition internal linkage so the optimizer drops what is unused.
 * A module calling no libdevice function is left alone (true without reading the file). */
bool cg_libdevice_link(LLVMModuleRef mod, char **err);

#endif
