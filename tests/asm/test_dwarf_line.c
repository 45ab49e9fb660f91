/* Line information (DWARF .debug_line): the assembler notes each instruction's source line, the
 * linker keeps it right across files, the loader decodes it into isk_loaded's line table.
 *   - the encoder and the decoder agree (sequences, files, long line jumps, address gaps);
 *   - the tiny model's two-file program: the line of given instructions, in both files, after
 *     the link moved lib.s behind main.s; isk_loaded_line_pcs finds a line's PCs;
 *   - a macro's instructions carry the line of its call; `.file N`/`.loc` win; no lines with
 *     no_lines; a `.loc` of an undeclared file is an error;
 *   - a DPU .S through cpp: lines of the user's .S, not of the preprocessed text;
 *   - an IPU .S (the seed's add_f32.S): given instructions at their lines;
 *   - a malformed .debug_line (every truncation, a bad version) is a warning and no lines;
 *   - what GNU as writes for the host (DWARF 3, 4 and 5, 64-bit addresses, v5's names in
 *     .debug_line_str) decodes to its lines (skipped with a note where there is no `as`). */
#include <unistd.h>

#include "asm/asm.h"
#include "asm/dwarf_line.h"
#include "asm/link_model.h"
#include "asm/load.h"
#include "asm/loaded.h"
#include "asm/sink.h"
#include "check.h"
#include "elf/elf_file.h"

#define TINY ISEKIT_SOURCE_DIR "/tests/asm/models/tiny.c"
#define DATA ISEKIT_SOURCE_DIR "/tests/asm/data/"

static void test_codec(void)
{
    const char *files[] = { "a.s", "dir/b.s" };
    isk_dwarf_erow r1[] = { { 0, 0, 3, 0 }, { 8, 0, 4, 7 }, { 16, 1, 1000, 0 }, { 8000, 0, 2, 0 } };
    isk_dwarf_erow r2[] = { { 0, 1, 20, 0 } };
    isk_dwarf_seq seqs[] = { { r1, 4, 0x80000000u, 8008 }, { r2, 1, 0x100, 4 } };
    isk_bytes b = { 0 };
    uint64_t at[2];
    for (int be = 0; be < 2; be++) {
        b.len = 0;
        isk_dwarf_line_encode(&b, be, 4, 4, files, 2, seqs, 2, at);
        isk_dwarf_lines d = { 0 };
        char err[200] = "";
        CHECK(isk_dwarf_line_decode(b.data, b.len, be, NULL, 0, NULL, 0, NULL, NULL, &d, err, sizeof err));
        CHECK_STR(err, "");
        CHECK_EQ(d.files.len, 2);
        CHECK_STR(d.files.len == 2 ? d.files.data[1] : NULL, "dir/b.s");
        CHECK_EQ(d.rows.len, 7);              /* 4 + end, 1 + end */
        if (d.rows.len == 7) {
            CHECK_EQ(d.rows.data[0].addr, 0x80000000u);
            CHECK_EQ(d.rows.data[0].line, 3);
            CHECK_EQ(d.rows.data[1].column, 7);
            CHECK_EQ(d.rows.data[2].line, 1000);
            CHECK_EQ(d.rows.data[2].file, 1);
            CHECK_EQ(d.rows.data[3].addr, 0x80000000u + 8000);
            CHECK_EQ(d.rows.data[3].line, 2);
            CHECK(d.rows.data[4].end && d.rows.data[4].addr == 0x80000000u + 8008);
            CHECK_EQ(d.rows.data[5].addr, 0x100);
            CHECK_EQ(d.rows.data[5].line, 20);
            CHECK(d.rows.data[6].end && d.rows.data[6].addr == 0x104);
        }
        /* The set_address operands sit where the encoder said. */
        CHECK_EQ(b.data[at[0] + (be ? 0 : 3)], 0x80);
        isk_dwarf_lines_free(&d);
    }
    /* Every truncation and a bad version: an error, never a crash. */
    int refused = 0;
    for (size_t n = 1; n < b.len; n++) {
        isk_dwarf_lines d = { 0 };
        char err[200];
        refused += !isk_dwarf_line_decode(b.data, n, true, NULL, 0, NULL, 0, NULL, NULL, &d, err, sizeof err);
        isk_dwarf_lines_free(&d);
    }
    CHECK_EQ(refused, (int)b.len - 1);
    b.data[5] = 9;                            /* version 9 (big-endian: the low byte) */
    isk_dwarf_lines d = { 0 };
    char err[200] = "";
    CHECK(!isk_dwarf_line_decode(b.data, b.len, true, NULL, 0, NULL, 0, NULL, NULL, &d, err, sizeof err));
    CHECK_CONTAINS(err, "version 9");
    isk_dwarf_lines_free(&d);
    VEC_FREE(&b);
}

