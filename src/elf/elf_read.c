/* ELF image -> isk_obj. The input is untrusted: every offset, size, index and string is
 * checked before use, and each problem is reported once, naming the file and the part.
 *
 * The header and table bounds are checked on the raw bytes first, so that libelf is only
 * ever handed a file whose tables lie inside the buffer; libelf then decodes the section
 * headers, symbols, relocations and program headers in the file's class and byte order.
 * Section contents and string tables are read straight from the (bounds-checked) buffer. */
#include "base/file.h"
#include "elf/elf_file.h"
#include "elf/elf_util.h"

#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <string.h>

typedef struct reader {
    const uint8_t *img;
    size_t n;
    isk_diag *d;
    isk_loc loc;
    int c32, be;
    uint16_t type;
    uint64_t ehsize;
    uint64_t shoff, phoff;
    size_t shnum, phnum;
    size_t shstrndx;
    Elf *elf;
    GElf_Shdr *sh;           /* all section headers */
    uint32_t *map;           /* ELF section index -> model index (0 = absorbed or null) */
    size_t symtab;           /* ELF index of the symbol table, 0 if none */
    size_t nsyms;
} reader;

__attribute__((format(printf, 2, 3)))
static int fail(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    isk_diag_vreport(r->d, ISK_ERROR, &r->loc, fmt, ap);
    va_end(ap);
    return -1;
}

static uint64_t raw(const reader *r, size_t off, unsigned n)
{
    return isk_get_uint(r->img + off, n, r->be);
}

/* A name for messages; only valid once the section name table has been checked. */
static const char *secname(const reader *r, size_t i)
{
    if (!r->shstrndx || i >= r->shnum) return "";
    const GElf_Shdr *t = &r->sh[r->shstrndx];
    if (r->sh[i].sh_name >= t->sh_size) return "?";
    return (const char *)r->img + t->sh_offset + r->sh[i].sh_name;
}

static int is_pow2(uint64_t a)
{
    return a == 0 || (a & (a - 1)) == 0;
}

