/* The DPU's detailed timing (PARAM timing=detailed, cycle mode only; docs/dpu-timing.md):
 * what uPIMulator models and was validated with (../shared/reference/dpu/timing.md 2):
 *
 *   - the register-file rule: an instruction needs floor(E/2) + floor(O/2) extra cycles in one
 *     stage shared by all threads, E and O the even and odd GPRs among its reads and its
 *     thread's previous instruction's writes;
 *   - the pipeline in front of that stage: an instruction the stage holds back freezes it, and
 *     nothing issues meanwhile;
 *   - DMA through one memory controller per DPU: 8-byte commands, a 1 KiB row buffer with
 *     ACTIVATE / READ-WRITE / PRECHARGE timings in memory cycles, the commands of all threads
 *     served one after the other (one I/O stage), the memory clock mem_mhz / logic_mhz faster.
 *
 * Everything is computed when the instruction issues (the model executes at issue), from a
 * few clocks and intervals kept per DPU: no queue, no allocation. Included by dpu.c before
 * insns/ (dma.h uses it). */
#ifndef ISEKIT_MODEL_DPU_DRAM_H
#define ISEKIT_MODEL_DPU_DRAM_H

/* ---- memory clock <-> logic clock ------------------------------------------------------------ */

/* The memory cycle at which logic cycle c begins: floor(c * mem / logic), as uPIMulator clocks
 * its memory controller floor(r c) - floor(r (c - 1)) times in logic cycle c. */
ISK_INLINE uint64_t dram_mem_at(const struct isk_state *S, uint64_t c)
{
    return c * S->tm.mem_mhz / S->tm.logic_mhz;
}

/* The first logic cycle by which memory cycle m has passed. */
ISK_INLINE uint64_t dram_logic_at(const struct isk_state *S, uint64_t m)
{
    return (m * S->tm.logic_mhz + S->tm.mem_mhz - 1) / S->tm.mem_mhz;
}

/* ---- the memory controller -------------------------------------------------------------------- */

/* A DMA of n bytes at MRAM offset mram that reaches the controller in logic cycle `at`: the
 * logic cycle in which its last piece is acknowledged. Commands of 8 bytes (never across a
 * row) go in order through one I/O stage: each holds it t_cl cycles and is ready t_bl later;
 * the next may enter one cycle after the stage frees (the queue hands over once per cycle).
 * A command for another row first waits until the open row has been open t_ras cycles and the
 * last transfer has left the bus, then PRECHARGE (t_rp) and ACTIVATE (the row is open t_rcd
 * later). Ties go to the older command (FCFS); uPIMulator's first-ready reordering only matters
 * when the commands of two DMAs to the same row interleave with a third's, which we ignore. */
static uint64_t dram_access(struct isk_state *S, uint32_t mram, uint32_t n, uint64_t at)
{
    dpu_dram *d = &S->dram;
    const uint64_t row_bytes = S->tm.row_bytes;
    uint64_t t = dram_mem_at(S, at), done = t;
    for (uint32_t a = mram; a < mram + n;) {
        const uint64_t row = a / row_bytes;
        const uint32_t end = (uint32_t)((row + 1) * row_bytes);
        const uint32_t len = end - a < 8 ? end - a : 8;
        if (!d->row_open || d->row != row) {
            if (d->row_open) {
                uint64_t pre = t > d->act_at + S->tm.t_ras ? t : d->act_at + S->tm.t_ras;
                if (pre < d->bus_free) pre = d->bus_free;
                t = pre + S->tm.t_rp;
                d->precharges++;
            }
            d->act_at = t;
            t += S->tm.t_rcd;
            d->row = row;
            d->row_open = true;
            d->activations++;
        }
        const uint64_t io = t > d->io_free ? t : d->io_free;
        d->io_free = io + S->tm.t_cl + 1;
        d->bus_free = io + S->tm.t_cl + S->tm.t_bl;
        done = d->bus_free;
        t = io;
        d->commands++;
        a += len;
    }
    return dram_logic_at(S, done);
}

/* ---- the register-file rule -------------------------------------------------------------------- */

/* The GPRs an instruction reads and writes (bit r for register r), found from the model's own
 * instruction table: its bit pattern and field positions (isa_instructions.inc). Fields ra, rb,
 * sa, sb read a register, db a pair; rc, sc write a register, dc a pair. */
typedef struct dram_isa_row {
    const char *format, *syntax, *fields, *relocs;
    int flow;
} dram_isa_row;

