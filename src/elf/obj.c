#include "elf/obj.h"

#include <stdbool.h>
#include <string.h>

isk_obj *isk_obj_new(const char *filename, int elfclass, int big_endian, uint16_t machine, uint16_t type)
{
    isk_obj *o = isk_xcalloc(1, sizeof *o);
    o->filename = isk_xstrdup(filename ? filename : "");
    o->elfclass = (uint8_t)elfclass;
    o->big_endian = big_endian != 0;
    o->machine = machine;
    o->type = type;
    VEC_PUSH(&o->secs, (isk_section){ .name = isk_xstrdup(""), .type = SHT_NULL });
    VEC_PUSH(&o->syms, (isk_symbol){ .name = isk_xstrdup("") });
    return o;
}

void isk_obj_free(isk_obj *o)
{
    if (!o) return;
    for (size_t i = 0; i < o->secs.len; i++) {
        free(o->secs.data[i].name);
        free(o->secs.data[i].data);
        VEC_FREE(&o->secs.data[i].relocs);
    }
    for (size_t i = 0; i < o->syms.len; i++) free(o->syms.data[i].name);
    VEC_FREE(&o->secs);
    VEC_FREE(&o->syms);
    VEC_FREE(&o->phdrs);
    free(o->sym_index.slots);
    free(o->sec_index.slots);
    free(o->filename);
    free(o);
}

void isk_obj_set_filename(isk_obj *o, const char *filename)
{
    free(o->filename);
    o->filename = isk_xstrdup(filename ? filename : "");
}

/* ---- name indexes (symbols and sections) ---- */

typedef const char *(*name_of)(const isk_obj *o, uint32_t i);
static const char *symbol_name(const isk_obj *o, uint32_t i) { return o->syms.data[i].name; }
static const char *section_name(const isk_obj *o, uint32_t i) { return o->secs.data[i].name; }

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ull;      /* FNV-1a */
    while (*s) h = (h ^ (uint8_t)*s++) * 1099511628211ull;
    return h;
}

static void index_insert(const isk_obj *o, isk_name_index *x, name_of name, uint32_t idx)
{
    size_t mask = x->cap - 1;
    for (size_t i = hash_name(name(o, idx)) & mask;; i = (i + 1) & mask) {
        if (!x->slots[i]) { x->slots[i] = idx; x->used++; return; }
        if (strcmp(name(o, x->slots[i]), name(o, idx)) == 0) return; /* keep the first */
    }
}

/* Index entry idx of a list of `count` (entries 1..count-1 are indexed already). */
static void index_add(const isk_obj *o, isk_name_index *x, name_of name, size_t count, uint32_t idx)
{
    if (!name(o, idx)[0]) return;
    if ((x->used + 1) * 2 > x->cap) {
        free(x->slots);
        x->cap = x->cap ? x->cap * 2 : 64;
        x->slots = isk_xcalloc(x->cap, sizeof *x->slots);
        x->used = 0;
        for (size_t i = 1; i < count; i++)
            if (name(o, (uint32_t)i)[0] && i != idx) index_insert(o, x, name, (uint32_t)i);
    }
    index_insert(o, x, name, idx);
}

static uint32_t index_find(const isk_obj *o, const isk_name_index *x, name_of name, const char *key)
{
    if (!x->cap || !key[0]) return 0;
    size_t mask = x->cap - 1;
    for (size_t i = hash_name(key) & mask; x->slots[i]; i = (i + 1) & mask)
        if (strcmp(name(o, x->slots[i]), key) == 0) return x->slots[i];
    return 0;
}

/* ---- sections ---- */

uint32_t isk_obj_add_section(isk_obj *o, const char *name, uint32_t type, uint64_t flags, uint64_t align)
{
    VEC_PUSH(&o->secs, (isk_section){
        .name = isk_xstrdup(name), .type = type, .flags = flags, .align = align ? align : 1 });
    uint32_t idx = (uint32_t)(o->secs.len - 1);
    index_add(o, &o->sec_index, section_name, o->secs.len, idx);
    return idx;
}

uint32_t isk_obj_find_section(const isk_obj *o, const char *name)
{
    return index_find(o, &o->sec_index, section_name, name);
}

uint32_t isk_obj_section(isk_obj *o, const char *name, uint32_t type, uint64_t flags, uint64_t align)
{
    uint32_t i = isk_obj_find_section(o, name);
    return i ? i : isk_obj_add_section(o, name, type, flags, align);
}

uint64_t isk_obj_append(isk_obj *o, uint32_t sec, const void *bytes, size_t n)
{
    isk_section *s = &o->secs.data[sec];
    uint64_t at = s->size;
    if (n == 0) return at;                  /* also keeps a never-filled section's data NULL */
    if (s->type == SHT_NOBITS) {
        s->size += n;
        return at;
    }
    if (s->size + n > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        while (cap < s->size + n) cap *= 2;
        s->data = isk_xrealloc(s->data, cap);
        s->cap = cap;
    }
    if (bytes) memcpy(s->data + s->size, bytes, n);
    else memset(s->data + s->size, 0, n);
    s->size += n;
    return at;
}

