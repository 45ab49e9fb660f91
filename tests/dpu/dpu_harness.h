/* Shared by the DPU tests: one DPU in a system, programs written in DPU assembly one
 * instruction per line (numeric operands only: branch targets are instruction indexes), run
 * through the engine, registers and memories read back. */
#ifndef TESTS_DPU_HARNESS_H
#define TESTS_DPU_HARNESS_H

#include "asm/syntax.h"
#include "check.h"
#include "encode.h"
#include "engine/model_desc.h"
#include "isekit/sim.h"
#include "../../models/dpu/dpu.h"

typedef struct dpu_harness {
    isk_diag diag;
    isk_diag_buffer messages;
    isk_model *model;
    isk_system *sys;
    isk_inst *dpu;
    struct isk_state *S;
    int ninsns;
} dpu_harness;

/* The raw cells of a storage of the DPU (host access between runs). */
#define CELLS_OF(h, X) ((h)->S->X.v)

/* The model the harness loads: the built-in DPU, or a variant (test_variant.c). */
#ifndef DH_MODEL
#define DH_MODEL "dpu"
#endif
static isk_model *harness_model;      /* loaded once per test program */

static inline void dh_open_chip(dpu_harness *h, const char *mode, const char *chip)
{
    memset(h, 0, sizeof *h);
    isk_diag_init(&h->diag);
    isk_diag_capture(&h->diag, &h->messages);
    if (!harness_model) harness_model = isk_model_load(DH_MODEL, &h->diag);
    if (!harness_model) {
        fprintf(stderr, "cannot load the model %s:\n%s\n", DH_MODEL, h->messages.text ? h->messages.text : "");
        exit(1);
    }
    h->model = harness_model;
    isk_system_options o = { .diag = &h->diag };
    h->sys = isk_system_new(&o);
    h->dpu = isk_system_add(h->sys, h->model, "dpu");
    if (mode) isk_set_param(h->dpu, "mode", mode);
    if (chip) isk_set_param(h->dpu, "chip", chip);
    h->S = (struct isk_state *)(void *)isk_inst_state(h->dpu);
}

static inline void dh_open(dpu_harness *h, const char *mode) { dh_open_chip(h, mode, NULL); }

static inline void dh_close(dpu_harness *h)
{
    isk_system_free(h->sys);
    isk_diag_buffer_free(&h->messages);
}

static inline uint64_t dh_word(dpu_harness *h, const char *text) { return test_encode(h->model, text, 0); }

/* Put the instructions of `lines` (NULL-terminated) at IRAM index `at`. */
static inline void dh_load_at(dpu_harness *h, int at, const char *const *lines)
{
    int n = 0;
    while (lines[n]) n++;
    int64_t *words = calloc((size_t)n + 1, sizeof *words);
    for (int i = 0; i < n; i++) words[i] = (int64_t)dh_word(h, lines[i]);
    isk_storage_load(h->dpu, isk_model_find_storage(h->model, "IRAM"), (uint64_t)at, words, (uint64_t)n);
    free(words);
    if (at + n > h->ninsns) h->ninsns = at + n;
}

static inline void dh_load(dpu_harness *h, const char *const *lines) { dh_load_at(h, 0, lines); }

/* Run until every thread stopped (or a fault, or max clocks). */
static inline isk_status dh_run(dpu_harness *h)
{
    return isk_run(h->sys, 10000000);
}

static inline uint32_t dh_reg(dpu_harness *h, int thread, int r)
{
    return CELLS_OF(h, R)[thread * DPU_REGS + r];
}

static inline void dh_set_reg(dpu_harness *h, int thread, int r, uint32_t v)
{
    CELLS_OF(h, R)[thread * DPU_REGS + r] = v;
}

static inline uint64_t dh_pair(dpu_harness *h, int thread, int d)
{
    return ((uint64_t)dh_reg(h, thread, d) << 32) | dh_reg(h, thread, d + 1);
}

static inline uint32_t dh_wram32(dpu_harness *h, uint32_t a)
{
    uint8_t *w = CELLS_OF(h, WRAM);
    return (uint32_t)w[a] | (uint32_t)w[a + 1] << 8 | (uint32_t)w[a + 2] << 16 | (uint32_t)w[a + 3] << 24;
}

static inline void dh_set_wram32(dpu_harness *h, uint32_t a, uint32_t v)
{
    uint8_t *w = CELLS_OF(h, WRAM);
    for (int i = 0; i < 4; i++) w[a + (uint32_t)i] = (uint8_t)(v >> (8 * i));
}

static inline int dh_zf(dpu_harness *h, int thread) { return CELLS_OF(h, ZF)[thread]; }
static inline int dh_cf(dpu_harness *h, int thread) { return CELLS_OF(h, CF)[thread]; }

/* Run a one-thread program and return r0. */
static inline uint32_t dh_r0(const char *const *lines)
{
    dpu_harness h;
    dh_open(&h, NULL);
    dh_load(&h, lines);
    isk_status st = dh_run(&h);
    if (st != ISK_STOPPED) fprintf(stderr, "run: %d %s\n", st, isk_last_error(h.sys));
    uint32_t v = dh_reg(&h, 0, 0);
    dh_close(&h);
    return v;
}

#endif