/* --- step 1: the identification and header, on raw bytes --- */
static int check_header(reader *r)
{
    if (r->n < EI_NIDENT)
        return fail(r, "truncated file: %zu bytes, too short for an ELF identification (%d bytes)", r->n, EI_NIDENT);
    if (memcmp(r->img, ELFMAG, SELFMAG) != 0)
        return fail(r, "not an ELF file (bad magic %02x %02x %02x %02x)", r->img[0], r->img[1], r->img[2], r->img[3]);
    uint8_t cls = r->img[EI_CLASS], data = r->img[EI_DATA];
    if (cls != ELFCLASS32 && cls != ELFCLASS64)
        return fail(r, "invalid ELF class %u (expected 1 for 32-bit or 2 for 64-bit)", cls);
    if (data != ELFDATA2LSB && data != ELFDATA2MSB)
        return fail(r, "invalid ELF data encoding %u (expected 1 for little-endian or 2 for big-endian)", data);
    if (r->img[EI_VERSION] != EV_CURRENT)
        return fail(r, "unsupported ELF identification version %u", r->img[EI_VERSION]);
    r->c32 = cls == ELFCLASS32;
    r->be = data == ELFDATA2MSB;
    r->ehsize = r->c32 ? sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr);
    if (r->n < r->ehsize)
        return fail(r, "truncated file: %zu bytes, the ELF%d header needs %llu", r->n, r->c32 ? 32 : 64,
                    (unsigned long long)r->ehsize);

    /* Field offsets of Elf32_Ehdr / Elf64_Ehdr. */
    unsigned w = r->c32 ? 4 : 8;
    size_t at_phoff = 24 + w, at_shoff = 24 + 2 * w, at_ehsize = 28 + 3 * w;
    r->type = (uint16_t)raw(r, 16, 2);
    uint32_t version = (uint32_t)raw(r, 20, 4);
    r->phoff = raw(r, at_phoff, w);
    r->shoff = raw(r, at_shoff, w);
    uint64_t ehsize = raw(r, at_ehsize, 2);
    uint64_t phentsize = raw(r, at_ehsize + 2, 2);
    r->phnum = (size_t)raw(r, at_ehsize + 4, 2);
    uint64_t shentsize = raw(r, at_ehsize + 6, 2);
    r->shnum = (size_t)raw(r, at_ehsize + 8, 2);
    r->shstrndx = (size_t)raw(r, at_ehsize + 10, 2);

    if (r->type != ET_REL && r->type != ET_EXEC)
        return fail(r, "unsupported ELF file type %u (only relocatable (1) and executable (2) files)", r->type);
    if (version != EV_CURRENT) return fail(r, "unsupported ELF version %u in e_version", version);
    if (ehsize != r->ehsize)
        return fail(r, "bad ELF header size e_ehsize %llu (expected %llu)", (unsigned long long)ehsize,
                    (unsigned long long)r->ehsize);

    uint64_t want_sh = r->c32 ? sizeof(Elf32_Shdr) : sizeof(Elf64_Shdr);
    if (r->shnum == 0 && r->shoff != 0)
        return fail(r, "extended section numbering (e_shnum 0 with e_shoff 0x%llx) is not supported",
                    (unsigned long long)r->shoff);
    if (r->shnum) {
        if (shentsize != want_sh)
            return fail(r, "bad section header size e_shentsize %llu (expected %llu)", (unsigned long long)shentsize,
                        (unsigned long long)want_sh);
        if (r->shoff < r->ehsize || !isk_fits(r->shoff, r->shnum * want_sh, r->n))
            return fail(r, "section header table (offset 0x%llx, %zu entries of %llu bytes) lies outside the file "
                        "(%zu bytes)", (unsigned long long)r->shoff, r->shnum, (unsigned long long)want_sh, r->n);
        if (r->shnum >= ISK_SHN_LORESERVE) return fail(r, "too many sections (%zu)", r->shnum);
        if (r->shstrndx >= r->shnum)
            return fail(r, "section name table index e_shstrndx %zu out of range (%zu sections)", r->shstrndx, r->shnum);
    } else if (r->shstrndx) {
        return fail(r, "section name table index e_shstrndx %zu but the file has no sections", r->shstrndx);
    }
    uint64_t want_ph = r->c32 ? sizeof(Elf32_Phdr) : sizeof(Elf64_Phdr);
    if (r->phnum) {
        if (r->phnum == PN_XNUM) return fail(r, "extended program header numbering is not supported");
        if (phentsize != want_ph)
            return fail(r, "bad program header size e_phentsize %llu (expected %llu)", (unsigned long long)phentsize,
                        (unsigned long long)want_ph);
        if (r->phoff < r->ehsize || !isk_fits(r->phoff, r->phnum * want_ph, r->n))
            return fail(r, "program header table (offset 0x%llx, %zu entries of %llu bytes) lies outside the file "
                        "(%zu bytes)", (unsigned long long)r->phoff, r->phnum, (unsigned long long)want_ph, r->n);
    }
    return 0;
}

/* --- step 2: section headers: bounds, names, overlaps --- */
typedef struct span { uint64_t off, size; size_t idx; } span;

static int span_cmp(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off ? 1 : (x->idx > y->idx) - (x->idx < y->idx);
}

