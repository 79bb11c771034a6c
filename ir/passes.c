/* passes.c — the IR pipeline: every pass, in order, in one function read top to bottom.
 *
 * The typer's output is verified first (when asked), then each pass runs and the program is
 * verified again, so a broken invariant is reported right after the pass that broke it: the
 * diagnostic names the pass as a note.  A pass that cannot go on reports to diags and returns
 * false; the pipeline stops there.
 */
#include "ir.h"

/* Verifies p when asked; on a violation adds a note naming the stage. */
static bool checkpoint(IrProgram *p, bool verify, const char *after, DiagList *diags) {
    if (!verify || ir_verify(p, diags))
        return true;
    Loc none = {0};
    diag_add(diags, DG_NOTE, none, "the IR was broken %s", after);
    return false;
}

bool ir_run_passes(IrProgram *p, bool verify, DiagList *diags) {
    if (!checkpoint(p, verify, "by the typer", diags))
        return false;

    ir_pass_fold(p); /* constant folding, unused pure values removed */
    if (!checkpoint(p, verify, "after constant folding (pass_fold.c)", diags))
        return false;

    return true;
}
