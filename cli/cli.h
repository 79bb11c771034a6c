/* cli.h — the parts of the numjit command that live in their own files.
 *
 *   repl.c     `numjit` with no arguments: the interactive session (libedit)
 *   script.c   `numjit run FILE.py`: a file's top-level statements through the same engine
 *   obj.c      `numjit obj FILE.py --sig ... -o lib.o --header lib.h`: ahead-of-time objects
 */
#ifndef NUMJIT_CLI_H
#define NUMJIT_CLI_H

#include "numjit.h"

/* Both return the process exit status. */
int cli_repl(NjContext *ctx, NjTarget target);
int cli_run(NjContext *ctx, const char *path, NjTarget target);
/* numjit obj ... (argv[1] is "obj"): the process exit status. */
int cli_obj(int argc, char **argv);
/* "cpu", "parallel", "cuda" → the target; -1 when unknown. */
int cli_target(const char *name);

#endif
