/* Linking and loading, with the tiny test model (tests/asm/models/tiny.c, compiled on the fly):
 *   - a two-file program with a cross-file call and data references links with every
 *     relocation resolved, loads and runs to the expected result;
 *   - an out-of-range branch (in a file and across files), an undefined symbol and objects of
 *     different ABI versions each give a precise error;
 *   - the loader refuses relocatable objects, another e_machine, another ABI version,
 *     malformed files and programs too large for a region. */
#include <fcntl.h>
#include <unistd.h>

#include "asm/asm.h"
#include "asm/link_model.h"
#include "asm/load.h"
#include "asm/loaded.h"
#include "asm/sink.h"
#include "check.h"
#include "elf/elf_file.h"

#define TINY ISEKIT_SOURCE_DIR "/tests/asm/models/tiny.c"
#define TINY3 ISEKIT_SOURCE_DIR "/tests/asm/models/tiny_abi3.c"
#define DATA ISEKIT_SOURCE_DIR "/tests/asm/data/"

static isk_obj *assemble(isk_model *m, const char *name, const char *text, sink *s)
{
    isk_asm *a = isk_asm_new(m, name, NULL, &s->d);
    isk_asm_text(a, name, text, strlen(text));
    isk_obj *o = isk_asm_finish(a);
    isk_asm_free(a);
    return o;
}

static isk_obj *link2(isk_model *m, isk_obj *x, isk_obj *y, sink *s)
{
    isk_model_link *ml = isk_model_link_new(m, &s->d);
    if (!ml) return NULL;
    isk_obj *in[2] = { x, y };
    isk_obj *exe = isk_model_link_objects(ml, in, y ? 2 : 1, NULL, 0, "a.out", &s->d);
    isk_model_link_free(ml);
    return exe;
}

static uint32_t word_at(const isk_obj *o, const char *sec, uint64_t off)
{
    const isk_section *s = &o->secs.data[isk_obj_find_section(o, sec)];
    return (uint32_t)s->data[off] | (uint32_t)s->data[off + 1] << 8 | (uint32_t)s->data[off + 2] << 16 |
           (uint32_t)s->data[off + 3] << 24;
}

