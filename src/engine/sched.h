/* The built-in schedulers (CPI, revolver, barrel): each a few functions in its own header,
 * static inline so that the engine's issue loop (issue.c) compiles one specialised copy of
 * itself per built-in policy. A model's own scheduler reaches the same loop through the
 * pointers of its isk_scheduler. Internal to the engine. */
#ifndef ISK_ENGINE_SCHED_H
#define ISK_ENGINE_SCHED_H

#include "isekit/abi.h"

/* A context that may issue once it is ready: running, or blocked until ready_at. */
ISK_INLINE int isk_ctx_live(const isk_context *c)
{
    return c->state == ISK_CTX_RUNNING || c->state == ISK_CTX_BLOCKED;
}
ISK_INLINE int isk_ctx_ready(const isk_context *c, uint64_t clock)
{
    return isk_ctx_live(c) && c->ready_at <= clock;
}
/* The mask of live contexts (a processor has at most 64). */
ISK_INLINE uint64_t isk_live_mask(const isk_context *ctx, uint32_t n)
{
    uint64_t m = 0;
    for (uint32_t id = 0; id < n; id++) m |= (uint64_t)isk_ctx_live(&ctx[id]) << id;
    return m;
}
/* The earliest ready_at of the live contexts, no earlier than `after`; UINT64_MAX if none. */
ISK_INLINE uint64_t isk_first_ready(const isk_sched *q, uint64_t after)
{
    uint64_t first = UINT64_MAX;
    for (uint32_t id = 0; id < q->ncontexts; id++) {
        const isk_context *c = &q->contexts[id];
        if (!isk_ctx_live(c)) continue;
        uint64_t at = c->ready_at > after ? c->ready_at : after;
        if (at < first) first = at;
    }
    return first;
}

#include "engine/sched_cpi.h"
#include "engine/sched_revolver.h"
#include "engine/sched_barrel.h"

#endif
