/* The IPU vertex runner (isekit/ipu_vertex.h): a program built for one chip, a vertex state laid
 * out in tile memory from a description, a trampoline that starts the vertex, the run, and the
 * results read back. The description and tensor files are vertex_state.c's. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/link_model.h"
#include "asm/loaded.h"
#include "base/file.h"
#include "base/half.h"
#include "elf/elf_file.h"
#include "isekit/ipu_vertex.h"
#include "ipu.h"

/* The two chips' memory (architecture.md 4.2, 4.3). */
typedef struct chip_map { uint32_t r0, r1, end; } chip_map;
static chip_map map_of(bool ipu2)
{
    return ipu2 ? (chip_map){ 0x4C000, 0x80000, 0xE8000 } : (chip_map){ 0x40000, 0x60000, 0x80000 };
}

struct ipu_program {
    isk_obj *exe;
    bool ipu2;
    uint32_t code_end;         /* the first byte after the program's sections */
};

static int chip_of(const char *chip, isk_diag *diag)
{
    if (!chip || strcmp(chip, "ipu2") == 0) return 1;
    if (strcmp(chip, "ipu1") == 0) return 0;
    isk_error(diag, NULL, "chip '%s': ipu1 or ipu2", chip);
    return -1;
}

/* Where the program ends; its sections must lie in region 0 (the only executable memory). */
static int check_placement(ipu_program *p, isk_diag *diag)
{
    const chip_map cm = map_of(p->ipu2);
    p->code_end = cm.r0;
    for (size_t i = 1; i < p->exe->secs.len; i++) {
        const isk_section *s = &p->exe->secs.data[i];
        if (!(s->flags & SHF_ALLOC) || !s->size) continue;
        if (s->addr < cm.r0 || s->addr + s->size > cm.r1) {
            isk_error(diag, NULL, "%s: section %s at 0x%" PRIx64 "-0x%" PRIx64 " is not in %s's region 0 (0x%x-0x%x)%s",
                      p->exe->filename, s->name, s->addr, s->addr + s->size - 1, p->ipu2 ? "ipu2" : "ipu1", cm.r0,
                      cm.r1 - 1, p->exe->type == ET_EXEC ? ": give the objects or sources, and the runner links them for the chip (or link with "
                      "isekit ld --region-start TMEM=0x4C000 for ipu2)" : "");
            return -1;
        }
        if (s->addr + s->size > p->code_end) p->code_end = (uint32_t)(s->addr + s->size);
    }
    return 0;
}

/* Link for the chip: from region 0 of this chip (the model's TMEM starts at ipu1's 0x40000,
 * which ipu2 does not populate), as `isekit ld --region-start TMEM=0x4C000` does;
 * check_placement then keeps the program in region 0. */
static isk_obj *link_for_chip(const isk_model *m, isk_obj *const *objs, size_t n, bool ipu2, const char *name,
                              isk_diag *diag)
{
    isk_model_link *ml = isk_model_link_new(m, diag);
    if (!ml) return NULL;
    isk_obj *exe = isk_model_link_region_start(ml, "TMEM", map_of(ipu2).r0, diag)
                       ? isk_model_link_objects(ml, objs, n, NULL, 0, name, diag)
                       : NULL;
    isk_model_link_free(ml);
    return exe;
}

static ipu_program *finish_program(isk_obj *exe, bool ipu2, isk_diag *diag)
{
    if (!exe) return NULL;
    ipu_program *p = calloc(1, sizeof *p);
    p->exe = exe;
    p->ipu2 = ipu2;
    if (check_placement(p, diag) != 0) {
        ipu_program_free(p);
        return NULL;
    }
    return p;
}

