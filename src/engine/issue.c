/* Processors: how the contexts of a processor issue instructions.
 *
 * A processor's scheduler (isk_scheduler: the built-in CPI, revolver and barrel of sched_*.h, or
 * the model's own) says which context issues in a clock and what an issue costs. Two paths use it:
 *
 *   isk_issue_clock  the general path: one clock of one processor, called by the clock loop
 *                    (clock.c) while anything else goes on (a driver, busy slots, pending writes,
 *                    a before-issue hook, several processors);
 *   isk_run_alone    the fast path: a processor alone in the system issues instruction after
 *                    instruction without the per-clock work, skipping clocks in which nothing can
 *                    issue, until an instruction asks for attention (isk_hdr.attention).
 *
 * The fast path is one loop (issue_loop) compiled once per built-in scheduler, with the
 * scheduler's functions inlined and its state in a local copy so that it stays in registers
 * across the behaviours, and once more through the pointers of a model's scheduler. Whatever the
 * path, an instruction is the same: the context's PC and the decoded entry of (instruction set,
 * PC), the behaviour, then the counts (live: isk_hdr.issued and the context's insns are exact
 * whenever a behaviour, a port handler or a hook runs) and the context's next PC.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/sched.h"
#include "engine/system.h"

/* ---- schedulers ------------------------------------------------------------------------------ */

#define ISK_BUILTIN_SCHEDULER(name, idle) \
    static int name##_pick(isk_sched *q, uint64_t c) { return isk_##name##_pick(q, c); } \
    static uint64_t name##_issued(isk_sched *q, uint32_t id, uint64_t c) { return isk_##name##_issued(q, id, c); } \
    static uint64_t name##_next(isk_sched *q, uint64_t c) { return isk_##name##_next(q, c); } \
    static const isk_scheduler name##_scheduler = { #name, name##_pick, name##_issued, name##_next, NULL, idle, NULL };
ISK_BUILTIN_SCHEDULER(cpi, 0)
ISK_BUILTIN_SCHEDULER(revolver, 1)
ISK_BUILTIN_SCHEDULER(barrel, 1)

/* The contexts changed state: the live mask every scheduler may read, then the policy's own view. */
ISK_INLINE void sched_changed(isk_sched *q, void (*changed)(isk_sched *))
{
    q->running = isk_live_mask(q->contexts, q->ncontexts);
    q->next_pick = -1;                       /* a pick left by `issued` may be stale now */
    if (changed) changed(q);
}

void isk_sched_select(isk_inst *p, int issue, uint64_t gap, const isk_scheduler *own)
{
    isk_sched *q = &p->sched;
    static const isk_scheduler *const builtin[] = { &cpi_scheduler, &revolver_scheduler, &barrel_scheduler };
    q->policy = issue >= ISK_ISSUE_CPI && issue <= ISK_ISSUE_BARREL ? builtin[issue] : own;
    q->gap = gap ? gap : 1;
    q->next_pick = -1;
    q->h = p->hdr;
    q->contexts = p->contexts;
    q->ncontexts = p->hdr->ncontexts;
    p->issue = q->policy ? issue : ISK_ISSUE_CPI;
    if (!q->policy) q->policy = &cpi_scheduler;
    p->sched_stale = true;
    p->quiet_until = 0;                      /* a new policy's first issue is not foreseen */
    p->hdr->attention = 1;
}

static void sched_refresh(isk_inst *p)
{
    sched_changed(&p->sched, p->sched.policy->changed);
    p->sched_stale = false;
}

void isk_op_schedule(isk_hdr *h, int issue, uint64_t gap, const isk_scheduler *own)
{
    isk_inst *p = h->engine;
    if (!p->contexts) isk_op_fault(h, 0, "SCHEDULE in a model that declares no PROCESSOR");
    if (issue == ISK_ISSUE_MODEL && (!own || !own->pick || !own->issued || !own->next))
        isk_op_fault(h, 0, "SCHEDULE_OWN needs a scheduler with pick, issued and next");
    if (issue < ISK_ISSUE_CPI || issue > ISK_ISSUE_MODEL) isk_op_fault(h, 0, "SCHEDULE: unknown issue policy");
    isk_sched_select(p, issue, gap, own);
    if (p->sys->fast.proc == p) p->sched_dirty = true;   /* the fast loop's copy is stale now */
}

/* ---- one instruction ---------------------------------------------------------------------------- */

/* The word at code address pc (< ncode). */
static uint64_t code_word(const isk_inst *p, uint64_t pc)
{
    const isk_storage *code = &p->model->storages.data[p->model->code_storage];
    return isk_cell_read_raw((const char *)p->buffers[p->model->code_storage] + pc * (uint64_t)code->cell_bytes,
                             code->cell_bytes);
}

/* The decode cache's entry of (instruction set, pc); an unknown set has set 0's entry, which
 * decode_entry refuses to decode for it (its behaviour, decode_miss, raises the exception). */
static isk_decoded *cache_entry(const isk_inst *p, uint32_t iset, uint64_t pc)
{
    const uint64_t set = iset < (uint32_t)p->model->isets ? iset : 0;
    return &p->dcache[set * p->ncode + pc];
}

static void run_group_entry(isk_hdr *h, const int64_t *op);

/* Decode the word at pc with instruction set `iset` into its cache entry, once. False: no format
 * of the set accepts it (the entry stays undecoded). The entry of a word that opens an issue
 * group runs the group (run_group_entry): no issue tests for groups. */
static bool decode_entry(const isk_inst *p, uint32_t iset, uint64_t pc)
{
    if (iset >= (uint32_t)p->model->isets) return false;
    /* the first decode since the reset: the program's shared image, if its words are known */
    if (ISK_UNLIKELY(p->code_pristine)) isk_dcache_share((isk_inst *)p);
    isk_decoded *d = cache_entry(p, iset, pc);
    if (d->pattern >= 0) return true;
    return isk_decode_word(p, iset, code_word(p, pc), d);
}

bool isk_decode_word(const isk_inst *p, uint32_t iset, uint64_t word, isk_decoded *d)
{
    int64_t op[ISK_MAX_OPS] = { 0 };
    int pattern = isk_model_decode_iset(p->model, (int)iset, word, op);
    if (pattern < 0) return false;
    const isk_pattern *pat = &p->model->patterns.data[pattern];
    const bool head = p->groups && (word >> p->model->proc.group_bit & 1) && pat->info.solo != ISK_SOLO_BIT_SET;
    *d = (isk_decoded){ .fn = head ? run_group_entry : pat->beh->fn, .pattern = pattern };
    memcpy(d->op, op, sizeof op);
    if (p->model->proc.entry_spare) d->spare = p->model->proc.entry_spare(d, word);
    return true;
}

/* The behaviour of a code address not decoded yet: decode the word with the context's
 * instruction set, remember it, run it. A word no format accepts is an exception. */
