/* Linker driver: input checks, e_flags merging, symbol resolution, archive pulling, COMMON
 * allocation. Layout and output are in link_layout.c and link_output.c. */
#include "elf/elf_util.h"
#include "elf/link_int.h"

#include <fnmatch.h>
#include <string.h>

/* ---- helpers shared by the link files ---- */

int isk_link_glob_match(const char *patterns, const char *name, size_t *index)
{
    char pat[256];
    size_t k = 0;
    for (const char *p = patterns; p && *p;) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        if (!n) break;
        if (n < sizeof pat) {
            memcpy(pat, p, n);
            pat[n] = 0;
            if (fnmatch(pat, name, 0) == 0) {
                if (index) *index = k;
                return 1;
            }
        }
        k++;
        p += n;
    }
    return 0;
}

const char *isk_link_file_name(const isk_link_ctx *c, uint32_t file)
{
    if (file >= c->files.len) return "(entry point)";
    const char *n = c->files.data[file].obj->filename;
    return n && *n ? n : "<input>";
}

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    while (*s) h = (h ^ (uint8_t)*s++) * 1099511628211ull;
    return h;
}

long isk_link_find(const isk_link_ctx *c, const char *name)
{
    if (!c->hash_cap) return -1;
    size_t mask = c->hash_cap - 1;
    for (size_t i = hash_name(name) & mask; c->hash[i]; i = (i + 1) & mask)
        if (strcmp(c->syms.data[c->hash[i] - 1].name, name) == 0) return (long)c->hash[i] - 1;
    return -1;
}

static void hash_put(isk_link_ctx *c, uint32_t g)
{
    size_t mask = c->hash_cap - 1;
    size_t i = hash_name(c->syms.data[g].name) & mask;
    while (c->hash[i]) i = (i + 1) & mask;
    c->hash[i] = g + 1;
}

static uint32_t find_or_add(isk_link_ctx *c, const char *name)
{
    long g = isk_link_find(c, name);
    if (g >= 0) return (uint32_t)g;
    if ((c->syms.len + 1) * 2 > c->hash_cap) {
        free(c->hash);
        c->hash_cap = c->hash_cap ? c->hash_cap * 2 : 256;
        c->hash = isk_xcalloc(c->hash_cap, sizeof *c->hash);
        for (size_t i = 0; i < c->syms.len; i++) hash_put(c, (uint32_t)i);
    }
    VEC_PUSH(&c->syms, (gsym){ .name = name, .state = G_UNDEF, .ref_file = UINT32_MAX - 1 });
    hash_put(c, (uint32_t)(c->syms.len - 1));
    return (uint32_t)(c->syms.len - 1);
}

uint64_t isk_link_sym_addr(const isk_link_ctx *c, uint32_t f, uint32_t k, uint32_t *out_osec)
{
    const lfile *lf = &c->files.data[f];
    *out_osec = 0;
    if (k == 0 || k >= lf->obj->syms.len) return 0;
    if (lf->gsym[k] >= 0) {
        const gsym *g = &c->syms.data[lf->gsym[k]];
        if (g->state == G_LINKER) {
            *out_osec = g->osec;
            return g->computed ? g->value : 0;
        }
        if (g->state == G_UNDEF) return 0;        /* weak undefined */
        if (g->file != f || g->sym != k) return isk_link_sym_addr(c, g->file, g->sym, out_osec);
    }
    const isk_symbol *s = &lf->obj->syms.data[k];
    if (s->shndx == ISK_SHN_ABS) return s->value;
    if (s->shndx == ISK_SHN_UNDEF || s->shndx == ISK_SHN_COMMON || s->shndx >= lf->obj->secs.len) return 0;
    uint32_t o = lf->osec[s->shndx];
    if (!o) return 0;                               /* in a dropped section */
    *out_osec = o;
    const osec *os = &c->osecs.data[o - 1];
    return (os->flags & SHF_ALLOC ? os->addr : 0) + lf->ooff[s->shndx] + s->value;
}

/* ---- inputs ---- */

static const char *class_name(int cls)
{
    return cls == ELFCLASS32 ? "ELFCLASS32" : cls == ELFCLASS64 ? "ELFCLASS64" : "an invalid class";
}

