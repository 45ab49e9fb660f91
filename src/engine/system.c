/* Systems and instances: creating them, wiring them, looking at them (isekit/sim.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/system.h"

/* ---- messages ---------------------------------------------------------------------------- */

void isk_report(isk_system *sys, isk_severity sev, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (sev == ISK_ERROR && !sys->last_error[0]) {
        va_list copy;
        va_copy(copy, ap);
        vsnprintf(sys->last_error, sizeof sys->last_error, fmt, copy);
        va_end(copy);
    }
    isk_diag_vreport(sys->diag, sev, NULL, fmt, ap);
    va_end(ap);
}

static int storage_by_member(const isk_model *m, const char *member)
{
    return isk_model_find_storage(m, member);
}

void isk_describe_cell(const isk_inst *inst, const char *storage, uint64_t index, bool qualified, char *out,
                       size_t cap)
{
    int s = storage_by_member(inst->model, storage);
    const isk_storage *st = s >= 0 ? &inst->model->storages.data[s] : NULL;
    const char *element = st && st->elements && index < st->info.count ? st->elements[index] : NULL;
    const char *prefix = qualified ? inst->name : "", *dot = qualified ? "." : "";
    if (st && st->info.kind == ISK_REGISTER)
        snprintf(out, cap, "%s%s%s", prefix, dot, storage);
    else if (element)
        snprintf(out, cap, "%s%s%s[%llu] (%s)", prefix, dot, storage, (unsigned long long)index, element);
    else
        snprintf(out, cap, "%s%s%s[%llu]", prefix, dot, storage, (unsigned long long)index);
}

void isk_describe_actor(const isk_inst *inst, int slot, char *out, size_t cap)
{
    if (!inst) {
        snprintf(out, cap, "the host");
    } else if (slot >= 0 && slot < inst->nslots) {
        const isk_slot *s = &inst->slots[slot];
        const char *beh = s->d ? inst->model->patterns.data[s->d->pattern].beh->name : "?";
        snprintf(out, cap, "%s slot %d (%s, word 0x%0*llx, launched at clock %llu)", inst->name, slot, beh,
                 (inst->model->word_bits + 3) / 4, (unsigned long long)s->word, (unsigned long long)s->started);
    } else if (inst->contexts) {
        uint32_t id = inst->hdr->context;
        snprintf(out, cap, "%s context %u, pc 0x%llx", inst->name, id, (unsigned long long)inst->hdr->pc);
    } else {
        snprintf(out, cap, "%s", inst->name);
    }
}

/* ---- cells ------------------------------------------------------------------------------- */

static int64_t cell_value(const isk_storage *st, const void *cell)
{
    uint64_t raw = isk_cell_read_raw(cell, st->cell_bytes);
    return isk_wrap((int64_t)raw, st->info.width, st->info.sign);
}

bool isk_cell_location(const isk_inst *inst, const void *cell, int *storage, uint64_t *index)
{
    const isk_model *m = inst->model;
    for (size_t i = 0; i < m->storages.len; i++) {
        const char *base = inst->buffers[i];
        uint64_t bytes = m->storages.data[i].info.count * (uint64_t)m->storages.data[i].cell_bytes;
        if ((const char *)cell >= base && (const char *)cell < base + bytes) {
            *storage = (int)i;
            *index = (uint64_t)((const char *)cell - base) / (uint64_t)m->storages.data[i].cell_bytes;
            return true;
        }
    }
    return false;
}

void isk_invalidate_code(isk_inst *inst, uint64_t address)
{
    if (inst->dcache && address < inst->ncode)   /* the entry of each instruction set */
        for (int k = 0; k < inst->model->isets; k++) {
            isk_decoded *d = &inst->dcache[(uint64_t)k * inst->ncode + address];
            /* an entry not decoded is left unwritten: its page may still be the template's */
            if (d->pattern >= 0) *d = (isk_decoded){ .fn = isk_decode_miss, .pattern = -1 };
        }
}

/* ---- systems ----------------------------------------------------------------------------- */

isk_system *isk_system_new(const isk_system_options *opt)
{
    isk_system *sys = isk_xcalloc(1, sizeof *sys);
    if (opt) sys->opt = *opt;
    isk_diag_init(&sys->own_diag);
    sys->diag = sys->opt.diag ? sys->opt.diag : &sys->own_diag;
    sys->cur_slot = -1;
    sys->phase = PHASE_BEGIN;
    VEC_RESERVE(&sys->wlog, 8);   /* SET appends a clock's first write without a test of room */
    return sys;
}

static size_t storage_bytes(const isk_storage *st)
{
    return (size_t)st->info.count * (size_t)st->cell_bytes;
}

