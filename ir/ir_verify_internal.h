/* ir_verify_internal.h — what the two halves of the IR verifier share: the verifier's state
 * (the instruction table, dominators), its report and naming helpers (ir_verify.c), and the
 * per-op operand and type rules (ir_verify_types.c). Not installed; include only from ir/.
 */
#ifndef NJ_IR_VERIFY_INTERNAL_H
#define NJ_IR_VERIFY_INTERNAL_H

#include "ir.h"

typedef struct Slot {
    const IrInst *in;
    int block, pos;
} Slot;

typedef struct Verifier {
    const IrProgram *p;
    const IrFunc *f;
    DiagList *diags;
    int errors;
    Slot *table; /* open addressing on the instruction pointer */
    size_t mask;
    int *idom;   /* -1: unreachable */
    int *order;  /* reverse-postorder number of each block */
} Verifier;

/* ir_verify.c */
void ir_vreport(Verifier *V, const IrInst *in, int block, const char *fmt, ...) NJ_PRINTF(4, 5);
const char *ir_vtname(Verifier *V, const Type *t);
const char *ir_vopname(const IrInst *in);
bool ir_vterminator(IrOp op);

/* ir_verify_types.c */
int ir_vnargs(const IrProgram *p, const IrInst *in);
void ir_vtypes(Verifier *V, const IrInst *in, int b);

#endif
