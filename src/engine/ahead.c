/* A processor ahead of busy accelerators whose commands are declared inert.
 *
 * Per clock the processor issues before the slots run (docs/engine.md "One clock"). When every
 * busy command is inert (INSTRUCTION .inert: it neither faults, stops, conflicts nor interrupts)
 * and its accelerator's storages are private in the system (no processor reaches them raw),
 * nothing the accelerators do in a clock can change what the processor does, until the processor
 * itself interacts with them. So the processor runs its fast loop (isk_run_alone) while the
 * accelerators stay behind, and they catch up (isk_catch_up) exactly before the first
 * interaction takes effect: every interaction is an engine call the processor's instruction
 * makes, and while it runs ahead its header's ops are the table below, whose entries catch up
 * first. The fast loop then leaves in the middle of that clock (issue.c fast_loop_must_leave), as
 * it does beside no accelerator, and the clock loop finishes the clock. At the loop's end (the
 * run's limit, a stop, a PC outside the code) they catch up to where it left.
 */
#include "engine/system.h"

static void wake(isk_hdr *h) { isk_catch_up(((isk_inst *)h->engine)->sys); }
/* a_X: catch up, then the processor's own op (isk_catch_up put its table back) */
ISK_WRAP_OPS(a, wake, h->ops)

/* Every call through which a processor's instruction may act on, or look at, an accelerator or
 * the system (a launch, a queued write, a port handler that calls the host API, a bus access),
 * or end the run (a fault, an exception without a handler) catches up first. The others (param,
 * trace, dma, schedule, exit_context, breakpoint, invalidate_code, use_resources) touch only the
 * processor or, like a breakpoint, stop the loop, after which the accelerators catch up. */
static const struct isk_engine_ops ahead_ops = {
    .boundary = a_boundary,
    .write = a_write,
    .use_resources = isk_op_use_resources,
    .interrupt = a_interrupt,
    .fault = a_fault,
    .index_fault = a_index_fault,
    .launch = a_launch,
    .invalidate_code = isk_op_invalidate_code,
    .port_write = a_port_write,
    .port_read = a_port_read,
    .trace = isk_op_trace,
    .param = isk_op_param,
    .param_number = isk_op_param_number,
    .schedule = isk_op_schedule,
    .exception = a_exception,
    .exit_context = isk_op_exit_context,
    .breakpoint = isk_op_breakpoint,
    .dma = isk_op_dma,
    .bus_read = a_bus_read,
    .bus_write = a_bus_write,
    .read = a_read,
    .promise_end = isk_op_promise_end,   /* a fault: the processor runs no command */
};

/* Storage i of accelerator a is out of the processor's raw reach: declared PRIVATE, or neither
 * bound to one of the processor's storages (SHARED_MEMORY by name, isk_share_storage) nor mapped
 * on its bus. */
static bool storage_private(const isk_inst *a, int i, const isk_inst *p)
{
    if (a->model->storages.data[i].private_storage) return true;
    for (int k = 0; k < p->nbus; k++)
        if (p->bus[k].target == a && p->bus[k].storage == i) return false;
    for (size_t k = 0; k < p->model->storages.len; k++)
        if (p->buffers[k] == a->buffers[i]) return false;
    return true;
}

bool isk_command_inert(const isk_inst *a, int slot)
{
    const int pattern = a->slots[slot].d->pattern;
    return pattern >= 0 && a->model->patterns.data[pattern].inert;
}

int isk_accelerators_inert(const isk_system *sys, uint64_t *until)
{
    const isk_inst *p = sys->processors.data[0];
    int fresh = 0;
    *until = UINT64_MAX;
    for (size_t i = 0; i < sys->accelerators.len; i++) {
        const isk_inst *a = sys->accelerators.data[i];
        if (!a->norder) continue;
        for (int k = 0; k < a->norder; k++) {
            const isk_slot *slot = &a->slots[a->order[k]];
            /* a fresh command's first clock runs on the engine's stack, which may become its own:
             * that clock is the general loop's; a suspended one is resumed on its own stack */
            if (!isk_command_inert(a, a->order[k])) return 0;
            if (slot->state != SLOT_SUSPENDED) fresh = 1;
            /* a command that interrupts at its promised end: the processor issues up to that
             * clock and sees the line in the next, as per clock (no promise: per clock) */
            else if (a->model->patterns.data[slot->d->pattern].interrupts_at_end) {
                if (slot->end_at == UINT64_MAX) return 0;
                if (slot->end_at + 1 < *until) *until = slot->end_at + 1;
            }
        }
        for (size_t s = 0; s < a->model->storages.len; s++)
            if (!storage_private(a, (int)s, p)) return 0;
    }
    return fresh ? 2 : 1;
}

void isk_run_ahead(isk_system *sys, uint64_t until)
{
    isk_inst *p = sys->processors.data[0];
    sys->ahead.proc = p;
    sys->ahead.ops = p->hdr->ops;
    sys->ahead.from = sys->clock;
    p->hdr->ops = &ahead_ops;
    /* a promised interrupt caps the fast loop at its clock (the loop reads the run's limit);
     * a stop requested meanwhile (isk_request_stop lowers the limit) is kept */
    const uint64_t limit = sys->run_until;
    if (until < limit) sys->run_until = until;
    isk_run_alone(sys, p);
    if (until < limit) {
        const uint64_t now = sys->run_until;
        sys->run_until = atomic_load(&sys->stop_requested) ? now : limit;
    }
    isk_catch_up(sys);
}
