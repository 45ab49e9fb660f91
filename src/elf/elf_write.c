/* isk_obj -> ELF image through libelf.
 *
 * We lay the file out ourselves (ELF_F_LAYOUT) because executables need each section's file
 * offset to agree with its address modulo the alignment, and the sections of one segment to
 * keep their address distances in the file. libelf only converts the structures to the
 * file's class and byte order. libelf writes to a file descriptor, so the image is built in an
 * anonymous memory file and read back: one code path serves memory and disk. */
#include "base/file.h"
#include "elf/elf_file.h"
#include "elf/elf_util.h"

#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef VEC(char) strbuf;

static uint32_t str_add(strbuf *b, const char *s)
{
    if (!*s && b->len) return 0;         /* offset 0 is the empty string */
    uint32_t at = (uint32_t)b->len;
    size_t n = strlen(s) + 1;
    VEC_RESERVE(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    return at;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a > 1 ? (v + a - 1) / a * a : v;
}

static int is_pow2(uint64_t a)
{
    return a == 0 || (a & (a - 1)) == 0;
}

/* Check the model before touching libelf, so every problem gets a precise message. */
static int validate(const isk_obj *o, isk_diag *d, const isk_loc *loc)
{
    int c32 = o->elfclass == ELFCLASS32;
    const uint64_t max = c32 ? UINT32_MAX : UINT64_MAX;
    if (o->elfclass != ELFCLASS32 && o->elfclass != ELFCLASS64) {
        isk_error(d, loc, "cannot write: invalid ELF class %u (expected 1 or 2)", o->elfclass);
        return -1;
    }
    size_t nrela = 0;
    for (size_t i = 1; i < o->secs.len; i++) nrela += o->secs.data[i].relocs.len != 0;
    if (o->secs.len + nrela + 3 >= ISK_SHN_LORESERVE) {
        isk_error(d, loc, "cannot write: too many sections (%zu)", o->secs.len + nrela + 3);
        return -1;
    }
    if (o->entry > max) {
        isk_error(d, loc, "cannot write: entry 0x%llx does not fit ELFCLASS32", (unsigned long long)o->entry);
        return -1;
    }
    for (size_t i = 1; i < o->secs.len; i++) {
        const isk_section *s = &o->secs.data[i];
        int generated = s->type == SHT_SYMTAB || ((s->type == SHT_RELA || s->type == SHT_REL) && !(s->flags & SHF_ALLOC));
        if (!s->name || s->type == SHT_NULL || generated) {
            isk_error(d, loc, "cannot write: section [%zu] '%s' has type %u, which the writer generates itself",
                      i, s->name ? s->name : "", s->type);
            return -1;
        }
        if (s->type != SHT_NOBITS && s->size && !s->data) {
            isk_error(d, loc, "cannot write: section [%zu] '%s' has size %llu but no contents", i, s->name,
                      (unsigned long long)s->size);
            return -1;
        }
        if (!is_pow2(s->align) || s->link >= o->secs.len) {
            isk_error(d, loc, "cannot write: section [%zu] '%s' has alignment %llu or link %u out of range", i,
                      s->name, (unsigned long long)s->align, s->link);
            return -1;
        }
        if (!isk_fits(s->addr, s->size, max) || s->align > max || s->entsize > max) {
            isk_error(d, loc, "cannot write: section [%zu] '%s' (address 0x%llx, size 0x%llx) does not fit ELFCLASS32",
                      i, s->name, (unsigned long long)s->addr, (unsigned long long)s->size);
            return -1;
        }
        for (size_t r = 0; r < s->relocs.len; r++) {
            const isk_obj_reloc *rl = &s->relocs.data[r];
            if (rl->sym >= o->syms.len || rl->offset >= s->size) {
                isk_error(d, loc, "cannot write: relocation %zu of section '%s' has symbol %u or offset 0x%llx out of range",
                          r, s->name, rl->sym, (unsigned long long)rl->offset);
                return -1;
            }
            if (c32 && (rl->type > 0xff || rl->sym > 0xffffff || rl->addend < INT32_MIN || rl->addend > INT32_MAX)) {
                isk_error(d, loc, "cannot write: relocation %zu of section '%s' (type %u, symbol %u, addend %lld) "
                          "does not fit ELFCLASS32", r, s->name, rl->type, rl->sym, (long long)rl->addend);
                return -1;
            }
        }
    }
    for (size_t i = 1; i < o->syms.len; i++) {
        const isk_symbol *s = &o->syms.data[i];
        int special = s->shndx == ISK_SHN_ABS || s->shndx == ISK_SHN_COMMON;
        if (!s->name || (!special && s->shndx >= o->secs.len) || s->bind > STB_WEAK || s->type > 15 || s->vis > 3) {
            isk_error(d, loc, "cannot write: symbol %zu '%s' has section %u, binding %u, type %u or visibility %u out of range",
                      i, s->name ? s->name : "", s->shndx, s->bind, s->type, s->vis);
            return -1;
        }
        /* an absolute symbol may be negative (.equ STRIDE, -3): ELFCLASS32 holds it as 32 bits */
        const int negative32 = s->shndx == ISK_SHN_ABS && (int64_t)s->value < 0 && (int64_t)s->value >= INT32_MIN;
        if ((s->value > max && !negative32) || s->size > max) {
            isk_error(d, loc, "cannot write: symbol '%s' (value 0x%llx, size 0x%llx) does not fit ELFCLASS32",
                      s->name, (unsigned long long)s->value, (unsigned long long)s->size);
            return -1;
        }
    }
    for (size_t i = 0; i < o->phdrs.len; i++) {
        const isk_phdr *p = &o->phdrs.data[i];
        if ((p->count && (p->first == 0 || p->first >= o->secs.len || p->count > o->secs.len - p->first))
            || p->vaddr > max || p->paddr > max || p->memsz > max || !is_pow2(p->align)) {
            isk_error(d, loc, "cannot write: program header %zu (sections %u+%u) out of range", i, p->first, p->count);
            return -1;
        }
    }
    return 0;
}

/* Everything computed before libelf is involved. */
typedef struct layout {
    uint32_t *symmap;        /* model symbol index -> file symbol index */
    uint32_t *order;         /* file symbol index -> model symbol index */
    uint32_t first_global;
    uint64_t *off;           /* file offset of each model section */
    uint32_t *rela_of;       /* model section -> its .rela section's ELF index, or 0 */
    size_t nsecs;            /* ELF section count */
    uint32_t symtab, strtab, shstrtab;
    uint64_t phoff, shoff;
    uint64_t end;            /* first byte after the model sections' contents */
    uint64_t *ph_off, *ph_filesz;
} layout;

static void layout_free(layout *l)
{
    free(l->symmap);
    free(l->order);
    free(l->off);
    free(l->rela_of);
    free(l->ph_off);
    free(l->ph_filesz);
}

static uint8_t sym_bind(const isk_symbol *s)
{
    /* A symbol the assembler left undefined is a reference to another file. */
    return s->shndx == ISK_SHN_UNDEF && s->bind == STB_LOCAL ? STB_GLOBAL : s->bind;
}

static void order_symbols(const isk_obj *o, layout *l)
{
    size_t n = o->syms.len;
    l->symmap = isk_xcalloc(n, sizeof *l->symmap);
    l->order = isk_xcalloc(n, sizeof *l->order);
    uint32_t k = 1;
    for (size_t pass = 0; pass < 2; pass++) {
        if (pass == 1) l->first_global = k;
        for (size_t i = 1; i < n; i++) {
            int local = sym_bind(&o->syms.data[i]) == STB_LOCAL;
            if (local == (pass == 0)) {
                l->symmap[i] = k;
                l->order[k++] = (uint32_t)i;
            }
        }
    }
}

/* The phdr covering model section i, preferring PT_LOAD, or -1. */
static long covering_phdr(const isk_obj *o, size_t i)
{
    long best = -1;
    for (size_t p = 0; p < o->phdrs.len; p++) {
        const isk_phdr *ph = &o->phdrs.data[p];
        if (ph->count && i >= ph->first && i < (size_t)ph->first + ph->count)
            if (best < 0 || ph->type == PT_LOAD) best = (long)p;
    }
    return best;
}

/* Loaders need offset = address only modulo the page size, and keeping the address gaps of
 * one segment in the file is only worth small paddings: larger gaps or alignments would make
 * absurd files (a read file may claim an alignment of 2^63). */
#define PAD_MAX 0x10000u

static int compute_layout(const isk_obj *o, layout *l, isk_diag *d, const isk_loc *loc)
{
    int c32 = o->elfclass == ELFCLASS32;
    uint64_t word = c32 ? 4 : 8;
    uint64_t off = c32 ? sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr);
    size_t np = o->phdrs.len;
    if (np) {
        l->phoff = align_up(off, word);
        off = l->phoff + np * (c32 ? sizeof(Elf32_Phdr) : sizeof(Elf64_Phdr));
    }
    l->off = isk_xcalloc(o->secs.len, sizeof *l->off);
    l->ph_off = isk_xcalloc(np + 1, sizeof *l->ph_off);
    l->ph_filesz = isk_xcalloc(np + 1, sizeof *l->ph_filesz);
    int *ph_started = isk_xcalloc(np + 1, sizeof *ph_started);
    for (size_t i = 1; i < o->secs.len; i++) {
        const isk_section *s = &o->secs.data[i];
        uint64_t a = s->align > 1 ? s->align : 1;
        if (a > PAD_MAX) a = PAD_MAX;
        long p = covering_phdr(o, i);
        const isk_phdr *ph = p >= 0 ? &o->phdrs.data[p] : NULL;
        uint64_t at;
        if (ph && ph_started[p] && s->addr >= ph->vaddr && l->ph_off[p] + (s->addr - ph->vaddr) >= off
            && l->ph_off[p] + (s->addr - ph->vaddr) - off <= PAD_MAX) {
            at = l->ph_off[p] + (s->addr - ph->vaddr);     /* keep the segment's file/memory mapping */
        } else {
            at = off;
            if (ph && s->addr >= ph->vaddr && at < s->addr - ph->vaddr && s->addr - ph->vaddr - at <= PAD_MAX)
                at = s->addr - ph->vaddr;
            at += (s->addr - at) & (a - 1);                  /* offset = address (mod alignment) */
        }
        l->off[i] = at;
        if (ph && !ph_started[p]) {
            ph_started[p] = 1;
            l->ph_off[p] = s->addr >= ph->vaddr && s->addr - ph->vaddr <= at ? at - (s->addr - ph->vaddr) : at;
        }
        if (s->type != SHT_NOBITS) off = at + s->size;
    }
    l->end = off;
    for (size_t p = 0; p < np; p++) {
        const isk_phdr *ph = &o->phdrs.data[p];
        uint64_t end = l->ph_off[p];
        for (uint32_t k = 0; k < ph->count; k++) {
            const isk_section *s = &o->secs.data[ph->first + k];
            if (s->type != SHT_NOBITS && s->size && l->off[ph->first + k] + s->size > end)
                end = l->off[ph->first + k] + s->size;
        }
        l->ph_filesz[p] = end - l->ph_off[p];
        if (l->ph_filesz[p] > ph->memsz && ph->type == PT_LOAD) {
            isk_error(d, loc, "cannot write: program header %zu covers 0x%llx file bytes but its memory size is 0x%llx",
                      p, (unsigned long long)l->ph_filesz[p], (unsigned long long)ph->memsz);
            free(ph_started);
            return -1;
        }
    }
    free(ph_started);

    /* The bookkeeping sections follow the model's. */
    size_t e = o->secs.len;
    l->rela_of = isk_xcalloc(o->secs.len, sizeof *l->rela_of);
    for (size_t i = 1; i < o->secs.len; i++)
        if (o->secs.data[i].relocs.len) l->rela_of[i] = (uint32_t)e++;
    l->symtab = (uint32_t)e++;
    l->strtab = (uint32_t)e++;
    l->shstrtab = (uint32_t)e++;
    l->nsecs = e;
    return 0;
}