/* Read the unsigned decimal number at *p, then the character `then` (0: none); false if
 * either is missing. */
static bool dram_number(const char **p, unsigned *v, char then)
{
    const char *s = *p;
    if (*s < '0' || *s > '9') return false;
    for (*v = 0; *s >= '0' && *s <= '9'; s++) *v = *v * 10 + (unsigned)(*s - '0');
    if (then && *s++ != then) return false;
    *p = s;
    return true;
}

/* "{hi:lo}=bhi:blo" at p, as the generated .fields write them (read by hand: sscanf cost
 * ~2,300 host instructions a segment). */
static bool dram_segment(const char *p, unsigned *hi, unsigned *lo, unsigned *bhi, unsigned *blo)
{
    if (*p++ != '{') return false;
    return dram_number(&p, hi, ':') && dram_number(&p, lo, '}') && *p++ == '=' && dram_number(&p, bhi, ':') &&
           dram_number(&p, blo, 0);
}

/* The value of field `name` of word w as .fields describes it ("rc{4:3}=45:44 rc{2:0}=41:39"),
 * or -1 if the format has no such field. */
static int64_t dram_field(const char *fields, const char *name, uint64_t w)
{
    const size_t len = strlen(name);
    int64_t v = -1;
    for (const char *p = fields; (p = strstr(p, name)) != NULL; p += len) {
        if ((p != fields && p[-1] != ' ' && p[-1] != ';') || p[len] != '{') continue;
        unsigned hi, lo, bhi, blo;
        if (!dram_segment(p + len, &hi, &lo, &bhi, &blo) || hi < lo || bhi - blo != hi - lo) continue;
        if (v < 0) v = 0;
        v |= (int64_t)(((w >> blo) & ((UINT64_C(1) << (bhi - blo + 1)) - 1)) << lo);
    }
    return v;
}

/* A format's fixed bits as masks, worked out once per row (dram_compile) rather than per word:
 * walking the format string for each of the ~1000 rows cost ~80 K host instructions a word. */
typedef struct dram_isa_bits {
    uint64_t mask, value;   /* the fixed bits, and what they must be */
    int fixed;              /* how many there are */
} dram_isa_bits;

/* The fixed bits of the format ("00cc-11cc-...", bit 47 first). */
static dram_isa_bits dram_compile(const char *format)
{
    dram_isa_bits b = { 0, 0, 0 };
    int bit = 47;
    for (const char *p = format; *p && bit >= 0; p++) {
        if (*p == '-') continue;
        if (*p == '0' || *p == '1') {
            b.mask |= UINT64_C(1) << bit;
            b.value |= (uint64_t)(*p - '0') << bit;
            b.fixed++;
        }
        bit--;
    }
    return b;
}

static uint64_t dram_gpr(int64_t r, bool pair)
{
    if (r < 0 || r >= DPU_GPRS) return 0;
    return pair ? UINT64_C(3) << (r & ~1) : UINT64_C(1) << r;
}

/* A register mask with the banks side by side: the even registers r0, r2, .., r22 in bits
 * 0..11, the odd ones in bits 12..23, so that each bank's count is one table look-up. */
static uint64_t dram_banks(uint64_t mask)
{
    uint64_t banks = 0;
    for (int r = 0; r < DPU_GPRS; r++)
        if (mask >> r & 1) banks |= UINT64_C(1) << (r / 2 + (r & 1) * 12);
    return banks;
}

/* The reads and writes as dram_banks packs them, the writes in bits 32..55 (each half a plain
 * 32-bit word). The row with the most fixed bits wins, as in the engine's decoder: a general form
 * (e.g. add rrici without a destination's bits) also matches the words of its specific ones,
 * and taking it would lose their registers. bits[i] is dram_compile(rows[i].format). */
static uint64_t dram_decode_regs(const dram_isa_row *rows, const dram_isa_bits *bits, size_t nrows, uint64_t w)
{
    size_t best = nrows;
    int best_fixed = -1;
    for (size_t i = 0; i < nrows; i++)
        if ((w & bits[i].mask) == bits[i].value && bits[i].fixed > best_fixed) best = i, best_fixed = bits[i].fixed;
    if (best == nrows) return 0;
    const char *f = rows[best].fields ? rows[best].fields : "";
    const uint64_t reads = dram_gpr(dram_field(f, "ra", w), false) | dram_gpr(dram_field(f, "rb", w), false) |
                           dram_gpr(dram_field(f, "sa", w), false) | dram_gpr(dram_field(f, "sb", w), false) |
                           dram_gpr(dram_field(f, "db", w), true);
    const uint64_t writes = dram_gpr(dram_field(f, "rc", w), false) | dram_gpr(dram_field(f, "sc", w), false) |
                            dram_gpr(dram_field(f, "dc", w), true);
    return dram_banks(reads) | dram_banks(writes) << 32;
}