/* Check the file fits the target and merge its e_flags. */
static int check_input(isk_link_ctx *c, const isk_obj *o)
{
    const isk_link_target *t = c->t;
    isk_loc loc = { .file = o->filename && *o->filename ? o->filename : "<input>" };
    if (o->type != ET_REL) {
        isk_error(c->d, &loc, "not a relocatable object (ELF type %u); only .o files and archives can be linked", o->type);
        return -1;
    }
    if (o->elfclass != t->elfclass || o->big_endian != t->big_endian || o->machine != t->machine) {
        isk_error(c->d, &loc, "wrong kind of object: %s %s-endian machine %u, but target '%s' needs %s %s-endian "
                  "machine %u", class_name(o->elfclass), o->big_endian ? "big" : "little", o->machine,
                  t->name ? t->name : "?", class_name(t->elfclass), t->big_endian ? "big" : "little", t->machine);
        return -1;
    }
    if (c->files.len == 0) {
        c->flags = o->flags;
    } else if (t->merge_flags) {
        char err[512] = "";
        if (t->merge_flags(t, &c->flags, isk_link_file_name(c, 0), o->flags, loc.file, err, sizeof err) != 0) {
            isk_error(c->d, &loc, "%s", err[0] ? err : "incompatible e_flags");
            return -1;
        }
    }
    return 0;
}

static void report_duplicate(isk_link_ctx *c, const gsym *g, uint32_t f, uint32_t k)
{
    const isk_obj *a = c->files.data[g->file].obj, *b = c->files.data[f].obj;
    const isk_symbol *sa = &a->syms.data[g->sym], *sb = &b->syms.data[k];
    isk_loc loc = { .file = isk_link_file_name(c, f) };
    isk_error(c->d, &loc, "duplicate symbol '%s': defined in %s (%s+0x%llx) and in %s (%s+0x%llx)", g->name,
              isk_link_file_name(c, g->file), sa->shndx < a->secs.len ? a->secs.data[sa->shndx].name : "*ABS*",
              (unsigned long long)sa->value, isk_link_file_name(c, f),
              sb->shndx < b->secs.len ? b->secs.data[sb->shndx].name : "*ABS*", (unsigned long long)sb->value);
}

/* Add a file's globals to the symbol table. */
static int add_symbols(isk_link_ctx *c, uint32_t f)
{
    lfile *lf = &c->files.data[f];
    const isk_obj *o = lf->obj;
    int rc = 0;
    for (size_t k = 1; k < o->syms.len; k++) {
        const isk_symbol *s = &o->syms.data[k];
        lf->gsym[k] = -1;
        int undef = s->shndx == ISK_SHN_UNDEF;
        if ((s->bind == STB_LOCAL && !undef) || !s->name[0] || s->type == STT_SECTION || s->type == STT_FILE) continue;
        if (!undef && s->shndx != ISK_SHN_ABS && s->shndx != ISK_SHN_COMMON && s->shndx >= o->secs.len) {
            isk_loc loc = { .file = isk_link_file_name(c, f) };
            isk_error(c->d, &loc, "symbol '%s' has section index %u out of range", s->name, s->shndx);
            rc = -1;
            continue;
        }
        uint32_t gi = find_or_add(c, s->name);
        gsym *g = &c->syms.data[gi];
        lf->gsym[k] = (int32_t)gi;
        if (undef) {
            if (g->ref_file == UINT32_MAX - 1) g->ref_file = f;
            if (s->bind != STB_WEAK) g->strong_ref = 1;
            continue;
        }
        if (s->shndx == ISK_SHN_COMMON) {
            if (g->state == G_COMMON) {
                if (s->size > g->common_size) g->common_size = s->size;
                if (s->value > g->common_align) g->common_align = s->value;
            } else if (g->state != G_DEF) {
                *g = (gsym){ .name = g->name, .state = G_COMMON, .file = f, .sym = (uint32_t)k,
                             .strong_ref = g->strong_ref, .ref_file = g->ref_file, .common_size = s->size,
                             .common_align = s->value };
            }
            continue;
        }
        int weak = s->bind == STB_WEAK;
        if (g->state == G_DEF && !weak) {
            report_duplicate(c, g, f, (uint32_t)k);
            rc = -1;
        } else if (g->state == G_UNDEF || g->state == G_LINKER || (!weak && g->state != G_DEF)) {
            g->state = weak ? G_WEAK : G_DEF;
            g->file = f;
            g->sym = (uint32_t)k;
        }
    }
    return rc;
}

