/* Seed corpus for dpu_exec_fuzz: a few small DPU programs (loops, loads and stores, thread
 * boot, DMA, calls, a misaligned load), encoded with the model's own syntax and laid out as the
 * harness reads them: a mode byte, 256 bytes of WRAM, then 6 bytes per instruction (a NULL
 * between two texts leaves a zero word). Usage: dpu_exec_seeds CORPUS_DIR */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "asm/syntax.h"
#include "isekit/sim.h"

static const char *const programs[][8] = {
    { "move r0, 10", "sub r0, r0, 1, nz, 1", "stop", NULL },
    { "lw r1, zero, 16", "add r2, r1, 3", "sw zero, 20, r2", "lbu r3, zero, 21", "stop", NULL },
    { "boot id, 1", "move r1, 100", "sub r1, r1, 1, nz, 2", "stop", NULL },
    { "ldma r0, r1, 0", "sdma r0, r1, 0", "stop", NULL },
    { "call r23, 3", "stop", NULL, "lsl r0, id, 2", "jump r23", NULL },
    { "move r0, 1", "lw r1, r0, 0", "stop", NULL },
};

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    isk_diag d;
    isk_diag_init(&d);
    isk_model *m = isk_model_load("dpu", &d);
    if (!m) return 1;
    for (size_t p = 0; p < sizeof programs / sizeof *programs; p++) {
        for (int mode = 0; mode < 2; mode++) {
            uint8_t buf[1 + 256 + 8 * 6] = { (uint8_t)mode };
            for (int i = 0; i < 256; i++) buf[1 + i] = (uint8_t)(i * 7);
            size_t n = 1 + 256;
            for (int i = 0; i < 8 && (programs[p][i] || (i + 1 < 8 && programs[p][i + 1])); i++, n += 6) {
                uint64_t word = 0;
                if (programs[p][i]) {
                    isk_encoded e;
                    char err[200];
                    int col;
                    isk_syntax_env env = { .pc = (uint64_t)i };
                    if (!isk_syntax_encode(m, programs[p][i], &env, &e, err, sizeof err, &col)) {
                        fprintf(stderr, "%s: %s\n", programs[p][i], err);
                        return 1;
                    }
                    word = e.word;
                }
                for (int b = 0; b < 6; b++) buf[n + (size_t)b] = (uint8_t)(word >> (8 * b));
            }
            char path[4096];
            snprintf(path, sizeof path, "%s/seed-dpu-%zu-%d", argv[1], p, mode);
            FILE *f = fopen(path, "wb");
            if (!f) return 1;
            fwrite(buf, 1, n, f);
            fclose(f);
        }
    }
    isk_model_release(m);
    return 0;
}
