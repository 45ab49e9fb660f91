/* Simulated RV32 instructions per second, on one host core: the rv32 model runs a loop of ALU,
 * multiply, load, store and branch instructions, alone and beside the example accelerator kept
 * busy with CONV commands (the processor then shares every clock with a running command), or with
 * CONVQ, the same convolution declared inert (the processor runs ahead of it: engine.md).
 *
 *     bench_rv32 [instructions [case]]   default: 100 000 000, best of 3; case 1 alone, 2 busy,
 *                                        3 busy with an inert command */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "isekit/sim.h"

/* tests: isekit as/objdump of this loop (ten instructions per round) */
static const uint32_t program[] = {
    0x00000513, /* li a0, 0 */
    0x00700593, /* li a1, 7 */
    0x80100437, /* lui s0, 0x80100 */
    0x00150513, /* loop: addi a0, a0, 1 */
    0x02b50633, /* mul a2, a0, a1 */
    0x00a646b3, /* xor a3, a2, a0 */
    0x00d42023, /* sw a3, 0(s0) */
    0x00042703, /* lw a4, 0(s0) */
    0x00e787b3, /* add a5, a5, a4 */
    0x0037d813, /* srli a6, a5, 3 */
    0x0ff87813, /* andi a6, a6, 255 */
    0x410788b3, /* sub a7, a5, a6 */
    0xfc051ee3, /* bnez a0, loop */
    0xfd9ff06f, /* j loop */
};

static double run(isk_model *rv, isk_model *ex, uint64_t n, int busy)
{
    isk_system *sys = isk_system_new(NULL);
    isk_inst *p = isk_system_add(sys, rv, "rv");
    isk_inst *acc = busy ? isk_system_add(sys, ex, "acc") : NULL;
    if (acc) isk_attach(sys, acc, 0);
    int64_t words[sizeof program / sizeof *program];
    for (size_t i = 0; i < sizeof program / sizeof *program; i++) words[i] = program[i];
    isk_ref ram;
    if (isk_lookup(p, "RAM", &ram) != ISK_OK ||
        isk_storage_load(p, ram.storage, 0, words, sizeof program / sizeof *program) != ISK_OK) exit(1);
    const uint64_t conv = acc ? bench_encode(ex, busy == 2 ? "convq acc, dm0[ar0], tm0[ar1]"
                                                           : "conv acc, dm0[ar0], tm0[ar1]") : 0;
    const uint64_t setloop = acc ? bench_encode(ex, "setloop 4000") : 0;
    double t0 = bench_now();
    for (uint64_t done = 0; done < n; done += 4000) {
        if (acc && !isk_busy_slots(acc)) {
            isk_launch(sys, acc, setloop);
            isk_step(sys, 1);
            isk_launch(sys, acc, conv);
        }
        if (isk_step(sys, 4000) != ISK_OK) {
            fprintf(stderr, "bench_rv32: the run stopped: %s\n", isk_last_error(sys));
            exit(1);
        }
    }
    double t = bench_now() - t0;
    isk_stats st;
    isk_get_stats(sys, &st);
    if (st.instructions < n) {         /* every clock must have issued an instruction */
        fprintf(stderr, "bench_rv32: %llu instructions in %llu clocks\n", (unsigned long long)st.instructions,
                (unsigned long long)st.clocks);
        exit(1);
    }
    isk_system_free(sys);
    return t;
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 100000000ull;
    int only = argc > 2 ? atoi(argv[2]) : 0;
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *rv = isk_model_load("rv32", &diag), *ex = isk_model_load("example", &diag);
    if (!rv || !ex) return 1;
    static const char *const what[] = { "", " (an accelerator busy)", " (an inert accelerator busy)" };
    for (int busy = 0; busy < 3; busy++) {
        if (only && only != busy + 1) continue;
        double best = 1e30;
        for (int r = 0; r < 3; r++) {
            double t = run(rv, ex, n, busy);
            if (t < best) best = t;
        }
        printf("rv32 simulated instructions per second%s: %.1f M\n", what[busy], (double)n / best * 1e-6);
    }
    isk_model_release(rv);
    isk_model_release(ex);
    return 0;
}