static void free_inst(isk_inst *inst)
{
    const isk_model *m = inst->model;
    for (int i = 0; i < 8; i++)
        if (inst->data[i].key && inst->data[i].release) inst->data[i].release(inst->data[i].data);
    for (size_t i = 0; i < m->storages.len; i++)
        if (inst->owns_buffer[i]) isk_storage_free(inst->buffers[i], storage_bytes(&m->storages.data[i]));
    for (int s = 0; s < inst->nslots; s++)
        if (inst->slots[s].stack.lo) isk_stack_free(&inst->slots[s].stack);
    free(inst->buffers);
    free(inst->owns_buffer);
    free(inst->slots);
    free(inst->order);
    free(inst->contexts);
    isk_dcache_free(inst);
    free(inst->bus);
    for (size_t i = 0; inst->shadow && i < m->storages.len; i++) free(inst->shadow[i]);
    free(inst->shadow);
    free(inst->read_watched);
    free(inst->reported_states);
    for (size_t i = 0; i < m->params.len; i++) free(inst->params[i].text);
    free(inst->params);
    free(inst->hdr);
    free(inst->name);
    isk_model_release(inst->model);
    free(inst);
}

void isk_system_free(isk_system *sys)
{
    if (!sys) return;
    for (size_t i = 0; i < sys->insts.len; i++) free_inst(sys->insts.data[i]);
    VEC_FREE(&sys->insts);
    VEC_FREE(&sys->accelerators);
    VEC_FREE(&sys->processors);
    VEC_FREE(&sys->by_number);
    for (int i = 0; i < WRITE_RING; i++) VEC_FREE(&sys->ring[i]);
    VEC_FREE(&sys->crew);
    VEC_FREE(&sys->wlog);
    isk_commands_free(sys);
    VEC_FREE(&sys->group_writes);
    if (sys->cur_stack.lo) isk_stack_free(&sys->cur_stack);
    for (size_t i = 0; i < sys->spare_stacks.len; i++) isk_stack_free(&sys->spare_stacks.data[i]);
    VEC_FREE(&sys->spare_stacks);
    if (sys->recycle.lo) isk_stack_free(&sys->recycle);
    isk_guard_free(sys);
    free(sys);
}

/* A shared storage of another instance with the same name, or NULL. */
static void *find_shared(isk_system *sys, const isk_storage *st, isk_inst **owner, int *index)
{
    for (size_t i = 0; i < sys->insts.len; i++) {
        isk_inst *other = sys->insts.data[i];
        int s = isk_model_find_storage(other->model, st->info.name);
        if (s >= 0 && other->model->storages.data[s].info.shared) {
            *owner = other;
            *index = s;
            return other->buffers[s];
        }
    }
    return NULL;
}

static bool bind_storage(isk_system *sys, isk_inst *inst, size_t i)
{
    const isk_storage *st = &inst->model->storages.data[i];
    isk_inst *owner;
    int index;
    /* by name, unless the system's sharing is explicit (isk_share_storage) */
    void *buffer = st->info.shared && !sys->opt.explicit_sharing ? find_shared(sys, st, &owner, &index) : NULL;
    if (buffer) {
        const isk_storage *o = &owner->model->storages.data[index];
        if (o->info.width != st->info.width || o->info.count != st->info.count || o->info.sign != st->info.sign ||
            o->info.latency != st->info.latency) {
            isk_report(sys, ISK_ERROR, "shared memory %s of %s (%d bits x %llu) does not match that of %s "
                       "(%d bits x %llu)", st->info.name, inst->name, st->info.width,
                       (unsigned long long)st->info.count, owner->name, o->info.width,
                       (unsigned long long)o->info.count);
            return false;
        }
    } else {
        buffer = isk_storage_alloc(storage_bytes(st));
        inst->owns_buffer[i] = true;
    }
    isk_bind_buffer(inst, i, buffer);
    return true;
}

void isk_bind_buffer(isk_inst *inst, size_t i, void *buffer)
{
    const isk_storage *st = &inst->model->storages.data[i];
    inst->buffers[i] = buffer;
    /* The member's first fields are the cell pointer and the count (see ISK_STORAGE). */
    char *member = (char *)inst->hdr + st->offset;
    memcpy(member, &buffer, sizeof buffer);
    memcpy(member + sizeof(void *), &st->info.count, sizeof(uint64_t));
}

