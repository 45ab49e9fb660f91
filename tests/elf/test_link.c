/* The linker core with a made-up target, "toy32":
 *   - 32-bit little-endian, machine 0x7777, 4-byte instructions, opcode in bits 31:24;
 *   - regions rom (0x1000, 0x100 bytes: .text), ram (0x8000, 0x40: .data .rodata .bss),
 *     far (0x20000: .far);
 *   - relocations: 1 ABS16 (unsigned, 16-bit data), 2 PC12 (signed word offset in bits 11:0),
 *     3 ABS32, 4 SPLIT8 (value bits 3:0 -> 23:20, 7:4 -> 3:0, like the DPU's scatters);
 *   - e_flags bits 31:24 = ABI version, bit 23 = "version set"; versions must match. */
#include "check.h"
#include "elf/archive.h"
#include "elf/elf_file.h"
#include "elf/link.h"

#define EM_TOY 0x7777
#define ABI(v) (0x00800000u | (uint32_t)(v) << 24)

static const isk_reloc_piece split8[] = { { 0, 4, 20 }, { 4, 4, 0 } };
static const isk_reloc_field f_abs16 = { .size = 2, .check = ISK_RELOC_UNSIGNED, .bits = 16 };
static const isk_reloc_field f_pc12 = { .size = 4, .pcrel = 1, .shift = 2, .check = ISK_RELOC_SIGNED, .bits = 12 };
static const isk_reloc_field f_abs32 = { .size = 4 };
static const isk_reloc_field f_split8 = { .size = 4, .check = ISK_RELOC_UNSIGNED, .bits = 8, .pieces = split8, .npieces = 2 };
static const isk_reloc_type toy_relocs[] = {
    { 1, "R_TOY_ABS16", isk_reloc_apply_field, &f_abs16 },
    { 2, "R_TOY_PC12", isk_reloc_apply_field, &f_pc12 },
    { 3, "R_TOY_ABS32", isk_reloc_apply_field, &f_abs32 },
    { 4, "R_TOY_SPLIT8", isk_reloc_apply_field, &f_split8 },
};
static const isk_link_region toy_regions[] = {
    { "rom", 0x1000, 0x100, ".text" },
    { "ram", 0x8000, 0x40, ".data .rodata .bss" },
    { "far", 0x20000, 0x100, ".far" },
};
static const isk_link_outsec toy_outsecs[] = {
    { ".text", ".text.start .text .text.*", 0, 0, 0, 0 },
    { ".rodata", ".rodata .rodata.*", 1, SHT_PROGBITS, SHF_ALLOC, 4 },
};
static const isk_link_symdef toy_symbols[] = {
    { "__data_start", ISK_LSYM_SECTION_START, ".data", 0, 0 },
    { "__bss_end", ISK_LSYM_SECTION_END, ".bss", 0, 0 },
    { "__ram_end", ISK_LSYM_REGION_END, "ram", 0, 0 },
    { "__heap_start", ISK_LSYM_REGION_USED, "ram", 0, 8 },
    { "STACK_SIZE", ISK_LSYM_ABS, NULL, 0x40, 0 },
    { "__rodata_start", ISK_LSYM_SECTION_START, ".rodata", 0, 0 },
    { "__nothing", ISK_LSYM_SECTION_START, ".nothing", 0, 0 },
};

static int toy_merge_flags(const isk_link_target *t, uint32_t *merged, const char *first_file, uint32_t flags,
                           const char *file, char *err, size_t errlen)
{
    (void)t;
    int a = *merged & 0x00800000u ? (int)(*merged >> 24) : -1, b = flags & 0x00800000u ? (int)(flags >> 24) : -1;
    if (a == b) return 0;
    snprintf(err, errlen, "ABI version mismatch: %s has ABI %d, but %s has ABI %d", first_file, a, file, b);
    return -1;
}

static const isk_link_target toy = {
    .name = "toy32", .machine = EM_TOY, .elfclass = ELFCLASS32, .big_endian = 0,
    .regions = toy_regions, .nregions = 3, .outsecs = toy_outsecs, .noutsecs = 2,
    .relocs = toy_relocs, .nrelocs = 4, .symbols = toy_symbols, .nsymbols = 7,
    .entry_symbol = "_start", .merge_flags = toy_merge_flags,
};

/* ---- a tiny assembler over the obj API ---- */

