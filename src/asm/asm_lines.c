/* Line information: every instruction word the assembler emits is noted with the source line it
 * came from, and the end turns the notes into DWARF .debug_line (asm/dwarf_line.h).
 *
 * Addresses in an object: each code section is one sequence whose DW_LNE_set_address operand is
 * relocated against the section's symbol with the model's plain data relocation of the address
 * size (R_DPU_32, R_IPU_32, ...), as GNU as does; the linker applies it like any other (without
 * the model's address conversion: debug data holds plain byte addresses, the ones the symbols
 * use). A model that declares no relocations links nothing and its sections start at 0, so the
 * section offset is the address. A model with relocations but none of that kind gets no line
 * information (a warning says so). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm_int.h"
#include "asm/dwarf_line.h"

static uint32_t file_index(isk_asm *a, const char *name)
{
    for (size_t i = a->lines.files.len; i-- > 0;)          /* interned: equal names share a pointer */
        if (a->lines.files.data[i] == name) return (uint32_t)i;
    VEC_PUSH(&a->lines.files, name);
    return (uint32_t)(a->lines.files.len - 1);
}

void asm_line_note(isk_asm *a, uint64_t offset)
{
    if (a->opt.no_lines) return;
    asm_line_row r = { .sec = a->sec, .offset = offset };
    if (a->lines.loc) {
        r.file = a->lines.file;
        r.line = a->lines.line;
        r.col = a->lines.col;
    } else {
        const asm_pos *p = &a->pos;
        while (p->expansion >= 0 && (size_t)p->expansion < a->expansions.len)    /* a macro's: its call */
            p = &a->expansions.data[p->expansion].call;
        if (!p->file || p->line <= 0) return;
        /* the file of the last row, mostly: no interning (a hash) per instruction */
        const asm_line_row *l = a->lines.rows.len ? &VEC_LAST(&a->lines.rows) : NULL;
        if (l && strcmp(a->lines.files.data[l->file], p->file) == 0) r.file = l->file;
        else r.file = file_index(a, asm_intern(a, p->file));
        r.line = (uint32_t)p->line;
    }
    if (a->lines.rows.len) {                 /* the same line goes on: no new row */
        const asm_line_row *l = &VEC_LAST(&a->lines.rows);
        if (l->sec == r.sec && l->file == r.file && l->line == r.line && l->col == r.col) return;
    }
    VEC_PUSH(&a->lines.rows, r);
}

void asm_line_file(isk_asm *a, uint64_t n, const char *name, const char *at)
{
    if (n > 100000) {
        asm_error(a, at, ".file number %" PRIu64 ": 0 to 100000", n);
        return;
    }
    while (a->lines.numbered.len <= n) VEC_PUSH(&a->lines.numbered, -1);
    a->lines.numbered.data[n] = (int32_t)file_index(a, asm_intern(a, name));
}

void asm_line_loc(isk_asm *a, uint64_t n, uint64_t line, uint64_t col, const char *at)
{
    if (n >= a->lines.numbered.len || a->lines.numbered.data[n] < 0) {
        asm_error(a, at, ".loc: file %" PRIu64 " was not declared by `.file %" PRIu64 " \"name\"`", n, n);
        return;
    }
    if (line > UINT32_MAX || col > UINT32_MAX) {
        asm_error(a, at, ".loc: line or column above %" PRIu32, UINT32_MAX);
        return;
    }
    a->lines.loc = true;
    a->lines.file = (uint32_t)a->lines.numbered.data[n];
    a->lines.line = (uint32_t)line;
    a->lines.col = (uint32_t)col;
}

static int by_section(const void *x, const void *y)
{
    const asm_line_row *p = x, *q = y;
    if (p->sec != q->sec) return p->sec < q->sec ? -1 : 1;
    return p->offset < q->offset ? -1 : p->offset > q->offset;
}

void asm_line_finish(isk_asm *a)
{
    size_t nrows = a->lines.rows.len;
    if (!nrows || !a->obj) return;
    isk_obj *o = a->obj;
    const isk_model *m = a->m;
    int addr_size = o->elfclass == ELFCLASS64 ? 8 : 4, reloc = -1;
    if (m->relocs.len && (reloc = asm_data_reloc(m, addr_size)) < 0) {
        isk_warning(a->diag, NULL, "%s: no line information: model '%s' declares no %d-byte data relocation for "
                    "the code addresses of .debug_line", o->filename, m->name, addr_size);
        return;
    }
    /* One sequence per code section, in section order; a section's rows are in offset order
     * already, as code is only ever appended, and the sort keeps them so. */
    asm_line_row *sorted = isk_xcalloc(nrows, sizeof *sorted);
    memcpy(sorted, a->lines.rows.data, nrows * sizeof *sorted);
    bool in_order = true;                /* one code section, mostly: no sort */
    for (size_t i = 1; i < nrows && in_order; i++) in_order = by_section(&sorted[i - 1], &sorted[i]) < 0;
    if (!in_order) qsort(sorted, nrows, sizeof *sorted, by_section);
    VEC(isk_dwarf_seq) seqs = { 0 };
    VEC(uint32_t) secs = { 0 };
    isk_dwarf_erow *rows = isk_xcalloc(nrows, sizeof *rows);
    uint64_t min_insn = a->pc_unit > 0 && a->pc_unit < 256 ? (uint64_t)a->pc_unit : 1;
    for (size_t i = 0; i < nrows; i++) {
        const asm_line_row *r = &sorted[i];
        if (!i || r->sec != sorted[i - 1].sec) {
            VEC_PUSH(&seqs, ((isk_dwarf_seq){ .rows = rows + i, .end = o->secs.data[r->sec].size }));
            VEC_PUSH(&secs, r->sec);
            if (VEC_LAST(&seqs).end % min_insn) min_insn = 1;
        }
        rows[i] = (isk_dwarf_erow){ r->offset, r->file, r->line, r->col };
        VEC_LAST(&seqs).nrows++;
        if (r->offset % min_insn) min_insn = 1;          /* a misaligned word (warned about): byte steps */
    }
    free(sorted);
    isk_bytes bytes = { 0 };
    uint64_t *addr_at = isk_xcalloc(seqs.len, sizeof *addr_at);
    isk_dwarf_line_encode(&bytes, o->big_endian, addr_size, (int)min_insn, a->lines.files.data, a->lines.files.len,
                          seqs.data, seqs.len, addr_at);
    uint32_t dl = isk_obj_section(o, ".debug_line", SHT_PROGBITS, 0, 1);
    uint64_t base = isk_obj_append(o, dl, bytes.data, bytes.len);
    for (size_t i = 0; reloc >= 0 && i < seqs.len; i++)
        isk_obj_add_reloc(o, dl, base + addr_at[i], m->relocs.data[reloc].d.type, isk_obj_section_symbol(o, secs.data[i]),
                          0);
    free(addr_at);
    VEC_FREE(&bytes);
    free(rows);
    VEC_FREE(&seqs);
    VEC_FREE(&secs);
}

void asm_line_free(isk_asm *a)
{
    VEC_FREE(&a->lines.rows);
    VEC_FREE(&a->lines.files);
    VEC_FREE(&a->lines.numbered);
}
