/* The debugger's core (debug_core.h). */
#include "cli/debug_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/disasm.h"
#include "base/vec.h"
#include "cli/launchlist.h"
#include "isekit/desc.h"

/* Before each processor instruction while a debugger is attached: the call stack learns where
 * the context's last instruction went, then breakpoints (gdb reports a breakpoint a step lands
 * on), then the step of the selected context and finish. */
static int before_issue(void *user, uint64_t clock, isk_inst *proc, uint32_t context, uint64_t pc)
{
    dbg_core *d = user;
    long depth = dbg_calls_issue(&d->calls, proc, context, pc);
    if (d->chain && d->chain(d->chain_user, clock, proc, context, pc)) {
        d->chain_hit = true;
        return 1;
    }
    for (size_t i = 0; i < d->points.len; i++) {
        dbg_point *p = &d->points.data[i];
        if (p->watch || p->in_list || p->pc != pc || (p->proc && p->proc != proc)) continue;
        p->hits++;
        d->hit = (dbg_stop){ .kind = DBG_BREAKPOINT, .id = p->id, .proc = proc, .context = context, .pc = pc,
                             .clock = clock };
        d->hit_set = true;
        return 1;
    }
    if (d->steps_left >= 0 && proc == d->proc && context == d->context) {
        if (d->steps_left-- > 0) return 0;
        d->hit = (dbg_stop){ .kind = DBG_STEP, .proc = proc, .context = context, .pc = pc, .clock = clock };
        d->hit_set = true;
        return 1;
    }
    if (d->finish_depth >= 0 && depth < d->finish_depth && proc == d->proc && context == d->context) {
        d->hit = (dbg_stop){ .kind = DBG_STEP, .proc = proc, .context = context, .pc = pc, .clock = clock };
        d->hit_set = true;
        return 1;
    }
    return 0;
}

/* A LOAD event: the first read or access watchpoint whose cells it covers stops the run at the
 * end of this clock, naming the reader (the instruction that read, or the command's slot). */
static void on_load(dbg_core *d, const isk_event *ev)
{
    for (size_t i = 0; i < d->points.len && !d->hit_set; i++) {
        dbg_point *p = &d->points.data[i];
        if (!p->watch || p->access == DBG_ON_WRITE || p->inst != ev->inst || p->storage != ev->storage ||
            ev->index > p->last || ev->index + ev->amount <= p->first)
            continue;
        const uint64_t cell = ev->index > p->first ? ev->index : p->first;
        p->hits++;
        d->hit = (dbg_stop){ .kind = DBG_READ_WATCH, .id = p->id, .inst = ev->inst, .storage = ev->storage,
                             .index = cell, .value = isk_ref_read(&(isk_ref){ ev->inst, ev->storage, cell }),
                             .clock = ev->clock, .slot = ev->slot };
        if (ev->slot < 0 && isk_inst_model(ev->inst)->is_processor) {
            d->hit.proc = ev->inst;
            d->hit.context = ev->context;
            d->hit.pc = ev->pc;
        }
        d->hit_set = true;
        isk_stop_after_clock(d->sys);
    }
}

/* ---- call frames ---------------------------------------------------------------------------- */

static int flow_of(const isk_inst *proc, int instruction)
{
    const isk_instruction_info *ii = instruction >= 0 ? isk_model_instruction(isk_inst_model(proc), instruction) : NULL;
    return ii ? ii->flow : ISK_FLOW_NONE;
}

bool dbg_model_has_calls(const isk_inst *proc)
{
    const isk_model *m = isk_inst_model(proc);
    for (int i = 0; i < isk_model_instruction_count(m); i++)
        if (isk_model_instruction(m, i)->flow == ISK_FLOW_CALL) return true;
    return false;
}

static dbg_calls *calls_of(dbg_callstacks *cs, isk_inst *proc, uint32_t context)
{
    if (cs->last && cs->last->proc == proc && cs->last->context == context) return cs->last;
    size_t i = 0;
    while (i < cs->calls.len && (cs->calls.data[i].proc != proc || cs->calls.data[i].context != context)) i++;
    if (i == cs->calls.len) {
        const isk_context *ctx = isk_context_of(proc, (int)context);
        VEC_PUSH(&cs->calls, ((dbg_calls){ .proc = proc, .context = context, .head = ctx ? ctx->pc : 0 }));
    }
    return cs->last = &cs->calls.data[i];
}

/* The context's next issue is at `next`: a pending call was taken if it does not fall through
 * to the instruction after its issue (group); a pending return returns to the innermost frame
 * whose return address is `next` (recursion: each frame pops once). */
