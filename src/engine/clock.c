/* The clock: one loop drives the driver (the host's stand-in), the processors and the
 * accelerators' slots, then commits the writes whose latency has elapsed.
 *
 * Order within clock k (docs/semantics.md):
 *   1. the driver runs (it may launch commands: they start in clock k);
 *   2. each processor issues at most one instruction (it may launch commands);
 *   3. each accelerator runs one step of every active slot, oldest launch first;
 *   4. writes due at k+1 become visible, slots whose command ended are freed, k += 1.
 *
 * Multi-clock behaviours. A command's first clock runs on the engine's own stack with no switch
 * at all. FinishCycle() only arms a trap; if the behaviour then returns, the command took one
 * clock. If it instead touches storage again (it has work for the next clock), the trap fires:
 * the command keeps the stack it is running on, and the engine continues the clock loop on a
 * fresh stack (the loop's position lives in the system, not in C locals). From then on the
 * command is resumed each clock by an ordinary switch. When it finally returns, it returns into
 * the engine frame that first called it, which hands control back to the live engine.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/system.h"

/* ---- stacks ---------------------------------------------------------------------------- */

isk_stack isk_take_stack(isk_system *sys)
{
    if (sys->spare_stacks.len) return sys->spare_stacks.data[--sys->spare_stacks.len];
    isk_stack s;
    size_t size = sys->opt.stack_size ? sys->opt.stack_size : ISK_DEFAULT_STACK_SIZE;
    if (isk_stack_alloc(&s, size) != 0) {
        fprintf(stderr, "isekit: cannot allocate a %zu-byte stack for a command\n", size);
        abort();
    }
    return s;
}

static void put_back_recycled(isk_system *sys)
{
    if (!sys->recycle.lo) return;
    VEC_PUSH(&sys->spare_stacks, sys->recycle);
    memset(&sys->recycle, 0, sizeof sys->recycle);
}

/* ---- stopping: faults and conflicts ----------------------------------------------------- */

/* Abandon the behaviour that is running now (after its error was reported, or from guard.c's
 * signal handler, which reports it afterwards). */
ISK_NORETURN void isk_abandon_behaviour(isk_system *sys)
{
    isk_inst *inst = sys->cur_inst;
    if (inst && sys->cur_slot >= 0) {
        isk_slot *slot = &inst->slots[sys->cur_slot];
        if (slot->state == SLOT_ON_OWN) {
            /* On the command's own stack: give it back and resume the engine. */
            slot->state = SLOT_DONE;
            sys->recycle = slot->stack;
            memset(&slot->stack, 0, sizeof slot->stack);
            isk_coro_jump(&sys->engine);
        }
        slot->state = SLOT_DONE;
    }
    if (!sys->fault_jmp) {
        fprintf(stderr, "isekit: %s (outside a clock; aborting)\n", sys->last_error);
        abort();
    }
    longjmp(*sys->fault_jmp, 1);
}

static ISK_NORETURN void stop_with(isk_system *sys, isk_status status, const char *msg)
{
    if (sys->status == ISK_OK) sys->status = status;
    isk_report(sys, ISK_ERROR, "%s", msg);
    isk_abandon_behaviour(sys);
}

/* "clock 12, acc0 slot 1 (MAC_LREG_GREG)" or "clock 12, dpu thread 3, pc 0x1a" */
static void where(isk_system *sys, isk_inst *inst, char *out, size_t cap)
{
    char who[160];
    isk_describe_actor(inst, inst == sys->cur_inst ? sys->cur_slot : -1, who, sizeof who);
    snprintf(out, cap, "clock %llu, %s", (unsigned long long)sys->clock, who);
}

static ISK_NORETURN void op_fault(isk_hdr *h, int code, const char *message)
{
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    char at[200], msg[700];
    where(sys, inst, at, sizeof at);
    if (code) snprintf(msg, sizeof msg, "%s: %s (fault code %d)", at, message, code);
    else snprintf(msg, sizeof msg, "%s: %s", at, message);
    if (inst->contexts && sys->cur_slot < 0) inst->contexts[h->context].state = ISK_CTX_FAULTED;
    stop_with(sys, ISK_FAULT, msg);
}

static ISK_NORETURN void op_index_fault(isk_hdr *h, const char *storage, int64_t index, uint64_t count)
{
    char message[200];
    snprintf(message, sizeof message, "index %lld is outside %s (%llu cells)", (long long)index, storage,
             (unsigned long long)count);
    op_fault(h, 0, message);
}

/* ---- clock boundaries (FinishCycle) ------------------------------------------------------ */

void isk_engine_main(void *arg)
{
    isk_system *sys = arg;
    isk_clock_run(sys);
    isk_coro_jump(&sys->caller);
}

static void op_boundary(isk_hdr *h)
{
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    if (sys->cur_inst != inst || sys->cur_slot < 0) {
        h->trap = 0;
        op_fault(h, 0, "FinishCycle() inside a processor instruction: processor instructions take one issue; "
                       "model longer ones with BLOCK_FOR()");
    }
    isk_slot *slot = &inst->slots[sys->cur_slot];
    if (slot->state == SLOT_ON_ENGINE) {
        /* The command keeps this stack; the engine carries on from a fresh one. */
        slot->stack = sys->cur_stack;
        slot->ctx.stack_lo = slot->stack.lo;
        slot->ctx.stack_size = slot->stack.size;
        slot->state = SLOT_SUSPENDED;
        sys->cur_stack = isk_take_stack(sys);
        isk_coro_start(&slot->ctx, &sys->cur_stack, isk_engine_main, sys);
    } else {
        slot->state = SLOT_SUSPENDED;
        isk_coro_switch(&slot->ctx, &sys->engine);
    }
    /* Resumed by run_slot in a later clock, which has set the clock and cleared the trap. */
}

