/* check.h — the C test programs' check macro: CHECK(cond, printf-args) counts a check and,
 * when cond is false, a failure, printing "FAIL file:line: message".  Each program ends with
 * printf("%d checks, %d failures\n", checks, failures) and exits nonzero on a failure. */
#ifndef NUMJIT_TESTS_CHECK_H
#define NUMJIT_TESTS_CHECK_H

#include <stdio.h>

static int failures, checks;

#define CHECK(cond, ...)                                                                         \
    do {                                                                                         \
        checks++;                                                                                \
        if (!(cond)) {                                                                           \
            failures++;                                                                          \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                          \
            printf(__VA_ARGS__);                                                                 \
            printf("\n");                                                                        \
        }                                                                                        \
    } while (0)

#endif
