/* npy.c — NumPy's .npy files, so that arrays move between numjit and NumPy.
 *
 * Format (numpy.lib.format): the magic "\x93NUMPY", a version byte pair, the header length
 * (2 bytes little-endian for v1.0, 4 bytes for v2.0/3.0), then a Python dict literal
 * {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), } padded with spaces and a
 * newline so that the data starts at a multiple of 64 bytes; then the raw elements.  We write
 * v1.0 in C order; we read v1.0-3.0, little-endian or byte-order-free descriptors ('|b1',
 * '|u1', '<i4', ...), C or Fortran order (a Fortran file becomes a C copy).
 */
#include "session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const descr_of[NJ_DTYPE_COUNT] = {
    "|b1", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8", "<f4", "<f8", "<c8", "<c16"};

NjStatus npy_save(const char *path, const NjArray *a, char *err, size_t errn) {
    SArr *tmp = NULL;
    const NjArray *src = a;
    if (!sa_is_contig(a)) {
        tmp = sa_cast_copy(a, a->dtype);
        if (!tmp) {
            snprintf(err, errn, "out of memory");
            return NJ_ERR_NOMEM;
        }
        src = &tmp->a;
    }
    char hdr[512];
    int n = snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                     descr_of[a->dtype]);
    for (int d = 0; d < a->ndim; d++)
        n += snprintf(hdr + n, sizeof hdr - (size_t)n, "%lld,%s", (long long)a->shape[d],
                      d + 1 < a->ndim ? " " : "");
    if (a->ndim > 1)
        n--; /* (3, 4) not (3, 4,) */
    n += snprintf(hdr + n, sizeof hdr - (size_t)n, "), }");
    int total = 10 + n + 1;
    int pad = (64 - total % 64) % 64;
    for (int i = 0; i < pad; i++)
        hdr[n++] = ' ';
    hdr[n++] = '\n';
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errn, "cannot write '%s': %s", path, strerror(errno));
        sa_decref(tmp);
        return NJ_ERR_IO;
    }
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(n & 0xff),
                             (unsigned char)(n >> 8)};
    size_t bytes = (size_t)sa_size(src) * (size_t)nj_dtype_size(src->dtype);
    bool ok = fwrite(pre, 1, 10, f) == 10 && fwrite(hdr, 1, (size_t)n, f) == (size_t)n &&
              (bytes == 0 || fwrite(src->data, 1, bytes, f) == bytes);
    ok &= fclose(f) == 0;
    sa_decref(tmp);
    if (!ok) {
        snprintf(err, errn, "cannot write '%s': %s", path, strerror(errno));
        return NJ_ERR_IO;
    }
    return NJ_OK;
}

/* The value after 'key': in the header dict, or NULL. */
static const char *dict_value(const char *h, const char *key) {
    char k[32];
    snprintf(k, sizeof k, "'%s'", key);
    const char *p = strstr(h, k);
    if (!p) {
        snprintf(k, sizeof k, "\"%s\"", key);
        p = strstr(h, k);
    }
    if (!p)
        return NULL;
    p = strchr(p + strlen(k), ':');
    if (!p)
        return NULL;
    p++;
    while (*p == ' ')
        p++;
    return p;
}