void isk_decode_miss(isk_hdr *h, const int64_t *op)
{
    (void)op;
    isk_inst *p = h->engine;
    const uint32_t iset = p->contexts[h->context].iset;
    if (!decode_entry(p, iset, h->pc)) {
        const uint64_t word = code_word(p, h->pc);
        char message[200];
        int n = snprintf(message, sizeof message, "illegal instruction 0x%0*llx", (p->model->word_bits + 3) / 4,
                         (unsigned long long)word);
        /* A word of another set (an IPU worker instruction the supervisor issues) says which. */
        for (int s = 0; s < p->model->isets && n > 0 && (size_t)n < sizeof message; s++) {
            int64_t ops[ISK_MAX_OPS];
            const int pattern = (uint32_t)s == iset ? -1 : isk_model_decode_iset(p->model, s, word, ops);
            const char *syntax = pattern >= 0 ? p->model->patterns.data[pattern].info.syntax : NULL;
            if (!syntax) continue;
            snprintf(message + n, sizeof message - (size_t)n, " (%.*s is an instruction of set %d; this context decodes set %u)",
                     (int)strcspn(syntax, " "), syntax, s, iset);
            break;
        }
        isk_engine_exception(h, ISK_EXC_ILLEGAL, message);
        return;
    }
    const isk_decoded *d = cache_entry(p, iset, h->pc);
    d->fn(h, d->op);
}

/* The ISSUE event of context id's instruction at pc (inside the code memory), decoding it
 * first if needed: the subscriber sees the engine's own entry. */
static __attribute__((noinline)) void emit_issue(isk_system *sys, isk_inst *p, uint32_t id, uint64_t pc)
{
    const isk_context *c = &p->contexts[id];
    const isk_decoded *d = decode_entry(p, c->iset, pc) ? cache_entry(p, c->iset, pc) : NULL;
    isk_emit(sys, &(isk_event){ .kind = ISK_EV_ISSUE, .inst = p, .slot = -1, .context = id, .pc = pc,
                                .word = code_word(p, pc), .instruction = d ? d->pattern : -1,
                                .operands = d ? d->op : NULL });
}

/* CONTEXT events: each context whose state differs from the one last reported. */
static __attribute__((noinline)) void emit_context_changes(isk_system *sys, isk_inst *p)
{
    for (uint32_t id = 0; id < p->hdr->ncontexts; id++) {
        const isk_context *c = &p->contexts[id];
        if (c->state == p->reported_states[id]) continue;
        isk_emit(sys, &(isk_event){ .kind = ISK_EV_CONTEXT, .inst = p, .slot = -1, .context = id, .pc = c->pc,
                                    .from = p->reported_states[id], .to = (int)c->state });
        p->reported_states[id] = (uint8_t)c->state;
    }
}

/* The counts of an issue. A sticky scheduler's fast loop counts only h->issued per instruction
 * and brings the context's own counts up to date with sync_sticky. */
ISK_INLINE void count_issue(isk_hdr *h, isk_context *c, uint64_t clock)
{
    c->last_issue = clock;
    c->insns++;
    h->issued++;
}

/* A sticky fast loop keeps its context's PC in a register and h->pc, and this in the context's
 * own pc meanwhile: an instruction that sets that pc (STOP_SELF) is then told apart from one
 * that stops without (the context keeps the instruction's PC), with no store per instruction. */
#define PC_IN_LOOP UINT64_MAX

/* The context of a sticky fast loop: its instruction count follows h->issued from `base`; its
 * PC is the instruction's (asked for from a handler: the loop takes note at the next issue). */
ISK_INLINE void sync_sticky_count(isk_system *sys, isk_context *c)
{
    if (c->pc == PC_IN_LOOP) {
        c->pc = sys->fast.proc->hdr->pc;
        sys->fast.proc->hdr->attention = 1;
    }
    c->insns = sys->fast.sticky_base + sys->fast.proc->hdr->issued;
}

/* The sticky context seen from inside an instruction at the system's clock (a handler, a
 * fault), which the per-clock path has not counted: its last issue is the one before it in this
 * run (sticky_gap clocks earlier), which made it ready now; with none, what it was when the run
 * began. */
ISK_INLINE void sync_sticky_before(isk_system *sys, isk_context *c)
{
    if (sys->fast.proc->hdr->issued == sys->fast.sticky_issued) return;
    c->last_issue = sys->clock - sys->fast.sticky_gap;
    if (c->ready_at < sys->clock) c->ready_at = sys->clock;
}

/* ... after an instruction: the last issue is that instruction's. */
ISK_INLINE void sync_sticky(isk_system *sys)
{
    isk_context *c = sys->fast.sticky;
    if (!c) return;
    sync_sticky_count(sys, c);
    c->last_issue = sys->fast.proc->hdr->clock;
}

static void steady_count(isk_system *sys, isk_context *ctx, uint64_t end);

void isk_sync_fast_counts(isk_system *sys)
{
    if (!sys->fast.proc) return;
    isk_context *c = sys->fast.sticky;
    if (c) {   /* a handler inside the instruction at the system's clock */
        sync_sticky_count(sys, c);
        sync_sticky_before(sys, c);
    }
    /* a handler inside a steady round's instruction (at the system's clock): the issues before */
    if (sys->fast.steady_gap) steady_count(sys, sys->fast.proc->contexts, sys->clock);
}

/* Whether the issuing context continues at NEXT_PC: unless the instruction stopped it (it keeps
 * its PC, or the one STOP_SELF gave), faulted or ended it. A context that put itself to sleep
 * continues after its sleep instruction when woken. */
ISK_INLINE bool moves_on(const isk_context *c)
{
    return c->state == ISK_CTX_RUNNING || c->state == ISK_CTX_BLOCKED || c->state == ISK_CTX_SLEEPING;
}

/* Out of line: its message buffer would cost every instruction a larger stack frame. */
static __attribute__((noinline)) void fetch_outside(isk_hdr *h, isk_inst *p, uint64_t pc)
{
    char message[120];
    snprintf(message, sizeof message, "pc 0x%llx is outside the code memory (%llu instructions)",
             (unsigned long long)pc, (unsigned long long)p->ncode);
    isk_engine_exception(h, ISK_EXC_FETCH, message);
}

/* The scheduler's cost of an issue, the built-in ones inlined. */
ISK_INLINE uint64_t sched_issued(isk_inst *p, uint32_t id, uint64_t clock)
{
    if (p->issue == ISK_ISSUE_CPI) return isk_cpi_issued(&p->sched, id, clock);
    if (p->issue == ISK_ISSUE_REVOLVER) return isk_revolver_issued(&p->sched, id, clock);
    if (p->issue == ISK_ISSUE_BARREL) return isk_barrel_issued(&p->sched, id, clock);
    return p->sched.policy->issued(&p->sched, id, clock);
}

/* One instruction of context c at h->pc (inside the code memory): its ISSUE event, then its
 * behaviour from the entry of the context's instruction set (a set the model lacks decodes
 * nothing: the illegal-instruction exception). */
