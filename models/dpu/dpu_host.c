/* The host side of the DPU model (dpu_host.h): executables, the runtime, printf output.
 * Facts: elf-abi.md 1 (header), 2 (addresses), 4 (.dpu.attributes), 6 (symbols), 10 (printf). */
#include "dpu_host.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/link_model.h"
#include "asm/load.h"
#include "asm/syntax.h"
#include "elf/elf_file.h"
#include "isekit/sim.h"

#include "dpu.h"

/* ---- reading and checking --------------------------------------------------------------------- */

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

/* .dpu.attributes (elf-abi.md 4): 'A', u32 length, "upmem\0", then sub-subsections
 * (tag 1 = File: u32 length, then ULEB128 tag / value pairs; tag 5 is the CPU name). */
static int read_attributes(dpu_program *p, const isk_section *s, const isk_loc *loc, isk_diag *diag)
{
    const uint8_t *d = s->data;
    uint64_t n = s->size;
    if (!d || n < 1 || d[0] != 'A') {
        isk_error(diag, loc, ".dpu.attributes: not a build-attributes section (format byte 0x%02x)", d && n ? d[0] : 0);
        return -1;
    }
    uint64_t at = 1;
    while (at + 4 <= n) {
        uint32_t len = rd32(d + at);
        if (len < 4 || at + len > n) {
            isk_error(diag, loc, ".dpu.attributes: subsection at offset %" PRIu64 " has a bad length %u", at, len);
            return -1;
        }
        const uint8_t *sub = d + at + 4, *end = d + at + len;
        const uint8_t *vendor_end = memchr(sub, 0, (size_t)(end - sub));
        if (!vendor_end) {
            isk_error(diag, loc, ".dpu.attributes: unterminated vendor name");
            return -1;
        }
        bool upmem = strcmp((const char *)sub, "upmem") == 0;
        const uint8_t *q = vendor_end + 1;
        while (upmem && q + 5 <= end) {
            uint8_t tag = *q;
            uint32_t sublen = rd32(q + 1);
            if (sublen < 5 || q + sublen > end) {
                isk_error(diag, loc, ".dpu.attributes: attribute block with a bad length %u", sublen);
                return -1;
            }
            const uint8_t *a = q + 5, *aend = q + sublen;
            while (tag == 1 && a < aend) {
                uint64_t t = 0;
                int shift = 0;
                while (a < aend && (*a & 0x80) && shift < 63) t |= (uint64_t)(*a++ & 0x7f) << shift, shift += 7;
                if (a >= aend) break;
                t |= (uint64_t)(*a++ & 0x7f) << shift;
                if (t != 5) break;           /* the only attribute the DPU defines */
                const uint8_t *z = memchr(a, 0, (size_t)(aend - a));
                if (!z) {
                    isk_error(diag, loc, ".dpu.attributes: unterminated CPU name");
                    return -1;
                }
                snprintf(p->chip, sizeof p->chip, "%s", (const char *)a);
                a = z + 1;
            }
            q += sublen;
        }
        at += len;
    }
    if (p->chip[0] && strcmp(p->chip, "v1A") != 0 && strcmp(p->chip, "v1B") != 0) {
        isk_error(diag, loc, ".dpu.attributes: unknown DPU version '%s' (isekit simulates v1A and v1B)", p->chip);
        return -1;
    }
    return 0;
}

bool dpu_symbol(const dpu_program *p, const char *name, uint64_t *value)
{
    if (!p->exe) return false;
    uint32_t i = isk_obj_lookup(p->exe, name);
    if (!i || p->exe->syms.data[i].shndx == ISK_SHN_UNDEF) return false;
    *value = p->exe->syms.data[i].value;
    return true;
}

