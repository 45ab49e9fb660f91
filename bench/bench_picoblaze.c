/* Simulated PicoBlaze instructions per second, on one host core: a KCPSM3 and a KCPSM6 run a
 * loop of ALU, scratchpad, call and branch instructions (no I/O) for a fixed number of clocks.
 *
 *     bench_picoblaze [clocks [rounds]]     default: 200 000 000 clocks (100 M instructions), the
 *                                           best of 3 rounds, per core
 * A second figure runs the same decoded behaviours without the engine's clock loop, to show how
 * the time divides between the model and the engine.
 *
 * The goal (issue 17) is a ratio to a peer measured side by side, which this program cannot run:
 * 4x opbsim's speed, i.e. isekit taking at most 0.25 of opbsim's CPU time on the same programs
 * (docs/picoblaze.md, "Speed", gives the figures and how to reproduce them by hand). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "psm/psm.h"
#include "bench.h"
#include "engine/system.h"
#include "isekit/sim.h"

static const char program[] =
    "            LOAD s0, 00\n"
    "            LOAD s1, 00\n"
    "loop:       ADD s0, 01             ; 16-bit counter\n"
    "            ADDCY s1, 00\n"
    "            LOAD s2, s0\n"
    "            XOR s2, s1\n"
    "            STORE s2, (s0)\n"
    "            FETCH s3, 05\n"
    "            CALL work\n"
    "            TEST s0, 0F\n"
    "            JUMP NZ, loop\n"
    "            SR0 s3\n"
    "            JUMP loop\n"
    "work:       SUB s3, s2\n"
    "            COMPARE s3, 7F\n"
    "            RETURN C\n"
    "            SL1 s3\n"
    "            RETURN\n";

/* The best of `rounds` timings of `clocks` clocks (the first round also decodes the program). */
static double best_seconds(isk_system *sys, uint64_t clocks, int rounds, isk_status *st)
{
    double best = 1e30;
    for (int r = 0; r < rounds; r++) {
        double t0 = bench_now();
        *st = isk_step(sys, clocks);
        double t = bench_now() - t0;
        if (t < best) best = t;
    }
    return best;
}

/* The same instructions through the smallest possible dispatch loop (the decoded behaviours
 * called back to back: no clock, no statistics, no checks): what the model alone costs; the
 * difference to the full figure is the engine's per-instruction work. */
static double behaviours_alone(isk_inst *pb, uint64_t n, int rounds)
{
    isk_hdr *h = pb->hdr;
    const isk_decoded *dc = pb->dcache;
    uint64_t pc = isk_context_of(pb, 0)->pc;
    double best = 1e30;
    for (int r = 0; r < rounds; r++) {
        double t0 = bench_now();
        for (uint64_t i = 0; i < n; i++) {
            h->pc = pc;
            h->next_pc = pc + 1;
            dc[pc].fn(h, dc[pc].op);
            pc = h->next_pc;
        }
        double t = bench_now() - t0;
        if (t < best) best = t;
    }
    return best;
}

/* Printed after each figure: a line still reads "<name>: <number> <unit>" for scripts/bench.sh. */
static const char goal[] = "goal: 4x opbsim = at most 0.25 of its CPU time; measured 0.17-0.21 (docs/picoblaze.md)";

static int bench(const char *core, uint64_t clocks, int rounds)
{
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *m = isk_model_load(core, &diag);
    if (!m) return 1;
    psm_options o;
    psm_options_init(&o, m);
    psm_program *p = psm_assemble_text("bench.psm", program, &o, &diag);
    if (!p) return 1;
    isk_system *sys = isk_system_new(NULL);
    isk_inst *pb = isk_system_add(sys, m, "pb");
    isk_ref irom;
    if (isk_lookup(pb, "IROM", &irom) != ISK_OK) return 1;
    for (size_t i = 0; i < p->end; i++) {
        irom.index = i;
        isk_ref_write(&irom, p->words[i]);
    }
    isk_status st;
    best_seconds(sys, 2000, 1, &st);                         /* decode the program once */
    double t = best_seconds(sys, clocks, rounds, &st);
    double insns = (double)(clocks / 2);
    printf("picoblaze %s simulated instructions per second: %.1f M (%.1f M clocks/s)%s; %s\n", core,
           insns / t * 1e-6, (double)clocks / t * 1e-6, st == ISK_OK ? "" : " [the run stopped early]", goal);
    double alone = behaviours_alone(pb, clocks / 2, rounds);
    printf("picoblaze %s behaviours alone, no engine loop: %.1f M instructions/s; goal: none (shows the"
           " engine's share: the full figure's distance to this one)\n", core, insns / alone * 1e-6);
    isk_system_free(sys);
    psm_program_free(p);
    isk_model_release(m);
    return st != ISK_OK;
}

int main(int argc, char **argv)
{
    uint64_t clocks = argc > 1 ? strtoull(argv[1], NULL, 0) : 200000000ull;
    int rounds = argc > 2 ? atoi(argv[2]) : 3;
    /* bench_picoblaze [clocks [rounds [core]]]: one core only (for profiling) */
    const char *only = argc > 3 ? argv[3] : NULL;
    int rc = 0;
    if (!only || !strcmp(only, "kcpsm3")) rc |= bench("kcpsm3", clocks, rounds);
    if (!only || !strcmp(only, "kcpsm6")) rc |= bench("kcpsm6", clocks, rounds);
    return rc;
}
