/* The trace files of a run (run_observe.h, docs/traces.md): --vcd and --perfetto, subscribers of
 * the engine's events that write as the run goes (observe/vcd.h, observe/perfetto.h). Nothing
 * is subscribed or watched unless one is asked for. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "asm/loaded.h"
#include "cli/run_observe.h"
#include "cli/runctl.h"
#include "observe/perfetto.h"
#include "observe/vcd.h"

/* Storages of more cells than this are left out of the VCD unless --vcd-storage names them. */
#define VCD_DEFAULT_MAX_CELLS 64
/* Perfetto thread ids: 0 the instance's own events, 1 + context, SLOT_TID + slot. */
#define SLOT_TID 100000

bool cli_traces_option(cli_args *a, cli_run_opts *o)
{
    cli_traces_opts *t = &o->traces;
    const char *v;
    if (cli_value(a, "--vcd", &v)) {
        t->vcd = v;
    } else if (cli_value(a, "--perfetto", &v)) {
        t->perfetto = v;
    } else if (cli_value(a, "--vcd-storage", &v)) {
        if (v && t->nvcd_storages == CLI_TRACES_MAX_STORAGES)
            cli_usage_error(a, "at most %d --vcd-storage options", CLI_TRACES_MAX_STORAGES);
        else if (v) t->vcd_storages[t->nvcd_storages++] = v;
    } else {
        return false;
    }
    return true;
}

typedef struct tr_slot {
    int busy, command;            /* VCD variables */
    bool active;                  /* Perfetto: a command runs, since `since` */
    uint64_t since;
    char name[96];
} tr_slot;

typedef struct tr_ctx {
    int pc, state;                /* VCD variables */
    int waiting;                  /* Perfetto: the blocked or sleeping state since `since`, or -1 */
    uint64_t since;
} tr_ctx;

/* Disassembly is most of what an instruction event costs (isk_syntax_print): loops issue the
 * same few instructions again and again, so each processor keeps the text of the last
 * instruction seen at each PC (modulo the cache's size), allocated at its first issue. */
#define ASM_CACHE 1024
typedef struct tr_asm {
    uint64_t pc, word;
    int instruction;              /* -2: empty */
    char text[100];
} tr_asm;

typedef struct tr_inst {
    isk_inst *inst;
    int pid;
    const isk_loaded *loaded;
    int nctx, nslots;
    tr_ctx *ctx;
    tr_slot *slots;
    int *storage_var;             /* per storage: the VCD variable of its cell 0, or -1 */
    tr_asm *asm_cache;            /* NULL until the first instruction event */
} tr_inst;

typedef struct cli_traces cli_traces;
struct cli_traces {
    isk_system *sys;
    const char *cmd;
    FILE *vcd_file, *json_file;
    isk_vcd *vcd;
    isk_tj *tj;
    tr_inst *insts;
    int ninsts;
    int vcd_vars;
    bool subscribed;
};

/* The key under which each instance keeps its tr_inst (isk_inst_data): no search per event. */
static const char tr_key;

static tr_inst *inst_of(const isk_event *ev) { return isk_inst_data(ev->inst, &tr_key); }

/* ---- VCD ------------------------------------------------------------------------------------ */

/* Is the storage called p[0..n) (its name or title, any case)? */
static bool storage_is(const isk_storage_info *s, const char *p, size_t n)
{
    return (strlen(s->name) == n && !strncasecmp(p, s->name, n)) ||
           (s->title && strlen(s->title) == n && !strncasecmp(p, s->title, n));
}

/* Does the VCD hold storage s: named by --vcd-storage, or, without it, small enough? */
static bool storage_chosen(const cli_traces_opts *o, const isk_storage_info *s)
{
    if (!o->nvcd_storages) return s->kind != ISK_CODE_MEMORY && s->width <= 64 && s->count <= VCD_DEFAULT_MAX_CELLS;
    for (int i = 0; i < o->nvcd_storages; i++) {
        for (const char *p = o->vcd_storages[i]; *p;) {
            size_t n = strcspn(p, ",");
            if (storage_is(s, p, n)) return true;
            p += n + (p[n] == ',');
        }
    }
    return false;
}

