/* Shared by the engine tests: a system with the example accelerator and helpers to launch
 * commands written in its assembly syntax. */
#ifndef TESTS_ENGINE_EXAMPLE_HARNESS_H
#define TESTS_ENGINE_EXAMPLE_HARNESS_H

#include "asm/syntax.h"
#include "check.h"
#include "encode.h"
#include "isekit/sim.h"

typedef struct harness {
    isk_diag diag;
    isk_diag_buffer messages;
    isk_model *model;
    isk_system *sys;
    isk_inst *acc;
} harness;

static inline void harness_open(harness *h, int conflicts_are_warnings)
{
    isk_diag_init(&h->diag);
    isk_diag_capture(&h->diag, &h->messages);
    h->model = isk_model_load("example", &h->diag);
    isk_system_options o = { .conflicts_are_warnings = conflicts_are_warnings, .diag = &h->diag };
    h->sys = isk_system_new(&o);
    h->acc = isk_system_add(h->sys, h->model, "acc");
    isk_attach(h->sys, h->acc, 0);
}

static inline void harness_close(harness *h)
{
    isk_system_free(h->sys);
    isk_model_release(h->model);
    isk_diag_buffer_free(&h->messages);
}

static inline uint64_t word_of(harness *h, const char *text) { return test_encode(h->model, text, 0); }

/* Launch in the current clock (the processor's launch), without advancing. */
static inline isk_status launch(harness *h, const char *text)
{
    return isk_launch(h->sys, h->acc, word_of(h, text));
}

/* Launch and finish the clock: the launch took the processor one clock. */
static inline isk_status launch_step(harness *h, const char *text)
{
    isk_status st = launch(h, text);
    return st == ISK_OK ? isk_step(h->sys, 1) : st;
}

static inline int64_t value(harness *h, const char *name)
{
    int64_t v = 0;
    if (isk_read(h->acc, name, 0, &v) != ISK_OK) fprintf(stderr, "no storage %s\n", name);
    return v;
}

#endif
