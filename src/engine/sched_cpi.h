/* CPI: one context, an instruction every `gap` clocks (the PicoBlaze's 2). Sticky: without a
 * state change (attention), the context that issued issues again when the cost has elapsed,
 * so the issue loop need not ask. Clocks spent inside an instruction are not idle. */
#ifndef ISK_ENGINE_SCHED_CPI_H
#define ISK_ENGINE_SCHED_CPI_H

ISK_INLINE int isk_cpi_pick(isk_sched *q, uint64_t clock)
{
    return isk_ctx_ready(&q->contexts[0], clock) ? 0 : -1;
}
ISK_INLINE uint64_t isk_cpi_issued(isk_sched *q, uint32_t id, uint64_t clock)
{
    (void)id;
    return clock + q->gap;
}
ISK_INLINE uint64_t isk_cpi_next(isk_sched *q, uint64_t clock)
{
    return isk_first_ready(q, clock + 1);
}
#define ISK_CPI_STICKY 1

#endif
