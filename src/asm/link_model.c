#include "asm/link_model.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

struct isk_model_link {
    const isk_model *m;
    isk_link_target t;
    VEC(isk_link_region) regions;
    VEC(isk_reloc_type) relocs;
    VEC(isk_link_symdef) symbols;
    VEC(char *) names;       /* owned names of the symbols */
};

uint32_t isk_model_abi_version(const isk_model *m, uint32_t e_flags)
{
    if (!m->has_elf || !m->elf.abi_mask) return 0;
    return (e_flags & m->elf.abi_mask) >> (m->elf.abi_shift & 31);
}

/* ---- relocations ----------------------------------------------------------------------------- */

static uint64_t get_unit(const uint8_t *p, int n, int be)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
    return v;
}

static void put_unit(uint8_t *p, int n, int be, uint64_t v)
{
    for (int i = 0; i < n; i++) p[be ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static int apply_model_reloc(const isk_reloc_type *rt, const isk_reloc_ctx *c)
{
    const isk_reloc *r = rt->data;
    const isk_reloc_decl *d = &r->d;
    const isk_link_target *t = c->target;
    if ((size_t)d->bytes > c->avail) {
        snprintf(c->err, c->errlen, "needs %d bytes at the place, but only %zu remain in the section", d->bytes,
                 c->avail);
        return -1;
    }
    uint64_t s = c->sym_addr + (uint64_t)c->addend, p = c->place_addr;
    if (d->convert && c->alloc) {
        s = d->convert(s);
        p = d->convert(p);
    }
    int64_t v = (int64_t)(d->pcrel ? s - p : s);
    bool ranged = d->min < d->max;
    if (ranged && (v < d->min || v > d->max)) {
        snprintf(c->err, c->errlen, "value %" PRId64 " (0x%" PRIx64 ") is outside [%" PRId64 ", %" PRId64 "]", v,
                 (uint64_t)v, d->min, d->max);
        return -1;
    }
    int shift = d->shift + r->field.scale;
    if (shift > 0 && shift < 63) {
        if (v & ((INT64_C(1) << shift) - 1)) {
            snprintf(c->err, c->errlen, "value %" PRId64 " (0x%" PRIx64 ") is not a multiple of %" PRId64, v,
                     (uint64_t)v, INT64_C(1) << shift);
            return -1;
        }
        v >>= shift;
    }
    int bits = r->field.value_bits;
    if (!ranged && bits < 63) {
        int64_t lo, hi;
        if (!d->fields) lo = -(INT64_C(1) << (bits - 1)), hi = (INT64_C(1) << bits) - 1;   /* any bit pattern */
        else if (r->field.is_signed) lo = -(INT64_C(1) << (bits - 1)), hi = (INT64_C(1) << (bits - 1)) - 1;
        else lo = 0, hi = (INT64_C(1) << bits) - 1;
        if (v < lo || v > hi) {
            snprintf(c->err, c->errlen, "value %" PRId64 " (0x%" PRIx64 ")%s does not fit the %s %d-bit field "
                     "[%" PRId64 ", %" PRId64 "]", v, (uint64_t)v, shift ? " after the shift" : "",
                     r->field.is_signed ? "signed" : d->fields ? "unsigned" : "", bits, lo, hi);
            return -1;
        }
    }
    int be = t ? t->big_endian : 0;
    uint64_t unit = get_unit(c->place, d->bytes, be) & ~r->field.word_bits;
    for (int i = 0; i < r->field.nseg; i++) {
        const isk_segment *sg = &r->field.seg[i];
        uint64_t mask = sg->width >= 64 ? UINT64_MAX : (UINT64_C(1) << sg->width) - 1;
        unit |= (((uint64_t)v >> sg->value_lo) & mask) << sg->word_lo;
    }
    put_unit(c->place, d->bytes, be, unit);
    return 0;
}

/* ---- e_flags ----------------------------------------------------------------------------- */

static int merge_flags(const isk_link_target *t, uint32_t *merged, const char *first_file, uint32_t flags,
                       const char *file, char *err, size_t errlen)
{
    const isk_model *m = t->data;
    uint32_t a = isk_model_abi_version(m, *merged), b = isk_model_abi_version(m, flags);
    if (a != b) {
        snprintf(err, errlen, "ABI version mismatch: %s has ABI version %u (e_flags 0x%08x) but %s has ABI version %u "
                 "(e_flags 0x%08x); objects of different versions cannot be linked together", first_file, a, *merged,
                 file, b, flags);
        return -1;
    }
    return 0;
}

/* ---- the target -------------------------------------------------------------------------- */

isk_model_link *isk_model_link_new(const isk_model *m, isk_diag *diag)
{
    if (!m->has_elf) {
        isk_error(diag, NULL, "model '%s' declares no ELF_FORMAT, so its objects cannot be linked", m->name);
        return NULL;
    }
    isk_model_link *ml = isk_xcalloc(1, sizeof *ml);
    ml->m = m;
    for (size_t i = 0; i < m->regions.len; i++) {
        const isk_region_decl *r = &m->regions.data[i];
        if (!r->sections || !*r->sections) continue;
        VEC_PUSH(&ml->regions, ((isk_link_region){ r->name, r->base, r->size, r->sections }));
    }
    if (!ml->regions.len) {
        isk_error(diag, NULL, "model '%s' declares no REGION with .sections, so the linker has nowhere to place code",
                  m->name);
        isk_model_link_free(ml);
        return NULL;
    }
    for (size_t i = 0; i < m->relocs.len; i++) {
        const isk_reloc *r = &m->relocs.data[i];
        VEC_PUSH(&ml->relocs, ((isk_reloc_type){ r->d.type, r->d.name, apply_model_reloc, r }));
    }
    ml->t = (isk_link_target){
        .name = m->name, .machine = m->elf.machine, .elfclass = m->elf.elfclass == 64 ? ELFCLASS64 : ELFCLASS32,
        .big_endian = (uint8_t)(m->elf.big_endian != 0), .merge_flags = merge_flags, .data = m,
    };
    return ml;
}

void isk_model_link_free(isk_model_link *ml)
{
    if (!ml) return;
    VEC_FREE(&ml->regions);
    VEC_FREE(&ml->relocs);
    VEC_FREE(&ml->symbols);
    for (size_t i = 0; i < ml->names.len; i++) free(ml->names.data[i]);
    VEC_FREE(&ml->names);
    free(ml);
}

void isk_model_link_symbol(isk_model_link *ml, const char *name, isk_link_symkind kind, const char *ref,
                           int64_t offset, uint64_t align)
{
    char *copy = isk_xstrdup(name), *rcopy = ref ? isk_xstrdup(ref) : NULL;
    VEC_PUSH(&ml->names, copy);
    if (rcopy) VEC_PUSH(&ml->names, rcopy);
    VEC_PUSH(&ml->symbols, ((isk_link_symdef){ .name = copy, .kind = kind, .ref = rcopy, .offset = offset,
                                                .align = align }));
}

void isk_model_link_defsym(isk_model_link *ml, const char *name, int64_t value)
{
    isk_model_link_symbol(ml, name, ISK_LSYM_ABS, NULL, value, 0);
}

bool isk_model_link_region_start(isk_model_link *ml, const char *name, uint64_t start, isk_diag *diag)
{
    for (size_t i = 0; i < ml->regions.len; i++) {
        isk_link_region *r = &ml->regions.data[i];
        if (strcmp(r->name, name) != 0) continue;
        if (start < r->base || start >= r->base + r->size) {
            isk_error(diag, NULL, "region %s starts at 0x%" PRIx64 " outside the region (0x%" PRIx64 "-0x%" PRIx64 ")",
                      name, start, r->base, r->base + r->size - 1);
            return false;
        }
        r->size -= start - r->base;
        r->base = start;
        return true;
    }
    isk_error(diag, NULL, "model '%s' has no region '%s' that the linker places sections in", ml->m->name, name);
    return false;
}

const isk_link_target *isk_model_link_target(const isk_model_link *ml)
{
    isk_model_link *w = (isk_model_link *)ml;
    w->t.regions = ml->regions.data;
    w->t.nregions = ml->regions.len;
    w->t.relocs = ml->relocs.data;
    w->t.nrelocs = ml->relocs.len;
    w->t.symbols = ml->symbols.data;
    w->t.nsymbols = ml->symbols.len;
    return &ml->t;
}

static void set_entry(const isk_model_link *ml, isk_obj *exe)
{
    const isk_model *m = ml->m;
    for (size_t i = 1; i < exe->syms.len; i++) {
        const isk_symbol *s = &exe->syms.data[i];
        if (s->bind != STB_LOCAL && s->shndx != ISK_SHN_UNDEF && strcmp(s->name, "_start") == 0) {
            exe->entry = s->value;
            return;
        }
    }
    for (size_t i = 0; i < m->regions.len; i++)
        if (m->regions.data[i].code) {
            exe->entry = m->regions.data[i].base;
            for (size_t k = 0; k < ml->regions.len; k++)     /* where --region-start put it */
                if (strcmp(ml->regions.data[k].name, m->regions.data[i].name) == 0) exe->entry = ml->regions.data[k].base;
            return;
        }
}

isk_obj *isk_model_link_objects(isk_model_link *ml, isk_obj *const *objs, size_t nobjs, isk_archive *const *archives,
                                size_t narchives, const char *output_name, isk_diag *diag)
{
    const isk_model *m = ml->m;
    /* Inputs that agree with each other but not with the model: the linker core compares
     * inputs pairwise only. */
    if (nobjs && m->elf.abi_mask) {
        uint32_t want = isk_model_abi_version(m, m->elf.flags), first = isk_model_abi_version(m, objs[0]->flags);
        bool agree = true;
        for (size_t i = 1; i < nobjs; i++) agree &= isk_model_abi_version(m, objs[i]->flags) == first;
        if (agree && first != want && objs[0]->machine == m->elf.machine) {
            isk_loc loc = { .file = objs[0]->filename };
            isk_error(diag, &loc, "ABI version %u (e_flags 0x%08x), but model '%s' uses ABI version %u; reassemble it",
                      first, objs[0]->flags, m->name, want);
            return NULL;
        }
    }
    isk_obj *exe = NULL;
    if (isk_link(isk_model_link_target(ml), objs, nobjs, archives, narchives, output_name, &exe, diag) != 0)
        return NULL;
    set_entry(ml, exe);
    return exe;
}
