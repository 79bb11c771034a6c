/* typer_try.c — `try` statements as Numba 0.56 compiles them: a bare `except:` or
 * `except Exception:` catches what compiled code raises in the body (its own raise and assert,
 * ZeroDivisionError, IndexError of a checked index, and what the functions it calls raise),
 * with `else:` and `finally:`.  Numba refuses the rest, and so does numjit, with a located
 * error: a handler of another class (`except ZeroDivisionError:`, a tuple of classes), `except
 * ... as e` (Numba: "Exception object cannot be stored into variable"), and here also a
 * `return`, `break` or `continue` that would leave a body or handler past its `finally:`, and
 * a `try` with `finally:` but no `except:` (the exception would go on after the finally).
 *
 * A raise is a status returned by compiled code (docs/design-notes.md, "Raise sites"), so
 * catching is control flow: every block made while the body is typed gets the except's block
 * as its handler (IrBlock.handler), and lowering sends that block's raises and failed calls
 * there instead of out of the function.  A try inside the body keeps its own handler for its
 * body; its except blocks get the outer one.
 *
 *   cur ─▶ body ─(completes)─▶ else ─▶ finally ─▶ after
 *           └─(raises)─▶ except ─────────┘
 */
#include "typer_internal.h"

#include <string.h>

/* A `return`, `break` or `continue` in body that would leave it (break/continue outside a
 * loop of the body itself), or NULL. */
static const Node *leaves(const NodeList *body, bool in_loop) {
    for (int i = 0; i < body->n; i++) {
        const Node *s = body->items[i];
        if (s->kind == ND_RETURN || (!in_loop && (s->kind == ND_BREAK || s->kind == ND_CONTINUE)))
            return s;
        bool loop = in_loop || s->kind == ND_WHILE || s->kind == ND_FOR;
        const Node *x = leaves(&s->list, loop);
        if (!x && s->kind != ND_WHILE && s->kind != ND_FOR)
            x = leaves(&s->list2, loop);
        if (!x && s->kind == ND_TRY) {
            for (int k = 0; k < s->list2.n && !x; k++)
                x = leaves(&s->list2.items[k]->list, in_loop);
            if (!x && s->a)
                x = leaves(&s->a->list, in_loop);
            if (!x && s->b)
                x = leaves(&s->b->list, in_loop);
        }
        if (x)
            return x;
    }
    return NULL;
}

/* The handlers Numba 0.56 takes: `except:` and `except Exception:`, without `as`. */
static bool check_handlers(Fn *fn, Node *s) {
    for (int i = 0; i < s->list2.n; i++) {
        Node *h = s->list2.items[i];
        if (h->a && !(h->a->kind == ND_NAME && !strcmp(h->a->name, "Exception") &&
                      !ty_lookup_var(fn, "Exception"))) {
            ty_error(fn, h->a->loc,
                     "only `except:` and `except Exception:` can catch in compiled code (Numba "
                     "0.56 cannot match the class of an exception)");
            return false;
        }
        if (h->name) {
            ty_error(fn, h->loc,
                     "Exception object cannot be stored into variable (%s) in compiled code",
                     h->name);
            return false;
        }
    }
    if (!s->list2.n) { /* the exception would have to go on after the finally */
        ty_error(fn, s->loc, "a `try` with `finally:` and no `except:` is not supported by "
                             "numjit");
        return false;
    }
    const Node *x = NULL;
    if (s->b) { /* finally: nothing may leave the body or a handler past it */
        x = leaves(&s->list, false);
        for (int i = 0; i < s->list2.n && !x; i++)
            x = leaves(&s->list2.items[i]->list, false);
        if (!x && s->a)
            x = leaves(&s->a->list, false);
    }
    if (x) {
        ty_error(fn, x->loc, "'%s' inside a `try` with `finally:` is not supported by numjit",
                 x->kind == ND_RETURN ? "return" : x->kind == ND_BREAK ? "break" : "continue");
        return false;
    }
    return true;
}

/* Every block from `first` on that no inner try claimed raises into h. */
static void catch_into(Fn *fn, int first, IrBlock *h) {
    for (int i = first; i < fn->f->nblocks; i++)
        if (!fn->f->blocks[i]->handler)
            fn->f->blocks[i]->handler = h;
}

void ty_stmt_try(Fn *fn, Node *s) {
    bool ok = check_handlers(fn, s);
    /* the first handler catches every exception: the others never run (Python's order) */
    NodeList *handler = s->list2.n ? &s->list2.items[0]->list : &s->list;
    if (!fn->emit || !ok) { /* inference, or after an error: every part, straight through */
        ty_stmts(fn, &s->list);
        ty_stmts(fn, handler);
        if (s->a)
            ty_stmts(fn, &s->a->list);
        if (s->b)
            ty_stmts(fn, &s->b->list);
        return;
    }
    /* the except first (a handler precedes the blocks it catches for: ir_parse), the body's
     * blocks last: every block from the body's on is the body's */
    IrBlock *except = ty_block(fn), *orelse = ty_block(fn), *fin = ty_block(fn),
            *body = ty_block(fn);
    bool live = fn->cur && !ir_block_terminated(fn->cur);
    ty_br(fn, body, s->loc);
    ty_set_block(fn, body);
    int first = body->id;
    ty_stmts(fn, &s->list);
    ty_br(fn, orelse, s->loc);
    catch_into(fn, first, except);
    if (live)
        ty_mark_reach(fn, except); /* a raise in the body gets there */
    ty_set_block(fn, except);
    ty_stmts(fn, handler);
    ty_br(fn, fin, s->loc);
    ty_set_block(fn, orelse);
    if (s->a)
        ty_stmts(fn, &s->a->list);
    ty_br(fn, fin, s->loc);
    ty_set_block(fn, fin);
    if (s->b)
        ty_stmts(fn, &s->b->list);
}