static void test_two_files(isk_model *m)
{
    sink s;
    sink_init(&s);
    const char *files[] = { DATA "main.s", DATA "lib.s" };
    isk_obj *main_o = isk_assemble_files(m, &files[0], 1, "main.o", NULL, &s.d);
    isk_obj *lib_o = isk_assemble_files(m, &files[1], 1, "lib.o", NULL, &s.d);
    CHECK(main_o && lib_o);
    if (!main_o || !lib_o) {
        fputs(sink_text(&s), stderr);
        return;
    }
    /* The objects carry relocations for every cross-file reference. */
    size_t relocs = 0;
    for (size_t i = 1; i < main_o->secs.len; i++) relocs += main_o->secs.data[i].relocs.len;
    CHECK_EQ(relocs, 6);       /* li counter, call add_one, li table, .long counter, .long add_one, and the
                                  .debug_line address of .text (line information is on by default) */
    /* Through ELF files and back, as `isekit as` and `isekit ld` do. */
    uint8_t *img;
    size_t len;
    CHECK_EQ(isk_elf_write_mem(main_o, &img, &len, &s.d), 0);
    isk_obj *main_r = isk_elf_read_mem(img, len, "main.o", &s.d);
    free(img);
    CHECK(main_r != NULL);
    isk_obj *exe = link2(m, main_r, lib_o, &s);
    CHECK(exe != NULL);
    if (!exe) {
        fputs(sink_text(&s), stderr);
        return;
    }
    CHECK_EQ(exe->type, ET_EXEC);
    CHECK_EQ(exe->machine, 0x7e7);
    CHECK_EQ(exe->flags, 0x01800000);
    CHECK_EQ(exe->entry, 0);                  /* _start */
    for (size_t i = 1; i < exe->secs.len; i++) CHECK_EQ(exe->secs.data[i].relocs.len, 0);   /* all resolved */
    /* main.s is 9 instructions; add_one follows at 0x24 = instruction 9. */
    CHECK_EQ(word_at(exe, ".text", 8), 0x70000009);
    CHECK_EQ(word_at(exe, ".text", 0), 0x111000c0);            /* li r1, 0x1000c (counter) */
    CHECK_EQ(word_at(exe, ".data", 0), 0);
    CHECK_EQ(word_at(exe, ".data", 4), 0x1000c);               /* &counter */
    CHECK_EQ(word_at(exe, ".data", 8), 0x24);                  /* &add_one */

    /* Load and run it. */
    isk_system *sys = isk_system_new(&(isk_system_options){ .diag = &s.d });
    isk_inst *cpu = isk_system_add(sys, m, "cpu");
    isk_load_info info;
    CHECK_EQ(isk_load_obj(cpu, exe, &info, &s.d), 0);
    CHECK(info.started);
    CHECK_EQ(info.entry_pc, 0);
    /* the loader keeps the executable's symbols with the instance (asm/loaded.h) */
    const isk_loaded *kept = isk_loaded_of(cpu);
    CHECK(kept != NULL);
    const isk_loaded_sym *add_one = kept ? isk_loaded_find(kept, "add_one") : NULL;
    CHECK(add_one && add_one->code && add_one->pc == 9 && add_one->addr == 0x24);
    CHECK(kept && isk_loaded_code_at(kept, 10) == add_one);
    const isk_loaded_sym *counter = kept ? isk_loaded_find(kept, "counter") : NULL;
    CHECK(counter && !counter->code && counter->addr == 0x1000c);
    CHECK(kept && isk_loaded_find(kept, "no_such_symbol") == NULL);
    isk_status st = isk_run(sys, 1000);
    CHECK(st == ISK_OK || st == ISK_STOPPED);
    int64_t v = 0;
    CHECK_EQ(isk_read(cpu, "DMEM", 3, &v), ISK_OK);
    CHECK_EQ(v, 15);                                           /* counter: 10 + 5 calls */
    CHECK_EQ(isk_read(cpu, "R", 6, &v), ISK_OK);
    CHECK_EQ(v, 15);
    isk_system_free(sys);

    /* The same from a file written by the linker. */
    char path[] = "/tmp/isekit-test-link-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    CHECK_EQ(isk_elf_write_file(exe, path, &s.d), 0);
    sys = isk_system_new(&(isk_system_options){ .diag = &s.d });
    cpu = isk_system_add(sys, m, "cpu");
    CHECK_EQ(isk_load_executable(cpu, path, &s.d), 0);
    st = isk_run(sys, 1000);
    CHECK_EQ(isk_read(cpu, "DMEM", 3, &v), ISK_OK);
    CHECK_EQ(v, 15);
    isk_system_free(sys);
    unlink(path);
    CHECK_EQ(s.d.errors, 0);
    if (s.d.errors) fputs(sink_text(&s), stderr);
    isk_obj_free(exe);
    isk_obj_free(main_o);
    isk_obj_free(main_r);
    isk_obj_free(lib_o);
    isk_diag_buffer_free(&s.b);
}