ipu_program *ipu_program_build(const isk_model *m, const char *const *paths, size_t n, const char *chip,
                               const ipu_build_options *opts, isk_diag *diag)
{
    const int ipu2 = chip_of(chip, diag);
    if (ipu2 < 0) return NULL;
    if (!n) {
        isk_error(diag, NULL, "no program: give .S/.s sources, objects or one executable");
        return NULL;
    }
    /* what popc passes: the chip's architecture version, after the user's -D */
    const char *defines[66];
    size_t nd = 0;
    for (size_t i = 0; opts && i < opts->ndefines && nd < 64; i++) defines[nd++] = opts->defines[i];
    defines[nd++] = "__IPU__";
    defines[nd++] = ipu2 ? "__IPU_ARCH_VERSION__=2" : "__IPU_ARCH_VERSION__=1";
    isk_asm_options ao = { .include_dirs = opts ? opts->include_dirs : NULL, .ninclude_dirs = opts ? opts->ninclude_dirs : 0,
                           .defines = defines, .ndefines = nd };
    isk_obj **objs = calloc(n, sizeof *objs);
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        uint8_t *bytes;
        size_t len;
        if (isk_file_read_all(paths[i], &bytes, &len, diag) != 0) {
            ok = false;
            continue;
        }
        const bool elf = len >= 4 && memcmp(bytes, "\x7f" "ELF", 4) == 0;
        if (elf) objs[i] = isk_elf_read_mem(bytes, len, paths[i], diag);
        free(bytes);
        if (elf) {
            if (objs[i] && objs[i]->type == ET_EXEC && n > 1) {
                isk_error(diag, NULL, "%s is an executable: give it alone, or objects and sources", paths[i]);
                ok = false;
            }
        } else {
            isk_asm *a = isk_asm_new(m, paths[i], &ao, diag);
            objs[i] = isk_asm_file(a, paths[i]) ? isk_asm_finish(a) : NULL;
            isk_asm_free(a);
        }
        ok &= objs[i] != NULL;
    }
    isk_obj *exe = NULL;
    if (ok && objs[0]->type == ET_EXEC) {
        exe = objs[0];
        objs[0] = NULL;
    } else if (ok) {
        exe = link_for_chip(m, objs, n, ipu2, paths[0], diag);
    }
    for (size_t i = 0; i < n; i++) isk_obj_free(objs[i]);
    free(objs);
    return finish_program(exe, ipu2, diag);
}

ipu_program *ipu_program_from_text(const isk_model *m, const char *name, const char *text, const char *chip,
                                   isk_diag *diag)
{
    const int ipu2 = chip_of(chip, diag);
    if (ipu2 < 0) return NULL;
    isk_asm *a = isk_asm_new(m, name, NULL, diag);
    isk_obj *o = isk_asm_text(a, name, text, strlen(text)) ? isk_asm_finish(a) : NULL;
    isk_asm_free(a);
    if (!o) return NULL;
    isk_obj *exe = link_for_chip(m, &o, 1, ipu2, name, diag);
    isk_obj_free(o);
    return finish_program(exe, ipu2, diag);
}

void ipu_program_free(ipu_program *p)
{
    if (!p) return;
    isk_obj_free(p->exe);
    free(p);
}

bool ipu_program_symbol(const ipu_program *p, const char *name, uint32_t *addr)
{
    const isk_symbol *found = NULL;
    for (size_t i = 1; i < p->exe->syms.len; i++) {
        const isk_symbol *s = &p->exe->syms.data[i];
        if (strcmp(s->name, name) != 0 || s->shndx == SHN_UNDEF) continue;
        if (!found || (s->bind != STB_LOCAL && found->bind == STB_LOCAL)) found = s;
    }
    if (found) *addr = (uint32_t)found->value;
    return found != NULL;
}

static bool entry_like(const isk_symbol *s, int pass)
{
    if (s->shndx == SHN_UNDEF || s->shndx == SHN_ABS || !s->name[0]) return false;
    const bool codelet = strncmp(s->name, "__runCodelet_", 13) == 0;
    return pass == 0 ? codelet : !codelet && s->bind != STB_LOCAL && s->type == STT_FUNC;
}

void ipu_program_entries(const ipu_program *p, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 1; i < p->exe->syms.len && len + 1 < cap; i++) {
            const isk_symbol *s = &p->exe->syms.data[i];
            if (!entry_like(s, pass)) continue;
            int w = snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", s->name);
            len += w > 0 ? (size_t)w : 0;
        }
    if (len >= cap) snprintf(buf + cap - 4, 4, "...");
    if (!buf[0]) snprintf(buf, cap, "(none: no __runCodelet_* or global function)");
}

/* ---- layout ---------------------------------------------------------------------------------------- */

typedef struct range { uint32_t lo, hi; } range;
typedef struct layout {
    range used[1024];
    size_t n;
    chip_map cm;
    uint32_t mem_lo;
    isk_diag *diag;
    const char *file;
} layout;