static int check_sections(reader *r)
{
    r->sh = isk_xcalloc(r->shnum ? r->shnum : 1, sizeof *r->sh);
    for (size_t i = 0; i < r->shnum; i++) {
        Elf_Scn *scn = elf_getscn(r->elf, i);
        if (!scn || !gelf_getshdr(scn, &r->sh[i]))
            return fail(r, "section [%zu]: cannot decode the section header: %s", i, elf_errmsg(-1));
    }
    const uint64_t amax = r->c32 ? UINT32_MAX : UINT64_MAX;
    /* The name table first, so that later messages can name sections. */
    if (r->shstrndx) {
        const GElf_Shdr *t = &r->sh[r->shstrndx];
        if (t->sh_type != SHT_STRTAB)
            return fail(r, "section name table [%zu] has type %u, not SHT_STRTAB", r->shstrndx, t->sh_type);
        if (!isk_fits(t->sh_offset, t->sh_size, r->n))
            return fail(r, "section name table [%zu] (offset 0x%llx, size 0x%llx) extends past the end of the file "
                        "(%zu bytes)", r->shstrndx, (unsigned long long)t->sh_offset, (unsigned long long)t->sh_size, r->n);
        if (t->sh_size == 0 || r->img[t->sh_offset + t->sh_size - 1] != 0)
            return fail(r, "section name table [%zu] is empty or not NUL-terminated", r->shstrndx);
        for (size_t i = 1; i < r->shnum; i++)
            if (r->sh[i].sh_name >= t->sh_size)
                return fail(r, "section [%zu]: name offset %u is outside the section name table (%llu bytes)", i,
                            r->sh[i].sh_name, (unsigned long long)t->sh_size);
    }
    span *spans = isk_xcalloc(r->shnum + 2, sizeof *spans);
    size_t ns = 0;
    spans[ns++] = (span){ 0, r->ehsize, 0 };                          /* the ELF header */
    if (r->shnum) spans[ns++] = (span){ r->shoff, r->shnum * (uint64_t)(r->c32 ? sizeof(Elf32_Shdr) : sizeof(Elf64_Shdr)), 0 };
    int rc = 0;
    for (size_t i = 1; i < r->shnum && rc == 0; i++) {
        const GElf_Shdr *s = &r->sh[i];
        if (s->sh_type == SHT_NULL) continue;
        if (!is_pow2(s->sh_addralign))
            rc = fail(r, "section [%zu] '%s': alignment %llu is not a power of two", i, secname(r, i),
                      (unsigned long long)s->sh_addralign);
        else if ((s->sh_flags & SHF_ALLOC) && !isk_fits(s->sh_addr, s->sh_size, amax))
            rc = fail(r, "section [%zu] '%s': address 0x%llx + size 0x%llx overflows the address space", i,
                      secname(r, i), (unsigned long long)s->sh_addr, (unsigned long long)s->sh_size);
        else if (s->sh_type != SHT_NOBITS && !isk_fits(s->sh_offset, s->sh_size, r->n))
            rc = fail(r, "section [%zu] '%s': contents (offset 0x%llx, size 0x%llx) extend past the end of the file "
                      "(%zu bytes)", i, secname(r, i), (unsigned long long)s->sh_offset,
                      (unsigned long long)s->sh_size, r->n);
        else if (s->sh_type != SHT_NOBITS && s->sh_size)
            spans[ns++] = (span){ s->sh_offset, s->sh_size, i };
    }
    if (rc == 0) {
        qsort(spans, ns, sizeof *spans, span_cmp);
        for (size_t k = 1; k < ns && rc == 0; k++) {
            const span *a = &spans[k - 1], *b = &spans[k];
            if (b->off < a->off + a->size) {
                const char *what_a = a->idx ? secname(r, a->idx) : a->off == 0 ? "ELF header" : "section header table";
                const char *what_b = b->idx ? secname(r, b->idx) : "section header table";
                rc = fail(r, "overlapping file contents: [%zu] '%s' (offset 0x%llx, size 0x%llx) and [%zu] '%s' "
                          "(offset 0x%llx, size 0x%llx)", a->idx, what_a, (unsigned long long)a->off,
                          (unsigned long long)a->size, b->idx, what_b, (unsigned long long)b->off,
                          (unsigned long long)b->size);
            }
        }
    }
    free(spans);
    return rc;
}

