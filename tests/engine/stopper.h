/* A thread that asks a system to stop (isk_request_stop) over and over until told it is done:
 * whatever run is going on meanwhile ends at the end of a clock. */
#ifndef ISK_TEST_STOPPER_H
#define ISK_TEST_STOPPER_H

#include <sched.h>
#include <stdatomic.h>

#include "isekit/sim.h"

typedef struct stopper { isk_system *sys; atomic_int done; } stopper;

static void *stop_until_done(void *arg)
{
    stopper *s = arg;
    while (!atomic_load(&s->done)) {
        isk_request_stop(s->sys);
        sched_yield();
    }
    return NULL;
}

#endif