static void reserve(layout *l, uint32_t lo, uint32_t hi)
{
    if (l->n < sizeof l->used / sizeof l->used[0]) l->used[l->n++] = (range){ lo, hi };
}

/* The first aligned free place of `size` bytes in [lo, hi), or 0. */
static uint32_t place(layout *l, uint32_t lo, uint32_t hi, uint64_t size, uint32_t align)
{
    uint64_t a = ((uint64_t)lo + align - 1) / align * align;
    for (bool moved = true; moved;) {
        moved = false;
        for (size_t i = 0; i < l->n; i++)
            if (a < l->used[i].hi && a + size > l->used[i].lo) {
                a = ((uint64_t)l->used[i].hi + align - 1) / align * align;
                moved = true;
            }
    }
    if (a + size > hi || l->n >= sizeof l->used / sizeof l->used[0]) return 0;
    reserve(l, (uint32_t)a, (uint32_t)(a + size));
    return (uint32_t)a;
}

static int place_tensor(layout *l, ipu_tensor *t)
{
    const uint64_t size = t->count * ipu_dtype_size(t->type);
    const uint32_t lo = t->region ? l->cm.r1 : l->mem_lo, hi = t->region ? l->cm.end : l->cm.r1;
    isk_loc loc = { l->file, t->line, t->col, NULL, 0 };
    if (t->address >= 0) {
        const uint32_t a = (uint32_t)t->address;
        if (a < l->mem_lo || a + size > l->cm.end || a % ipu_dtype_size(t->type)) {
            isk_error(l->diag, &loc, "tensor '%s': 0x%x..+%" PRIu64 " is not %s memory of this chip (0x%x-0x%x)", t->name,
                      a, size, a % ipu_dtype_size(t->type) ? "naturally aligned" : "in the", l->mem_lo, l->cm.end - 1);
            return -1;
        }
        for (size_t i = 0; i < l->n; i++)
            if (a < l->used[i].hi && a + size > l->used[i].lo) {
                isk_error(l->diag, &loc, "tensor '%s' at 0x%x overlaps 0x%x-0x%x (the program, the state, a stack or "
                          "another tensor)", t->name, a, l->used[i].lo, l->used[i].hi - 1);
                return -1;
            }
        reserve(l, a, (uint32_t)(a + size));
        t->placed = a;
        return 0;
    }
    uint32_t from = lo, to = hi;
    if (t->element >= 0) {
        const uint32_t elements = (l->cm.end - l->cm.r1) / 0x8000;
        if (!t->region || (uint32_t)t->element >= elements) {
            isk_error(l->diag, &loc, "tensor '%s': element %d: region 1 of this chip has elements 0-%u", t->name,
                      t->element, elements - 1);
            return -1;
        }
        from = l->cm.r1 + (uint32_t)t->element * 0x8000, to = from + 0x8000;
    }
    t->placed = place(l, from, to, size ? size : 1, t->align);
    if (!t->placed) {
        isk_error(l->diag, &loc, "tensor '%s' (%" PRIu64 " bytes) does not fit in %s 0x%x-0x%x", t->name, size,
                  t->element >= 0 ? "its element" : "region", from, to - 1);
        return -1;
    }
    return 0;
}

static unsigned field_size(const ipu_field *f, unsigned *align)
{
    static const unsigned sizes[IPU_NFIELD_KINDS] = { 4, 4, 2, 2, 1, 1, 4, 2, 4, 8, 4, 2, 2, 8 };
    unsigned s = sizes[f->kind];
    if (f->kind == IPU_FIELD_VECTOR && !f->counted) s = 4;
    *align = s > 4 ? 4 : s;
    return f->kind <= IPU_FIELD_F16 ? s * (unsigned)f->nvalues : s;
}

static void put_bytes(uint8_t *b, uint32_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) b[i] = (uint8_t)(v >> 8 * i);
}

