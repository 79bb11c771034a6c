/* str.c — strings (Numba's unicode_type) in generated code (CPU).
 *
 * A string value is an LLVM struct { ptr data, i64 nbytes, i64 nchars, ptr owner } laid out as
 * the C type NjStr (numjit.h), so the runtime's functions (ir/str.def, runtime/str.c) and the
 * generic entry read and write it as memory without conversion.  The owner, field 3, sits where
 * an array descriptor keeps its meminfo, so refs.c counts strings with the same helpers: NULL
 * for text nobody counts (a literal, an argument from C or Python), else a CgMemInfo block made
 * by the runtime with the text after its header.  Everything a string does beyond being a
 * value (concatenation, comparison, slicing ...) is a call of the runtime through `rtcall`
 * (lower.c); this file makes the constants.
 */
#include "cg_internal.h"

#include <string.h>

/* The number of code points of UTF-8 text: every byte that does not continue a sequence. */
static int64_t utf8_chars(const char *s, size_t n) {
    int64_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += ((unsigned char)s[i] & 0xC0) != 0x80;
    return k;
}

LLVMValueRef cg_str_const(CgModule *M, const char *s) {
    LLVMContextRef C = M->ctx;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(C), ptr = LLVMPointerTypeInContext(C, 0);
    size_t n = strlen(s);
    /* the text with its NUL, a private constant shared by equal literals (unnamed_addr) */
    LLVMValueRef init = LLVMConstStringInContext(C, s, (unsigned)n, false);
    LLVMValueRef g = LLVMAddGlobal(M->mod, LLVMTypeOf(init), ".nj.str");
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, true);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddr(g, true);
    LLVMValueRef f[4] = {g, LLVMConstInt(i64, (unsigned long long)n, 0),
                         LLVMConstInt(i64, (unsigned long long)utf8_chars(s, n), 0),
                         LLVMConstNull(ptr)};
    return LLVMConstStructInContext(C, f, 4, false);
}