static void test_errors(isk_model *m, isk_model *m3)
{
    sink s;
    /* An out-of-range branch inside a file: the assembler says where and what range. */
    sink_init(&s);
    CHECK(!assemble(m, "far.s", "        bne r1, r2, far\n        .space 1024\nfar:    ret\n", &s));
    CHECK_CONTAINS(sink_text(&s), "far.s:1:21: error: operand o: target 0x101 is out of reach: offset 256 is "
                                  "outside [-128, 127]");
    CHECK_CONTAINS(sink_text(&s), "            bne r1, r2, far\n                        ^\n");
    isk_diag_buffer_free(&s.b);

    /* ... and across files: the linker names the file, the place, the relocation, the symbol. */
    sink_init(&s);
    isk_obj *a = assemble(m, "a.s", "        .global _start\n_start: bne r1, r2, far\n", &s);
    isk_obj *b = assemble(m, "b.s", "        .space 2048\n        .global far\nfar:    ret\n", &s);
    CHECK(a && b);
    CHECK(!link2(m, a, b, &s));
    CHECK_CONTAINS(sink_text(&s), "a.s");
    CHECK_CONTAINS(sink_text(&s), "R_TINY_BR8");
    CHECK_CONTAINS(sink_text(&s), "far");
    CHECK_CONTAINS(sink_text(&s), "does not fit the signed 8-bit field [-128, 127]");
    isk_obj_free(a);
    isk_obj_free(b);
    isk_diag_buffer_free(&s.b);

    /* An undefined symbol. */
    sink_init(&s);
    a = assemble(m, "u.s", "        nop\n        call nowhere\n", &s);
    CHECK(a != NULL);
    CHECK(!link2(m, a, NULL, &s));
    CHECK_CONTAINS(sink_text(&s), "u.s: error: undefined symbol 'nowhere', referenced from .text+0x4");
    isk_obj_free(a);
    isk_diag_buffer_free(&s.b);

    /* Objects of two ABI versions. */
    sink_init(&s);
    a = assemble(m, "v1.o", "        .global _start\n_start: call f\n", &s);
    b = assemble(m3, "v3.o", "        .global f\nf:      ret\n", &s);
    CHECK(a && b);
    CHECK(!link2(m, a, b, &s));
    CHECK_CONTAINS(sink_text(&s), "ABI version mismatch: v1.o has ABI version 1 (e_flags 0x01800000) but v3.o has "
                                  "ABI version 3 (e_flags 0x03800000)");
    isk_diag_buffer_free(&s.b);
    /* Objects that agree with each other but not with the model. */
    sink_init(&s);
    CHECK(!link2(m, b, NULL, &s));
    CHECK_CONTAINS(sink_text(&s), "v3.o: error: ABI version 3 (e_flags 0x03800000), but model 'tiny' uses ABI version 1");
    isk_diag_buffer_free(&s.b);

    /* The loader: an executable of ABI 3 into the ABI 1 model. */
    sink_init(&s);
    isk_obj *exe3 = link2(m3, b, NULL, &s);
    CHECK(exe3 != NULL);
    isk_system *sys = isk_system_new(&(isk_system_options){ .diag = &s.d });
    isk_inst *cpu = isk_system_add(sys, m, "cpu");
    if (exe3) {
        isk_obj_set_filename(exe3, "v3.elf");
        CHECK(isk_load_obj(cpu, exe3, NULL, &s.d) != 0);
        CHECK_CONTAINS(sink_text(&s), "v3.elf: error: wrong ABI version 3 (e_flags 0x03800000): model 'tiny' runs ABI "
                                      "version 1");
        exe3->machine = 0xf5;
        CHECK(isk_load_obj(cpu, exe3, NULL, &s.d) != 0);
        CHECK_CONTAINS(sink_text(&s), "v3.elf: error: wrong e_machine 245 (0xf5): model 'tiny' runs e_machine 2023");
    }
    /* A relocatable object is no executable. */
    CHECK(isk_load_obj(cpu, a, NULL, &s.d) != 0);
    CHECK_CONTAINS(sink_text(&s), "v1.o: error: this is a relocatable object, not an executable");
    /* Too large for its region. */
    isk_obj *big = isk_obj_new("big.elf", ELFCLASS32, 0, 0x7e7, ET_EXEC);
    big->flags = 0x01800000;
    uint32_t sec = isk_obj_add_section(big, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 4);
    isk_obj_append(big, sec, NULL, 5000);
    CHECK(isk_load_obj(cpu, big, NULL, &s.d) != 0);
    CHECK_CONTAINS(sink_text(&s), "big.elf: error: program too large for region IMEM: section .text needs 0x1388 bytes "
                                  "at 0x0 but the region ends at 0x1000 (904 bytes too many)");
    /* Outside every region. */
    big->secs.data[sec].addr = 0x80000;
    big->secs.data[sec].size = 16;
    CHECK(isk_load_obj(cpu, big, NULL, &s.d) != 0);
    CHECK_CONTAINS(sink_text(&s), "section .text at 0x80000 lies outside every memory region of model 'tiny'");
    isk_obj_free(big);
    /* Malformed files. */
    char path[] = "/tmp/isekit-test-bad-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    CHECK_EQ(write(fd, "\177ELF\001\001\001garbage", 15), 15);
    close(fd);
    int errors = s.d.errors;
    CHECK(isk_load_executable(cpu, path, &s.d) != 0);
    CHECK(s.d.errors > errors);
    fd = open(path, O_WRONLY | O_TRUNC);
    CHECK_EQ(write(fd, "hello", 5), 5);
    close(fd);
    CHECK(isk_load_executable(cpu, path, &s.d) != 0);
    CHECK_CONTAINS(sink_text(&s), "not an ELF executable or an Intel-HEX image");
    unlink(path);
    CHECK(isk_load_executable(cpu, "/nonexistent/prog.elf", &s.d) != 0);
    CHECK_CONTAINS(sink_text(&s), "/nonexistent/prog.elf");
    isk_system_free(sys);
    isk_obj_free(exe3);
    isk_obj_free(a);
    isk_obj_free(b);
    isk_diag_buffer_free(&s.b);
}

