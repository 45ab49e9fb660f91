/* Calls, jumps, faults, the time counter (semantics.md 14, 15, 16). */

/* call rc, ra, off: PC = ra + off, and the link rc = PC + 1 (the next instruction's index) is
 * returned; `call zero, ...` drops it (a jump). A target outside the IRAM faults when the thread
 * next issues. */
static inline uint32_t op_call(struct isk_state *S, uint32_t target)
{
    JUMP(target);
    return (uint32_t)(PC + 1);
}

/* fault imm: stops the DPU with a program fault carrying imm (the runtime's codes); `bkp`
 * (fault 0) is a breakpoint: the run stops after it and may resume (ISK_BREAK). */
static const char *dpu_fault_name(int64_t code)
{
    switch (code) {
    case 0: return "bkp: breakpoint";
    case 1: return "heap full";
    case 2: return "division by zero";
    case 3: return "assertion failed";
    case 4: return "halt";
    case 5: return "printf buffer overflow";
    case 6: return "profiling already started";
    case 7: return "profiling not started";
    case 8: return "unaligned MRAM transfer";
    case 9: return "perfcounter mode not supported by this chip";
    default: return "program fault";
    }
}
static inline void op_fault(struct isk_state *S, int64_t imm)
{
    if (imm == 0) {
        BREAKPOINT("bkp");                     /* fault 0: a resumable stop, not a fault */
        return;
    }
    FAULT((int)imm, "fault %lld (%s)", (long long)imm, dpu_fault_name(imm));
}

/* The performance counter T (36 bits): counts cycles (mode 1, the default), instructions
 * (mode 2) or nothing (mode 3). `time` returns T[35:4]. */
static inline uint64_t dpu_counter(struct isk_state *S)
{
    const uint64_t mask = (UINT64_C(1) << 36) - 1;
    switch (S->time_mode) {
    case 1: return (S->time_base + (S->isk.clock - S->time_origin)) & mask;
    case 2: return (S->time_base + (INSTRUCTIONS_ISSUED + 1 - S->time_origin)) & mask;   /* this one too */
    default: return S->time_base & mask;
    }
}
DPU_OP(time) { (void)a; (void)b; x->x = (uint32_t)(dpu_counter(S) >> 4); }

/* time_cfg rc, rb: rc = the old T[35:4]; rb[0] resets T, rb[2:1] is the mode (0 keeps it). */
static inline uint32_t dpu_time_config(struct isk_state *S, uint32_t rb)
{
    const uint64_t old = dpu_counter(S);
    const int mode = (int)((rb >> 1) & 3);
    S->time_base = (rb & 1) ? 0 : old;
    if (mode) S->time_mode = mode;
    S->time_origin = S->time_mode == 2 ? INSTRUCTIONS_ISSUED + 1 : S->isk.clock;
    return (uint32_t)(old >> 4);
}
DPU_OP(time_cfg) { (void)a; x->x = dpu_time_config(S, b); }