int dpu_program_from_obj(dpu_program *p, isk_obj *exe, isk_diag *diag)
{
    memset(p, 0, sizeof *p);
    p->exe = exe;
    isk_loc loc = { .file = exe->filename && *exe->filename ? exe->filename : "<executable>" };
    if (exe->machine != DPU_EM) {
        isk_error(diag, &loc, "not a DPU executable: e_machine is %u (0x%x), a DPU's is %u (0x%x, EM_DPU)", exe->machine,
                  exe->machine, DPU_EM, DPU_EM);
        goto fail;
    }
    if (exe->type != ET_EXEC) {
        isk_error(diag, &loc, "not an executable (ELF type %u): link the objects first (isekit ld -m dpu)", exe->type);
        goto fail;
    }
    if (exe->elfclass != ELFCLASS32 || exe->big_endian) {
        isk_error(diag, &loc, "a DPU executable is ELFCLASS32 little-endian; this one is %d-bit %s-endian",
                  exe->elfclass == ELFCLASS32 ? 32 : 64, exe->big_endian ? "big" : "little");
        goto fail;
    }
    if (!(exe->flags & 0x00800000u)) {
        isk_error(diag, &loc, "e_flags 0x%08x carry no ABI version (bit 23 clear); isekit runs DPU ABI version %d",
                  exe->flags, DPU_ABI_VERSION);
        goto fail;
    }
    if ((exe->flags >> 24) != DPU_ABI_VERSION) {
        isk_error(diag, &loc, "DPU ABI version %u (e_flags 0x%08x); isekit runs ABI version %d", exe->flags >> 24,
                  exe->flags, DPU_ABI_VERSION);
        goto fail;
    }
    for (size_t i = 1; i < exe->secs.len; i++) {
        const isk_section *s = &exe->secs.data[i];
        if (s->type == 0x70000003u || strcmp(s->name, ".dpu.attributes") == 0) {
            if (read_attributes(p, s, &loc, diag) != 0) goto fail;
            continue;
        }
    }
    uint64_t v;
    if (dpu_symbol(p, "NR_TASKLETS", &v)) {
        if (v < 1 || v > DPU_THREADS) {
            isk_error(diag, &loc, "NR_TASKLETS is %" PRIu64 ": a DPU runs 1..%d tasklets", v, DPU_THREADS);
            goto fail;
        }
        p->nr_tasklets = (int)v;
    }
    for (int t = 0; t < DPU_THREADS; t++) {
        char name[32];
        snprintf(name, sizeof name, "STACK_SIZE_TASKLET_%d", t);
        if (dpu_symbol(p, name, &v)) p->stack_size[t] = (uint32_t)v;
    }
    return 0;
fail:
    isk_obj_free(exe);
    p->exe = NULL;
    return -1;
}

int dpu_program_open(dpu_program *p, const char *path, isk_diag *diag)
{
    memset(p, 0, sizeof *p);
    isk_obj *exe = isk_elf_read_file(path, diag);
    if (!exe) return -1;
    return dpu_program_from_obj(p, exe, diag);
}

void dpu_program_close(dpu_program *p)
{
    isk_obj_free(p->exe);
    memset(p, 0, sizeof *p);
}

/* ---- loading ----------------------------------------------------------------------------------- */