/* Build the libelf description and write it to fd. */
static int emit(const isk_obj *o, layout *l, int fd, isk_diag *d, const isk_loc *loc)
{
    int c32 = o->elfclass == ELFCLASS32;
    uint64_t word = c32 ? 4 : 8;
    int rc = -1;
    strbuf strtab = {0}, shstr = {0};
    void **bufs = isk_xcalloc(o->secs.len + 2, sizeof *bufs);   /* relas + symtab, freed after writing */
    Elf *elf = elf_begin(fd, ELF_C_WRITE, NULL);
    if (!elf) goto libelf_fail;
    elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
    if (!gelf_newehdr(elf, c32 ? ELFCLASS32 : ELFCLASS64)) goto libelf_fail;
    if (o->phdrs.len && !gelf_newphdr(elf, o->phdrs.len)) goto libelf_fail;

    str_add(&shstr, "");
    str_add(&strtab, "");
    uint64_t off = l->end;

    for (size_t i = 1; i < o->secs.len; i++) {
        const isk_section *s = &o->secs.data[i];
        Elf_Scn *scn = elf_newscn(elf);
        GElf_Shdr sh;
        if (!scn || !gelf_getshdr(scn, &sh)) goto libelf_fail;
        sh.sh_name = str_add(&shstr, s->name);
        sh.sh_type = s->type;
        sh.sh_flags = s->flags;
        sh.sh_addr = s->addr;
        sh.sh_offset = l->off[i];
        sh.sh_size = s->size;
        sh.sh_link = s->link;
        sh.sh_info = s->info;
        sh.sh_addralign = s->align;
        sh.sh_entsize = s->entsize;
        if (!gelf_update_shdr(scn, &sh)) goto libelf_fail;
        if (s->type != SHT_NOBITS && s->size) {
            Elf_Data *dt = elf_newdata(scn);
            if (!dt) goto libelf_fail;
            dt->d_buf = s->data;      /* bytes are not converted, so libelf does not write to them */
            dt->d_size = s->size;
            dt->d_type = ELF_T_BYTE;
            dt->d_align = 1;
            dt->d_off = 0;
        }
    }

    /* .rela.<name> */
    size_t nb = 0;
    size_t rela_size = gelf_fsize(elf, ELF_T_RELA, 1, EV_CURRENT);
    for (size_t i = 1; i < o->secs.len; i++) {
        const isk_section *s = &o->secs.data[i];
        if (!s->relocs.len) continue;
        Elf_Scn *scn = elf_newscn(elf);
        GElf_Shdr sh;
        if (!scn || !gelf_getshdr(scn, &sh)) goto libelf_fail;
        char *name = isk_xasprintf(".rela%s", s->name);
        sh.sh_name = str_add(&shstr, name);
        free(name);
        off = align_up(off, word);
        sh.sh_type = SHT_RELA;
        sh.sh_flags = SHF_INFO_LINK;
        sh.sh_offset = off;
        sh.sh_size = rela_size * s->relocs.len;
        sh.sh_link = l->symtab;
        sh.sh_info = (uint32_t)i;
        sh.sh_addralign = word;
        sh.sh_entsize = rela_size;
        off += sh.sh_size;
        if (!gelf_update_shdr(scn, &sh)) goto libelf_fail;
        Elf_Data *dt = elf_newdata(scn);
        if (!dt) goto libelf_fail;
        dt->d_buf = bufs[nb++] = isk_xcalloc(s->relocs.len, rela_size);
        dt->d_size = rela_size * s->relocs.len;
        dt->d_type = ELF_T_RELA;
        dt->d_align = word;
        for (size_t r = 0; r < s->relocs.len; r++) {
            const isk_obj_reloc *rl = &s->relocs.data[r];
            uint32_t sym = l->symmap[rl->sym];
            GElf_Rela ra = {
                .r_offset = rl->offset + (o->type == ET_EXEC ? s->addr : 0),
                .r_info = GELF_R_INFO(sym, rl->type),     /* GElf form; libelf narrows it for ELF32 */
                .r_addend = rl->addend,
            };
            if (!gelf_update_rela(dt, (int)r, &ra)) goto libelf_fail;
        }
    }

    /* .symtab */
    {
        Elf_Scn *scn = elf_newscn(elf);
        GElf_Shdr sh;
        if (!scn || !gelf_getshdr(scn, &sh)) goto libelf_fail;
        size_t esz = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
        off = align_up(off, word);
        sh.sh_name = str_add(&shstr, ".symtab");
        sh.sh_type = SHT_SYMTAB;
        sh.sh_offset = off;
        sh.sh_size = esz * o->syms.len;
        sh.sh_link = l->strtab;
        sh.sh_info = l->first_global;
        sh.sh_addralign = word;
        sh.sh_entsize = esz;
        off += sh.sh_size;
        if (!gelf_update_shdr(scn, &sh)) goto libelf_fail;
        Elf_Data *dt = elf_newdata(scn);
        if (!dt) goto libelf_fail;
        dt->d_buf = bufs[nb++] = isk_xcalloc(o->syms.len, esz);
        dt->d_size = esz * o->syms.len;
        dt->d_type = ELF_T_SYM;
        dt->d_align = word;
        for (size_t k = 1; k < o->syms.len; k++) {
            const isk_symbol *s = &o->syms.data[l->order[k]];
            GElf_Sym gs = {
                .st_name = str_add(&strtab, s->name),
                .st_info = (unsigned char)GELF_ST_INFO(sym_bind(s), s->type),
                .st_other = (unsigned char)GELF_ST_VISIBILITY(s->vis),
                .st_shndx = (uint16_t)s->shndx,
                .st_value = word == 4 ? (uint32_t)s->value : s->value,   /* a negative absolute value in 32 bits */
                .st_size = s->size,
            };
            if (!gelf_update_sym(dt, (int)k, &gs)) goto libelf_fail;
        }
    }

    /* .strtab and .shstrtab (the latter names itself, so its name is added first) */
    uint32_t strtab_name = str_add(&shstr, ".strtab");
    uint32_t shstrtab_name = str_add(&shstr, ".shstrtab");
    strbuf *tabs[2] = { &strtab, &shstr };
    uint32_t names[2] = { strtab_name, shstrtab_name };
    for (int t = 0; t < 2; t++) {
        Elf_Scn *scn = elf_newscn(elf);
        GElf_Shdr sh;
        if (!scn || !gelf_getshdr(scn, &sh)) goto libelf_fail;
        sh.sh_name = names[t];
        sh.sh_type = SHT_STRTAB;
        sh.sh_offset = off;
        sh.sh_size = tabs[t]->len;
        sh.sh_addralign = 1;
        off += sh.sh_size;
        if (!gelf_update_shdr(scn, &sh)) goto libelf_fail;
        Elf_Data *dt = elf_newdata(scn);
        if (!dt) goto libelf_fail;
        dt->d_buf = tabs[t]->data;
        dt->d_size = tabs[t]->len;
        dt->d_type = ELF_T_BYTE;
        dt->d_align = 1;
    }
    l->shoff = align_up(off, word);
    if (c32 && l->shoff + l->nsecs * sizeof(Elf32_Shdr) > UINT32_MAX) {
        isk_error(d, loc, "cannot write: the file would exceed 4 GiB, too large for ELFCLASS32");
        goto out;
    }

    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh)) goto libelf_fail;
    eh.e_ident[EI_DATA] = o->big_endian ? ELFDATA2MSB : ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_ident[EI_OSABI] = o->osabi;
    eh.e_ident[EI_ABIVERSION] = o->abiversion;
    eh.e_type = o->type;
    eh.e_machine = o->machine;
    eh.e_version = EV_CURRENT;
    eh.e_entry = o->entry;
    eh.e_phoff = o->phdrs.len ? l->phoff : 0;
    eh.e_shoff = l->shoff;
    eh.e_flags = o->flags;
    eh.e_shstrndx = (uint16_t)l->shstrtab;
    if (!gelf_update_ehdr(elf, &eh)) goto libelf_fail;
    for (size_t p = 0; p < o->phdrs.len; p++) {
        const isk_phdr *ph = &o->phdrs.data[p];
        GElf_Phdr g = {
            .p_type = ph->type, .p_flags = ph->flags, .p_offset = l->ph_off[p],
            .p_vaddr = ph->vaddr, .p_paddr = ph->paddr, .p_filesz = l->ph_filesz[p],
            .p_memsz = ph->memsz, .p_align = ph->align,
        };
        if (!ph->count) g.p_offset = g.p_filesz = 0;
        if (!gelf_update_phdr(elf, (int)p, &g)) goto libelf_fail;
    }
    if (elf_update(elf, ELF_C_WRITE) < 0) goto libelf_fail;
    rc = 0;
    goto out;

