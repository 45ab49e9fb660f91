/* Atomic bits and thread control (semantics.md 12, 13). The target of all of them is
 * v[15:8] XOR v[7:0] with v = ra + imm. ZF from the status X. */

static inline uint32_t dpu_hash8(uint32_t v) { return ((v >> 8) ^ v) & 0xff; }

/* acquire: X = the old bit, the bit is set; release: X = the old bit (assumed), the bit is
 * cleared. v1B has 64 bits: the index is taken modulo the count (UNCERTAIN). */
static inline uint32_t dpu_atomic(struct isk_state *S, uint32_t v, int set)
{
    const uint32_t i = dpu_hash8(v) & (S->atomic_bits - 1);
    const uint32_t old = (uint32_t)GET(ATOMIC, i);
    SET(ATOMIC, i, set);
    return old;
}
static inline uint32_t op_acquire(struct isk_state *S, uint32_t v) { return dpu_atomic(S, v, 1); }
static inline uint32_t op_release(struct isk_state *S, uint32_t v) { return dpu_atomic(S, v, 0); }

/* The running thread stops: a later resume continues at the next PC, a boot at 0. */
static inline void dpu_stop_self(struct isk_state *S) { STOP_SELF(NEXT_PC); }

enum { RUN_BOOT, RUN_RESUME, RUN_CLEAR, RUN_READ };

/* The status X: boot/resume 0 on success, 1 if the thread was already running; clr_run and
 * read_run the RUN bit before the instruction (UNCERTAIN). */
static uint32_t dpu_thread_op(struct isk_state *S, uint32_t v, int op)
{
    static const char *const name[] = { "boot", "resume", "clr_run", "read_run" };
    const uint32_t t = dpu_hash8(v);
    if (t >= S->nthreads)
        FAULT(DPU_FAULT_THREAD, "%s of thread %u: this DPU (%s) has threads 0..%u", name[op], (unsigned)t,
              S->v1b ? "v1B" : "v1A", (unsigned)S->nthreads - 1);
    isk_context *c = &S->isk.contexts[t];
    const bool running = c->state == ISK_CTX_RUNNING || c->state == ISK_CTX_BLOCKED;
    if (op == RUN_READ || (running && op != RUN_CLEAR)) return running;
    if (op == RUN_CLEAR && t == S->isk.context) {
        dpu_stop_self(S);
        return 1;
    }
    if (op == RUN_BOOT) START_CONTEXT(t, 0);
    else if (op == RUN_RESUME) WAKE_CONTEXT(t);
    else if (running) STOP_CONTEXT(t);
    return op == RUN_CLEAR ? running : 0;
}
static inline uint32_t op_boot(struct isk_state *S, uint32_t v) { return dpu_thread_op(S, v, RUN_BOOT); }
static inline uint32_t op_resume(struct isk_state *S, uint32_t v) { return dpu_thread_op(S, v, RUN_RESUME); }
static inline uint32_t op_clr_run(struct isk_state *S, uint32_t v) { return dpu_thread_op(S, v, RUN_CLEAR); }
static inline uint32_t op_read_run(struct isk_state *S, uint32_t v) { return dpu_thread_op(S, v, RUN_READ); }

/* stop cc, pc: if cc holds on X = 1, PC = pc first (DPU_FORM_stop_ci); then the thread's RUN
 * bit is cleared. */
static inline void op_stop(struct isk_state *S) { dpu_stop_self(S); }