/* Every --vcd-storage name must be some instance's storage: a misspelt one is an error, not an
 * empty waveform. */
static bool check_storage_names(cli_traces *t, const cli_traces_opts *o)
{
    for (int i = 0; i < o->nvcd_storages; i++) {
        for (const char *p = o->vcd_storages[i]; *p;) {
            size_t n = strcspn(p, ",");
            bool found = false;
            for (int k = 0; k < t->ninsts && !found; k++) {
                const isk_model *m = isk_inst_model(t->insts[k].inst);
                for (int s = 0; s < isk_model_storage_count(m) && !found; s++) {
                    const isk_storage_info *si = isk_model_storage(m, s);
                    found = storage_is(si, p, n);
                    if (found && si->width > 64) {
                        fprintf(stderr, "%s: --vcd-storage %.*s: its cells have %d bits; the VCD holds at most 64\n",
                                t->cmd, (int)n, p, si->width);
                        return false;
                    }
                }
            }
            if (!found || n == 0) {
                fprintf(stderr, "%s: --vcd-storage %.*s: no instance has a storage of that name\n", t->cmd, (int)n, p);
                return false;
            }
            p += n + (p[n] == ',');
        }
    }
    return true;
}

static int pc_width(const isk_model *m)
{
    for (int s = 0; s < isk_model_storage_count(m); s++) {
        const isk_storage_info *si = isk_model_storage(m, s);
        if (si->kind == ISK_CODE_MEMORY && si->count > (UINT64_C(1) << 32)) return 64;
    }
    return 32;
}

static void vcd_declare(cli_traces *t, tr_inst *ti, const cli_traces_opts *o)
{
    isk_vcd *v = t->vcd;
    const isk_model *m = isk_inst_model(ti->inst);
    char name[160];
    isk_vcd_scope(v, isk_inst_name(ti->inst));
    for (int c = 0; c < ti->nctx; c++) {
        isk_context *ctx = isk_context_of(ti->inst, c);
        snprintf(name, sizeof name, "context_%d", c);
        isk_vcd_scope(v, name);
        ti->ctx[c].pc = isk_vcd_var(v, "pc", pc_width(m), ctx->pc);
        ti->ctx[c].state = isk_vcd_var(v, "state", 3, ctx->state);
        t->vcd_vars = ti->ctx[c].state + 1;
        isk_vcd_upscope(v);
    }
    for (int s = 0; s < ti->nslots; s++) {
        snprintf(name, sizeof name, "slot_%d", s);
        isk_vcd_scope(v, name);
        ti->slots[s].busy = isk_vcd_var(v, "busy", 1, 0);
        ti->slots[s].command = isk_vcd_var(v, "command", 32, 0);
        isk_vcd_init_x(v, ti->slots[s].command);
        t->vcd_vars = ti->slots[s].command + 1;
        isk_vcd_upscope(v);
    }
    for (int s = 0; s < isk_model_storage_count(m); s++) {
        const isk_storage_info *si = isk_model_storage(m, s);
        ti->storage_var[s] = -1;
        if (!storage_chosen(o, si) || si->width > 64 || si->count == 0) continue;
        if (si->count > 1) isk_vcd_scope(v, si->name);
        for (uint64_t i = 0; i < si->count; i++) {
            isk_ref ref = {ti->inst, s, i};
            const char *cell = si->element_names ? si->element_names[i] : NULL;
            if (!cell && si->count == 1) cell = si->name;
            if (!cell) snprintf(name, sizeof name, "%s_%" PRIu64, si->name, i);
            int var = isk_vcd_var(v, cell ? cell : name, si->width, (uint64_t)isk_ref_read(&ref));
            if (i == 0) ti->storage_var[s] = var;
            t->vcd_vars = var + 1;
        }
        if (si->count > 1) isk_vcd_upscope(v);
        isk_watch(ti->inst, s, true);
    }
    isk_vcd_upscope(v);
}

