#include "asm/disasm.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/dwarf_line.h"
#include "asm/syntax.h"
#include "base/file.h"
#include "elf/elf_file.h"
#include "elf/image.h"

bool isk_disasm_word(const isk_model *m, uint64_t word, uint64_t pc, char *out, size_t cap)
{
    int64_t ops[ISK_MAX_OPS];
    int p = (m->word_bits < 64 && (word >> m->word_bits)) ? -1 : isk_model_decode(m, word, ops);
    if (p >= 0) {
        int shown = isk_syntax_display_pattern(m, p, word);
        if (isk_syntax_print(m, shown, word, pc, out, cap)) return true;
    }
    snprintf(out, cap, ".inst 0x%" PRIx64, word);
    return false;
}

bool isk_disasm_group(const isk_model *m, const uint64_t *words, int n, uint64_t pc, char *out, size_t cap)
{
    bool ok = true;
    size_t len = 0;
    const uint64_t step = (uint64_t)(isk_asm_insn_bytes(m) / isk_asm_pc_unit_bytes(m));
    for (int i = 0; i < n; i++) {
        char text[256];
        ok &= isk_disasm_word(m, words[i], pc + (uint64_t)i * step, text, sizeof text);
        int k = snprintf(out + len, cap - len, "%s%s", i ? " ; " : "{ ", text);
        if (k < 0 || (size_t)k >= cap - len) return false;
        len += (size_t)k;
    }
    snprintf(out + len, cap - len, " }");
    return ok;
}

/* ---- symbols as labels ----------------------------------------------------------------------- */

typedef struct label { uint64_t addr; const char *name; uint32_t sec; } label;

static int cmp_label(const void *a, const void *b)
{
    const label *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return strcmp(x->name, y->name);
}

static bool is_label(const isk_symbol *s)
{
    return s->name[0] && s->type != STT_SECTION && s->type != STT_FILE && s->shndx != ISK_SHN_UNDEF &&
           s->shndx != ISK_SHN_ABS && s->shndx != ISK_SHN_COMMON;
}

/* Labels of the object, sorted by address (section offset in objects). */
static label *collect_labels(const isk_obj *o, size_t *n)
{
    label *l = isk_xcalloc(o->syms.len + 1, sizeof *l);
    *n = 0;
    for (size_t i = 1; i < o->syms.len; i++) {
        const isk_symbol *s = &o->syms.data[i];
        if (is_label(s) && s->shndx < o->secs.len) l[(*n)++] = (label){ s->value, s->name, s->shndx };
    }
    qsort(l, *n, sizeof *l, cmp_label);
    return l;
}

/* The label at or before addr (in the same section for objects); NULL if none. */
static const label *label_before(const label *l, size_t n, uint64_t addr, uint32_t sec, bool exec)
{
    size_t lo = 0, hi = n;                  /* first label above addr */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (l[mid].addr <= addr) lo = mid + 1;
        else hi = mid;
    }
    while (lo > 0) {
        const label *c = &l[--lo];
        if (exec || c->sec == sec) return c;
    }
    return NULL;
}

static const char *reloc_name(const isk_model *m, uint32_t type)
{
    for (size_t i = 0; i < m->relocs.len; i++)
        if (m->relocs.data[i].d.type == type) return m->relocs.data[i].d.name;
    return NULL;
}

