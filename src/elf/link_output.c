/* Output contents, relocation, and the executable isk_obj. */
#include "elf/link_int.h"

#include <string.h>

static const isk_reloc_type *find_reloc(const isk_link_target *t, uint32_t type)
{
    for (size_t i = 0; i < t->nrelocs; i++)
        if (t->relocs[i].type == type) return &t->relocs[i];
    return NULL;
}

/* Copy the input bytes into the output sections. */
static void fill_contents(isk_link_ctx *c)
{
    for (size_t k = 0; k < c->osecs.len; k++) {
        osec *os = &c->osecs.data[k];
        if (os->type == SHT_NOBITS || !os->size) continue;
        os->data = isk_xcalloc((size_t)os->size, 1);
        for (size_t p = 0; p < os->parts.len; p++) {
            const contrib *cb = &os->parts.data[p];
            const isk_section *s = &c->files.data[cb->file].obj->secs.data[cb->sec];
            if (s->type != SHT_NOBITS && s->size && s->data)
                memcpy(os->data + c->files.data[cb->file].ooff[cb->sec], s->data, (size_t)s->size);
        }
    }
}

/* What a relocation's symbol is called in messages. */
static const char *sym_label(const isk_obj *o, uint32_t k)
{
    if (k == 0 || k >= o->syms.len) return "(no symbol)";
    const isk_symbol *s = &o->syms.data[k];
    if (s->type == STT_SECTION && s->shndx < o->secs.len) return o->secs.data[s->shndx].name;
    return s->name[0] ? s->name : "(unnamed)";
}

int isk_link_relocate(isk_link_ctx *c)
{
    const isk_link_target *t = c->t;
    int rc = 0;
    fill_contents(c);
    for (uint32_t f = 0; f < c->files.len; f++) {
        const lfile *lf = &c->files.data[f];
        const isk_obj *o = lf->obj;
        for (uint32_t i = 1; i < o->secs.len; i++) {
            const isk_section *s = &o->secs.data[i];
            if (!s->relocs.len || !lf->osec[i]) continue;
            osec *os = &c->osecs.data[lf->osec[i] - 1];
            int alloc = (os->flags & SHF_ALLOC) != 0;
            isk_loc loc = { .file = isk_link_file_name(c, f) };
            if (s->type == SHT_NOBITS || !os->data) {
                isk_error(c->d, &loc, "section '%s' has relocations but no contents", s->name);
                rc = -1;
                continue;
            }
            for (size_t r = 0; r < s->relocs.len; r++) {
                const isk_obj_reloc *rl = &s->relocs.data[r];
                if (rl->offset >= s->size) {
                    isk_error(c->d, &loc, "%s+0x%llx: relocation offset outside the section (size 0x%llx)", s->name,
                              (unsigned long long)rl->offset, (unsigned long long)s->size);
                    rc = -1;
                    continue;
                }
                if (rl->type == 0) continue;                       /* R_*_NONE */
                const isk_reloc_type *rt = find_reloc(t, rl->type);
                if (!rt) {
                    isk_error(c->d, &loc, "%s+0x%llx: unknown relocation type %u for target '%s'", s->name,
                              (unsigned long long)rl->offset, rl->type, t->name ? t->name : "?");
                    rc = -1;
                    continue;
                }
                if (rl->sym >= o->syms.len) {
                    isk_error(c->d, &loc, "%s+0x%llx: relocation symbol index %u out of range", s->name,
                              (unsigned long long)rl->offset, rl->sym);
                    rc = -1;
                    continue;
                }
                uint64_t off = lf->ooff[i] + rl->offset;
                uint32_t dummy;
                char err[256] = "";
                isk_reloc_ctx rc_ = {
                    .target = t, .place = os->data + off, .avail = (size_t)(os->size - off),
                    .place_addr = (alloc ? os->addr : 0) + off,
                    .sym_addr = isk_link_sym_addr(c, f, rl->sym, &dummy), .addend = rl->addend,
                    .alloc = alloc, .err = err, .errlen = sizeof err,
                };
                if (rt->apply(rt, &rc_) != 0) {
                    isk_error(c->d, &loc, "%s+0x%llx: relocation %s against '%s': %s", s->name,
                              (unsigned long long)rl->offset, rt->name ? rt->name : "?", sym_label(o, rl->sym),
                              err[0] ? err : "failed");
                    rc = -1;
                }
            }
        }
    }
    return rc;
}

/* ---- the executable ---- */