static void reset_inst(isk_inst *inst)
{
    const isk_model *m = inst->model;
    if (inst->contexts) {
        memset(inst->contexts, 0, sizeof *inst->contexts * inst->hdr->ncontexts);
        for (uint32_t id = 0; id < inst->hdr->ncontexts; id++) inst->contexts[id].wake_lines = ~UINT32_C(0);
        inst->contexts[0].pc = m->proc.reset_pc;
        inst->contexts[0].state = ISK_CTX_RUNNING;
        inst->hdr->lines = 0;
        inst->hdr->issued = 0;
        inst->hdr->issued_per_clock = 0;
        isk_sched_select(inst, m->proc.issue,
                         (uint64_t)(m->proc.issue == ISK_ISSUE_CPI ? m->proc.cpi : m->proc.distance), m->proc.scheduler);
        isk_dcache_clear(inst);
    }
    if (m->reset) {
        inst->sys->cur_inst = inst;
        m->reset(inst->hdr);
        inst->sys->cur_inst = NULL;
    }
    /* a reset is not a change of state the CONTEXT events report */
    for (uint32_t id = 0; inst->contexts && id < inst->hdr->ncontexts; id++)
        inst->reported_states[id] = (uint8_t)inst->contexts[id].state;
}

isk_inst *isk_system_add(isk_system *sys, isk_model *m, const char *name)
{
    if (isk_instance(sys, name)) {
        isk_report(sys, ISK_ERROR, "an instance named '%s' already exists", name);
        return NULL;
    }
    isk_inst *inst = isk_xcalloc(1, sizeof *inst);
    inst->sys = sys;
    inst->model = m;
    atomic_fetch_add(&m->refs, 1);
    inst->name = isk_xstrdup(name);
    inst->number = -1;
    inst->params = isk_xcalloc(m->params.len + 1, sizeof *inst->params);
    for (size_t i = 0; i < m->params.len; i++) inst->params[i].number = m->params.data[i].number;
    size_t size = (m->entry->state_size + 63) & ~(size_t)63;
    inst->hdr = aligned_alloc(64, size);
    if (!inst->hdr) abort();
    memset(inst->hdr, 0, size);
    inst->hdr->ops = &isk_engine_ops;
    inst->hdr->engine = inst;
    inst->hdr->wlog = &sys->wlog;
    inst->buffers = isk_xcalloc(m->storages.len + 1, sizeof *inst->buffers);
    inst->owns_buffer = isk_xcalloc(m->storages.len + 1, sizeof *inst->owns_buffer);
    inst->shadow = isk_xcalloc(m->storages.len + 1, sizeof *inst->shadow);
    inst->read_watched = isk_xcalloc(m->storages.len + 1, sizeof *inst->read_watched);
    for (size_t i = 0; i < m->storages.len; i++)
        if (!bind_storage(sys, inst, i)) {
            free_inst(inst);
            return NULL;
        }
    if (m->slots) {
        inst->nslots = m->slots;
        inst->slots = isk_xcalloc((size_t)m->slots, sizeof *inst->slots);
        inst->order = isk_xcalloc((size_t)m->slots, sizeof *inst->order);
        /* SET takes the inline entry only for a latency-1 storage (model.h isk_store): a model
         * without one, whose commands would only pay for arming it, is never armed */
        for (size_t i = 0; i < m->storages.len; i++) inst->arms_inline |= m->storages.data[i].info.latency == 1;
        isk_launch_cache_clear(inst);
        VEC_PUSH(&sys->accelerators, inst);
        for (size_t k = 0; k < m->patterns.len; k++) sys->ahead.declared |= m->patterns.data[k].inert;
    }
    if (m->is_processor) {
        inst->hdr->ncontexts = (uint32_t)m->proc.contexts;
        inst->contexts = isk_xcalloc((size_t)m->proc.contexts, sizeof *inst->contexts);
        inst->reported_states = isk_xcalloc((size_t)m->proc.contexts, sizeof *inst->reported_states);
        inst->hdr->contexts = inst->contexts;
        inst->ncode = m->storages.data[m->code_storage].info.count;
        inst->groups = m->proc.group_bit > 0;
        isk_dcache_new(inst);
        VEC_PUSH(&sys->processors, inst);
    }
    VEC_PUSH(&sys->insts, inst);
    reset_inst(inst);
    return inst;
}

isk_status isk_attach(isk_system *sys, isk_inst *acc, int number)
{
    if (number < 0 || number > 4095 || !acc->nslots) {
        isk_report(sys, ISK_ERROR, "cannot attach %s as accelerator %d (%s)", acc->name, number,
                   acc->nslots ? "numbers are 0..4095" : "its model declares no SLOTS");
        return ISK_FAILED;
    }
    while (sys->by_number.len <= (size_t)number) VEC_PUSH(&sys->by_number, NULL);
    sys->by_number.data[number] = acc;
    acc->number = number;
    return ISK_OK;
}

isk_inst *isk_instance(isk_system *sys, const char *name)
{
    for (size_t i = 0; i < sys->insts.len; i++)
        if (strcmp(sys->insts.data[i]->name, name) == 0) return sys->insts.data[i];
    return NULL;
}

