/* Typed events: who listens, how watched storages are seen to change, and the words of the text
 * trace.
 *
 * The emitting sites (clock.c, issue.c) test one bit of sys->listening before building an
 * event, so a kind nobody subscribed to costs a predictable branch. Two kinds need more:
 *   ISSUE    makes the processors take the general path (clock.c runs_alone), where execute()
 *            has the decoded entry in hand;
 *   STORE    models write their cells however they like (SET, or straight through CELLS() as
 *            the DPU and the PicoBlaze do for speed), so the engine does not watch writes: it
 *            keeps a copy of each watched storage and compares after each processor
 *            instruction and at the end of each clock (commands' writes, writes of
 *            latency >= 1 committing, the host's). A watch costs a comparison of the
 *            storage's bytes at those points, and the processors' general path.
 */
#include <inttypes.h>
#include <string.h>

#include "engine/system.h"

static void update_listening(isk_system *sys)
{
    sys->listening = 0;
    for (int i = 0; i < sys->nsubscribers; i++) sys->listening |= sys->subscribers[i].kinds;
}

isk_status isk_subscribe(isk_system *sys, unsigned kinds, isk_event_fn fn, void *user)
{
    if (sys->nsubscribers == ISK_MAX_SUBSCRIBERS) {
        isk_report(sys, ISK_ERROR, "isk_subscribe: at most %d subscribers per system", ISK_MAX_SUBSCRIBERS);
        return ISK_FAILED;
    }
    sys->subscribers[sys->nsubscribers++] = (isk_subscriber){ kinds & ISK_EV_ALL, fn, user };
    update_listening(sys);
    return ISK_OK;
}

void isk_unsubscribe(isk_system *sys, isk_event_fn fn, void *user)
{
    int kept = 0;
    for (int i = 0; i < sys->nsubscribers; i++)
        if (sys->subscribers[i].fn != fn || sys->subscribers[i].user != user) sys->subscribers[kept++] = sys->subscribers[i];
    sys->nsubscribers = kept;
    update_listening(sys);
}

void isk_emit(isk_system *sys, isk_event *ev)
{
    ev->clock = sys->clock;
    for (int i = 0; i < sys->nsubscribers; i++)
        if (sys->subscribers[i].kinds & ISK_EV_BIT(ev->kind)) sys->subscribers[i].fn(sys->subscribers[i].user, ev);
}

/* isk_watch's and isk_watch_reads's storage: an index of inst's model, or -1 for all. */
static bool watch_storage_ok(const isk_inst *inst, int storage, const char *fn)
{
    const isk_model *m = inst->model;
    if (storage >= -1 && storage < (int)m->storages.len) return true;
    isk_report(inst->sys, ISK_ERROR, "%s: %s has no storage %d (it has %zu)", fn, inst->name, storage, m->storages.len);
    return false;
}

isk_status isk_watch(isk_inst *inst, int storage, bool on)
{
    const isk_model *m = inst->model;
    if (!watch_storage_ok(inst, storage, "isk_watch")) return ISK_FAILED;
    for (size_t i = 0; i < m->storages.len; i++) {
        if (storage >= 0 && (int)i != storage) continue;
        const size_t bytes = m->storages.data[i].info.count * (size_t)m->storages.data[i].cell_bytes;
        if (on && !inst->shadow[i]) {
            inst->shadow[i] = isk_xcalloc(bytes ? bytes : 1, 1);
            memcpy(inst->shadow[i], inst->buffers[i], bytes);   /* changes from now on */
            inst->nwatched++;
        } else if (!on && inst->shadow[i]) {
            free(inst->shadow[i]);
            inst->shadow[i] = NULL;
            inst->nwatched--;
        }
    }
    return ISK_OK;
}

/* Reads are seen where they happen: GET and NOTE_READ test hdr->trap, which already leaves
 * their fast path for FinishCycle(); the ISK_TRAP_READS bit (kept in trap_rest, which the engine
 * restores wherever it clears the trap) and the ops table whose ->read reports (clock.c) send
 * them to isk_report_read while any storage of the instance is watched. */
isk_status isk_watch_reads(isk_inst *inst, int storage, bool on)
{
    const isk_model *m = inst->model;
    if (!watch_storage_ok(inst, storage, "isk_watch_reads")) return ISK_FAILED;
    for (size_t i = 0; i < m->storages.len; i++) {
        if ((storage >= 0 && (int)i != storage) || inst->read_watched[i] == on) continue;
        inst->read_watched[i] = on;
        inst->nread_watched += on ? 1 : -1;
    }
    inst->trap_rest = inst->nread_watched ? ISK_TRAP_READS : 0;
    inst->hdr->ops = inst->nread_watched ? &isk_engine_ops_reads : &isk_engine_ops;
    /* from a handler inside a fast loop (which runs with the plain ops only): it leaves */
    if (inst->sys->fast.proc == inst) inst->hdr->attention = 1;
    if (inst->trap_rest) inst->hdr->trap |= ISK_TRAP_READS;
    else inst->hdr->trap &= ~ISK_TRAP_READS;
    return ISK_OK;
}

