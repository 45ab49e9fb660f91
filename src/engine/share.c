/* Storages of one instance reached by another, as a system description wires them (isekit/sim.h):
 * explicit sharing (isk_share_storage) instead of binding SHARED_MEMORY storages by name, and a
 * processor's bus mappings (isk_map_storage; the accesses are in bus.c). */
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

/* The storage `name` of inst (case ignored, as isk_resolve); else false with the reason. */
static bool find_storage(isk_inst *inst, const char *name, int *index, char *msg, size_t cap)
{
    *index = -1;
    for (size_t i = 0; i < inst->model->storages.len && *index < 0; i++)
        if (strcasecmp(inst->model->storages.data[i].info.name, name) == 0) *index = (int)i;
    if (*index < 0)
        return fail(msg, cap, "%s (model '%s') has no storage '%s'", inst->name, inst->model->name, name);
    return true;
}

/* The same, a SHARED_MEMORY one. */
static bool shared_storage(isk_inst *inst, const char *name, int *index, char *msg, size_t cap)
{
    if (!find_storage(inst, name, index, msg, cap)) return false;
    if (!inst->model->storages.data[*index].info.shared)
        return fail(msg, cap, "storage '%s' of %s (model '%s') is not a SHARED_MEMORY", name, inst->name,
                    inst->model->name);
    return true;
}

/* Two instances of one system, before its first clock (storages are then `what`). */
static bool connectable(const isk_inst *inst, const isk_inst *other, const char *what, char *msg, size_t cap)
{
    if (inst->sys != other->sys) return fail(msg, cap, "%s and %s are not in the same system", inst->name, other->name);
    if (inst->sys->clock)
        return fail(msg, cap, "%s: storages are %s before the first clock, not at clock %llu", inst->name, what,
                    (unsigned long long)inst->sys->clock);
    return true;
}

isk_status isk_share_storage(isk_inst *inst, const char *name, isk_inst *owner, const char *owner_name, char *msg,
                             size_t cap)
{
    int i, j;
    if (!connectable(inst, owner, "shared", msg, cap)) return ISK_FAILED;
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
    if (owned) isk_storage_free(old, (size_t)a->count * (size_t)inst->model->storages.data[i].cell_bytes);
    return ISK_OK;
}

/* "[0x80000000, 0x80000400)" */
static void describe_range(char *out, size_t cap, uint64_t base, uint64_t size)
{
    snprintf(out, cap, "[0x%llx, 0x%llx)", (unsigned long long)base, (unsigned long long)(base + size));
}

isk_status isk_map_storage(isk_inst *proc, uint64_t base, isk_inst *target, const char *storage, char *msg,
                           size_t cap)
{
    int i;
    if (!proc->contexts) {
        fail(msg, cap, "%s (model '%s') is not a processor: only processors have a bus", proc->name,
             proc->model->name);
        return ISK_FAILED;
    }
    if (!connectable(proc, target, "mapped", msg, cap) || !find_storage(target, storage, &i, msg, cap))
        return ISK_FAILED;
    const isk_storage *st = &target->model->storages.data[i];
    if (st->private_storage) {
        fail(msg, cap, "%s.%s is declared PRIVATE (model '%s'): no processor may map it", target->name,
             st->info.name, target->model->name);
        return ISK_FAILED;
    }
    uint64_t size = st->info.count * (uint64_t)st->cell_bytes;
    char range[64], other[64];
    describe_range(range, sizeof range, base, size);
    if (base + size < base) {
        fail(msg, cap, "%s.%s at 0x%llx runs past the end of the address space", target->name, st->info.name,
             (unsigned long long)base);
        return ISK_FAILED;
    }
    for (int k = 0; k < proc->nbus; k++) {
        const struct isk_bus_map *m = &proc->bus[k];
        if (base < m->base + m->size && m->base < base + size) {
            describe_range(other, sizeof other, m->base, m->size);
            fail(msg, cap, "%s.%s at %s overlaps %s.%s mapped at %s", target->name, st->info.name, range,
                 m->target->name, m->target->model->storages.data[m->storage].info.name, other);
            return ISK_FAILED;
        }
    }
    const isk_addrmap *map = &proc->model->map;
    for (size_t k = 0; k < map->regions.len; k++) {
        const isk_map_region *r = &map->regions.data[k];
        if (base < r->base + r->size && r->base < base + size) {
            describe_range(other, sizeof other, r->base, r->size);
            fail(msg, cap, "%s.%s at %s overlaps region %s of %s's own model '%s' at %s", target->name,
                 st->info.name, range, r->name, proc->name, proc->model->name, other);
            return ISK_FAILED;
        }
    }
    proc->bus = isk_xrealloc(proc->bus, (size_t)(proc->nbus + 1) * sizeof *proc->bus);
    proc->bus[proc->nbus++] = (struct isk_bus_map){ .base = base, .size = size, .target = target, .storage = i,
                                                   .cell_bytes = st->cell_bytes };
    return ISK_OK;
}
