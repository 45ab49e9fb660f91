/* Revolver: one instruction per clock in all, round robin over the ready contexts starting
 * after the one that issued last; a context issues at most every `gap` clocks (the DPU's 11
 * in cycle mode, 1 in functional mode). The live set is cached as a mask (`running`), kept by
 * `changed` when an instruction changes a context's state. */
#ifndef ISK_ENGINE_SCHED_REVOLVER_H
#define ISK_ENGINE_SCHED_REVOLVER_H

/* The first ready context of the circle from `from` on, or -1. */
ISK_INLINE int isk_revolver_scan(isk_sched *q, uint32_t from, uint64_t clock)
{
    const uint32_t n = q->ncontexts;
    for (uint32_t k = 0, id = from; k < n; k++, id = id + 1 == n ? 0 : id + 1)
        if (isk_ctx_ready(&q->contexts[id], clock)) return (int)id;
    return -1;
}
ISK_INLINE int isk_revolver_pick(isk_sched *q, uint64_t clock)
{
    const uint32_t from = q->cursor;
    int id;
    /* the common case: the next live context round the circle is ready */
    const uint64_t m = q->running & (~UINT64_C(0) << (from & 63));
    if (q->ncontexts <= 64 && q->running) {
        const uint32_t j = (uint32_t)__builtin_ctzll(m ? m : q->running);
        const isk_context *c = &q->contexts[j];
        id = c->state == ISK_CTX_RUNNING && c->ready_at <= clock ? (int)j : isk_revolver_scan(q, from, clock);
    } else {
        id = isk_revolver_scan(q, from, clock);
    }
    if (id >= 0) q->cursor = (uint32_t)id + 1 == q->ncontexts ? 0 : (uint32_t)id + 1;
    return id;
}
ISK_INLINE uint64_t isk_revolver_issued(isk_sched *q, uint32_t id, uint64_t clock)
{
    isk_context *c = &q->contexts[id];
    if (q->gap > 1 && c->ready_at < clock + q->gap) c->ready_at = clock + q->gap;
    return clock + 1;
}
ISK_INLINE uint64_t isk_revolver_next(isk_sched *q, uint64_t clock)
{
    return isk_first_ready(q, clock + 1);
}
ISK_INLINE void isk_revolver_changed(isk_sched *q)
{
    q->running = isk_live_mask(q->contexts, q->ncontexts);
}
#define ISK_REVOLVER_STICKY 0

#endif