/* The reads of a decode_regs word, and the writes brought down to where the reads are. */
#define DRAM_READS(regs) ((uint64_t)(uint32_t)(regs))
#define DRAM_WRITES(regs) ((regs) >> 32)

/* floor(n / 2) for n the number of bits set in 0..4095 (a table: x86-64's baseline lacks the
 * population-count instruction, and the builtin would call a library function). */
#define DRAM_H1(n) (n) / 2
#define DRAM_H2(n) DRAM_H1(n), DRAM_H1(n + 1), DRAM_H1(n + 1), DRAM_H1(n + 2)
#define DRAM_H4(n) DRAM_H2(n), DRAM_H2(n + 1), DRAM_H2(n + 1), DRAM_H2(n + 2)
#define DRAM_H6(n) DRAM_H4(n), DRAM_H4(n + 1), DRAM_H4(n + 1), DRAM_H4(n + 2)
#define DRAM_H8(n) DRAM_H6(n), DRAM_H6(n + 1), DRAM_H6(n + 1), DRAM_H6(n + 2)
#define DRAM_H10(n) DRAM_H8(n), DRAM_H8(n + 1), DRAM_H8(n + 1), DRAM_H8(n + 2)
static const uint8_t dram_half_count[4096] = { DRAM_H10(0), DRAM_H10(1), DRAM_H10(1), DRAM_H10(2) };

/* floor(E/2) + floor(O/2) over the registers of a dram_banks mask. */
ISK_INLINE uint32_t dram_rf_extra(uint64_t banks)
{
    return (uint32_t)dram_half_count[banks & 0xfff] + dram_half_count[banks >> 12 & 0xfff];
}

/* ---- the pipeline and the register-file stage ------------------------------------------------ */

/* uPIMulator's logic (timing.md 2.3), in issue order: an instruction enters a pipeline of
 * `pipeline` stages, reaches the register-file stage's input, and holds the stage 1 + extra
 * cycles. While the stage holds an instruction, the next one waits in the stage's input, and
 * that freezes everything behind it: the pipeline does not advance and nothing issues (an
 * issue needs the pipeline's and the stage's inputs free). A frozen pipeline takes one more
 * slot at its tail, so an instruction issued in the first cycle after a frozen one enters the
 * pipeline a cycle late and blocks the next issue for that cycle. Only instructions already
 * issued decide when a new one reaches the stage, so each is followed through it at issue:
 * the cycles the stage's input is held ("frozen") are kept as a few intervals. */

/* The ring's slot of running count k. */
#define PIPE_SLOT(k) ((k) & (DPU_FREEZES - 1))

/* The end of the frozen cycles v is in: the first cycle from v on that is not frozen (v after
 * the last issue's cycle: the intervals kept end later). */
ISK_INLINE uint64_t pipe_thaw(const dpu_pipe *p, uint64_t v)
{
    for (uint32_t k = p->tail; k != p->head; k++)
        if (p->to[PIPE_SLOT(k)] > v) return p->from[PIPE_SLOT(k)] <= v ? p->to[PIPE_SLOT(k)] : v;
    return v;
}

/* Whether nothing may issue in cycle v: the stage's input is held, or the instruction issued
 * in v - 1 still waits to enter the pipeline. */
ISK_INLINE bool pipe_blocked(const dpu_pipe *p, uint64_t v)
{
    return pipe_thaw(p, v) != v || p->late_at == v;
}

/* The first cycle from v on in which the pipeline does not block an issue: one walk over the
 * intervals, as v only grows. */
ISK_INLINE uint64_t pipe_unblocked(const dpu_pipe *p, uint64_t v)
{
    const uint32_t head = p->head;
    uint32_t k = p->tail;
    for (;;) {
        while (k != head && p->to[PIPE_SLOT(k)] <= v) k++;
        if (k != head && p->from[PIPE_SLOT(k)] <= v) v = p->to[PIPE_SLOT(k)];
        else if (p->late_at == v) v++;
        else return v;
    }
}

/* The slot after the newest interval holds a sentinel that never ends nor begins, so that a
 * walk from the oldest on stops there without comparing the counts (dpu_reset, pipe_enter). */
