/* Explicit sharing of storages between two instances (isk_share_storage, isekit/sim.h): what a
 * system description says instead of binding SHARED_MEMORY storages by name. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "engine/system.h"

static __attribute__((format(printf, 3, 4))) bool fail(char *msg, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
    return false;
}

/* The storage `name` of inst (case ignored, as isk_resolve), a SHARED_MEMORY one; else false
 * with the reason. */
static bool shared_storage(isk_inst *inst, const char *name, int *index, char *msg, size_t cap)
{
    *index = -1;
    for (size_t i = 0; i < inst->model->storages.len && *index < 0; i++)
        if (strcasecmp(inst->model->storages.data[i].info.name, name) == 0) *index = (int)i;
    if (*index < 0)
        return fail(msg, cap, "%s (model '%s') has no storage '%s'", inst->name, inst->model->name, name);
    if (!inst->model->storages.data[*index].info.shared)
        return fail(msg, cap, "storage '%s' of %s (model '%s') is not a SHARED_MEMORY", name, inst->name,
                    inst->model->name);
    return true;
}

isk_status isk_share_storage(isk_inst *inst, const char *name, isk_inst *owner, const char *owner_name, char *msg,
                             size_t cap)
{
    int i, j;
    if (inst->sys != owner->sys) {
        fail(msg, cap, "%s and %s are not in the same system", inst->name, owner->name);
        return ISK_FAILED;
    }
    if (inst->sys->clock) {
        fail(msg, cap, "%s: storages are shared before the first clock, not at clock %llu", inst->name,
             (unsigned long long)inst->sys->clock);
        return ISK_FAILED;
    }
    if (!shared_storage(inst, name, &i, msg, cap) || !shared_storage(owner, owner_name, &j, msg, cap))
        return ISK_FAILED;
    const isk_storage_info *a = &inst->model->storages.data[i].info, *b = &owner->model->storages.data[j].info;
    if (a->width != b->width || a->count != b->count || a->sign != b->sign || a->latency != b->latency) {
        fail(msg, cap, "storage '%s' of %s (%s%d bits x %llu, latency %d) does not match '%s' of %s (%s%d bits x "
             "%llu, latency %d)", a->name, inst->name, a->sign ? "signed " : "", a->width,
                 (unsigned long long)a->count, a->latency, b->name, owner->name, b->sign ? "signed " : "", b->width,
                 (unsigned long long)b->count, b->latency);
        return ISK_FAILED;
    }
    void *old = inst->buffers[i], *buffer = owner->buffers[j];
    if (old == buffer) return ISK_OK;
    /* whoever shares the old storage (inst itself included) moves to the owner's */
    isk_system *sys = inst->sys;
    bool owned = false;
    for (size_t k = 0; k < sys->insts.len; k++) {
        isk_inst *x = sys->insts.data[k];
        for (size_t s = 0; s < x->model->storages.len; s++)
            if (x->buffers[s] == old) {
                owned |= x->owns_buffer[s];
                x->owns_buffer[s] = false;
                isk_bind_buffer(x, s, buffer);
            }
    }
    if (owned) free(old);
    return ISK_OK;
}