static isk_obj *link_objs(isk_model *m, isk_obj **objs, size_t n, sink *s)
{
    isk_model_link *ml = isk_model_link_new(m, &s->d);
    isk_obj *exe = ml ? isk_model_link_objects(ml, objs, n, NULL, 0, "a.out", &s->d) : NULL;
    isk_model_link_free(ml);
    return exe;
}

/* Assemble files (each its own object, as `isekit build` does), link, load into a new system. */
static isk_inst *loaded_inst;       /* the instance the last load_files/load_text loaded */

static isk_system *load_files(isk_model *m, const char *const *paths, size_t n, const isk_asm_options *opt, sink *s,
                              isk_obj **exe_out)
{
    isk_obj *objs[4] = { 0 };
    bool ok = true;
    for (size_t i = 0; i < n; i++) ok &= (objs[i] = isk_assemble_files(m, &paths[i], 1, "x.o", opt, &s->d)) != NULL;
    isk_obj *exe = ok ? link_objs(m, objs, n, s) : NULL;
    for (size_t i = 0; i < n; i++) isk_obj_free(objs[i]);
    if (!exe) {
        fputs(sink_text(s), stderr);
        return NULL;
    }
    isk_system *sys = isk_system_new(&(isk_system_options){ .diag = &s->d });
    isk_inst *inst = loaded_inst = isk_system_add(sys, m, "cpu");
    CHECK_EQ(isk_load_obj(inst, exe, NULL, &s->d), 0);
    if (exe_out) *exe_out = exe;
    else isk_obj_free(exe);
    return sys;
}

static uint32_t line_of(const isk_loaded *l, uint64_t pc, const char **file)
{
    const isk_line_row *r = isk_loaded_line_at(l, pc);
    if (file) *file = r && r->file < l->files.len ? l->files.data[r->file] : "";
    return r ? r->line : 0;
}

static void test_two_files(isk_model *m)
{
    sink s;
    sink_init(&s);
    const char *files[] = { DATA "main.s", DATA "lib.s" };
    isk_system *sys = load_files(m, files, 2, NULL, &s, NULL);
    CHECK(sys != NULL);
    if (!sys) return;
    const isk_loaded *l = isk_loaded_of(loaded_inst);
    const char *f;
    CHECK_EQ(line_of(l, 0, &f), 5);                       /* _start: li r1, counter */
    CHECK_CONTAINS(f, "data/main.s");
    CHECK_EQ(line_of(l, 4, NULL), 9);                     /* bne r3, r0, 1b */
    CHECK_EQ(line_of(l, 8, NULL), 13);                    /* halt */
    const isk_loaded_sym *add_one = isk_loaded_find(l, "add_one");
    CHECK(add_one && add_one->pc == 9);
    CHECK_EQ(line_of(l, 9, &f), 5);                       /* lib.s's first instruction, moved by the link */
    CHECK_CONTAINS(f, "data/lib.s");
    CHECK_EQ(line_of(l, 15, NULL), 11);
    CHECK_EQ(line_of(l, 16, NULL), 0);                    /* past the code: no line */
    uint64_t pcs[4];
    CHECK_EQ(isk_loaded_line_pcs(l, "main.s", 7, pcs, 4), 1);
    CHECK_EQ(pcs[0], 2);
    CHECK_EQ(isk_loaded_line_pcs(l, "data/lib.s", 5, pcs, 4), 1);
    CHECK_EQ(pcs[0], 9);
    CHECK_EQ(isk_loaded_line_pcs(l, "ib.s", 5, pcs, 4), 0);       /* a name's tail is no file name */
    CHECK_EQ(isk_loaded_line_pcs(l, "main.s", 1, pcs, 4), 0);
    CHECK_EQ(s.d.errors + s.d.warnings, 0);
    isk_system_free(sys);

    /* no_lines: no .debug_line, no rows. */
    isk_asm_options off = { .no_lines = true };
    sys = load_files(m, files, 2, &off, &s, NULL);
    CHECK(sys && isk_loaded_of(loaded_inst)->lines.len == 0);
    isk_system_free(sys);
    isk_diag_buffer_free(&s.b);
}