/* ---- writes: latency and CREW ---------------------------------------------------------- */

static void crew_conflict(isk_system *sys, isk_inst *first, int first_slot, isk_inst *inst, void *cell)
{
    char cellname[160] = "a cell", one[160], two[160], msg[700];
    int s;
    uint64_t index;
    if (isk_cell_location(inst, cell, &s, &index))
        isk_describe_cell(inst, inst->model->storages.data[s].info.name, index, true, cellname, sizeof cellname);
    isk_describe_actor(first, first_slot, one, sizeof one);
    isk_describe_actor(inst, inst == sys->cur_inst ? sys->cur_slot : -1, two, sizeof two);
    snprintf(msg, sizeof msg, "clock %llu: CREW conflict: %s written twice in one clock, by %s and by %s",
             (unsigned long long)sys->clock, cellname, one, two);
    sys->stats.crew_conflicts++;
    inst->stats.crew_conflicts++;
    if (!sys->opt.conflicts_are_warnings) stop_with(sys, ISK_CONFLICT, msg);
    isk_report(sys, ISK_WARNING, "%s", msg);
}

/* Concurrent read, exclusive write: one write per cell and clock. A cell has one latency, so
 * the writes of this clock to it are exactly those in the bucket due `latency` clocks later:
 * the queue itself is the log (a handful of entries, scanned linearly). Checked latency-0
 * writes, which have no bucket, use a separate log emptied every clock. */
static write_bucket *bucket_due(isk_system *sys, unsigned latency)
{
    return &sys->ring[(sys->clock + latency) % WRITE_RING];
}

static bool bucket_holds(const write_bucket *due, const void *cell)
{
    for (size_t i = 0; i < due->len; i++)
        if (due->data[i].cell == cell) return true;
    return false;
}

static void queue_write(isk_hdr *h, write_bucket *due, void *cell, int64_t value, unsigned how)
{
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    pending_write *w = &due->data[due->len++];
    w->cell = cell;
    w->value = value;
    w->inst = inst;
    w->slot = sys->cur_slot;
    w->bytes = (uint16_t)((how >> 8) & 0xff);
    w->code = (uint16_t)(how >> 16);
    sys->pending++;
    h->attention = 1;
}

static void write_now(isk_hdr *h, void *cell, int64_t value, unsigned how)
{
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    if (h->checking) {
        for (size_t i = 0; i < sys->crew.len; i++)
            if (ISK_UNLIKELY(sys->crew.data[i].cell == cell))
                crew_conflict(sys, sys->crew.data[i].inst, sys->crew.data[i].slot, inst, cell);
        VEC_PUSH(&sys->crew, ((crew_entry){ cell, inst, sys->cur_slot }));
    }
    isk_cell_write_raw(cell, (int)(how >> 8) & 0xff, value);
    if (how & ISK_WRITE_CODE) {
        int s;
        uint64_t index;
        if (isk_cell_location(inst, cell, &s, &index)) isk_invalidate_code(inst, index);
    }
}

/* Everything but a plain queued write: latency 0, a conflict, a full bucket. */
static __attribute__((noinline)) void write_slow(isk_hdr *h, void *cell, int64_t value, unsigned how)
{
    unsigned latency = how & 0xff;
    if (latency == 0) {
        write_now(h, cell, value, how);
        return;
    }
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    write_bucket *due = bucket_due(sys, latency);
    if (h->checking)
        for (size_t i = 0; i < due->len; i++)
            if (due->data[i].cell == cell) crew_conflict(sys, due->data[i].inst, due->data[i].slot, inst, cell);
    VEC_RESERVE(due, 1);
    queue_write(h, due, cell, value, how);
}

/* The common path calls nothing, so that it needs no stack frame. */
static void op_write(isk_hdr *h, void *cell, int64_t value, unsigned how)
{
    unsigned latency = how & 0xff;
    write_bucket *due = bucket_due(((isk_inst *)h->engine)->sys, latency);
    if (ISK_UNLIKELY(latency == 0 || due->len == due->cap || (h->checking && bucket_holds(due, cell)))) {
        write_slow(h, cell, value, how);
        return;
    }
    queue_write(h, due, cell, value, how);
}

static void trace_write(isk_system *sys, const pending_write *w)
{
    int s;
    uint64_t index;
    char cell[160];
    if (!isk_cell_location(w->inst, w->cell, &s, &index)) return;
    isk_describe_cell(w->inst, w->inst->model->storages.data[s].info.name, index, false, cell, sizeof cell);
    isk_trace(sys, w->inst, "%s = %lld", cell, (long long)w->value);
}

static void commit_writes(isk_system *sys)
{
    write_bucket *due = bucket_due(sys, 1);
    for (size_t i = 0; i < due->len; i++) {
        const pending_write *w = &due->data[i];
        isk_cell_write_raw(w->cell, w->bytes, w->value);
        if (ISK_UNLIKELY(w->code)) {
            int s;
            uint64_t index;
            if (isk_cell_location(w->inst, w->cell, &s, &index)) isk_invalidate_code(w->inst, index);
        }
        if (ISK_UNLIKELY(sys->opt.trace != NULL)) trace_write(sys, w);
    }
    sys->stats.writes += due->len;
    sys->pending -= due->len;
    due->len = 0;
    sys->crew.len = 0;
}