uint64_t isk_obj_align(isk_obj *o, uint32_t sec, uint64_t align, uint8_t fill)
{
    isk_section *s = &o->secs.data[sec];
    if (align < 2) return s->size;
    if (align > s->align) s->align = align;
    uint64_t pad = (align - s->size % align) % align;
    while (pad--) {
        if (s->type == SHT_NOBITS) isk_obj_append(o, sec, NULL, 1);
        else isk_obj_append(o, sec, &fill, 1);
    }
    return o->secs.data[sec].size;
}

int isk_obj_patch(isk_obj *o, uint32_t sec, uint64_t offset, const void *bytes, size_t n)
{
    isk_section *s = &o->secs.data[sec];
    if (s->type == SHT_NOBITS || offset > s->size || n > s->size - offset) return -1;
    memcpy(s->data + offset, bytes, n);
    return 0;
}

uint32_t isk_obj_lookup(const isk_obj *o, const char *name)
{
    return index_find(o, &o->sym_index, symbol_name, name);
}

/* ---- symbols ---- */

uint32_t isk_obj_add_symbol(isk_obj *o, const isk_symbol *s)
{
    isk_symbol c = *s;
    c.name = isk_xstrdup(s->name ? s->name : "");
    VEC_PUSH(&o->syms, c);
    uint32_t idx = (uint32_t)(o->syms.len - 1);
    index_add(o, &o->sym_index, symbol_name, o->syms.len, idx);
    return idx;
}

uint32_t isk_obj_symbol(isk_obj *o, const char *name)
{
    uint32_t i = isk_obj_lookup(o, name);
    if (i) return i;
    return isk_obj_add_symbol(o, &(isk_symbol){ .name = (char *)name, .bind = STB_LOCAL });
}

void isk_obj_define(isk_obj *o, uint32_t sym, uint32_t sec, uint64_t value)
{
    o->syms.data[sym].shndx = sec;
    o->syms.data[sym].value = value;
}

void isk_obj_set_binding(isk_obj *o, uint32_t sym, uint8_t bind)
{
    o->syms.data[sym].bind = bind;
}

static bool is_section_symbol(const isk_obj *o, uint32_t i, uint32_t sec)
{
    return i && i < o->syms.len && o->syms.data[i].type == STT_SECTION && o->syms.data[i].shndx == sec;
}

uint32_t isk_obj_section_symbol(isk_obj *o, uint32_t sec)
{
    /* Remembered per section: an assembler asks once per relocation against a local label.
     * Each symbol is looked at once in all, whatever section asks (a scan per section made
     * 30 k sections with relocations quadratic). */
    if (!o->syms_scanned) o->syms_scanned = 1;
    for (; o->syms_scanned < o->syms.len; o->syms_scanned++) {
        const isk_symbol *y = &o->syms.data[o->syms_scanned];
        if (y->type == STT_SECTION && y->shndx < o->secs.len &&
            !is_section_symbol(o, o->secs.data[y->shndx].section_symbol, y->shndx))
            o->secs.data[y->shndx].section_symbol = o->syms_scanned;
    }
    isk_section *s = &o->secs.data[sec];
    if (is_section_symbol(o, s->section_symbol, sec)) return s->section_symbol;
    uint32_t i = isk_obj_add_symbol(o, &(isk_symbol){ .name = "", .shndx = sec, .bind = STB_LOCAL, .type = STT_SECTION });
    return o->secs.data[sec].section_symbol = i;
}

void isk_obj_add_reloc(isk_obj *o, uint32_t sec, uint64_t offset, uint32_t type, uint32_t sym, int64_t addend)
{
    VEC_PUSH(&o->secs.data[sec].relocs, (isk_obj_reloc){ offset, type, sym, addend });
}

/* ---- copy ---- */

isk_obj *isk_obj_clone(const isk_obj *src)
{
    isk_obj *o = isk_obj_new(src->filename, src->elfclass, src->big_endian, src->machine, src->type);
    o->osabi = src->osabi;
    o->abiversion = src->abiversion;
    o->flags = src->flags;
    o->entry = src->entry;
    for (size_t i = 1; i < src->secs.len; i++) {
        const isk_section *s = &src->secs.data[i];
        uint32_t k = isk_obj_add_section(o, s->name, s->type, s->flags, s->align);
        isk_section *d = &o->secs.data[k];
        d->addr = s->addr;
        d->entsize = s->entsize;
        d->link = s->link;
        d->info = s->info;
        if (s->type == SHT_NOBITS || !s->data) d->size = s->size;
        else isk_obj_append(o, k, s->data, s->size);
        d = &o->secs.data[k];
        for (size_t r = 0; r < s->relocs.len; r++) VEC_PUSH(&d->relocs, s->relocs.data[r]);
    }
    for (size_t i = 1; i < src->syms.len; i++) isk_obj_add_symbol(o, &src->syms.data[i]);
    for (size_t i = 0; i < src->phdrs.len; i++) VEC_PUSH(&o->phdrs, src->phdrs.data[i]);
    return o;
}