void isk_report_read(isk_inst *inst, size_t storage, int64_t first, uint64_t n)
{
    isk_system *sys = inst->sys;
    const isk_model *m = inst->model;
    if (!isk_listening(sys, ISK_EV_LOAD)) return;
    size_t s = 0;
    while (s < m->storages.len && m->storages.data[s].offset != storage) s++;
    if (s == m->storages.len || !inst->read_watched[s]) return;
    const uint64_t count = m->storages.data[s].info.count;
    /* an index out of range faults after this (GET) or is the model's to refuse: no read */
    if (first < 0 || (uint64_t)first >= count || n == 0) return;
    if (n > count - (uint64_t)first) n = count - (uint64_t)first;
    isk_ref ref = { inst, (int)s, (uint64_t)first };
    isk_event ev = { .kind = ISK_EV_LOAD, .inst = inst, .slot = sys->cur_inst == inst ? sys->cur_slot : -1,
                     .storage = (int)s, .index = (uint64_t)first, .amount = n, .value = isk_ref_read(&ref) };
    if (inst->contexts && ev.slot < 0) {
        ev.context = inst->hdr->context;
        ev.pc = inst->hdr->pc;
    }
    isk_emit(sys, &ev);
}

void isk_report_changes(isk_system *sys, isk_inst *inst)
{
    const isk_model *m = inst->model;
    for (size_t s = 0; s < m->storages.len; s++) {
        uint8_t *shadow = inst->shadow[s];
        if (!shadow) continue;
        const isk_storage *st = &m->storages.data[s];
        const size_t cell = (size_t)st->cell_bytes, bytes = st->info.count * cell;
        const uint8_t *now = inst->buffers[s];
        if (memcmp(shadow, now, bytes) == 0) continue;
        for (size_t at = 0; at < bytes; at += cell) {
            if (memcmp(shadow + at, now + at, cell) == 0) continue;
            memcpy(shadow + at, now + at, cell);
            isk_ref ref = { inst, (int)s, at / cell };
            isk_event ev = { .kind = ISK_EV_STORE, .inst = inst, .slot = sys->cur_inst == inst ? sys->cur_slot : -1,
                             .storage = (int)s, .index = at / cell, .value = isk_ref_read(&ref),
                             .latency = st->info.latency };
            if (inst->contexts && ev.slot < 0 && sys->cur_inst == inst) {
                ev.context = inst->hdr->context;
                ev.pc = inst->hdr->pc;
            }
            isk_emit(sys, &ev);
        }
    }
}

static const char *const state_names[] = { "stopped", "running", "blocked", "sleeping", "faulted", "exited" };

static const char *state_name(int state)
{
    return state >= 0 && state < (int)(sizeof state_names / sizeof *state_names) ? state_names[state] : "?";
}

static const char *instruction_name(const isk_event *ev)
{
    const isk_model *m = ev->inst->model;
    return ev->instruction >= 0 && (size_t)ev->instruction < m->patterns.len
               ? m->patterns.data[ev->instruction].beh->name : "?";
}

const char *isk_event_text(const isk_event *ev, char *buf, size_t cap)
{
    const isk_model *m = ev->inst->model;
    const int digits = (m->word_bits + 3) / 4;
    char cell[160];
    switch (ev->kind) {
    case ISK_EV_ISSUE:
        snprintf(buf, cap, "ctx %u pc 0x%" PRIx64 ": %s (0x%0*" PRIx64 ")", ev->context, ev->pc,
                 instruction_name(ev), digits, ev->word);
        break;
    case ISK_EV_STORE:
        isk_describe_cell(ev->inst, m->storages.data[ev->storage].info.name, ev->index, false, cell, sizeof cell);
        snprintf(buf, cap, "%s = %" PRId64, cell, ev->value);
        break;
    case ISK_EV_LAUNCH:
        snprintf(buf, cap, "launch %s (0x%0*" PRIx64 ") in slot %d", instruction_name(ev), digits, ev->word, ev->slot);
        break;
    case ISK_EV_END:
        snprintf(buf, cap, "slot %d: %s ends after %" PRIu64 " clock(s)", ev->slot, instruction_name(ev), ev->amount);
        break;
    case ISK_EV_RESOURCE:
        snprintf(buf, cap, "resources 0x%" PRIx64 " used", ev->mask);
        break;
    case ISK_EV_CONTEXT:
        snprintf(buf, cap, "context %u %s -> %s at pc 0x%" PRIx64, ev->context, state_name(ev->from),
                 state_name(ev->to), ev->pc);
        break;
    case ISK_EV_EXCEPTION:
        snprintf(buf, cap, "exception %d (%s) at context %u, pc 0x%" PRIx64, ev->cause, ev->text, ev->context, ev->pc);
        break;
    case ISK_EV_INTERRUPT:
        snprintf(buf, cap, "interrupt line %d raised%s", ev->line, ev->text ? " at its input" : "");
        break;
    case ISK_EV_PORT_READ:
        snprintf(buf, cap, "port 0x%" PRIx64 " -> 0x%" PRIx64, ev->port, (uint64_t)ev->value);
        break;
    case ISK_EV_PORT_WRITE:
        snprintf(buf, cap, "port 0x%" PRIx64 " <- 0x%" PRIx64, ev->port, (uint64_t)ev->value);
        break;
    case ISK_EV_DMA:
        snprintf(buf, cap, "dma %s: %" PRIu64 " bytes, 0x%" PRIx64 " -> 0x%" PRIx64, ev->text, ev->amount, ev->src,
                 ev->dst);
        break;
    case ISK_EV_NOTE:
        snprintf(buf, cap, "%s", ev->text);
        break;
    case ISK_EV_LOAD:
        isk_describe_cell(ev->inst, m->storages.data[ev->storage].info.name, ev->index, false, cell, sizeof cell);
        if (ev->amount > 1)
            snprintf(buf, cap, "read %s and %" PRIu64 " more cell(s), first = %" PRId64, cell, ev->amount - 1, ev->value);
        else
            snprintf(buf, cap, "read %s = %" PRId64, cell, ev->value);
        break;
    default:
        snprintf(buf, cap, "event %d", (int)ev->kind);
        break;
    }
    return buf;
}