/* ---- resources and interrupts ------------------------------------------------------------ */

static const char *resource_name(const isk_model *m, uint64_t bit)
{
    for (size_t i = 0; i < m->resources.len; i++)
        if (m->resources.data[i].mask == bit) return m->resources.data[i].name;
    return NULL;
}

static void op_use_resources(isk_hdr *h, uint64_t mask)
{
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    int slot = inst == sys->cur_inst ? sys->cur_slot : -1;
    if (inst->resources_clock != sys->clock) {
        inst->resources_used = 0;
        inst->resources_clock = sys->clock;
    }
    uint64_t clash = inst->resources_used & mask;
    if (ISK_UNLIKELY(clash)) {
        uint64_t bit = clash & -clash;
        const char *rname = resource_name(inst->model, bit);
        char first[160], second[160], msg[700];
        isk_describe_actor(inst, inst->resource_slot[__builtin_ctzll(bit)], first, sizeof first);
        isk_describe_actor(inst, slot, second, sizeof second);
        snprintf(msg, sizeof msg, "clock %llu: resource clash in %s: %s uses resource bits 0x%llx%s%s%s, already used "
                 "in this clock by %s", (unsigned long long)sys->clock, inst->name, second,
                 (unsigned long long)clash, rname ? " (" : "", rname ? rname : "", rname ? ")" : "", first);
        sys->stats.resource_clashes++;
        inst->stats.resource_clashes++;
        if (!sys->opt.conflicts_are_warnings) stop_with(sys, ISK_CONFLICT, msg);
        isk_report(sys, ISK_WARNING, "%s", msg);
    }
    for (uint64_t bits = mask & ~inst->resources_used; bits; bits &= bits - 1) {
        int b = __builtin_ctzll(bits);
        sys->stats.resource_clocks[b]++;
        inst->stats.resource_clocks[b]++;
        inst->resource_slot[b] = slot;
    }
    inst->resources_used |= mask;
}

static void op_interrupt(isk_hdr *h, int line)
{
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    sys->interrupts++;
    sys->interrupt_from = inst;
    sys->stats.interrupts++;
    inst->stats.interrupts++;
    if (sys->opt.trace) isk_trace(sys, inst, "interrupt line %d raised", line);
}

/* ---- launches ------------------------------------------------------------------------------ */

static __attribute__((noinline)) const isk_decoded *decode_launch_miss(isk_inst *a, uint64_t word, unsigned h)
{
    if (!a->nslots) return NULL;
    isk_decoded d = { 0 };
    d.pattern = isk_model_decode(a->model, word, d.op);
    if (d.pattern < 0) return NULL;
    d.fn = a->model->patterns.data[d.pattern].beh->fn;
    /* Commands still using the entry about to be replaced keep a copy of their own. */
    for (int s = 0; s < a->nslots; s++)
        if (a->slots[s].state != SLOT_FREE && a->slots[s].d == &a->launch_cache[h].d) {
            a->slots[s].own = a->launch_cache[h].d;
            a->slots[s].d = &a->slots[s].own;
        }
    a->launch_cache[h].word = word;
    a->launch_cache[h].valid = true;
    a->launch_cache[h].d = d;
    return &a->launch_cache[h].d;
}

/* Launch words are decoded once and kept in a small direct-mapped cache per instance. */
static inline const isk_decoded *decode_launch(isk_inst *a, uint64_t word)
{
    unsigned h = (unsigned)((word * UINT64_C(0x9e3779b97f4a7c15)) >> 58) % LAUNCH_CACHE;
    if (ISK_LIKELY(a->launch_cache[h].valid && a->launch_cache[h].word == word)) return &a->launch_cache[h].d;
    return decode_launch_miss(a, word, h);
}

static __attribute__((noinline)) void trace_launch(isk_system *sys, isk_inst *a, const isk_slot *slot)
{
    isk_trace(sys, a, "launch %s (0x%0*llx) in slot %d", a->model->patterns.data[slot->d->pattern].beh->name,
              (a->model->word_bits + 3) / 4, (unsigned long long)slot->word, (int)(slot - a->slots));
}

static __attribute__((noinline)) isk_status launch_error(isk_system *sys, isk_inst *a, uint64_t word, int pattern)
{
    int digits = (a->model->word_bits + 3) / 4;
    if (!a->nslots) {
        isk_report(sys, ISK_ERROR, "clock %llu: %s is not an accelerator (model '%s' declares no SLOTS)",
                   (unsigned long long)sys->clock, a->name, a->model->name);
        return sys->status = ISK_FAILED;
    }
    if (pattern < 0) {
        isk_report(sys, ISK_ERROR, "clock %llu: %s: no instruction format of '%s' accepts the word 0x%0*llx",
                   (unsigned long long)sys->clock, a->name, a->model->name, digits, (unsigned long long)word);
        return sys->status = ISK_FAULT;
    }
    isk_report(sys, ISK_ERROR, "clock %llu: %s: no free slot for %s (word 0x%0*llx): all %d slots are busy",
               (unsigned long long)sys->clock, a->name, a->model->patterns.data[pattern].beh->name, digits,
               (unsigned long long)word, a->nslots);
    return sys->status = ISK_CONFLICT;
}

