/* .psm sources: files, lines and INCLUDE.
 *
 * INCLUDE is resolved while reading, so the passes see one flat list of lines, each with the
 * file and line it came from. A name is looked up relative to the including file's directory,
 * then in the include directories, then among the in-memory files (by name). */
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "psm/psm_int.h"
#include "base/file.h"

#define MAX_INCLUDE_DEPTH 16

/* The files registered by PSM_BUILTIN_FILE (psm.h); weak, as a program may register none. */
extern const psm_file *const __start_isk_psm_files[] __attribute__((weak));
extern const psm_file *const __stop_isk_psm_files[] __attribute__((weak));

static bool is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static const char *remember_file(psm_asm *a, const char *name)
{
    VEC_PUSH(&a->prog->files, isk_xstrdup(name));
    return VEC_LAST(&a->prog->files);
}

/* Does the line start (after white space) with the directive INCLUDE? */
static bool is_include_line(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return strncasecmp(s, "INCLUDE", 7) == 0 && (s[7] == ' ' || s[7] == '\t' || s[7] == '"');
}

/* INCLUDE "name": find and read it. */
static void include_file(psm_asm *a, const psm_line *l, const psm_parsed *p)
{
    if (p->nops != 1 || p->op[0].len < 2 || p->op[0].s[0] != '"' || p->op[0].s[p->op[0].len - 1] != '"') {
        psm_error_at(a, l, p->nops ? p->op[0].col : p->word.col, "INCLUDE needs one file name in quotes");
        return;
    }
    if (a->include_depth >= MAX_INCLUDE_DEPTH) {
        psm_error_at(a, l, p->op[0].col, "INCLUDE nested more than %d deep (does a file include itself?)",
                     MAX_INCLUDE_DEPTH);
        return;
    }
    char *name = isk_xstrndup(p->op[0].s + 1, (size_t)p->op[0].len - 2);
    char *found = NULL;
    if (name[0] == '/') {
        if (is_regular_file(name)) found = isk_xstrdup(name);
    } else {
        const char *slash = strrchr(l->file, '/');
        char *local = slash ? isk_xasprintf("%.*s/%s", (int)(slash - l->file), l->file, name) : isk_xstrdup(name);
        if (is_regular_file(local)) found = local;
        else free(local);
        for (size_t i = 0; !found && i < a->opt->ninclude_dirs; i++) {
            char *candidate = isk_xasprintf("%s/%s", a->opt->include_dirs[i], name);
            if (is_regular_file(candidate)) found = candidate;
            else free(candidate);
        }
    }
    a->include_depth++;
    if (found) {
        psm_read_source(a, found, NULL, l, &p->op[0]);
        free(found);
    } else {
        const psm_file *mem = NULL;
        for (size_t i = 0; i < a->opt->nfiles && !mem; i++)
            if (strcmp(a->opt->files[i].name, name) == 0) mem = &a->opt->files[i];
        for (const psm_file *const *f = __start_isk_psm_files; f && f < __stop_isk_psm_files && !mem; f++)
            if (strcmp((*f)->name, name) == 0) mem = *f;
        if (mem) {
            char *label = isk_xasprintf("<isekit>/%s", mem->name);
            psm_read_source(a, label, mem->text, l, &p->op[0]);
            free(label);
        } else {
            psm_error_at(a, l, p->op[0].col + 1, "cannot find the included file '%s'", name);
        }
    }
    a->include_depth--;
    free(name);
}

static void add_lines(psm_asm *a, const char *file, const char *text, size_t len, bool *ok, int *includes)
{
    int number = 0;
    const char *end = text + len;
    for (const char *s = text; s < end;) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *stop = nl ? nl : end;
        size_t n = (size_t)(stop - s);
        if (n && s[n - 1] == '\r') n--;
        number++;
        psm_line l = { file, number, isk_xstrndup(s, n) };
        if (memchr(s, 0, n)) {
            psm_error_at(a, &l, 1, "the line holds a NUL byte: is this a text file?");
            *ok = false;
            free(l.text);
        } else if (is_include_line(l.text)) {
            psm_parsed p;
            if (psm_split_line(a, &l, &p)) include_file(a, &l, &p);
            (*includes)++;
            free(l.text);
        } else {
            VEC_PUSH(&a->lines, l);
        }
        s = nl ? nl + 1 : end;
    }
}

bool psm_read_source(psm_asm *a, const char *path, const char *text, const psm_line *included_from,
                     const psm_span *where)
{
    size_t len;
    char *owned = NULL;
    if (text) {
        len = strlen(text);
    } else if (included_from) {
        /* the error belongs to the INCLUDE line */
        isk_diag quiet;
        isk_diag_init(&quiet);
        isk_diag_buffer msg;
        isk_diag_capture(&quiet, &msg);
        bool read = isk_file_read_source(path, "a .psm source", &owned, &len, &quiet) == 0;
        char why[sizeof quiet.last];
        if (!read) psm_error_at(a, included_from, where->col, "%s", isk_diag_last_reason(&quiet, why, sizeof why));
        isk_diag_buffer_free(&msg);
        if (!read) return false;
        text = owned;
    } else {
        if (isk_file_read_source(path, "a .psm source", &owned, &len, a->diag) != 0) return false;
        text = owned;
    }
    const char *file = remember_file(a, path);
    bool ok = true;
    int includes = 0;
    add_lines(a, file, text, len, &ok, &includes);
    free(owned);
    return ok;
}