int dpu_program_load(isk_inst *dpu, const dpu_program *p, isk_diag *diag)
{
    isk_loc loc = { .file = p->exe->filename && *p->exe->filename ? p->exe->filename : "<executable>" };
    if (p->chip[0] && isk_set_param(dpu, "chip", p->chip) != ISK_OK) return -1;
    const struct isk_state *S = (const struct isk_state *)(const void *)isk_inst_state(dpu);
    const char *chip = S->v1b ? "v1B" : "v1A";
    /* How far the sections reach into each memory, through the model's address map (a section
     * outside every region is the loader's to report). */
    const isk_model *m = isk_inst_model(dpu);
    int iram = isk_model_find_storage(m, "IRAM"), wram = isk_model_find_storage(m, "WRAM");
    int mram = isk_model_find_storage(m, "MRAM");
    uint64_t iram_insns = 0, wram_end = 0, mram_end = 0;
    for (size_t i = 1; i < p->exe->secs.len; i++) {
        const isk_section *s = &p->exe->secs.data[i];
        const isk_map_region *r = s->flags & SHF_ALLOC && s->size ? isk_addr_region(m, s->addr) : NULL;
        if (!r) continue;
        uint64_t end = s->addr + s->size - r->base;
        uint64_t *reach = r->storage == iram ? &iram_insns : r->storage == wram ? &wram_end
                        : r->storage == mram ? &mram_end : NULL;
        if (r->storage == iram) end = (end + (uint64_t)r->cell_bytes - 1) / (uint64_t)r->cell_bytes;
        if (reach && end > *reach) *reach = end;
    }
    if (iram_insns > S->iram_insns) {
        isk_error(diag, &loc, "program too large: its code needs %" PRIu64 " instructions, the IRAM of a %s DPU holds %u",
                  iram_insns, chip, (unsigned)S->iram_insns);
        return -1;
    }
    if (wram_end > S->wram_bytes) {
        isk_error(diag, &loc, "program too large: its data needs %" PRIu64 " bytes of WRAM (stacks included), a %s "
                  "DPU has %u", wram_end, chip, (unsigned)S->wram_bytes);
        return -1;
    }
    if (mram_end > DPU_MRAM_BYTES) {
        isk_error(diag, &loc, "program too large: its MRAM sections need %" PRIu64 " bytes, the MRAM has %u",
                  mram_end, (unsigned)DPU_MRAM_BYTES);
        return -1;
    }
    if (p->nr_tasklets > (int)S->nthreads) {
        isk_error(diag, &loc, "NR_TASKLETS is %d: a %s DPU has %u threads", p->nr_tasklets, chip, (unsigned)S->nthreads);
        return -1;
    }
    isk_load_info info;
    if (isk_load_obj(dpu, p->exe, &info, diag) != 0) return -1;
    if (!info.started || info.entry_pc != 0) {
        isk_error(diag, &loc, "the entry point 0x%" PRIx64 " is not the first instruction of the IRAM (0x80000000): "
                  "the DPU starts thread 0 at instruction 0", info.entry);
        return -1;
    }
    return 0;
}

/* ---- printf output -------------------------------------------------------------------------- */

typedef struct strbuf { char *s; size_t len, cap; } strbuf;

