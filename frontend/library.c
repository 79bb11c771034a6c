/* library.c — the bundled libraries (the .py files of stdlib/) parsed once per process.
 *
 * Every module that imports numpy, math, random or cmath gets the functions of one or more
 * libraries written in numjit's own language (module.c's add_library).  Their text never
 * changes, so parsing it again for each module only costs time: 70 KB of source is a few
 * milliseconds of a compile that takes ten to twenty, and most of what a fuzzer of the
 * frontend spends per input.  fe_library_module parses each library the first time any
 * module asks for it, into an arena of its own that lives as long as the process, and hands
 * every later caller the same tree.
 *
 * The tree is shared between modules and threads, so it is read-only once built: the typer
 * and the module table copy a node before they change one (typer_closure.c, typer_gen.c,
 * typer_optional.c build new nodes; tests/unit/test_frontend.c checks that the shared tree
 * prints the same after modules that use every library were typed and compiled).  The Source
 * the tree's locations refer to is built here too, so a diagnostic in library code names
 * "<numjit>/LIB.py".  A library whose parse reports an error is not shared: the caller parses
 * it into its own arena as before, so the error reaches that module's diagnostics. */
#include <pthread.h>
#include <string.h>

#include "frontend/frontend.h"

enum { LIB_MAX = 16 };

typedef struct LibTree {
    const char *name; /* the library's name as fe_stdlib_text takes it */
    Source src;
    Node *mod; /* NULL: its parse failed; parse it per module */
} LibTree;

static pthread_mutex_t lib_lock = PTHREAD_MUTEX_INITIALIZER;
static Arena *lib_arena;
static LibTree lib_entries[LIB_MAX];
static int lib_count;

/* The parse of lib, from lib_entries or made now; call with lib_lock held. */
static const LibTree *lookup_or_parse(const char *lib)
{
    for (int i = 0; i < lib_count; i++)
        if (!strcmp(lib_entries[i].name, lib))
            return &lib_entries[i];
    const char *text = fe_stdlib_text(lib);
    if (!text || lib_count == LIB_MAX)
        return NULL;
    if (!lib_arena && !(lib_arena = arena_new()))
        return NULL;
    LibTree *e = &lib_entries[lib_count];
    e->name = arena_strdup(lib_arena, lib);
    e->src.name = arena_printf(lib_arena, "<numjit>/%s.py", lib);
    e->src.text = text;
    e->src.len = strlen(text);
    DiagList diags;
    diag_init(&diags);
    e->mod = fe_parse(lib_arena, &e->src, &diags);
    if (diags.nerrors > 0 || arena_failed(lib_arena))
        e->mod = NULL;
    diag_free(&diags);
    lib_count++;
    return e;
}

Node *fe_library_module(const char *lib, const Source **src)
{
    pthread_mutex_lock(&lib_lock);
    const LibTree *e = lookup_or_parse(lib);
    Node *mod = e ? e->mod : NULL;
    if (mod)
        *src = &e->src;
    pthread_mutex_unlock(&lib_lock);
    return mod;
}
