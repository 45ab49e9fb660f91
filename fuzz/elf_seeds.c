/* Seed corpus for fuzz/elf_read_fuzz.c, written at run time by our own writers so that the
 * repository holds no binaries: `elf_seeds DIR` writes valid ELF objects and executables
 * (32/64-bit, both byte orders), archives (with and without a symbol index, with a long
 * member name) and an Intel-HEX file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf/archive.h"
#include "elf/elf_file.h"
#include "elf/image.h"

static isk_obj *make(int cls, int be, uint16_t type, const char *fn, const char *ext)
{
    isk_obj *o = isk_obj_new("seed", cls, be, 0xf5, type);
    o->flags = 0x02800000;
    uint32_t text = isk_obj_section(o, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 8);
    uint32_t data = isk_obj_section(o, ".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 4);
    uint32_t bss = isk_obj_section(o, ".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 8);
    uint32_t ss = isk_obj_add_section(o, ".stack_sizes", SHT_PROGBITS, SHF_LINK_ORDER, 1);
    o->secs.data[ss].link = text;
    uint32_t attr = isk_obj_add_section(o, ".dpu.attributes", 0x70000003, 0, 1);
    static const uint8_t code[24] = { 0x10, 0, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0, 0, 0, 0, 0x30 };
    isk_obj_append(o, text, code, sizeof code);
    isk_obj_append(o, data, "\1\2\3\4\5\6\7\10", 8);
    isk_obj_append(o, bss, NULL, 32);
    isk_obj_append(o, ss, "\0\0\0\x80\x10", 5);
    isk_obj_append(o, attr, "A\x14\0\0\0upmem\0\1\x0a\0\0\0\5v1A", 21);
    uint32_t f = isk_obj_symbol(o, fn);
    isk_obj_define(o, f, text, type == ET_EXEC ? 0x80000000u : 0);
    isk_obj_set_binding(o, f, STB_GLOBAL);
    o->syms.data[f].type = STT_FUNC;
    o->syms.data[f].size = 16;
    uint32_t l = isk_obj_symbol(o, "local_label");
    isk_obj_define(o, l, text, type == ET_EXEC ? 0x80000008u : 8);
    uint32_t e = isk_obj_symbol(o, ext);
    uint32_t c = isk_obj_symbol(o, "common_buf");
    isk_obj_define(o, c, ISK_SHN_COMMON, 8);
    isk_obj_set_binding(o, c, STB_GLOBAL);
    o->syms.data[c].size = 24;
    uint32_t sd = isk_obj_section_symbol(o, data);
    isk_obj_add_reloc(o, text, 0, 128, e, 0);
    isk_obj_add_reloc(o, text, 8, 138, sd, 4);
    isk_obj_add_reloc(o, data, 4, 1, f, -8);
    isk_obj_add_reloc(o, ss, 0, 1, f, 0);
    if (type == ET_EXEC) {
        o->secs.data[text].addr = 0x80000000u;
        o->secs.data[data].addr = 0x10;
        o->secs.data[bss].addr = 0x18;
        o->entry = 0x80000000u;
        VEC_PUSH(&o->phdrs, (isk_phdr){ .type = PT_LOAD, .flags = PF_R | PF_X, .vaddr = 0x80000000u,
                                         .memsz = sizeof code, .align = 8, .first = text, .count = 1 });
        VEC_PUSH(&o->phdrs, (isk_phdr){ .type = PT_LOAD, .flags = PF_R | PF_W, .vaddr = 0x10, .memsz = 0x28,
                                         .align = 8, .first = data, .count = 2 });
    }
    return o;
}

static int save(const char *dir, const char *name, const void *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n) {
        fprintf(stderr, "elf_seeds: cannot write %s\n", path);
        if (f) fclose(f);
        return -1;
    }
    return fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: elf_seeds CORPUS_DIR\n");
        return 2;
    }
    isk_diag d;
    isk_diag_init(&d);
    int rc = 0;
    uint8_t *objs[2] = {0};
    size_t objn[2] = {0};
    for (int cls = ELFCLASS32; cls <= ELFCLASS64; cls++)
        for (int be = 0; be <= 1; be++)
            for (int exec = 0; exec <= 1; exec++) {
                isk_obj *o = make(cls, be, exec ? ET_EXEC : ET_REL, "main", "printf");
                uint8_t *img;
                size_t n;
                char name[64];
                snprintf(name, sizeof name, "elf%d_%s_%s", cls == ELFCLASS32 ? 32 : 64, be ? "be" : "le",
                         exec ? "exec" : "rel");
                if (isk_elf_write_mem(o, &img, &n, &d) == 0) {
                    rc |= save(argv[1], name, img, n);
                    free(img);
                } else {
                    rc = 1;
                }
                isk_obj_free(o);
            }
    /* Archive members: two 32-bit LE objects defining different functions. */
    for (int i = 0; i < 2; i++) {
        isk_obj *o = make(ELFCLASS32, 0, ET_REL, i ? "printf" : "puts", i ? "puts" : "memcpy");
        if (isk_elf_write_mem(o, &objs[i], &objn[i], &d) != 0) rc = 1;
        isk_obj_free(o);
    }
    isk_ar_input in[2] = { { "printf_implementation.o", objs[1], objn[1] }, { "puts.o", objs[0], objn[0] } };
    uint8_t *ar;
    size_t arn;
    if (isk_archive_write_mem(in, 2, &ar, &arn, &d) == 0) {
        rc |= save(argv[1], "archive_indexed", ar, arn);
        /* The same without the symbol index: skip the "/" member (header + body + pad). */
        uint64_t isz = strtoull((const char *)ar + 8 + 48, NULL, 10);
        size_t skip = 60 + (size_t)isz + (isz & 1);
        uint8_t *plain = malloc(arn - skip);
        memcpy(plain, ar, 8);
        memcpy(plain + 8, ar + 8 + skip, arn - 8 - skip);
        rc |= save(argv[1], "archive_plain", plain, arn - skip);
        free(plain);
        free(ar);
    } else {
        rc = 1;
    }
    free(objs[0]);
    free(objs[1]);
    /* Intel-HEX crossing a 64 KiB page, with an entry point. */
    uint8_t bytes[40];
    for (int i = 0; i < 40; i++) bytes[i] = (uint8_t)(i * 7);
    char *hex;
    size_t hexn;
    if (isk_ihex_format(bytes, sizeof bytes, 0x1fff0, 1, 0x1fff0, &hex, &hexn, &d) == 0) {
        rc |= save(argv[1], "image_hex", hex, hexn);
        free(hex);
    } else {
        rc = 1;
    }
    return rc ? 1 : 0;
}
