/* fuzz_cache.c — libFuzzer target for cache entries, the on-disk input a later process trusts
 * least.  The first input byte picks how the rest is used:
 *   even: the rest is a whole entry file (header, description, payload) put under the key's
 *         name; rt_cache_load reads and checks it (any header, size or checksum);
 *   odd:  the rest is a payload, stored with a valid header and checksum by rt_cache_store,
 *         so that the payload readers see arbitrary bytes: what load_spec reads of an @njit
 *         entry (strings, a type, a raise table, the object's bytes) and rt_cubin_get.
 * Then nj_cache_list walks the directory (its own header checks).  The cache directory is a
 * private temporary one (NUMJIT_CACHE_DIR); the key is fixed.
 *
 * Built and run by tests/fuzz/run.sh; seeds in tests/fuzz/corpus_cache (valid entries made
 * by tests/fuzz/make_seeds.py).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/runtime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static RtCacheKey key;
static char dir[512], entry[700];
static volatile size_t sink;

static void setup(void) {
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/fuzz_cache.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir))
        abort();
    setenv("NUMJIT_CACHE_DIR", dir, 1);
    for (int i = 0; i < 32; i++) /* the key hash is bytes 0, 1, ..., 31 */
        key.hash[i] = (uint8_t)i;
    for (int i = 0; i < 32; i++)
        snprintf(key.hex + 2 * i, 3, "%02x", key.hash[i]);
    snprintf(key.sym, sizeof key.sym, "nj_cache.%.32s", key.hex);
    key.desc = "fuzz.py: f(float64) [njit]";
    snprintf(entry, sizeof entry, "%s/%.40s.nje", dir, key.hex);
}

/* What pipeline.c's load_spec reads from an @njit entry. */
static void read_njit(RtBlob *b) {
    const char *tag = rt_blob_get_str(b), *sym = rt_blob_get_str(b);
    const Type *ret = rt_blob_get_type(b);
    uint32_t nr = rt_blob_get_u32(b);
    sink += (tag ? strlen(tag) : 0) + (sym ? strlen(sym) : 0) + (ret ? strlen(ret->name) : 0);
    for (uint32_t i = 0; i < nr && i < 4096 && !b->bad; i++) {
        const char *exc = rt_blob_get_str(b), *msg = rt_blob_get_str(b);
        sink += (exc ? strlen(exc) : 0) + (msg ? strlen(msg) : 0);
    }
    size_t n = 0;
    const uint8_t *obj = rt_blob_get_bytes(b, &n);
    for (size_t i = 0; obj && i < n; i++)
        sink += obj[i];
}

static void visit(const NjCacheEntry *e, void *user) {
    (void)user;
    sink += strlen(e->path) + strlen(e->desc) + (e->problem ? strlen(e->problem) : 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!dir[0])
        setup();
    if (!size)
        return 0;
    if (data[0] % 2 == 0) {
        FILE *f = fopen(entry, "wb");
        if (!f)
            return 0;
        fwrite(data + 1, 1, size - 1, f);
        fclose(f);
    } else {
        RtBlob in = {.data = (uint8_t *)data + 1, .len = size - 1, .cap = size - 1};
        rt_cache_store(&key, &in);
    }
    RtBlob b;
    if (rt_cache_load(&key, &b)) {
        size_t start = b.pos;
        read_njit(&b);
        b.pos = start;
        b.bad = false;
        RtCubinEntry c;
        if (!rt_cubin_get(&b, &c))
            sink += c.cubin_len + (size_t)c.nparams;
        rt_blob_free(&b);
    }
    nj_cache_list(visit, NULL);
    nj_cache_warnings(NULL, 0, true);
    unlink(entry);
    return 0;
}