ISK_INLINE void run_instruction(isk_system *sys, isk_inst *p, isk_hdr *h, const isk_context *c, const bool observed)
{
    if (observed && isk_listening(sys, ISK_EV_ISSUE)) emit_issue(sys, p, h->context, h->pc);
    if (ISK_LIKELY(c->iset == 0)) {                  /* set 0's entries come first */
        const isk_decoded *d = &p->dcache[h->pc];
        d->fn(h, d->op);
    } else if (c->iset < (uint32_t)p->model->isets) {
        const isk_decoded *d = cache_entry(p, c->iset, h->pc);
        d->fn(h, d->op);
    } else {
        isk_decode_miss(h, NULL);
    }
}

/* An issue group at h->pc (its first word has the group bit): its instructions run in order,
 * all reading before any writes, since the engine holds back their latency-0 writes (writes of
 * latency >= 1 are not visible in this clock anyway) and makes them in order at the group's end.
 * The context continues after the group unless an instruction jumps. An exception or a stop in
 * the group ends it there (the writes made so far, a handler's too, still take effect). A group
 * not at a multiple of group_align words, or running past the code memory, is the model's exception.
 * Returns the instructions that ran. */
static __attribute__((noinline)) uint64_t run_group(isk_system *sys, isk_inst *p, isk_hdr *h, isk_context *c)
{
    const uint64_t pc = h->pc, words = (uint64_t)p->model->proc.group_words;
    const uint64_t align = (uint64_t)p->model->proc.group_align;
    if (pc % align || pc + words > p->ncode) {
        char message[160];
        if (pc % align)
            snprintf(message, sizeof message, "issue group at pc 0x%llx is not aligned to %llu words",
                     (unsigned long long)pc, (unsigned long long)align);
        else
            snprintf(message, sizeof message, "issue group at pc 0x%llx is cut off by the end of the code memory",
                     (unsigned long long)pc);
        isk_engine_exception(h, ISK_EXC_GROUP, message);
        return 1;
    }
    const uint64_t exceptions = p->stats.exceptions;
    h->next_pc = pc + words;
    h->checking = 1;
    sys->grouping = p;
    uint64_t ran = 0;
    for (uint64_t i = 0; i < words; i++) {
        h->pc = pc + i;
        ran++;
        /* each word's own behaviour (the first's ISSUE event came with the group's entry) */
        if (i && isk_listening(sys, ISK_EV_ISSUE)) emit_issue(sys, p, h->context, h->pc);
        if (!decode_entry(p, c->iset, h->pc)) {
            isk_decode_miss(h, NULL);                  /* the illegal-instruction exception */
            break;
        }
        const isk_decoded *d = cache_entry(p, c->iset, h->pc);
        p->model->patterns.data[d->pattern].beh->fn(h, d->op);
        if (p->stats.exceptions != exceptions || c->state != ISK_CTX_RUNNING) break;
    }
    h->pc = pc;
    sys->grouping = NULL;
    h->checking = 0;
    isk_flush_group_writes(sys, p);
    return ran;
}

/* The cached behaviour of a group's first word: the group runs, one issue of all its words. */
static void run_group_entry(isk_hdr *h, const int64_t *op)
{
    (void)op;
    isk_inst *p = h->engine;
    isk_context *c = &p->contexts[h->context];
    const uint64_t more = run_group(p->sys, p, h, c) - 1;   /* execute() counts the first */
    c->insns += more;
    h->issued += more;
    p->stats.instructions += more;
    p->sys->stats.instructions += more;
}

/* The general path's instruction: context `id` issues in the current clock. `observed`: someone
 * subscribed to instruction or context events. */
ISK_INLINE void execute(isk_system *sys, isk_inst *p, uint32_t id, const bool observed)
{
    isk_hdr *h = p->hdr;
    isk_context *c = &p->contexts[id];
    if (c->state == ISK_CTX_BLOCKED) c->state = ISK_CTX_RUNNING;
    h->context = id;
    h->pc = c->pc;
    h->next_pc = c->pc + 1;
    h->clock = sys->clock;
    sys->cur_inst = p;
    sys->cur_slot = -1;
    if (ISK_UNLIKELY(c->pc >= p->ncode)) {
        fetch_outside(h, p, c->pc);
    } else {
        run_instruction(sys, p, h, c, observed);
    }
    if (moves_on(c)) c->pc = h->next_pc;
    count_issue(h, c, sys->clock);
    p->stats.instructions++;
    sys->stats.instructions++;
    const uint64_t after = sched_issued(p, id, sys->clock);
    if (c->ready_at < after) c->ready_at = after;
    /* a model's scheduler: nothing issues before `after`, and those clocks count nothing, as
     * in its fast loop (issue_loop), so that its statistics do not depend on the path; kept only
     * when it is past the next clock (an older one is already behind this clock) */
    if (p->issue == ISK_ISSUE_MODEL && after > sys->clock + 1) p->quiet_until = after;
    if (h->attention) {
        h->attention = 0;
        p->sched_stale = true;
    }
    sys->cur_inst = NULL;
}

/* ---- the general path: one clock ---------------------------------------------------------------- */

/* Idle clocks [from, to) of processor p: counted, and those in which a context was blocked
 * (waiting for a DMA, say) counted apart. `live`: the scheduler's mask of live contexts. */
static void count_idle(isk_system *sys, isk_inst *p, uint64_t live, uint64_t from, uint64_t to)
{
    uint64_t blocked_until = from;
    for (; live; live &= live - 1) {             /* the live contexts only: often 1 of 24 */
        const isk_context *c = &p->contexts[__builtin_ctzll(live)];
        if (c->state == ISK_CTX_BLOCKED && c->ready_at > blocked_until) blocked_until = c->ready_at;
    }
    const uint64_t blocked = (blocked_until < to ? blocked_until : to) - from;
    p->stats.idle_clocks += to - from;
    sys->stats.idle_clocks += to - from;
    p->stats.idle_blocked_clocks += blocked;
    sys->stats.idle_blocked_clocks += blocked;
}

/* What the clock loop does next: go on, or stop the run after this processor's issue. */
ISK_INLINE int issue_outcome(const isk_system *sys)
{
    return ISK_UNLIKELY(sys->status != ISK_OK || sys->stop_now) ? ISK_ISSUE_STOP_AFTER : ISK_ISSUE_ON;
}

/* The before-issue hook's say on context `id`'s instruction: whether the run stops before it. */
static __attribute__((noinline)) bool hook_stops(isk_system *sys, isk_inst *p, int id)
{
    if (sys->resume_issue) {
        sys->resume_issue = false;     /* this instruction's hook already ran: it stopped the run */
    } else if (sys->opt.before_issue(sys->opt.before_issue_user, sys->clock, p, (uint32_t)id, p->contexts[id].pc)) {
        sys->resume_issue = true;
        sys->resume_context = (uint32_t)id;
        isk_break(sys, "the before-issue hook stopped the run");
        return true;
    }
    return false;
}