/* The manual's example style: a macro with `@` labels, .section .text.NAME, .align 8,
 * .size f, .-f and (2f - 1f)/8 - 1. */
static void test_manual_style(isk_model *m)
{
    sink s;
    sink_init(&s);
    const char *src =
        "// Graphcore-manual style, in the tiny model's instructions\n"
        ".macro SKIP_IF_ZERO reg\n"
        "        bne \\reg, r0, go@\n"
        "        halt\n"
        "go@: .endm\n"
        "        .section .text.vertex, \"ax\"\n"
        "        .global vertex\n"
        "        .type vertex, @function\n"
        "        nop\n"
        "        .align 8\n"
        "vertex: SKIP_IF_ZERO r1\n"
        "        SKIP_IF_ZERO r2\n"
        "        li r3, (2f - 1f)/8 - 1\n"
        "1:      nop\n"
        "        nop\n"
        "        nop\n"
        "        nop\n"
        "2:      ret\n"
        "        .size vertex, .-vertex\n";
    isk_obj *o = assemble(m, "vertex.s", src, &s);
    CHECK(o != NULL);
    if (!o) {
        fputs(sink_text(&s), stderr);
        return;
    }
    uint32_t sec = isk_obj_find_section(o, ".text.vertex");
    CHECK(sec != 0);
    CHECK_EQ(o->secs.data[sec].flags, SHF_ALLOC | SHF_EXECINSTR);
    CHECK_EQ(o->secs.data[sec].align, 8);
    uint32_t v = isk_obj_lookup(o, "vertex");
    CHECK(v != 0);
    CHECK_EQ(o->syms.data[v].value, 8);           /* nop, then a nop to pad to 8 */
    CHECK_EQ(o->syms.data[v].size, 4 * 10);       /* 2 x (bne, halt), li, 4 nops, ret */
    CHECK_EQ(o->syms.data[v].type, STT_FUNC);
    CHECK_EQ(word_at(o, ".text.vertex", 4), 0);   /* the padding is the model's nop */
    CHECK_EQ(word_at(o, ".text.vertex", 8), 0x61000001);   /* bne r1, r0, go0: skips the halt */
    CHECK_EQ(word_at(o, ".text.vertex", 16), 0x62000001);  /* the second expansion's own label */
    CHECK_EQ(word_at(o, ".text.vertex", 24), 0x13000010);  /* li r3, 1 */
    /* The @ labels are ordinary local symbols, one per expansion. */
    CHECK(isk_obj_lookup(o, "go0") != 0);
    CHECK(isk_obj_lookup(o, "go1") != 0);
    isk_obj_free(o);
    CHECK_EQ(s.d.errors, 0);
    isk_diag_buffer_free(&s.b);
}

int main(void)
{
    isk_diag d;
    isk_diag_init(&d);
    isk_model *m = isk_model_load(TINY, &d);
    isk_model *m3 = isk_model_load(TINY3, &d);
    CHECK(m && m3);
    if (!m || !m3) return CHECK_DONE();
    test_two_files(m);
    test_errors(m, m3);
    test_manual_style(m);
    isk_model_release(m);
    isk_model_release(m3);
    return CHECK_DONE();
}
