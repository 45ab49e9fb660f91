/* A system of one instance of a test model, with its messages captured, for test_guard*.c; and a
 * signal handler that asks the system of its thread to stop (as a SIGINT handler would). */
#ifndef ISEKIT_TEST_GUARD_RIG_H
#define ISEKIT_TEST_GUARD_RIG_H
#include <signal.h>

#include "check.h"
#include "engine/model_desc.h"
#include "isekit/sim.h"

typedef struct rig {
    isk_diag d;
    isk_diag_buffer out;
    isk_model *m;
    isk_system *sys;
    isk_inst *inst;
} rig;

static void rig_open(rig *r, const struct isk_model_entry *e, const char *source, const char *name,
                     isk_system_options o)
{
    isk_diag_init(&r->d);
    isk_diag_capture(&r->d, &r->out);
    r->m = isk_model_from_entry(e, source, &r->d);
    CHECK(r->m != NULL);
    o.diag = &r->d;
    r->sys = isk_system_new(&o);
    r->inst = isk_system_add(r->sys, r->m, name);
}

static void rig_close(rig *r)
{
    isk_system_free(r->sys);
    isk_model_release(r->m);
    isk_diag_buffer_free(&r->out);
}

static _Thread_local isk_system *to_stop;
static void stop_handler(int sig) { (void)sig; isk_request_stop(to_stop); }

/* SIGUSR1 calls isk_request_stop for the system in to_stop; returns the previous action. */
static struct sigaction stop_on_sigusr1(void)
{
    struct sigaction sa = { .sa_handler = stop_handler }, old;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, &old);
    return old;
}
#endif
