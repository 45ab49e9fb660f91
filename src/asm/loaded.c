#include "asm/loaded.h"

#include <stdlib.h>
#include <string.h>

#include "asm/dwarf_line.h"
#include "isekit/desc.h"

/* The key of the loader's data in every instance (isk_inst_set_data). */
static const char loaded_key;

static void release(void *data)
{
    isk_loaded *l = data;
    for (size_t i = 0; i < l->syms.len; i++) free(l->syms.data[i].name);
    VEC_FREE(&l->syms);
    VEC_FREE(&l->routines);
    for (size_t i = 0; i < l->files.len; i++) free(l->files.data[i]);
    VEC_FREE(&l->files);
    VEC_FREE(&l->lines);
    free(l->path);
    free(l);
}

static int by_address(const void *a, const void *b)
{
    const isk_loaded_sym *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    if (x->func != y->func) return x->func ? -1 : 1;        /* the function first among equals */
    return strcmp(x->name, y->name);
}

static int by_pc(const void *a, const void *b)
{
    const isk_line_row *x = a, *y = b;
    if (x->pc != y->pc) return x->pc < y->pc ? -1 : 1;
    return (x->line != 0) - (y->line != 0);     /* a sequence's end before the next one's start */
}

/* The executable's .debug_line into l->files and l->lines (PCs: code memory indices). A bad
 * table is a warning and no lines: the program runs as well without. */
static void keep_lines(isk_loaded *l, const isk_model *m, const isk_obj *exe, isk_diag *diag)
{
    isk_dwarf_lines d = { 0 };
    char err[200];
    if (!isk_obj_lines(exe, &d, err, sizeof err)) {
        isk_loc loc = { .file = l->path };
        if (diag) isk_warning(diag, &loc, ".debug_line: %s; no line information", err);
        isk_dwarf_lines_free(&d);
        return;
    }
    for (size_t i = 0; i < d.rows.len; i++) {
        const isk_dwarf_row *r = &d.rows.data[i];
        isk_line_row row = { .file = r->file, .line = r->end ? 0 : r->line, .column = r->column, .stmt = r->stmt && !r->end };
        bool ok = isk_addr_to_pc(m, r->addr, &row.pc);
        /* A sequence's end is the byte after its code, maybe past the code memory: the PC after
         * its last instruction's (instructions take at most 8 bytes). */
        for (uint64_t k = 1; r->end && !ok && k <= 8 && k <= r->addr; k++)
            if ((ok = isk_addr_to_pc(m, r->addr - k, &row.pc))) row.pc++;
        if (ok) VEC_PUSH(&l->lines, row);
    }
    if (l->lines.len) qsort(l->lines.data, l->lines.len, sizeof *l->lines.data, by_pc);
    l->files.data = d.files.data;           /* the names move; the rows refer to them by index */
    l->files.len = d.files.len;
    l->files.cap = d.files.cap;
    memset(&d.files, 0, sizeof d.files);
    isk_dwarf_lines_free(&d);
}

static int routine_order(const void *a, const void *b, void *loaded)
{
    const isk_loaded *l = loaded;
    const isk_loaded_sym *x = &l->syms.data[*(const size_t *)a], *y = &l->syms.data[*(const size_t *)b];
    if (x->pc != y->pc) return x->pc < y->pc ? -1 : 1;
    if (x->func != y->func) return x->func ? -1 : 1;
    return strcmp(x->name, y->name);
}

void isk_loaded_keep(isk_inst *inst, const isk_obj *exe, isk_diag *diag)
{
    const isk_model *m = isk_inst_model(inst);
    isk_loaded *l = isk_xcalloc(1, sizeof *l);
    l->path = isk_xstrdup(exe->filename ? exe->filename : "");
    l->entry = exe->entry;
    for (size_t i = 0; i < exe->syms.len; i++) {
        const isk_symbol *s = &exe->syms.data[i];
        if (!*s->name || s->shndx == ISK_SHN_UNDEF || s->type == STT_SECTION || s->type == STT_FILE) continue;
        isk_loaded_sym ls = { .addr = s->value, .size = s->size, .func = s->type == STT_FUNC };
        const isk_map_region *r = isk_addr_region(m, s->value);
        ls.code = r && r->code && isk_addr_to_pc(m, s->value, &ls.pc);
        ls.func |= ls.code && s->type == STT_NOTYPE && s->bind != STB_LOCAL;
        ls.name = isk_xstrdup(s->name);
        VEC_PUSH(&l->syms, ls);
    }
    if (l->syms.len) qsort(l->syms.data, l->syms.len, sizeof *l->syms.data, by_address);
    for (size_t i = 0; i < l->syms.len; i++)
        if (l->syms.data[i].code && strncmp(l->syms.data[i].name, ".L", 2) != 0) VEC_PUSH(&l->routines, i);
    if (l->routines.len) qsort_r(l->routines.data, l->routines.len, sizeof *l->routines.data, routine_order, l);
    keep_lines(l, m, exe, diag);
    isk_inst_set_data(inst, &loaded_key, l, release);
}

const isk_loaded *isk_loaded_of(const isk_inst *inst) { return isk_inst_data(inst, &loaded_key); }

const isk_loaded_sym *isk_loaded_find(const isk_loaded *l, const char *name)
{
    for (size_t i = 0; l && i < l->syms.len; i++)
        if (strcmp(l->syms.data[i].name, name) == 0) return &l->syms.data[i];
    return NULL;
}

const isk_loaded_sym *isk_loaded_code_at(const isk_loaded *l, uint64_t pc)
{
    if (!l) return NULL;
    size_t lo = 0, hi = l->routines.len;        /* routines[0, lo) have their pc <= pc */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->syms.data[l->routines.data[mid]].pc <= pc) lo = mid + 1;
        else hi = mid;
    }
    if (!lo) return NULL;
    const uint64_t at = l->syms.data[l->routines.data[lo - 1]].pc;
    while (lo > 1 && l->syms.data[l->routines.data[lo - 2]].pc == at) lo--;   /* the first at that PC */
    return &l->syms.data[l->routines.data[lo - 1]];
}

const isk_line_row *isk_loaded_line_at(const isk_loaded *l, uint64_t pc)
{
    if (!l || !l->lines.len || pc < l->lines.data[0].pc) return NULL;
    /* (Line 0 rows end sequences: the code after them has no line.) */
    size_t lo = 0, hi = l->lines.len;        /* the last row whose pc <= pc */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->lines.data[mid].pc <= pc) lo = mid;
        else hi = mid;
    }
    return l->lines.data[lo].line ? &l->lines.data[lo] : NULL;
}

static bool names_file(const char *have, const char *want)
{
    size_t h = strlen(have), w = strlen(want);
    return strcmp(have, want) == 0 || (h > w && have[h - w - 1] == '/' && strcmp(have + h - w, want) == 0);
}

int isk_loaded_line_pcs(const isk_loaded *l, const char *file, uint32_t line, uint64_t *pcs, int cap)
{
    int n = 0;
    for (size_t i = 0; l && i < l->lines.len; i++) {
        const isk_line_row *r = &l->lines.data[i];
        if (!r->stmt || r->line != line || r->file >= l->files.len || !names_file(l->files.data[r->file], file))
            continue;
        if (n < cap) pcs[n] = r->pc;
        n++;
    }
    return n;
}