isk_status isk_do_launch(isk_system *sys, isk_inst *a, uint64_t word)
{
    if (ISK_UNLIKELY(sys->status != ISK_OK)) return sys->status;
    const isk_decoded *d = decode_launch(a, word);
    if (ISK_UNLIKELY(!d || a->norder == a->nslots)) return launch_error(sys, a, word, d ? d->pattern : -1);
    int s = 0;
    while (a->slots[s].state != SLOT_FREE) s++;
    isk_slot *slot = &a->slots[s];
    slot->state = SLOT_FRESH;
    slot->word = word;
    slot->started = sys->clock;
    slot->d = d;
    a->order[a->norder++] = s;
    sys->busy_slots++;
    if (ISK_UNLIKELY(a->norder > a->stats.max_busy_slots)) a->stats.max_busy_slots = a->norder;
    if (ISK_UNLIKELY(sys->busy_slots > sys->stats.max_busy_slots)) sys->stats.max_busy_slots = sys->busy_slots;
    sys->stats.launches++;
    a->stats.launches++;
    if (ISK_UNLIKELY(sys->opt.trace != NULL)) trace_launch(sys, a, slot);
    return ISK_OK;
}

static void op_launch(isk_hdr *h, int number, uint64_t word)
{
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    if (number < 0 || (size_t)number >= sys->by_number.len || !sys->by_number.data[number]) {
        char message[120];
        snprintf(message, sizeof message, "LAUNCH to accelerator %d, which is not attached", number);
        op_fault(h, 0, message);
    }
    if (isk_do_launch(sys, sys->by_number.data[number], word) != ISK_OK) isk_abandon_behaviour(sys);
    h->attention = 1;
}

/* ---- slots ------------------------------------------------------------------------------- */

static __attribute__((noinline)) void trace_end(isk_system *sys, isk_inst *a, const isk_slot *slot,
                                                uint64_t clocks)
{
    isk_trace(sys, a, "slot %d: %s ends after %llu clock(s)", (int)(slot - a->slots),
              a->model->patterns.data[slot->d->pattern].beh->name, (unsigned long long)clocks);
}

static void end_command(isk_system *sys, isk_inst *a, isk_slot *slot)
{
    slot->state = SLOT_DONE;
    sys->ended_slots++;
    uint64_t clocks = sys->clock - slot->started + 1;
    sys->stats.commands_done++;
    a->stats.commands_done++;
    sys->stats.slot_clocks += clocks;
    a->stats.slot_clocks += clocks;
    if (ISK_UNLIKELY(sys->opt.trace != NULL)) trace_end(sys, a, slot, clocks);
}

static void run_slot(isk_system *sys, isk_inst *a, int s)
{
    isk_slot *slot = &a->slots[s];
    isk_hdr *h = a->hdr;
    sys->cur_inst = a;
    sys->cur_slot = s;
    h->clock = sys->clock;
    h->checking = 1;
    h->trap = 0;                 /* the trap of the slot that ran before belongs to that slot */
    if (slot->state == SLOT_FRESH) {
        slot->state = SLOT_ON_ENGINE;
        slot->d->fn(h, slot->d->op);
        h->trap = 0;
        if (slot->stack.lo) {
            /* This frame lives on the stack the command took: the live engine resumed the
             * command in this clock and waits for it in the branch below. */
            end_command(sys, a, slot);
            sys->recycle = slot->stack;
            memset(&slot->stack, 0, sizeof slot->stack);
            h->checking = 0;
            isk_coro_jump(&sys->engine);
        }
        end_command(sys, a, slot);
    } else if (slot->state == SLOT_SUSPENDED) {
        sys->engine.stack_lo = sys->cur_stack.lo;
        sys->engine.stack_size = sys->cur_stack.size;
        slot->state = SLOT_ON_OWN;
        isk_coro_switch(&sys->engine, &slot->ctx);
        h->trap = 0;
        put_back_recycled(sys);
    }
    h->checking = 0;
    sys->cur_inst = NULL;
    sys->cur_slot = -1;
}

/* Free the slots whose command ended this clock, keeping the others in launch order. */
static void retire_slots(isk_system *sys, isk_inst *a)
{
    int kept = 0;
    for (int i = 0; i < a->norder; i++) {
        isk_slot *slot = &a->slots[a->order[i]];
        if (slot->state == SLOT_DONE) {
            slot->state = SLOT_FREE;
            sys->busy_slots--;
            sys->ended_slots--;
        } else {
            a->order[kept++] = a->order[i];
        }
    }
    a->norder = kept;
}

/* ---- processors -------------------------------------------------------------------------- */

void isk_decode_miss(isk_hdr *h, const int64_t *op)
{
    (void)op;
    isk_inst *p = h->engine;
    uint64_t pc = h->pc;
    const isk_storage *code = &p->model->storages.data[p->model->code_storage];
    uint64_t word = isk_cell_read_raw((char *)p->buffers[p->model->code_storage] + pc * (uint64_t)code->cell_bytes,
                                      code->cell_bytes);
    isk_decoded *d = &p->dcache[pc];
    int pattern = isk_model_decode(p->model, word, d->op);
    if (pattern < 0) {
        char message[120];
        snprintf(message, sizeof message, "illegal instruction 0x%0*llx", (p->model->word_bits + 3) / 4,
                 (unsigned long long)word);
        op_fault(h, 0, message);
    }
    d->pattern = pattern;
    d->fn = p->model->patterns.data[pattern].beh->fn;
    d->fn(h, d->op);
}

static bool ready(const isk_context *c, uint64_t clock)
{
    return (c->state == ISK_CTX_RUNNING || c->state == ISK_CTX_BLOCKED) && c->ready_at <= clock;
}