static void vcd_event(cli_traces *t, tr_inst *ti, const isk_event *ev)
{
    isk_vcd *v = t->vcd;
    isk_vcd_time(v, ev->clock);
    switch (ev->kind) {
    case ISK_EV_ISSUE:
        if (ev->context < (uint32_t)ti->nctx) isk_vcd_set(v, ti->ctx[ev->context].pc, ev->pc);
        break;
    case ISK_EV_CONTEXT:
        if (ev->context < (uint32_t)ti->nctx) {
            isk_vcd_set(v, ti->ctx[ev->context].pc, ev->pc);
            isk_vcd_set(v, ti->ctx[ev->context].state, (uint64_t)ev->to);
        }
        break;
    case ISK_EV_LAUNCH:
        if (ev->slot >= 0 && ev->slot < ti->nslots) {
            isk_vcd_set(v, ti->slots[ev->slot].busy, 1);
            isk_vcd_set(v, ti->slots[ev->slot].command, (uint64_t)ev->instruction);
        }
        break;
    case ISK_EV_END:
        /* busy through this clock: idle from the next */
        if (ev->slot >= 0 && ev->slot < ti->nslots) {
            isk_vcd_set_next(v, ti->slots[ev->slot].busy, 0);
            isk_vcd_set_next_x(v, ti->slots[ev->slot].command);
        }
        break;
    case ISK_EV_STORE: {
        int base = ev->storage >= 0 ? ti->storage_var[ev->storage] : -1;
        if (base < 0 || ev->index >= isk_model_storage(isk_inst_model(ti->inst), ev->storage)->count) break;
        /* a write of latency >= 1 commits at the end of this clock: readers see it from the next */
        if (ev->latency >= 1) isk_vcd_set_next(v, base + (int)ev->index, (uint64_t)ev->value);
        else isk_vcd_set(v, base + (int)ev->index, (uint64_t)ev->value);
        break;
    }
    default:
        break;
    }
}

/* ---- Perfetto ------------------------------------------------------------------------------- */

static const char *state_name(int state)
{
    switch (state) {
    case ISK_CTX_BLOCKED: return "blocked";
    case ISK_CTX_SLEEPING: return "sleeping";
    default: return NULL;
    }
}

static void json_declare(cli_traces *t, tr_inst *ti)
{
    char name[64];
    isk_tj_name(t->tj, ti->pid, -1, isk_inst_name(ti->inst), ti->pid);
    isk_tj_name(t->tj, ti->pid, 0, "events", 0);
    for (int c = 0; c < ti->nctx; c++) {
        snprintf(name, sizeof name, "context %d", c);
        isk_tj_name(t->tj, ti->pid, 1 + c, name, 1 + c);
        isk_context *ctx = isk_context_of(ti->inst, c);
        ti->ctx[c].waiting = state_name((int)ctx->state) ? (int)ctx->state : -1;
        ti->ctx[c].since = isk_clock(t->sys);
    }
    for (int s = 0; s < ti->nslots; s++) {
        snprintf(name, sizeof name, "slot %d", s);
        isk_tj_name(t->tj, ti->pid, SLOT_TID + s, name, SLOT_TID + s);
    }
}

/* The track an event belongs on: its slot's, else its context's, else the instance's. */
static int track_of(const tr_inst *ti, const isk_event *ev)
{
    if (ev->slot >= 0 && ev->slot < ti->nslots) return SLOT_TID + ev->slot;
    if (ev->context < (uint32_t)ti->nctx) return 1 + (int)ev->context;
    return 0;
}

/* The instruction's mnemonic, the first word of its disassembly. */
static void mnemonic(const char *text, char *out, size_t cap)
{
    size_t n = strcspn(text, " \t");
    if (n >= cap) n = cap - 1;
    memcpy(out, text, n);
    out[n] = 0;
}