/* Called in every clock of a processor on the general path: the built-in schedulers' pick is
 * inlined. Compiled twice: with and without the checks for instruction and context subscribers. */
ISK_INLINE int issue_clock(isk_system *sys, isk_inst *p, const bool observed)
{
    if (observed && isk_listening(sys, ISK_EV_CONTEXT)) emit_context_changes(sys, p);
    if (p->sched_stale) {
        if (p->issue == ISK_ISSUE_CPI) p->sched_stale = false;   /* see below */
        else sched_refresh(p);
    }
    int id;
    if (ISK_UNLIKELY(sys->resume_issue)) {
        id = (int)sys->resume_context;   /* resuming at an instruction the hook stopped before */
    } else if (p->issue == ISK_ISSUE_CPI) {
        id = isk_cpi_pick(&p->sched, sys->clock);
    } else if (p->issue == ISK_ISSUE_REVOLVER) {
        id = isk_revolver_pick(&p->sched, sys->clock);
    } else if (p->issue == ISK_ISSUE_BARREL) {
        id = isk_barrel_pick(&p->sched, sys->clock);
    } else {
        /* the clock loop calls here before quiet_until when the contexts changed */
        if (sys->clock < p->quiet_until) return ISK_ISSUE_ON;
        id = p->sched.policy->pick(&p->sched, sys->clock);
    }
    if (id < 0) {
        if (p->sched.policy->idle_counts) count_idle(sys, p, p->sched.running, sys->clock, sys->clock + 1);
        if (!sys->busy_slots && !sys->pending) isk_check_deadlock(sys);
        return issue_outcome(sys);
    }
    if (ISK_UNLIKELY(sys->opt.before_issue != NULL) && hook_stops(sys, p, id)) return ISK_ISSUE_STOP_BEFORE;
    const isk_context *c = &p->contexts[id];
    execute(sys, p, (uint32_t)id, observed);
    /* CPI: nothing can issue before the instruction's cost has elapsed unless the contexts
     * change again (sched_stale), and those idle clocks count nothing: the clock loop skips
     * them. (CPI reads its context directly: it has no view of the contexts to bring up to
     * date, and a fast loop computes the live mask anew.) */
    if (p->issue == ISK_ISSUE_CPI) {
        p->sched_stale = false;
        if (isk_ctx_live(c)) p->quiet_until = c->ready_at;
    }
    if (observed && isk_listening(sys, ISK_EV_STORE) && p->nwatched) isk_report_changes(sys, p);
    if (observed && isk_listening(sys, ISK_EV_CONTEXT)) emit_context_changes(sys, p);
    return issue_outcome(sys);
}

static __attribute__((noinline)) int issue_clock_observed(isk_system *sys, isk_inst *p)
{
    return issue_clock(sys, p, true);
}

int isk_issue_clock(isk_system *sys, isk_inst *p)
{
    if (ISK_UNLIKELY(sys->listening & (ISK_EV_BIT(ISK_EV_ISSUE) | ISK_EV_BIT(ISK_EV_CONTEXT) | ISK_EV_BIT(ISK_EV_STORE))))
        return issue_clock_observed(sys, p);
    return issue_clock(sys, p, false);
}

/* ---- the fast path ---------------------------------------------------------------------------- */

/* Leave the fast loop: the clock it reached, its counts. `mid_clock`: the instruction of clock
 * `clock` asked for attention, and the clock loop finishes that clock (slots, writes). */
static void leave_fast_loop(isk_system *sys, isk_inst *p, uint64_t clock, uint64_t issued_before, bool mid_clock)
{
    const uint64_t issued = p->hdr->issued - issued_before;
    p->stats.instructions += issued;
    sys->stats.instructions += issued;
    sys->stats.clocks += clock - sys->fast.start;
    sys->clock = clock;
    sys->phase = mid_clock ? PHASE_SLOTS : PHASE_BEGIN;
    if (mid_clock) {
        sys->cur_acc = 0;
        sys->cur_order = 0;
    }
    sys->cur_inst = NULL;
    sys->fast.proc = NULL;
}

/* Anything an instruction did that the fast loop cannot go on with. */
static bool fast_loop_must_leave(const isk_system *sys, const isk_inst *p)
{
    /* busy slots while the processor runs ahead of inert commands (ahead.c) are not a reason:
     * an interaction caught them up first (sys->ahead.proc NULL) */
    return sys->pending || (sys->busy_slots && !sys->ahead.proc) || sys->status != ISK_OK || sys->stop_now ||
           p->sched_dirty;
}

/* A sticky scheduler's run of instructions (CPI): the same context issues one instruction every
 * `gap` clocks from h->next_pc on until one asks for attention, the run's limit or a PC outside
 * the code memory (which the general path raises). Out of line, with only its own values live
 * across the behaviour's call so that they all stay in registers; one copy per gap known when
 * compiled. Returns the clock after the last issue; h->next_pc is then the next PC. */
typedef uint64_t burst_fn(isk_system *, isk_hdr *, const isk_decoded *, uint64_t, uint64_t, uint64_t, uint64_t);
ISK_INLINE uint64_t sticky_burst(isk_system *sys, isk_hdr *h, const isk_decoded *dcache, uint64_t ncode,
                                 uint64_t after, uint64_t limit, uint64_t gap)
{
    uint64_t pc = h->next_pc;
    for (;;) {
        if (ISK_UNLIKELY(after >= limit)) break;
        if (ISK_UNLIKELY(pc >= ncode)) break;
        h->pc = pc;
        h->next_pc = pc + 1;
        h->clock = sys->clock = after;
        dcache[pc].fn(h, dcache[pc].op);
        h->issued++;
        pc = h->next_pc;
        after += gap;
        if (ISK_UNLIKELY(h->attention)) break;
    }
    return after;
}
#define STICKY_BURST(name, GAP) \
    static __attribute__((noinline)) uint64_t name(isk_system *sys, isk_hdr *h, const isk_decoded *dcache, \
                                                   uint64_t ncode, uint64_t after, uint64_t limit, uint64_t gap) \
    { (void)gap; return sticky_burst(sys, h, dcache, ncode, after, limit, GAP); }
STICKY_BURST(burst_gap1, 1)
STICKY_BURST(burst_gap2, 2)
STICKY_BURST(burst_gap, gap)

/* The revolver's pick when its common case fails (the next live context round the circle is
 * not running and ready): the first ready context round the circle (isk_revolver_scan), else
 * the idle clocks until one becomes ready (isk_revolver_next). The context that issues at
 * *reached, or -1 at the limit or with no live context. Out of line: it is rare while the
 * threads outnumber the revolver's gap. */