static int pick_context(isk_inst *p, uint64_t clock)
{
    const isk_processor_decl *proc = &p->model->proc;
    uint32_t n = p->hdr->ncontexts;
    switch (proc->issue) {
    case ISK_ISSUE_BARREL: {
        uint32_t id = (uint32_t)(clock % n);
        return ready(&p->contexts[id], clock) ? (int)id : -1;
    }
    case ISK_ISSUE_REVOLVER:
        for (uint32_t k = 0, id = p->next_context; k < n; k++, id = id + 1 == n ? 0 : id + 1) {
            if (ready(&p->contexts[id], clock)) {
                p->next_context = id + 1 == n ? 0 : id + 1;
                return (int)id;
            }
        }
        return -1;
    default:
        return ready(&p->contexts[0], clock) ? 0 : -1;
    }
}

static void execute(isk_system *sys, isk_inst *p, int id)
{
    isk_hdr *h = p->hdr;
    isk_context *c = &p->contexts[id];
    const isk_processor_decl *proc = &p->model->proc;
    if (c->state == ISK_CTX_BLOCKED) c->state = ISK_CTX_RUNNING;
    h->context = (uint32_t)id;
    h->pc = c->pc;
    h->next_pc = c->pc + 1;
    h->clock = sys->clock;
    sys->cur_inst = p;
    sys->cur_slot = -1;
    if (c->pc >= p->ncode) {
        char message[120];
        snprintf(message, sizeof message, "pc 0x%llx is outside the code memory (%llu instructions)",
                 (unsigned long long)c->pc, (unsigned long long)p->ncode);
        op_fault(h, 0, message);
    }
    if (sys->opt.trace_issue) sys->opt.trace_issue(sys->opt.trace_user, sys->clock, p, (uint32_t)id, c->pc);
    isk_decoded *d = &p->dcache[c->pc];
    d->fn(h, d->op);
    if (c->state == ISK_CTX_RUNNING || c->state == ISK_CTX_BLOCKED) c->pc = h->next_pc;
    c->last_issue = sys->clock;
    c->insns++;
    p->stats.instructions++;
    sys->stats.instructions++;
    uint64_t gap = proc->issue == ISK_ISSUE_CPI ? (uint64_t)proc->cpi
                 : proc->issue == ISK_ISSUE_REVOLVER ? (uint64_t)proc->distance : 1;
    if (c->ready_at < sys->clock + gap) c->ready_at = sys->clock + gap;
    sys->cur_inst = NULL;
}

static bool driver_active(const isk_system *sys) { return sys->driver && !sys->driver_done; }

static bool processor_active(const isk_inst *p)
{
    for (uint32_t i = 0; i < p->hdr->ncontexts; i++)
        if (p->contexts[i].state == ISK_CTX_RUNNING || p->contexts[i].state == ISK_CTX_BLOCKED) return true;
    return false;
}

/* Nothing that acts by itself: no busy slot, no pending write, no running or blocked context. */
static bool quiescent(const isk_system *sys)
{
    if (sys->busy_slots || sys->pending) return false;
    for (size_t i = 0; i < sys->processors.len; i++)
        if (processor_active(sys->processors.data[i])) return false;
    return true;
}

/* A context sleeps and nothing can wake it (only a running context of its own processor can, or
 * the host): stop with an error naming every sleeping context. Checked when a processor idles
 * and when a run would finish, never on the issuing path. */
static __attribute__((noinline)) void check_deadlock(isk_system *sys)
{
    if (driver_active(sys) || !quiescent(sys)) return;
    char msg[700];
    int len = snprintf(msg, sizeof msg, "clock %llu: deadlock: ", (unsigned long long)sys->clock);
    int sleepers = 0;
    for (size_t i = 0; i < sys->processors.len; i++) {
        const isk_inst *p = sys->processors.data[i];
        for (uint32_t id = 0; id < p->hdr->ncontexts; id++) {
            const isk_context *c = &p->contexts[id];
            if (c->state != ISK_CTX_SLEEPING) continue;
            if (len < (int)sizeof msg)
                len += snprintf(msg + len, sizeof msg - (size_t)len, "%s%s context %u sleeps at pc 0x%llx",
                                sleepers ? ", " : "", p->name, id, (unsigned long long)c->pc);
            sleepers++;
        }
    }
    if (!sleepers) return;
    if (len < (int)sizeof msg)
        snprintf(msg + len, sizeof msg - (size_t)len, "; nothing can wake %s (no running context, busy slot, "
                 "pending write or driver)", sleepers > 1 ? "them" : "it");
    if (sys->status == ISK_OK) sys->status = ISK_FAULT;
    isk_report(sys, ISK_ERROR, "%s", msg);
}

static void issue(isk_system *sys, isk_inst *p)
{
    int id = pick_context(p, sys->clock);
    if (id >= 0) {
        execute(sys, p, id);
        return;
    }
    if (p->model->proc.issue != ISK_ISSUE_CPI) p->stats.idle_clocks++, sys->stats.idle_clocks++;
    if (!sys->busy_slots && !sys->pending) check_deadlock(sys);
}

/* The common case of a processor model running alone (no driver, no busy accelerator, no
 * write waiting for its latency): issue whole instructions back to back, advancing the clock
 * by the CPI, without the per-clock work. Leaves as soon as the situation changes. */
static bool runs_alone(const isk_system *sys)
{
    return sys->processors.len == 1 && !sys->opt.trace_issue && !(sys->driver && !sys->driver_done) &&
           !sys->pending && !sys->busy_slots &&
           (sys->processors.data[0]->model->proc.issue == ISK_ISSUE_CPI ||
            sys->processors.data[0]->model->proc.issue == ISK_ISSUE_REVOLVER);
}