/* The disassembly of an instruction event, from the cache when it holds it. */
static const char *issue_text(tr_inst *ti, const isk_event *ev, char *buf, size_t cap)
{
    if (!ti->asm_cache && (ti->asm_cache = malloc(ASM_CACHE * sizeof *ti->asm_cache)))
        for (int i = 0; i < ASM_CACHE; i++) ti->asm_cache[i].instruction = -2;
    tr_asm *e = ti->asm_cache ? &ti->asm_cache[ev->pc % ASM_CACHE] : NULL;
    if (e && e->pc == ev->pc && e->word == ev->word && e->instruction == ev->instruction) return e->text;
    cli_issue_text(ev, buf, cap);
    /* a text too long for an entry is not kept */
    if (e && strlen(buf) < sizeof e->text) {
        e->pc = ev->pc;
        e->word = ev->word;
        e->instruction = ev->instruction;
        strcpy(e->text, buf);
    }
    return buf;
}

static void end_wait(cli_traces *t, tr_inst *ti, int c, uint64_t clock)
{
    tr_ctx *x = &ti->ctx[c];
    if (x->waiting < 0) return;
    isk_tj_event(t->tj, 'X', ti->pid, 1 + c, state_name(x->waiting), "stall", x->since);
    isk_tj_end(t->tj, clock > x->since ? clock - x->since : 0);
    x->waiting = -1;
}

static void end_command(cli_traces *t, tr_inst *ti, int s, uint64_t clocks, bool finished)
{
    tr_slot *x = &ti->slots[s];
    isk_tj_event(t->tj, 'X', ti->pid, SLOT_TID + s, x->name, "command", x->since);
    if (!finished) isk_tj_arg_str(t->tj, "unfinished", "yes");
    isk_tj_end(t->tj, clocks);
    x->active = false;
}

static void json_event(cli_traces *t, tr_inst *ti, const isk_event *ev)
{
    isk_tj *j = t->tj;
    char text[320], name[96], buf[320];
    int tid = track_of(ti, ev);
    switch (ev->kind) {
    case ISK_EV_ISSUE: {
        const char *dis = issue_text(ti, ev, text, sizeof text);
        mnemonic(dis, name, sizeof name);
        isk_tj_event(j, 'X', ti->pid, tid, name, "instruction", ev->clock);
        isk_tj_arg_hex(j, "pc", ev->pc);
        isk_tj_arg_str(j, "asm", dis);
        const isk_loaded_sym *f = ti->loaded ? isk_loaded_code_at(ti->loaded, ev->pc) : NULL;
        if (f) isk_tj_arg_str(j, "function", f->name);
        isk_tj_end(j, 1);
        break;
    }
    case ISK_EV_CONTEXT:
        if (ev->context >= (uint32_t)ti->nctx) break;
        end_wait(t, ti, (int)ev->context, ev->clock);
        if (state_name(ev->to)) {
            ti->ctx[ev->context].waiting = ev->to;
            ti->ctx[ev->context].since = ev->clock;
        }
        break;
    case ISK_EV_LAUNCH:
        if (ev->slot < 0 || ev->slot >= ti->nslots) break;
        cli_issue_text(ev, ti->slots[ev->slot].name, sizeof ti->slots[ev->slot].name);
        ti->slots[ev->slot].active = true;
        ti->slots[ev->slot].since = ev->clock;
        break;
    case ISK_EV_END:
        if (ev->slot >= 0 && ev->slot < ti->nslots && ti->slots[ev->slot].active)
            end_command(t, ti, ev->slot, ev->amount, true);
        break;
    case ISK_EV_EXCEPTION:
        snprintf(name, sizeof name, "exception %d", ev->cause);
        isk_tj_event(j, 'i', ti->pid, tid, name, "exception", ev->clock);
        isk_tj_arg_hex(j, "pc", ev->pc);
        if (ev->text) isk_tj_arg_str(j, "text", ev->text);
        isk_tj_end(j, 0);
        break;
    case ISK_EV_DMA:
        isk_tj_event(j, 'i', ti->pid, tid, ev->text ? ev->text : "dma", "dma", ev->clock);
        isk_tj_arg_u64(j, "bytes", ev->amount);
        isk_tj_arg_hex(j, "from", ev->src);
        isk_tj_arg_hex(j, "to", ev->dst);
        isk_tj_end(j, 0);
        break;
    default:   /* interrupts, notes, ports: their text as --trace words it */
        isk_event_text(ev, buf, sizeof buf);
        isk_tj_event(j, 'i', ti->pid, tid, buf,
                     ev->kind == ISK_EV_INTERRUPT ? "interrupt" : ev->kind == ISK_EV_NOTE ? "note" : "port",
                     ev->clock);
        isk_tj_end(j, 0);
        break;
    }
}

