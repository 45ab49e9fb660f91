// fuzz-sources: fuzz/builtin_kcpsm3.c fuzz/builtin_kcpsm6.c src/psm/psm_*.c src/asm/*.c src/engine/*.c src/elf/*.c src/base/*.c
// fuzz-seeds: fuzz/psm_seeds.c
// fuzz-cflags: -DISK_CORO_UCONTEXT=1
// fuzz-libs: -ldl -lm -lpthread -lelf
/* libFuzzer harness for the PicoBlaze front end. The first byte chooses the core (bit 0:
 * KCPSM3 or KCPSM6) and the input kind (bits 1-2: .psm source, or a .hex, .mem or .dec image);
 * the rest is the text. Beyond "no crash, no sanitizer report, no hang", it checks:
 *   - every failure is reported through the diagnostic sink (never a silent NULL);
 *   - every word a program places disassembles, and a word printed as an instruction (not as
 *     INST) assembles back to itself. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "psm/psm.h"

static void discard(void *user, isk_severity sev, const char *msg)
{
    (void)user, (void)sev, (void)msg;
}

static isk_model *models[2];

static void check_roundtrip(const isk_model *m, uint32_t word)
{
    char text[256], source[300];
    if (!psm_disassemble(m, word, text, sizeof text)) return;
    snprintf(source, sizeof source, "%s\n", text);
    psm_options o;
    psm_options_init(&o, m);
    o.timestamp = 0;
    isk_diag d;
    isk_diag_init(&d);
    d.emit = discard;
    psm_program *p = psm_assemble_text("roundtrip.psm", source, &o, &d);
    if (!p || p->count != 1 || p->words[0] != word) abort();
    psm_program_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!models[0]) {
        isk_diag d;
        isk_diag_init(&d);
        models[0] = isk_model_load("kcpsm3", &d);
        models[1] = isk_model_load("kcpsm6", &d);
        if (!models[0] || !models[1]) abort();
    }
    if (size < 1) return 0;
    const isk_model *m = models[data[0] & 1];
    int kind = data[0] >> 1 & 3;
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    isk_diag d;
    isk_diag_init(&d);
    d.emit = discard;
    d.max_errors = 64;
    if (kind == 0) {
        psm_options o;
        psm_options_init(&o, m);
        o.timestamp = 0;
        psm_program *p = psm_assemble_text("fuzz.psm", text, &o, &d);
        if (!p && !d.errors) abort();
        if (p && d.errors) abort();
        for (size_t i = 0; p && i < p->end && i < 256; i++)
            if (p->used[i]) check_roundtrip(m, p->words[i]);
        psm_program_free(p);
    } else {
        static const int formats[] = { PSM_HEX, PSM_MEM, PSM_DEC };
        uint32_t words[4096];
        size_t loaded;
        int rc = psm_read_image_text("fuzz.img", text, size - 1, formats[kind - 1], words, 4096, &loaded, &d);
        if ((rc != 0) != (d.errors != 0)) abort();
    }
    free(text);
    return 0;
}
