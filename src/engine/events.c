/* Typed events: who listens, what a storage watch costs, and the words of the text trace.
 *
 * The emitting sites (clock.c, issue.c) test one bit of sys->listening before building an
 * event, so a kind nobody subscribed to costs a predictable branch. Two kinds need more:
 *   ISSUE   makes the processors take the general path (clock.c runs_alone), where execute()
 *           has the decoded entry in hand;
 *   STORE   of a latency-0 storage: such writes go straight to memory from the model's code
 *           unless isk_hdr.checking is set, so watching one sets it for the instance (`watch0`)
 *           and the writes come through the engine's write_now.
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

isk_status isk_watch(isk_inst *inst, int storage, bool on)
{
    const isk_model *m = inst->model;
    if (storage < -1 || storage >= (int)m->storages.len) {
        isk_report(inst->sys, ISK_ERROR, "isk_watch: %s has no storage %d (it has %zu)", inst->name, storage,
                   m->storages.len);
        return ISK_FAILED;
    }
    for (size_t i = 0; i < m->storages.len; i++)
        if (storage < 0 || (int)i == storage) inst->watched[i] = on;
    inst->watch0 = false;
    for (size_t i = 0; i < m->storages.len; i++)
        if (inst->watched[i] && m->storages.data[i].info.latency == 0) inst->watch0 = true;
    if (inst->sys->cur_slot < 0 || inst->sys->cur_inst != inst) inst->hdr->checking = inst->watch0;
    return ISK_OK;
}

/* A write of `inst` became visible: a STORE event if its storage is watched. */
void isk_emit_store(isk_system *sys, isk_inst *inst, const void *cell, int64_t value)
{
    int s;
    uint64_t index;
    if (!isk_cell_location(inst, cell, &s, &index) || !inst->watched[s]) return;
    isk_event ev = { .kind = ISK_EV_STORE, .inst = inst, .slot = sys->cur_inst == inst ? sys->cur_slot : -1,
                     .storage = s, .index = index, .value = value,
                     .latency = inst->model->storages.data[s].info.latency };
    if (inst->contexts && ev.slot < 0) {
        ev.context = inst->hdr->context;
        ev.pc = inst->hdr->pc;
    }
    isk_emit(sys, &ev);
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
    default:
        snprintf(buf, cap, "event %d", (int)ev->kind);
        break;
    }
    return buf;
}