static int add_file(isk_link_ctx *c, const isk_obj *o, isk_obj *owned)
{
    if (check_input(c, o) != 0) {
        isk_obj_free(owned);
        return -1;
    }
    lfile lf = {
        .obj = o, .owned = owned,
        .osec = isk_xcalloc(o->secs.len, sizeof(uint32_t)),
        .ooff = isk_xcalloc(o->secs.len, sizeof(uint64_t)),
        .gsym = isk_xcalloc(o->syms.len, sizeof(int32_t)),
    };
    VEC_PUSH(&c->files, lf);
    return add_symbols(c, (uint32_t)(c->files.len - 1));
}

/* Pull archive members for strongly referenced undefined symbols until nothing changes,
 * over all archives (so their order does not matter). */
static int pull_archives(isk_link_ctx *c, isk_archive *const *ars, size_t nars)
{
    int rc = 0;
    uint8_t **loaded = isk_xcalloc(nars + 1, sizeof *loaded);
    for (size_t a = 0; a < nars; a++) loaded[a] = isk_xcalloc(ars[a]->members.len + 1, 1);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t a = 0; a < nars; a++) {
            for (size_t g = 0; g < c->syms.len; g++) {
                if (c->syms.data[g].state != G_UNDEF || !c->syms.data[g].strong_ref) continue;
                long m = isk_archive_find(ars[a], c->syms.data[g].name);
                if (m < 0 || loaded[a][m]) continue;
                loaded[a][m] = 1;
                isk_obj *o = isk_archive_member_obj(ars[a], (size_t)m, c->d);
                if (!o) {
                    rc = -1;
                    continue;
                }
                if (add_file(c, o, o) != 0) rc = -1;
                changed = 1;
            }
        }
    }
    for (size_t a = 0; a < nars; a++) free(loaded[a]);
    free(loaded);
    return rc;
}

/* The first place a symbol is used by a relocation, for the "undefined" message. */
static void report_undefined(isk_link_ctx *c, uint32_t gi)
{
    const gsym *g = &c->syms.data[gi];
    for (uint32_t f = 0; f < c->files.len; f++) {
        const lfile *lf = &c->files.data[f];
        for (size_t s = 1; s < lf->obj->secs.len; s++) {
            const isk_section *sec = &lf->obj->secs.data[s];
            for (size_t r = 0; r < sec->relocs.len; r++) {
                uint32_t k = sec->relocs.data[r].sym;
                if (k < lf->obj->syms.len && lf->gsym[k] == (int32_t)gi) {
                    isk_loc loc = { .file = isk_link_file_name(c, f) };
                    isk_error(c->d, &loc, "undefined symbol '%s', referenced from %s+0x%llx", g->name, sec->name,
                              (unsigned long long)sec->relocs.data[r].offset);
                    return;
                }
            }
        }
    }
    isk_loc loc = { .file = g->ref_file < c->files.len ? isk_link_file_name(c, g->ref_file) : NULL };
    if (g->ref_file >= c->files.len)
        isk_error(c->d, &loc, "entry symbol '%s' is not defined", g->name);
    else
        isk_error(c->d, &loc, "undefined symbol '%s' (declared in the symbol table)", g->name);
}

/* COMMON symbols become space in the linker's own object, so they are placed like any other
 * input section. */