/* --- step 3: which sections become model sections --- */
static int classify(reader *r, isk_obj *o)
{
    r->map = isk_xcalloc(r->shnum ? r->shnum : 1, sizeof *r->map);
    size_t strtab = 0;
    for (size_t i = 1; i < r->shnum; i++) {
        const GElf_Shdr *s = &r->sh[i];
        switch (s->sh_type) {
        case SHT_SYMTAB:
            if (r->symtab)
                return fail(r, "section [%zu] '%s': a second symbol table (the first is [%zu])", i, secname(r, i), r->symtab);
            r->symtab = i;
            strtab = s->sh_link;
            break;
        case SHT_REL:
            return fail(r, "section [%zu] '%s': SHT_REL relocations are not supported (isekit uses SHT_RELA)", i,
                        secname(r, i));
        case SHT_GROUP:
            return fail(r, "section [%zu] '%s': section groups (SHT_GROUP) are not supported", i, secname(r, i));
        case SHT_SYMTAB_SHNDX:
            return fail(r, "section [%zu] '%s': extended symbol section indices are not supported", i, secname(r, i));
        default:
            break;
        }
    }
    if (r->symtab && (strtab == 0 || strtab >= r->shnum || r->sh[strtab].sh_type != SHT_STRTAB))
        return fail(r, "symbol table [%zu] '%s': its string table index %zu is not a SHT_STRTAB section", r->symtab,
                    secname(r, r->symtab), strtab);
    for (size_t i = 1; i < r->shnum; i++) {
        const GElf_Shdr *s = &r->sh[i];
        if (s->sh_type == SHT_NULL || s->sh_type == SHT_SYMTAB || (s->sh_type == SHT_RELA && !(s->sh_flags & SHF_ALLOC))
            || i == r->shstrndx || (r->symtab && i == strtab))
            continue;
        uint32_t k = isk_obj_add_section(o, secname(r, i), s->sh_type, s->sh_flags, s->sh_addralign);
        isk_section *m = &o->secs.data[k];
        m->addr = s->sh_addr;
        m->entsize = s->sh_entsize;
        m->info = s->sh_info;
        if (s->sh_type == SHT_NOBITS) m->size = s->sh_size;
        else isk_obj_append(o, k, r->img + s->sh_offset, (size_t)s->sh_size);
        r->map[i] = k;
    }
    for (size_t i = 1; i < r->shnum; i++) {
        const GElf_Shdr *s = &r->sh[i];
        if (!r->map[i] || !(s->sh_flags & SHF_LINK_ORDER)) continue;
        if (s->sh_link >= r->shnum || !r->map[s->sh_link])
            return fail(r, "section [%zu] '%s': SHF_LINK_ORDER link %u is not a content section", i, secname(r, i),
                        s->sh_link);
        o->secs.data[r->map[i]].link = r->map[s->sh_link];
    }
    return 0;
}

