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
#include <assert.h>
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

static __attribute__((noinline)) void keep_recycled(isk_system *sys)
{
    VEC_PUSH(&sys->spare_stacks, sys->recycle);
    memset(&sys->recycle, 0, sizeof sys->recycle);
}

/* Tested inline: run_slot asks after every resumed command, and a stack is rarely given back. */
ISK_INLINE void put_back_recycled(isk_system *sys)
{
    if (ISK_UNLIKELY(sys->recycle.lo)) keep_recycled(sys);
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

/* The slotless loop (run_slotless) keeps slot 0 of its accelerator busy for the whole run but
 * does not write the running command into it per clock: what reports name (the command, its
 * word, its launch clock) is filled in here, from the queue, when asked. */
void isk_describe_queued(isk_system *sys)
{
    if (!sys->queue.acc) return;
    const isk_command *const c = sys->queue.cmds[sys->queue.next + (sys->clock - sys->queue.start)];
    isk_slot *const slot = &sys->queue.acc->slots[0];
    /* a promise (PromiseEnd) is the command's own: an earlier queued command's is void */
    if (slot->d != &c->d || slot->started != sys->clock) slot->end_at = UINT64_MAX;
    slot->word = c->word;
    slot->started = sys->clock;
    slot->d = &c->d;
}

/* The slotless loop (run_slotless) counts nothing per clock: what the clocks it ran since
 * queue.start did (each one command launched, run for its one clock and ended, and, but for the
 * queue.unwritten ones, one write committed from SET's inline entry) is added when it leaves,
 * also by a command that takes a stack of its own or faults (in_command: the command running
 * now was launched, not ended), so the counts are exact whenever anyone can read them. */
static __attribute__((noinline)) void settle_slotless(isk_system *sys, bool in_command)
{
    isk_inst *const a = sys->queue.acc;
    if (a->hdr->ops == &isk_engine_ops_clocked) a->hdr->ops = &isk_engine_ops;
    const uint64_t done = sys->clock - sys->queue.start;
    if (in_command) isk_describe_queued(sys);
    a->stats.launches += done + in_command;
    a->stats.commands_done += done;
    a->stats.slot_clocks += done;
    sys->stats.clocks += done;
    sys->stats.writes += done - sys->queue.unwritten;
    sys->queue.next += done + in_command;
    sys->queue.acc = NULL;
    if (sys->queue.next == sys->queue.len) sys->driver_done = true;   /* as its driver says */
}

/* "clock 12, acc0 slot 1 (MAC_LREG_GREG)" or "clock 12, dpu thread 3, pc 0x1a" */
void isk_describe_where(isk_system *sys, isk_inst *inst, char *out, size_t cap)
{
    char who[160];
    isk_describe_queued(sys);
    isk_describe_actor(inst, inst == sys->cur_inst ? sys->cur_slot : -1, who, sizeof who);
    snprintf(out, cap, "clock %llu, %s", (unsigned long long)sys->clock, who);
}

ISK_NORETURN void isk_op_fault(isk_hdr *h, int code, const char *message)
{
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    char at[200], msg[700];
    isk_describe_where(sys, inst, at, sizeof at);
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
    isk_op_fault(h, 0, message);
}

/* ---- clock boundaries (FinishCycle) ------------------------------------------------------ */

void isk_engine_main(void *arg)
{
    isk_system *sys = arg;
    isk_clock_run(sys);
    isk_coro_jump(&sys->caller);
}

/* FinishCycle() ran and the command touches storage again: suspend it until the next clock. */
static void take_boundary(isk_hdr *h)
{
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    if (sys->cur_inst != inst || sys->cur_slot < 0) {
        h->trap = inst->trap_rest;
        isk_op_fault(h, 0, "FinishCycle() inside a processor instruction: processor instructions take one issue; "
                       "model longer ones with BLOCK_FOR()");
    }
    isk_slot *slot = &inst->slots[sys->cur_slot];
    if (slot->state == SLOT_ON_ENGINE) {
        /* The command keeps this stack; the engine carries on from a fresh one. */
        if (sys->queue.acc) {   /* a queued command: from here, a slot */
            isk_queue_leave(sys);
            settle_slotless(sys, true);
        }
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

static void op_boundary(isk_hdr *h)
{
    /* the trap may be set only because reads are watched (isk_watch_reads) */
    if (h->trap & ISK_TRAP_BOUNDARY) take_boundary(h);
}

/* ---- writes: latency and CREW ---------------------------------------------------------- */

static void crew_conflict(isk_system *sys, isk_inst *first, int first_slot, isk_inst *inst, void *cell)
{
    char cellname[160] = "a cell", one[160], two[160], msg[700];
    int s;
    uint64_t index;
    if (isk_cell_location(inst, cell, &s, &index))
        isk_describe_cell(inst, inst->model->storages.data[s].info.name, index, true, cellname, sizeof cellname);
    isk_describe_queued(sys);
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

ISK_INLINE void queue_write(isk_hdr *h, write_bucket *due, void *cell, int64_t value, unsigned how)
{
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    pending_write *w = &due->data[due->len++];
    w->cell = cell;
    w->value = value;
    w->inst = inst;
    w->slot = sys->cur_slot;
    w->how = how;
    sys->pending++;
    h->attention = 1;
}

/* A cell of the code memory was written: its decoded entry goes too. */
static __attribute__((noinline)) void code_written(isk_inst *inst, const void *cell)
{
    int s;
    uint64_t index;
    if (isk_cell_location(inst, cell, &s, &index)) isk_invalidate_code(inst, index);
}

/* A latency-0 write made now. */
ISK_INLINE void store_now(isk_inst *inst, void *cell, int64_t value, unsigned how)
{
    isk_cell_write_raw(cell, (int)(how >> 8) & 0xff, value);
    if (how & ISK_WRITE_CODE) code_written(inst, cell);
}

/* Everything but a plain queued write: latency 0, a conflict, a full bucket. Commands' writes
 * are CREW-checked (their isk_hdr.checking is on); a processor's come here only in an issue
 * group, which holds its latency-0 writes to the group's end. */
static __attribute__((noinline)) void write_slow(isk_hdr *h, void *cell, int64_t value, unsigned how)
{
    unsigned latency = how & 0xff;
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    const bool command = sys->cur_slot >= 0;
    if (latency == 0) {
        if (command) {
            for (size_t i = 0; i < sys->crew.len; i++)
                if (ISK_UNLIKELY(sys->crew.data[i].cell == cell))
                    crew_conflict(sys, sys->crew.data[i].inst, sys->crew.data[i].slot, inst, cell);
            VEC_PUSH(&sys->crew, ((crew_entry){ cell, inst, sys->cur_slot }));
            h->attention = 1;   /* the log to empty at the clock's end (run_slotless tests this) */
        } else if (sys->grouping == inst) {
            VEC_PUSH(&sys->group_writes, ((group_write){ cell, value, how }));
            return;
        }
        store_now(inst, cell, value, how);
        return;
    }
    write_bucket *due = bucket_due(sys, latency);
    if (command)
        for (size_t i = 0; i < due->len; i++)
            if (due->data[i].cell == cell) crew_conflict(sys, due->data[i].inst, due->data[i].slot, inst, cell);
    VEC_RESERVE(due, 1);
    queue_write(h, due, cell, value, how);
}

/* An issue group's latency-0 writes, held back to its end (issue.c run_group), made in order. */
void isk_flush_group_writes(isk_system *sys, isk_inst *p)
{
    for (size_t i = 0; i < sys->group_writes.len; i++)
        store_now(p, sys->group_writes.data[i].cell, sys->group_writes.data[i].value, sys->group_writes.data[i].how);
    sys->group_writes.len = 0;
}

/* A latency-1 write that conflicts, finds the log full or is a command's first of the clock
 * (a model calling ops->write itself while SET's entry is armed, which this write now takes:
 * abi.h isk_hdr.inline_entry): every conflict reported (a command's), then appended (abi.h
 * isk_write_log). */
static __attribute__((noinline)) void log_write_slow(isk_hdr *h, void *cell, int64_t value, unsigned how)
{
    isk_inst *const inst = h->engine;
    isk_system *const sys = inst->sys;
    isk_write_log *const log = &sys->wlog;
    h->inline_entry = NULL;
    if (h->checking >= ISK_CHECKING_SLOT)
        for (size_t i = 0; i < log->len; i++)
            if (log->data[i].cell == cell) crew_conflict(sys, log->data[i].inst, log->data[i].slot, inst, cell);
    VEC_RESERVE(log, 1);
    log->data[log->len++] = (isk_write_entry){ cell, value, inst, sys->cur_slot, how };
    sys->pending++;
    h->attention = 1;
}

/* A latency-0 write: a command's logged for CREW (walked with a sentinel, as op_write's log), an
 * issue group's held back, any other made now; what needs more (a conflict, a full vector) is
 * write_slow's, which starts over: nothing here has changed yet. */
static __attribute__((noinline)) void write_now(isk_hdr *h, void *cell, int64_t value, unsigned how)
{
    isk_inst *const inst = h->engine;
    isk_system *const sys = inst->sys;
    const int slot = sys->cur_slot;
    if (slot >= 0) {
        const size_t n = sys->crew.len;
        if (ISK_UNLIKELY(n == sys->crew.cap)) goto slow;
        crew_entry *const e = sys->crew.data + n;
        e->cell = cell;
        const crew_entry *w = sys->crew.data;
        while (w->cell != cell) w++;
        if (ISK_UNLIKELY(w != e)) goto slow;
        e->inst = inst;
        e->slot = slot;
        sys->crew.len = n + 1;
        h->attention = 1;   /* the log to empty at the clock's end (run_slotless tests this) */
    } else if (sys->grouping == inst) {
        const size_t n = sys->group_writes.len;
        if (ISK_UNLIKELY(n == sys->group_writes.cap)) goto slow;
        sys->group_writes.data[n] = (group_write){ cell, value, how };
        sys->group_writes.len = n + 1;
        return;
    }
    store_now(inst, cell, value, how);
    return;
slow:
    write_slow(h, cell, value, how);
}

/* A write due in a later bucket (latency >= 2, a code cell): out of line, so that op_write's
 * latency-1 path keeps to the caller-saved registers. */
static __attribute__((noinline)) void bucket_write(isk_hdr *h, void *cell, int64_t value, unsigned how)
{
    write_bucket *const due = bucket_due(((isk_inst *)h->engine)->sys, how & 0xff);
    const size_t n = due->len;
    if (ISK_UNLIKELY(n == due->cap)) goto slow;
    if (h->checking)
        for (const pending_write *w = due->data, *end = w + n; w != end; w++)
            if (ISK_UNLIKELY(w->cell == cell)) goto slow;
    queue_write(h, due, cell, value, how);
    return;
slow:
    write_slow(h, cell, value, how);
}

/* The common path calls nothing, so that it needs no stack frame: a write to a latency-1 cell
 * that SET did not append itself, a command's checked against the few writes already in the
 * clock's log (CREW). The walk stops at the entry about to be written, whose cell is set first
 * (a sentinel: the log has room for it), so that it tests nothing but the cell. */
static void op_write(isk_hdr *h, void *cell, int64_t value, unsigned how)
{
    if (ISK_UNLIKELY((how & (0xff | ISK_WRITE_CODE)) != 1)) {
        if (how & 0xff)
            bucket_write(h, cell, value, how);
        else
            write_now(h, cell, value, how);
        return;
    }
    isk_system *const sys = ((isk_inst *)h->engine)->sys;
    isk_write_log *const log = &sys->wlog;
    const size_t n = log->len;
    if (ISK_UNLIKELY(n == log->cap)) goto slow_log;
    isk_write_entry *const e = log->data + n;
    e->cell = cell;   /* the walk's sentinel, stored once: a slow path rewrites the whole entry */
    if (h->checking >= ISK_CHECKING_SLOT) {
        /* a command finding the log empty called ops->write itself (SET would have taken the
         * armed entry): the slow path disarms it */
        if (ISK_UNLIKELY(n == 0)) goto slow_log;
        const isk_write_entry *w = log->data;
        while (w->cell != cell) w++;
        if (ISK_UNLIKELY(w != e)) goto slow_log;
    }
    e->value = value;
    e->inst = h->engine;
    e->slot = sys->cur_slot;
    e->how = how;
    log->len = n + 1;
    sys->pending++;
    h->attention = 1;
    return;
slow_log:
    log_write_slow(h, cell, value, how);
}

ISK_INLINE void commit_writes(isk_system *sys)
{
    write_bucket *const due = bucket_due(sys, 1);
    const size_t n = due->len;
    isk_write_log *const log = &sys->wlog;
    const size_t m = log->len;
    sys->crew.len = 0;
    if (m) {   /* latency-1 cells: never code (those stay in the ring) */
        const size_t uncounted = isk_log_uncounted(log);   /* read before the cells are written */
        for (const isk_write_entry *e = log->data, *end = e + m; e != end; e++)
            isk_cell_write_raw(e->cell, (int)(e->how >> 8) & 0xff, e->value);
        sys->stats.writes += m;
        sys->pending -= m - uncounted;
        log->len = 0;
    }
    if (!n) return;
    for (const pending_write *w = due->data, *end = w + n; w != end; w++) {
        isk_cell_write_raw(w->cell, (int)(w->how >> 8) & 0xff, w->value);
        if (ISK_UNLIKELY(w->how & ISK_WRITE_CODE)) code_written(w->inst, w->cell);
    }
    sys->stats.writes += n;
    sys->pending -= n;
    due->len = 0;
}

/* ---- resources and interrupts ------------------------------------------------------------ */

static const char *resource_name(const isk_model *m, uint64_t bit)
{
    for (size_t i = 0; i < m->resources.len; i++)
        if (m->resources.data[i].mask == bit) return m->resources.data[i].name;
    return NULL;
}

static __attribute__((noinline)) void emit_resources(isk_system *sys, isk_inst *inst, int slot, uint64_t mask)
{
    isk_emit(sys, &(isk_event){ .kind = ISK_EV_RESOURCE, .inst = inst, .slot = slot, .mask = mask });
}

/* The used bits of this clock, each new one counted once (the statistics count clocks) and
 * named with its first user (for a clash's message), then any listener told. */
ISK_INLINE void use_bits(isk_system *sys, isk_inst *inst, int slot, uint64_t mask)
{
    for (uint64_t bits = mask & ~inst->resources_used; bits; bits &= bits - 1) {
        int b = __builtin_ctzll(bits);
        sys->stats.resource_clocks[b]++;
        inst->stats.resource_clocks[b]++;
        inst->resource_slot[b] = slot;
    }
    inst->resources_used |= mask;
    if (isk_listening(sys, ISK_EV_RESOURCE)) emit_resources(sys, inst, slot, mask);
}

/* A clash: reported, then the bits used as without one. */
static __attribute__((noinline)) void resource_clash(isk_system *sys, isk_inst *inst, int slot, uint64_t mask)
{
    uint64_t clash = inst->resources_used & mask;
    uint64_t bit = clash & -clash;
    const char *rname = resource_name(inst->model, bit);
    char first[160], second[160], msg[700];
    isk_describe_queued(sys);
    isk_describe_actor(inst, inst->resource_slot[__builtin_ctzll(bit)], first, sizeof first);
    isk_describe_actor(inst, slot, second, sizeof second);
    snprintf(msg, sizeof msg, "clock %llu: resource clash in %s: %s uses resource bits 0x%llx%s%s%s, already used "
             "in this clock by %s", (unsigned long long)sys->clock, inst->name, second,
             (unsigned long long)clash, rname ? " (" : "", rname ? rname : "", rname ? ")" : "", first);
    sys->stats.resource_clashes++;
    inst->stats.resource_clashes++;
    if (!sys->opt.conflicts_are_warnings) stop_with(sys, ISK_CONFLICT, msg);
    isk_report(sys, ISK_WARNING, "%s", msg);
    use_bits(sys, inst, slot, mask);
}

/* The common case (no clash) needs no stack frame: the clash's message is built out of line. */
void isk_op_use_resources(isk_hdr *h, uint64_t mask)
{
    isk_inst *const inst = h->engine;
    isk_system *const sys = inst->sys;
    const int slot = inst == sys->cur_inst ? sys->cur_slot : -1;
    if (inst->resources_clock != sys->clock) {
        inst->resources_used = 0;
        inst->resources_clock = sys->clock;
    }
    if (ISK_UNLIKELY(inst->resources_used & mask)) {
        resource_clash(sys, inst, slot, mask);
        return;
    }
    use_bits(sys, inst, slot, mask);
}

static __attribute__((noinline)) void emit_interrupt(isk_system *sys, isk_inst *inst, int line)
{
    isk_emit(sys, &(isk_event){ .kind = ISK_EV_INTERRUPT, .inst = inst, .slot = sys->cur_slot, .line = line });
}

/* An interrupt from an inert command: a breach, unless the command is declared
 * .interrupts_at_end and this is the clock it promised (or it promised none, so that nothing
 * ran ahead of it). */
static __attribute__((noinline)) void inert_interrupt(isk_hdr *h, isk_inst *inst, const isk_slot *slot)
{
    const isk_system *sys = inst->sys;
    if (!inst->model->patterns.data[slot->d->pattern].interrupts_at_end)
        isk_op_fault(h, 0, "an interrupt from a command declared inert (INSTRUCTION .inert)");
    if (slot->end_at != UINT64_MAX && slot->end_at != sys->clock) {
        char msg[160];
        snprintf(msg, sizeof msg, "an interrupt at clock %llu from a command that promised it at clock %llu "
                 "(PromiseEnd)", (unsigned long long)sys->clock, (unsigned long long)slot->end_at);
        isk_op_fault(h, 0, msg);
    }
}

/* PromiseEnd: only in the first clock of a command declared .interrupts_at_end, before the
 * processor may run ahead of it. */
void isk_op_promise_end(isk_hdr *h, uint64_t clocks)
{
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    if (sys->cur_inst != inst || sys->cur_slot < 0)
        isk_op_fault(h, 0, "PromiseEnd outside an accelerator's command");
    if (clocks == 0) isk_op_fault(h, 0, "PromiseEnd(clocks < 1): a command ends in its first clock or later");
    isk_describe_queued(sys);   /* the slotless loop fills in slot 0's command only when asked */
    isk_slot *slot = &inst->slots[sys->cur_slot];
    if (slot->d->pattern < 0 || !inst->model->patterns.data[slot->d->pattern].interrupts_at_end)
        isk_op_fault(h, 0, "PromiseEnd in a command not declared .interrupts_at_end");
    if (slot->state != SLOT_ON_ENGINE) isk_op_fault(h, 0, "PromiseEnd after the command's first clock");
    slot->end_at = sys->clock + clocks - 1;
}

static void op_interrupt(isk_hdr *h, int line)
{
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    isk_describe_queued(sys);   /* a queued command's slot names it only when asked */
    if (sys->cur_inst == inst && sys->cur_slot >= 0 && isk_command_inert(inst, sys->cur_slot))
        inert_interrupt(h, inst, &inst->slots[sys->cur_slot]);
    sys->stats.interrupts++;
    inst->stats.interrupts++;
    if (isk_listening(sys, ISK_EV_INTERRUPT)) emit_interrupt(sys, inst, line);
    if (line >= 0 && line < 32 && inst->routes[line].to) {
        isk_deliver_line(inst->routes[line].to, inst->routes[line].line);
        return;
    }
    sys->interrupts++;
    sys->interrupt_from = inst;
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
    a->launch_cache[h].d = d;
    return &a->launch_cache[h].d;
}

/* Launch words are decoded once and kept in a small direct-mapped cache per instance. */
ISK_INLINE unsigned launch_hash(uint64_t word)
{
    return (unsigned)((word * UINT64_C(0x9e3779b97f4a7c15)) >> 58) % LAUNCH_CACHE;
}

/* An empty entry holds a word that hashes elsewhere, so that a hit is one comparison (no valid
 * flag): the zeroed cache's word 0 everywhere but in entry 0 (0's own), which holds 1. */
void isk_launch_cache_clear(isk_inst *a)
{
    for (unsigned h = 0; h < LAUNCH_CACHE; h++) a->launch_cache[h].word = launch_hash(0) == h;
    _Static_assert(LAUNCH_CACHE > 1, "the empty entries' words need two entries");
}
static inline const isk_decoded *decode_launch(isk_inst *a, uint64_t word)
{
    unsigned h = launch_hash(word);
    if (ISK_LIKELY(a->launch_cache[h].word == word)) return &a->launch_cache[h].d;
    return decode_launch_miss(a, word, h);
}

/* A command's LAUNCH or END event. */
static __attribute__((noinline)) void emit_command(isk_system *sys, isk_inst *a, const isk_slot *slot,
                                                   isk_event_kind kind, uint64_t clocks)
{
    isk_emit(sys, &(isk_event){ .kind = kind, .inst = a, .slot = (int)(slot - a->slots), .word = slot->word,
                                .instruction = slot->d->pattern, .operands = slot->d->op, .amount = clocks });
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

/* A decoded command takes the first free slot. Its counts are the accelerator's only
 * (isk_get_stats sums them). */
ISK_INLINE isk_status start_command(isk_system *sys, isk_inst *a, uint64_t word, const isk_decoded *d)
{
    int s = 0;
    while (a->slots[s].state != SLOT_FREE) s++;
    isk_slot *slot = &a->slots[s];
    slot->state = SLOT_FRESH;
    slot->word = word;
    slot->started = sys->clock;
    slot->end_at = UINT64_MAX;
    slot->d = d;
    const int busy = ++a->norder;
    a->order[busy - 1] = s;
    a->hdr->attention = 1;   /* a command launching another ends the slotless loop's clock (a is its one accelerator) */
    sys->busy_slots++;
    if (ISK_UNLIKELY(busy > a->stats.max_busy_slots)) a->stats.max_busy_slots = busy;
    if (ISK_UNLIKELY(sys->busy_slots > sys->stats.max_busy_slots)) sys->stats.max_busy_slots = sys->busy_slots;
    a->stats.launches++;
    if (isk_listening(sys, ISK_EV_LAUNCH)) emit_command(sys, a, slot, ISK_EV_LAUNCH, 0);
    return ISK_OK;
}

static __attribute__((noinline)) isk_status launch_slow(isk_system *sys, isk_inst *a, uint64_t word)
{
    if (sys->status != ISK_OK) return sys->status;
    const isk_decoded *d = decode_launch(a, word);
    if (!d || a->norder == a->nslots) return launch_error(sys, a, word, d ? d->pattern : -1);
    return start_command(sys, a, word, d);
}

/* The common case calls nothing but the trace: a word in the launch cache, a free slot. The
 * host's launch (a driver's, usually once a clock) is this, not a call to it. */
isk_status isk_launch(isk_system *sys, isk_inst *a, uint64_t word)
{
    const unsigned h = launch_hash(word);
    if (ISK_UNLIKELY(sys->status != ISK_OK || a->launch_cache[h].word != word ||
                     a->norder == a->nslots))
        return launch_slow(sys, a, word);
    return start_command(sys, a, word, &a->launch_cache[h].d);
}

const isk_command *isk_prepare(isk_system *sys, isk_inst *a, uint64_t word)
{
    const bool ours = a && a->sys == sys;
    isk_command c = { .acc = a, .word = word, .d.pattern = -1 };
    if (ours && a->nslots) c.d.pattern = isk_model_decode(a->model, word, c.d.op);
    if (c.d.pattern < 0) {
        /* reported, but neither stops the system nor becomes its last error */
        const isk_status status = sys->status;
        const bool had_error = sys->last_error[0] != 0;
        if (!ours) isk_report(sys, ISK_ERROR, "isk_prepare: %s is not an instance of this system", a ? a->name : "(null)");
        else launch_error(sys, a, word, c.d.pattern);   /* its message: not an accelerator, no format */
        sys->status = status;
        if (!had_error) sys->last_error[0] = 0;
        return NULL;
    }
    c.d.fn = a->model->patterns.data[c.d.pattern].beh->fn;
    /* a cache line of its own: with calloc's 16-byte alignment bench_example's prepared stream
     * ran at 70 M clocks/s, at 81 M with this (its word launches: 89 M) */
    isk_command *own = aligned_alloc(64, (sizeof *own + 63) / 64 * 64);
    if (!own) isk_out_of_memory(sizeof *own, "a prepared command");
    *own = c;
    VEC_PUSH(&sys->commands, own);
    return own;
}

void isk_commands_free(isk_system *sys)
{
    for (size_t i = 0; i < sys->commands.len; i++) free(sys->commands.data[i]);
    VEC_FREE(&sys->commands);
}

/* What makes `c` no command of this system, or NULL. */
static const char *not_ours(const isk_system *sys, const isk_command *c)
{
    return !c ? "no command (isk_prepare failed)" : c->acc->sys != sys ? "prepared for another system" : NULL;
}

static __attribute__((noinline)) isk_status launch_prepared_slow(isk_system *sys, const isk_command *c)
{
    if (sys->status != ISK_OK) return sys->status;
    const char *const problem = not_ours(sys, c);
    if (problem) {
        isk_report(sys, ISK_ERROR, "clock %llu: isk_launch_prepared: %s", (unsigned long long)sys->clock, problem);
        return sys->status = ISK_FAILED;
    }
    return launch_error(sys, c->acc, c->word, c->d.pattern);   /* no free slot */
}

/* isk_launch without the launch cache: the entry was decoded by isk_prepare. */
isk_status isk_launch_prepared(isk_system *sys, const isk_command *c)
{
    if (ISK_UNLIKELY(!c || sys->status != ISK_OK || c->acc->sys != sys || c->acc->norder == c->acc->nslots))
        return launch_prepared_slow(sys, c);
    return start_command(sys, c->acc, c->word, &c->d);
}

/* The queue's driver (isk_queue_commands): one launch per clock, finished with the last. */
static int queue_drive(void *user, isk_system *sys)
{
    (void)user;
    if (sys->queue.next == sys->queue.len) return 1;
    const isk_command *const c = sys->queue.cmds[sys->queue.next++];
    const char *const problem = not_ours(sys, c);
    if (ISK_UNLIKELY(problem != NULL)) {
        isk_report(sys, ISK_ERROR, "clock %llu: isk_queue_commands: command %zu of the queue: %s",
                   (unsigned long long)sys->clock, sys->queue.next - 1, problem);
        sys->status = ISK_FAILED;
        return -1;
    }
    if (isk_launch_prepared(sys, c) != ISK_OK) return -1;
    return sys->queue.next == sys->queue.len;
}

isk_status isk_queue_commands(isk_system *sys, const isk_command *const *cmds, size_t n)
{
    if (sys->status != ISK_OK) return sys->status;
    if (!cmds && n) {
        isk_report(sys, ISK_ERROR, "clock %llu: isk_queue_commands: no array of commands", (unsigned long long)sys->clock);
        return ISK_FAILED;
    }
    sys->queue.cmds = cmds;
    sys->queue.len = n;
    sys->queue.next = 0;
    isk_set_driver(sys, queue_drive, NULL);
    return ISK_OK;
}

static void op_launch(isk_hdr *h, int number, uint64_t word)
{
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    if (number < 0 || (size_t)number >= sys->by_number.len || !sys->by_number.data[number]) {
        char message[120];
        snprintf(message, sizeof message, "LAUNCH to accelerator %d, which is not attached", number);
        isk_op_fault(h, 0, message);
    }
    if (isk_launch(sys, sys->by_number.data[number], word) != ISK_OK) isk_abandon_behaviour(sys);
    h->attention = 1;
}

/* ---- slots ------------------------------------------------------------------------------- */

ISK_INLINE void end_command(isk_system *sys, isk_inst *a, isk_slot *slot)
{
    slot->state = SLOT_DONE;
    sys->ended_slots++;
    sys->last_ended.acc = a;
    sys->last_ended.slot = slot;
    uint64_t clocks = sys->clock - slot->started + 1;
    a->stats.commands_done++;
    a->stats.slot_clocks += clocks;
    if (isk_listening(sys, ISK_EV_END)) emit_command(sys, a, slot, ISK_EV_END, clocks);
}

/* A command that kept its stack returned into the engine frame that first called it, on that
 * stack: the live engine resumed it in this clock and waits for it (run_slot's branch for a
 * suspended command). */
static ISK_NORETURN __attribute__((noinline)) void end_on_own_stack(isk_system *sys, isk_inst *a, isk_slot *slot)
{
    end_command(sys, a, slot);
    sys->recycle = slot->stack;
    memset(&slot->stack, 0, sizeof slot->stack);
    a->hdr->checking = 0;
    a->hdr->inline_entry = NULL;
    isk_coro_jump(&sys->engine);
}

/* Where SET puts a command's first latency-1 write of the clock (isk_hdr.inline_entry): the log's
 * first entry, its writer filled in here once rather than by every SET, if the log is empty;
 * otherwise NULL and the write goes through ops->write, which scans the log for a conflict. */
ISK_INLINE void arm_inline(isk_system *sys, isk_hdr *h, isk_inst *a, int s)
{
    isk_write_log *const log = &sys->wlog;
    isk_write_entry *e = NULL;
    if (!log->len) {
        e = log->data;
        e->inst = a;
        e->slot = s;
    }
    h->inline_entry = e;
}

ISK_INLINE void run_slot(isk_system *sys, isk_inst *a, int s)
{
    isk_slot *slot = &a->slots[s];
    isk_hdr *h = a->hdr;
    sys->cur_inst = a;
    sys->cur_slot = s;
    h->clock = sys->clock;
    h->checking = ISK_CHECKING_SLOT + (uint32_t)s;
    if (a->arms_inline) arm_inline(sys, h, a, s);   /* else it stays NULL, as every slot leaves it */
    h->trap = a->trap_rest;      /* the trap of the slot that ran before belongs to that slot */
    if (slot->state == SLOT_FRESH) {
        slot->state = SLOT_ON_ENGINE;
        slot->d->fn(h, slot->d->op);
        h->trap = a->trap_rest;
        if (slot->stack.lo) end_on_own_stack(sys, a, slot);   /* this frame is on the command's stack */
        end_command(sys, a, slot);
    } else if (slot->state == SLOT_SUSPENDED) {
        sys->engine.stack_lo = sys->cur_stack.lo;
        sys->engine.stack_size = sys->cur_stack.size;
        slot->state = SLOT_ON_OWN;
        isk_coro_switch(&sys->engine, &slot->ctx);
        h->trap = a->trap_rest;
        put_back_recycled(sys);
    }
    h->checking = 0;
    h->inline_entry = NULL;
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

/* ---- processors: whether anything acts (issue.c issues) -------------------------------------- */

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
__attribute__((noinline)) void isk_check_deadlock(isk_system *sys)
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

/* The common case of a processor model running alone (no driver, no busy accelerator, no
 * write waiting for its latency, no before-issue hook nor subscriber to instructions or context
 * changes, one instruction set, no issue groups): its scheduler's fast loop (issue.c). */
ISK_INLINE bool fast_loop_fits(const isk_system *sys)
{
    return !sys->pending && sys->processors.len == 1 && !(sys->driver && !sys->driver_done) &&
           !sys->opt.before_issue &&
           !(sys->listening & (ISK_EV_BIT(ISK_EV_ISSUE) | ISK_EV_BIT(ISK_EV_CONTEXT) | ISK_EV_BIT(ISK_EV_STORE))) &&
           sys->processors.data[0]->model->isets == 1 && sys->processors.data[0]->model->proc.group_bit == 0;
}

static bool runs_alone(const isk_system *sys) { return !sys->busy_slots && fast_loop_fits(sys); }

/* The processor may run ahead of the busy accelerators (ahead.c): its fast loop fits, their
 * commands are inert and their storages private, and nobody listens to anything (a subscriber
 * would see the accelerators' events out of order with the processor's). */
static int runs_ahead(const isk_system *sys, uint64_t *until)
{
    if (!fast_loop_fits(sys) || sys->listening || sys->processors.data[0]->hdr->ops != &isk_engine_ops) return 0;
    return isk_accelerators_inert(sys, until);
}

/* ---- the loop ---------------------------------------------------------------------------- */

static bool finished(const isk_system *sys)
{
    if (sys->busy_slots || sys->pending || driver_active(sys)) return false;   /* busy_slots: all norder */
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
        if (!p->sched.policy->idle_counts) continue;
        p->stats.idle_clocks += gap;
        sys->stats.idle_clocks += gap;
    }
    sys->stats.clocks += gap;
    sys->clock += gap;
}

/* What the driver returned other than 0 (carry on): it is done, it stopped the run, or it asks
 * for a resumable stop (clock_loop stops in PHASE_BEGIN, so the driver runs again). */
static __attribute__((noinline)) void driver_said(isk_system *sys, int r)
{
    if (r == ISK_DRIVER_BREAK) {
        sys->stop_now = true;
        return;
    }
    if (r > 0) sys->driver_done = true;
    if (r < 0 && sys->status == ISK_OK) {
        isk_report(sys, ISK_ERROR, "clock %llu: the driver stopped the run", (unsigned long long)sys->clock);
        sys->status = ISK_FAILED;
    }
}

/* Call the driver for this clock; false if the run must stop (it failed, or asked to). */
ISK_INLINE bool drive(isk_system *sys)
{
    const int r = sys->driver(sys->driver_user, sys);
    if (ISK_LIKELY(r == 0)) return true;
    driver_said(sys, r);
    return sys->status == ISK_OK && !sys->stop_now;
}

static void begin_clock(isk_system *sys)
{
    if (driver_active(sys)) {
        if (ISK_UNLIKELY(sys->driver_wait > sys->clock)) {
            skip_idle_clocks(sys);   /* the driver is not called before its clock */
        } else {
            drive(sys);   /* clock_loop looks at the status and stop_now */
        }
    }
}

ISK_INLINE void end_clock(isk_system *sys)
{
    commit_writes(sys);
    /* what became visible at the end of the clock (latency >= 1, the host's writes) */
    if (isk_listening(sys, ISK_EV_STORE))
        for (size_t i = 0; i < sys->insts.len; i++)
            if (sys->insts.data[i]->nwatched) isk_report_changes(sys, sys->insts.data[i]);
    if (ISK_LIKELY(sys->ended_slots == 0)) {
    } else if (sys->ended_slots == 1 && sys->busy_slots == 1) {
        /* the one active command ended (a stream of one-clock commands) */
        sys->last_ended.slot->state = SLOT_FREE;
        sys->last_ended.acc->norder = 0;
        sys->busy_slots = sys->ended_slots = 0;
    } else {
        for (size_t i = 0; sys->ended_slots && i < sys->accelerators.len; i++) retire_slots(sys, sys->accelerators.data[i]);
    }
    sys->clock++;
    sys->stats.clocks++;
}

/* The slot phase from the position kept in the system (a command that keeps its stack makes
 * the engine continue on a fresh one from there): false if a behaviour stopped the run. */
ISK_INLINE bool run_slots(isk_system *sys)
{
    if (!sys->busy_slots) sys->cur_acc = sys->accelerators.len;
    while (sys->cur_acc < sys->accelerators.len) {       /* the status is OK here */
        isk_inst *a = sys->accelerators.data[sys->cur_acc];
        if (sys->cur_order < a->norder) {
            int s = a->order[sys->cur_order++];
            run_slot(sys, a, s);
            if (ISK_UNLIKELY(sys->status != ISK_OK)) return false;
            continue;
        }
        sys->cur_acc++;
        sys->cur_order = 0;
    }
    sys->phase = PHASE_END;
    return true;
}

static inline isk_inst *only_accelerator(const isk_system *sys)
{
    return sys->accelerators.len == 1 ? sys->accelerators.data[0] : NULL;
}

/* The slot phase of a clock from its start. Its common case, one accelerator with one busy slot
 * (a multi-clock command, a stream of short ones), runs that slot without reloading the loop's
 * position: it is stored once, where the general loop has it after that slot, for a command that
 * takes a stack of its own (the engine goes on from there on a fresh one). */
ISK_INLINE bool run_clock_slots(isk_system *sys, isk_inst *a)   /* a: the only accelerator, or NULL */
{
    sys->phase = PHASE_SLOTS;
    sys->cur_acc = 0;
    if (ISK_LIKELY(a && a->norder == 1)) {
        sys->cur_order = 1;
        run_slot(sys, a, a->order[0]);
        if (ISK_UNLIKELY(sys->status != ISK_OK)) return false;
        if (ISK_UNLIKELY(a->norder != 1)) return run_slots(sys);   /* it launched another */
        sys->phase = PHASE_END;
        return true;
    }
    sys->cur_order = 0;
    return run_slots(sys);
}

/* The accelerators run, alone, the clocks the processor ran ahead of them: each clock's slots
 * and end, as clock_loop would run them after the processor's issue. Inside the processor's
 * instruction (the interaction that called it) a breach of the inert promise (a fault or a
 * conflict, which stop the run) abandons that instruction, which a per-clock run never issued. */
void isk_catch_up(isk_system *sys)
{
    isk_inst *const p = sys->ahead.proc;
    if (!p) return;
    p->hdr->ops = sys->ahead.ops;
    sys->ahead.proc = NULL;
    const uint64_t to = sys->clock, clocks = sys->stats.clocks;
    isk_inst *const inst = sys->cur_inst;
    const int slot = sys->cur_slot, phase = sys->phase;
    const size_t acc = sys->cur_acc;
    const int order = sys->cur_order;
    for (sys->clock = sys->ahead.from; sys->clock < to;) {
        if (!sys->busy_slots && !sys->pending) {
            sys->clock = to;
            break;
        }
        if (ISK_UNLIKELY(!run_clock_slots(sys, only_accelerator(sys)))) {
            isk_report(sys, ISK_ERROR, "clock %llu: %s had run ahead to clock %llu beside commands declared inert: "
                       "its state is not that of a run stopped at clock %llu", (unsigned long long)sys->clock,
                       p->name, (unsigned long long)to, (unsigned long long)sys->clock);
            sys->stats.clocks = clocks;
            sys->cur_inst = inst;
            sys->cur_slot = slot;
            if (inst == p) isk_abandon_behaviour(sys);
            return;
        }
        end_clock(sys);
    }
    sys->stats.clocks = clocks;   /* the processor's loop counted these clocks */
    sys->cur_inst = inst;
    sys->cur_slot = slot;
    sys->phase = phase;
    sys->cur_acc = acc;
    sys->cur_order = order;
}

/* Busy slots or a driver (a stream of commands) beside at most one processor: the clocks of the
 * general loop without its per-clock questions (the finished test, the fast path's conditions,
 * the phase dispatch). Each clock is still the driver, the processor's issue, the slots, then
 * the end of the clock, with the loop's position kept in the system as clock_loop keeps it, so
 * that a command taking a stack of its own, a stop or a fault leaves the general loop exactly
 * where it would have been. Returns at the first clock boundary where neither a slot nor the
 * driver is active (the processor may run alone again) or the driver waits for a later clock,
 * or when the run stops or reaches its limit. */
static __attribute__((noinline)) void run_beside(isk_system *sys)
{
    isk_inst *const p = sys->processors.len ? sys->processors.data[0] : NULL;
    while (sys->clock < sys->run_until) {
        if (driver_active(sys)) {
            if (ISK_UNLIKELY(sys->driver_wait > sys->clock)) return;   /* the general loop skips */
            if (!drive(sys)) return;
        }
        if (p) {
            sys->phase = PHASE_ISSUE;
            sys->cur_proc = 0;
            if (sys->clock >= p->quiet_until || p->sched_stale || isk_listening(sys, ISK_EV_CONTEXT)) {
                const int outcome = isk_issue_clock(sys, p);
                if (ISK_UNLIKELY(outcome != ISK_ISSUE_ON)) {
                    if (outcome == ISK_ISSUE_STOP_AFTER) sys->cur_proc++;
                    return;
                }
            }
        }
        if (!run_clock_slots(sys, only_accelerator(sys))) return;
        end_clock(sys);
        sys->phase = PHASE_BEGIN;
        if (ISK_UNLIKELY(sys->stop_now || sys->status != ISK_OK || (!sys->busy_slots && !driver_active(sys)))) return;
    }
}

static bool runs_beside(const isk_system *sys)
{
    if (sys->processors.len > 1) return false;
    if (driver_active(sys)) return sys->driver_wait <= sys->clock;   /* else the general loop skips */
    return sys->busy_slots;
}

/* A driver issuing commands to the one accelerator of a system without processors (a stream of
 * short commands): per clock the driver, the command it launched (on the engine's stack), the
 * end of the clock. The loop's position is kept as clock_loop keeps it (a command that keeps
 * its stack, a stop or a fault leave the general loop where it would have been); a clock with
 * more than that one slot runs the general slot phase. Returns when a command is still busy at
 * the end of a clock (run_beside serves it), when the driver is done or waits for a later
 * clock, or when the run stops or reaches its limit. */
static __attribute__((noinline)) void run_stream(isk_system *sys)
{
    isk_inst *const a = sys->accelerators.data[0];   /* the only one (runs_stream) */
    while (sys->clock < sys->run_until && sys->driver_wait <= sys->clock) {
        if (!drive(sys) || ISK_UNLIKELY(sys->status != ISK_OK)) return;
        if (!run_clock_slots(sys, a)) return;
        end_clock(sys);
        sys->phase = PHASE_BEGIN;
        if (ISK_UNLIKELY(sys->stop_now || sys->status != ISK_OK || sys->busy_slots || !driver_active(sys))) return;
    }
}

static bool runs_stream(const isk_system *sys)
{
    return !sys->processors.len && sys->accelerators.len == 1 && !sys->busy_slots && driver_active(sys) &&
           sys->driver_wait <= sys->clock;
}

/* The clock that ends the slotless loop by something other than its limit or the queue's end:
 * as run_stream would end it (the command's end, the slots it launched, the end of the clock),
 * or, for a command that kept its stack and returned here on it, as run_slot does. */
static __attribute__((noinline)) void leave_slotless(isk_system *sys, isk_inst *a, isk_slot *slot)
{
    /* the loop's register may be stale: a command that returned on its own stack ran its later
     * clocks in the general loop, which kept sys->clock (and the table is the plain one again) */
    isk_bring_clock(sys);
    if (slot->stack.lo) end_on_own_stack(sys, a, slot);   /* settled when it took the stack */
    settle_slotless(sys, true);
    end_command(sys, a, slot);
    a->hdr->checking = 0;
    a->hdr->inline_entry = NULL;
    sys->cur_inst = NULL;
    sys->cur_slot = -1;
    if (sys->status != ISK_OK) return;
    if (a->norder != 1 && !run_slots(sys)) return;   /* it launched another */
    sys->phase = PHASE_END;
    end_clock(sys);
    sys->phase = PHASE_BEGIN;
}

/* What ends the slotless loop's clock with the command back in it (the four conditions that
 * set its accelerator's attention: a stack of its own, a launch, a status, a stop; system.h). */
static inline bool slotless_must_leave(const isk_system *sys, const isk_inst *a, const isk_slot *slot)
{
    return slot->stack.lo || a->norder != 1 || sys->status != ISK_OK || sys->stop_now;
}

/* The slotless loop's end: the queue's end or the run's limit, whichever comes first. The limit
 * is read after the exit word is cleared: isk_request_stop (a signal handler, another thread)
 * lowers it first and sets the word after, which sends the loop here again. */
static inline void slotless_end(isk_system *sys, uint64_t queue_end)
{
    sys->queue.leave = false;
    atomic_thread_fence(memory_order_seq_cst);
    const uint64_t limit = __atomic_load_n(&sys->run_until, __ATOMIC_RELAXED);
    sys->queue.end = limit < queue_end ? limit : queue_end;
}

/* A queue of one-clock commands (isk_queue_commands) into the one idle accelerator of a system
 * without processors or observers: per clock, the next command's behaviour called directly, its
 * writes committed, the clock advanced. Slot 0 (the one each launch would take) is the queue's
 * for the whole run, with the loop's position set once as run_stream sets it per clock, so that
 * a command taking a stack of its own (take_boundary), faulting or stopping leaves the general
 * loop where it would have been; the counts are added when the loop leaves (settle_slotless).
 * Returns at the run's limit, at the queue's end, or after a clock that needed more than this. */
static __attribute__((noinline)) void run_slotless(isk_system *sys)
{
    isk_inst *const a = sys->accelerators.data[0];
    isk_hdr *const h = a->hdr;
    isk_slot *const slot = &a->slots[0];
    const isk_command *const *next = sys->queue.cmds + sys->queue.next;
    const isk_command *const *const last = sys->queue.cmds + sys->queue.len;
    a->norder = 1;
    a->order[0] = 0;
    sys->busy_slots = 1;
    if (!a->stats.max_busy_slots) a->stats.max_busy_slots = 1;
    if (!sys->stats.max_busy_slots) sys->stats.max_busy_slots = 1;
    sys->queue.acc = a;
    sys->queue.start = sys->clock;
    sys->phase = PHASE_SLOTS;
    sys->cur_acc = 0;
    sys->cur_order = 1;
    sys->cur_inst = a;
    sys->cur_slot = 0;
    h->checking = ISK_CHECKING_SLOT;
    h->trap = 0;   /* trap_rest: no watched reads */
    slot->state = SLOT_ON_ENGINE;
    isk_write_log *const log = &sys->wlog;
    /* The clock and the log's first entry are kept in registers. Nothing a behaviour calls moves
     * the clock, which is stored in the header only: the command's calls into the engine go
     * through isk_engine_ops_clocked, which brings sys->clock, and the loop brings it before its
     * commit and wherever it leaves. The log grows (moves) only through ops->write, which sets
     * h->attention, as does every other write the clock's end must commit or forget (the ring,
     * the CREW log), and so sends the clock to commit_writes, after which the entry is armed
     * again; attention stays set while the ring holds writes due later. The entry's writer
     * (this accelerator, slot 0) stays filled in while only SET writes into it. */
    uint64_t clock = sys->clock;
    assert(h->ops == &isk_engine_ops);   /* runs_slotless: no watched reads */
    h->clock = clock;   /* never behind sys->clock while the table is in (isk_live_clock) */
    h->ops = &isk_engine_ops_clocked;
    arm_inline(sys, h, a, 0);   /* the log is empty at the start of a clock */
    isk_write_entry *first = h->inline_entry;
    h->attention = sys->pending != 0;   /* writes in the ring, due in a later clock */
    sys->queue.unwritten = 0;
    const uint64_t queue_end = clock + (uint64_t)(last - next);
    /* the end in memory, compared there each clock: the registers hold the queue's position */
    slotless_end(sys, queue_end);
    while (clock < sys->queue.end) {
        const isk_command *const c = *next++;
        if (ISK_UNLIKELY(!c || c->acc != a)) break;   /* queue_drive reports it */
        h->clock = clock;
        c->d.fn(h, c->d.op);
        h->trap = 0;
        /* one word for the four reasons to leave, a stop request and the writes to commit (see
         * the setters of attention and of sys->queue.leave, system.h) */
        assert(h->attention || !slotless_must_leave(sys, a, slot));
        assert(h->attention || (!sys->pending && !sys->crew.len));
        /* the usual clock (no attention, SET took the entry) is told apart from the other two
         * with one test of both words */
        if (ISK_LIKELY(!((uintptr_t)h->inline_entry | h->attention))) {
            /* nothing in the ring or the CREW log, in the log only SET's own entry (counted apart,
             * its write too: settle_slotless) */
            isk_cell_write_raw(first->cell, (int)(first->how >> 8) & 0xff, first->value);
            log->len = 0;
            h->inline_entry = first;
        } else if (ISK_UNLIKELY(__atomic_load_n(&h->attention, __ATOMIC_RELAXED))) {
            /* attention read again (a relaxed load is not merged with the test above): a copy
             * kept in a register for this rare test would cost the usual clock a move. A launch
             * sets attention only (start_command); the other reasons set the word too. */
            assert(sys->queue.leave || a->norder != 1 || !slotless_must_leave(sys, a, slot));
            if (ISK_UNLIKELY(sys->queue.leave || a->norder != 1)) {
                if (slotless_must_leave(sys, a, slot)) {
                    leave_slotless(sys, a, slot);
                    return;
                }
                slotless_end(sys, queue_end);   /* isk_request_stop: this clock ends as usual */
            }
            sys->clock = h->clock;   /* the clock's end reads it (from memory: the register's copy
                                      * would cost the loop a move per clock) */
            sys->queue.unwritten++;   /* commit_writes counts what it commits, SET's entry too */
            commit_writes(sys);
            h->attention = sys->pending != 0;   /* the ring's later writes: commit every clock */
            /* a stop requested since the word was read (a signal handler sets the word, then
             * attention): the next clock reads the limit again */
            atomic_signal_fence(memory_order_seq_cst);
            if (__atomic_load_n(&sys->queue.leave, __ATOMIC_RELAXED)) h->attention = 1;
            arm_inline(sys, h, a, 0);
            first = h->inline_entry;
        } else {
            sys->queue.unwritten++;   /* a clock without a write: nothing to commit */
        }
        ++clock;
    }
    sys->clock = clock;
    settle_slotless(sys, false);
    slot->state = SLOT_FREE;
    a->norder = 0;
    sys->busy_slots = 0;
    h->checking = 0;
    h->inline_entry = NULL;
    sys->cur_inst = NULL;
    sys->cur_slot = -1;
    sys->phase = PHASE_BEGIN;
}

static bool runs_slotless(const isk_system *sys)
{
    if (sys->driver != queue_drive || sys->driver_done || sys->busy_slots || sys->processors.len ||
        sys->accelerators.len != 1 || sys->listening || sys->driver_wait > sys->clock ||
        sys->queue.next == sys->queue.len)
        return false;
    const isk_inst *const a = sys->accelerators.data[0];
    const isk_command *const c = sys->queue.cmds[sys->queue.next];   /* a bad one: queue_drive reports it */
    /* the guard's crash report reads the running command from its slot (isk_describe_queued) */
    return c && c->acc == a && !a->port_read && !a->port_write && !a->trap_rest && !sys->opt.catch_crashes &&
           !sys->opt.watchdog_ms;
}

/* The loop proper, kept out of isk_clock_run so that setjmp's restrictions on register use
 * do not slow it down. Each phase continues from the position kept in the system, so that a
 * run stopped inside a clock (ISK_BREAK) resumes exactly there. */
static __attribute__((noinline)) void clock_loop(isk_system *sys)
{
    while (sys->status == ISK_OK && !sys->stop_now) {
        if (sys->phase == PHASE_BEGIN) {
            /* finished before the limit: a run that ends in its last allowed clock has ended */
            if (sys->run_to_end && finished(sys)) {
                if (sys->processors.len) isk_check_deadlock(sys);
                sys->reached_end = true;
                break;
            }
            if (sys->clock >= sys->run_until) break;
            if (runs_alone(sys)) {
                uint64_t before = sys->clock;
                isk_run_alone(sys, sys->processors.data[0]);
                if (sys->status != ISK_OK || sys->phase != PHASE_BEGIN || sys->clock != before) continue;
            }
            if (sys->busy_slots || driver_active(sys)) {
                if (runs_slotless(sys)) {
                    run_slotless(sys);
                    continue;
                }
                if (runs_stream(sys)) {
                    run_stream(sys);
                    continue;
                }
                uint64_t until = UINT64_MAX;   /* a promised interrupt's clock + 1 */
                const int ahead = sys->busy_slots && sys->ahead.declared ? runs_ahead(sys, &until) : 0;
                if (ahead == 1) {
                    uint64_t before = sys->clock;
                    isk_run_ahead(sys, until);
                    if (sys->status != ISK_OK || sys->phase != PHASE_BEGIN || sys->clock != before) continue;
                }
                if (ahead != 2 && runs_beside(sys)) {   /* 2: one general clock, then ahead */
                    run_beside(sys);
                    continue;
                }
            }
            begin_clock(sys);
            if (sys->status != ISK_OK || sys->stop_now) break;
            sys->phase = PHASE_ISSUE;
            sys->cur_proc = 0;
        }
        if (sys->phase == PHASE_ISSUE) {
            int outcome = ISK_ISSUE_ON;
            while (sys->cur_proc < sys->processors.len) {
                isk_inst *p = sys->processors.data[sys->cur_proc];
                if (sys->clock >= p->quiet_until || p->sched_stale || isk_listening(sys, ISK_EV_CONTEXT)) {
                    outcome = isk_issue_clock(sys, p);
                    if (ISK_UNLIKELY(outcome != ISK_ISSUE_ON)) break;
                }
                sys->cur_proc++;
            }
            if (ISK_UNLIKELY(outcome != ISK_ISSUE_ON)) {
                if (outcome == ISK_ISSUE_STOP_AFTER) sys->cur_proc++;
                break;
            }
            sys->phase = PHASE_SLOTS;
            sys->cur_acc = 0;
            sys->cur_order = 0;
        }
        if (sys->phase == PHASE_SLOTS) {
            if (!run_slots(sys)) break;
        }
        end_clock(sys);
        sys->phase = PHASE_BEGIN;
    }
}

void isk_clock_run(isk_system *sys)
{
    jmp_buf on_fault;
    sys->fault_jmp = &on_fault;
    if (ISK_UNLIKELY(sys->grouping != NULL)) {   /* a fault left an issue group: its writes are void */
        sys->grouping->hdr->checking = 0;
        sys->grouping = NULL;
        sys->group_writes.len = 0;
    }
    if (setjmp(on_fault) == 0) clock_loop(sys);
    else if (sys->fast.proc) isk_settle_fast_loop_after_fault(sys);
    else if (sys->queue.acc) {
        isk_bring_clock(sys);   /* a fault's op brought it already; a crash made none */
        settle_slotless(sys, true);
    }
    if (ISK_UNLIKELY(sys->ahead.proc != NULL)) {
        /* the processor's instruction faulted without a call through its ops (an illegal word,
         * a crash): the accelerators run the clocks before it, as a per-clock run had */
        const isk_status status = sys->status;
        sys->status = ISK_OK;
        if (setjmp(on_fault) == 0) isk_catch_up(sys);
        if (sys->status == ISK_OK) sys->status = status;
        sys->ahead.proc = NULL;
    }
    if (ISK_UNLIKELY(sys->crashed)) isk_guard_report(sys);
    /* A behaviour on this stack stopped the run: a command (its slot was marked done) or an
     * instruction of a fast loop (settled just above). */
    sys->cur_inst = NULL;
    sys->cur_slot = -1;
    sys->fault_jmp = NULL;
}

void isk_op_invalidate_code(isk_hdr *h, uint64_t address) { isk_invalidate_code(h->engine, address); }

static __attribute__((noinline)) void emit_port(isk_inst *inst, isk_event_kind kind, uint64_t port, uint64_t value)
{
    isk_system *sys = inst->sys;
    isk_emit(sys, &(isk_event){ .kind = kind, .inst = inst, .slot = sys->cur_inst == inst ? sys->cur_slot : -1,
                                .context = inst->hdr->context, .pc = inst->hdr->pc, .port = port,
                                .value = (int64_t)value });
}

static void op_port_write(isk_hdr *h, uint64_t port, uint64_t value)
{
    isk_inst *inst = h->engine;
    h->attention = 1;          /* the handler may do anything, e.g. launch a command */
    if (isk_listening(inst->sys, ISK_EV_PORT_WRITE)) emit_port(inst, ISK_EV_PORT_WRITE, port, value);
    if (inst->port_write) inst->port_write(inst->port_user, inst, port, value);
}

static uint64_t op_port_read(isk_hdr *h, uint64_t port)
{
    isk_inst *inst = h->engine;
    h->attention = 1;
    uint64_t value = inst->port_read ? inst->port_read(inst->port_user, inst, port) : 0;
    if (isk_listening(inst->sys, ISK_EV_PORT_READ)) emit_port(inst, ISK_EV_PORT_READ, port, value);
    return value;
}

void isk_op_trace(isk_hdr *h, const char *message)
{
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    if (isk_listening(sys, ISK_EV_NOTE))
        isk_emit(sys, &(isk_event){ .kind = ISK_EV_NOTE, .inst = inst, .slot = sys->cur_inst == inst ? sys->cur_slot : -1,
                                    .context = h->context, .pc = h->pc, .text = message });
}

void isk_op_dma(isk_hdr *h, const char *what, uint64_t from, uint64_t to, uint64_t bytes)
{
    isk_inst *inst = h->engine;
    isk_system *sys = inst->sys;
    if (isk_listening(sys, ISK_EV_DMA))
        isk_emit(sys, &(isk_event){ .kind = ISK_EV_DMA, .inst = inst, .slot = sys->cur_inst == inst ? sys->cur_slot : -1,
                                    .context = h->context, .pc = h->pc, .text = what, .src = from, .dst = to,
                                    .amount = bytes });
}

/* ops->read, GET's and NOTE_READ's call while the trap is set, has two forms: the instance's
 * header points at the table with read_watched while any of its reads are watched
 * (isk_watch_reads), else at the one with read_boundary. Unwatched, a set trap can only mean a
 * pending boundary, so a command's next clock costs what it did before read watches. */
static void read_watched(isk_hdr *h, size_t storage, int64_t first, uint64_t n)
{
    if (h->trap & ISK_TRAP_BOUNDARY) take_boundary(h);   /* the read belongs to the next clock */
    if (h->trap & ISK_TRAP_READS) isk_report_read(h->engine, storage, first, n);
}

static void read_boundary(isk_hdr *h, size_t storage, int64_t first, uint64_t n)
{
    (void)storage, (void)first, (void)n;
    take_boundary(h);
}

const char *isk_op_param(isk_hdr *h, const char *key) { return isk_read_param(h->engine, key); }
int64_t isk_op_param_number(isk_hdr *h, const char *key) { return isk_read_param_number(h->engine, key); }

#define ENGINE_OPS(read_fn) { \
    .boundary = op_boundary, \
    .write = op_write, \
    .use_resources = isk_op_use_resources, \
    .interrupt = op_interrupt, \
    .fault = isk_op_fault, \
    .index_fault = op_index_fault, \
    .launch = op_launch, \
    .invalidate_code = isk_op_invalidate_code, \
    .port_write = op_port_write, \
    .port_read = op_port_read, \
    .trace = isk_op_trace, \
    .param = isk_op_param, \
    .param_number = isk_op_param_number, \
    .schedule = isk_op_schedule, \
    .exception = isk_op_exception, \
    .exit_context = isk_op_exit_context, \
    .breakpoint = isk_op_breakpoint, \
    .dma = isk_op_dma, \
    .bus_read = isk_op_bus_read, \
    .bus_write = isk_op_bus_write, \
    .read = read_fn, \
    .promise_end = isk_op_promise_end, \
}
const struct isk_engine_ops isk_engine_ops = ENGINE_OPS(read_boundary);
const struct isk_engine_ops isk_engine_ops_reads = ENGINE_OPS(read_watched);

static void bring_own_clock(isk_hdr *h) { ((isk_inst *)h->engine)->sys->clock = h->clock; }
ISK_WRAP_OPS(clocked, bring_own_clock, &isk_engine_ops)
const struct isk_engine_ops isk_engine_ops_clocked = ISK_WRAPPED_OPS(clocked);

/* The header whose clock runs ahead of sys->clock (a fast loop's with the table above in), or
 * NULL; read with relaxed loads, as another thread may ask while the loop runs. */
static const isk_hdr *clock_hdr(const isk_system *sys)
{
    const isk_inst *const loops[2] = { __atomic_load_n(&sys->fast.proc, __ATOMIC_RELAXED),
                                       __atomic_load_n(&sys->queue.acc, __ATOMIC_RELAXED) };
    for (int i = 0; i < 2; i++)
        if (loops[i] && __atomic_load_n(&loops[i]->hdr->ops, __ATOMIC_RELAXED) == &isk_engine_ops_clocked)
            return loops[i]->hdr;
    return NULL;
}

void isk_bring_clock(isk_system *sys)
{
    const isk_hdr *const h = clock_hdr(sys);
    if (h) sys->clock = h->clock;
}

uint64_t isk_live_clock(const isk_system *sys)
{
    const isk_hdr *const h = clock_hdr(sys);
    const uint64_t clock = __atomic_load_n(&sys->clock, __ATOMIC_RELAXED);
    const uint64_t own = h ? __atomic_load_n(&h->clock, __ATOMIC_RELAXED) : 0;
    return own > clock ? own : clock;
}