/* ---- the subscriber --------------------------------------------------------------------------- */

static void on_event(void *user, const isk_event *ev)
{
    cli_traces *t = user;
    tr_inst *ti = inst_of(ev);
    if (!ti) return;
    if (t->vcd) vcd_event(t, ti, ev);
    if (t->tj && ev->kind != ISK_EV_STORE) json_event(t, ti, ev);
}

static FILE *open_out(const char *cmd, const char *opt, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) fprintf(stderr, "%s: %s %s: cannot write: %s\n", cmd, opt, path, strerror(errno));
    return f;
}

static void free_traces(cli_traces *t)
{
    for (int k = 0; k < t->ninsts; k++) {
        tr_inst *ti = &t->insts[k];
        if (isk_inst_data(ti->inst, &tr_key)) isk_inst_set_data(ti->inst, &tr_key, NULL, NULL);
        free(ti->ctx);
        free(ti->slots);
        free(ti->storage_var);
        free(ti->asm_cache);
    }
    free(t->insts);
    if (t->subscribed) isk_unsubscribe(t->sys, on_event, t);
    isk_vcd_free(t->vcd);
    isk_tj_free(t->tj);
    if (t->vcd_file) fclose(t->vcd_file);
    if (t->json_file) fclose(t->json_file);
    free(t);
}

bool cli_traces_begin(cli_run *r, const cli_run_opts *o)
{
    const cli_traces_opts *opt = &o->traces;
    if (opt->nvcd_storages && !opt->vcd) {
        fprintf(stderr, "%s: --vcd-storage without --vcd\n", r->cmd);
        return false;
    }
    if (!opt->vcd && !opt->perfetto) return true;
    cli_traces *t = calloc(1, sizeof *t);
    if (!t) return false;
    t->sys = r->sys;
    t->cmd = r->cmd;
    while (isk_instance_at(r->sys, t->ninsts)) t->ninsts++;
    t->insts = calloc((size_t)t->ninsts + 1, sizeof *t->insts);
    bool ok = t->insts != NULL;
    for (int k = 0; ok && k < t->ninsts; k++) {
        tr_inst *ti = &t->insts[k];
        ti->inst = isk_instance_at(r->sys, k);
        ti->pid = k + 1;
        ti->loaded = isk_loaded_of(ti->inst);
        const isk_model *m = isk_inst_model(ti->inst);
        while (isk_context_of(ti->inst, ti->nctx)) ti->nctx++;
        ti->nslots = isk_model_slots(m);
        ti->ctx = calloc((size_t)ti->nctx + 1, sizeof *ti->ctx);
        ti->slots = calloc((size_t)ti->nslots + 1, sizeof *ti->slots);
        ti->storage_var = calloc((size_t)isk_model_storage_count(m) + 1, sizeof *ti->storage_var);
        ok = ti->ctx && ti->slots && ti->storage_var && isk_inst_set_data(ti->inst, &tr_key, ti, NULL) == ISK_OK;
    }
    ok = ok && check_storage_names(t, opt);
    if (ok && opt->vcd) {
        ok = (t->vcd_file = open_out(r->cmd, "--vcd", opt->vcd)) && (t->vcd = isk_vcd_new(t->vcd_file, "1ns"));
        for (int k = 0; ok && k < t->ninsts; k++) vcd_declare(t, &t->insts[k], opt);
        if (ok) isk_vcd_begin(t->vcd);
        if (ok) isk_vcd_time(t->vcd, isk_clock(r->sys));
    }
    if (ok && opt->perfetto) {
        ok = (t->json_file = open_out(r->cmd, "--perfetto", opt->perfetto)) && (t->tj = isk_tj_new(t->json_file));
        for (int k = 0; ok && k < t->ninsts; k++) json_declare(t, &t->insts[k]);
    }
    unsigned kinds = 0;
    if (t->vcd)
        kinds |= ISK_EV_BIT(ISK_EV_ISSUE) | ISK_EV_BIT(ISK_EV_CONTEXT) | ISK_EV_BIT(ISK_EV_LAUNCH) |
                 ISK_EV_BIT(ISK_EV_END) | ISK_EV_BIT(ISK_EV_STORE);
    if (t->tj) kinds |= ISK_EV_ALL & ~(ISK_EV_BIT(ISK_EV_RESOURCE) | ISK_EV_BIT(ISK_EV_STORE));
    ok = ok && isk_subscribe(r->sys, kinds, on_event, t) == ISK_OK;
    t->subscribed = ok;
    if (!ok) {
        free_traces(t);
        return false;
    }
    r->traces = t;
    return true;
}