/* A fast loop that began at `start` leaves before `clock`, having issued `issued` instructions. */
static void end_fast_loop(isk_system *sys, isk_inst *p, uint64_t start, uint64_t clock, uint64_t issued)
{
    p->stats.instructions += issued;
    sys->stats.instructions += issued;
    sys->stats.clocks += clock - start;
    sys->clock = clock;
    sys->cur_inst = NULL;
    sys->fast.proc = NULL;
}

/* The same for a REVOLVER processor (e.g. the DPU's threads): a mask of the running contexts,
 * re-read whenever an instruction sets h->attention (a context started, stopped, woken or
 * blocked, a queued write, a launch, a port access); the clocks in which no context is ready
 * are skipped at once, counted as idle. Clock by clock it does what begin_clock/issue/end_clock
 * would do. The system's instruction and clock counts are added when the loop leaves (as for
 * CPI), the contexts' own counts at each instruction. */
static uint64_t running_mask(const isk_context *ctx, uint32_t n)
{
    uint64_t m = 0;
    for (uint32_t id = 0; id < n; id++)
        m |= (uint64_t)(ctx[id].state == ISK_CTX_RUNNING || ctx[id].state == ISK_CTX_BLOCKED) << id;
    return m;
}

/* The first context of `candidates` from `next` round the circle that is ready, or 64. */
static inline uint32_t pick_in(const isk_context *ctx, uint64_t candidates, uint32_t next, uint64_t clock)
{
    for (int half = 0; half < 2; half++) {
        uint64_t m = half ? candidates & ((UINT64_C(1) << next) - 1) : candidates & (~UINT64_C(0) << next);
        for (; m; m &= m - 1) {
            uint32_t j = (uint32_t)__builtin_ctzll(m);
            if ((ctx[j].state == ISK_CTX_RUNNING || ctx[j].state == ISK_CTX_BLOCKED) && ctx[j].ready_at <= clock)
                return j;
        }
    }
    return 64;
}

/* Issue back to back, one instruction per clock, starting with context `id`, while the next
 * running context round the circle is ready. Kept small and out of line: few values live
 * across the indirect call, so they stay in registers. Returns the clock after the last issue
 * and leaves in *idp the context to look at next (64 if an instruction asked for attention). */
static __attribute__((noinline)) uint64_t revolver_burst(isk_system *sys, isk_inst *p, uint32_t *idp,
                                                         uint64_t clock, uint64_t limit, uint64_t running)
{
    isk_hdr *const h = p->hdr;
    isk_context *const ctx = p->contexts;
    const uint32_t n = h->ncontexts;
    const uint64_t distance = (uint64_t)p->model->proc.distance;
    uint32_t id = *idp;
    isk_context *c = &ctx[id];
    if (c->state == ISK_CTX_BLOCKED) c->state = ISK_CTX_RUNNING;
    for (;;) {
        const uint64_t pc = c->pc;
        if (ISK_UNLIKELY(pc >= p->ncode)) break;             /* the general path reports it */
        h->context = id;
        h->pc = pc;
        h->next_pc = pc + 1;
        h->clock = sys->clock = clock;                         /* the engine's services read it */
        p->dcache[pc].fn(h, p->dcache[pc].op);
        c->last_issue = clock;
        c->insns++;
        /* with distance 1 a context is ready again in the next clock anyway */
        if (distance > 1 && c->ready_at < clock + distance) c->ready_at = clock + distance;
        clock++;
        if (ISK_UNLIKELY(h->attention)) {
            if (c->state == ISK_CTX_RUNNING || c->state == ISK_CTX_BLOCKED) c->pc = h->next_pc;
            id = 64;
            break;
        }
        c->pc = h->next_pc;
        /* the common case: the next running context round the circle is ready now */
        const uint32_t next = id + 1 == n ? 0 : id + 1;
        const uint64_t m = running & (~UINT64_C(0) << next);
        id = (uint32_t)__builtin_ctzll(m ? m : running);
        c = &ctx[id];
        if (clock >= limit || c->state != ISK_CTX_RUNNING || c->ready_at > clock) break;
    }
    *idp = id;
    return clock;
}