/* A pointer-kind entry (one_ptr, span, short_span, scaled pointers) to tensor t: its bytes. */
static int pointer_bytes(layout *l, const ipu_field *f, ipu_field_kind kind, const ipu_tensor *t, uint8_t *b)
{
    const uint64_t count = f->count >= 0 && kind == f->kind ? (uint64_t)f->count : t->count;
    const uint32_t a = t->placed;
    isk_loc loc = { l->file, f->line, f->col, NULL, 0 };
    switch (kind) {
    case IPU_FIELD_ONE_PTR: put_bytes(b, a, 4); return 0;
    case IPU_FIELD_SPAN: put_bytes(b, a, 4), put_bytes(b + 4, (uint32_t)count, 4); return 0;
    case IPU_FIELD_SHORT_SPAN:
        if (count > 0xFFF) {
            isk_error(l->diag, &loc, "short_span of '%s': %" PRIu64 " elements do not fit its 12-bit count", t->name, count);
            return -1;
        }
        put_bytes(b, a | (uint32_t)count << 20, 4);
        return 0;
    case IPU_FIELD_SCALED_PTR32:
        if (a % 4 || a < l->cm.r0 || (a - l->cm.r0) / 4 > 0xFFFF) {
            isk_error(l->diag, &loc, "scaled_ptr32 of '%s' at 0x%x: needs a 4-byte aligned address from 0x%x below 0x%x",
                      t->name, a, l->cm.r0, l->cm.r0 + 0x40000);
            return -1;
        }
        put_bytes(b, (a - l->cm.r0) / 4, 2);
        return 0;
    default:
        if (a % 8 || a / 8 > 0xFFFF) {
            isk_error(l->diag, &loc, "scaled_ptr64 of '%s' at 0x%x: needs an 8-byte aligned address below 0x80000 "
                      "(give the tensor region = 0)", t->name, a);
            return -1;
        }
        put_bytes(b, a / 8, 2);
        return 0;
    }
}

/* Tile memory by bytes (TMEM is 32-bit words from 0x40000, little-endian). */
static void mem_write(isk_ref mem, uint32_t addr, const uint8_t *b, uint64_t n)
{
    for (uint64_t i = 0; i < n;) {
        const uint32_t a = addr + (uint32_t)i, sh = 8 * (a % 4);
        mem.index = (a - IPU_TMEM_BASE) / 4;
        uint32_t w = (uint32_t)isk_ref_read(&mem);
        if (sh == 0 && n - i >= 4) {
            w = b[i] | (uint32_t)b[i + 1] << 8 | (uint32_t)b[i + 2] << 16 | (uint32_t)b[i + 3] << 24;
            i += 4;
        } else {
            w = (w & ~(0xFFu << sh)) | (uint32_t)b[i] << sh;
            i++;
        }
        isk_ref_write(&mem, w);
    }
}

static void mem_read(isk_ref mem, uint32_t addr, uint8_t *b, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        const uint32_t a = addr + (uint32_t)i;
        mem.index = (a - IPU_TMEM_BASE) / 4;
        b[i] = (uint8_t)((uint32_t)isk_ref_read(&mem) >> 8 * (a % 4));
    }
}

/* Lay out the state (each field at its natural alignment, in declaration order) in region 1 and
 * write it, with the entries of its vectors after it. */
static int write_state(layout *l, ipu_state_desc *d, isk_ref mem, uint32_t *size, uint32_t *addr)
{
    uint32_t off = 0;
    unsigned max_align = 4;
    for (size_t i = 0; i < d->nfields; i++) {
        unsigned align, s = field_size(&d->fields[i], &align);
        off = (off + align - 1) / align * align;
        d->fields[i].offset = off;
        off += s;
        if (align > max_align) max_align = align;
    }
    *size = (off + max_align - 1) / max_align * max_align;
    *addr = place(l, l->cm.r1, l->cm.end, *size ? *size : 4, 8);
    if (!*addr) {
        isk_error(l->diag, NULL, "%s: the vertex state (%u bytes) does not fit in region 1", l->file, *size);
        return -1;
    }
    uint8_t *b = calloc(1, *size + 8);
    int rc = 0;
    for (size_t i = 0; i < d->nfields && !rc; i++) {
        ipu_field *f = &d->fields[i];
        uint8_t *at = b + f->offset;
        if (f->kind <= IPU_FIELD_F16) {
            unsigned align, s = field_size(f, &align) / (unsigned)f->nvalues;
            for (size_t k = 0; k < f->nvalues; k++) {
                uint32_t v = (uint32_t)f->ivalues[k];
                if (f->kind == IPU_FIELD_F32) {
                    float x = (float)f->fvalues[k];
                    memcpy(&v, &x, 4);
                } else if (f->kind == IPU_FIELD_F16) {
                    v = isk_half_from_double(f->fvalues[k]);
                }
                put_bytes(at + k * s, v, s);
            }
        } else if (f->kind == IPU_FIELD_VECTOR) {
            const unsigned es = f->of == IPU_FIELD_SPAN ? 8 : 4;
            uint8_t *entries = calloc(f->ntensors, es);
            for (size_t k = 0; k < f->ntensors && !rc; k++)
                rc = pointer_bytes(l, f, f->of, &d->tensors[f->tensors[k]], entries + k * es);
            const uint32_t a = rc ? 0 : place(l, l->cm.r1, l->cm.end, f->ntensors * es, 8);
            if (!rc && !a) {
                isk_error(l->diag, NULL, "%s: a vector's entries do not fit in region 1", l->file);
                rc = -1;
            }
            if (!rc) {
                mem_write(mem, a, entries, f->ntensors * es);
                put_bytes(at, a, 4);
                if (f->counted) put_bytes(at + 4, (uint32_t)f->ntensors, 4);
            }
            free(entries);
        } else {
            rc = pointer_bytes(l, f, f->kind, &d->tensors[f->tensors[0]], at);
        }
    }
    if (!rc) mem_write(mem, *addr, b, *size);
    free(b);
    return rc;
}