libelf_fail:
    isk_error(d, loc, "cannot write ELF: %s", elf_errmsg(-1));
out:
    if (elf) elf_end(elf);
    for (size_t i = 0; i < o->secs.len + 2; i++) free(bufs[i]);   /* unused slots are NULL */
    free(bufs);
    VEC_FREE(&strtab);
    VEC_FREE(&shstr);
    return rc;
}

static int open_scratch(void)
{
    int fd = memfd_create("isekit-elf", MFD_CLOEXEC);
    if (fd >= 0) return fd;
    FILE *f = tmpfile();                 /* kernels without memfd */
    if (!f) return -1;
    fd = dup(fileno(f));
    fclose(f);
    return fd;
}

int isk_elf_write_mem(const isk_obj *o, uint8_t **out, size_t *size, isk_diag *d)
{
    isk_loc loc = { .file = o->filename && o->filename[0] ? o->filename : NULL };
    if (isk_libelf_init() != 0) {
        isk_error(d, &loc, "libelf is unusable: %s", elf_errmsg(-1));
        return -1;
    }
    if (validate(o, d, &loc) != 0) return -1;
    layout l = {0};
    order_symbols(o, &l);
    int rc = compute_layout(o, &l, d, &loc);
    int fd = -1;
    if (rc == 0 && (fd = open_scratch()) < 0) {
        isk_error(d, &loc, "cannot write ELF: no scratch file");
        rc = -1;
    }
    if (rc == 0) rc = emit(o, &l, fd, d, &loc);
    if (rc == 0) {
        off_t end = lseek(fd, 0, SEEK_END);
        uint8_t *buf = isk_xrealloc(NULL, end > 0 ? (size_t)end : 1);
        size_t got = 0;
        while (end > 0 && got < (size_t)end) {
            ssize_t k = pread(fd, buf + got, (size_t)end - got, (off_t)got);
            if (k <= 0) break;
            got += (size_t)k;
        }
        if (end <= 0 || got != (size_t)end) {
            free(buf);
            isk_error(d, &loc, "cannot write ELF: reading the image back failed");
            rc = -1;
        } else {
            *out = buf;
            *size = got;
        }
    }
    if (fd >= 0) close(fd);
    layout_free(&l);
    return rc;
}

int isk_elf_write_file(const isk_obj *o, const char *path, isk_diag *d)
{
    uint8_t *buf;
    size_t n;
    if (isk_elf_write_mem(o, &buf, &n, d) != 0) return -1;
    int rc = isk_file_write_all(path, buf, n, d);
    free(buf);
    return rc;
}