static void run_alone_revolver(isk_system *sys, isk_inst *p)
{
    isk_context *const ctx = p->contexts;
    const uint32_t n = p->hdr->ncontexts;
    if (n > 64) return;                                 /* the general path */
    const uint64_t start = sys->clock;
    /* Attention is cleared before the limit is read (isk_request_stop lowers the limit, then
     * sets attention), here and after each burst that asked for attention. */
    p->hdr->attention = 0;
    atomic_signal_fence(memory_order_seq_cst);
    uint64_t limit = sys->run_until;
    uint64_t clock = start, running = running_mask(ctx, n), issued = 0;
    uint32_t next = p->next_context;
    sys->cur_inst = p;
    sys->cur_slot = -1;
    sys->fast.proc = p;
    sys->fast.start = start;
    sys->fast.idle = p->stats.idle_clocks;
    while (clock < limit) {
        uint32_t id = pick_in(ctx, running, next, clock);
        if (id == 64) {
            /* nothing ready: jump to the first clock at which something is, if anything runs */
            uint64_t first = UINT64_MAX;
            for (uint64_t m = running; m; m &= m - 1) {
                uint32_t j = (uint32_t)__builtin_ctzll(m);
                if ((ctx[j].state == ISK_CTX_RUNNING || ctx[j].state == ISK_CTX_BLOCKED) && ctx[j].ready_at < first)
                    first = ctx[j].ready_at;
            }
            if (first == UINT64_MAX) break;
            if (first > limit) first = limit;
            p->stats.idle_clocks += first - clock;
            sys->stats.idle_clocks += first - clock;
            clock = first;
            continue;
        }
        const uint64_t burst_start = clock;
        clock = revolver_burst(sys, p, &id, clock, limit, running);
        if (clock == burst_start) break;               /* a PC outside the code memory: the general path */
        issued += clock - burst_start;                 /* one instruction per clock of a burst */
        next = p->hdr->context + 1 == n ? 0 : p->hdr->context + 1;
        if (id == 64) {
            /* an instruction asked for attention */
            if (sys->pending || sys->busy_slots || sys->status != ISK_OK) break;
            p->hdr->attention = 0;
            atomic_signal_fence(memory_order_seq_cst);
            running = running_mask(ctx, n);            /* the running set may have changed */
            limit = sys->run_until;                    /* and the run may have been asked to stop */
        }
    }
    p->next_context = next;
    end_fast_loop(sys, p, start, clock, issued);
}

/* The counts of a CPI fast loop that began at `start` and stopped before `clock`, with `pc`
 * the next instruction and `last` the last one issued. */
static void settle_cpi(isk_system *sys, isk_inst *p, uint64_t start, uint64_t clock, uint64_t pc, uint64_t last)
{
    isk_context *c = &p->contexts[0];
    const uint64_t cpi = (uint64_t)p->model->proc.cpi;
    const uint64_t issued = (clock - start) / cpi;
    if (issued) {
        c->pc = c->state == ISK_CTX_RUNNING || c->state == ISK_CTX_BLOCKED ? pc : last;
        c->last_issue = clock - cpi;
        if (c->ready_at < clock) c->ready_at = clock;
        c->insns += issued;
    }
    /* An instruction may have asked the run to stop inside its own clocks (isk_stop_after_clock):
     * the system stops there; the context is busy until `clock` as on the general path. */
    end_fast_loop(sys, p, start, clock < sys->run_until ? clock : sys->run_until, issued);
}

static void run_alone(isk_system *sys, isk_inst *p)
{
    if (p->model->proc.issue == ISK_ISSUE_REVOLVER) {
        run_alone_revolver(sys, p);
        return;
    }
    isk_hdr *h = p->hdr;
    isk_context *c = &p->contexts[0];
    if (c->state != ISK_CTX_RUNNING || c->ready_at > sys->clock) return;
    const uint64_t cpi = (uint64_t)p->model->proc.cpi, ncode = p->ncode, start = sys->clock;
    isk_decoded *const dcache = p->dcache;
    /* Cleared before the limit is read: isk_request_stop lowers the limit, then sets attention. */
    h->attention = 0;
    atomic_signal_fence(memory_order_seq_cst);
    /* the clock by which the last whole instruction must have issued */
    const uint64_t end = sys->run_until > start ? start + (sys->run_until - start) / cpi * cpi : start;
    uint64_t clock = start, pc = c->pc;
    sys->cur_inst = p;
    sys->cur_slot = -1;
    sys->fast.proc = p;
    sys->fast.start = start;
    h->context = 0;
    /* One test per instruction: whatever needs a look (a context stopped or blocked, a queued
     * write, a launch, a port access) sets h->attention. A PC outside the code memory is left
     * to the general path, which reports it. */
    while (clock < end && pc < ncode) {
        h->pc = pc;
        h->next_pc = pc + 1;
        h->clock = sys->clock = clock;      /* the engine's services read the system's clock */
        dcache[pc].fn(h, dcache[pc].op);
        pc = h->next_pc;
        clock += cpi;
        if (ISK_UNLIKELY(h->attention)) break;
    }
    settle_cpi(sys, p, start, clock, pc, h->pc);
}

/* A fault left a fast loop by longjmp in the middle of an instruction (issued at sys->clock,
 * not counted, as on the general path): count what it had done. */
static void settle_fast_loop_after_fault(isk_system *sys)
{
    isk_inst *p = sys->fast.proc;
    if (p->model->proc.issue == ISK_ISSUE_REVOLVER) {
        /* one instruction in every clock of the loop that was not skipped as idle */
        uint64_t issued = sys->clock - sys->fast.start - (p->stats.idle_clocks - sys->fast.idle);
        end_fast_loop(sys, p, sys->fast.start, sys->clock, issued);
        return;
    }
    settle_cpi(sys, p, sys->fast.start, sys->clock, p->hdr->pc, p->hdr->pc);
}

/* ---- the loop ---------------------------------------------------------------------------- */

static bool finished(const isk_system *sys)
{
    if (driver_active(sys) || sys->pending) return false;
    for (size_t i = 0; i < sys->accelerators.len; i++)
        if (sys->accelerators.data[i]->norder) return false;
    for (size_t i = 0; i < sys->processors.len; i++)
        if (processor_active(sys->processors.data[i])) return false;
    return true;
}

/* The driver waits for a later clock (isk_driver_wait_until) and nothing else acts: skip to the
 * clock before it (or before the run's limit), counting the skipped clocks as idle. */
