/* test_ir.h — what test_ir.c and test_ir_fold.c share: the check counters and CHECK, and the
 * helpers that print, parse and verify IR text. */
#ifndef NUMJIT_TEST_IR_H
#define NUMJIT_TEST_IR_H

#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int failures, checks;

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        checks++;                                                                              \
        if (!(cond)) {                                                                         \
            failures++;                                                                        \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);           \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fputc('\n', stderr);                                                               \
        }                                                                                      \
    } while (0)

char *render(const DiagList *d);               /* the diagnostics as text (malloc'ed) */
char *print_program(const IrProgram *p);       /* the program's text form (malloc'ed) */
/* Parses text; NULL with the rendered diagnostics in *errs (malloc'ed) on failure. */
IrProgram *parse_text(Arena *a, const char *text, char **errs);
bool verify_clean(const IrProgram *p, const char *what); /* a CHECK that p verifies clean */

/* test_ir_fold.c */
void test_fold_values(void);
void test_fold_functions(void);

#endif