static int allocate_commons(isk_link_ctx *c)
{
    isk_obj *o = NULL;
    uint32_t sec = 0;
    for (size_t gi = 0; gi < c->syms.len; gi++) {
        gsym *g = &c->syms.data[gi];
        if (g->state != G_COMMON) continue;
        if (!o) {
            o = isk_obj_new("<common symbols>", c->t->elfclass, c->t->big_endian, c->t->machine, ET_REL);
            sec = isk_obj_add_section(o, c->t->common_section ? c->t->common_section : ".bss", SHT_NOBITS,
                                      SHF_ALLOC | SHF_WRITE, 1);
        }
        uint64_t at = isk_obj_align(o, sec, g->common_align > 1 ? g->common_align : 1, 0);
        if (!isk_fits(at, g->common_size, UINT64_MAX / 2)) {
            isk_loc loc = { .file = isk_link_file_name(c, g->file) };
            isk_error(c->d, &loc, "common symbol '%s' is too large (size 0x%llx)", g->name,
                      (unsigned long long)g->common_size);
            isk_obj_free(o);
            return -1;
        }
        o->secs.data[sec].size += g->common_size;
        uint32_t k = isk_obj_add_symbol(o, &(isk_symbol){ .name = (char *)g->name, .value = at,
                                                         .size = g->common_size, .shndx = sec, .bind = STB_GLOBAL,
                                                         .type = STT_OBJECT });
        g->sym = k;
        g->state = G_DEF;
        g->file = (uint32_t)c->files.len;           /* the object added below */
    }
    if (!o) return 0;
    lfile lf = {
        .obj = o, .owned = o,
        .osec = isk_xcalloc(o->secs.len, sizeof(uint32_t)),
        .ooff = isk_xcalloc(o->secs.len, sizeof(uint64_t)),
        .gsym = isk_xcalloc(o->syms.len, sizeof(int32_t)),
    };
    for (size_t k = 1; k < o->syms.len; k++) lf.gsym[k] = (int32_t)isk_link_find(c, o->syms.data[k].name);
    VEC_PUSH(&c->files, lf);
    return 0;
}

/* ---- queries for the after_layout hook ---- */

int isk_link_symbol_value(const isk_link_ctx *c, const char *name, uint64_t *value)
{
    long g = isk_link_find(c, name);
    if (g < 0) return -1;
    const gsym *s = &c->syms.data[g];
    if (s->state == G_UNDEF || (s->state == G_LINKER && !s->computed)) return -1;
    uint32_t os;
    *value = s->state == G_LINKER ? s->value : isk_link_sym_addr(c, s->file, s->sym, &os);
    return 0;
}

/* ---- the driver ---- */

static void ctx_free(isk_link_ctx *c)
{
    for (size_t i = 0; i < c->files.len; i++) {
        lfile *lf = &c->files.data[i];
        free(lf->osec);
        free(lf->ooff);
        free(lf->gsym);
        isk_obj_free(lf->owned);
    }
    for (size_t i = 0; i < c->osecs.len; i++) {
        free(c->osecs.data[i].name);
        free(c->osecs.data[i].data);
        VEC_FREE(&c->osecs.data[i].parts);
    }
    VEC_FREE(&c->files);
    VEC_FREE(&c->syms);
    VEC_FREE(&c->osecs);
    free(c->hash);
    free(c->region_end);
}

int isk_link(const isk_link_target *t, isk_obj *const *inputs, size_t ninputs, isk_archive *const *archives,
             size_t narchives, const char *output_name, isk_obj **out, isk_diag *diag)
{
    isk_link_ctx c = { .t = t, .d = diag };
    *out = NULL;
    int errors = diag->errors;
    if (ninputs == 0) {
        isk_error(diag, NULL, "no input objects to link");
        return -1;
    }
    /* Linker-provided symbols first, so that they satisfy references without pulling archive
     * members; an input definition replaces them. */
    for (size_t i = 0; i < t->nsymbols; i++) {
        uint32_t g = find_or_add(&c, t->symbols[i].name);
        c.syms.data[g].state = G_LINKER;
        c.syms.data[g].symdef = (uint32_t)i;
    }
    if (t->entry_symbol) {
        uint32_t g = find_or_add(&c, t->entry_symbol);
        c.syms.data[g].strong_ref = 1;
        c.syms.data[g].ref_file = UINT32_MAX;
    }
    for (size_t i = 0; i < ninputs; i++) add_file(&c, inputs[i], NULL);
    if (diag->errors == errors) pull_archives(&c, archives, narchives);
    if (diag->errors == errors) {
        for (size_t g = 0; g < c.syms.len; g++)
            if (c.syms.data[g].state == G_UNDEF && c.syms.data[g].strong_ref) report_undefined(&c, (uint32_t)g);
    }
    if (diag->errors == errors) allocate_commons(&c);
    if (diag->errors == errors) isk_link_build_sections(&c);
    if (diag->errors == errors) isk_link_place(&c);
    if (diag->errors == errors) isk_link_define_symbols(&c);
    if (diag->errors == errors && t->after_layout) t->after_layout(t, &c, diag);
    if (diag->errors == errors) isk_link_relocate(&c);
    if (diag->errors == errors) *out = isk_link_make_output(&c, output_name);
    ctx_free(&c);
    if (diag->errors != errors) {
        isk_obj_free(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}