static void sb_addn(strbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2 + 64;
        b->s = realloc(b->s, b->cap);
        if (!b->s) abort();
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

__attribute__((format(printf, 2, 3))) static void sb_printf(strbuf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0) sb_addn(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* Format one record: its descriptor at data[*at], then the items. Returns false at the end of
 * the data or on a malformed record. */
static bool format_record(strbuf *out, const uint8_t *data, size_t n, size_t *at)
{
    size_t pos = *at;
    const char *desc = (const char *)data + pos;
    const uint8_t *z = memchr(data + pos, 0, n - pos);
    if (!z) return false;
    pos = (size_t)(z - data) + 1;
    for (const char *d = desc; *d;) {
        if (*d != '%') {
            sb_addn(out, d, 1);      /* the descriptor holds only conversions; be lenient */
            d++;
            continue;
        }
        /* a conversion: %[flags][width][.precision][l...]conv */
        char spec[32] = "%";
        size_t sl = 1;
        int longs = 0;
        d++;
        while (*d && !strchr("diouxXcsfeEgGp%", *d)) {
            if (*d == 'l') longs++;
            else if (sl + 2 < sizeof spec && *d != 'L' && *d != 'h' && *d != 'z') spec[sl++] = *d;
            d++;
        }
        char conv = *d ? *d++ : 0;
        if (conv == '%') {
            sb_addn(out, "%", 1);
            continue;
        }
        if (conv == 's') {
            const uint8_t *e = memchr(data + pos, 0, n - pos);
            if (!e) return false;
            spec[sl++] = 's';
            spec[sl] = 0;
            char tmp[4096];
            int w = snprintf(tmp, sizeof tmp, spec, (const char *)data + pos);
            if (w > 0) sb_addn(out, tmp, (size_t)w < sizeof tmp ? (size_t)w : sizeof tmp - 1);
            pos = (size_t)(e - data) + 1;
        } else if (conv == 'c') {
            if (pos + 1 > n) return false;
            spec[sl++] = 'c';
            spec[sl] = 0;
            sb_printf(out, spec, data[pos]);
            pos += 1;
        } else if (strchr("feEgG", conv)) {
            if (pos + 8 > n) return false;
            uint64_t bits = (uint64_t)rd32(data + pos) | (uint64_t)rd32(data + pos + 4) << 32;
            double v;
            memcpy(&v, &bits, sizeof v);
            spec[sl++] = conv;
            spec[sl] = 0;
            sb_printf(out, spec, v);
            pos += 8;
        } else {
            unsigned bytes = longs ? 8 : 4;
            if (pos + bytes > n) return false;
            uint64_t v = rd32(data + pos);
            if (bytes == 8) v |= (uint64_t)rd32(data + pos + 4) << 32;
            pos += bytes;
            if (conv == 'p') {
                sb_printf(out, "0x%x", (unsigned)v);
                continue;
            }
            if (conv == 'i') conv = 'd';
            spec[sl++] = 'l';
            spec[sl++] = 'l';
            spec[sl++] = conv;
            spec[sl] = 0;
            if (conv == 'd') sb_printf(out, spec, bytes == 8 ? (long long)v : (long long)(int32_t)(uint32_t)v);
            else sb_printf(out, spec, (unsigned long long)v);
        }
    }
    *at = (pos + 7) & ~(size_t)7;    /* the next record starts 8-aligned */
    return true;
}

char *dpu_program_stdout(isk_inst *dpu, const dpu_program *p, size_t *len)
{
    strbuf out = { 0 };
    sb_addn(&out, "", 0);
    uint64_t buf, state, size_var;
    const struct isk_state *S = (const struct isk_state *)(const void *)isk_inst_state(dpu);
    /* The buffer is in the MRAM, its state and size in the WRAM: symbols to cells by the map. */
    const isk_model *m = isk_inst_model(dpu);
    int wram_si = isk_model_find_storage(m, "WRAM"), mram_si = isk_model_find_storage(m, "MRAM");
    isk_addr_cell b, st, sz;
    if (dpu_symbol(p, "__stdout_buffer", &buf) && dpu_symbol(p, "__stdout_buffer_state", &state) &&
        dpu_symbol(p, "__stdout_buffer_size", &size_var) && isk_addr_to_cell(m, buf, &b) && b.storage == mram_si &&
        isk_addr_to_cell(m, state, &st) && st.storage == wram_si && st.index + 8 <= S->wram_bytes &&
        isk_addr_to_cell(m, size_var, &sz) && sz.storage == wram_si && sz.index + 4 <= S->wram_bytes) {
        const uint8_t *wram = S->WRAM.v, *mram = S->MRAM.v;
        uint32_t wp = rd32(wram + st.index), wrapped = rd32(wram + st.index + 4), size = rd32(wram + sz.index);
        uint64_t base = b.index;
        if (size && base + size <= DPU_MRAM_BYTES && wp <= size) {
            /* the records in the order they were written: after a wrap, from wp round */
            size_t n = wrapped ? size : wp;
            uint8_t *data = malloc(n + 1);
            if (!data) abort();
            if (wrapped) {
                memcpy(data, mram + base + wp, size - wp);
                memcpy(data + (size - wp), mram + base, wp);
            } else {
                memcpy(data, mram + base, n);
            }
            size_t at = 0;
            while (at < n && format_record(&out, data, n, &at)) {}
            free(data);
        }
    }
    if (len) *len = out.len;
    return out.s;
}

/* ---- building with the runtime ------------------------------------------------------------------ */

extern const dpu_runtime_file dpu_runtime_table[];   /* generated by CMake from models/dpu/runtime */

const dpu_runtime_file *dpu_runtime_files(void) { return dpu_runtime_table; }

static const char *runtime_text(const char *name)
{
    for (const dpu_runtime_file *f = dpu_runtime_table; f->name; f++)
        if (strcmp(f->name, name) == 0) return f->text;
    return NULL;
}

static isk_obj *assemble_text(const isk_model *m, const isk_asm_options *opt, const char *name, const char *prefix,
                              const char *text, isk_diag *diag)
{
    isk_asm *a = isk_asm_new(m, name, opt, diag);
    bool ok = true;
    if (prefix) ok &= isk_asm_text(a, "<configuration>", prefix, strlen(prefix));
    ok &= isk_asm_text(a, name, text, strlen(text));
    isk_obj *o = ok ? isk_asm_finish(a) : NULL;
    isk_asm_free(a);
    return o;
}

static isk_obj *build(const isk_model *m, const char *const *paths, size_t n, const char *name, const char *text,
                      int nr_tasklets, int stack_size, isk_diag *diag)
{
    if (nr_tasklets < 1 || nr_tasklets > DPU_THREADS) {
        isk_error(diag, NULL, "NR_TASKLETS %d: a DPU runs 1..%d tasklets", nr_tasklets, DPU_THREADS);
        return NULL;
    }
    if (stack_size < 0 || stack_size % 8) {
        isk_error(diag, NULL, "stack size %d: a multiple of 8 bytes", stack_size);
        return NULL;
    }
    char config[128];
    snprintf(config, sizeof config, ".set NR_TASKLETS, %d\n.set STACK_SIZE_DEFAULT, %d\n", nr_tasklets,
             stack_size ? stack_size : 1024);
    const char *inc = runtime_text("dpu.inc");
    isk_obj *objs[64];
    size_t nobjs = 0;
    int errors = diag->errors;
    /* every source is assembled on its own, all with one syntax index of the model */
    isk_syntax_index *index = isk_syntax_index_new(m);
    const isk_asm_options opt = { .index = index };
    objs[nobjs++] = assemble_text(m, &opt, "crt0.s", config, runtime_text("crt0.s"), diag);
    objs[nobjs++] = assemble_text(m, &opt, "syslib.s", NULL, runtime_text("syslib.s"), diag);
    objs[nobjs++] = assemble_text(m, &opt, "stdio.s", NULL, runtime_text("stdio.s"), diag);
    if (text) {
        objs[nobjs++] = assemble_text(m, &opt, name, inc, text, diag);
    } else {
        for (size_t i = 0; i < n && nobjs < 64; i++) {
            /* each source is its own object, with dpu.inc's macros predefined */
            isk_asm *a = isk_asm_new(m, paths[i], &opt, diag);
            bool ok = isk_asm_text(a, "dpu.inc", inc, strlen(inc));
            ok &= isk_asm_file(a, paths[i]);
            objs[nobjs++] = ok ? isk_asm_finish(a) : NULL;
            isk_asm_free(a);
        }
    }
    isk_obj *exe = NULL;
    bool all = diag->errors == errors;
    isk_syntax_index_free(index);
    for (size_t i = 0; i < nobjs; i++) all &= objs[i] != NULL;
    if (all) {
        isk_model_link *ml = isk_model_link_new(m, diag);
        if (ml) {
            exe = isk_model_link_objects(ml, objs, nobjs, NULL, 0, text ? name : (n ? paths[0] : "program"), diag);
            isk_model_link_free(ml);
        }
    }
    for (size_t i = 0; i < nobjs; i++) isk_obj_free(objs[i]);
    return exe;
}

isk_obj *dpu_build(const isk_model *m, const char *const *paths, size_t n, int nr_tasklets, int stack_size,
                   isk_diag *diag)
{
    return build(m, paths, n, NULL, NULL, nr_tasklets, stack_size, diag);
}

isk_obj *dpu_build_text(const isk_model *m, const char *name, const char *text, int nr_tasklets, int stack_size,
                        isk_diag *diag)
{
    return build(m, NULL, 0, name, text, nr_tasklets, stack_size, diag);
}

/* ---- host-side copies ------------------------------------------------------------------------ */

/* Bytes [at, at + len) of a byte storage of the DPU (WRAM or MRAM) to or from buf. The
 * caller checked the range against the memory's size. */
static void copy_bytes(uint8_t *mem, uint64_t at, void *buf, size_t len, bool to_dpu)
{
    if (!len) return;
    if (to_dpu) memcpy(mem + at, buf, len);
    else memcpy(buf, mem + at, len);
}

int dpu_copy_mram(isk_inst *dpu, uint32_t offset, void *buf, size_t len, bool to_dpu, isk_diag *diag)
{
    struct isk_state *S = (struct isk_state *)(void *)isk_inst_state(dpu);
    if ((uint64_t)offset + len > DPU_MRAM_BYTES) {
        isk_error(diag, NULL, "MRAM copy %s offset 0x%x of %zu bytes: past the end of the MRAM (%u bytes)",
                  to_dpu ? "to" : "from", (unsigned)offset, len, (unsigned)DPU_MRAM_BYTES);
        return -1;
    }
    copy_bytes(S->MRAM.v, offset, buf, len, to_dpu);
    return 0;
}

int dpu_copy_symbol(isk_inst *dpu, const dpu_program *p, const char *symbol, uint32_t offset, void *buf, size_t len,
                    bool to_dpu, isk_diag *diag)
{
    const char *dir = to_dpu ? "to" : "from";
    uint32_t i = p->exe ? isk_obj_lookup(p->exe, symbol) : 0;
    if (!i || p->exe->syms.data[i].shndx == ISK_SHN_UNDEF) {
        isk_error(diag, NULL, "copy %s symbol '%s': the program defines no such symbol", dir, symbol);
        return -1;
    }
    const isk_symbol *sym = &p->exe->syms.data[i];
    struct isk_state *S = (struct isk_state *)(void *)isk_inst_state(dpu);
    const isk_model *m = isk_inst_model(dpu);
    int wram = isk_model_find_storage(m, "WRAM"), mram = isk_model_find_storage(m, "MRAM");
    isk_addr_cell c;
    if (!isk_addr_to_cell(m, sym->value, &c) || (c.storage != wram && c.storage != mram)) {
        isk_error(diag, NULL, "copy %s symbol '%s': its address 0x%" PRIx64 " is in neither WRAM nor MRAM", dir,
                  symbol, sym->value);
        return -1;
    }
    if (sym->size && (uint64_t)offset + len > sym->size) {
        isk_error(diag, NULL, "copy %s symbol '%s': %zu bytes at offset %u go past its %" PRIu64 " bytes", dir, symbol,
                  len, (unsigned)offset, sym->size);
        return -1;
    }
    bool in_wram = c.storage == wram;
    uint64_t size = in_wram ? S->wram_bytes : DPU_MRAM_BYTES;
    if (c.index + offset + len > size) {
        isk_error(diag, NULL, "copy %s symbol '%s': %zu bytes at offset %u go past the end of the %s (%" PRIu64
                  " bytes; the symbol is at byte 0x%" PRIx64 ")", dir, symbol, len, (unsigned)offset,
                  in_wram ? "WRAM" : "MRAM", size, c.index);
        return -1;
    }
    copy_bytes(in_wram ? S->WRAM.v : S->MRAM.v, c.index + offset, buf, len, to_dpu);
    return 0;
}