static __attribute__((noinline)) int circle_wait(isk_system *sys, isk_inst *p, isk_sched *q, uint64_t clock,
                                                 uint64_t limit, uint64_t *reached)
{
    for (;;) {
        const int id = isk_revolver_scan(q, q->cursor, clock);
        if (id >= 0) {
            isk_context *c = &q->contexts[id];
            if (c->state == ISK_CTX_BLOCKED) c->state = ISK_CTX_RUNNING;
            q->cursor = (uint32_t)id + 1;
            *reached = clock;
            return id;
        }
        uint64_t first = isk_revolver_next(q, clock);
        if (first == UINT64_MAX) {
            *reached = clock;
            return -1;
        }
        if (first > limit) first = limit;
        count_idle(sys, p, q->running, clock, first);
        *reached = clock = first;
        if (clock >= limit) return -1;
    }
}

/* The revolver's run of instructions: round robin over the live contexts, one issue per clock,
 * with its state in registers: `rest`, the live contexts after the last issuer round the circle
 * (isk_sched.cursor, brought up to date at the end), and a common case of one load and compare
 * (the next live context is running and ready). It ends after an instruction that asks for
 * attention (*issuer: its context; returns the clock after it), at the limit or when no context
 * is live (*issuer -1: returns the clock reached), or at a PC outside the code memory (*issuer
 * -1, the clock of that issue: the general path raises the exception). GAP: the distance
 * known when compiled (0: q->gap, more than 1). */
typedef uint64_t circle_fn(isk_system *, isk_inst *, isk_sched *, uint64_t, uint64_t, int *);

/* One issue of the revolver's fast loops: context id (c) runs the instruction at pc, in range. */
ISK_INLINE void circle_issue(isk_system *sys, isk_hdr *h, const isk_decoded *dcache, isk_context *c, uint32_t id,
                             uint64_t pc, uint64_t clock)
{
    h->context = id;
    h->pc = pc;
    h->next_pc = pc + 1;
    h->clock = sys->clock = clock;                   /* the engine's services read the system's clock */
    dcache[pc].fn(h, dcache[pc].op);
    count_issue(h, c, clock);
}

/* The live context after `id` round the circle of `live`. */
ISK_INLINE uint32_t circle_after(uint64_t live, uint64_t id)
{
    const uint64_t later = live & ~((UINT64_C(2) << id) - 1);
    return (uint32_t)__builtin_ctzll(later ? later : live);
}

/* The counts of the steady round's clocks [steady_since, end): in each clock the next live
 * context round the circle from steady_first issued one instruction (counted: a fault's is not),
 * so its instruction count, last issue and, with a gap above 1, the ready clock its cost gives
 * (as isk_revolver_issued would have recorded at each issue; a larger one, from BLOCK_FOR say,
 * stays) follow from its place in the circle. The round may go on: it counts from `end` on. */
static void steady_count(isk_system *sys, isk_context *ctx, uint64_t end)
{
    const uint64_t live = sys->fast.steady_live, n = (uint64_t)__builtin_popcountll(live);
    const uint64_t gap = sys->fast.steady_gap, since = sys->fast.steady_since, k = end - since;
    uint64_t id = sys->fast.steady_first, next = id;
    for (uint64_t j = 0; j < n; j++, id = circle_after(live, id)) {
        if (j == k % n) next = id;                   /* the one to issue at `end` */
        if (j >= k) continue;
        isk_context *c = &ctx[id];
        const uint64_t m = (k - 1 - j) / n + 1;      /* its issues: at since + j, + n, ... */
        c->insns += m;
        c->last_issue = since + j + n * (m - 1);
        if (gap > 1 && c->ready_at < c->last_issue + gap) c->ready_at = c->last_issue + gap;
    }
    sys->fast.steady_since = end;
    sys->fast.steady_first = (uint32_t)next;
}

/* The end of a steady round (or a fault in it) at clock `end`. */
static void steady_settle(isk_system *sys, isk_context *ctx, uint64_t end)
{
    steady_count(sys, ctx, end);
    sys->fast.steady_gap = 0;
}

/* The steady round: at least `gap` live contexts, each running and ready at its turn, and no
 * instruction asks for attention; then each context issues every n >= gap clocks and is ready
 * again by its next turn, so the round issues the next live context at every clock with no test
 * of its state or ready clock and no record of its cost or count: one clock is one issue, and
 * steady_settle derives each context's count, last issue and ready clock from the clocks the
 * round ran (isk_sync_fast_counts too, for a handler that reads them meanwhile). Per issue it
 * stores what a behaviour may read (isk_hdr's context, pc, next_pc, clock, issued; the
 * system's clock) and the context's next PC. It ends like circle_burst, at the first attention
 * (nothing else changes a context's state or ready clock), the limit or a PC outside the code
 * memory. `rest`: the live contexts still to issue in this turn of the circle. */
ISK_INLINE uint64_t circle_steady(isk_system *sys, isk_inst *p, isk_sched *q, uint64_t clock, uint64_t limit,
                                  uint64_t rest, int *issuer, const uint64_t GAP, const bool OWN_OPS)
{
    isk_hdr *const h = p->hdr;
    const isk_decoded *const dcache = p->dcache;
    isk_context *const ctx = q->contexts;
    const uint64_t running = q->running;
    /* The code's size is compared from memory, as the limit is: a compare takes a memory
     * operand at no cost, and the register it frees keeps dcache out of the stack (a load per
     * issue). The empty asm tells the compiler the copy may change, so it does not keep it in
     * a register. */
    uint64_t ncode = p->ncode;
#if defined(__GNUC__)
    __asm__("" : : "r"(&ncode) : "memory");
#endif
    /* the live context after each one round the circle, its id and its address: two loads per
     * issue find the next, with no arithmetic between them and the call */
    uint64_t after[64];
    isk_context *after_ctx[64];
    for (uint64_t m = running; m; m &= m - 1) {
        const uint64_t i = (uint64_t)__builtin_ctzll(m);
        after[i] = circle_after(running, i);
        after_ctx[i] = &ctx[after[i]];
    }
    uint64_t id = (uint64_t)__builtin_ctzll(rest ? rest : running);
    isk_context *c = &ctx[id];
    sys->fast.steady_since = clock;
    sys->fast.steady_first = (uint32_t)id;
    sys->fast.steady_live = running;
    sys->fast.steady_gap = GAP ? GAP : q->gap;
    if (OWN_OPS) h->ops = &isk_engine_ops_clocked;   /* the clock in the header only (system.h) */
    /* one issue per clock: the count follows the clock from a bias (isk_issued), no add per issue */
    const uint64_t bias = h->issued - clock;
    h->issued = bias;
    h->issued_per_clock = 1;
    bool stopped = false;                            /* at `id`: attention or a PC outside */
    isk_round_fn *const round = OWN_OPS ? p->model->proc.round : NULL;
    if (round) {                                     /* the model's own (PROCESSOR .round) */
        isk_round r = { .contexts = ctx, .after = after, .after_ctx = after_ctx, .limit = limit, .id = (uint32_t)id };
        clock = round(h, dcache, ncode, clock, &r);
        id = r.id;
        c = &ctx[id];
        stopped = r.end != ISK_ROUND_LIMIT;
        if (r.end == ISK_ROUND_ASKED) *issuer = (int)id;
    }
    while (!round && clock < limit) {
        const uint64_t pc = c->pc;
        if (ISK_UNLIKELY(pc >= ncode)) {             /* the general path raises the exception */
            stopped = true;
            break;
        }
        h->context = (uint32_t)id;
        h->pc = pc;
#if defined(__GNUC__)
        /* two stores each: paired through a vector register they cost four instructions */
        if (OWN_OPS) __asm__("" : : : "memory");
#endif
        h->next_pc = pc + 1;
        h->clock = clock;
        if (!OWN_OPS) sys->clock = clock;            /* the engine's services read the system's clock */
        dcache[pc].fn(h, dcache[pc].op);
        clock++;
        if (ISK_UNLIKELY(h->attention)) {
            *issuer = (int)(c - ctx);
            stopped = true;
            break;
        }
        c->pc = h->next_pc;
        c = after_ctx[id];
        id = after[id];
    }
    if (OWN_OPS) {   /* an op may have put another table in (isk_watch_reads) */
        if (h->ops == &isk_engine_ops_clocked) h->ops = &isk_engine_ops;
        sys->clock = h->clock;                       /* the last issue's, as the per-issue store left it */
    }
    h->issued = bias + clock;                        /* the true count again: clock - start issues */
    h->issued_per_clock = 0;
    steady_settle(sys, ctx, clock);
    /* the general pick starts after the last context that issued (the round issued at least
     * once: circle_burst enters it below the limit), or at one whose PC is outside */
    id = (uint64_t)(c - ctx);
    if (!stopped) {
        const uint64_t before = running & ((UINT64_C(1) << id) - 1);
        id = (uint64_t)(63 - __builtin_clzll(before ? before : running));
    }
    q->cursor = (uint32_t)id + (*issuer >= 0 || !stopped);
    return clock;
}

