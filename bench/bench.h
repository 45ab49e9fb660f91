/* What the benchmarks share: a monotonic clock, and instruction words from assembly text. */
#ifndef ISK_BENCH_H
#define ISK_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "asm/syntax.h"

/* Seconds on the monotonic clock. */
static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The word of one instruction of model m; a text the model does not accept ends the benchmark. */
static inline uint64_t bench_encode(const isk_model *m, const char *text)
{
    isk_encoded e;
    char err[200];
    int at;
    if (!isk_syntax_encode(m, text, NULL, &e, err, sizeof err, &at)) {
        fprintf(stderr, "bench: cannot encode '%s': %s\n", text, err);
        exit(1);
    }
    return e.word;
}

#endif