NjStatus npy_load(const char *path, SArr **out, char *err, size_t errn) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errn, "cannot read '%s': %s", path, strerror(errno));
        return NJ_ERR_IO;
    }
    unsigned char pre[12];
    char *hdr = NULL;
    NjStatus st = NJ_ERR_IO;
    if (fread(pre, 1, 8, f) != 8 || memcmp(pre, "\x93NUMPY", 6)) {
        snprintf(err, errn, "'%s' is not a .npy file", path);
        goto done;
    }
    size_t hlen;
    if (pre[6] == 1) {
        if (fread(pre + 8, 1, 2, f) != 2)
            goto short_read;
        hlen = pre[8] | (size_t)pre[9] << 8;
    } else if (pre[6] == 2 || pre[6] == 3) {
        if (fread(pre + 8, 1, 4, f) != 4)
            goto short_read;
        hlen = pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
    } else {
        snprintf(err, errn, "'%s': .npy version %d.%d is not supported", path, pre[6], pre[7]);
        goto done;
    }
    if (hlen > 1 << 20 || !(hdr = malloc(hlen + 1)))
        goto short_read;
    if (fread(hdr, 1, hlen, f) != hlen)
        goto short_read;
    hdr[hlen] = 0;
    const char *d = dict_value(hdr, "descr"), *fo = dict_value(hdr, "fortran_order"),
               *sh = dict_value(hdr, "shape");
    if (!d || !fo || !sh || (*d != '\'' && *d != '"') || *sh != '(') {
        snprintf(err, errn, "'%s': malformed .npy header", path);
        goto done;
    }
    char descr[16] = {0};
    size_t k = 0;
    for (d++; *d && *d != '\'' && *d != '"' && k < sizeof descr - 1; d++)
        descr[k++] = *d;
    NjDType dt = NJ_DTYPE_COUNT;
    for (int i = 0; i < NJ_DTYPE_COUNT; i++) {
        const char *e = descr_of[i];
        if (!strcmp(descr, e) || (descr[0] != '>' && !strcmp(descr + 1, e + 1) &&
                                  (descr[0] == '<' || descr[0] == '|' || descr[0] == '=')))
            dt = (NjDType)i;
    }
    if (dt == NJ_DTYPE_COUNT) {
        snprintf(err, errn, "'%s': dtype '%s' is not supported by numjit (little-endian bool, "
                            "ints and floats are)", path, descr);
        goto done;
    }
    bool fortran = !strncmp(fo, "True", 4);
    int64_t shape[NJ_MAX_NDIM];
    int nd = 0;
    const char *p = sh + 1;
    for (;;) {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == ')')
            break;
        /* plain decimal digits only, as NumPy's literal_eval of the header takes them: no sign
         * (strtoll would read "112+111..." as 112 then +111..., saturated), no overflow */
        char *end = (char *)p;
        errno = 0;
        long long v = *p >= '0' && *p <= '9' ? strtoll(p, &end, 10) : -1;
        if (end != p && errno == ERANGE) {
            snprintf(err, errn, "'%s': the shape in the .npy header is too large", path);
            goto done;
        }
        if (end == p || nd == NJ_MAX_NDIM || v < 0) {
            snprintf(err, errn, "'%s': malformed shape in the .npy header", path);
            goto done;
        }
        shape[nd++] = v;
        p = end;
    }
    int64_t rshape[NJ_MAX_NDIM], nbytes;
    for (int i = 0; i < nd; i++)
        rshape[i] = fortran ? shape[nd - 1 - i] : shape[i];
    /* the payload's size, checked (base/checked.c): a crafted shape whose product wraps must not
     * give a small array that the read below overruns; nor may it ask for more than the file
     * holds */
    if (nj_byte_size(nd, rshape, nj_dtype_size(dt), &nbytes) != NJ_SIZE_OK) {
        snprintf(err, errn, "'%s': the shape in the .npy header is too large", path);
        goto done;
    }
    long here = ftell(f);
    struct stat fst;
    if (here < 0 || fstat(fileno(f), &fst) ||
        (S_ISREG(fst.st_mode) && nbytes > (int64_t)fst.st_size - here))
        goto short_read;
    SArr *a = sa_new(dt, nd, rshape);
    if (!a) {
        st = NJ_ERR_NOMEM;
        snprintf(err, errn, "out of memory");
        goto done;
    }
    size_t bytes = (size_t)sa_size(&a->a) * (size_t)nj_dtype_size(dt);
    if (bytes && fread(a->buf, 1, bytes, f) != bytes) {
        sa_decref(a);
        goto short_read;
    }
    if (fortran && nd > 1) { /* the file is the transpose in C order: copy it back */
        NjArray t = a->a;
        for (int i = 0; i < nd; i++) {
            t.shape[i] = shape[i];
            t.strides[i] = a->a.strides[nd - 1 - i];
        }
        SArr *c = sa_cast_copy(&t, dt);
        sa_decref(a);
        if (!c) {
            st = NJ_ERR_NOMEM;
            snprintf(err, errn, "out of memory");
            goto done;
        }
        a = c;
    }
    *out = a;
    st = NJ_OK;
    goto done;
short_read:
    snprintf(err, errn, "'%s': the file is truncated or unreadable", path);
done:
    free(hdr);
    fclose(f);
    return st;
}