ISK_INLINE uint64_t circle_burst(isk_system *sys, isk_inst *p, isk_sched *q, uint64_t clock, uint64_t limit,
                                 int *issuer, const uint64_t GAP, const bool STEADY)
{
    isk_hdr *const h = p->hdr;
    const isk_decoded *const dcache = p->dcache;
    isk_context *const ctx = q->contexts;
    const uint64_t ncode = p->ncode, running = q->running, gap = GAP ? GAP : q->gap;
    uint64_t rest = running & (~UINT64_C(0) << (q->cursor & 63));
    isk_context *c = NULL;
    uint32_t id = 0;
    *issuer = -1;
    if (!running) return clock;                      /* no live context: the loop ends */
    const bool alone = !(running & (running - 1));
    /* STEADY (the caller saw at least `gap` live contexts): n issues of the common case in a row,
     * n the live contexts, issued each of them once at consecutive clocks, so each is ready at
     * its next turn: the steady round (circle_steady). A lone context waiting (below) needs no
     * new count: it is alone only with a gap of 1, and then ready at every clock after its
     * first issue. */
    const uint64_t steady_after = STEADY ? (uint64_t)__builtin_popcountll(running) : 0;
    uint64_t streak = 0;
    bool steady = false;
    while (clock < limit) {
        if (ISK_UNLIKELY(!rest)) rest = running;     /* round the circle again */
        const uint32_t next = (uint32_t)__builtin_ctzll(rest);
        if (ISK_LIKELY(ctx[next].state == ISK_CTX_RUNNING && ctx[next].ready_at <= clock)) {
            if (STEADY && ISK_UNLIKELY(streak == steady_after)) {
                steady = true;
                break;
            }
            streak++;
            id = next;
            c = &ctx[id];
            rest &= rest - 1;
        } else if (alone && ctx[next].state == ISK_CTX_RUNNING) {
            /* the one live context waits out its gap: idle clocks, none blocked (count_idle) */
            const uint64_t first = ctx[next].ready_at < limit ? ctx[next].ready_at : limit;
            p->stats.idle_clocks += first - clock;
            sys->stats.idle_clocks += first - clock;
            clock = first;
            if (clock >= limit) break;
            id = next;
            c = &ctx[id];
            rest = 0;
        } else {
            streak = 0;
            if (c) q->cursor = id + 1;               /* the general pick starts after the last issuer */
            uint64_t reached;
            const int got = circle_wait(sys, p, q, clock, limit, &reached);
            clock = reached;
            if (got < 0) return clock;               /* q->cursor is up to date */
            id = (uint32_t)got;
            c = &ctx[id];
            rest = running & ~((UINT64_C(2) << id) - 1);
        }
        const uint64_t pc = c->pc;
        if (ISK_UNLIKELY(pc >= ncode)) {             /* the general path raises the exception, */
            q->cursor = id;                          /* its pick starting at this context */
            return clock;
        }
        circle_issue(sys, h, dcache, c, id, pc, clock);
        /* isk_revolver_issued (GAP 0: the caller saw a gap above 1) */
        if (GAP != 1 && c->ready_at < clock + gap) c->ready_at = clock + gap;
        clock++;
        if (ISK_UNLIKELY(h->attention)) {
            *issuer = (int)id;
            break;
        }
        c->pc = h->next_pc;
    }
    if (c) q->cursor = id + 1;
    if (STEADY && steady)
        return h->ops == &isk_engine_ops ? circle_steady(sys, p, q, clock, limit, rest, issuer, GAP, true)
                                         : circle_steady(sys, p, q, clock, limit, rest, issuer, GAP, false);
    return clock;
}
static __attribute__((noinline)) uint64_t circle_gap1(isk_system *sys, isk_inst *p, isk_sched *q, uint64_t clock,
                                                      uint64_t limit, int *issuer)
{
    return circle_burst(sys, p, q, clock, limit, issuer, 1, true);
}
static __attribute__((noinline)) uint64_t circle_gap_steady(isk_system *sys, isk_inst *p, isk_sched *q, uint64_t clock,
                                                            uint64_t limit, int *issuer)
{
    return circle_burst(sys, p, q, clock, limit, issuer, 0, true);
}
static __attribute__((noinline)) uint64_t circle_gap_few(isk_system *sys, isk_inst *p, isk_sched *q, uint64_t clock,
                                                         uint64_t limit, int *issuer)
{
    return circle_burst(sys, p, q, clock, limit, issuer, 0, false);
}
/* Fewer live contexts than the gap never make a steady round: their loop has no count for it. */
static uint64_t circle_gap(isk_system *sys, isk_inst *p, isk_sched *q, uint64_t clock, uint64_t limit, int *issuer)
{
    if ((uint64_t)__builtin_popcountll(q->running) >= q->gap) return circle_gap_steady(sys, p, q, clock, limit, issuer);
    return circle_gap_few(sys, p, q, clock, limit, issuer);
}

typedef uint64_t run_fn(isk_sched *, const isk_decoded *, uint64_t, uint64_t, uint64_t, uint64_t *, int *);