/* ---- the run ------------------------------------------------------------------------------------------ */

typedef struct run_ctx {
    uint64_t call_pc, end_pc;  /* the trampoline's start of the vertex and its last word (TMEM indices) */
    uint64_t call_clock, return_clock, end_clock;
    bool called, back;
    ipu_run_result *r;
} run_ctx;

/* The supervisor reaching the trampoline's self-branch ends the run (ISK_BREAK). */
static int before_issue(void *user, uint64_t clock, isk_inst *proc, uint32_t context, uint64_t pc)
{
    (void)proc;
    run_ctx *c = user;
    if (context != 0) return 0;
    if (pc == c->call_pc && !c->called) c->call_clock = clock, c->called = true;
    if (pc == c->call_pc + 1 && !c->back) c->return_clock = clock, c->back = true;
    if (pc != c->end_pc) return 0;
    c->end_clock = clock;
    return 1;
}

static void on_exception(void *user, const isk_event *ev)
{
    run_ctx *c = user;
    const uint32_t pc = (uint32_t)(IPU_TMEM_BASE + ev->pc * 4);
    if (ev->context == 0) {
        if (c->r->sup_excepted) return;
        c->r->sup_excepted = true, c->r->sup_pc = pc, c->r->sup_clock = ev->clock;
        snprintf(c->r->sup_cause, sizeof c->r->sup_cause, "%s", ev->text ? ev->text : "");
    } else if (ev->context <= IPU_WORKERS) {
        ipu_worker_result *w = &c->r->worker[ev->context - 1];
        if (w->excepted) return;
        w->excepted = true, w->pc = pc, w->clock = ev->clock;
        snprintf(w->cause, sizeof w->cause, "%s", ev->text ? ev->text : "");
    }
}

/* The supervisor's code that starts the vertex; returns the offset of the word that starts it. */
static int trampoline(const ipu_state_desc *d, uint32_t at, uint32_t entry, uint32_t state, uint32_t r0, char *text,
                      size_t cap)
{
    if (d->kind == IPU_SUPERVISOR_VERTEX) {
        /* poplibs' supervisor vertices take their state in $m0 and return with br $lr */
        snprintf(text, cap, "setzi $m0, 0x%x\ncall $lr, 0x%x\nsync 2\nbri 0x%x\n", state, entry, at + 12);
        return 1;
    }
    /* run's base is relative to region 0, runall's absolute (architecture.md 8.3) */
    snprintf(text, cap, "setzi $m1, 0x%x\nsetzi $m2, 0x%x\n%s $m1, $m2, 0\nsync 2\nbri 0x%x\n", entry,
             d->kind == IPU_VERTEX ? state - r0 : state, d->kind == IPU_VERTEX ? "run" : "runall", at + 16);
    return 2;
}

