/* Cost of the engine's stack switch (src/engine/coro.h): main and one coroutine switch to each
 * other in a loop; one iteration is a pair of switches (A->B->A).
 *
 *     bench_coro [pairs]      default: 10^7 pairs, or about one second's worth if slower */
#include "engine/coro.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

typedef struct bench {
    isk_coro main_ctx, coro_ctx;
    isk_stack stack;
} bench;

static void partner(void *arg)
{
    bench *b = arg;
    b->coro_ctx.stack_lo = b->stack.lo;
    b->coro_ctx.stack_size = b->stack.size;
    for (;;)
        isk_coro_switch(&b->coro_ctx, &b->main_ctx);
}

static double time_pairs(bench *b, long pairs)
{
    double start = (1e9 * bench_now());
    for (long i = 0; i < pairs; i++)
        isk_coro_switch(&b->main_ctx, &b->coro_ctx);
    return (1e9 * bench_now()) - start;
}

int main(int argc, char **argv)
{
    bench b;
    if (isk_stack_alloc(&b.stack, 64 * 1024) != 0) {
        perror("bench_coro: isk_stack_alloc");
        return 1;
    }
    isk_coro_init_thread(&b.main_ctx);
    isk_coro_start(&b.main_ctx, &b.stack, partner, &b);

    long pairs = argc > 1 ? atol(argv[1]) : 0;
    if (pairs <= 0) {
        /* The ucontext fallback makes system calls; cap its run at about a second. */
        double warmup = time_pairs(&b, 100000) / 100000;
        pairs = 10000000;
        if (warmup * (double)pairs > 1e9)
            pairs = (long)(1e9 / warmup) + 1;
    }
    double ns = time_pairs(&b, pairs);
    printf("coro: %.1f ns per switch\n", ns / (double)pairs / 2);
    /* The partner stays suspended; nothing runs on its stack any more. */
    isk_stack_free(&b.stack);
    return 0;
}
