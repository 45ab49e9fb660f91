/* Seed corpus for bce_fuzz: the example firmware (with pbbcelib) and a few small programs that
 * drive the DFU through its ports, assembled with isekit's .psm front end for both cores and laid
 * out as the harness reads them (a core byte, then 3 bytes per instruction).
 * Usage, from the repository's top: bce_seeds CORPUS_DIR */
#include <stdio.h>
#include <string.h>

#include "psm/psm.h"

static const char *const sources[] = {
    NULL,   /* models/edkdsp/examples/fw_seed.psm: GETCAP and a VMUL of l elements */
    /* a VCOPY started by hand through the ports, then polled */
    "LOAD s0, 04\nOUTPUT s0, 00\nLOAD s1, 10\nOUTPUT s1, 20\nLOAD s2, 00\nOUTPUT s2, 30\n"
    "loop: INPUT s3, 00\nTEST s3, 01\nJUMP NZ, loop\nJUMP loop\n",
    /* every output port once, with a changing value */
    "LOAD s0, 00\nLOAD s1, 5A\nnext: OUTPUT s1, (s0)\nADD s1, 13\nADD s0, 01\nJUMP NC, next\nJUMP 000\n",
};

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    static const char *const cores[] = { "kcpsm3", "kcpsm6" };
    for (int core = 0; core < 2; core++) {
        isk_diag d;
        isk_diag_init(&d);
        isk_model *m = isk_model_load(cores[core], &d);
        if (!m) return 1;
        psm_options o;
        psm_options_init(&o, m);
        o.timestamp = 0;
        const char *const dirs[] = { "models/edkdsp/pbbcelib" };
        o.include_dirs = dirs;
        o.ninclude_dirs = 1;
        for (size_t i = 0; i < sizeof sources / sizeof *sources; i++) {
            psm_program *p = sources[i] ? psm_assemble_text("seed.psm", sources[i], &o, &d)
                                        : psm_assemble_file("models/edkdsp/examples/fw_seed.psm", &o, &d);
            if (!p) return 1;
            char path[4096];
            snprintf(path, sizeof path, "%s/seed-bce-%d-%zu", argv[1], core, i);
            FILE *f = fopen(path, "wb");
            if (!f) return 1;
            fputc(core, f);
            for (size_t w = 0; w < p->end; w++)
                for (int b = 0; b < 3; b++) fputc((int)(p->words[w] >> (8 * b) & 0xFF), f);
            fclose(f);
            psm_program_free(p);
        }
        isk_model_release(m);
    }
    return 0;
}