static int write_code(const isk_model *m, isk_ref mem, uint32_t at, const char *text, isk_diag *diag)
{
    isk_asm *a = isk_asm_new(m, "trampoline", NULL, diag);
    isk_obj *o = isk_asm_text(a, "trampoline", text, strlen(text)) ? isk_asm_finish(a) : NULL;
    isk_asm_free(a);
    const uint32_t sec = o ? isk_obj_find_section(o, ".text") : 0;
    if (sec) mem_write(mem, at, o->secs.data[sec].data, o->secs.data[sec].size);
    isk_obj_free(o);
    return sec ? 0 : -1;
}

static void read_results(isk_inst *tile, const ipu_state_desc *d, run_ctx *c, isk_system *sys)
{
    ipu_run_result *r = c->r;
    const struct isk_state *S = (const struct isk_state *)(const void *)isk_inst_state(tile);
    for (int w = 0; w < IPU_WORKERS; w++) {
        ipu_worker_result *wr = &r->worker[w];
        int64_t v = -1;
        isk_read(tile, "EXIT_STATUS", (uint64_t)w, &v);
        wr->status = (int)v;
        wr->ran = isk_context_of(tile, w + 1)->insns > 0;
        if (!wr->ran) continue;
        int64_t wsr = 0;
        isk_read(tile, "WCSR", (uint64_t)(w * W_NCSR + W_WSR), &wsr);
        wr->etype = (uint32_t)wsr >> IPU_WSR_ETYPE_SHIFT & 0xF;
        if (wr->status >= 0) {
            isk_read(tile, "CYCLES", (uint64_t)w, &v);
            wr->cycles = (uint64_t)v;
            wr->clock = S->started[w] + wr->cycles;
            wr->pc = (uint32_t)(IPU_TMEM_BASE + isk_context_of(tile, w + 1)->pc * 4);
        } else {
            if (!wr->excepted) wr->clock = isk_clock(sys), wr->pc = (uint32_t)(IPU_TMEM_BASE + isk_context_of(tile, w + 1)->pc * 4);
            wr->cycles = wr->clock - S->started[w];
        }
        if (d->kind != IPU_SUPERVISOR_VERTEX && wr->cycles > r->cycles) r->cycles = wr->cycles;
    }
    if (d->kind == IPU_SUPERVISOR_VERTEX && c->back) r->cycles = c->return_clock - c->call_clock;
    isk_stats st;
    isk_inst_stats(tile, &st);
    r->instructions = st.instructions;
    r->clocks = isk_clock(sys);
    bool ok = r->returned && !r->sup_excepted;
    int ran = 0;
    for (int w = 0; w < IPU_WORKERS; w++)
        if (r->worker[w].ran) ran++, ok &= r->worker[w].status == 1 && !r->worker[w].excepted;
    r->ok = ok && (ran || d->kind == IPU_SUPERVISOR_VERTEX);
}