static void report_size(const cli_traces *t, const char *opt, const char *path, uint64_t bytes, uint64_t n,
                        const char *what)
{
    fprintf(stderr, "%s: %s %s: %" PRIu64 " %s, %.1f KiB\n", t->cmd, opt, path, n, what, (double)bytes / 1024.0);
}

void cli_traces_end(cli_run *r)
{
    cli_traces *t = r->traces;
    if (!t) return;
    uint64_t now = isk_clock(r->sys);
    if (t->vcd) {
        /* a context's last change shows only when its processor next issues: the end is now */
        isk_vcd_time(t->vcd, now);
        for (int k = 0; k < t->ninsts; k++) {
            tr_inst *ti = &t->insts[k];
            for (int c = 0; c < ti->nctx; c++) {
                isk_context *ctx = isk_context_of(ti->inst, c);
                isk_vcd_set(t->vcd, ti->ctx[c].pc, ctx->pc);
                isk_vcd_set(t->vcd, ti->ctx[c].state, ctx->state);
            }
        }
        bool ok = isk_vcd_finish(t->vcd, now);
        t->vcd = NULL;
        long bytes = ftell(t->vcd_file);
        if (fclose(t->vcd_file) != 0) ok = false;
        t->vcd_file = NULL;
        if (!ok) fprintf(stderr, "%s: --vcd %s: write error\n", r->cmd, r->opts->traces.vcd);
        else report_size(t, "--vcd", r->opts->traces.vcd, bytes > 0 ? (uint64_t)bytes : 0, (uint64_t)t->vcd_vars, "signals");
    }
    if (t->tj) {
        /* what is still going on is shown up to the end, marked unfinished */
        for (int k = 0; k < t->ninsts; k++) {
            tr_inst *ti = &t->insts[k];
            for (int c = 0; c < ti->nctx; c++) end_wait(t, ti, c, now);
            for (int s = 0; s < ti->nslots; s++)
                if (ti->slots[s].active) end_command(t, ti, s, now - ti->slots[s].since, false);
        }
        isk_tj_stats st;
        bool ok = isk_tj_finish(t->tj, &st);
        t->tj = NULL;
        if (fclose(t->json_file) != 0) ok = false;
        t->json_file = NULL;
        if (!ok) fprintf(stderr, "%s: --perfetto %s: write error\n", r->cmd, r->opts->traces.perfetto);
        else report_size(t, "--perfetto", r->opts->traces.perfetto, st.bytes, st.events, "events");
    }
    free_traces(t);
    r->traces = NULL;
}