static int out_cmp(const void *a, const void *b)
{
    const osec *x = *(const osec *const *)a, *y = *(const osec *const *)b;
    /* placed sections by region, then address; the rest after, in order of appearance */
    int xp = x->region >= 0, yp = y->region >= 0;
    if (xp != yp) return yp - xp;
    if (xp && x->region != y->region) return x->region < y->region ? -1 : 1;
    if (xp && x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static void add_out_symbol(isk_link_ctx *c, isk_obj *out, const isk_symbol *s, uint64_t value, uint32_t osec_plus1)
{
    int in_section = s->shndx != ISK_SHN_UNDEF && s->shndx != ISK_SHN_ABS && s->shndx != ISK_SHN_COMMON;
    if (in_section && !osec_plus1) return;            /* defined in a dropped section */
    isk_symbol n = *s;
    n.value = value;
    if (osec_plus1) n.shndx = c->osecs.data[osec_plus1 - 1].out;
    else if (s->shndx != ISK_SHN_UNDEF) n.shndx = ISK_SHN_ABS;
    if (osec_plus1 && !n.shndx) return;               /* its section is not in the output */
    if (n.type == STT_SECTION) return;
    isk_obj_add_symbol(out, &n);
}

isk_obj *isk_link_make_output(isk_link_ctx *c, const char *name)
{
    const isk_link_target *t = c->t;
    isk_obj *out = isk_obj_new(name, t->elfclass, t->big_endian, t->machine, ET_EXEC);
    out->flags = c->flags;
    osec **list = isk_xcalloc(c->osecs.len + 1, sizeof *list);
    size_t n = 0;
    for (size_t k = 0; k < c->osecs.len; k++) {
        osec *os = &c->osecs.data[k];
        if ((os->flags & SHF_ALLOC) && os->region < 0) continue;     /* empty and unplaced */
        list[n++] = os;
    }
    qsort(list, n, sizeof *list, out_cmp);
    for (size_t i = 0; i < n; i++) {
        osec *os = list[i];
        uint32_t k = isk_obj_add_section(out, os->name, os->type, os->flags, os->align);
        isk_section *s = &out->secs.data[k];
        s->addr = os->flags & SHF_ALLOC ? os->addr : 0;
        s->info = os->info;
        s->size = os->size;
        if (os->data) {                                  /* hand the buffer over */
            s->data = os->data;
            s->cap = (size_t)os->size;
            os->data = NULL;
        }
        os->out = k;
    }
    /* SHF_LINK_ORDER: point at the output section of the first part's linked section. */
    for (size_t i = 0; i < n; i++) {
        osec *os = list[i];
        if (!(os->flags & SHF_LINK_ORDER) || !os->parts.len) continue;
        const contrib *cb = &os->parts.data[0];
        const lfile *lf = &c->files.data[cb->file];
        uint32_t link = lf->obj->secs.data[cb->sec].link;
        if (link && link < lf->obj->secs.len && lf->osec[link])
            out->secs.data[os->out].link = c->osecs.data[lf->osec[link] - 1].out;
        else
            out->secs.data[os->out].flags &= ~(uint64_t)SHF_LINK_ORDER;
    }
    /* Local symbols of every input (labels help disassemblers and debuggers), then globals. */
    for (uint32_t f = 0; f < c->files.len; f++) {
        const lfile *lf = &c->files.data[f];
        for (uint32_t k = 1; k < lf->obj->syms.len; k++) {
            const isk_symbol *s = &lf->obj->syms.data[k];
            if (lf->gsym[k] >= 0 || s->bind != STB_LOCAL || s->shndx == ISK_SHN_UNDEF) continue;
            uint32_t os;
            uint64_t v = isk_link_sym_addr(c, f, k, &os);
            add_out_symbol(c, out, s, v, os);
        }
    }
    for (size_t gi = 0; gi < c->syms.len; gi++) {
        const gsym *g = &c->syms.data[gi];
        if (g->state == G_LINKER) {
            if (!g->computed) continue;
            isk_symbol s = { .name = (char *)g->name, .bind = STB_GLOBAL, .type = STT_NOTYPE, .shndx = ISK_SHN_ABS };
            add_out_symbol(c, out, &s, g->value, g->osec);
        } else if (g->state == G_UNDEF) {
            if (g->ref_file >= c->files.len) continue;
            isk_symbol s = { .name = (char *)g->name, .bind = STB_WEAK };
            isk_obj_add_symbol(out, &s);
        } else {
            const isk_symbol *src = &c->files.data[g->file].obj->syms.data[g->sym];
            uint32_t os;
            uint64_t v = isk_link_sym_addr(c, g->file, g->sym, &os);
            isk_symbol s = *src;
            s.bind = src->bind == STB_LOCAL ? STB_GLOBAL : src->bind;
            add_out_symbol(c, out, &s, v, os);
        }
    }
    /* One loadable segment per non-empty allocated section. */
    for (size_t i = 0; i < n; i++) {
        const osec *os = list[i];
        if (!(os->flags & SHF_ALLOC) || !os->size) continue;
        uint32_t pf = PF_R | (os->flags & SHF_WRITE ? PF_W : 0) | (os->flags & SHF_EXECINSTR ? PF_X : 0);
        VEC_PUSH(&out->phdrs, (isk_phdr){ .type = PT_LOAD, .flags = pf, .vaddr = os->addr, .paddr = os->addr,
                                           .memsz = os->size, .align = os->align > 1 ? os->align : 1,
                                           .first = os->out, .count = 1 });
    }
    free(list);
    if (t->entry_symbol) isk_link_symbol_value(c, t->entry_symbol, &out->entry);
    else out->entry = t->nregions ? t->regions[0].base : 0;
    return out;
}
