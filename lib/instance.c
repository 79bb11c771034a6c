/* instance.c — `numba._nj_new_instance(DT)`: a new jitclass instance in compiled code.
 *
 * A jitclass called in compiled code (`p = Point(1.0, 2.0)`) is answered by the Python
 * package's extension hook with a small def (python/numjit/jitclass.py, _Constructor):
 *
 *     def Point(a0, a1):
 *         self = numba._nj_new_instance(_nj_dtype)
 *         self._nj_init(a0, a1)
 *         return self
 *
 * where _nj_dtype is the class's structured dtype, a module constant that reaches the compiler
 * as its record type's spelling (ty_record_dtype).  This row types that call: the record type
 * must be a jitclass instance's (ty_is_instance), and the value is IR `newrec`, a zeroed
 * record in a counted block (codegen/record.c), owned by the caller as a new reference.  The
 * name is internal: programs reach it only through the class.
 */
#include "lib.h"

Val lib_new_instance_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    (void)callee;
    LibArgs b;
    if (!lib_bind(fn, le, call, &b))
        return verr();
    const Type *t = ty_record_dtype(fn, b.node[0]);
    if (!t || !ty_is_instance(t)) {
        ty_error(fn, b.at[0], "%s() takes a jitclass's record dtype", le->spell);
        return verr();
    }
    if (fn->tc->target != TARGET_CPU) {
        ty_error(fn, call->loc, "jitclass instances are made only in CPU code");
        return verr();
    }
    if (!fn->emit)
        return vval(t, NULL);
    IrInst *r = ty_emit(fn, IR_NEWREC, t, call->loc, 0, NULL);
    if (r)
        r->imm.index = ir_raise_site(fn->tc->p, RAISE_MEMORY,
                                     "Allocation failed (probably too large).", call->loc);
    return ty_own(fn, vval(t, r), call->loc);
}
