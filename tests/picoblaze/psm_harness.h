/* Assembling .psm text in tests: a program from a string, its words, its messages. */
#ifndef TESTS_PICOBLAZE_PSM_HARNESS_H
#define TESTS_PICOBLAZE_PSM_HARNESS_H

#include "psm/psm.h"
#include "check.h"

typedef struct psm_run {
    isk_diag diag;
    isk_diag_buffer messages;
    isk_model *model;
    psm_options opt;
    psm_program *prog;
} psm_run;

static inline psm_program *psm_try(psm_run *r, const char *core, const char *text)
{
    isk_diag_init(&r->diag);
    r->messages = (isk_diag_buffer){ 0 };
    isk_diag_capture(&r->diag, &r->messages);
    r->model = isk_model_load(core, &r->diag);
    psm_options_init(&r->opt, r->model);
    r->opt.timestamp = 0;
    r->prog = psm_assemble_text("t.psm", text, &r->opt, &r->diag);
    return r->prog;
}

static inline void psm_done(psm_run *r)
{
    psm_program_free(r->prog);
    isk_model_release(r->model);
    isk_diag_buffer_free(&r->messages);
}

/* The messages of a text that must not assemble. */
static inline const char *psm_errors(psm_run *r, const char *core, const char *text)
{
    CHECK(psm_try(r, core, text) == NULL);
    return r->messages.text ? r->messages.text : "";
}

#endif