static void calls_resolve(dbg_calls *c, uint64_t next)
{
    int pending = c->pending;
    c->pending = ISK_FLOW_NONE;
    if (pending == ISK_FLOW_CALL && next != c->head + c->words) {
        if (c->frames.len == DBG_MAX_FRAMES) {     /* keep the innermost half: calls that never return */
            memmove(c->frames.data, c->frames.data + DBG_MAX_FRAMES / 2, DBG_MAX_FRAMES / 2 * sizeof *c->frames.data);
            c->frames.len = DBG_MAX_FRAMES / 2;
            c->truncated = true;
        }
        VEC_PUSH(&c->frames, ((dbg_frame){ .site = c->site, .ret = c->head + c->words, .entry = next }));
    } else if (pending == ISK_FLOW_RETURN) {
        for (size_t k = c->frames.len; k-- > 0;)
            if (c->frames.data[k].ret == next) {
                c->frames.len = k;
                break;
            }
    }
    c->head = next;
    c->words = 0;
}

static void on_issue(void *user, const isk_event *ev)
{
    dbg_calls *c = calls_of(user, ev->inst, ev->context);
    c->words++;
    int flow = flow_of(ev->inst, ev->instruction);
    if (flow != ISK_FLOW_NONE) {
        c->pending = flow;
        c->site = ev->pc;
    }
}

void dbg_calls_attach(dbg_callstacks *cs, isk_system *sys)
{
    memset(cs, 0, sizeof *cs);
    cs->sys = sys;
    for (int i = 0; isk_instance_at(sys, i); i++) {
        isk_inst *p = isk_instance_at(sys, i);
        if (!isk_inst_model(p)->is_processor || !dbg_model_has_calls(p)) continue;
        calls_of(cs, p, 0);          /* sets cs->last: the hooks look contexts up from now on */
        isk_subscribe(sys, ISK_EV_BIT(ISK_EV_ISSUE), on_issue, cs);
        return;
    }
}

void dbg_calls_detach(dbg_callstacks *cs)
{
    if (cs->last) isk_unsubscribe(cs->sys, on_issue, cs);
    for (size_t i = 0; i < cs->calls.len; i++) VEC_FREE(&cs->calls.data[i].frames);
    VEC_FREE(&cs->calls);
    cs->last = NULL;
}

long dbg_calls_issue(dbg_callstacks *cs, isk_inst *proc, uint32_t ctx, uint64_t pc)
{
    if (!cs->last) return -1;
    dbg_calls *c = calls_of(cs, proc, ctx);
    calls_resolve(c, pc);
    return (long)c->frames.len;
}

int dbg_calls_frames(dbg_callstacks *cs, isk_inst *proc, uint32_t ctx, dbg_frame *out, int max, bool *truncated)
{
    if (truncated) *truncated = false;
    if (!cs->last || !proc) return 0;
    dbg_calls *c = calls_of(cs, proc, ctx);
    /* stopped at a clock's end (watch, cycle): the context's pc is where its last call went */
    const isk_context *x = isk_context_of(proc, (int)ctx);
    if (c->pending && x) calls_resolve(c, x->pc);
    int n = (int)c->frames.len;
    for (int k = 0; k < n && k < max; k++) out[k] = c->frames.data[n - 1 - k];
    if (truncated) *truncated = c->truncated;
    return n;
}

int dbg_frames(dbg_core *d, isk_inst *proc, uint32_t ctx, dbg_frame *out, int max, bool *truncated)
{
    return dbg_calls_frames(&d->calls, proc, ctx, out, max, truncated);
}

static void on_event(void *user, const isk_event *ev)
{
    dbg_core *d = user;
    if (ev->kind == ISK_EV_LOAD) {
        on_load(d, ev);
        return;
    }
    if (ev->kind == ISK_EV_LAUNCH) {
        VEC_PUSH(&d->launches, ((dbg_launch){ .clock = ev->clock, .word = ev->word, .end = UINT64_MAX,
                                              .inst = ev->inst, .slot = ev->slot, .instruction = ev->instruction }));
        return;
    }
    if (ev->kind == ISK_EV_RESOURCE) {
        size_t i = 0;
        while (i < d->usage.len && d->usage.data[i].inst != ev->inst) i++;
        if (i == d->usage.len) VEC_PUSH(&d->usage, ((dbg_usage){ .inst = ev->inst }));
        d->usage.data[i].clock = ev->clock;
        d->usage.data[i].mask = ev->mask;
        return;
    }
    if (ev->kind == ISK_EV_END) {
        for (size_t i = d->launches.len; i-- > 0;) {
            dbg_launch *l = &d->launches.data[i];
            if (l->inst == ev->inst && l->slot == ev->slot && l->end == UINT64_MAX) {
                l->end = ev->clock;
                break;
            }
        }
        return;
    }
    for (size_t i = 0; i < d->points.len; i++) {
        dbg_point *p = &d->points.data[i];
        if (!p->watch || p->access == DBG_ON_READ || p->inst != ev->inst || p->storage != ev->storage ||
            ev->index < p->first || ev->index > p->last)
            continue;
        int64_t *seen = &p->seen[ev->index - p->first];
        if (*seen == ev->value) continue;
        if (!d->hit_set) {
            p->hits++;
            d->hit = (dbg_stop){ .kind = DBG_WATCH, .id = p->id, .inst = ev->inst, .storage = ev->storage,
                                 .index = ev->index, .old = *seen, .value = ev->value, .clock = ev->clock };
            d->hit_set = true;
            isk_stop_after_clock(d->sys);
        }
        *seen = ev->value;
    }
}

