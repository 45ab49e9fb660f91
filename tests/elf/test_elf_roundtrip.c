/* Write -> read round trips of isk_obj for both classes and byte orders, relocatable and
 * executable, with every kind of content the model holds. */
#include "check.h"
#include "elf/elf_file.h"

#include <unistd.h>

static isk_obj *sample(int cls, int be, uint16_t type)
{
    isk_obj *o = isk_obj_new("sample.o", cls, be, 0xf5, type);
    o->flags = 0x02800000;
    o->osabi = 0;
    uint32_t text = isk_obj_section(o, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 8);
    uint32_t data = isk_obj_section(o, ".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 4);
    uint32_t bss = isk_obj_section(o, ".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 16);
    uint32_t attr = isk_obj_add_section(o, ".dpu.attributes", 0x70000003, 0, 1);
    uint32_t ss = isk_obj_add_section(o, ".stack_sizes", SHT_PROGBITS, SHF_LINK_ORDER, 1);
    o->secs.data[ss].link = text;
    static const uint8_t code[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    isk_obj_append(o, text, code, sizeof code);
    isk_obj_append(o, data, "abcd", 4);
    isk_obj_append(o, bss, NULL, 40);
    static const uint8_t attrs[21] = { 0x41, 0x14, 0, 0, 0, 'u', 'p', 'm', 'e', 'm', 0, 1, 0x0a, 0, 0, 0, 5, 'v', '1', 'A', 0 };
    isk_obj_append(o, attr, attrs, sizeof attrs);
    isk_obj_append(o, ss, "\x98\0\0\x80\x30", 5);

    uint32_t main_ = isk_obj_symbol(o, "main");
    isk_obj_define(o, main_, text, 8);
    isk_obj_set_binding(o, main_, STB_GLOBAL);
    o->syms.data[main_].type = STT_FUNC;
    o->syms.data[main_].size = 8;
    uint32_t loc = isk_obj_symbol(o, "loop");          /* stays local */
    isk_obj_define(o, loc, text, 0);
    uint32_t ext = isk_obj_symbol(o, "printf");        /* stays undefined: written as global */
    uint32_t w = isk_obj_symbol(o, "maybe");
    isk_obj_set_binding(o, w, STB_WEAK);
    uint32_t abs = isk_obj_symbol(o, "NR_TASKLETS");
    isk_obj_define(o, abs, ISK_SHN_ABS, 16);
    isk_obj_set_binding(o, abs, STB_GLOBAL);
    uint32_t com = isk_obj_symbol(o, "buf");
    isk_obj_define(o, com, ISK_SHN_COMMON, 8);
    isk_obj_set_binding(o, com, STB_GLOBAL);
    o->syms.data[com].size = 64;
    uint32_t hid = isk_obj_symbol(o, "hidden_thing");
    isk_obj_define(o, hid, data, 0);
    isk_obj_set_binding(o, hid, STB_GLOBAL);
    o->syms.data[hid].vis = STV_HIDDEN;
    o->syms.data[hid].type = STT_OBJECT;
    uint32_t secsym = isk_obj_section_symbol(o, data);

    isk_obj_add_reloc(o, text, 0, 128, ext, 0);
    isk_obj_add_reloc(o, text, 8, 138, secsym, 2);
    isk_obj_add_reloc(o, data, 0, 1, w, -4);
    if (type == ET_EXEC) {
        o->secs.data[text].addr = 0x80000000u;
        o->secs.data[data].addr = 0x100;
        o->secs.data[bss].addr = 0x108;
        o->entry = 0x80000000u;
        isk_obj_define(o, main_, text, 0x80000008u);
        isk_obj_define(o, loc, text, 0x80000000u);
        isk_obj_define(o, hid, data, 0x100);
        VEC_PUSH(&o->phdrs, (isk_phdr){ .type = PT_LOAD, .flags = PF_R | PF_X, .vaddr = 0x80000000u,
                                         .paddr = 0x80000000u, .memsz = 16, .align = 8, .first = text, .count = 1 });
        VEC_PUSH(&o->phdrs, (isk_phdr){ .type = PT_LOAD, .flags = PF_R | PF_W, .vaddr = 0x100, .paddr = 0x100,
                                         .memsz = 0x30, .align = 16, .first = data, .count = 2 });
        VEC_PUSH(&o->phdrs, (isk_phdr){ .type = PT_GNU_STACK, .flags = PF_R | PF_W });
    }
    return o;
}

/* Compare the parts of two objects that must survive a round trip. */
static void same(const isk_obj *a, const isk_obj *b)
{
    CHECK_EQ(a->elfclass, b->elfclass);
    CHECK_EQ(a->big_endian, b->big_endian);
    CHECK_EQ(a->machine, b->machine);
    CHECK_EQ(a->type, b->type);
    CHECK_EQ(a->flags, b->flags);
    CHECK_EQ(a->entry, b->entry);
    CHECK_EQ(a->secs.len, b->secs.len);
    for (size_t i = 1; i < a->secs.len && i < b->secs.len; i++) {
        const isk_section *x = &a->secs.data[i], *y = &b->secs.data[i];
        CHECK_STR(x->name, y->name);
        CHECK_EQ(x->type, y->type);
        CHECK_EQ(x->flags, y->flags);
        CHECK_EQ(x->addr, y->addr);
        CHECK_EQ(x->align, y->align);
        CHECK_EQ(x->size, y->size);
        CHECK_EQ(x->link, y->link);
        if (x->type != SHT_NOBITS && x->size == y->size) CHECK(memcmp(x->data, y->data, x->size) == 0);
        CHECK_EQ(x->relocs.len, y->relocs.len);
        for (size_t r = 0; r < x->relocs.len && r < y->relocs.len; r++) {
            const isk_obj_reloc *p = &x->relocs.data[r], *q = &y->relocs.data[r];
            CHECK_EQ(p->offset, q->offset);
            CHECK_EQ(p->type, q->type);
            CHECK_EQ(p->addend, q->addend);
            CHECK_STR(a->syms.data[p->sym].name, b->syms.data[q->sym].name);
        }
    }
    /* Symbols may be reordered (locals first); compare by name. */
    CHECK_EQ(a->syms.len, b->syms.len);
    for (size_t i = 1; i < a->syms.len; i++) {
        const isk_symbol *x = &a->syms.data[i];
        if (!x->name[0]) continue;
        uint32_t k = isk_obj_lookup(b, x->name);
        CHECK(k != 0);
        if (!k) continue;
        const isk_symbol *y = &b->syms.data[k];
        CHECK_EQ(x->value, y->value);
        CHECK_EQ(x->size, y->size);
        CHECK_EQ(x->shndx, y->shndx);
        CHECK_EQ(x->type, y->type);
        CHECK_EQ(x->vis, y->vis);
        CHECK_EQ(x->shndx == ISK_SHN_UNDEF && x->bind == STB_LOCAL ? STB_GLOBAL : x->bind, y->bind);
    }
    CHECK_EQ(a->phdrs.len, b->phdrs.len);
    for (size_t i = 0; i < a->phdrs.len && i < b->phdrs.len; i++) {
        const isk_phdr *x = &a->phdrs.data[i], *y = &b->phdrs.data[i];
        CHECK_EQ(x->type, y->type);
        CHECK_EQ(x->flags, y->flags);
        CHECK_EQ(x->vaddr, y->vaddr);
        CHECK_EQ(x->memsz, y->memsz);
        CHECK_EQ(x->first, y->first);
        CHECK_EQ(x->count, y->count);
    }
}

static void roundtrip(int cls, int be, uint16_t type)
{
    isk_diag d;
    isk_diag_init(&d);
    isk_obj *o = sample(cls, be, type);
    uint8_t *img;
    size_t n;
    CHECK_EQ(isk_elf_write_mem(o, &img, &n, &d), 0);
    CHECK_EQ(d.errors, 0);
    if (d.errors) { isk_obj_free(o); return; }
    isk_obj *b = isk_elf_read_mem(img, n, "rt.o", &d);
    CHECK(b != NULL);
    CHECK_EQ(d.errors, 0);
    if (b) {
        same(o, b);
        CHECK_STR(b->filename, "rt.o");
        /* Write again: the second image reads back identically (stable). */
        uint8_t *img2;
        size_t n2;
        CHECK_EQ(isk_elf_write_mem(b, &img2, &n2, &d), 0);
        isk_obj *c = isk_elf_read_mem(img2, n2, "rt2.o", &d);
        CHECK(c != NULL);
        if (c) same(b, c);
        if (type == ET_EXEC && c) {
            /* Segment file ranges hold exactly the section bytes. */
            const isk_phdr *p = &c->phdrs.data[0];
            CHECK_EQ(p->filesz, 16);
            CHECK(memcmp(img2 + p->offset, o->secs.data[1].data, 16) == 0);
            CHECK_EQ(c->phdrs.data[1].filesz, 4);
        }
        isk_obj_free(c);
        free(img2);
    }
    isk_obj_free(b);
    isk_obj_free(o);
    free(img);
}

/* The written file is also valid for binutils (when present), which checks much of ELF. */
static void readelf_accepts(void)
{
    if (system("command -v readelf >/dev/null 2>&1") != 0) return;
    isk_diag d;
    isk_diag_init(&d);
    isk_obj *o = sample(ELFCLASS32, 0, ET_EXEC);
    char path[] = "/tmp/isk_rt_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    close(fd);
    CHECK_EQ(isk_elf_write_file(o, path, &d), 0);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "readelf -W -a %s 2>&1 | grep -iE 'warning|error' >/dev/null", path);
    CHECK(system(cmd) != 0);              /* no warnings or errors from readelf */
    isk_obj *b = isk_elf_read_file(path, &d);
    CHECK(b != NULL);
    isk_obj_free(b);
    remove(path);
    isk_obj_free(o);
}

static void file_errors(void)
{
    isk_diag d;
    isk_diag_buffer buf;
    isk_diag_init(&d);
    isk_diag_capture(&d, &buf);
    CHECK(isk_elf_read_file("/nonexistent/x.o", &d) == NULL);
    CHECK_CONTAINS(d.last, "/nonexistent/x.o: error: cannot open");
    /* A model the writer must refuse: a 64-bit value in a 32-bit file. */
    isk_obj *o = sample(ELFCLASS32, 0, ET_REL);
    o->syms.data[1].value = 0x100000000ull;
    uint8_t *img;
    size_t n;
    CHECK_EQ(isk_elf_write_mem(o, &img, &n, &d), -1);
    CHECK_CONTAINS(d.last, "does not fit ELFCLASS32");
    isk_obj_free(o);
    isk_diag_buffer_free(&buf);
}

/* isk_obj_section_symbol finds a section symbol added by anyone (a reader, in any order,
 * before or after other sections ask) and adds one only where none exists. */
static void section_symbols(void)
{
    isk_obj *o = isk_obj_new("s.o", ELFCLASS32, 0, 0xf5, ET_REL);
    uint32_t a = isk_obj_section(o, ".a", SHT_PROGBITS, SHF_ALLOC, 1);
    uint32_t b = isk_obj_section(o, ".b", SHT_PROGBITS, SHF_ALLOC, 1);
    uint32_t c = isk_obj_section(o, ".c", SHT_PROGBITS, SHF_ALLOC, 1);
    isk_obj_symbol(o, "x");
    uint32_t sb = isk_obj_add_symbol(o, &(isk_symbol){ .name = "", .shndx = b, .type = STT_SECTION });
    uint32_t sa = isk_obj_section_symbol(o, a);
    CHECK(sa > sb && o->syms.data[sa].type == STT_SECTION && o->syms.data[sa].shndx == a);
    CHECK_EQ(isk_obj_section_symbol(o, b), sb);
    uint32_t sc = isk_obj_add_symbol(o, &(isk_symbol){ .name = "", .shndx = c, .type = STT_SECTION });
    isk_obj_add_symbol(o, &(isk_symbol){ .name = "", .shndx = c, .type = STT_SECTION });
    CHECK_EQ(isk_obj_section_symbol(o, c), sc);          /* the first one, as a scan finds it */
    CHECK_EQ(isk_obj_section_symbol(o, a), sa);
    size_t n = o->syms.len;
    for (uint32_t k = 0; k < 3; k++) isk_obj_section_symbol(o, a + k);
    CHECK_EQ(o->syms.len, n);                              /* nothing added twice */
    isk_obj_free(o);
}

int main(void)
{
    section_symbols();
    for (int cls = ELFCLASS32; cls <= ELFCLASS64; cls++)
        for (int be = 0; be <= 1; be++) {
            roundtrip(cls, be, ET_REL);
            roundtrip(cls, be, ET_EXEC);
        }
    readelf_accepts();
    file_errors();
    return CHECK_DONE();
}