static int cmp_reloc(const void *a, const void *b)
{
    const isk_obj_reloc *x = *(const isk_obj_reloc *const *)a, *y = *(const isk_obj_reloc *const *)b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

/* The relocations of [from, to), from a list sorted by offset; *next walks along it. */
static void print_relocs(const isk_model *m, const isk_obj *o, const isk_section *s, const isk_obj_reloc *const *sorted,
                         size_t *next, uint64_t from, uint64_t to, FILE *out)
{
    for (; *next < s->relocs.len && sorted[*next]->offset < to; ++*next) {
        const isk_obj_reloc *rl = sorted[*next];
        if (rl->offset < from) continue;
        const char *rn = reloc_name(m, rl->type);
        char tbuf[32];
        if (!rn) snprintf(tbuf, sizeof tbuf, "type %u", rl->type), rn = tbuf;
        const char *sym = "";
        if (rl->sym < o->syms.len) {
            const isk_symbol *y = &o->syms.data[rl->sym];
            sym = y->type == STT_SECTION && y->shndx < o->secs.len ? o->secs.data[y->shndx].name : y->name;
        }
        fprintf(out, "\t\t\t%" PRIx64 ": %s\t%s", s->addr + rl->offset, rn, sym);
        if (rl->addend > 0) fprintf(out, "+0x%" PRIx64, (uint64_t)rl->addend);
        else if (rl->addend < 0) fprintf(out, "-0x%" PRIx64, (uint64_t)0 - (uint64_t)rl->addend);
        fputc('\n', out);
    }
}

/* Is addr in a code region of the model? */
static bool in_code_region(const isk_model *m, uint64_t addr)
{
    const isk_map_region *r = isk_addr_region(m, addr);
    return r && r->code;
}

/* The base of the region holding addr (executables), so that PCs count from it. */
static uint64_t pc_base(const isk_model *m, const isk_obj *o, uint64_t addr)
{
    const isk_map_region *r = o->type == ET_EXEC ? isk_addr_region(m, addr) : NULL;
    return r ? r->base : 0;
}

/* The word of `unit` bytes at off, and whether all its bytes are there. */
static uint64_t word_at(const isk_obj *o, const isk_section *s, uint64_t off, int unit, bool *whole)
{
    uint8_t cell[8] = { 0 };
    uint64_t n = s->size - off < (uint64_t)unit ? s->size - off : (uint64_t)unit;
    memcpy(cell, s->data + off, (size_t)n);
    uint64_t word = 0;
    for (int i = 0; i < unit; i++) word |= (uint64_t)cell[o->big_endian ? unit - 1 - i : i] << (8 * i);
    *whole = n == (uint64_t)unit;
    return word;
}

/* Code targets of an instruction (PC-relative ones; in executables also absolute ones that fall
 * into the code region: the DPU's instruction indexes) named by the label at or before them. */
static void print_targets(const isk_model *m, uint64_t word, uint64_t pc, uint64_t base, bool exec, uint32_t si,
                          const label *labels, size_t nlabels, FILE *out)
{
    int64_t ops[ISK_MAX_OPS];
    int p = isk_model_decode(m, word, ops);
    if (p < 0) return;
    int pcu = isk_asm_pc_unit_bytes(m);
    const isk_pattern *pt = &m->patterns.data[isk_syntax_display_pattern(m, p, word)];
    for (int f = 0; f < pt->nfields; f++) {
        const isk_field *fl = &pt->field[f];
        int type = fl->kind >= 0 ? m->kinds.data[fl->kind].d.type : -1;
        if (type != ISK_KIND_PCREL && !(type == ISK_KIND_ABS && exec)) continue;
        uint64_t target = (uint64_t)isk_syntax_operand_value(m, fl, word, pc) * (uint64_t)pcu;
        /* a PC counts from the region's base (the DPU's instruction index); an absolute operand
         * already inside the code region is a byte address in it (the IPU's branch targets) */
        if (type == ISK_KIND_PCREL || !in_code_region(m, target)) target += base;
        if (type == ISK_KIND_ABS && !in_code_region(m, target)) continue;
        uint64_t tkey = exec ? target : target - base;
        const label *l = label_before(labels, nlabels, tkey, si, exec);
        if (!l) continue;
        if (tkey == l->addr) fprintf(out, " <%s>", l->name);
        else fprintf(out, " <%s+0x%" PRIx64 ">", l->name, tkey - l->addr);
    }
}

/* The words of an issue group at off (its head has the group bit, it starts at a multiple of
 * group_align words and fits in the section): how many, else 0. The listing walks from the
 * section's start and steps over a whole group, so a group begins at the first head word after
 * the previous instruction or group: with .group_all the members carry the bit too, and are
 * never taken for heads, since they are consumed with theirs. */
static int group_at(const isk_model *m, const isk_obj *o, const isk_section *s, uint64_t off, uint64_t head,
                    uint64_t *words)
{
    int unit = isk_asm_insn_bytes(m), n = m->proc.group_words;
    uint64_t size = (uint64_t)n * (uint64_t)unit, align = (uint64_t)m->proc.group_align * (uint64_t)unit;
    if (!isk_group_head(m, head) || (s->addr + off) % align || off + size > s->size) return 0;
    bool whole;
    for (int i = 0; i < n; i++) words[i] = word_at(o, s, off + (uint64_t)i * (uint64_t)unit, unit, &whole);
    return n;
}

/* ---- line numbers (-l) ------------------------------------------------------------------ */

/* Where a source line starts: section sec (0 in executables, whose keys are addresses) at key. */
typedef struct line_mark { uint32_t sec; uint64_t key; const char *file; uint32_t line; } line_mark;
typedef struct line_marks { isk_dwarf_lines d; line_mark *m; size_t n; } line_marks;
static int by_mark(const void *a, const void *b)
{
    const line_mark *x = a, *y = b;
    if (x->sec != y->sec) return x->sec < y->sec ? -1 : 1;
    return x->key < y->key ? -1 : x->key > y->key;
}

static void read_marks(const isk_obj *o, line_marks *lm)
{
    char err[200];
    if (!isk_obj_lines(o, &lm->d, err, sizeof err)) {
        fprintf(stderr, "%s: warning: .debug_line: %s; no line numbers\n", o->filename, err);
        return;
    }
    /* An object of a model without relocations has plain offsets: its code section's. */
    uint32_t code = 0;
    for (uint32_t k = 1; k < o->secs.len && !code; k++)
        if (o->secs.data[k].flags & SHF_EXECINSTR) code = k;
    lm->m = isk_xcalloc(lm->d.rows.len + 1, sizeof *lm->m);
    for (size_t r = 0; r < lm->d.rows.len; r++) {
        const isk_dwarf_row *w = &lm->d.rows.data[r];
        if (w->end) continue;
        const char *f = w->file < lm->d.files.len ? lm->d.files.data[w->file] : "??";
        lm->m[lm->n++] = (line_mark){ o->type == ET_EXEC ? 0 : w->sec ? w->sec : code, w->addr, f, w->line };
    }
    qsort(lm->m, lm->n, sizeof *lm->m, by_mark);
}

static void list_section(const isk_model *m, const isk_obj *o, uint32_t si, const label *labels, size_t nlabels,
                         const line_marks *lm, FILE *out, const isk_disasm_options *opt)
{
    const isk_section *s = &o->secs.data[si];
    int unit = isk_asm_insn_bytes(m), pcu = isk_asm_pc_unit_bytes(m);
    int digits = (m->word_bits + 3) / 4;
    bool exec = o->type == ET_EXEC;
    if (!opt->plain) fprintf(out, "\nDisassembly of section %s:\n", s->name);
    if (s->type == SHT_NOBITS || !s->data) {
        if (!opt->plain) fprintf(out, "\t...\n");
        return;
    }
    uint64_t base = pc_base(m, o, s->addr);
    const isk_obj_reloc **sorted = isk_xcalloc(s->relocs.len + 1, sizeof *sorted);
    for (size_t r = 0; r < s->relocs.len; r++) sorted[r] = &s->relocs.data[r];
    qsort(sorted, s->relocs.len, sizeof *sorted, cmp_reloc);
    size_t next_reloc = 0, next_label = 0, next_mark = 0;
    uint32_t mark_sec = exec ? 0 : si;
    for (uint64_t off = 0; off < s->size;) {
        uint64_t addr = s->addr + off;
        uint64_t key = exec ? addr : off;
        while (next_mark < lm->n && by_mark(&lm->m[next_mark], &(line_mark){ mark_sec, key, NULL, 0 }) < 0) next_mark++;
        /* Labels are sorted by address: walk along them. */
        while (next_label < nlabels && labels[next_label].addr < key) next_label++;
        for (size_t i = next_label; i < nlabels && labels[i].addr == key && !opt->plain; i++)
            if (exec || labels[i].sec == si)
                fprintf(out, "\n%0*" PRIx64 " <%s>:\n", o->elfclass == ELFCLASS64 ? 16 : 8, addr, labels[i].name);
        bool whole;
        uint64_t words[4];
        words[0] = word_at(o, s, off, unit, &whole);
        uint64_t pc = (addr - base) / (uint64_t)pcu;
        int n = whole ? group_at(m, o, s, off, words[0], words) : 0;
        char text[1024];
        if (!whole) snprintf(text, sizeof text, ".byte (%" PRIu64 " trailing bytes)", s->size - off);
        else if (n) isk_disasm_group(m, words, n, pc, text, sizeof text);
        else isk_disasm_word(m, words[0], pc, text, sizeof text);
        if (!n) n = 1;
        uint64_t step = (uint64_t)n * (uint64_t)unit;
        if (opt->plain) {
            fprintf(out, "%s\n", text);
            off += step;
            continue;
        }
        for (; next_mark < lm->n && lm->m[next_mark].sec == mark_sec && lm->m[next_mark].key < key + step; next_mark++)
            if (lm->m[next_mark].key == key) fprintf(out, "%s:%" PRIu32 "\n", lm->m[next_mark].file, lm->m[next_mark].line);
        fprintf(out, "%8" PRIx64 ":\t", addr);
        for (int i = 0; i < n && !opt->no_raw; i++) fprintf(out, "%0*" PRIx64 "%s", digits, words[i], i + 1 < n ? " " : "\t");
        fprintf(out, "%s", text);
        for (int i = 0; i < n && whole; i++)
            print_targets(m, words[i], pc + (uint64_t)i * (uint64_t)unit / (uint64_t)pcu, base, exec, si, labels,
                          nlabels, out);
        fputc('\n', out);
        if (opt->relocs) print_relocs(m, o, s, sorted, &next_reloc, off, off + step, out);
        off += step;
    }
    free(sorted);
}

void isk_disasm_obj(const isk_model *m, const isk_obj *o, FILE *out, const isk_disasm_options *opt)
{
    isk_disasm_options none = { 0 };
    if (!opt) opt = &none;
    size_t nlabels;
    label *labels = collect_labels(o, &nlabels);
    line_marks lm = { 0 };
    if (opt->lines) read_marks(o, &lm);
    bool image = o->type == ET_EXEC && o->phdrs.len == 0;      /* binary, HEX, word lists */
    for (uint32_t i = 1; i < o->secs.len; i++) {
        const isk_section *s = &o->secs.data[i];
        bool code = (s->flags & SHF_EXECINSTR) || ((s->flags & SHF_ALLOC) && (opt->all_sections || image));
        if (code && s->size) list_section(m, o, i, labels, nlabels, &lm, out, opt);
    }
    free(lm.m);
    isk_dwarf_lines_free(&lm.d);
    free(labels);
}

void isk_disasm_sections(const isk_obj *o, FILE *out)
{
    fprintf(out, "Sections:\nIdx Name                 Size      Address   Align  Flags\n");
    for (size_t i = 1; i < o->secs.len; i++) {
        const isk_section *s = &o->secs.data[i];
        char flags[8] = "", *f = flags;
        if (s->flags & SHF_ALLOC) *f++ = 'A';
        if (s->flags & SHF_WRITE) *f++ = 'W';
        if (s->flags & SHF_EXECINSTR) *f++ = 'X';
        if (s->type == SHT_NOBITS) *f++ = 'N';
        *f = 0;
        fprintf(out, "%3zu %-20s %08" PRIx64 "  %08" PRIx64 "  %-5" PRIu64 "  %s%s\n", i - 1, s->name, s->size, s->addr,
                s->align, flags, s->relocs.len ? " (relocations)" : "");
    }
}

void isk_disasm_symbols(const isk_obj *o, FILE *out)
{
    fprintf(out, "SYMBOL TABLE:\n");
    for (size_t i = 1; i < o->syms.len; i++) {
        const isk_symbol *s = &o->syms.data[i];
        if (s->type == STT_SECTION) continue;
        const char *sec = s->shndx == ISK_SHN_UNDEF ? "*UND*" : s->shndx == ISK_SHN_ABS ? "*ABS*"
                        : s->shndx == ISK_SHN_COMMON ? "*COM*" : s->shndx < o->secs.len ? o->secs.data[s->shndx].name
                        : "?";
        char bind = s->bind == STB_GLOBAL ? 'g' : s->bind == STB_WEAK ? 'w' : 'l';
        char type = s->type == STT_FUNC ? 'F' : s->type == STT_OBJECT ? 'O' : ' ';
        fprintf(out, "%08" PRIx64 " %c     %c %-12s %08" PRIx64 " %s\n", s->value, bind, type, sec, s->size, s->name);
    }
}

/* ---- inputs ------------------------------------------------------------------------------ */

/* Words of a list into code sections: a new one where the address jumps. */
typedef struct words_sink {
    isk_obj *o;
    uint64_t base, next;
    uint32_t sec;
    int unit;
    bool be;
} words_sink;

static int put_word(void *ctx, uint64_t addr, uint64_t word, const isk_loc *loc, isk_diag *diag)
{
    (void)loc, (void)diag;
    words_sink *w = ctx;
    if (!w->sec || addr != w->next) {
        char name[32];
        snprintf(name, sizeof name, ".words%zu", w->o->secs.len - 1);
        w->sec = isk_obj_add_section(w->o, name, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, (uint64_t)w->unit);
        w->o->secs.data[w->sec].addr = w->base + addr * (uint64_t)w->unit;
    }
    uint8_t cell[8];
    for (int b = 0; b < w->unit; b++) cell[w->be ? w->unit - 1 - b : b] = (uint8_t)(word >> (8 * b));
    isk_obj_append(w->o, w->sec, cell, (size_t)w->unit);
    w->next = addr + 1;
    return 0;
}

isk_obj *isk_words_read_mem(const isk_model *m, const char *text, size_t n, const char *filename, isk_diag *diag)
{
    words_sink w = { .unit = isk_asm_insn_bytes(m), .be = m->has_elf && m->elf.big_endian };
    if (m->map.code_region >= 0) w.base = m->map.regions.data[m->map.code_region].base;   /* word 0 is PC 0 */
    w.o = isk_obj_new(filename, m->has_elf && m->elf.elfclass == 64 ? ELFCLASS64 : ELFCLASS32, w.be,
                      m->has_elf ? m->elf.machine : 0, ET_EXEC);
    w.o->flags = m->has_elf ? m->elf.flags : 0;
    if (isk_words_parse(text, n, filename, 16, m->word_bits, put_word, &w, diag) != 0) {
        isk_obj_free(w.o);
        return NULL;
    }
    return w.o;
}

isk_obj *isk_disasm_read_file(const isk_model *m, const char *path, const char *format, uint64_t base,
                              isk_diag *diag)
{
    uint8_t *data;
    size_t size;
    if (isk_file_read_all(path, &data, &size, diag) != 0) return NULL;
    isk_obj *o = NULL;
    if (!format) {
        size_t k = 0;
        while (k < size && isspace(data[k])) k++;
        format = size >= 4 && data[0] == 0x7f && data[1] == 'E' && data[2] == 'L' && data[3] == 'F' ? "elf"
               : k < size && data[k] == ':' ? "ihex" : isk_words_look_like(data, size) ? "words" : "binary";
    }
    /* Text formats refuse binary data with one line, not a garbled error per line. */
    if (strcmp(format, "elf") == 0) {
        o = isk_elf_read_mem(data, size, path, diag);
    } else if (strcmp(format, "ihex") == 0) {
        if (isk_file_check_text(path, "an Intel-HEX file", (const char *)data, size, diag) == 0)
            o = isk_ihex_read_mem((const char *)data, size, path, diag);
    } else if (strcmp(format, "words") == 0) {
        if (isk_file_check_text(path, "a word list", (const char *)data, size, diag) == 0)
            o = isk_words_read_mem(m, (const char *)data, size, path, diag);
    } else if (strcmp(format, "binary") == 0) {
        o = isk_binary_to_obj(data, size, base, path);
    } else {
        isk_error(diag, NULL, "unknown input format '%s' (elf, ihex, words or binary)", format);
    }
    free(data);
    if (o && strcmp(format, "elf") != 0) {
        o->big_endian = m->has_elf && m->elf.big_endian;
        o->machine = m->has_elf ? m->elf.machine : 0;
    }
    return o;
}