/* --- step 4: symbols --- */
static int read_symbols(reader *r, isk_obj *o)
{
    if (!r->symtab) return 0;
    size_t i = r->symtab;
    const GElf_Shdr *s = &r->sh[i];
    uint64_t esz = r->c32 ? sizeof(Elf32_Sym) : sizeof(Elf64_Sym);
    if (s->sh_entsize != esz)
        return fail(r, "symbol table [%zu] '%s': entry size %llu (expected %llu)", i, secname(r, i),
                    (unsigned long long)s->sh_entsize, (unsigned long long)esz);
    if (s->sh_size % esz)
        return fail(r, "symbol table [%zu] '%s': size %llu is not a multiple of the entry size %llu", i, secname(r, i),
                    (unsigned long long)s->sh_size, (unsigned long long)esz);
    r->nsyms = (size_t)(s->sh_size / esz);
    if (s->sh_info > r->nsyms || (r->nsyms && s->sh_info == 0))
        return fail(r, "symbol table [%zu] '%s': first global index %u out of range (%zu symbols)", i, secname(r, i),
                    s->sh_info, r->nsyms);
    const GElf_Shdr *st = &r->sh[s->sh_link];
    if (r->nsyms > 1 && (st->sh_size == 0 || r->img[st->sh_offset + st->sh_size - 1] != 0))
        return fail(r, "string table [%u] '%s' is empty or not NUL-terminated", s->sh_link, secname(r, s->sh_link));
    Elf_Data *data = r->nsyms ? elf_getdata(elf_getscn(r->elf, i), NULL) : NULL;
    if (r->nsyms && (!data || data->d_size < r->nsyms * esz))
        return fail(r, "symbol table [%zu] '%s': cannot decode: %s", i, secname(r, i), elf_errmsg(-1));
    const char *strs = (const char *)r->img + st->sh_offset;
    for (size_t k = 1; k < r->nsyms; k++) {
        GElf_Sym g;
        if (!gelf_getsym(data, (int)k, &g))
            return fail(r, "symbol %zu: cannot decode: %s", k, elf_errmsg(-1));
        if (g.st_name >= st->sh_size)
            return fail(r, "symbol %zu: name offset %u is outside the string table (%llu bytes)", k, g.st_name,
                        (unsigned long long)st->sh_size);
        const char *name = strs + g.st_name;
        uint8_t bind = GELF_ST_BIND(g.st_info), type = GELF_ST_TYPE(g.st_info);
        if (bind != STB_LOCAL && bind != STB_GLOBAL && bind != STB_WEAK)
            return fail(r, "symbol %zu '%s': unsupported binding %u", k, name, bind);
        if ((bind == STB_LOCAL) != (k < s->sh_info))
            return fail(r, "symbol %zu '%s': %s symbol on the wrong side of the first global index %u", k, name,
                        bind == STB_LOCAL ? "local" : "global", s->sh_info);
        uint32_t shndx = g.st_shndx;
        if (shndx == SHN_XINDEX)
            return fail(r, "symbol %zu '%s': extended section index (SHN_XINDEX) is not supported", k, name);
        if (shndx != SHN_UNDEF && shndx != SHN_ABS && shndx != SHN_COMMON) {
            if (shndx >= r->shnum)
                return fail(r, "symbol %zu '%s': section index %u out of range (%zu sections)", k, name, shndx, r->shnum);
            if (!r->map[shndx])
                return fail(r, "symbol %zu '%s': defined in section [%u] '%s', which has no contents of its own", k,
                            name, shndx, secname(r, shndx));
            const GElf_Shdr *home = &r->sh[shndx];
            if (r->type == ET_REL && g.st_value > home->sh_size)
                return fail(r, "symbol %zu '%s': value 0x%llx lies past the end of section [%u] '%s' (size 0x%llx)", k,
                            name, (unsigned long long)g.st_value, shndx, secname(r, shndx),
                            (unsigned long long)home->sh_size);
            /* A size running past the section's end is cut there: poplibs' FN_SIZE measures from
             * a label before the symbol (`.size f, . - f_START`), and GNU and LLVM tools take it. */
            if (r->type == ET_REL && g.st_size > home->sh_size - g.st_value) g.st_size = home->sh_size - g.st_value;
            shndx = r->map[shndx];
        } else if (shndx == SHN_COMMON && !is_pow2(g.st_value)) {
            return fail(r, "symbol %zu '%s': common alignment %llu is not a power of two", k, name,
                        (unsigned long long)g.st_value);
        }
        isk_obj_add_symbol(o, &(isk_symbol){
            .name = (char *)name, .value = g.st_value, .size = g.st_size, .shndx = shndx,
            .bind = bind, .type = type, .vis = GELF_ST_VISIBILITY(g.st_other) });
    }
    return 0;
}

