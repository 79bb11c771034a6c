/* record.c — record types: the elements of NumPy's structured dtypes (Numba's Record).
 *
 * A record type lists its fields (name, type: a scalar or a complex, byte offset), the size of
 * one item and whether NumPy laid it out aligned (`np.dtype(..., align=True)`).  Its name is
 * Numba's spelling, which says all of that, so interning compares names:
 *
 *     Record(x[type=float64;offset=0],y[type=int32;offset=8];12;False)
 *
 * and ty_parse_record reads that spelling back (signatures, IR text, the Python package's type
 * codes).  An array of records is a TY_ARRAY whose dtype is the record type; a value of the
 * record type is the address of one item (codegen/record.c reads and writes fields there).
 */
#include "ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool field_name_ok(const char *s) {
    if (!*s)
        return false;
    for (; *s; s++)
        if (strchr("[];,()=", *s))
            return false;
    return true;
}

const Type *ty_record(const char *const *names, const Type *const *types, const int *offsets,
                      int n, int size, bool aligned) {
    if (n <= 0 || size <= 0)
        return NULL;
    size_t len = 64;
    for (int i = 0; i < n; i++) {
        if (!types[i] || !ty_is_elem(types[i]) || !field_name_ok(names[i]) || offsets[i] < 0 ||
            offsets[i] + ty_size(types[i]) > size)
            return NULL;
        len += strlen(names[i]) + strlen(types[i]->name) + 40;
    }
    char *name = malloc(len);
    const char **fn = calloc((size_t)n, sizeof *fn);
    const Type **el = calloc((size_t)n, sizeof *el);
    int *off = calloc((size_t)n, sizeof *off);
    if (!name || !fn || !el || !off)
        goto fail;
    size_t k = (size_t)snprintf(name, len, "Record(");
    for (int i = 0; i < n; i++) {
        k += (size_t)snprintf(name + k, len - k, "%s%s[type=%s;offset=%d]", i ? "," : "",
                              names[i], types[i]->name, offsets[i]);
        if (!(fn[i] = strdup(names[i])))
            goto fail;
        el[i] = types[i];
        off[i] = offsets[i];
    }
    snprintf(name + k, len - k, ";%d;%s)", size, aligned ? "True" : "False");
    Type proto = {.kind = TY_RECORD, .name = name, .nelems = n, .elems = el, .fnames = fn,
                  .foffsets = off, .rsize = size, .aligned = aligned};
    const Type *t = ty_intern(&proto);
    if (t && t->name == name) /* a new type: it keeps the arrays */
        return t;
    for (int i = 0; i < n; i++) /* an equal type was there already (or no memory) */
        free((void *)fn[i]);
    free(name);
    free(fn);
    free(el);
    free(off);
    return t;
fail:
    for (int i = 0; fn && i < n; i++)
        free((void *)fn[i]);
    free(name);
    free(fn);
    free(el);
    free(off);
    return NULL;
}

int ty_record_field(const Type *rec, const char *name) {
    for (int i = 0; rec && rec->kind == TY_RECORD && i < rec->nelems; i++)
        if (!strcmp(rec->fnames[i], name))
            return i;
    return -1;
}

bool ty_is_instance(const Type *rec) {
    if (!rec || rec->kind != TY_RECORD || rec->nelems < 1)
        return false;
    const char *last = rec->fnames[rec->nelems - 1], *end = strrchr(last, '_');
    return !strncmp(last, "_nj_", 4) && end && end - last > 4 && end[1] &&
           strspn(end + 1, "0123456789") == strlen(end + 1) &&
           rec->elems[rec->nelems - 1] == ty_u8;
}

/* Numba's spelling at *sp, "Record(NAME[type=T;offset=N],...;SIZE;True|False)"; advances *sp. */
const Type *ty_parse_record(const char **sp, const char **err) {
    enum { MAXF = 256 };
    const char *s = strchr(*sp, '(') + 1;
    char *names[MAXF];
    const Type *types[MAXF];
    int offsets[MAXF], n = 0, size = 0;
    const Type *t = NULL;
    *err = "expected 'Record(NAME[type=TYPE;offset=N],...;SIZE;ALIGNED)'";
    while (*s && *s != ';') {
        const char *br = strchr(s, '[');
        if (!br || n == MAXF || strncmp(br, "[type=", 6))
            goto out;
        const char *tend = strchr(br, ';');
        if (!tend || strncmp(tend, ";offset=", 8))
            goto out;
        char tname[64];
        size_t tl = (size_t)(tend - (br + 6));
        if (tl >= sizeof tname)
            goto out;
        memcpy(tname, br + 6, tl);
        tname[tl] = 0;
        char *end = NULL;
        long off = strtol(tend + 8, &end, 10);
        if (!end || *end != ']' || off < 0 || off > 1 << 30)
            goto out;
        if (!(names[n] = strndup(s, (size_t)(br - s))) || !(types[n] = ty_from_name(tname))) {
            free(names[n]);
            goto out;
        }
        offsets[n++] = (int)off;
        s = end + 1;
        if (*s == ',')
            s++;
    }
    if (*s != ';')
        goto out;
    char *end = NULL;
    long sz = strtol(s + 1, &end, 10);
    if (!end || *end != ';' || sz <= 0 || sz > 1 << 30)
        goto out;
    size = (int)sz;
    bool aligned = !strncmp(end + 1, "True)", 5);
    if (!aligned && strncmp(end + 1, "False)", 6))
        goto out;
    if (!(t = ty_record((const char *const *)names, types, offsets, n, size, aligned))) {
        *err = "a record's fields must be numbers inside its size";
        goto out;
    }
    *sp = end + 1 + (aligned ? 5 : 6);
out:
    for (int i = 0; i < n; i++)
        free(names[i]);
    return t;
}
