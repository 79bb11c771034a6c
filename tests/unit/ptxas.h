/* ptxas.h — the C test programs that generate PTX check it with the toolkit's ptxas where there
 * is one: find_ptxas() looks at $PTXAS, then $PATH, then $CUDA_HOME/bin, $CUDA_PATH/bin and
 * /usr/local/cuda/bin; run_ptxas() assembles a PTX text for an arch. */
#ifndef NUMJIT_TESTS_PTXAS_H
#define NUMJIT_TESTS_PTXAS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char ptxas[4096]; /* "" when there is none */

static bool is_exe(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

static void find_ptxas(void) {
    const char *e = getenv("PTXAS");
    if (e && is_exe(e)) {
        snprintf(ptxas, sizeof ptxas, "%s", e);
        return;
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *end = strchr(path, ':');
        int n = end ? (int)(end - path) : (int)strlen(path);
        char cand[4096];
        snprintf(cand, sizeof cand, "%.*s/ptxas", n, path);
        if (n && is_exe(cand)) {
            snprintf(ptxas, sizeof ptxas, "%s", cand);
            return;
        }
        path = end ? end + 1 : NULL;
    }
    const char *roots[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"};
    for (int i = 0; i < 3; i++) {
        char cand[4096];
        if (roots[i] && (size_t)snprintf(cand, sizeof cand, "%s/bin/ptxas", roots[i]) < sizeof cand &&
            is_exe(cand)) {
            snprintf(ptxas, sizeof ptxas, "%s", cand);
            return;
        }
    }
}

/* Assembles ptx with ptxas for arch; true when ptxas accepts it (or there is no ptxas).  A
 * rejected text is kept in a temporary directory and ptxas's log printed. */
static bool run_ptxas(const char *name, const char *ptx, const char *arch) {
    if (!ptxas[0])
        return true;
    char dir[] = "/tmp/numjit_ptxas_XXXXXX";
    if (!mkdtemp(dir))
        return false;
    char in[256], out[256], log[256], cmd[8192];
    snprintf(in, sizeof in, "%s/%.100s.ptx", dir, name);
    snprintf(out, sizeof out, "%s/%.100s.cubin", dir, name);
    snprintf(log, sizeof log, "%s/log", dir);
    FILE *f = fopen(in, "w");
    if (!f)
        return false;
    fputs(ptx, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' -arch=%s '%s' -o '%s' > '%s' 2>&1", ptxas, arch, in, out, log);
    int rc = system(cmd);
    bool ok = rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
    if (!ok) {
        printf("ptxas -arch=%s rejects %s (kept in %s):\n", arch, name, dir);
        f = fopen(log, "r");
        char line[512];
        while (f && fgets(line, sizeof line, f))
            printf("  %s", line);
        if (f)
            fclose(f);
        return false;
    }
    unlink(in);
    unlink(out);
    unlink(log);
    rmdir(dir);
    return true;
}

#endif
