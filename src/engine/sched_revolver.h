/* Revolver: one instruction per clock in all, round robin over the ready contexts starting
 * after the one that issued last; a context issues at most every `gap` clocks (the DPU's 11
 * in cycle mode, 1 in functional mode). It reads the engine's mask of live contexts
 * (isk_sched.running, kept whenever a context changes state) to find the next one at once. */
#ifndef ISK_ENGINE_SCHED_REVOLVER_H
#define ISK_ENGINE_SCHED_REVOLVER_H

/* The first ready context of the circle from `from` on, or -1 (a processor has at most 64
 * contexts: the live ones are the bits of the mask). */
ISK_INLINE int isk_revolver_scan(isk_sched *q, uint32_t from, uint64_t clock)
{
    from &= 63;                                /* the cursor may be ncontexts (64 at most): 0 */
    for (int half = 0; half < 2; half++) {
        uint64_t m = q->running & (half ? (UINT64_C(1) << from) - 1 : ~UINT64_C(0) << from);
        for (; m; m &= m - 1) {
            const uint32_t id = (uint32_t)__builtin_ctzll(m);
            if (isk_ctx_ready(&q->contexts[id], clock)) return (int)id;
        }
    }
    return -1;
}
ISK_INLINE int isk_revolver_pick(isk_sched *q, uint64_t clock)
{
    const uint32_t from = q->cursor;
    /* the common case: the next live context round the circle is ready (a cursor of ncontexts
     * masks every live context out, or is 64, taken as 0: the circle starts again at 0) */
    uint64_t m = q->running & (~UINT64_C(0) << (from & 63));
    if (ISK_UNLIKELY(!m)) {
        if (!q->running) return -1;
        m = q->running;
    }
    const uint32_t j = (uint32_t)__builtin_ctzll(m);
    const isk_context *c = &q->contexts[j];
    const int id = c->state == ISK_CTX_RUNNING && c->ready_at <= clock ? (int)j : isk_revolver_scan(q, from, clock);
    if (id >= 0) q->cursor = (uint32_t)id + 1;
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
    uint64_t first = UINT64_MAX;
    for (uint64_t m = q->running; m; m &= m - 1) {
        const isk_context *c = &q->contexts[__builtin_ctzll(m)];
        if (!isk_ctx_live(c)) continue;
        const uint64_t at = c->ready_at > clock + 1 ? c->ready_at : clock + 1;
        if (at < first) first = at;
    }
    return first;
}

#endif
