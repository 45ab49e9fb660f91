/* Barrel: context i owns the clocks i, i+n, i+2n, ... (n contexts); a clock whose context is
 * not ready passes without an issue. */
#ifndef ISK_ENGINE_SCHED_BARREL_H
#define ISK_ENGINE_SCHED_BARREL_H

ISK_INLINE int isk_barrel_pick(isk_sched *q, uint64_t clock)
{
    const uint32_t id = (uint32_t)(clock % q->ncontexts);
    return isk_ctx_ready(&q->contexts[id], clock) ? (int)id : -1;
}
ISK_INLINE uint64_t isk_barrel_issued(isk_sched *q, uint32_t id, uint64_t clock)
{
    (void)q, (void)id;
    return clock + 1;
}
/* The first later clock owned by a context that is ready by then. */
ISK_INLINE uint64_t isk_barrel_next(isk_sched *q, uint64_t clock)
{
    const uint64_t n = q->ncontexts;
    uint64_t first = UINT64_MAX;
    for (uint32_t id = 0; id < n; id++) {
        const isk_context *c = &q->contexts[id];
        if (!isk_ctx_live(c)) continue;
        uint64_t at = c->ready_at > clock + 1 ? c->ready_at : clock + 1;
        at += (id + n - at % n) % n;               /* round up to a clock the context owns */
        if (at < first) first = at;
    }
    return first;
}

#endif