isk_inst *isk_instance_at(isk_system *sys, int i)
{
    return i >= 0 && (size_t)i < sys->insts.len ? sys->insts.data[i] : NULL;
}

const char *isk_inst_name(const isk_inst *inst) { return inst->name; }
const isk_model *isk_inst_model(const isk_inst *inst) { return inst->model; }
isk_hdr *isk_inst_state(isk_inst *inst) { return inst->hdr; }

isk_status isk_inst_set_data(isk_inst *inst, const void *key, void *data, void (*release)(void *data))
{
    int free_at = -1;
    for (int i = 0; i < 8; i++) {
        if (inst->data[i].key == key) {
            if (inst->data[i].release) inst->data[i].release(inst->data[i].data);
            inst->data[i].data = data;
            inst->data[i].release = release;
            return ISK_OK;
        }
        if (!inst->data[i].key && free_at < 0) free_at = i;
    }
    if (free_at < 0) {
        isk_report(inst->sys, ISK_ERROR, "isk_inst_set_data: instance '%s' holds 8 keys already", inst->name);
        if (release) release(data);
        return ISK_FAILED;
    }
    inst->data[free_at].key = key;
    inst->data[free_at].data = data;
    inst->data[free_at].release = release;
    return ISK_OK;
}

void *isk_inst_data(const isk_inst *inst, const void *key)
{
    for (int i = 0; i < 8; i++)
        if (inst->data[i].key == key) return inst->data[i].data;
    return NULL;
}

void isk_set_before_issue(isk_system *sys, int (*fn)(void *user, uint64_t clock, isk_inst *proc, uint32_t context,
                                                     uint64_t pc), void *user)
{
    sys->opt.before_issue = fn;
    sys->opt.before_issue_user = user;
}

void isk_get_before_issue(const isk_system *sys, int (**fn)(void *user, uint64_t clock, isk_inst *proc,
                                                            uint32_t context, uint64_t pc), void **user)
{
    *fn = sys->opt.before_issue;
    *user = sys->opt.before_issue_user;
}

isk_status isk_set_param(isk_inst *inst, const char *key, const char *value)
{
    const isk_model *m = inst->model;
    int i = isk_model_find_param(m, key);
    char why[512];
    int64_t number;
    const char *text;
    if (i < 0) {
        isk_model_check_param(m, key, value, why, sizeof why);
        isk_report(inst->sys, ISK_ERROR, "%s: %s", inst->name, why);
        return ISK_FAILED;
    }
    if (!isk_param_parse(&m->params.data[i], value, &number, &text, why, sizeof why)) {
        isk_report(inst->sys, ISK_ERROR, "%s: parameter %s=%s: %s", inst->name, key, value, why);
        return ISK_FAILED;
    }
    char *copy = isk_xstrdup(text);
    free(inst->params[i].text);
    inst->params[i] = (isk_param_value){ copy, number };
    reset_inst(inst);
    return ISK_OK;
}

isk_status isk_set_param_text(isk_inst *inst, const char *assignment)
{
    const char *eq = strchr(assignment, '=');
    if (!eq) {
        isk_report(inst->sys, ISK_ERROR, "parameter '%s': write KEY=VALUE", assignment);
        return ISK_FAILED;
    }
    char *key = isk_xstrndup(assignment, (size_t)(eq - assignment));
    isk_status st = isk_set_param(inst, key, eq + 1);
    free(key);
    return st;
}

const char *isk_get_param(const isk_inst *inst, const char *key)
{
    int i = isk_model_find_param(inst->model, key);
    if (i < 0) return NULL;
    return inst->params[i].text ? inst->params[i].text : inst->model->params.data[i].info.def;
}

bool isk_get_param_number(const isk_inst *inst, const char *key, int64_t *out)
{
    int i = isk_model_find_param(inst->model, key);
    *out = 0;
    if (i < 0 || inst->model->params.data[i].d.type == ISK_PARAM_TEXT) return false;
    *out = inst->params[i].number;
    return true;
}

/* What GET_PARAM and PARAM_VALUE read. A model reading a name it does not declare, or the
 * number of a text, has a bug: say so. */
int64_t isk_read_param_number(isk_inst *inst, const char *key)
{
    int64_t v;
    if (!isk_get_param_number(inst, key, &v))
        isk_report(inst->sys, ISK_ERROR, "%s: model '%s' reads parameter '%s' as a number, but %s", inst->name,
                   inst->model->name, key,
                   isk_model_find_param(inst->model, key) < 0 ? "declares no such parameter"
                                                              : "declares it as text (PARAM_VALUE)");
    return v;
}

const char *isk_read_param(isk_inst *inst, const char *key)
{
    const char *v = isk_get_param(inst, key);
    if (!v)
        isk_report(inst->sys, ISK_ERROR, "%s: model '%s' reads parameter '%s', but declares no such parameter",
                   inst->name, inst->model->name, key);
    return v;
}