/* --- step 5: relocations --- */
static int read_relocs(reader *r, isk_obj *o)
{
    uint64_t esz = r->c32 ? sizeof(Elf32_Rela) : sizeof(Elf64_Rela);
    for (size_t i = 1; i < r->shnum; i++) {
        const GElf_Shdr *s = &r->sh[i];
        /* Allocated RELA sections (an executable's runtime relocations) are contents. */
        if (s->sh_type != SHT_RELA || (s->sh_flags & SHF_ALLOC)) continue;
        if (s->sh_entsize != esz)
            return fail(r, "relocation section [%zu] '%s': entry size %llu (expected %llu)", i, secname(r, i),
                        (unsigned long long)s->sh_entsize, (unsigned long long)esz);
        if (s->sh_size % esz)
            return fail(r, "relocation section [%zu] '%s': size %llu is not a multiple of the entry size %llu", i,
                        secname(r, i), (unsigned long long)s->sh_size, (unsigned long long)esz);
        size_t n = (size_t)(s->sh_size / esz);
        if (!n) continue;
        if (!r->symtab || s->sh_link != r->symtab)
            return fail(r, "relocation section [%zu] '%s': symbol table link %u is not the symbol table", i,
                        secname(r, i), s->sh_link);
        if (s->sh_info == 0 || s->sh_info >= r->shnum || !r->map[s->sh_info])
            return fail(r, "relocation section [%zu] '%s': target section index %u is not a content section", i,
                        secname(r, i), s->sh_info);
        uint32_t target = r->map[s->sh_info];
        isk_section *t = &o->secs.data[target];
        if (t->type == SHT_NOBITS)
            return fail(r, "relocation section [%zu] '%s': target section [%u] '%s' has no contents (SHT_NOBITS)", i,
                        secname(r, i), s->sh_info, t->name);
        Elf_Data *data = elf_getdata(elf_getscn(r->elf, i), NULL);
        if (!data || data->d_size < n * esz)
            return fail(r, "relocation section [%zu] '%s': cannot decode: %s", i, secname(r, i), elf_errmsg(-1));
        uint64_t base = r->type == ET_EXEC ? t->addr : 0;
        for (size_t k = 0; k < n; k++) {
            GElf_Rela g;
            if (!gelf_getrela(data, (int)k, &g))
                return fail(r, "relocation section [%zu] '%s': entry %zu: cannot decode: %s", i, secname(r, i), k,
                            elf_errmsg(-1));
            uint64_t sym = GELF_R_SYM(g.r_info);
            uint32_t type = (uint32_t)GELF_R_TYPE(g.r_info);
            if (sym >= r->nsyms)
                return fail(r, "relocation section [%zu] '%s': entry %zu: symbol index %llu out of range (%zu symbols)",
                            i, secname(r, i), k, (unsigned long long)sym, r->nsyms);
            if (g.r_offset < base || g.r_offset - base >= t->size)
                return fail(r, "relocation section [%zu] '%s': entry %zu: offset 0x%llx is outside section '%s' "
                            "(size 0x%llx)", i, secname(r, i), k, (unsigned long long)g.r_offset, t->name,
                            (unsigned long long)t->size);
            isk_obj_add_reloc(o, target, g.r_offset - base, type, (uint32_t)sym, g.r_addend);
        }
    }
    return 0;
}