static __attribute__((noinline)) void skip_idle_clocks(isk_system *sys)
{
    if (!quiescent(sys)) return;
    uint64_t target = sys->driver_wait < sys->run_until ? sys->driver_wait : sys->run_until;
    if (target <= sys->clock + 1) return;
    uint64_t gap = target - 1 - sys->clock;
    for (size_t i = 0; i < sys->processors.len; i++) {
        isk_inst *p = sys->processors.data[i];
        if (p->model->proc.issue == ISK_ISSUE_CPI) continue;
        p->stats.idle_clocks += gap;
        sys->stats.idle_clocks += gap;
    }
    sys->stats.clocks += gap;
    sys->clock += gap;
}

static void begin_clock(isk_system *sys)
{
    if (driver_active(sys)) {
        if (ISK_UNLIKELY(sys->driver_wait > sys->clock)) {
            skip_idle_clocks(sys);   /* the driver is not called before its clock */
        } else {
            int r = sys->driver(sys->driver_user, sys);
            if (r > 0) sys->driver_done = true;
            if (r < 0 && sys->status == ISK_OK) {
                isk_report(sys, ISK_ERROR, "clock %llu: the driver stopped the run",
                           (unsigned long long)sys->clock);
                sys->status = ISK_FAILED;
            }
            if (sys->status != ISK_OK) return;
        }
    }
    for (size_t i = 0; i < sys->processors.len; i++) issue(sys, sys->processors.data[i]);
}

static void end_clock(isk_system *sys)
{
    commit_writes(sys);
    for (size_t i = 0; sys->ended_slots && i < sys->accelerators.len; i++) retire_slots(sys, sys->accelerators.data[i]);
    sys->clock++;
    sys->stats.clocks++;
}

/* The loop proper, kept out of isk_clock_run so that setjmp's restrictions on register use
 * do not slow it down. */
static __attribute__((noinline)) void clock_loop(isk_system *sys)
{
    while (sys->status == ISK_OK) {
        if (sys->phase == PHASE_BEGIN) {
            /* finished before the limit: a run that ends in its last allowed clock has ended */
            if (sys->run_to_end && finished(sys)) {
                if (sys->processors.len) check_deadlock(sys);
                sys->reached_end = true;
                break;
            }
            if (sys->clock >= sys->run_until) break;
            if (runs_alone(sys)) {
                uint64_t before = sys->clock;
                run_alone(sys, sys->processors.data[0]);
                if (sys->clock != before || sys->status != ISK_OK) continue;
            }
            begin_clock(sys);
            if (sys->status != ISK_OK) break;
            sys->phase = PHASE_SLOTS;
            sys->cur_acc = 0;
            sys->cur_order = 0;
        }
        if (sys->phase == PHASE_SLOTS) {
            if (!sys->busy_slots) sys->cur_acc = sys->accelerators.len;
            while (sys->cur_acc < sys->accelerators.len && sys->status == ISK_OK) {
                isk_inst *a = sys->accelerators.data[sys->cur_acc];
                if (sys->cur_order < a->norder) {
                    int s = a->order[sys->cur_order++];
                    run_slot(sys, a, s);
                    continue;
                }
                sys->cur_acc++;
                sys->cur_order = 0;
            }
            if (sys->status != ISK_OK) break;
            sys->phase = PHASE_END;
        }
        end_clock(sys);
        sys->phase = PHASE_BEGIN;
    }
}

void isk_clock_run(isk_system *sys)
{
    jmp_buf on_fault;
    sys->fault_jmp = &on_fault;
    if (setjmp(on_fault) == 0) clock_loop(sys);
    else if (sys->fast.proc) settle_fast_loop_after_fault(sys);
    if (ISK_UNLIKELY(sys->crashed)) isk_guard_report(sys);
    /* A behaviour on this stack stopped the run: a command (its slot was marked done) or an
     * instruction of a fast loop (settled just above). */
    sys->cur_inst = NULL;
    sys->cur_slot = -1;
    sys->fault_jmp = NULL;
}

static void op_invalidate(isk_hdr *h, uint64_t address) { isk_invalidate_code(h->engine, address); }

static void op_port_write(isk_hdr *h, uint64_t port, uint64_t value)
{
    isk_inst *inst = h->engine;
    h->attention = 1;          /* the handler may do anything, e.g. launch a command */
    if (inst->port_write) inst->port_write(inst->port_user, inst, port, value);
    else if (inst->sys->opt.trace)
        isk_trace(inst->sys, inst, "OUTPUT port 0x%llx = 0x%llx (no port handler)", (unsigned long long)port,
                  (unsigned long long)value);
}

static uint64_t op_port_read(isk_hdr *h, uint64_t port)
{
    isk_inst *inst = h->engine;
    h->attention = 1;
    return inst->port_read ? inst->port_read(inst->port_user, inst, port) : 0;
}

static void op_trace(isk_hdr *h, const char *message)
{
    isk_inst *inst = h->engine;
    if (inst->sys->opt.trace) isk_trace(inst->sys, inst, "%s", message);
}

static const char *op_param(isk_hdr *h, const char *key) { return isk_read_param(h->engine, key); }
static int64_t op_param_number(isk_hdr *h, const char *key) { return isk_read_param_number(h->engine, key); }

const struct isk_engine_ops isk_engine_ops = {
    .boundary = op_boundary,
    .write = op_write,
    .use_resources = op_use_resources,
    .interrupt = op_interrupt,
    .fault = op_fault,
    .index_fault = op_index_fault,
    .launch = op_launch,
    .invalidate_code = op_invalidate,
    .port_write = op_port_write,
    .port_read = op_port_read,
    .trace = op_trace,
    .param = op_param,
    .param_number = op_param_number,
};
