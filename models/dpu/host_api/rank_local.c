/* The local rank backend (hostapi.h): a rank is one isk_system holding its DPU instances. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostapi.h"
#include "../dpu.h"

typedef struct local_rank {
    isk_system *sys;
    isk_diag diag;
    int dpu;                 /* the DPU the current message is about, -1 for the rank */
    uint32_t rank;
} local_rank;

/* Engine and loader messages go to stderr naming the rank and DPU. */
static void emit(void *user, isk_severity sev, const char *msg)
{
    local_rank *l = user;
    (void)sev;
    if (l->dpu >= 0) fprintf(stderr, "dpu: rank %u, DPU %d: %s", (unsigned)l->rank, l->dpu, msg);
    else fprintf(stderr, "dpu: rank %u: %s", (unsigned)l->rank, msg);
}

static dpu_error_t local_load(struct dpu_rank_t *r, struct dpu_t *dpu, struct dpu_program_t *prog)
{
    local_rank *l = r->backend;
    l->dpu = (int)dpu->index;
    int errors = l->diag.errors;
    /* the loader starts thread 0 at the entry; a DPU boots only when launched */
    if (dpu_program_load(dpu->inst, &prog->p, &l->diag) != 0 || isk_stop(dpu->inst, 0, 0) != ISK_OK) {
        if (l->diag.errors == errors) emit(l, ISK_ERROR, "cannot load the program\n");
        return DPU_ERR_ELF_INVALID_FILE;
    }
    dpu->prog = prog;
    dpu->fault = false;
    return DPU_OK;
}

static dpu_error_t local_copy(struct dpu_rank_t *r, struct dpu_t *dpu, const char *symbol, uint32_t offset, void *buf,
                              size_t len, bool to_dpu)
{
    local_rank *l = r->backend;
    l->dpu = (int)dpu->index;
    int rc = symbol ? dpu_copy_symbol(dpu->inst, &dpu->prog->p, symbol, offset, buf, len, to_dpu, &l->diag)
                    : dpu_copy_mram(dpu->inst, offset, buf, len, to_dpu, &l->diag);
    if (rc == 0) return DPU_OK;
    uint64_t v;
    return symbol && !dpu_symbol(&dpu->prog->p, symbol, &v) ? DPU_ERR_UNKNOWN_SYMBOL : DPU_ERR_INVALID_SYMBOL_ACCESS;
}

static dpu_error_t local_run(struct dpu_rank_t *r, uint64_t *cycles)
{
    local_rank *l = r->backend;
    for (uint32_t i = 0; i < r->nr_dpus; i++)
        if (r->dpus[i].boot) {
            r->dpus[i].fault = false;
            if (isk_start(r->dpus[i].inst, 0, 0) != ISK_OK) return hapi_error(DPU_ERR_INTERNAL, "rank %u, DPU %u: cannot boot thread 0", (unsigned)r->index, (unsigned)i);
        }
    uint64_t start = isk_clock(l->sys);
    isk_status st = isk_run(l->sys, r->ctx->prof.max_cycles);
    *cycles = isk_clock(l->sys) - start;
    if (st == ISK_STOPPED) return DPU_OK;
    if (st == ISK_OK)
        return hapi_error(DPU_ERR_TIMEOUT, "rank %u: the DPUs still run after %" PRIu64 " cycles (profile maxCycles)",
                          (unsigned)r->index, *cycles);
    if (st != ISK_FAULT)
        return hapi_error(DPU_ERR_INTERNAL, "rank %u: the simulation stopped: %s", (unsigned)r->index,
                          isk_last_error(l->sys));
    /* name every faulted tasklet; the engine's first error says why */
    for (uint32_t i = 0; i < r->nr_dpus; i++)
        for (int t = 0; t < DPU_THREADS; t++) {
            const isk_context *c = isk_context_of(r->dpus[i].inst, t);
            if (c->state != ISK_CTX_FAULTED) continue;
            r->dpus[i].fault = true;
            hapi_error(DPU_ERR_DPU_FAULT, "rank %u, DPU %u: tasklet %d faulted at pc 0x%" PRIx64 " in cycle %" PRIu64,
                       (unsigned)r->index, (unsigned)i, t, c->pc, *cycles);
        }
    return hapi_error(DPU_ERR_DPU_FAULT, "rank %u: %s", (unsigned)r->index, isk_last_error(l->sys));
}

static dpu_error_t local_log(struct dpu_rank_t *r, struct dpu_t *dpu, char **text, size_t *len)
{
    uint64_t v;
    *text = NULL;
    if (!dpu_symbol(&dpu->prog->p, "__stdout_buffer", &v))
        return hapi_error(DPU_ERR_LOG_CONTEXT_MISSING, "rank %u, DPU %u: the program has no printf buffer "
                          "(__stdout_buffer): it never prints", (unsigned)r->index, (unsigned)dpu->index);
    *text = dpu_program_stdout(dpu->inst, &dpu->prog->p, len);
    return DPU_OK;
}

static void local_close(struct dpu_rank_t *r)
{
    local_rank *l = r->backend;
    if (!l) return;
    isk_system_free(l->sys);
    free(l);
    r->backend = NULL;
}

static const hapi_rank_ops local_ops = { local_load, local_copy, local_run, local_log, local_close };

dpu_error_t hapi_local_rank_open(hapi_ctx *ctx, struct dpu_rank_t *r)
{
    local_rank *l = calloc(1, sizeof *l);
    if (!l) return hapi_error(DPU_ERR_SYSTEM, "out of memory");
    r->backend = l;
    r->ops = &local_ops;
    l->rank = r->index;
    l->dpu = -1;
    isk_diag_init(&l->diag);
    l->diag.max_errors = 0;
    l->diag.max_file_errors = 0;
    l->diag.emit = emit;
    l->diag.user = l;
    isk_system_options o = { .diag = &l->diag };
    l->sys = isk_system_new(&o);
    if (!l->sys) return hapi_error(DPU_ERR_ALLOCATION, "rank %u: cannot create its system", (unsigned)r->index);
    for (uint32_t i = 0; i < r->nr_dpus; i++) {
        char name[16];
        snprintf(name, sizeof name, "dpu%u", (unsigned)i);
        l->dpu = (int)i;
        r->dpus[i].inst = isk_system_add(l->sys, ctx->model, name);
        if (!r->dpus[i].inst) return hapi_error(DPU_ERR_ALLOCATION, "rank %u: cannot add DPU %u", (unsigned)r->index, (unsigned)i);
        for (int k = 0; k < ctx->prof.nparams; k++)
            if (isk_set_param(r->dpus[i].inst, ctx->prof.params[k][0], ctx->prof.params[k][1]) != ISK_OK)
                return hapi_error(DPU_ERR_INVALID_PROFILE, "profile: cannot set %s=%s", ctx->prof.params[k][0],
                                  ctx->prof.params[k][1]);
        /* no program yet: nothing runs until a load and a launch */
        for (int t = 0; t < DPU_THREADS; t++) isk_stop(r->dpus[i].inst, t, 0);
    }
    l->dpu = -1;
    return DPU_OK;
}
