/* _dtypes.h — the NjDType of a buffer's struct-module format, shared by the extension
 * modules (_numjit and _cuda are built apart, so the function is inline here). */
#ifndef NUMJIT_PY_DTYPES_H
#define NUMJIT_PY_DTYPES_H

#include <Python.h>

#include "numjit.h"

/* The dtype of a struct-module format string with the given item size, or -1. */
static inline int nj_fmt_dtype(const char *fmt, Py_ssize_t itemsize)
{
    if (!fmt)
        return itemsize == 1 ? NJ_UINT8 : -1; /* "B" is implied when format is not requested */
    if (*fmt == '@' || *fmt == '=' || *fmt == '<')
        fmt++;
    else if (*fmt == '>' || *fmt == '!')
        return -1;
    if (fmt[0] == 'Z' && fmt[1] && !fmt[2]) /* complex: "Zf", "Zd" */
        return fmt[1] == 'f' && itemsize == 8 ? NJ_COMPLEX64
               : fmt[1] == 'd' && itemsize == 16 ? NJ_COMPLEX128 : -1;
    if (!fmt[0] || fmt[1])
        return -1;
    switch (fmt[0]) {
    case '?':
        return itemsize == 1 ? NJ_BOOL : -1;
    case 'b': case 'h': case 'i': case 'l': case 'q': case 'n':
        switch (itemsize) {
        case 1: return NJ_INT8;
        case 2: return NJ_INT16;
        case 4: return NJ_INT32;
        case 8: return NJ_INT64;
        }
        return -1;
    case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N':
        switch (itemsize) {
        case 1: return NJ_UINT8;
        case 2: return NJ_UINT16;
        case 4: return NJ_UINT32;
        case 8: return NJ_UINT64;
        }
        return -1;
    case 'f': case 'd':
        return itemsize == 4 ? NJ_FLOAT32 : itemsize == 8 ? NJ_FLOAT64 : -1;
    }
    return -1;
}

#endif