void isk_set_ports(isk_inst *inst, isk_port_read_fn rd, isk_port_write_fn wr, void *user)
{
    inst->port_read = rd;
    inst->port_write = wr;
    inst->port_user = user;
}

void isk_set_driver(isk_system *sys, isk_driver_fn fn, void *user)
{
    sys->driver = fn;
    sys->driver_user = user;
    sys->driver_done = false;
    sys->driver_wait = 0;
}

void isk_driver_wait_until(isk_system *sys, uint64_t clock) { sys->driver_wait = clock; }

/* ---- running ----------------------------------------------------------------------------- */

static isk_status run(isk_system *sys)
{
    if (sys->crashed) {
        isk_report(sys, ISK_ERROR, "clock %llu: the system cannot run on after a crash in model code",
                   (unsigned long long)sys->clock);
        return ISK_FAILED;
    }
    if (sys->status != ISK_OK) return sys->status;
    sys->stop_reason[0] = 0;
    /* A stop requested between runs ends this one before its first clock. */
    if (atomic_load_explicit(&sys->stop_requested, memory_order_relaxed) && atomic_exchange(&sys->stop_requested, 0))
        sys->run_until = sys->clock;
    bool guarded = sys->opt.catch_crashes || sys->opt.watchdog_ms;
    isk_system *outer = guarded ? isk_guard_enter(sys) : NULL;
    if (sys->accelerators.len == 0) {
        isk_clock_run(sys);
    } else {
        /* Commands may need to suspend, which takes the stack they run on: run the clock loop
         * on a stack of the engine's, never on the caller's. */
        pthread_t self = pthread_self();
        if (!sys->caller_ready || !pthread_equal(self, sys->caller_thread)) {
            isk_coro_init_thread(&sys->caller);
            sys->caller_thread = self;
            sys->caller_ready = true;
        }
        if (!sys->cur_stack.lo) sys->cur_stack = isk_take_stack(sys);
        isk_coro_start(&sys->caller, &sys->cur_stack, isk_engine_main, sys);
    }
    if (guarded) isk_guard_leave(sys, outer);
    if (atomic_load_explicit(&sys->stop_requested, memory_order_relaxed))
        atomic_store(&sys->stop_requested, 0);   /* a request during the run ended it */
    if (sys->status == ISK_OK && sys->stop_now) {
        sys->stop_now = false;                   /* the next run continues from here */
        return ISK_BREAK;
    }
    return sys->status;
}

isk_status isk_step(isk_system *sys, uint64_t clocks)
{
    sys->run_until = sys->clock + clocks;
    sys->run_to_end = false;
    return run(sys);
}

isk_status isk_run(isk_system *sys, uint64_t max_clocks)
{
    sys->run_to_end = true;
    sys->reached_end = false;
    sys->run_until = max_clocks ? sys->clock + max_clocks : UINT64_MAX;
    isk_status st = run(sys);
    if (st != ISK_OK) return st;
    return sys->reached_end ? ISK_STOPPED : ISK_OK;
}

void isk_stop_after_clock(isk_system *sys)
{
    if (sys->run_until > sys->clock + 1) sys->run_until = sys->clock + 1;
    isk_queue_leave(sys);   /* the slotless loop reads the limit again */
}

/* Only stores, so that a signal handler may call it: the limit first, then the attention of every
 * instance and the slotless loop's exit word (the fast issue loops and the slotless loop read the
 * limit only after clearing those, see issue.c and clock.c). Here and where a loop begins the
 * fences are thread fences: from another thread (or a signal delivered to another thread, as
 * SIGINT may be), a loop's clearing store could otherwise wait in its store buffer past its read
 * of the limit and then wipe out the request's attention. Where a loop goes on after an
 * instruction's attention the fence stays a signal fence (a thread fence there made KCPSM6 40 %
 * slower: its port accesses ask for attention often), so a request from another thread that
 * lands in that window is seen at the next attention or the next run, not at once. */
void isk_request_stop(isk_system *sys)
{
    atomic_store(&sys->stop_requested, 1);
    uint64_t until = isk_live_clock(sys) + 1;
    if (__atomic_load_n(&sys->run_until, __ATOMIC_RELAXED) > until)
        __atomic_store_n(&sys->run_until, until, __ATOMIC_RELAXED);
    atomic_thread_fence(memory_order_seq_cst);
    __atomic_store_n(&sys->queue.leave, true, __ATOMIC_RELAXED);   /* the slotless loop reads the limit again */
    for (size_t i = 0; i < sys->processors.len; i++)
        __atomic_store_n(&sys->processors.data[i]->hdr->attention, 1, __ATOMIC_RELAXED);
    /* the slotless loop tests its accelerator's attention (whichever runs it: no other reads an
     * accelerator's, clock.c run_slotless) */
    for (size_t i = 0; i < sys->accelerators.len; i++)
        __atomic_store_n(&sys->accelerators.data[i]->hdr->attention, 1, __ATOMIC_RELAXED);
}

