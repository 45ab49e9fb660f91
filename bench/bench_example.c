/* Clocks per second of the article's accelerator: a stream of one-clock commands (one launch
 * per clock, the processor's maximum) and long CONV commands (one slot stepping every clock on
 * its own stack). Prints one line per figure: "<name>: <value> <unit>". */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "isekit/sim.h"

typedef struct stream { isk_inst *acc; uint64_t words[4]; const isk_command *cmds[4]; unsigned next; } stream;

/* The processor: launch one command every clock, forever, prepared once (isk_prepare)... */
static int launch_every_clock(void *user, isk_system *sys)
{
    stream *s = user;
    return isk_launch_prepared(sys, s->cmds[s->next++ & 3]) == ISK_OK ? 0 : -1;
}

/* ...or as words, decoded through the launch cache each time. */
static int launch_words(void *user, isk_system *sys)
{
    stream *s = user;
    return isk_launch(sys, s->acc, s->words[s->next++ & 3]) == ISK_OK ? 0 : -1;
}

/* Clocks per second of a stream of one-clock commands, launched one per clock. */
static double stream_rate(isk_model *m, uint64_t clocks, isk_driver_fn driver)
{
    isk_system *sys = isk_system_new(NULL);
    stream s = { .acc = isk_system_add(sys, m, "acc") };
    isk_attach(sys, s.acc, 0);
    s.words[0] = bench_encode(m, "move gr0, lr1");
    s.words[1] = bench_encode(m, "ldi lr2, -7");
    s.words[2] = bench_encode(m, "move gr1, lr2");
    s.words[3] = bench_encode(m, "flag shm[4], 9");
    for (int i = 0; i < 4; i++)
        if (!(s.cmds[i] = isk_prepare(sys, s.acc, s.words[i]))) {
            isk_system_free(sys);
            return 0;
        }
    isk_set_driver(sys, driver, &s);
    double t0 = bench_now();
    isk_status st = isk_step(sys, clocks);
    double dt = bench_now() - t0;
    isk_system_free(sys);
    return st == ISK_OK ? (double)clocks / dt : 0;
}

/* ...or queued (isk_queue_commands), a block of them per isk_step: no call per clock. */
enum { QUEUE_BLOCK = 4096 };
static double queue_rate(isk_model *m, uint64_t clocks)
{
    isk_system *sys = isk_system_new(NULL);
    isk_inst *acc = isk_system_add(sys, m, "acc");
    isk_attach(sys, acc, 0);
    const char *text[4] = { "move gr0, lr1", "ldi lr2, -7", "move gr1, lr2", "flag shm[4], 9" };
    static const isk_command *block[QUEUE_BLOCK];
    for (int i = 0; i < 4; i++)
        if (!(block[i] = isk_prepare(sys, acc, bench_encode(m, text[i])))) {
            isk_system_free(sys);
            return 0;
        }
    for (int i = 4; i < QUEUE_BLOCK; i++) block[i] = block[i & 3];
    isk_status st = ISK_OK;
    double t0 = bench_now();
    for (uint64_t done = 0; done < clocks && st == ISK_OK; done += QUEUE_BLOCK) {
        const uint64_t n = clocks - done < QUEUE_BLOCK ? clocks - done : QUEUE_BLOCK;
        st = isk_queue_commands(sys, block, n);
        if (st == ISK_OK) st = isk_step(sys, n);
    }
    double dt = bench_now() - t0;
    isk_system_free(sys);
    return st == ISK_OK ? (double)clocks / dt : 0;
}

static double one_clock_rate(isk_model *m, uint64_t clocks) { return stream_rate(m, clocks, launch_every_clock); }
static double word_rate(isk_model *m, uint64_t clocks) { return stream_rate(m, clocks, launch_words); }

/* Clocks per second of CONV commands: LOOPREG = 4000 multiply-accumulate clocks per launch. */
static double conv_rate(isk_model *m, uint64_t clocks)
{
    isk_system *sys = isk_system_new(NULL);
    isk_inst *acc = isk_system_add(sys, m, "acc");
    isk_attach(sys, acc, 0);
    uint64_t conv = bench_encode(m, "conv acc, dm0[ar0], tm0[ar1]"), setloop = bench_encode(m, "setloop 4000");
    uint64_t total = 0;
    double t0 = bench_now();
    while (total < clocks) {
        isk_launch(sys, acc, setloop);
        isk_step(sys, 1);
        isk_launch(sys, acc, conv);
        uint64_t before = isk_clock(sys);
        if (isk_run(sys, 0) != ISK_STOPPED) {
            isk_system_free(sys);
            return 0;
        }
        total += isk_clock(sys) - before + 1;
    }
    double dt = bench_now() - t0;
    isk_system_free(sys);
    return (double)total / dt;
}

/* The best of three runs: the host is shared, and the best is the least disturbed. */
static double best_of_3(double (*rate)(isk_model *, uint64_t), isk_model *m, uint64_t clocks)
{
    double best = 0;
    for (int i = 0; i < 3; i++) {
        double r = rate(m, clocks);
        if (r == 0) return 0;
        if (r > best) best = r;
    }
    return best;
}

int main(int argc, char **argv)
{
    /* bench_example [clocks [case]]: case 1 (prepared commands), 2 (CONV), 3 (command words) or
     * 4 (queued commands) runs one figure only (for profiling) */
    uint64_t clocks = argc > 1 ? strtoull(argv[1], NULL, 0) : 10000000;
    int only = argc > 2 ? atoi(argv[2]) : 0;
    isk_model *m = isk_model_load("example", NULL);
    if (!m) return 1;
    double one = only && only != 1 ? 1 : best_of_3(one_clock_rate, m, clocks);
    double conv = only && only != 2 ? 1 : best_of_3(conv_rate, m, clocks);
    double words = only && only != 3 ? 1 : best_of_3(word_rate, m, clocks);
    double queued = only && only != 4 ? 1 : best_of_3(queue_rate, m, clocks);
    if (one == 0 || conv == 0 || words == 0 || queued == 0) {
        fprintf(stderr, "bench_example: a run stopped early\n");
        return 1;
    }
    if (!only || only == 1)
        printf("example one-clock commands (prepared): %.1f M clocks/s; goal: under 50 host instructions per "
               "clock (make callgrind)\n", one / 1e6);
    if (!only || only == 3) printf("example one-clock commands (words): %.1f M clocks/s\n", words / 1e6);
    if (!only || only == 4)
        printf("example one-clock commands (queued): %.1f M clocks/s; goal: under 50 host instructions per clock "
               "(make callgrind)\n", queued / 1e6);
    if (!only || only == 2) printf("example CONV (multi-clock command): %.1f M clocks/s\n", conv / 1e6);
    isk_model_release(m);
    return 0;
}