static isk_system *load_text(isk_model *m, const char *text, sink *s)
{
    isk_asm *a = isk_asm_new(m, "t.o", NULL, &s->d);
    isk_asm_text(a, "t.s", text, strlen(text));
    isk_obj *o = isk_asm_finish(a);
    isk_asm_free(a);
    isk_obj *exe = o ? link_objs(m, &o, 1, s) : NULL;
    isk_obj_free(o);
    if (!exe) return NULL;
    isk_system *sys = isk_system_new(&(isk_system_options){ .diag = &s->d });
    isk_inst *inst = loaded_inst = isk_system_add(sys, m, "cpu");
    CHECK_EQ(isk_load_obj(inst, exe, NULL, &s->d), 0);
    isk_obj_free(exe);
    return sys;
}

static void test_macros_and_loc(isk_model *m)
{
    sink s;
    sink_init(&s);
    isk_system *sys = load_text(m,
                                "  .macro two r\n"        /* 1 */
                                "  li \\r, 1\n"           /* 2 */
                                "  li \\r, 2\n"           /* 3 */
                                "  .endm\n"               /* 4 */
                                "_start: li r1, 0\n"      /* 5 */
                                "  two r2\n"              /* 6 */
                                "  .rept 2\n"             /* 7 */
                                "  li r3, 3\n"            /* 8 */
                                "  .endr\n"               /* 9 */
                                "  .file 1 \"src/prog.c\"\n" /* 10 */
                                "  .file 2 \"inc\" \"h.h\"\n"
                                "  .loc 1 42 5\n"
                                "  li r4, 4\n"
                                "  li r4, 5\n"
                                "  .loc 2 7 0 is_stmt 1 prologue_end\n"
                                "  halt\n", &s);
    CHECK(sys != NULL);
    if (!sys) {
        fputs(sink_text(&s), stderr);
        return;
    }
    const isk_loaded *l = isk_loaded_of(loaded_inst);
    const char *f;
    CHECK_EQ(line_of(l, 0, &f), 5);
    CHECK_STR(f, "t.s");
    CHECK_EQ(line_of(l, 1, NULL), 6);                     /* the macro's two: the call's line */
    CHECK_EQ(line_of(l, 2, NULL), 6);
    CHECK_EQ(line_of(l, 3, NULL), 8);                     /* a .rept body: its own line */
    CHECK_EQ(line_of(l, 4, NULL), 8);
    CHECK_EQ(line_of(l, 5, &f), 42);                      /* .loc wins */
    CHECK_STR(f, "src/prog.c");
    CHECK_EQ(isk_loaded_line_at(l, 5)->column, 5);
    CHECK_EQ(line_of(l, 6, NULL), 42);
    CHECK_EQ(line_of(l, 7, &f), 7);
    CHECK_STR(f, "inc/h.h");
    uint64_t pcs[4];
    CHECK_EQ(isk_loaded_line_pcs(l, "t.s", 6, pcs, 4), 1);      /* one row for the whole call */
    CHECK_EQ(isk_loaded_line_pcs(l, "prog.c", 42, pcs, 4), 1);
    CHECK_EQ(pcs[0], 5);
    isk_system_free(sys);

    s.d.errors = 0;
    sys = load_text(m, "_start: .loc 3 1\n halt\n", &s);
    CHECK(sys == NULL);
    CHECK_CONTAINS(sink_text(&s), "t.s:1:14: error: .loc: file 3 was not declared");
    isk_system_free(sys);
    isk_diag_buffer_free(&s.b);
}