/* ---- what is going on -------------------------------------------------------------------- */

typedef struct line_sink { char *buf; size_t cap, len; bool full; } line_sink;

static void add_line(line_sink *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_line(line_sink *o, const char *fmt, ...)
{
    if (o->full || !o->cap) return;
    char line[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t n = strlen(line);
    if (o->len + n + 2 > o->cap) {
        /* no room for this line: end with "..." if that fits */
        static const char more[] = "...\n";
        if (o->len + sizeof more <= o->cap) memcpy(o->buf + o->len, more, sizeof more), o->len += sizeof more - 1;
        o->full = true;
        return;
    }
    memcpy(o->buf + o->len, line, n);
    o->buf[o->len + n] = '\n';
    o->len += n + 1;
    o->buf[o->len] = 0;
}

int isk_describe_activity(const isk_system *sys, char *buf, size_t cap)
{
    line_sink o = { buf, cap, 0, false };
    if (cap) buf[0] = 0;
    int active = 0;
    for (size_t i = 0; i < sys->accelerators.len; i++) {
        const isk_inst *a = sys->accelerators.data[i];
        for (int k = 0; k < a->norder; k++) {
            const isk_slot *slot = &a->slots[a->order[k]];
            if (slot->state == SLOT_DONE || slot->state == SLOT_FREE) continue;
            const char *beh = slot->d ? a->model->patterns.data[slot->d->pattern].beh->name : "?";
            add_line(&o, "%s slot %d: %s (word 0x%0*llx), launched at clock %llu, in its clock %llu", a->name,
                     a->order[k], beh, (a->model->word_bits + 3) / 4, (unsigned long long)slot->word,
                     (unsigned long long)slot->started, (unsigned long long)(sys->clock - slot->started + 1));
            active++;
        }
    }
    for (size_t i = 0; i < sys->processors.len; i++) {
        const isk_inst *p = sys->processors.data[i];
        for (uint32_t id = 0; id < p->hdr->ncontexts; id++) {
            const isk_context *c = &p->contexts[id];
            unsigned long long pc = (unsigned long long)c->pc;
            if (c->state == ISK_CTX_RUNNING) {
                add_line(&o, "%s context %u: running at pc 0x%llx", p->name, id, pc);
                active++;
            } else if (c->state == ISK_CTX_BLOCKED) {
                add_line(&o, "%s context %u: blocked until clock %llu at pc 0x%llx", p->name, id,
                         (unsigned long long)c->ready_at, pc);
                active++;
            } else if (c->state == ISK_CTX_SLEEPING) {
                add_line(&o, "%s context %u: sleeping at pc 0x%llx, waits for a wake-up", p->name, id, pc);
            }
        }
    }
    const size_t pending = sys->pending + isk_log_uncounted(&sys->wlog);
    if (pending) {
        add_line(&o, "%zu write%s pending", pending, pending == 1 ? "" : "s");
        active++;
    }
    if (sys->interrupts)
        add_line(&o, "%d interrupt%s not taken", sys->interrupts, sys->interrupts == 1 ? "" : "s");
    return active;
}

/* live: also from another thread while a fast loop keeps the clock in its header (system.h) */
uint64_t isk_clock(const isk_system *sys) { return isk_live_clock(sys); }
const char *isk_last_error(const isk_system *sys) { return sys->last_error; }
int isk_busy_slots(const isk_inst *acc) { return acc->norder; }

int isk_interrupts(isk_system *sys, int take, isk_inst **from)
{
    int n = sys->interrupts;
    if (from) *from = sys->interrupt_from;
    if (take) sys->interrupts = 0;
    return n;
}

isk_context *isk_context_of(isk_inst *proc, int id)
{
    if (!proc->contexts || id < 0 || (uint32_t)id >= proc->hdr->ncontexts) return NULL;
    isk_sync_fast_counts(proc->sys);             /* exact also from a port handler */
    proc->sched_stale = true;                    /* the caller may change the context */
    return &proc->contexts[id];
}

const char *isk_stop_reason(const isk_system *sys) { return sys->stop_reason; }

isk_status isk_route_interrupt(isk_inst *from, int line, isk_inst *to, int to_line)
{
    if (line < 0 || line > 31 || to_line < 0 || to_line > 31 || !to || !to->contexts || to->sys != from->sys) {
        isk_report(from->sys, ISK_ERROR, "cannot route interrupt line %d of %s to line %d of %s: lines are "
                   "0..31 and the target must be a processor of the same system", line, from->name, to_line,
                   to ? to->name : "(none)");
        return ISK_FAILED;
    }
    from->routes[line].to = to;
    from->routes[line].line = to_line;
    return ISK_OK;
}

isk_status isk_raise_line(isk_inst *proc, int line)
{
    if (!proc->contexts || line < 0 || line > 31) {
        isk_report(proc->sys, ISK_ERROR, "cannot raise line %d of %s: lines are 0..31 of a processor", line,
                   proc->name);
        return ISK_FAILED;
    }
    isk_deliver_line(proc, line);
    return ISK_OK;
}

/* The host starts or stops a context between runs. */
static isk_status host_sets_context(isk_inst *proc, int context, uint64_t pc, uint32_t state)
{
    isk_context *c = isk_context_of(proc, context);
    if (!c) {
        isk_report(proc->sys, ISK_ERROR, "%s has no context %d", proc->name, context);
        return ISK_FAILED;
    }
    c->pc = pc;
    c->state = state;
    if (state == ISK_CTX_RUNNING) c->ready_at = proc->sys->clock;
    proc->sched_stale = true;        /* the scheduler's view of the live contexts */
    return ISK_OK;
}

isk_status isk_start(isk_inst *proc, int context, uint64_t pc)
{
    return host_sets_context(proc, context, pc, ISK_CTX_RUNNING);
}

isk_status isk_stop(isk_inst *proc, int context, uint64_t pc)
{
    return host_sets_context(proc, context, pc, ISK_CTX_STOPPED);
}

/* ---- storage by name --------------------------------------------------------------------- */

isk_status isk_resolve(isk_inst *inst, const char *name, isk_ref *out, char *msg, size_t cap)
{
    const isk_model *m = inst->model;
    const char *bracket = strchr(name, '[');
    size_t len = bracket ? (size_t)(bracket - name) : strlen(name);
    while (len && isspace((unsigned char)name[len - 1])) len--;
    bool has_index = false;
    uint64_t index = 0;
    if (bracket) {
        char *end;
        index = strtoull(bracket + 1, &end, 0);
        while (isspace((unsigned char)*end)) end++;
        if (end == bracket + 1 || *end != ']' || end[1]) {
            snprintf(msg, cap, "'%s': bad index (write NAME[number])", name);
            return ISK_FAILED;
        }
        has_index = true;
    }
    for (size_t i = 0; i < m->storages.len; i++) {
        const isk_storage *st = &m->storages.data[i];
        bool named = (strlen(st->info.name) == len && strncasecmp(st->info.name, name, len) == 0) ||
                     (strlen(st->info.title) == len && strncasecmp(st->info.title, name, len) == 0);
        if (named) {
            if (index >= st->info.count) {
                snprintf(msg, cap, "'%s': index %llu is outside %s (%llu cells)", name,
                           (unsigned long long)index, st->info.name, (unsigned long long)st->info.count);
                return ISK_FAILED;
            }
            *out = (isk_ref){ inst, (int)i, index };
            return ISK_OK;
        }
        for (uint64_t e = 0; st->elements && e < st->info.count; e++)
            if (st->elements[e] && strlen(st->elements[e]) == len && strncasecmp(st->elements[e], name, len) == 0) {
                if (has_index) {
                    snprintf(msg, cap, "'%s' names one register; it takes no index", st->elements[e]);
                    return ISK_FAILED;
                }
                *out = (isk_ref){ inst, (int)i, e };
                return ISK_OK;
            }
    }
    snprintf(msg, cap, "%s (model '%s') has no storage or register named '%.*s'", inst->name, m->name,
               (int)len, name);
    return ISK_FAILED;
}

isk_status isk_lookup(isk_inst *inst, const char *name, isk_ref *out)
{
    char msg[300];
    if (isk_resolve(inst, name, out, msg, sizeof msg) == ISK_OK) return ISK_OK;
    isk_report(inst->sys, ISK_ERROR, "%s", msg);
    return ISK_FAILED;
}

static void *ref_cell(const isk_ref *r)
{
    const isk_storage *st = &r->inst->model->storages.data[r->storage];
    return (char *)r->inst->buffers[r->storage] + r->index * (uint64_t)st->cell_bytes;
}

int64_t isk_ref_read(const isk_ref *r)
{
    return cell_value(&r->inst->model->storages.data[r->storage], ref_cell(r));
}

void isk_ref_write(const isk_ref *r, int64_t value)
{
    const isk_storage *st = &r->inst->model->storages.data[r->storage];
    isk_cell_write_raw(ref_cell(r), st->cell_bytes, isk_wrap(value, st->info.width, st->info.sign));
    if (st->info.kind == ISK_CODE_MEMORY) isk_invalidate_code(r->inst, r->index);
}

static isk_status lookup_indexed(isk_inst *inst, const char *name, uint64_t index, isk_ref *r)
{
    if (isk_lookup(inst, name, r) != ISK_OK) return ISK_FAILED;
    const isk_storage *st = &inst->model->storages.data[r->storage];
    if (index && r->index + index >= st->info.count) {
        isk_report(inst->sys, ISK_ERROR, "'%s' + %llu is outside %s (%llu cells)", name, (unsigned long long)index,
                   st->info.name, (unsigned long long)st->info.count);
        return ISK_FAILED;
    }
    r->index += index;
    return ISK_OK;
}

isk_status isk_read(isk_inst *inst, const char *name, uint64_t index, int64_t *value)
{
    isk_ref r;
    if (lookup_indexed(inst, name, index, &r) != ISK_OK) return ISK_FAILED;
    *value = isk_ref_read(&r);
    return ISK_OK;
}

isk_status isk_write(isk_inst *inst, const char *name, uint64_t index, int64_t value)
{
    isk_ref r;
    if (lookup_indexed(inst, name, index, &r) != ISK_OK) return ISK_FAILED;
    isk_ref_write(&r, value);
    return ISK_OK;
}

static bool storage_range_ok(isk_inst *inst, int storage, uint64_t first, uint64_t n, const char *what)
{
    const isk_model *m = inst->model;
    if (storage < 0 || (size_t)storage >= m->storages.len || first > m->storages.data[storage].info.count ||
        n > m->storages.data[storage].info.count - first) {
        isk_report(inst->sys, ISK_ERROR, "%s: cannot %s %llu cells at %llu", inst->name, what, (unsigned long long)n,
                   (unsigned long long)first);
        return false;
    }
    return true;
}

isk_status isk_storage_load(isk_inst *inst, int storage, uint64_t first, const int64_t *values, uint64_t n)
{
    if (!storage_range_ok(inst, storage, first, n, "load")) return ISK_FAILED;
    for (uint64_t i = 0; i < n; i++) isk_ref_write(&(isk_ref){ inst, storage, first + i }, values[i]);
    return ISK_OK;
}

isk_status isk_storage_clear(isk_inst *inst, int storage, uint64_t first, uint64_t n)
{
    if (!storage_range_ok(inst, storage, first, n, "clear")) return ISK_FAILED;
    const isk_storage *st = &inst->model->storages.data[storage];
    if (st->info.kind == ISK_CODE_MEMORY) {         /* each decoded entry goes too */
        for (uint64_t i = 0; i < n; i++) isk_ref_write(&(isk_ref){ inst, storage, first + i }, 0);
        return ISK_OK;
    }
    if (n) isk_storage_zero(ref_cell(&(isk_ref){ inst, storage, first }), (size_t)n * (size_t)st->cell_bytes,
                            storage_bytes(st));
    return ISK_OK;
}

/* Clocks run so far by the commands still in their slots: counted in the occupancy of a run
 * that stopped before they ended (a clock limit, Ctrl-C), as if they ended now. */
static uint64_t unfinished_slot_clocks(const isk_inst *a)
{
    uint64_t n = 0;
    for (int s = 0; s < a->nslots; s++)
        if (a->slots[s].state != SLOT_FREE && a->slots[s].state != SLOT_DONE && a->sys->clock > a->slots[s].started)
            n += a->sys->clock - a->slots[s].started;
    return n;
}

/* A fast loop counts its instructions and clocks when it leaves: a handler inside one (at the
 * system's clock, its instruction not yet counted) sees them as the per-clock path counts them. */
static uint64_t fast_loop_issued(const isk_system *sys, const isk_inst *inst)
{
    const isk_inst *p = sys->fast.proc;
    return p && (!inst || inst == p) ? isk_issued(p->hdr) - sys->fast.issued_before : 0;
}

/* The commands' counts are kept per accelerator only (one increment per launch and end, not
 * two) and summed here. */
void isk_get_stats(const isk_system *sys, isk_stats *out)
{
    *out = sys->stats;
    out->instructions += fast_loop_issued(sys, NULL);
    if (sys->fast.proc) out->clocks += sys->clock - sys->fast.start;
    for (size_t i = 0; i < sys->accelerators.len; i++) {
        const isk_inst *a = sys->accelerators.data[i];
        out->launches += a->stats.launches;
        out->commands_done += a->stats.commands_done;
        out->slot_clocks += a->stats.slot_clocks + unfinished_slot_clocks(a);
    }
}

void isk_inst_stats(const isk_inst *inst, isk_stats *out)
{
    *out = inst->stats;
    out->instructions += fast_loop_issued(inst->sys, inst);
    if (inst->nslots) out->slot_clocks += unfinished_slot_clocks(inst);
}