/* `burst`: a sticky scheduler's (NULL: pick a context for every issue); `circle`: the
 * revolver's run (NULL: pick through `pick`); `takes_pick`: a model's scheduler, whose `issued`
 * may leave the next pick (isk_sched.next_pick); `run`: its own stretch of issues from a left
 * pick (isk_scheduler.run; NULL: none). */
ISK_INLINE void issue_loop(isk_system *sys, isk_inst *p, int (*pick)(isk_sched *, uint64_t),
                           uint64_t (*issued)(isk_sched *, uint32_t, uint64_t),
                           uint64_t (*next)(isk_sched *, uint64_t), void (*changed)(isk_sched *), burst_fn *burst,
                           circle_fn *circle, const int idle_counts, const bool takes_pick, run_fn *run)
{
    const bool sticky = burst != NULL;
    isk_hdr *const h = p->hdr;
    isk_decoded *const dcache = p->dcache;
    const uint64_t ncode = p->ncode, issued_before = h->issued;
    isk_sched q = p->sched;              /* a copy the compiler may keep in registers */
    sched_changed(&q, changed);
    p->sched_stale = false;
    /* Attention is cleared before the limit is read: isk_request_stop lowers the limit, then
     * sets attention. */
    h->attention = 0;
    atomic_thread_fence(memory_order_seq_cst);
    uint64_t limit = sys->run_until, clock = sys->clock;
    sys->cur_inst = p;
    sys->cur_slot = -1;
    sys->fast.proc = p;
    sys->fast.start = clock;
    sys->fast.issued_before = issued_before;
    /* a model's scheduler: a run resumes where the last issue said the next may be (quiet_until,
     * kept across runs and from the general path), so that how a run is stepped changes nothing */
    if (takes_pick && clock < p->quiet_until) clock = p->quiet_until < limit ? p->quiet_until : limit;
    bool mid_clock = false;
    int id = -1;
    while (clock < limit) {
        isk_context *c;
        uint64_t after;
        if (circle) {
            after = circle(sys, p, &q, clock, limit, &id);
            if (id < 0) {                            /* the limit, no live context or a bad PC */
                clock = after;
                break;
            }
            c = &q.contexts[id];
        } else {
            if (run && q.next_pick >= 0) {
                /* the model issues while it knows the next pick (isk_scheduler.run); what it
                 * leaves (none picked, a PC outside the code) this loop takes as ever */
                int asked;
                after = run(&q, dcache, ncode, clock, limit, &sys->clock, &asked);
                if (asked >= 0) {
                    id = asked;
                    c = &q.contexts[id];
                    goto attention;
                }
                clock = after;
                if (clock >= limit) break;
            }
            if (!sticky || id < 0) {
                id = takes_pick ? q.next_pick : -1;
                if (id < 0) id = pick(&q, clock);
                if (id < 0) {
                    /* nothing can issue now: jump to the first clock at which something may */
                    uint64_t first = next(&q, clock);
                    if (first == UINT64_MAX) break;
                    if (first > limit) first = limit;
                    if (idle_counts) count_idle(sys, p, q.running, clock, first);
                    clock = first;
                    continue;
                }
                if (q.contexts[id].state == ISK_CTX_BLOCKED) q.contexts[id].state = ISK_CTX_RUNNING;
                if (sticky) {
                    sys->fast.sticky = &q.contexts[id];
                    sys->fast.sticky_base = q.contexts[id].insns - h->issued;
                    sys->fast.sticky_issued = h->issued;
                    sys->fast.sticky_gap = q.gap;
                }
            }
            c = &q.contexts[id];
            if (sticky) {
                /* The same context issues until an instruction asks for attention, its PC in a
                 * register; its counts are brought up to date when it stops. */
                h->next_pc = c->pc;
                c->pc = PC_IN_LOOP;                      /* h->pc is the context's PC meanwhile */
                h->context = (uint32_t)id;
                after = burst(sys, h, dcache, ncode, clock, limit, q.gap);
                const uint64_t pc = h->next_pc;
                if (!h->attention) {
                    c->pc = pc;
                    if (after == clock) {                /* a PC outside the code memory */
                        if (c->ready_at < clock) c->ready_at = clock;
                        break;                           /* the general path raises the exception */
                    }
                    clock = after;
                    if (pc >= ncode) {
                        if (c->ready_at < clock) c->ready_at = clock;
                        if (clock > limit) clock = limit;
                        break;
                    }
                    continue;                            /* at the limit: the loop ends */
                }
            } else {
                const uint64_t pc = c->pc;
                if (ISK_UNLIKELY(pc >= ncode)) break;    /* the general path raises the exception */
                h->context = (uint32_t)id;
                h->pc = pc;
                h->next_pc = pc + 1;
                h->clock = sys->clock = clock;           /* the engine's services read the system's clock */
                dcache[pc].fn(h, dcache[pc].op);
                count_issue(h, c, clock);
                after = issued(&q, (uint32_t)id, clock);
                if (ISK_LIKELY(!h->attention)) {
                    c->pc = h->next_pc;
                    clock = after;
                    continue;
                }
            }
        }
        /* the instruction at h->clock asked for attention */
    attention:
        if (sticky) sync_sticky(sys);
        if (moves_on(c)) c->pc = h->next_pc;
        if (c->ready_at < after) c->ready_at = after;
        if (fast_loop_must_leave(sys, p)) {
            if (takes_pick) p->quiet_until = after;
            mid_clock = true;
            break;
        }
        h->attention = 0;
        atomic_signal_fence(memory_order_seq_cst);
        sched_changed(&q, changed);                  /* the live set may have changed */
        limit = sys->run_until;                      /* and the run may have been asked to stop */
        id = -1;
        clock = after;
    }
    if (sticky) {
        sync_sticky(sys);
        sys->fast.sticky = NULL;
    }
    if (!mid_clock) {
        /* A sticky scheduler did not record the last issue's cost: the context is busy until
         * then, which may be past the run's limit (the run still ends at the limit). */
        if (sticky && id >= 0 && q.contexts[id].ready_at < clock) q.contexts[id].ready_at = clock;
        /* the last issue's `after` (a run that ended before it, or issued nothing, keeps it) */
        if (takes_pick && p->quiet_until < clock) p->quiet_until = clock;
        if (clock > limit) clock = limit;
    }
    if (!p->sched_dirty) p->sched = q;
    p->sched_dirty = false;
    leave_fast_loop(sys, p, mid_clock ? h->clock : clock, issued_before, mid_clock);
}

/* The model's own loop (PROCESSOR .burst), which issues every `cpi` clocks. */
static __attribute__((noinline)) uint64_t burst_model(isk_system *sys, isk_hdr *h, const isk_decoded *dcache,
                                                      uint64_t ncode, uint64_t after, uint64_t limit, uint64_t gap)
{
    (void)gap;
    return ((isk_inst *)h->engine)->model->proc.burst(h, dcache, ncode, after, limit, &sys->clock);
}