/* Assemble path for a built-in model, link, load, and hand the line table and the PC of
 * symbol fn to checks. */
static void with_model_file(const char *model, const char *path, const char *fn,
                            void (*checks)(const isk_loaded *l, const isk_loaded_sym *fn, uint64_t pc))
{
    sink s;
    sink_init(&s);
    isk_model *m = isk_model_load(model, &s.d);
    isk_system *sys = m ? load_files(m, &path, 1, NULL, &s, NULL) : NULL;
    CHECK(sys != NULL);
    if (sys) {
        const isk_loaded *l = isk_loaded_of(loaded_inst);
        const isk_loaded_sym *sym = isk_loaded_find(l, fn);
        CHECK(sym != NULL);
        checks(l, sym, sym ? sym->pc : 0);
    }
    isk_system_free(sys);
    isk_model_release(m);
    isk_diag_buffer_free(&s.b);
}

static void dpu_checks(const isk_loaded *l, const isk_loaded_sym *main_sym, uint64_t pc)
{
    const char *f;
    CHECK_EQ(line_of(l, pc, &f), 9);                  /* move r0, ANSWER */
    CHECK_CONTAINS(f, "lines_dpu.S");
    CHECK_EQ(line_of(l, pc + 1, NULL), 10);           /* TWICE(r0): a cpp macro */
    CHECK_EQ(line_of(l, pc + 2, NULL), 15);           /* inc3 r0: an assembler macro */
    CHECK_EQ(line_of(l, pc + 3, NULL), 15);
    CHECK_EQ(line_of(l, pc + 4, NULL), 17);           /* after a blank line */
    uint64_t pcs[2];
    CHECK_EQ(isk_loaded_line_pcs(l, "lines_dpu.S", 17, pcs, 2), 1);
    CHECK_EQ(pcs[0], pc + 4);
    /* the byte addresses are the IRAM's, as the symbols' */
    CHECK(main_sym && main_sym->addr == 0x80000000u + 8 * pc);
}

static void ipu_checks(const isk_loaded *l, const isk_loaded_sym *fn, uint64_t pc)
{
    (void)fn;
    const char *f;
    CHECK_EQ(line_of(l, pc, &f), 12);                 /* ld32 $m0, ... */
    CHECK_CONTAINS(f, "add_f32.S");
    CHECK_EQ(line_of(l, pc + 4, NULL), 16);           /* shr $m3, $m3, 1 */
    uint64_t pcs[2];
    CHECK_EQ(isk_loaded_line_pcs(l, "add_f32.S", 21, pcs, 2), 1);     /* .Lloop: ld64step */
    CHECK_EQ(pcs[0], pc + 8);
}

