/* The ELF reader on malformed input: each class of corruption gives its own clear error,
 * naming the file and the part; and no corruption of any single byte, nor any truncation,
 * crashes it (run under `make sanitize` too). Corrupt images are made from a valid one. */
#include "check.h"
#include "elf/elf_file.h"
#include "elf/elf_util.h"

/* ---- a valid image and field access in either class and byte order ---- */

typedef struct image {
    uint8_t *p;
    size_t n;
    int c64, be;
} image;

enum { SH_NAME, SH_TYPE, SH_FLAGS, SH_ADDR, SH_OFFSET, SH_SIZE, SH_LINK, SH_INFO, SH_ALIGN, SH_ENTSIZE };
static const unsigned sh32[][2] = { {0,4},{4,4},{8,4},{12,4},{16,4},{20,4},{24,4},{28,4},{32,4},{36,4} };
static const unsigned sh64[][2] = { {0,4},{4,4},{8,8},{16,8},{24,8},{32,8},{40,4},{44,4},{48,8},{56,8} };
enum { ST_NAME, ST_VALUE, ST_SIZE, ST_INFO, ST_SHNDX };
static const unsigned st32[][2] = { {0,4},{4,4},{8,4},{12,1},{14,2} };
static const unsigned st64[][2] = { {0,4},{8,8},{16,8},{4,1},{6,2} };
enum { E_TYPE, E_PHOFF, E_SHOFF, E_PHENTSIZE, E_PHNUM, E_SHENTSIZE, E_SHNUM, E_SHSTRNDX };
static const unsigned eh32[][2] = { {16,2},{28,4},{32,4},{42,2},{44,2},{46,2},{48,2},{50,2} };
static const unsigned eh64[][2] = { {16,2},{32,8},{40,8},{54,2},{56,2},{58,2},{60,2},{62,2} };

static uint64_t get(const image *im, size_t off, unsigned n) { return isk_get_uint(im->p + off, n, im->be); }
static void put(image *im, size_t off, unsigned n, uint64_t v) { isk_put_uint(im->p + off, n, im->be, v); }

static uint64_t eh(const image *im, int f) { const unsigned *d = (im->c64 ? eh64 : eh32)[f]; return get(im, d[0], d[1]); }
static void set_eh(image *im, int f, uint64_t v) { const unsigned *d = (im->c64 ? eh64 : eh32)[f]; put(im, d[0], d[1], v); }

static size_t shdr_at(const image *im, size_t i) { return (size_t)eh(im, E_SHOFF) + i * (im->c64 ? 64 : 40); }
static uint64_t sh(const image *im, size_t i, int f) { const unsigned *d = (im->c64 ? sh64 : sh32)[f]; return get(im, shdr_at(im, i) + d[0], d[1]); }
static void set_sh(image *im, size_t i, int f, uint64_t v) { const unsigned *d = (im->c64 ? sh64 : sh32)[f]; put(im, shdr_at(im, i) + d[0], d[1], v); }

static size_t find_sec(const image *im, const char *name)
{
    size_t shstr = (size_t)eh(im, E_SHSTRNDX);
    for (size_t i = 1; i < eh(im, E_SHNUM); i++)
        if (strcmp((const char *)im->p + sh(im, shstr, SH_OFFSET) + sh(im, i, SH_NAME), name) == 0) return i;
    return 0;
}

static size_t sym_at(const image *im, size_t k)
{
    size_t s = find_sec(im, ".symtab");
    return (size_t)sh(im, s, SH_OFFSET) + k * (im->c64 ? 24 : 16);
}
static void set_st(image *im, size_t k, int f, uint64_t v) { const unsigned *d = (im->c64 ? st64 : st32)[f]; put(im, sym_at(im, k) + d[0], d[1], v); }

/* Symbol index by name. */
static size_t find_sym(const image *im, const char *name)
{
    size_t s = find_sec(im, ".symtab"), str = (size_t)sh(im, s, SH_LINK);
    size_t n = (size_t)(sh(im, s, SH_SIZE) / (im->c64 ? 24 : 16));
    for (size_t k = 1; k < n; k++) {
        const unsigned *d = (im->c64 ? st64 : st32)[ST_NAME];
        uint64_t nm = get(im, sym_at(im, k) + d[0], d[1]);
        if (strcmp((const char *)im->p + sh(im, str, SH_OFFSET) + nm, name) == 0) return k;
    }
    return 0;
}

