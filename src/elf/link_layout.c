/* Output sections and addresses: merging input sections, placing output sections in the
 * target's regions, and the values of linker-defined symbols. */
#include "elf/elf_util.h"
#include "elf/link_int.h"

#include <string.h>

static long find_osec(const isk_link_ctx *c, const char *name)
{
    for (size_t i = 0; i < c->osecs.len; i++)
        if (strcmp(c->osecs.data[i].name, name) == 0) return (long)i;
    return -1;
}

static uint32_t new_osec(isk_link_ctx *c, const char *name, uint32_t type, uint64_t flags, uint64_t align)
{
    VEC_PUSH(&c->osecs, (osec){ .name = isk_xstrdup(name), .type = type, .flags = flags,
                                 .align = align ? align : 1, .seq = c->osecs.len, .region = -1 });
    return (uint32_t)(c->osecs.len - 1);
}

static int contrib_cmp(const void *a, const void *b)
{
    const contrib *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

int isk_link_build_sections(isk_link_ctx *c)
{
    const isk_link_target *t = c->t;
    size_t seq = 0;
    for (size_t r = 0; r < t->noutsecs; r++)
        if (t->outsecs[r].keep && find_osec(c, t->outsecs[r].name) < 0)
            new_osec(c, t->outsecs[r].name, t->outsecs[r].type ? t->outsecs[r].type : SHT_PROGBITS,
                     t->outsecs[r].flags, t->outsecs[r].align);
    for (uint32_t f = 0; f < c->files.len; f++) {
        lfile *lf = &c->files.data[f];
        const isk_obj *o = lf->obj;
        for (uint32_t i = 1; i < o->secs.len; i++) {
            const isk_section *s = &o->secs.data[i];
            if (s->type == SHT_NULL) continue;
            const char *name = s->name;
            size_t key = 0;
            for (size_t r = 0; r < t->noutsecs; r++)
                if (isk_link_glob_match(t->outsecs[r].inputs ? t->outsecs[r].inputs : t->outsecs[r].name, s->name, &key)) {
                    name = t->outsecs[r].name;
                    break;
                }
            long k = find_osec(c, name);
            if (k < 0) {
                k = new_osec(c, name, s->type, s->flags, s->align);
                c->osecs.data[k].info = s->info;
                c->osecs.data[k].keep_first = !(s->flags & SHF_ALLOC) && s->type >= SHT_LOPROC && s->type <= SHT_HIPROC;
            }
            osec *os = &c->osecs.data[k];
            if (os->keep_first && os->parts.len && os->parts.data[0].file != f) continue;   /* dropped */
            if (os->parts.len == 0 && !os->keep_first) os->type = s->type;
            else if (s->type != SHT_NOBITS && os->type == SHT_NOBITS) os->type = SHT_PROGBITS;
            os->flags |= s->flags & (SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR);
            if (s->align > os->align) os->align = s->align;
            VEC_PUSH(&os->parts, (contrib){ f, i, key, seq++ });
            lf->osec[i] = (uint32_t)k + 1;
        }
    }
    /* Offsets of the parts inside each output section. */
    for (size_t k = 0; k < c->osecs.len; k++) {
        osec *os = &c->osecs.data[k];
        if (os->parts.len > 1) qsort(os->parts.data, os->parts.len, sizeof *os->parts.data, contrib_cmp);
        uint64_t off = 0;
        for (size_t p = 0; p < os->parts.len; p++) {
            const contrib *cb = &os->parts.data[p];
            const isk_section *s = &c->files.data[cb->file].obj->secs.data[cb->sec];
            uint64_t a = s->align > 1 ? s->align : 1;
            uint64_t at = (off + a - 1) / a * a;
            if (at < off || !isk_fits(at, s->size, UINT64_MAX / 2)) {
                isk_loc loc = { .file = isk_link_file_name(c, cb->file) };
                isk_error(c->d, &loc, "section '%s' (size 0x%llx, alignment 0x%llx) makes output section '%s' too large",
                          s->name, (unsigned long long)s->size, (unsigned long long)a, os->name);
                return -1;
            }
            c->files.data[cb->file].ooff[cb->sec] = at;
            off = at + s->size;
        }
        os->size = off;
    }
    return 0;
}

static int place_cmp(const void *a, const void *b)
{
    const osec *x = *(const osec *const *)a, *y = *(const osec *const *)b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The first file contributing to an output section, for messages. */
static const char *first_file(const isk_link_ctx *c, const osec *os)
{
    return os->parts.len ? isk_link_file_name(c, os->parts.data[0].file) : NULL;
}

int isk_link_place(isk_link_ctx *c)
{
    const isk_link_target *t = c->t;
    int rc = 0;
    for (size_t k = 0; k < c->osecs.len; k++) {
        osec *os = &c->osecs.data[k];
        if (!(os->flags & SHF_ALLOC)) continue;
        for (size_t r = 0; r < t->nregions && os->region < 0; r++)
            if (isk_link_glob_match(t->regions[r].sections, os->name, &os->key)) os->region = (long)r;
        if (os->region < 0 && os->size) {
            isk_loc loc = { .file = first_file(c, os) };
            isk_error(c->d, &loc, "section '%s' (0x%llx bytes) matches no memory region of target '%s'", os->name,
                      (unsigned long long)os->size, t->name ? t->name : "?");
            rc = -1;
        }
    }
    c->region_end = isk_xcalloc(t->nregions + 1, sizeof *c->region_end);
    osec **list = isk_xcalloc(c->osecs.len + 1, sizeof *list);
    for (size_t r = 0; r < t->nregions; r++) {
        const isk_link_region *rg = &t->regions[r];
        size_t n = 0;
        for (size_t k = 0; k < c->osecs.len; k++)
            if (c->osecs.data[k].region == (long)r) list[n++] = &c->osecs.data[k];
        qsort(list, n, sizeof *list, place_cmp);
        uint64_t at = rg->base;
        int overflow = 0;
        for (size_t i = 0; i < n; i++) {
            osec *os = list[i];
            uint64_t a = os->align > 1 ? os->align : 1;
            uint64_t addr = (at + a - 1) / a * a;
            if (addr < at || !isk_fits(addr, os->size, UINT64_MAX)) overflow = 1;
            os->addr = addr;
            at = overflow ? UINT64_MAX : addr + os->size;
        }
        c->region_end[r] = at;
        if (overflow || at - rg->base > rg->size) {
            isk_loc loc = {0};
            if (overflow)
                isk_error(c->d, &loc, "region '%s' overflowed: its size is 0x%llx (%llu) bytes, and its sections do "
                          "not even fit the address space", rg->name, (unsigned long long)rg->size,
                          (unsigned long long)rg->size);
            else
                isk_error(c->d, &loc, "region '%s' overflowed: its size is 0x%llx (%llu) bytes, but its sections need "
                          "0x%llx (%llu) bytes", rg->name, (unsigned long long)rg->size, (unsigned long long)rg->size,
                          (unsigned long long)(at - rg->base), (unsigned long long)(at - rg->base));
            for (size_t i = 0; i < n; i++)
                isk_note(c->d, &loc, "section '%s' at 0x%llx, 0x%llx bytes", list[i]->name,
                         (unsigned long long)list[i]->addr, (unsigned long long)list[i]->size);
            rc = -1;
        }
    }
    free(list);
    return rc;
}

static long find_region(const isk_link_target *t, const char *name)
{
    for (size_t r = 0; r < t->nregions; r++)
        if (name && strcmp(t->regions[r].name, name) == 0) return (long)r;
    return -1;
}

int isk_link_define_symbols(isk_link_ctx *c)
{
    const isk_link_target *t = c->t;
    int rc = 0;
    for (size_t gi = 0; gi < c->syms.len; gi++) {
        gsym *g = &c->syms.data[gi];
        if (g->state != G_LINKER) continue;
        const isk_link_symdef *sd = &t->symbols[g->symdef];
        uint64_t v = 0;
        uint32_t os_index = 0;
        int ok = 1;
        switch (sd->kind) {
        case ISK_LSYM_ABS:
            break;
        case ISK_LSYM_SECTION_START:
        case ISK_LSYM_SECTION_END: {
            long k = sd->ref ? find_osec(c, sd->ref) : -1;
            if (k < 0) {
                ok = 0;
                break;
            }
            const osec *os = &c->osecs.data[k];
            v = os->addr + (sd->kind == ISK_LSYM_SECTION_END ? os->size : 0);
            os_index = (uint32_t)k + 1;
            break;
        }
        default: {
            long r = find_region(t, sd->ref);
            if (r < 0) {
                ok = 0;
                break;
            }
            const isk_link_region *rg = &t->regions[r];
            v = sd->kind == ISK_LSYM_REGION_START ? rg->base
              : sd->kind == ISK_LSYM_REGION_END ? rg->base + rg->size : c->region_end[r];
            break;
        }
        }
        if (!ok) {
            if (g->strong_ref) {
                isk_loc loc = { .file = g->ref_file < c->files.len ? isk_link_file_name(c, g->ref_file) : NULL };
                isk_error(c->d, &loc, "symbol '%s' is defined by target '%s' relative to '%s', which this program "
                          "does not have", g->name, t->name ? t->name : "?", sd->ref ? sd->ref : "(nothing)");
                rc = -1;
            }
            continue;
        }
        v += (uint64_t)sd->offset;
        if (sd->align > 1) v = (v + sd->align - 1) / sd->align * sd->align;
        g->value = v;
        g->osec = os_index;
        g->computed = 1;
    }
    return rc;
}