/* A malformed table in an executable: the program loads, with a warning and no lines. */
static void test_bad_table(isk_model *m)
{
    sink s;
    sink_init(&s);
    const char *files[] = { DATA "main.s", DATA "lib.s" };
    isk_obj *exe = NULL;
    isk_system *sys = load_files(m, files, 2, NULL, &s, &exe);
    isk_system_free(sys);
    CHECK(exe != NULL);
    if (!exe) return;
    uint32_t dl = isk_obj_find_section(exe, ".debug_line");
    CHECK(dl != 0);
    isk_section *sec = &exe->secs.data[dl];
    sec->size -= 3;                                        /* cut short */
    sys = isk_system_new(&(isk_system_options){ .diag = &s.d });
    isk_inst *inst = isk_system_add(sys, m, "cpu");
    CHECK_EQ(isk_load_obj(inst, exe, NULL, &s.d), 0);
    CHECK_EQ(isk_loaded_of(inst)->lines.len, 0);
    CHECK(isk_loaded_of(inst)->syms.len > 0);
    /* the last unit (main.s's is first, lib.s's second) is the one cut short; where it starts
     * depends on the length of the source paths in the first */
    const uint8_t *d = sec->data;
    const uint32_t first = (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24;
    const uint8_t *u = d + 4 + first;
    const uint32_t second = (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 | (uint32_t)u[3] << 24;
    char want[160];
    snprintf(want, sizeof want, "a.out: warning: .debug_line: offset 0x%x: unit length 0x%x goes past the section's end",
             4 + first, second);
    CHECK_CONTAINS(sink_text(&s), want);
    CHECK_EQ(s.d.errors, 0);
    isk_system_free(sys);
    isk_obj_free(exe);
    isk_diag_buffer_free(&s.b);
}

/* GNU as's own tables for the host: x.s's nop, nop, (blank), movl at lines 2, 3, 5, linked. */
static void test_gnu_as(void)
{
    char dir[] = "/tmp/isk_dwarf_XXXXXX";
    if (!mkdtemp(dir)) return;
    char src[300], obj[300], objo[310], cmd[1300];
    snprintf(src, sizeof src, "%s/x.s", dir);
    snprintf(obj, sizeof obj, "%s/x", dir);
    snprintf(objo, sizeof objo, "%s.o", obj);
    FILE *f = fopen(src, "w");
    if (f) fputs(".text\nnop\nnop\n\nmovl $1, %eax\n", f);
    if (f) fclose(f);
    for (int v = 3; v <= 5; v++) {
        /* linked, as an object's DWARF 5 names are relocations into .debug_line_str */
        snprintf(cmd, sizeof cmd, "as --gdwarf-%d -o %s.o %s 2>/dev/null && ld -e 0 -o %s %s.o 2>/dev/null", v, obj, src,
                 obj, obj);
        if (system(cmd) != 0) {
            printf("note: no GNU as and ld for the host: its DWARF %d line table is not checked\n", v);
            continue;
        }
        sink s;
        sink_init(&s);
        isk_obj *o = isk_elf_read_file(obj, &s.d);
        CHECK(o != NULL);
        uint32_t dl = o ? isk_obj_find_section(o, ".debug_line") : 0, ls = o ? isk_obj_find_section(o, ".debug_line_str") : 0;
        CHECK(dl != 0);
        if (dl) {
            const isk_section *d = &o->secs.data[dl], *l = ls ? &o->secs.data[ls] : NULL;
            isk_dwarf_lines lines = { 0 };
            char err[200] = "";
            CHECK(isk_dwarf_line_decode(d->data, d->size, false, NULL, 0, l ? l->data : NULL, l ? l->size : 0, NULL, NULL,
                                        &lines, err, sizeof err));
            CHECK_STR(err, "");
            CHECK_EQ(lines.rows.len, 4);
            if (lines.rows.len == 4) {
                const isk_dwarf_row *r = lines.rows.data;
                uint64_t base = r[0].addr;
                CHECK(base != 0 && r[0].line == 2 && r[1].addr == base + 1 && r[1].line == 3);
                CHECK(r[2].addr == base + 2 && r[2].line == 5 && r[3].end && r[3].addr == base + 7);
                CHECK(r[0].file < lines.files.len && strstr(lines.files.data[r[0].file], "x.s"));
            }
            isk_dwarf_lines_free(&lines);
        }
        isk_obj_free(o);
        isk_diag_buffer_free(&s.b);
    }
    remove(obj);
    remove(objo);
    remove(src);
    rmdir(dir);
}

int main(void)
{
    test_codec();
    test_gnu_as();
    isk_diag d;
    isk_diag_init(&d);
    isk_model *m = isk_model_load(TINY, &d);
    CHECK(m != NULL);
    if (!m) return CHECK_DONE();
    test_two_files(m);
    test_macros_and_loc(m);
    test_bad_table(m);
    with_model_file("dpu", DATA "lines_dpu.S", "main", dpu_checks);
    with_model_file("ipu", ISEKIT_SOURCE_DIR "/models/ipu/examples/add_f32.S", "__runCodelet_AddF32", ipu_checks);
    isk_model_release(m);
    return CHECK_DONE();
}
