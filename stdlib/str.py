# str.py — the methods of strings that build lists or tuples of strings: split, rsplit,
# splitlines, join, partition, rpartition and expandtabs, in numjit's own language, computing
# what CPython's (and Numba 0.56's, numba/cpython/unicode.py) methods compute.
#
# typer/typer_strmeth.c types each call, raises ValueError "empty separator" for an empty sep
# before calling, and picks the function: split(None) and rsplit(None) split at runs of
# whitespace (_ws), the others at each occurrence of sep.  The loops are Numba's, including
# where its answers differ from CPython's (said at each function): Numba is the oracle.  The
# lists are built by appending slices of the string, so they hold new strings.


def _nj_str_split(s, sep, maxsplit):
    out = []
    n = len(s)
    m = len(sep)
    last = 0
    i = 0
    count = 0
    # Numba's loop: a maxsplit below -1 splits nothing, where CPython's splits everywhere
    while i < n and (maxsplit == -1 or count < maxsplit):
        if s[i:i + m] == sep:
            out.append(s[last:i])
            i += m
            last = i
            count += 1
        else:
            i += 1
    out.append(s[last:])
    return out


# Numba's whitespace split: the words, up to maxsplit of them (unlimited for 0 or -1), and
# nothing of the text after the last one counted (CPython keeps it as a last item).
def _nj_str_split_ws(s, maxsplit):
    out = []
    n = len(s)
    last = 0
    count = 0
    in_space = True
    for i in range(n):
        sp = s[i].isspace()
        if in_space:
            if not sp:
                last = i
                in_space = False
        elif sp:
            out.append(s[last:i])
            in_space = True
            count += 1
            if maxsplit != -1 and count == maxsplit:
                break
    if not in_space:
        out.append(s[last:])
    return out


# From the right, as Numba's: a one-character sep is looked for again only two characters on
# from a match (so 'a,,b'.rsplit(',') is ['a,', 'b'], as under Numba).
def _nj_str_rsplit(s, sep, maxsplit):
    out = []
    if len(s) < len(sep):
        out.append(s[:])
        return out
    if maxsplit < 0:
        maxsplit = 9223372036854775807
    m = len(sep)
    if m == 1:
        i = len(s) - 1
        j = i
        while i >= 0 and maxsplit > 0:
            if s[i] == sep:
                out.append(s[i + 1:j + 1])
                i = i - 1
                j = i
                maxsplit -= 1
            i -= 1
        if j >= -1:
            out.append(s[:j + 1])
        out.reverse()
        return out
    j = len(s)
    while maxsplit > 0:
        pos = s.rfind(sep, 0, j)
        if pos < 0:
            break
        out.append(s[pos + m:j])
        j = pos
        maxsplit -= 1
    out.append(s[:j])
    out.reverse()
    return out


def _nj_str_rsplit_ws(s, maxsplit):
    out = []
    if maxsplit < 0:
        maxsplit = 9223372036854775807
    i = len(s) - 1
    while maxsplit > 0:
        while i >= 0 and s[i].isspace():
            i -= 1
        if i < 0:
            break
        j = i
        i -= 1
        while i >= 0 and not s[i].isspace():
            i -= 1
        out.append(s[i + 1:j + 1])
        maxsplit -= 1
    if i >= 0:                                # maxsplit reached: the rest, less its spaces
        while i >= 0 and s[i].isspace():
            i -= 1
        if i >= 0:
            out.append(s[:i + 1])
    out.reverse()
    return out


# Line boundaries as CPython's str.splitlines: \n, \r, \r\n, \v, \f, \x1c, \x1d, \x1e, \x85,
# \u2028, \u2029.
def _nj_str_is_linebreak(c):
    k = ord(c)
    return (k >= 10 and k <= 13) or (k >= 28 and k <= 30) or k == 133 or k == 8232 \
        or k == 8233


def _nj_str_splitlines(s, keepends):
    out = []
    n = len(s)
    i = 0
    while i < n:
        j = i
        while j < n and not _nj_str_is_linebreak(s[j]):
            j += 1
        eol = j
        if j < n:
            if s[j] == '\r' and j + 1 < n and s[j + 1] == '\n':
                j += 2
            else:
                j += 1
            if keepends:
                eol = j
        out.append(s[i:eol])
        i = j
    return out


def _nj_str_join(sep, parts):
    r = ''
    first = True
    for p in parts:
        if not first:
            r += sep
        r += p
        first = False
    return r


def _nj_str_partition(s, sep):
    i = s.find(sep)
    if i < 0:
        return (s[:], '', '')
    return (s[:i], sep[:], s[i + len(sep):])


def _nj_str_rpartition(s, sep):
    i = s.rfind(sep)
    if i < 0:
        return ('', '', s[:])
    return (s[:i], sep[:], s[i + len(sep):])


def _nj_str_expandtabs(s, tabsize):
    r = ''
    col = 0
    for c in s:
        if c == '\t':
            if tabsize > 0:
                k = tabsize - col % tabsize
                r += ' ' * k
                col += k
        else:
            r += c
            col += 1
            if c == '\n' or c == '\r':
                col = 0
    return r