/* --- step 6: program headers --- */
static int read_phdrs(reader *r, isk_obj *o)
{
    const uint64_t amax = r->c32 ? UINT32_MAX : UINT64_MAX;
    for (size_t p = 0; p < r->phnum; p++) {
        GElf_Phdr g;
        if (!gelf_getphdr(r->elf, (int)p, &g))
            return fail(r, "program header %zu: cannot decode: %s", p, elf_errmsg(-1));
        if (g.p_filesz && !isk_fits(g.p_offset, g.p_filesz, r->n))    /* an empty range may point anywhere */
            return fail(r, "program header %zu: contents (offset 0x%llx, size 0x%llx) extend past the end of the file "
                        "(%zu bytes)", p, (unsigned long long)g.p_offset, (unsigned long long)g.p_filesz, r->n);
        if (g.p_type == PT_LOAD && g.p_filesz > g.p_memsz)
            return fail(r, "program header %zu: file size 0x%llx exceeds memory size 0x%llx", p,
                        (unsigned long long)g.p_filesz, (unsigned long long)g.p_memsz);
        if (!isk_fits(g.p_vaddr, g.p_memsz, amax) || !is_pow2(g.p_align))
            return fail(r, "program header %zu: address 0x%llx + size 0x%llx overflows, or alignment %llu is not a "
                        "power of two", p, (unsigned long long)g.p_vaddr, (unsigned long long)g.p_memsz,
                        (unsigned long long)g.p_align);
        isk_phdr ph = { .type = g.p_type, .flags = g.p_flags, .vaddr = g.p_vaddr, .paddr = g.p_paddr,
                        .memsz = g.p_memsz, .align = g.p_align, .offset = g.p_offset, .filesz = g.p_filesz };
        /* The sections the segment covers: by file range, or by address for SHT_NOBITS. */
        uint32_t lo = 0, hi = 0;
        for (size_t i = 1; i < r->shnum; i++) {
            const GElf_Shdr *s = &r->sh[i];
            if (!r->map[i] || !(s->sh_flags & SHF_ALLOC) || !s->sh_size) continue;
            int in = s->sh_type == SHT_NOBITS
                ? g.p_type == PT_LOAD && s->sh_addr >= g.p_vaddr && s->sh_addr - g.p_vaddr < g.p_memsz
                : s->sh_offset >= g.p_offset && s->sh_offset - g.p_offset < g.p_filesz;
            if (!in) continue;
            if (!lo || r->map[i] < lo) lo = r->map[i];
            if (r->map[i] > hi) hi = r->map[i];
        }
        if (lo) {
            ph.first = lo;
            ph.count = hi - lo + 1;
        }
        VEC_PUSH(&o->phdrs, ph);
    }
    return 0;
}

isk_obj *isk_elf_read_mem(const void *data, size_t size, const char *filename, isk_diag *diag)
{
    reader r = { .img = data, .n = size, .d = diag, .loc = { .file = filename && *filename ? filename : "<memory>" } };
    if (check_header(&r) != 0) return NULL;
    if (isk_libelf_init() != 0) {
        fail(&r, "libelf is unusable: %s", elf_errmsg(-1));
        return NULL;
    }
    /* libelf may convert data in place; give it a private copy. */
    char *copy = isk_xrealloc(NULL, size);
    memcpy(copy, data, size);
    r.elf = elf_memory(copy, size);
    isk_obj *o = NULL;
    if (!r.elf) {
        fail(&r, "cannot parse ELF: %s", elf_errmsg(-1));
        goto out;
    }
    o = isk_obj_new(r.loc.file, r.c32 ? ELFCLASS32 : ELFCLASS64, r.be, 0, r.type);
    unsigned w = r.c32 ? 4 : 8;
    o->osabi = r.img[EI_OSABI];
    o->abiversion = r.img[EI_ABIVERSION];
    o->machine = (uint16_t)raw(&r, 18, 2);
    o->entry = raw(&r, 24, w);
    o->flags = (uint32_t)raw(&r, 24 + 3 * w, 4);
    if (check_sections(&r) != 0 || classify(&r, o) != 0 || read_symbols(&r, o) != 0 || read_relocs(&r, o) != 0
        || read_phdrs(&r, o) != 0) {
        isk_obj_free(o);
        o = NULL;
    }
out:
    if (r.elf) elf_end(r.elf);
    free(copy);
    free(r.sh);
    free(r.map);
    return o;
}

isk_obj *isk_elf_read_file(const char *path, isk_diag *diag)
{
    uint8_t *buf;
    size_t n;
    if (isk_file_read_all(path, &buf, &n, diag) != 0) return NULL;
    isk_obj *o = isk_elf_read_mem(buf, n, path, diag);
    free(buf);
    return o;
}