static isk_obj *obj(const char *name)
{
    isk_obj *o = isk_obj_new(name, ELFCLASS32, 0, EM_TOY, ET_REL);
    o->flags = ABI(2);
    return o;
}

static uint32_t sec(isk_obj *o, const char *name)
{
    int text = strncmp(name, ".text", 5) == 0;
    int bss = strcmp(name, ".bss") == 0;
    return isk_obj_section(o, name, bss ? SHT_NOBITS : SHT_PROGBITS,
                           SHF_ALLOC | (text ? SHF_EXECINSTR : SHF_WRITE), 4);
}

static void label(isk_obj *o, uint32_t s, const char *name, int global)
{
    uint32_t k = isk_obj_symbol(o, name);
    isk_obj_define(o, k, s, o->secs.data[s].size);
    if (global) isk_obj_set_binding(o, k, STB_GLOBAL);
}

/* Emit a 32-bit word, optionally with a relocation against `sym` at its start. */
static void word(isk_obj *o, uint32_t s, uint32_t w, uint32_t rtype, const char *sym, int64_t addend)
{
    uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
    uint64_t at = isk_obj_append(o, s, b, 4);
    if (rtype) isk_obj_add_reloc(o, s, at, rtype, isk_obj_symbol(o, sym), addend);
}