isk_inst *dbg_first_processor(isk_system *sys)
{
    for (int i = 0; isk_instance_at(sys, i); i++)
        if (isk_inst_model(isk_instance_at(sys, i))->is_processor) return isk_instance_at(sys, i);
    return NULL;
}

void dbg_core_init(dbg_core *d, isk_system *sys, uint64_t limit)
{
    memset(d, 0, sizeof *d);
    d->sys = sys;
    d->limit = limit;
    d->next_id = 1;
    d->steps_left = -1;
    d->proc = dbg_first_processor(sys);
    d->last.clock = isk_clock(sys);
    isk_get_before_issue(sys, &d->chain, &d->chain_user);
    isk_set_before_issue(sys, before_issue, d);
    isk_subscribe(sys, ISK_EV_BIT(ISK_EV_LAUNCH) | ISK_EV_BIT(ISK_EV_END) | ISK_EV_BIT(ISK_EV_STORE) |
                                ISK_EV_BIT(ISK_EV_RESOURCE) | ISK_EV_BIT(ISK_EV_LOAD), on_event, d);
    d->finish_depth = -1;
    dbg_calls_attach(&d->calls, sys);
}

static void point_free(dbg_point *p) { free(p->seen); }

void dbg_core_free(dbg_core *d)
{
    isk_set_before_issue(d->sys, d->chain, d->chain_user);
    isk_unsubscribe(d->sys, on_event, d);
    dbg_calls_detach(&d->calls);
    for (size_t i = 0; i < d->points.len; i++) point_free(&d->points.data[i]);
    VEC_FREE(&d->points);
    VEC_FREE(&d->launches);
    VEC_FREE(&d->usage);
}

int dbg_break(dbg_core *d, isk_inst *proc, uint64_t pc, bool temp)
{
    VEC_PUSH(&d->points, ((dbg_point){ .id = d->next_id, .temp = temp, .proc = proc, .pc = pc }));
    return d->next_id++;
}

int dbg_watch(dbg_core *d, isk_inst *inst, int storage, uint64_t first, uint64_t last, char *msg, size_t cap)
{
    return dbg_watch_access(d, inst, storage, first, last, DBG_ON_WRITE, msg, cap);
}

int dbg_watch_access(dbg_core *d, isk_inst *inst, int storage, uint64_t first, uint64_t last, dbg_access access,
                     char *msg, size_t cap)
{
    const isk_storage_info *si = isk_model_storage(isk_inst_model(inst), storage);
    if (!si || first > last || last >= si->count) {
        snprintf(msg, cap, "cells %llu to %llu are not in '%s' (%llu cells)", (unsigned long long)first,
                 (unsigned long long)last, si ? si->name : "?", si ? (unsigned long long)si->count : 0ull);
        return -1;
    }
    if (last - first >= (1u << 20)) {
        snprintf(msg, cap, "at most %u cells per watchpoint", 1u << 20);
        return -1;
    }
    if ((access != DBG_ON_READ && isk_watch(inst, storage, true) != ISK_OK) ||
        (access != DBG_ON_WRITE && isk_watch_reads(inst, storage, true) != ISK_OK)) {
        snprintf(msg, cap, "the engine refused to watch '%s'", si->name);
        return -1;
    }
    dbg_point p = { .id = d->next_id, .watch = true, .inst = inst, .storage = storage, .first = first, .last = last,
                    .access = access };
    p.seen = isk_xcalloc((size_t)(last - first + 1), sizeof *p.seen);
    for (uint64_t i = first; i <= last; i++) p.seen[i - first] = isk_ref_read(&(isk_ref){ inst, storage, i });
    VEC_PUSH(&d->points, p);
    return d->next_id++;
}

