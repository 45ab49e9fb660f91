/* A .psm program as an executable's symbols and line table, for asm/loaded.h: the debugger's
 * `break LABEL` and `break FILE:LINE`, stepping by line, a profile's functions. The line table is
 * DWARF .debug_line as the assembler writes it, so that one decoder (isk_loaded_keep) serves both. */
#include <stdlib.h>
#include <string.h>

#include "asm/dwarf_line.h"
#include "asm/loaded.h"
#include "elf/elf_file.h"
#include "isekit/desc.h"
#include "psm/psm.h"

static int by_address(const void *x, const void *y)
{
    const psm_origin *p = x, *q = y;
    return p->address < q->address ? -1 : p->address > q->address;
}

/* Each placed word's file:line as .debug_line: one sequence per run of consecutive addresses
 * (ADDRESS directives leave gaps that belong to no line). */
static void add_lines(isk_obj *o, const isk_model *m, const psm_program *p)
{
    uint64_t a0, a1;
    if (!p->origins.len || !isk_pc_to_addr(m, 0, &a0) || !isk_pc_to_addr(m, 1, &a1) || a1 <= a0) return;
    const uint64_t unit = a1 - a0;            /* bytes per instruction in the address map */
    const size_t n = p->origins.len;
    psm_origin *sorted = isk_xcalloc(n, sizeof *sorted);
    memcpy(sorted, p->origins.data, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_address);
    isk_dwarf_erow *rows = isk_xcalloc(n, sizeof *rows);
    VEC(isk_dwarf_seq) seqs = { 0 };
    uint32_t first = 0;                       /* the current sequence's first address */
    for (size_t i = 0; i < n; i++) {
        const psm_origin *s = &sorted[i];
        uint32_t file = 0;
        while (file < p->files.len && strcmp(p->files.data[file], s->file) != 0) file++;
        if (!i || s->address != sorted[i - 1].address + 1) {
            uint64_t start = 0;
            isk_pc_to_addr(m, s->address, &start);
            VEC_PUSH(&seqs, ((isk_dwarf_seq){ .rows = rows + i, .start = start }));
            first = s->address;
        }
        isk_dwarf_seq *q = &VEC_LAST(&seqs);
        rows[i] = (isk_dwarf_erow){ (uint64_t)(s->address - first) * unit, file, (uint32_t)s->line, 0 };
        q->nrows++;
        q->end = rows[i].offset + unit;
    }
    isk_bytes bytes = { 0 };
    uint64_t *addr_at = isk_xcalloc(seqs.len ? seqs.len : 1, sizeof *addr_at);
    isk_dwarf_line_encode(&bytes, o->big_endian, 4, (int)(unit < 256 ? unit : 1), (const char *const *)p->files.data,
                          p->files.len, seqs.data, seqs.len, addr_at);
    isk_obj_append(o, isk_obj_section(o, ".debug_line", SHT_PROGBITS, 0, 1), bytes.data, bytes.len);
    free(addr_at);
    VEC_FREE(&bytes);
    VEC_FREE(&seqs);
    free(rows);
    free(sorted);
}

isk_obj *psm_program_obj(const psm_program *p, const isk_model *m, const char *path)
{
    isk_obj *o = isk_obj_new(path, ELFCLASS32, 0, 0, ET_EXEC);
    uint32_t text = isk_obj_add_section(o, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 1);
    for (size_t i = 0; i < p->symbols.len; i++) {
        const psm_symbol *ps = &p->symbols.data[i];
        uint64_t addr;
        if (ps->kind != PSM_LABEL || ps->value < 0 || !isk_pc_to_addr(m, (uint64_t)ps->value, &addr)) continue;
        uint32_t sym = isk_obj_symbol(o, ps->name);
        isk_obj_define(o, sym, text, addr);
        isk_obj_set_binding(o, sym, STB_GLOBAL);
    }
    add_lines(o, m, p);
    return o;
}

void psm_keep_loaded(isk_inst *inst, const char *path, const psm_program *p, isk_diag *diag)
{
    isk_obj *o = psm_program_obj(p, isk_inst_model(inst), path);
    isk_loaded_keep(inst, o, diag);
    isk_obj_free(o);
}
