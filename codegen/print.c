/* print.c — print() in compiled code (IR_PRINT).
 *
 * CPU: one call per print() of
 *     void CG_PRINT_SYMBOL(const char *line, const int64_t *values)
 * which the runtime defines in every JIT (runtime/print.c).  The line is the IR's, with each
 * \x01 followed by a letter saying how to write the next value: b (bool), i (signed), u
 * (unsigned), f (float64), g (float32, widened), c (complex: two words, real then imaginary,
 * each a float64), a (an array: the address of an NjArray), s (a string: the address of an
 * NjStr); values holds them as 64-bit
 * words (floats by their bits).  The runtime writes them as Python's print does, the whole line at once.
 *
 * GPU: vprintf with numba-cuda's formats (%lld, %llu, %f; True/False for bools through %s),
 * the values packed 8 bytes apiece, as CUDA's printf expects of a variadic call.
 */
#include "cg_internal.h"

#include <stdlib.h>
#include <string.h>

static char kind_letter(const Type *t) {
    if (t->kind == TY_ARRAY)
        return 'a';
    if (t->kind == TY_STR)
        return 's';
    if (t->kind == TY_BOOL)
        return 'b';
    if (ty_is_complex(t))
        return 'c';
    if (ty_is_float(t))
        return t->kind == TY_F32 ? 'g' : 'f';
    return ty_is_signed(t) ? 'i' : 'u';
}

/* The value as a 64-bit word: ints widened by their sign, floats by their bits (float32
 * widened to float64 first). */
static LLVMValueRef as_word(CgModule *M, LLVMBuilderRef B, const Type *t, LLVMValueRef v) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(M->ctx);
    if (ty_is_float(t)) {
        if (t->kind == TY_F32)
            v = LLVMBuildFPExt(B, v, LLVMDoubleTypeInContext(M->ctx), "");
        return LLVMBuildBitCast(B, v, i64, "");
    }
    if (t->kind == TY_BOOL || !ty_is_signed(t))
        return LLVMBuildZExt(B, v, i64, "");
    return LLVMBuildSExt(B, v, i64, "");
}

/* The line for the runtime (CPU) or the printf format (GPU); malloc'ed. */
static char *line_text(const IrInst *in, bool gpu) {
    const char *s = in->imm.str ? in->imm.str : "";
    size_t cap = strlen(s) * 2 + 8 * (size_t)in->nargs + 1;
    char *out = malloc(cap), *o = out;
    if (!out)
        return NULL;
    int k = 0;
    for (; *s; s++) {
        if (*s != '\x01') {
            if (gpu && *s == '%')
                *o++ = '%'; /* a literal percent sign in a printf format */
            *o++ = *s;
            continue;
        }
        const Type *t = k < in->nargs ? in->args[k]->type : ty_i64;
        k++;
        if (!gpu) {
            *o++ = '\x01';
            *o++ = kind_letter(t);
            continue;
        }
        const char *f = t->kind == TY_BOOL ? "%s" : ty_is_float(t) ? "%f"
                        : ty_is_signed(t)  ? "%lld"
                                           : "%llu";
        size_t n = strlen(f);
        memcpy(o, f, n);
        o += n;
    }
    *o = 0;
    return out;
}

static LLVMValueRef global_string(CgModule *M, LLVMBuilderRef B, const char *s, unsigned as) {
    LLVMValueRef init = LLVMConstStringInContext(M->ctx, s, (unsigned)strlen(s), false);
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(M->mod, LLVMTypeOf(init), ".nj.print", as);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, true);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddr(g, true);
    if (as == 0)
        return g;
    return LLVMBuildAddrSpaceCast(B, g, LLVMPointerTypeInContext(M->ctx, 0), "");
}