void dbg_watch_refresh(dbg_core *d)
{
    for (size_t i = 0; i < d->points.len; i++) {
        dbg_point *p = &d->points.data[i];
        for (uint64_t c = p->first; p->watch && c <= p->last; c++)
            p->seen[c - p->first] = isk_ref_read(&(isk_ref){ p->inst, p->storage, c });
    }
}

/* Some watchpoint still on inst's storage that needs its changes (on_reads false) or its reads. */
static bool still_watched(const dbg_core *d, isk_inst *inst, int storage, bool on_reads)
{
    const dbg_access unneeded = on_reads ? DBG_ON_WRITE : DBG_ON_READ;
    for (size_t i = 0; i < d->points.len; i++)
        if (d->points.data[i].watch && d->points.data[i].inst == inst && d->points.data[i].storage == storage &&
            d->points.data[i].access != unneeded)
            return true;
    return false;
}

bool dbg_delete(dbg_core *d, int id)
{
    bool found = false;
    for (size_t i = 0; i < d->points.len;) {
        dbg_point p = d->points.data[i];
        if (id >= 0 && p.id != id) {
            i++;
            continue;
        }
        found = true;
        point_free(&p);
        memmove(&d->points.data[i], &d->points.data[i + 1], (d->points.len - i - 1) * sizeof p);
        d->points.len--;
        if (p.watch && p.access != DBG_ON_READ && !still_watched(d, p.inst, p.storage, false))
            isk_watch(p.inst, p.storage, false);
        if (p.watch && p.access != DBG_ON_WRITE && !still_watched(d, p.inst, p.storage, true))
            isk_watch_reads(p.inst, p.storage, false);
    }
    return found;
}

const dbg_point *dbg_point_find(const dbg_core *d, int id)
{
    for (size_t i = 0; i < d->points.len; i++)
        if (d->points.data[i].id == id) return &d->points.data[i];
    return NULL;
}

void dbg_interrupt(dbg_core *d)
{
    if (!d->in_run) return;
    d->interrupted = 1;
    isk_request_stop(d->sys);
}

/* Run in slices until something stops it; `clocks` 0 = up to the limit. */
static dbg_stop run(dbg_core *d, uint64_t clocks)
{
    uint64_t now = isk_clock(d->sys);
    uint64_t end = clocks && clocks < d->limit - now ? now + clocks : d->limit;
    d->hit_set = d->chain_hit = false;
    d->interrupted = 0;
    dbg_stop s = { .kind = DBG_CLOCKS, .status = ISK_OK };
    d->in_run = 1;
    for (;;) {
        now = isk_clock(d->sys);
        if (now >= end) {
            s.kind = now >= d->limit ? DBG_LIMIT : DBG_CLOCKS;
            break;
        }
        uint64_t n = end - now < 65536 ? end - now : 65536;
        s.status = d->advance ? d->advance(d->advance_user, n) : isk_run(d->sys, n);
        /* the runner's work at the end of a run (stop ports) comes first: a watch may stop the
         * very clock a port asked to stop a processor in */
        if (s.status == ISK_OK && d->between) d->between(d->between_user);
        if (d->hit_set) {
            isk_status st = s.status;
            s = d->hit;
            /* a watch stops at the end of its clock: the run may have finished in it */
            s.status = st == ISK_BREAK ? ISK_OK : st;
            break;
        }
        if (s.status == ISK_BREAK) {
            s.kind = d->chain_hit ? DBG_FINISHED : DBG_MODEL_BREAK;
            break;
        }
        if (s.status == ISK_STOPPED) {
            s.kind = DBG_FINISHED;
            break;
        }
        if (s.status != ISK_OK) {
            s.kind = DBG_ERROR;
            break;
        }
        if (d->interrupted) {
            s.kind = DBG_INTERRUPTED;
            break;
        }
    }
    d->in_run = 0;
    d->steps_left = -1;
    d->finish_depth = -1;
    s.clock = isk_clock(d->sys);
    d->at_issue = s.kind == DBG_BREAKPOINT || s.kind == DBG_STEP;
    if (s.kind == DBG_BREAKPOINT) {
        const dbg_point *p = dbg_point_find(d, s.id);
        if (p && p->temp) dbg_delete(d, s.id);
    }
    if (s.proc) {
        d->proc = s.proc;
        d->context = s.context;
    }
    d->last = s;
    return s;
}

dbg_stop dbg_continue(dbg_core *d, uint64_t clocks) { return run(d, clocks); }

/* ---- launch lists --------------------------------------------------------------------------- */