static uint32_t rd32(const isk_obj *o, const char *secname, uint64_t addr)
{
    uint32_t k = isk_obj_find_section(o, secname);
    if (!k) return 0xdeadbeef;
    const isk_section *s = &o->secs.data[k];
    if (addr < s->addr || addr + 4 > s->addr + s->size) return 0xdeadbeef;
    const uint8_t *p = s->data + (addr - s->addr);
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t symval(const isk_obj *o, const char *name)
{
    uint32_t k = isk_obj_lookup(o, name);
    return k ? o->syms.data[k].value : 0xdeadbeef;
}

/* a.o: the start code; calls main, loads counter, loops, uses STACK_SIZE; a pointer to main. */
static isk_obj *make_a(void)
{
    isk_obj *o = obj("a.o");
    uint32_t t = sec(o, ".text.start"), d = sec(o, ".data");
    label(o, t, "_start", 1);
    word(o, t, 0xA0000000, 2, "main", 0);          /* 0x1000 call main */
    word(o, t, 0xB1000000, 1, "counter", 0);       /* 0x1004 ld r1, counter (low half) */
    word(o, t, 0xC0000000, 2, "_start", 0);        /* 0x1008 jump _start */
    word(o, t, 0xD0000000, 4, "STACK_SIZE", 3);    /* 0x100c split8 STACK_SIZE+3 */
    word(o, d, 0, 3, "main", 0);                   /* 0x8000 .word main */
    word(o, t, 0xE0000000, 0, NULL, 0);            /* 0x1010 padding word, no relocation */
    return o;
}

/* b.o: main calls helper (from the archive); counter; a pointer to the heap; bss; common. */
static isk_obj *make_b(void)
{
    isk_obj *o = obj("b.o");
    uint32_t t = sec(o, ".text"), d = sec(o, ".data"), b = sec(o, ".bss");
    label(o, t, "main", 1);
    word(o, t, 0xF0000000, 0, NULL, 0);
    word(o, t, 0xA0000000, 2, "helper", 0);
    label(o, d, "counter", 1);
    word(o, d, 5, 0, NULL, 0);
    word(o, d, 0, 3, "__heap_start", 0);
    word(o, d, 0, 3, "maybe", 0);                  /* weak undefined -> 0 */
    isk_obj_set_binding(o, isk_obj_symbol(o, "maybe"), STB_WEAK);
    label(o, b, "buf", 0);
    isk_obj_append(o, b, NULL, 12);
    uint32_t c = isk_obj_symbol(o, "shared");
    isk_obj_define(o, c, ISK_SHN_COMMON, 4);
    isk_obj_set_binding(o, c, STB_GLOBAL);
    o->syms.data[c].size = 4;
    return o;
}

static uint8_t *elf_bytes(isk_obj *o, size_t *n)
{
    isk_diag d;
    isk_diag_init(&d);
    uint8_t *img = NULL;
    CHECK_EQ(isk_elf_write_mem(o, &img, n, &d), 0);
    return img;
}

/* libh.a: deep.o (needed by helper), h.o (helper), unused.o (never needed). */
static isk_archive *make_archive(void)
{
    isk_obj *deep = obj("deep.o"), *h = obj("h.o"), *unused = obj("unused_member_with_long_name.o");
    uint32_t t = sec(deep, ".text");
    label(deep, t, "deep", 1);
    word(deep, t, 0x11111111, 0, NULL, 0);
    t = sec(h, ".text");
    label(h, t, "helper", 1);
    word(h, t, 0xA0000000, 2, "deep", 0);
    uint32_t c = isk_obj_symbol(h, "shared");       /* a second, larger common: size 8, align 8 */
    isk_obj_define(h, c, ISK_SHN_COMMON, 8);
    isk_obj_set_binding(h, c, STB_GLOBAL);
    h->syms.data[c].size = 8;
    t = sec(unused, ".text");
    label(unused, t, "never", 1);
    word(unused, t, 0x22222222, 0, NULL, 0);
    size_t n[3];
    uint8_t *img[3] = { elf_bytes(deep, &n[0]), elf_bytes(h, &n[1]), elf_bytes(unused, &n[2]) };
    isk_ar_input in[3] = { { "deep.o", img[0], n[0] }, { "dir/h.o", img[1], n[1] },
                           { "unused_member_with_long_name.o", img[2], n[2] } };
    isk_diag d;
    isk_diag_init(&d);
    uint8_t *ar;
    size_t arn;
    CHECK_EQ(isk_archive_write_mem(in, 3, &ar, &arn, &d), 0);
    isk_archive *a = isk_archive_read_mem(ar, arn, "libh.a", &d);
    CHECK(a != NULL);
    free(ar);
    for (int i = 0; i < 3; i++) free(img[i]);
    isk_obj_free(deep);
    isk_obj_free(h);
    isk_obj_free(unused);
    return a;
}

static void link_ok(void)
{
    isk_diag d;
    isk_diag_init(&d);
    isk_obj *in[2] = { make_a(), make_b() };
    isk_archive *ar = make_archive();
    isk_obj *exe = NULL;
    CHECK_EQ(isk_link(&toy, in, 2, &ar, 1, "prog.elf", &exe, &d), 0);
    CHECK_EQ(d.errors, 0);
    CHECK(exe != NULL);
    if (!exe) goto out;
    CHECK_EQ(exe->type, ET_EXEC);
    CHECK_EQ(exe->machine, EM_TOY);
    CHECK_EQ(exe->flags, ABI(2));
    /* Layout: .text = a(.text.start, 20) b(8) h(4) deep(4); .data = a(4) b(12); .bss = b(12), shared. */
    CHECK_EQ(exe->entry, 0x1000);
    CHECK_EQ(symval(exe, "_start"), 0x1000);
    CHECK_EQ(symval(exe, "main"), 0x1014);
    CHECK_EQ(symval(exe, "helper"), 0x101c);
    CHECK_EQ(symval(exe, "deep"), 0x1020);
    CHECK_EQ(symval(exe, "counter"), 0x8004);
    CHECK_EQ(isk_obj_lookup(exe, "never"), 0);                  /* that member was not pulled */
    CHECK_EQ(symval(exe, "buf"), 0x8010);                        /* local labels are kept */
    CHECK_EQ(symval(exe, "shared"), 0x8020);                     /* common: after b's .bss, aligned 8 */
    CHECK_EQ(exe->syms.data[isk_obj_lookup(exe, "shared")].size, 8);
    CHECK_EQ(symval(exe, "__data_start"), 0x8000);
    CHECK_EQ(symval(exe, "__bss_end"), 0x8028);
    CHECK_EQ(symval(exe, "__heap_start"), 0x8028);
    CHECK_EQ(symval(exe, "__ram_end"), 0x8040);
    CHECK_EQ(symval(exe, "STACK_SIZE"), 0x40);
    CHECK_EQ(symval(exe, "__rodata_start"), 0x8010);            /* kept (empty) section between .data and .bss */
    CHECK_EQ(isk_obj_lookup(exe, "__nothing"), 0);              /* refers to a missing section, unused */
    /* Relocated bytes. */
    CHECK_EQ(rd32(exe, ".text", 0x1000), 0xA0000005);            /* (0x1014 - 0x1000) / 4 */
    CHECK_EQ(rd32(exe, ".text", 0x1004), 0xB1008004);            /* counter in the low half */
    CHECK_EQ(rd32(exe, ".text", 0x1008), 0xC0000FFE);            /* -2 words */
    CHECK_EQ(rd32(exe, ".text", 0x100c), 0xD0300004);            /* 0x43 scattered */
    CHECK_EQ(rd32(exe, ".text", 0x1018), 0xA0000001);            /* main -> helper */
    CHECK_EQ(rd32(exe, ".text", 0x101c), 0xA0000001);            /* helper -> deep */
    CHECK_EQ(rd32(exe, ".data", 0x8000), 0x1014);                /* .word main */
    CHECK_EQ(rd32(exe, ".data", 0x8008), 0x8028);                /* .word __heap_start */
    CHECK_EQ(rd32(exe, ".data", 0x800c), 0);                     /* weak undefined */
    /* Sections, segments. */
    uint32_t text = isk_obj_find_section(exe, ".text"), bss = isk_obj_find_section(exe, ".bss");
    CHECK(text && bss);
    if (text && bss) {
        CHECK_EQ(exe->secs.data[text].size, 0x24);
        CHECK_EQ(exe->secs.data[bss].type, SHT_NOBITS);
        CHECK_EQ(exe->secs.data[bss].addr, 0x8010);
        CHECK_EQ(exe->secs.data[bss].size, 0x18);
    }
    CHECK_EQ(exe->phdrs.len, 3);                                 /* .text, .data, .bss (.rodata is empty) */
    if (exe->phdrs.len == 3) {
        CHECK_EQ(exe->phdrs.data[0].flags, PF_R | PF_X);
        CHECK_EQ(exe->phdrs.data[1].flags, PF_R | PF_W);
        CHECK_EQ(exe->phdrs.data[0].vaddr, 0x1000);
    }
    /* The executable survives the ELF writer and reader. */
    uint8_t *img;
    size_t n;
    CHECK_EQ(isk_elf_write_mem(exe, &img, &n, &d), 0);
    isk_obj *back = isk_elf_read_mem(img, n, "prog.elf", &d);
    CHECK(back != NULL);
    if (back) {
        CHECK_EQ(rd32(back, ".text", 0x1000), 0xA0000005);
        CHECK_EQ(symval(back, "main"), 0x1014);
        CHECK_EQ(back->phdrs.len, 3);
    }
    isk_obj_free(back);
    free(img);
out:
    isk_obj_free(exe);
    isk_obj_free(in[0]);
    isk_obj_free(in[1]);
    isk_archive_free(ar);
}

/* Link the given objects (and the archive) expecting failure; the error text is returned. */
static char *link_fail(isk_obj **in, size_t n, int with_archive)
{
    isk_diag d;
    isk_diag_buffer buf;
    isk_diag_init(&d);
    isk_diag_capture(&d, &buf);
    isk_archive *ar = with_archive ? make_archive() : NULL;
    isk_obj *exe = (isk_obj *)1;
    CHECK_EQ(isk_link(&toy, in, n, &ar, with_archive ? 1 : 0, "prog.elf", &exe, &d), -1);
    CHECK(exe == NULL);
    CHECK(d.errors > 0);
    isk_archive_free(ar);
    for (size_t i = 0; i < n; i++) isk_obj_free(in[i]);
    char *text = buf.text ? buf.text : calloc(1, 1);
    return text;
}

static void errors(void)
{
    char *e;
    /* Undefined symbol: names the symbol, the file, the section and offset. */
    {
        isk_obj *b = make_b();
        word(b, sec(b, ".text"), 0xA0000000, 2, "nowhere", 0);
        isk_obj *in[2] = { make_a(), b };
        e = link_fail(in, 2, 1);
        CHECK_CONTAINS(e, "b.o: error: undefined symbol 'nowhere', referenced from .text+0x8");
        free(e);
    }
    /* Without the archive, helper is undefined. */
    {
        isk_obj *in[2] = { make_a(), make_b() };
        e = link_fail(in, 2, 0);
        CHECK_CONTAINS(e, "undefined symbol 'helper', referenced from .text+0x4");
        free(e);
    }
    /* Duplicate definition: both files and places. */
    {
        isk_obj *dup = obj("dup.o");
        uint32_t t = sec(dup, ".text");
        word(dup, t, 0, 0, NULL, 0);
        label(dup, t, "main", 1);
        isk_obj *in[3] = { make_a(), make_b(), dup };
        e = link_fail(in, 3, 1);
        CHECK_CONTAINS(e, "duplicate symbol 'main': defined in b.o (.text+0x0) and in dup.o (.text+0x4)");
        free(e);
    }
    /* Out-of-range relocation: value and allowed range, file, section+offset, symbol. */
    {
        isk_obj *a = make_a();
        uint32_t f = sec(a, ".far");
        label(a, f, "farvar", 0);
        word(a, f, 0, 0, NULL, 0);
        word(a, sec(a, ".text.start"), 0xB2000000, 1, "farvar", 0);
        isk_obj *in[2] = { a, make_b() };
        e = link_fail(in, 2, 1);
        CHECK_CONTAINS(e, "a.o: error: .text.start+0x14: relocation R_TOY_ABS16 against 'farvar': value 131072 "
                          "(0x20000) out of range for a unsigned 16-bit field (0..65535)");
        free(e);
    }
    /* PC-relative: too far, and misaligned. */
    {
        isk_obj *a = make_a();
        uint32_t f = sec(a, ".far");
        label(a, f, "farcode", 0);
        word(a, f, 0, 0, NULL, 0);
        word(a, sec(a, ".text.start"), 0xA0000000, 2, "farcode", 0);
        word(a, sec(a, ".text.start"), 0xA0000000, 2, "main", 2);
        isk_obj *in[2] = { a, make_b() };
        e = link_fail(in, 2, 1);
        CHECK_CONTAINS(e, "relocation R_TOY_PC12 against 'farcode': value 31739 (0x7bfb) out of range for a signed "
                          "12-bit field (-2048..2047)");
        CHECK_CONTAINS(e, ".text.start+0x18: relocation R_TOY_PC12 against 'main': value 6 (0x6) is not a multiple of 4");
        free(e);
    }
    /* ABI version mismatch: both files and both versions. */
    {
        isk_obj *b = make_b();
        b->flags = ABI(3);
        isk_obj *in[2] = { make_a(), b };
        e = link_fail(in, 2, 1);
        CHECK_CONTAINS(e, "b.o: error: ABI version mismatch: a.o has ABI 2, but b.o has ABI 3");
        free(e);
        isk_obj *c = make_b();
        c->flags = 0;
        isk_obj *in2[2] = { make_a(), c };
        e = link_fail(in2, 2, 1);
        CHECK_CONTAINS(e, "a.o has ABI 2, but b.o has ABI -1");
        free(e);
    }
    /* Region overflow: the region, its size, the size needed. */
    {
        isk_obj *b = make_b();
        isk_obj_append(b, sec(b, ".data"), NULL, 0x30);
        isk_obj *in[2] = { make_a(), b };
        e = link_fail(in, 2, 1);
        CHECK_CONTAINS(e, "error: region 'ram' overflowed: its size is 0x40 (64) bytes, but its sections need "
                          "0x58 (88) bytes");
        CHECK_CONTAINS(e, "note: section '.bss' at 0x8040, 0x18 bytes");
        free(e);
    }
    /* A section no region takes. */
    {
        isk_obj *b = make_b();
        word(b, sec(b, ".weird"), 1, 0, NULL, 0);
        isk_obj *in[2] = { make_a(), b };
        e = link_fail(in, 2, 1);
        CHECK_CONTAINS(e, "b.o: error: section '.weird' (0x4 bytes) matches no memory region of target 'toy32'");
        free(e);
    }
    /* Wrong machine, wrong class, not relocatable. */
    {
        isk_obj *b = make_b();
        b->machine = 3;
        isk_obj *in[2] = { make_a(), b };
        e = link_fail(in, 2, 1);
        CHECK_CONTAINS(e, "b.o: error: wrong kind of object: ELFCLASS32 little-endian machine 3, but target 'toy32' "
                          "needs ELFCLASS32 little-endian machine 30583");
        free(e);
        isk_obj *c = make_b();
        c->elfclass = ELFCLASS64;
        isk_obj *in2[2] = { make_a(), c };
        e = link_fail(in2, 2, 1);
        CHECK_CONTAINS(e, "ELFCLASS64 little-endian");
        free(e);
        isk_obj *x = make_b();
        x->type = ET_EXEC;
        isk_obj *in3[2] = { make_a(), x };
        e = link_fail(in3, 2, 1);
        CHECK_CONTAINS(e, "b.o: error: not a relocatable object");
        free(e);
    }
    /* Missing entry point; unknown relocation type; a used linker symbol without its section. */
    {
        isk_obj *b = make_b();
        word(b, sec(b, ".text"), 0, 99, "main", 0);
        word(b, sec(b, ".text"), 0, 3, "__nothing", 0);
        isk_obj *in[1] = { b };
        e = link_fail(in, 1, 1);
        CHECK_CONTAINS(e, "error: entry symbol '_start' is not defined");
        free(e);
        isk_obj *a = make_a();
        word(a, sec(a, ".text.start"), 0, 99, "main", 0);
        isk_obj *in2[2] = { a, make_b() };
        e = link_fail(in2, 2, 1);
        CHECK_CONTAINS(e, "a.o: error: .text.start+0x14: unknown relocation type 99 for target 'toy32'");
        free(e);
        isk_obj *a2 = make_a();
        word(a2, sec(a2, ".text.start"), 0, 3, "__nothing", 0);
        isk_obj *in3[2] = { a2, make_b() };
        e = link_fail(in3, 2, 1);
        CHECK_CONTAINS(e, "symbol '__nothing' is defined by target 'toy32' relative to '.nothing', which this program "
                          "does not have");
        free(e);
    }
}

/* A weak definition loses to a strong one, whichever comes first; an input definition
 * replaces a linker-provided symbol. */
static void overrides(void)
{
    isk_obj *a = make_a(), *b = make_b(), *w = obj("weak.o");
    uint32_t t = sec(w, ".text");
    label(w, t, "main", 1);
    word(w, t, 0x33333333, 0, NULL, 0);
    word(w, t, 0x33333333, 0, NULL, 0);
    isk_obj_set_binding(w, isk_obj_lookup(w, "main"), STB_WEAK);
    uint32_t s = isk_obj_symbol(w, "STACK_SIZE");
    isk_obj_define(w, s, ISK_SHN_ABS, 0x21);
    isk_obj_set_binding(w, s, STB_GLOBAL);
    isk_obj *in[3] = { w, a, b };
    isk_archive *ar = make_archive();
    isk_diag d;
    isk_diag_init(&d);
    isk_obj *exe = NULL;
    CHECK_EQ(isk_link(&toy, in, 3, &ar, 1, "prog.elf", &exe, &d), 0);
    if (exe) {
        /* weak.o's .text (weak main at 0x1014) comes before b.o's .text (strong main) */
        CHECK_EQ(symval(exe, "main"), 0x101c);
        CHECK_EQ(rd32(exe, ".text", 0x100c), 0xD0400002);          /* STACK_SIZE 0x21 + 3 = 0x24 */
    }
    isk_obj_free(exe);
    isk_archive_free(ar);
    for (int i = 0; i < 3; i++) isk_obj_free(in[i]);
}

/* The relocation helper on its own: big-endian containers, replace mode, EITHER check. */
static void field_helper(void)
{
    isk_link_target be = { .name = "be", .big_endian = 1 };
    uint8_t buf[4] = { 0xff, 0xff, 0xff, 0xff };
    char err[128];
    isk_reloc_field f = { .size = 4, .check = ISK_RELOC_EITHER, .bits = 16, .replace = 1,
                          .pieces = (const isk_reloc_piece[]){ { 0, 16, 8 } }, .npieces = 1 };
    isk_reloc_type rt = { 1, "R_BE", isk_reloc_apply_field, &f };
    isk_reloc_ctx c = { .target = &be, .place = buf, .avail = 4, .sym_addr = 0x1234, .addend = 0, .err = err,
                        .errlen = sizeof err };
    CHECK_EQ(isk_reloc_apply_field(&rt, &c), 0);
    CHECK(buf[0] == 0xff && buf[1] == 0x12 && buf[2] == 0x34 && buf[3] == 0xff);
    c.sym_addr = 0;
    c.addend = -1;                                                    /* fits signed */
    CHECK_EQ(isk_reloc_apply_field(&rt, &c), 0);
    c.addend = 0x10000;
    CHECK_EQ(isk_reloc_apply_field(&rt, &c), -1);
    CHECK_CONTAINS(err, "out of range for a signed or unsigned 16-bit field (-32768..65535)");
    c.avail = 2;
    CHECK_EQ(isk_reloc_apply_field(&rt, &c), -1);
    CHECK_CONTAINS(err, "needs 4 bytes at the place, but only 2 remain");
}

/* DPU-style VA translation: ROM addresses become word indexes, but only in allocated sections. */
static uint64_t toy_translate(const isk_link_target *t, uint64_t va, int alloc)
{
    (void)t;
    return alloc && va >= 0x1000 && va < 0x1100 ? (va - 0x1000) / 4 : va;
}

/* Non-allocated sections: the first input's processor-specific section is kept, others are
 * concatenated and relocated at their offsets; SHF_LINK_ORDER follows its section. */
static void nonalloc(void)
{
    /* With translated word indexes, PC12 counts instructions directly: no shift. */
    static const isk_reloc_field f_pc12_idx = { .size = 4, .pcrel = 1, .check = ISK_RELOC_SIGNED, .bits = 12 };
    static const isk_reloc_type relocs_idx[] = {
        { 1, "R_TOY_ABS16", isk_reloc_apply_field, &f_abs16 },
        { 2, "R_TOY_PC12", isk_reloc_apply_field, &f_pc12_idx },
        { 3, "R_TOY_ABS32", isk_reloc_apply_field, &f_abs32 },
        { 4, "R_TOY_SPLIT8", isk_reloc_apply_field, &f_split8 },
    };
    isk_link_target tt = toy;
    tt.translate = toy_translate;
    tt.relocs = relocs_idx;
    isk_obj *a = make_a(), *b = make_b();
    for (int i = 0; i < 2; i++) {
        isk_obj *o = i ? b : a;
        uint32_t at = isk_obj_add_section(o, ".toy.attributes", 0x70000003, 0, 1);
        isk_obj_append(o, at, i ? "second" : "first", i ? 6 : 5);
        uint32_t dbg = isk_obj_add_section(o, ".debug_info", SHT_PROGBITS, 0, 1);
        word(o, dbg, 0, 3, "main", 0);
        uint32_t ss = isk_obj_add_section(o, ".stack_sizes", SHT_PROGBITS, SHF_LINK_ORDER, 1);
        o->secs.data[ss].link = isk_obj_find_section(o, i ? ".text" : ".text.start");
        word(o, ss, 0, 3, i ? "main" : "_start", 0);
    }
    isk_obj *in[2] = { a, b };
    isk_archive *ar = make_archive();
    isk_diag d;
    isk_diag_init(&d);
    isk_obj *exe = NULL;
    CHECK_EQ(isk_link(&tt, in, 2, &ar, 1, "prog.elf", &exe, &d), 0);
    if (exe) {
        uint32_t at = isk_obj_find_section(exe, ".toy.attributes");
        CHECK(at != 0);
        if (at) {
            CHECK_EQ(exe->secs.data[at].size, 5);
            CHECK(memcmp(exe->secs.data[at].data, "first", 5) == 0);
            CHECK_EQ(exe->secs.data[at].addr, 0);
        }
        uint32_t dbg = isk_obj_find_section(exe, ".debug_info");
        CHECK(dbg != 0);
        if (dbg) {
            CHECK_EQ(exe->secs.data[dbg].size, 8);
            CHECK_EQ(rd32(exe, ".debug_info", 0), 0x1014);     /* not translated: not allocated */
            CHECK_EQ(rd32(exe, ".debug_info", 4), 0x1014);
        }
        CHECK_EQ(rd32(exe, ".data", 0x8000), 5);               /* .word main: translated to index 5 */
        CHECK_EQ(rd32(exe, ".text", 0x1000), 0xA0000005);      /* pc-relative: index difference */
        uint32_t ss = isk_obj_find_section(exe, ".stack_sizes");
        CHECK(ss != 0);
        if (ss) {
            CHECK_EQ(exe->secs.data[ss].link, isk_obj_find_section(exe, ".text"));
            CHECK(exe->secs.data[ss].flags & SHF_LINK_ORDER);
        }
        /* The output is a valid ELF file. */
        uint8_t *img;
        size_t n;
        CHECK_EQ(isk_elf_write_mem(exe, &img, &n, &d), 0);
        isk_obj *back = isk_elf_read_mem(img, n, "prog.elf", &d);
        CHECK(back != NULL);
        isk_obj_free(back);
        free(img);
    }
    isk_obj_free(exe);
    isk_archive_free(ar);
    isk_obj_free(a);
    isk_obj_free(b);
}

int main(void)
{
    link_ok();
    errors();
    overrides();
    nonalloc();
    field_helper();
    return CHECK_DONE();
}