LLVMValueRef cg_lower_print(CgLower *L, const IrInst *in) {
    CgModule *M = cg_lower_module(L);
    LLVMBuilderRef B = cg_lower_builder(L);
    bool gpu = !strcmp(M->target->name, "nvptx");
    LLVMTypeRef i64 = LLVMInt64TypeInContext(M->ctx), ptr = LLVMPointerTypeInContext(M->ctx, 0);
    char *text = line_text(in, gpu);
    if (!text) {
        cg_error(L, in->loc, "out of memory");
        return NULL;
    }
    LLVMValueRef line = global_string(M, B, text, gpu ? 4 : 0); /* nvptx: constant space */
    free(text);
    /* the values, 8 bytes apiece */
    int n = in->nargs, words = 0;
    for (int k = 0; k < n; k++)
        words += ty_is_complex(in->args[k]->type) ? 2 : 1;
    LLVMValueRef buf = LLVMConstNull(ptr);
    if (n) {
        LLVMTypeRef at = LLVMArrayType2(i64, (uint64_t)words);
        buf = cg_entry_alloca(L, at, "print.args");
        for (int k = 0, w = 0; k < n; k++) {
            LLVMValueRef v = cg_lower_val(L, in, k);
            if (!v)
                return NULL;
            const Type *t = in->args[k]->type;
            LLVMValueRef idx[2] = {LLVMConstInt(i64, 0, false), LLVMConstInt(i64, (unsigned)w++, false)};
            LLVMValueRef slot = LLVMBuildInBoundsGEP2(B, at, buf, idx, 2, "");
            if (t->kind == TY_ARRAY) { /* the address of an NjArray on the stack */
                LLVMValueRef na = cg_entry_alloca(L, LLVMArrayType2(i64, (sizeof(NjArray) + 7) / 8),
                                                  "print.arr");
                cg_put_njarray(M, B, t, v, na);
                LLVMBuildStore(B, LLVMBuildPtrToInt(B, na, i64, ""), slot);
                continue;
            }
            if (t->kind == TY_STR) { /* the address of its NjStr on the stack */
                LLVMValueRef ns = cg_entry_alloca(L, LLVMTypeOf(v), "print.str");
                LLVMBuildStore(B, v, ns);
                LLVMBuildStore(B, LLVMBuildPtrToInt(B, ns, i64, ""), slot);
                continue;
            }
            if (ty_is_complex(t)) { /* both parts, as float64 */
                const Type *pt = ty_complex_part(t);
                LLVMBuildStore(B, as_word(M, B, pt, LLVMBuildExtractValue(B, v, 0, "")), slot);
                idx[1] = LLVMConstInt(i64, (unsigned)w++, false);
                slot = LLVMBuildInBoundsGEP2(B, at, buf, idx, 2, "");
                LLVMBuildStore(B, as_word(M, B, pt, LLVMBuildExtractValue(B, v, 1, "")), slot);
                continue;
            }
            if (gpu && t->kind == TY_BOOL) { /* %s of "True" or "False" */
                LLVMValueRef yes = global_string(M, B, "True", 4);
                LLVMValueRef no = global_string(M, B, "False", 4);
                LLVMBuildStore(B, LLVMBuildSelect(B, v, yes, no, ""), slot);
            } else if (gpu && ty_is_float(t)) {
                if (t->kind == TY_F32)
                    v = LLVMBuildFPExt(B, v, LLVMDoubleTypeInContext(M->ctx), "");
                LLVMBuildStore(B, v, slot);
            } else {
                LLVMBuildStore(B, as_word(M, B, t, v), slot);
            }
        }
    }
    const char *sym = gpu ? "vprintf" : CG_PRINT_SYMBOL;
    LLVMTypeRef params[2] = {ptr, ptr};
    LLVMTypeRef fty = LLVMFunctionType(gpu ? LLVMInt32TypeInContext(M->ctx)
                                           : LLVMVoidTypeInContext(M->ctx),
                                       params, 2, false);
    LLVMValueRef fn = LLVMGetNamedFunction(M->mod, sym);
    if (!fn) {
        fn = LLVMAddFunction(M->mod, sym, fty);
        cg_add_fn_attr(M, fn, "nounwind");
    }
    LLVMValueRef args[2] = {line, buf};
    LLVMBuildCall2(B, fty, fn, args, 2, "");
    return NULL;
}