/* The list's hook: asked once per step as the list comes to it. */
static int before_line(void *user, launch_list *l, size_t step)
{
    dbg_core *d = user;
    (void)l;
    d->list_seen = step + 1;
    for (size_t i = 0; i < d->points.len; i++) {
        dbg_point *p = &d->points.data[i];
        if (!p->in_list || p->step != step) continue;
        p->hits++;
        d->hit = (dbg_stop){ .kind = DBG_BREAKPOINT, .id = p->id, .in_list = true, .step = step,
                             .clock = isk_clock(d->sys) };
        d->hit_set = true;
        return 1;
    }
    if (d->list_steps_left >= 0 && d->list_steps_left-- == 0) {
        d->hit = (dbg_stop){ .kind = DBG_STEP, .in_list = true, .step = step, .clock = isk_clock(d->sys) };
        d->hit_set = true;
        return 1;
    }
    return 0;
}

void dbg_attach_list(dbg_core *d, launch_list *l)
{
    d->list = l;
    d->list_steps_left = -1;
    launch_list_set_before_line(l, before_line, d);
}

int dbg_break_step(dbg_core *d, size_t step, bool temp)
{
    VEC_PUSH(&d->points, ((dbg_point){ .id = d->next_id, .temp = temp, .in_list = true, .step = step }));
    return d->next_id++;
}

/* n steps of the list: the step it stands at (already asked about: it acts first) counts. */
static dbg_stop step_list(dbg_core *d, long n)
{
    bool pending = d->list_seen == launch_list_next(d->list) + 1;
    d->list_steps_left = n - (pending ? 1 : 0);
    dbg_stop s = run(d, 0);
    d->list_steps_left = -1;
    return s;
}

dbg_stop dbg_stepi(dbg_core *d, long n)
{
    if (!d->proc && d->list) return step_list(d, n);
    if (!d->proc) return run(d, (uint64_t)(n > 0 ? n : 1));   /* accelerators only: a step is a clock */
    bool pending = d->at_issue && d->last.proc == d->proc && d->last.context == d->context;
    d->steps_left = n - (pending ? 1 : 0);
    return run(d, 0);
}

bool dbg_finish(dbg_core *d, dbg_stop *out, char *msg, size_t cap)
{
    if (!d->proc) {
        snprintf(msg, cap, "no processor in this system: finish needs one");
        return false;
    }
    if (!dbg_model_has_calls(d->proc)) {
        snprintf(msg, cap, "model '%s' declares no calls (INSTRUCTION .flow): finish cannot tell where a routine "
                 "returns (use until or tbreak)", isk_model_name(isk_inst_model(d->proc)));
        return false;
    }
    int depth = dbg_frames(d, d->proc, d->context, NULL, 0, NULL);
    if (!depth) {
        snprintf(msg, cap, "\"finish\" not meaningful in the outermost frame");
        return false;
    }
    d->finish_depth = depth;
    *out = run(d, 0);
    return true;
}

bool dbg_code_word(isk_inst *proc, uint64_t pc, uint64_t *word)
{
    const isk_model *m = isk_inst_model(proc);
    if (m->map.code_region < 0) return false;
    const isk_map_region *r = &m->map.regions.data[m->map.code_region];
    const isk_storage_info *si = isk_model_storage(m, r->storage);
    if (!si || pc >= si->count) return false;
    *word = (uint64_t)isk_ref_read(&(isk_ref){ proc, r->storage, pc });
    return true;
}

void dbg_disasm_at(isk_inst *proc, uint64_t pc, char *out, size_t cap)
{
    uint64_t word;
    if (!dbg_code_word(proc, pc, &word)) snprintf(out, cap, "(no code)");
    else isk_disasm_word(isk_inst_model(proc), word, pc, out, cap);
}

bool dbg_mem_byte(isk_inst *inst, uint64_t addr, uint8_t *out, const uint8_t *write)
{
    const isk_model *m = isk_inst_model(inst);
    isk_addr_cell c;
    if (!isk_addr_to_cell(m, addr, &c) || c.storage < 0) return false;
    int bytes = m->map.regions.data[c.region].cell_bytes;
    int shift = 8 * (m->has_elf && m->elf.big_endian ? bytes - 1 - c.byte : c.byte);
    isk_ref ref = { inst, c.storage, c.index };
    uint64_t v = (uint64_t)isk_ref_read(&ref);
    if (write) isk_ref_write(&ref, (int64_t)((v & ~(0xffull << shift)) | (uint64_t)*write << shift));
    else *out = (uint8_t)(v >> shift);
    return true;
}