static image make(int c64, int be, uint16_t type)
{
    isk_obj *o = isk_obj_new("ok.o", c64 ? ELFCLASS64 : ELFCLASS32, be, 0xf5, type);
    uint32_t t = isk_obj_section(o, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 8);
    uint32_t d = isk_obj_section(o, ".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 4);
    uint32_t b = isk_obj_section(o, ".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 8);
    isk_obj_append(o, t, "0123456789abcdef", 16);
    isk_obj_append(o, d, "data", 4);
    isk_obj_append(o, b, NULL, 64);
    uint32_t m = isk_obj_symbol(o, "main");
    isk_obj_define(o, m, t, 0);
    isk_obj_set_binding(o, m, STB_GLOBAL);
    o->syms.data[m].size = 8;
    uint32_t l = isk_obj_symbol(o, "loop");
    isk_obj_define(o, l, t, 8);
    isk_obj_add_reloc(o, t, 8, 2, isk_obj_symbol(o, "printf"), 0);
    isk_obj_add_reloc(o, d, 0, 1, m, 4);
    if (type == ET_EXEC) {
        o->secs.data[t].addr = 0x1000;
        o->secs.data[d].addr = 0x2000;
        o->secs.data[b].addr = 0x2008;
        isk_obj_define(o, m, t, 0x1000);
        isk_obj_define(o, l, t, 0x1008);
        VEC_PUSH(&o->phdrs, (isk_phdr){ .type = PT_LOAD, .flags = PF_R | PF_X, .vaddr = 0x1000, .memsz = 16,
                                         .align = 8, .first = t, .count = 1 });
    }
    isk_diag dg;
    isk_diag_init(&dg);
    image im = { NULL, 0, c64, be };
    CHECK_EQ(isk_elf_write_mem(o, &im.p, &im.n, &dg), 0);
    isk_obj_free(o);
    return im;
}

/* Read an image expected to be refused; returns the first error line. */
static char last[600];
static const char *refuse(const image *im, size_t n)
{
    isk_diag d;
    isk_diag_buffer buf;
    isk_diag_init(&d);
    isk_diag_capture(&d, &buf);
    isk_obj *o = isk_elf_read_mem(im->p, n, "bad.o", &d);
    CHECK(o == NULL);
    CHECK_EQ(d.errors, 1);                       /* exactly one, clear message */
    snprintf(last, sizeof last, "%s", d.last);
    isk_obj_free(o);
    isk_diag_buffer_free(&buf);
    return last;
}

/* Run `corrupt` on a fresh copy of a valid image and expect `msg` in the error. */
#define EXPECT(c64, be, type, corrupt, msg) do { \
    image im = make(c64, be, type); size_t n = im.n; (void)n; \
    corrupt; \
    CHECK_CONTAINS(refuse(&im, n), msg); \
    CHECK_CONTAINS(last, "bad.o: error: "); \
    free(im.p); } while (0)

static void header_cases(int c64, int be)
{
    EXPECT(c64, be, ET_REL, n = 10, "truncated file: 10 bytes, too short for an ELF identification (16 bytes)");
    EXPECT(c64, be, ET_REL, n = 40, c64 ? "the ELF64 header needs 64" : "the ELF32 header needs 52");
    EXPECT(c64, be, ET_REL, n = im.n - 3, "section header table");
    EXPECT(c64, be, ET_REL, im.p[1] = 'X', "not an ELF file (bad magic 7f 58 4c 46)");
    EXPECT(c64, be, ET_REL, im.p[EI_CLASS] = 3, "invalid ELF class 3");
    EXPECT(c64, be, ET_REL, im.p[EI_DATA] = 0, "invalid ELF data encoding 0");
    EXPECT(c64, be, ET_REL, im.p[EI_VERSION] = 2, "unsupported ELF identification version 2");
    EXPECT(c64, be, ET_REL, set_eh(&im, E_TYPE, ET_DYN), "unsupported ELF file type 3");
    EXPECT(c64, be, ET_REL, set_eh(&im, E_SHENTSIZE, 12), "bad section header size e_shentsize 12");
    EXPECT(c64, be, ET_REL, set_eh(&im, E_SHOFF, 0x7fffff00), "section header table (offset 0x7fffff00");
    EXPECT(c64, be, ET_REL, set_eh(&im, E_SHNUM, 2000), "lies outside the file");
    EXPECT(c64, be, ET_REL, set_eh(&im, E_SHSTRNDX, 99), "section name table index e_shstrndx 99 out of range");
    EXPECT(c64, be, ET_REL, set_eh(&im, E_SHNUM, 0), "extended section numbering");
    EXPECT(c64, be, ET_EXEC, set_eh(&im, E_PHNUM, 40), "program header table (offset");
    EXPECT(c64, be, ET_EXEC, set_eh(&im, E_PHENTSIZE, 8), "bad program header size e_phentsize 8");
    /* The other class's header on this file: its fields are then nonsense, and refused. */
    EXPECT(c64, be, ET_REL, im.p[EI_CLASS] = c64 ? ELFCLASS32 : ELFCLASS64, "bad ELF header size");
}

static void section_cases(int c64, int be)
{
    EXPECT(c64, be, ET_REL, set_sh(&im, find_sec(&im, ".text"), SH_OFFSET, im.n - 2),
           "section [1] '.text': contents (offset");
    EXPECT(c64, be, ET_REL, set_sh(&im, find_sec(&im, ".text"), SH_SIZE, 0xffffffffu),
           "size 0xffffffff) extend past the end of the file");
    EXPECT(c64, be, ET_REL, set_sh(&im, 2, SH_OFFSET, sh(&im, 1, SH_OFFSET)),
           "overlapping file contents: [1] '.text'");
    EXPECT(c64, be, ET_REL, set_sh(&im, 1, SH_OFFSET, 4), "and [1] '.text' (offset 0x4");
    EXPECT(c64, be, ET_REL, set_sh(&im, 2, SH_NAME, 5000), "section [2]: name offset 5000 is outside the section name table");
    EXPECT(c64, be, ET_REL, { size_t s = (size_t)eh(&im, E_SHSTRNDX);
           im.p[sh(&im, s, SH_OFFSET) + sh(&im, s, SH_SIZE) - 1] = 'x'; }, "is empty or not NUL-terminated");
    EXPECT(c64, be, ET_REL, set_sh(&im, (size_t)eh(&im, E_SHSTRNDX), SH_TYPE, SHT_PROGBITS), "not SHT_STRTAB");
    EXPECT(c64, be, ET_REL, set_sh(&im, 1, SH_ALIGN, 3), "section [1] '.text': alignment 3 is not a power of two");
    EXPECT(c64, be, ET_EXEC, { set_sh(&im, 3, SH_ADDR, c64 ? UINT64_MAX - 8 : 0xfffffff0u); },
           "section [3] '.bss': address");
    EXPECT(c64, be, ET_REL, set_sh(&im, find_sec(&im, ".rela.text"), SH_TYPE, SHT_REL), "SHT_REL relocations are not supported");
    EXPECT(c64, be, ET_REL, set_sh(&im, 2, SH_TYPE, SHT_GROUP), "section groups (SHT_GROUP) are not supported");
    EXPECT(c64, be, ET_REL, set_sh(&im, 2, SH_TYPE, SHT_SYMTAB), "a second symbol table");
}

static void symbol_cases(int c64, int be)
{
    EXPECT(c64, be, ET_REL, set_sh(&im, find_sec(&im, ".symtab"), SH_ENTSIZE, 7), "symbol table [");
    EXPECT(c64, be, ET_REL, set_sh(&im, find_sec(&im, ".symtab"), SH_SIZE, sh(&im, find_sec(&im, ".symtab"), SH_SIZE) - 1),
           "is not a multiple of the entry size");
    EXPECT(c64, be, ET_REL, set_sh(&im, find_sec(&im, ".symtab"), SH_LINK, 1), "its string table index 1 is not a SHT_STRTAB");
    EXPECT(c64, be, ET_REL, set_sh(&im, find_sec(&im, ".symtab"), SH_INFO, 99), "first global index 99 out of range");
    EXPECT(c64, be, ET_REL, set_st(&im, find_sym(&im, "main"), ST_NAME, 100000), "name offset 100000 is outside the string table");
    EXPECT(c64, be, ET_REL, set_st(&im, find_sym(&im, "main"), ST_SHNDX, 200), "symbol 2 'main': section index 200 out of range");
    EXPECT(c64, be, ET_REL, set_st(&im, find_sym(&im, "main"), ST_SHNDX, find_sec(&im, ".strtab")),
           "which has no contents of its own");
    EXPECT(c64, be, ET_REL, set_st(&im, find_sym(&im, "main"), ST_SHNDX, SHN_XINDEX), "SHN_XINDEX");
    EXPECT(c64, be, ET_REL, set_st(&im, find_sym(&im, "main"), ST_VALUE, 20),
           "symbol 2 'main': value 0x14 lies past the end of section [1] '.text' (size 0x10)");
    EXPECT(c64, be, ET_REL, set_st(&im, find_sym(&im, "main"), ST_INFO, 0x42), "unsupported binding 4");
    EXPECT(c64, be, ET_REL, set_st(&im, find_sym(&im, "loop"), ST_INFO, 0x10), "global symbol on the wrong side");
}

static void reloc_cases(int c64, int be)
{
    size_t rt = 0;
    unsigned esz = c64 ? 24 : 12, w = c64 ? 8 : 4;
    EXPECT(c64, be, ET_REL, { rt = find_sec(&im, ".rela.text");
           put(&im, (size_t)sh(&im, rt, SH_OFFSET) + w, w, c64 ? (uint64_t)77 << 32 | 2 : 77u << 8 | 2); },
           "relocation section [4] '.rela.text': entry 0: symbol index 77 out of range");
    EXPECT(c64, be, ET_REL, { rt = find_sec(&im, ".rela.text"); put(&im, (size_t)sh(&im, rt, SH_OFFSET), w, 16); },
           "entry 0: offset 0x10 is outside section '.text' (size 0x10)");
    EXPECT(c64, be, ET_EXEC, { rt = find_sec(&im, ".rela.text"); put(&im, (size_t)sh(&im, rt, SH_OFFSET), w, 8); },
           "entry 0: offset 0x8 is outside section '.text'");       /* executables use addresses */
    EXPECT(c64, be, ET_REL, set_sh(&im, find_sec(&im, ".rela.text"), SH_INFO, 0), "target section index 0 is not a content section");
    EXPECT(c64, be, ET_REL, set_sh(&im, find_sec(&im, ".rela.text"), SH_INFO, find_sec(&im, ".symtab")),
           "is not a content section");
    EXPECT(c64, be, ET_REL, set_sh(&im, find_sec(&im, ".rela.text"), SH_INFO, 3),
           "target section [3] '.bss' has no contents (SHT_NOBITS)");
    EXPECT(c64, be, ET_REL, set_sh(&im, find_sec(&im, ".rela.text"), SH_LINK, 1), "symbol table link 1 is not the symbol table");
    EXPECT(c64, be, ET_REL, set_sh(&im, find_sec(&im, ".rela.text"), SH_ENTSIZE, esz + 1), "entry size");
    EXPECT(c64, be, ET_REL, set_sh(&im, find_sec(&im, ".rela.text"), SH_SIZE, esz - 1), "is not a multiple of the entry size");
}

static void phdr_cases(int c64, int be)
{
    size_t ph = 0;
    unsigned off = c64 ? 8 : 4, filesz = c64 ? 32 : 16, w = c64 ? 8 : 4;
    EXPECT(c64, be, ET_EXEC, { ph = (size_t)eh(&im, E_PHOFF); put(&im, ph + off, w, im.n - 4); },
           "program header 0: contents (offset");
    EXPECT(c64, be, ET_EXEC, { ph = (size_t)eh(&im, E_PHOFF); put(&im, ph + filesz, w, 64); },
           "program header 0: file size 0x40 exceeds memory size 0x10");
}

/* Every single-byte change and every truncation is either read or refused with an error. */
static void no_crash(int c64, int be, uint16_t type)
{
    image im = make(c64, be, type);
    static const uint8_t vals[] = { 0x00, 0xff, 0x80, 0x7f, 0x01 };
    int refused = 0, total = 0;
    for (size_t i = 0; i < im.n; i++)
        for (size_t v = 0; v < sizeof vals; v++) {
            uint8_t save = im.p[i];
            im.p[i] = vals[v];
            isk_diag d;
            isk_diag_buffer buf;
            isk_diag_init(&d);
            isk_diag_capture(&d, &buf);
            isk_obj *o = isk_elf_read_mem(im.p, im.n, "x.o", &d);
            if (!o && d.errors == 0) CHECK(!"silent failure");
            refused += o == NULL;
            total++;
            isk_obj_free(o);
            isk_diag_buffer_free(&buf);
            im.p[i] = save;
        }
    for (size_t n = 0; n < im.n; n++) {
        isk_diag d;
        isk_diag_buffer buf;
        isk_diag_init(&d);
        isk_diag_capture(&d, &buf);
        isk_obj *o = isk_elf_read_mem(im.p, n, "x.o", &d);
        CHECK(o == NULL && d.errors == 1);               /* every truncation is noticed */
        isk_obj_free(o);
        isk_diag_buffer_free(&buf);
    }
    CHECK(refused > 0 && refused < total);
    free(im.p);
}

int main(void)
{
    for (int c64 = 0; c64 <= 1; c64++)
        for (int be = 0; be <= 1; be++) {
            header_cases(c64, be);
            section_cases(c64, be);
            symbol_cases(c64, be);
            reloc_cases(c64, be);
            phdr_cases(c64, be);
            no_crash(c64, be, ET_REL);
            no_crash(c64, be, ET_EXEC);
        }
    return CHECK_DONE();
}