int ipu_vertex_run(isk_model *m, const ipu_program *p, ipu_state_desc *d, const ipu_run_options *opt,
                   ipu_run_result *r, isk_diag *diag)
{
    memset(r, 0, sizeof *r);
    const ipu_run_options none = { 0 };
    if (!opt) opt = &none;
    const char *name = opt->vertex ? opt->vertex : d->vertex;
    const char *chip = p->ipu2 ? "ipu2" : "ipu1";
    if (!name) {
        isk_error(diag, NULL, "%s: which vertex? give vertex = \"NAME\" (or --vertex NAME)", d->file);
        return -1;
    }
    if (d->chip && strcmp(d->chip, chip) != 0) {
        isk_error(diag, NULL, "%s is for %s, the program was built for %s", d->file, d->chip, chip);
        return -1;
    }
    if (!ipu_program_symbol(p, name, &r->entry)) {
        char list[1024];
        ipu_program_entries(p, list, sizeof list);
        isk_error(diag, NULL, "vertex '%s' is not in %s; its entry points: %s", name, p->exe->filename, list);
        return -1;
    }
    for (size_t i = 0; i < d->ntensors; i++)
        if (!d->tensors[i].data) {
            isk_error(diag, NULL, "%s: tensor '%s' has no contents yet (its file was not read)", d->file, d->tensors[i].name);
            return -1;
        }
    run_ctx c = { .r = r };
    isk_system_options so = { .diag = diag, .before_issue = before_issue, .before_issue_user = &c };
    isk_system *sys = isk_system_new(&so);
    isk_inst *tile = isk_system_add(sys, m, "tile");
    isk_ref mem;
    int rc = -1;
    if (!tile || isk_set_param(tile, "chip", chip) != ISK_OK || isk_lookup(tile, "TMEM", &mem) != ISK_OK) goto out;
    if (opt->setup) opt->setup(opt->setup_user, sys, tile);

    layout *l = calloc(1, sizeof *l);
    l->cm = map_of(p->ipu2), l->mem_lo = l->cm.r0, l->diag = diag, l->file = d->file;
    for (size_t i = 1; i < p->exe->secs.len; i++) {
        const isk_section *s = &p->exe->secs.data[i];
        if (!(s->flags & SHF_ALLOC) || !s->size) continue;
        reserve(l, (uint32_t)s->addr, (uint32_t)(s->addr + s->size));
        if (s->type != SHT_NOBITS) mem_write(mem, (uint32_t)s->addr, s->data, s->size);
    }
    isk_loaded_keep(tile, p->exe, diag);      /* symbols and lines for the debugger and profile */
    /* worker n's stack below $WORKERn_BASE and its scratch above, at the top of memory; the
     * supervisor's stack below them */
    const uint32_t slot = d->stack + IPU_VERTEX_SCRATCH, stacks = l->cm.end - IPU_WORKERS * slot;
    const uint32_t at = place(l, l->cm.r0, l->cm.r1, 24, 8);
    if (!at || stacks - d->stack < l->cm.r1) {
        isk_error(diag, NULL, "%s: no room for the trampoline or the stacks", d->file);
        free(l);
        goto out;
    }
    reserve(l, stacks - d->stack, l->cm.end);
    for (int w = 0; w < IPU_WORKERS; w++)
        isk_write(tile, "SCSR", (uint64_t)(S_WORKER0_BASE + w), stacks + (uint32_t)w * slot + d->stack);
    isk_write(tile, "M", 11, stacks);        /* the supervisor's $sp */
    rc = 0;
    for (int pass = 0; pass < 3 && !rc; pass++)       /* fixed addresses, fixed elements, the rest */
        for (size_t i = 0; i < d->ntensors && !rc; i++) {
            ipu_tensor *t = &d->tensors[i];
            if ((pass == 0) == (t->address >= 0) && (pass != 1 || t->element >= 0) && (pass != 2 || t->element < 0))
                rc = place_tensor(l, t);
        }
    if (!rc) rc = write_state(l, d, mem, &r->state_bytes, &r->state);
    free(l);
    if (rc) goto out;
    for (size_t i = 0; i < d->ntensors; i++)
        mem_write(mem, d->tensors[i].placed, d->tensors[i].data, d->tensors[i].count * ipu_dtype_size(d->tensors[i].type));
    char text[256];
    const int start = trampoline(d, at, r->entry, r->state, map_of(p->ipu2).r0, text, sizeof text);
    if ((rc = write_code(m, mem, at, text, diag)) != 0) goto out;
    c.call_pc = (at - IPU_TMEM_BASE) / 4 + (uint64_t)start;
    c.end_pc = c.call_pc + 2;     /* after the sync */
    if (isk_subscribe(sys, ISK_EV_BIT(ISK_EV_EXCEPTION), on_exception, &c) != ISK_OK ||
        (opt->trace && isk_subscribe(sys, opt->trace_kinds, opt->trace, opt->trace_user) != ISK_OK) ||
        isk_start(tile, 0, (at - IPU_TMEM_BASE) / 4) != ISK_OK) {
        rc = -1;
        goto out;
    }
    const uint64_t max_clocks = opt->max_clocks ? opt->max_clocks : 100000000;
    const isk_status st = opt->run ? opt->run(opt->run_user, sys, max_clocks) : isk_run(sys, max_clocks);
    if (st == ISK_FAULT || st == ISK_FAILED || st == ISK_CONFLICT) {
        isk_error(diag, NULL, "the run stopped: %s", isk_last_error(sys));
        rc = -1;
        goto out;
    }
    r->returned = st == ISK_BREAK;
    r->timed_out = st == ISK_OK;
    read_results(tile, d, &c, sys);
    for (size_t i = 0; i < d->ntensors; i++)
        mem_read(mem, d->tensors[i].placed, d->tensors[i].data, d->tensors[i].count * ipu_dtype_size(d->tensors[i].type));
out:
    isk_system_free(sys);
    return rc;
}
