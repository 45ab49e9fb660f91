// fuzz-sources: fuzz/builtin_example.c fuzz/builtin_tiny.c src/asm/*.c src/engine/*.c src/elf/*.c src/base/*.c
// fuzz-seeds: fuzz/asm_seeds.c
// fuzz-cflags: -DISK_CORO_UCONTEXT=1
// fuzz-libs: -lelf -ldl -lm -lpthread
/* libFuzzer harness for the assembler front end: arbitrary text is assembled for a model
 * chosen by the first byte (the example accelerator or the tiny test processor). Beyond "no
 * crash, no sanitizer report, no hang", it checks:
 *   - every failure is reported through the diagnostic sink (never a silent NULL);
 *   - an object the assembler accepts can be written as ELF and read back, linked (for the
 *     processor) and disassembled;
 *   - every instruction the disassembler prints assembles back to the same word. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/disasm.h"
#include "asm/link_model.h"
#include "asm/syntax.h"
#include "elf/elf_file.h"


static void discard(void *user, isk_severity sev, const char *msg)
{
    (void)user, (void)sev, (void)msg;
}

static isk_model *models[2];

/* What the disassembler prints for a word assembles back to a word printed the same way (the
 * words may differ in bits the text does not show: wildcard bits of a format). */
static void check_words_roundtrip(const isk_model *m, const isk_obj *o)
{
    int unit = isk_asm_insn_bytes(m);
    for (size_t i = 1; i < o->secs.len; i++) {
        const isk_section *s = &o->secs.data[i];
        if (!(s->flags & SHF_EXECINSTR) || !s->data) continue;
        for (uint64_t off = 0, n = 0; off + (uint64_t)unit <= s->size && n < 256; off += (uint64_t)unit, n++) {
            uint64_t w = 0;
            for (int b = 0; b < unit; b++) w |= (uint64_t)s->data[off + (uint64_t)b] << (8 * b);
            char text[256], again[256], err[256];
            uint64_t pc = off / (uint64_t)isk_asm_pc_unit_bytes(m);
            if (!isk_disasm_word(m, w, pc, text, sizeof text)) continue;
            isk_encoded enc;
            int at;
            isk_syntax_env env = { .pc = pc };
            if (!isk_syntax_encode(m, text, &env, &enc, err, sizeof err, &at)) abort();
            isk_disasm_word(m, enc.word, pc, again, sizeof again);
            if (strcmp(text, again) != 0) abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!models[0]) {
        isk_diag d;
        isk_diag_init(&d);
        models[0] = isk_model_load("example", &d);
        models[1] = isk_model_load("tiny", &d);
        if (!models[0] || !models[1]) abort();
    }
    if (size < 1) return 0;
    isk_model *m = models[data[0] & 1];
    isk_diag d;
    isk_diag_init(&d);
    d.emit = discard;
    d.max_errors = 64;
    isk_asm_options opt = { .no_files = true, .max_section_bytes = 1 << 20, .max_expanded_lines = 20000,
                            .max_macro_depth = 12 };
    isk_asm *a = isk_asm_new(m, "fuzz.o", &opt, &d);
    bool ok = isk_asm_text(a, "fuzz.s", (const char *)data + 1, size - 1);
    isk_obj *o = isk_asm_finish(a);
    isk_asm_free(a);
    if (!o) {
        if (!d.errors) abort();
        return 0;
    }
    if (!ok || d.errors) abort();
    uint8_t *img;
    size_t len;
    if (isk_elf_write_mem(o, &img, &len, &d) == 0) {
        isk_obj *back = isk_elf_read_mem(img, len, "fuzz.o", &d);
        if (!back) abort();
        isk_obj_free(back);
        free(img);
    }
    if (m->has_elf) {
        isk_model_link *ml = isk_model_link_new(m, &d);
        isk_obj *exe = isk_model_link_objects(ml, &o, 1, NULL, 0, "a.out", &d);
        if (exe) {
            FILE *null = fopen("/dev/null", "w");
            isk_disasm_obj(m, exe, null, NULL);
            fclose(null);
        }
        isk_obj_free(exe);
        isk_model_link_free(ml);
    }
    check_words_roundtrip(m, o);
    isk_obj_free(o);
    return 0;
}
