/* Many DPUs in one process: memory and time.
 *
 *   bench_many_dpus DPUS [THREADS [ROUNDS [MAX_MIB]]]
 *
 * DPUS instances of the DPU model, split evenly into THREADS systems each run by a host thread,
 * all loaded with one small program: DMA 256 bytes from MRAM 32 MiB into WRAM, sum the 64 words
 * ROUNDS times over (260 instructions a round), write the sum to MRAM 48 MiB. The host fills each DPU's input with numbers of its own, checks
 * each sum, and prints the time and the peak resident memory (ru_maxrss). With MAX_MIB, a peak
 * above MAX_MIB MiB fails (the CTest registration's bound: the DPUs touch a few pages of their
 * 64 MiB MRAM each, so their cost must be what they touch, not what they could). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "bench.h"
#include "isekit/sim.h"

enum { IN = 0x2000000, OUT = 0x3000000, WORDS = 64 };

static const char *const kernel[] = {
    "move r1, 0",                       /* WRAM address of the input */
    "move r2, 0x2000000",               /* IN */
    "ldma r1, r2, 31",                  /* 256 bytes */
    "move r3, 0",                       /* the sum */
    "move r6, 1",                       /* 4: rounds (patched) */
    "move r1, 0",                       /* 5: a round */
    "move r4, 64",                      /* words left */
    "lw r5, r1, 0",                     /* 7: a word */
    "add r3, r3, r5",
    "add r1, r1, 4",
    "sub r4, r4, 1, nz, 7",
    "sub r6, r6, 1, nz, 5",
    "move r1, 0x1000",
    "sw r1, 0, r3",
    "move r2, 0x3000000",               /* OUT */
    "sdma r1, r2, 0",                   /* 8 bytes */
    "stop",
    NULL,
};

typedef struct part {
    isk_model *m;
    const int64_t *code;
    int ncode, first, count, rounds;
    isk_system *sys;
    isk_inst **dpus;
    int bad;
} part;

static uint32_t input(int dpu, int k) { return (uint32_t)dpu * 2654435761u + (uint32_t)k * 40503u; }

/* Build this part's system: its DPUs, each loaded with the program and its input. */
static void build(part *p)
{
    p->sys = isk_system_new(NULL);
    p->dpus = calloc((size_t)p->count, sizeof *p->dpus);
    const int iram = isk_model_find_storage(p->m, "IRAM"), mram = isk_model_find_storage(p->m, "MRAM");
    for (int i = 0; i < p->count; i++) {
        char name[32];
        snprintf(name, sizeof name, "dpu%d", p->first + i);
        isk_inst *d = p->dpus[i] = isk_system_add(p->sys, p->m, name);
        if (!d) {
            fprintf(stderr, "bench_many_dpus: %s\n", isk_last_error(p->sys));
            exit(1);
        }
        isk_storage_load(d, iram, 0, p->code, (uint64_t)p->ncode);
        int64_t bytes[WORDS * 4];
        for (int k = 0; k < WORDS; k++)
            for (int b = 0; b < 4; b++) bytes[4 * k + b] = input(p->first + i, k) >> (8 * b) & 0xff;
        isk_storage_load(d, mram, IN, bytes, WORDS * 4);
    }
}

static void *run(void *arg)
{
    part *p = arg;
    isk_status st = isk_run(p->sys, 0);
    if (st != ISK_STOPPED) {
        fprintf(stderr, "bench_many_dpus: run ended with %d: %s\n", st, isk_last_error(p->sys));
        p->bad = p->count;
        return NULL;
    }
    for (int i = 0; i < p->count; i++) {
        uint32_t want = 0, got = 0;
        for (int k = 0; k < WORDS; k++) want += input(p->first + i, k);
        want *= (uint32_t)p->rounds;
        for (int b = 0; b < 4; b++) {
            int64_t v = 0;
            isk_read(p->dpus[i], "MRAM", OUT + (uint64_t)b, &v);
            got |= (uint32_t)(v & 0xff) << (8 * b);
        }
        if (got != want) {
            if (!p->bad) fprintf(stderr, "bench_many_dpus: dpu%d summed 0x%x, not 0x%x\n", p->first + i, got, want);
            p->bad++;
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const int dpus = argc > 1 ? atoi(argv[1]) : 64, threads = argc > 2 ? atoi(argv[2]) : 1;
    const int rounds = argc > 3 ? atoi(argv[3]) : 1;
    const long max_mib = argc > 4 ? atol(argv[4]) : 0;
    if (dpus < 1 || threads < 1 || threads > dpus || rounds < 1) {
        fprintf(stderr, "usage: bench_many_dpus DPUS [THREADS [ROUNDS [MAX_MIB]]]\n");
        return 2;
    }
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *m = isk_model_load("dpu", &diag);
    if (!m) return 1;
    int64_t code[32];
    int n = 0;
    char line[40];
    snprintf(line, sizeof line, "move r6, %d", rounds);
    for (; kernel[n]; n++) code[n] = (int64_t)bench_encode(m, n == 4 ? line : kernel[n]);

    part *parts = calloc((size_t)threads, sizeof *parts);
    double t0 = bench_now();
    for (int t = 0, first = 0; t < threads; t++) {
        const int count = dpus / threads + (t < dpus % threads);
        parts[t] = (part){ .m = m, .code = code, .ncode = n, .first = first, .count = count, .rounds = rounds };
        first += count;
        build(&parts[t]);
    }
    double t1 = bench_now();
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    for (int t = 0; t < threads; t++) pthread_create(&tid[t], NULL, run, &parts[t]);
    int bad = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(tid[t], NULL);
        bad += parts[t].bad;
    }
    double t2 = bench_now();
    for (int t = 0; t < threads; t++) {
        isk_system_free(parts[t].sys);
        free(parts[t].dpus);
    }
    double t3 = bench_now();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    const long peak_mib = ru.ru_maxrss / 1024;
    printf("%d DPUs on %d thread%s: set up %.3f s, run %.3f s, free %.3f s; peak resident %ld MiB "
           "(%.1f KiB per DPU); %d wrong\n", dpus, threads, threads > 1 ? "s" : "", t1 - t0, t2 - t1, t3 - t2,
           peak_mib, (double)ru.ru_maxrss / dpus, bad);
    free(tid);
    free(parts);
    isk_model_release(m);
    if (max_mib && peak_mib > max_mib) {
        fprintf(stderr, "bench_many_dpus: peak resident %ld MiB is above the bound %ld MiB\n", peak_mib, max_mib);
        return 1;
    }
    return bad ? 1 : 0;
}