static __attribute__((noinline)) void run_cpi(isk_system *sys, isk_inst *p)
{
    const uint64_t gap = p->sched.gap;
    burst_fn *burst = p->model->proc.burst && gap == (uint64_t)p->model->proc.cpi ? burst_model
                      : gap == 1 ? burst_gap1 : gap == 2 ? burst_gap2 : burst_gap;
    issue_loop(sys, p, isk_cpi_pick, isk_cpi_issued, isk_cpi_next, NULL, ISK_CPI_STICKY ? burst : NULL, NULL, 0, false, NULL);
}
static __attribute__((noinline)) void run_revolver(isk_system *sys, isk_inst *p)
{
    issue_loop(sys, p, isk_revolver_pick, isk_revolver_issued, isk_revolver_next, NULL, NULL,
               p->sched.gap == 1 ? circle_gap1 : circle_gap, 1, false, NULL);
}
static __attribute__((noinline)) void run_barrel(isk_system *sys, isk_inst *p)
{
    issue_loop(sys, p, isk_barrel_pick, isk_barrel_issued, isk_barrel_next, NULL, NULL, NULL, 1, false, NULL);
}
static __attribute__((noinline)) void run_model_scheduler(isk_system *sys, isk_inst *p)
{
    const isk_scheduler *s = p->sched.policy;
    if (s->run) issue_loop(sys, p, s->pick, s->issued, s->next, s->changed, NULL, NULL, s->idle_counts, true, s->run);
    else issue_loop(sys, p, s->pick, s->issued, s->next, s->changed, NULL, NULL, s->idle_counts, true, NULL);
}

void isk_run_alone(isk_system *sys, isk_inst *p)
{
    switch (p->issue) {
    case ISK_ISSUE_CPI: run_cpi(sys, p); break;
    case ISK_ISSUE_REVOLVER: run_revolver(sys, p); break;
    case ISK_ISSUE_BARREL: run_barrel(sys, p); break;
    default: run_model_scheduler(sys, p); break;
    }
}

/* A fault left a fast loop by longjmp in the middle of an instruction (issued at sys->clock,
 * not counted, as on the general path): count what it had done. */
void isk_settle_fast_loop_after_fault(isk_system *sys)
{
    isk_inst *p = sys->fast.proc;
    isk_context *c = sys->fast.sticky;
    if (c) {   /* as the general path leaves it: the fault's instruction is not counted */
        c->pc = p->hdr->pc;                              /* its PC was in a register */
        c->insns = sys->fast.sticky_base + p->hdr->issued;
        sync_sticky_before(sys, c);
        sys->fast.sticky = NULL;
    }
    if (p->hdr->ops == &isk_engine_ops_clocked) {   /* a crash, which made no call that brought the clock */
        isk_bring_clock(sys);
        p->hdr->ops = &isk_engine_ops;
    }
    if (sys->fast.steady_gap) steady_settle(sys, p->contexts, sys->clock);   /* the fault's issue uncounted */
    p->hdr->issued = isk_issued(p->hdr);                 /* a steady round's bias: the count before the fault's */
    p->hdr->issued_per_clock = 0;
    const uint64_t issued = p->hdr->issued - sys->fast.issued_before;
    p->stats.instructions += issued;
    sys->stats.instructions += issued;
    sys->stats.clocks += sys->clock - sys->fast.start;
    sys->cur_inst = NULL;
    sys->fast.proc = NULL;
}

/* ---- exceptions, exits, breakpoints -------------------------------------------------------------- */

void isk_engine_exception(isk_hdr *h, int cause, const char *message)
{
    isk_inst *p = h->engine;
    isk_system *sys = p->sys;
    if (!p->model->on_exception || sys->cur_slot >= 0) isk_op_fault(h, 0, message);
    sys->stats.exceptions++;
    p->stats.exceptions++;
    if (isk_listening(sys, ISK_EV_EXCEPTION))
        isk_emit(sys, &(isk_event){ .kind = ISK_EV_EXCEPTION, .inst = p, .slot = -1, .context = h->context,
                                    .pc = h->pc, .cause = cause, .text = message });
    h->attention = 1;
    p->model->on_exception(h, cause, message);
}

void isk_op_exception(isk_hdr *h, int cause, const char *message)
{
    isk_inst *p = h->engine;
    if (!p->contexts || p->sys->cur_inst != p || p->sys->cur_slot >= 0)
        isk_op_fault(h, 0, "RAISE outside a processor instruction");
    isk_engine_exception(h, cause, message);
}

void isk_op_exit_context(isk_hdr *h, uint32_t id, int status, const char *message)
{
    isk_inst *p = h->engine;
    isk_system *sys = p->sys;
    if (!p->contexts || id >= h->ncontexts) isk_op_fault(h, 0, "EXIT_CONTEXT of a context the processor lacks");
    isk_context *c = &p->contexts[id];
    isk_sync_fast_counts(sys);                   /* its pc, if a fast loop holds it */
    c->state = ISK_CTX_EXITED;
    c->exit_status = status;
    h->attention = 1;
    isk_report(sys, ISK_WARNING, "clock %llu: %s context %u exits with status %d at pc 0x%llx: %s",
               (unsigned long long)sys->clock, p->name, id, status, (unsigned long long)c->pc, message);
}

void isk_break(isk_system *sys, const char *message)
{
    sys->stop_now = true;
    isk_queue_leave(sys);
    snprintf(sys->stop_reason, sizeof sys->stop_reason, "%s", message);
}

void isk_op_breakpoint(isk_hdr *h, const char *message)
{
    isk_inst *p = h->engine;
    isk_describe_queued(p->sys);   /* a queued command's slot names it only when asked */
    if (p->sys->cur_inst == p && p->sys->cur_slot >= 0 && isk_command_inert(p, p->sys->cur_slot))
        isk_op_fault(h, 0, "a breakpoint (a stop of the run) in a command declared inert (INSTRUCTION .inert)");
    char at[200], reason[480];
    isk_describe_where(p->sys, p, at, sizeof at);
    snprintf(reason, sizeof reason, "%s: breakpoint%s%s", at, *message ? ": " : "", message);
    isk_break(p->sys, reason);
    h->attention = 1;
}

/* ---- interrupt lines -------------------------------------------------------------------------- */

void isk_deliver_line(isk_inst *p, int line)
{
    isk_hdr *h = p->hdr;
    const uint32_t bit = UINT32_C(1) << (line & 31);
    h->lines |= bit;
    if (isk_listening(p->sys, ISK_EV_INTERRUPT))
        isk_emit(p->sys, &(isk_event){ .kind = ISK_EV_INTERRUPT, .inst = p, .slot = -1, .line = line & 31,
                                       .text = "input" });
    for (uint32_t id = 0; id < h->ncontexts; id++) {
        isk_context *c = &p->contexts[id];
        if (c->state == ISK_CTX_SLEEPING && (c->wake_lines & bit)) {
            c->state = ISK_CTX_RUNNING;
            if (c->ready_at < p->sys->clock + 1) c->ready_at = p->sys->clock + 1;
        }
    }
    p->sched_stale = true;
    h->attention = 1;
}

