#include "asm/loaded.h"

#include <stdlib.h>
#include <string.h>

#include "isekit/desc.h"

/* The key of the loader's data in every instance (isk_inst_set_data). */
static const char loaded_key;

static void release(void *data)
{
    isk_loaded *l = data;
    for (size_t i = 0; i < l->syms.len; i++) free(l->syms.data[i].name);
    VEC_FREE(&l->syms);
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

void isk_loaded_keep(isk_inst *inst, const isk_obj *exe)
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
    const isk_loaded_sym *best = NULL, *label = NULL;
    for (size_t i = 0; l && i < l->syms.len; i++) {
        const isk_loaded_sym *s = &l->syms.data[i];
        if (!s->code || s->pc > pc) continue;
        if (s->func && (!best || s->pc >= best->pc)) best = s;
        if (!label || s->pc >= label->pc) label = s;
    }
    return best ? best : label;
}

const isk_line_row *isk_loaded_line_at(const isk_loaded *l, uint64_t pc)
{
    if (!l || !l->lines.len || pc < l->lines.data[0].pc) return NULL;
    size_t lo = 0, hi = l->lines.len;        /* the last row whose pc <= pc */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->lines.data[mid].pc <= pc) lo = mid;
        else hi = mid;
    }
    return &l->lines.data[lo];
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
