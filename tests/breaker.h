/* A before-issue hook for tests of resumable stops: stops the run before every instruction at
 * one PC, counting the stops. */
#ifndef ISK_TESTS_BREAKER_H
#define ISK_TESTS_BREAKER_H

#include "isekit/sim.h"

typedef struct breaker { uint64_t pc; int stops; } breaker;

static inline int break_at(void *user, uint64_t clock, isk_inst *proc, uint32_t context, uint64_t pc)
{
    breaker *b = user;
    (void)clock, (void)proc, (void)context;
    if (pc != b->pc) return 0;
    b->stops++;
    return 1;
}

#endif