ISK_INLINE void pipe_sentinel(dpu_pipe *p, uint32_t head)
{
    p->from[PIPE_SLOT(head)] = p->to[PIPE_SLOT(head)] = UINT64_MAX;
}

/* The instruction issued in cycle u: the cycle in which it enters the register-file stage
 * (it leaves 1 + its extra cycles later, follow_issue, which then frees the stage: left to the
 * caller, so that the register-file rule's look-ups come after this walk and need no register
 * across it). It enters the pipeline in u, or
 * u + 1 if u - 1 was frozen, and reaches the stage's input in the `pipeline`-th cycle from
 * there that is not frozen: pipeline - 1 cycles after its entry plus the frozen cycles between.
 * Those are the cycles kept in the ring: the instructions ahead of it freeze the pipeline only
 * before they enter the stage, so before it arrives, and no frozen cycle kept lies before its
 * entry. Nothing issues in a frozen cycle, so u is not frozen and the intervals that end by u
 * are past (one that ends in u held u - 1: the entry is late); each new wait in the stage's
 * input begins after the previous one ended and a cycle in which the pipeline moved. It also
 * sets open_at, the first cycle after u that the pipeline lets issue. */
ISK_INLINE uint64_t pipe_enter(struct isk_state *S, uint64_t u)
{
    dpu_pipe *p = &S->pipe;
    uint32_t tail = p->tail;
    uint64_t v = u + 1;                         /* the first cycle after u, or u + 2 if it is late */
    if (p->to[PIPE_SLOT(tail)] <= u) {          /* (the sentinel at head stops the walk) */
        uint64_t lag = p->lag;
        bool late;
        do {
            late = p->to[PIPE_SLOT(tail)] == u;
            lag -= p->to[PIPE_SLOT(tail)] - p->from[PIPE_SLOT(tail)];
            tail++;
        } while (p->to[PIPE_SLOT(tail)] <= u);
        p->tail = tail;
        p->lag = lag;
        if (late) p->late_at = v++;             /* (an older late_at is before any cycle asked) */
    }
    /* pipeline - 1 cycles after its entry plus the frozen cycles ahead (p->lag) */
    uint64_t enter = v - 1 + p->lag;
    if (p->stage_free > enter) {                /* held in the input: frozen until it enters */
#if defined(__GNUC__)
        /* (lag and the cycles read again after an empty asm that may change memory, so that
         * nothing computed before the branch lives into it: GCC spilled arrive + 1 on every
         * issue, before this branch) */
        __asm__ volatile("" ::: "memory");
#endif
        const uint64_t lag = p->lag;
        const uint64_t arrive = v - 1 + lag;
        enter = p->stage_free;
        const uint32_t head = p->head;
        /* The ring never fills (it holds DPU_FREEZES - 1 intervals and the sentinel): only
         * this branch adds one, for the instruction issued in u, and the walk above kept those
         * with to > u, which began after u as u is not frozen (nothing issues in a frozen
         * cycle), so each belongs to an instruction j not yet at the stage's input by u - 1.
         * j moves a stage per cycle not frozen from its entry on and arrives in the
         * pipeline-th, so fewer than `pipeline` of them lie in [entry_j, u - 1]; each later
         * issue before u is one of them, as is entry_j itself unless j entered late (then
         * entry_j = u_j + 1, and u_j + 1 is blocked). For the oldest j kept, at most
         * pipeline - 1 later issues: head - tail <= pipeline <= 60 (dpu.c's bound for
         * pipeline_stages) < DPU_FREEZES - 1. */
        assert(head - tail < DPU_FREEZES - 1);
        p->from[PIPE_SLOT(head)] = arrive + 1;
        p->to[PIPE_SLOT(head)] = enter + 1;
        pipe_sentinel(p, head + 1);
        p->head = head + 1;
        p->lag = lag + (enter - arrive);
#if defined(__GNUC__)
        /* (read again after an empty asm that may change memory: kept in a register, GCC
         * spilled it on every issue, before this branch) */
        __asm__ volatile("" ::: "memory");
        enter = p->stage_free;
#endif
    }
    p->issued_at = u + 1;
    /* The first cycle after u that the pipeline lets issue (pipe_unblocked(u + 1)): the
     * intervals kept begin after u, and one from another by a cycle at least, so one look at
     * the oldest (the sentinel when none is kept); done here, where the ring's tail is at hand. */
    p->open_at = p->from[PIPE_SLOT(tail)] <= v ? p->to[PIPE_SLOT(tail)] : v;
    return enter;
}

#endif
