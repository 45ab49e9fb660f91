/* The profile of a run (run_observe.h, docs/profiles.md): --profile, --profile-csv FILE,
 * --profile-svg FILE. A subscriber of the engine's ISSUE, CONTEXT, LAUNCH, END, DMA and
 * EXCEPTION events, attached only when one of the options is given, so a run without them
 * pays nothing. Resource use comes from the engine's own counts (isk_inst_stats), not from
 * RESOURCE events, which would cost an event per clock.
 *
 * Clocks are attributed so that they add up: an instruction owns the clocks from its issue to
 * the same context's next issue (or to the clock the context stops running: sleeps, stops,
 * exits, faults, or the run ends); each context's clocks split into running, blocked, sleeping
 * and idle (stopped, exited or faulted) and sum to the run's clocks; a command owns the clocks
 * its END event reports. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/loaded.h"
#include "base/vec.h"
#include "cli/run_observe.h"
#include "cli/runctl.h"

bool cli_profile_option(cli_args *a, cli_run_opts *o)
{
    const char *v;
    if (cli_flag(a, "--profile")) {
        o->profile.on = true;
    } else if (cli_value(a, "--profile-csv", &v)) {
        o->profile.csv = v;
    } else if (cli_value(a, "--profile-svg", &v)) {
        o->profile.svg = v;
    } else if (cli_int(a, "--profile-top", 1, 1000000, &o->profile.top)) {
    } else {
        return false;
    }
    return true;
}

/* ---- the timeline: rows of at most TL_BUCKETS buckets ------------------------------------- */

/* A bucket covers `width` clocks; when the run outgrows the buckets, neighbours merge and the
 * width doubles, so the memory stays fixed however long the run. Per bucket: the clocks in each
 * category and the label (function or command) with most weight, by a majority vote that
 * merges (Boyer-Moore), which is exact whenever one label holds more than half. */
#define TL_BUCKETS 2048
enum { CAT_RUN, CAT_BLOCKED, CAT_SLEEP, CAT_IDLE, NCAT };  /* slots use RUN (busy) and IDLE */

typedef struct tl_bucket {
    uint32_t clocks[NCAT];
    int32_t label;
    uint32_t votes;
} tl_bucket;

typedef struct tl_row {
    char name[96];
    bool slot;                       /* a command slot: labels are instructions of inst */
    const isk_model *model;
    const isk_inst *inst;            /* a context: labels are the symbols of its instance */
    tl_bucket *b;
} tl_row;

static void vote(tl_bucket *b, int32_t label, uint32_t weight)
{
    if (b->label == label) {
        b->votes += weight;
    } else if (b->votes >= weight) {
        b->votes -= weight;
    } else {
        b->label = label;
        b->votes = weight - b->votes;
    }
}

/* ---- per instance ------------------------------------------------------------------------- */

typedef struct prof_ctx {
    int state;                       /* enum isk_context_state, as last seen */
    uint64_t since;                  /* since that clock */
    uint64_t clocks[NCAT];
    uint64_t attributed;             /* clocks its instructions own */
    uint64_t insns, exceptions, dma, dma_bytes, blocked_after_dma;
    uint64_t last_dma;               /* clock + 1 of the context's last DMA, 0 = none */
    bool open;                       /* an instruction owns the clocks from `issued` on */
    bool touched;                    /* issued or changed state: worth a line */
    uint64_t issued;
    int pattern;                     /* its instruction (-1: illegal) and function */
    int func;
    int row;                         /* its timeline row */
} prof_ctx;

typedef struct prof_count { uint64_t count, clocks; } prof_count;

typedef struct prof_inst {
    isk_inst *inst;
    const isk_model *model;
    const isk_loaded *loaded;
    int ninsn;                       /* model instructions; index ninsn: illegal */
    prof_count *insn;                /* [ninsn + 1] issued (processors) or launched (accelerators) */
    int nfunc;                       /* loaded symbols; index nfunc: outside any */
    prof_count *func;
    prof_ctx *ctx;
    int nctx;
    int nslots;
    int slot_row;                    /* the first slot's timeline row */
    uint64_t launches, ends;
} prof_inst;

typedef struct cli_profile {
    const cli_profile_opts *o;
    isk_system *sys;
    uint64_t begin;
    VEC(prof_inst) insts;
    prof_inst *last;                 /* the last event's instance: events come in runs */
    VEC(tl_row) rows;
    uint64_t width;                  /* clocks per bucket */
    FILE *csv, *svg;                 /* opened before the run: a bad path fails it at once */
    bool subscribed;                 /* else the run did not start: no report */
} cli_profile;

static prof_inst *inst_of(cli_profile *p, isk_inst *inst)
{
    if (p->last && p->last->inst == inst) return p->last;
    for (size_t i = 0; i < p->insts.len; i++)
        if (p->insts.data[i].inst == inst) return p->last = &p->insts.data[i];
    return NULL;
}

static int state_cat(int state)
{
    switch (state) {
    case ISK_CTX_RUNNING: return CAT_RUN;
    case ISK_CTX_BLOCKED: return CAT_BLOCKED;
    case ISK_CTX_SLEEPING: return CAT_SLEEP;
    default: return CAT_IDLE;
    }
}

/* Merge neighbouring buckets of every row until clock `end` (exclusive) fits. */
static void tl_fit(cli_profile *p, uint64_t end)
{
    while (end - p->begin > (uint64_t)TL_BUCKETS * p->width) {
        for (size_t r = 0; r < p->rows.len; r++) {
            tl_bucket *b = p->rows.data[r].b;
            for (int i = 0; i < TL_BUCKETS / 2; i++) {
                tl_bucket m = b[2 * i];
                for (int c = 0; c < NCAT; c++) m.clocks[c] += b[2 * i + 1].clocks[c];
                if (b[2 * i + 1].votes) vote(&m, b[2 * i + 1].label, b[2 * i + 1].votes);
                b[i] = m;
            }
            memset(b + TL_BUCKETS / 2, 0, TL_BUCKETS / 2 * sizeof *b);
        }
        p->width *= 2;
    }
}

/* Clocks [from, to) of row in category cat, each a vote for label (if >= 0). */
static void tl_add(cli_profile *p, int row, uint64_t from, uint64_t to, int cat, int32_t label)
{
    if (to <= from) return;
    tl_fit(p, to);
    tl_bucket *b = p->rows.data[row].b;
    for (uint64_t c = from; c < to;) {
        uint64_t i = (c - p->begin) / p->width, end = p->begin + (i + 1) * p->width;
        uint32_t n = (uint32_t)((end < to ? end : to) - c);
        b[i].clocks[cat] += n;
        if (label >= 0) vote(&b[i], label, n);
        c += n;
    }
}

static int add_row(cli_profile *p, const char *fmt1, const char *name, int number, bool slot, const prof_inst *pi)
{
    tl_row row = { .slot = slot, .model = pi->model, .inst = pi->inst };
    row.b = isk_xcalloc(TL_BUCKETS, sizeof *row.b);
    snprintf(row.name, sizeof row.name, fmt1, name, number);
    VEC_PUSH(&p->rows, row);
    return (int)p->rows.len - 1;
}

/* ---- the events --------------------------------------------------------------------------- */

/* The instruction of context c stops owning clocks at `clock`. */
static void close_issue(prof_inst *pi, prof_ctx *c, uint64_t clock)
{
    if (!c->open) return;
    uint64_t n = clock - c->issued;
    pi->insn[c->pattern].clocks += n;
    pi->func[c->func].clocks += n;
    c->attributed += n;
    c->open = false;
}

/* Context c enters `state` at `clock`: the clocks since the last change go to the old one. */
static void set_state(cli_profile *p, prof_inst *pi, prof_ctx *c, int state, uint64_t clock)
{
    int cat = state_cat(c->state);
    c->clocks[cat] += clock - c->since;
    /* running clocks vote by function at each issue; the others carry no label */
    tl_add(p, c->row, c->since, clock, cat, -1);
    if (state == ISK_CTX_BLOCKED && c->last_dma && c->last_dma > c->issued) c->blocked_after_dma++;
    if (state != ISK_CTX_RUNNING && state != ISK_CTX_BLOCKED) close_issue(pi, c, clock);
    c->state = state;
    c->since = clock;
}

/* The routine pc lies in (isk_loaded_code_at), as an index of the loader's symbols; nfunc: none. */
static int func_of(const prof_inst *pi, uint64_t pc)
{
    const isk_loaded_sym *s = pi->loaded ? isk_loaded_code_at(pi->loaded, pc) : NULL;
    return s ? (int)(s - pi->loaded->syms.data) : pi->nfunc;
}

static void on_event(void *user, const isk_event *ev)
{
    cli_profile *p = user;
    prof_inst *pi = inst_of(p, ev->inst);
    if (!pi) return;
    prof_ctx *c = ev->slot < 0 && (int)ev->context < pi->nctx ? &pi->ctx[ev->context] : NULL;
    int pattern = ev->instruction >= 0 && ev->instruction < pi->ninsn ? ev->instruction : pi->ninsn;
    switch (ev->kind) {
    case ISK_EV_ISSUE: {
        if (!c) return;
        /* a context the host started between clocks (isk_start) issues with no CONTEXT event */
        if (c->state != ISK_CTX_RUNNING) set_state(p, pi, c, ISK_CTX_RUNNING, ev->clock);
        close_issue(pi, c, ev->clock);
        c->func = func_of(pi, ev->pc);
        c->pattern = pattern;
        c->issued = ev->clock;
        c->open = c->touched = true;
        c->insns++;
        pi->insn[pattern].count++;
        pi->func[c->func].count++;
        tl_fit(p, ev->clock + 1);
        vote(&p->rows.data[c->row].b[(ev->clock - p->begin) / p->width], c->func, 1);
        break;
    }
    case ISK_EV_CONTEXT:
        if (!c) return;
        c->touched = true;
        set_state(p, pi, c, ev->to, ev->clock);
        break;
    case ISK_EV_LAUNCH:
        pi->launches++;
        pi->insn[pattern].count++;
        break;
    case ISK_EV_END:
        pi->ends++;
        pi->insn[pattern].clocks += ev->amount;
        if (ev->slot >= 0 && ev->slot < pi->nslots) {
            uint64_t from = ev->clock + 1 >= ev->amount + p->begin ? ev->clock + 1 - ev->amount : p->begin;
            tl_add(p, pi->slot_row + ev->slot, from, ev->clock + 1, CAT_RUN, pattern);
        }
        break;
    case ISK_EV_DMA:
        if (!c) return;
        c->dma++;
        c->dma_bytes += ev->amount;
        c->last_dma = ev->clock + 1;
        break;
    case ISK_EV_EXCEPTION:
        if (c) c->exceptions++;
        break;
    default:
        break;
    }
}

bool cli_profile_begin(cli_run *r, const cli_run_opts *o)
{
    const cli_profile_opts *po = &o->profile;
    if (!po->on && !po->csv && !po->svg) return true;
    cli_profile *p = isk_xcalloc(1, sizeof *p);
    p->o = po;
    p->sys = r->sys;
    p->begin = isk_clock(r->sys);
    p->width = 1;
    r->profile = p;
    if (po->csv && !(p->csv = fopen(po->csv, "w"))) {
        fprintf(stderr, "%s: --profile-csv %s: cannot write it\n", r->cmd, po->csv);
        return false;
    }
    if (po->svg && !(p->svg = fopen(po->svg, "w"))) {
        fprintf(stderr, "%s: --profile-svg %s: cannot write it\n", r->cmd, po->svg);
        return false;
    }
    for (int i = 0; isk_instance_at(r->sys, i); i++) {
        isk_inst *inst = isk_instance_at(r->sys, i);
        prof_inst pi = { .inst = inst, .model = isk_inst_model(inst), .loaded = isk_loaded_of(inst) };
        pi.ninsn = isk_model_instruction_count(pi.model);
        pi.insn = isk_xcalloc((size_t)pi.ninsn + 1, sizeof *pi.insn);
        pi.nfunc = pi.loaded ? (int)pi.loaded->syms.len : 0;
        pi.func = isk_xcalloc((size_t)pi.nfunc + 1, sizeof *pi.func);
        while (isk_context_of(inst, pi.nctx)) pi.nctx++;
        pi.ctx = isk_xcalloc(pi.nctx ? (size_t)pi.nctx : 1, sizeof *pi.ctx);
        const char *name = isk_inst_name(inst);
        for (int k = 0; k < pi.nctx; k++) {
            const isk_context *ic = isk_context_of(inst, k);
            pi.ctx[k] = (prof_ctx){ .state = (int)ic->state, .since = p->begin, .func = pi.nfunc,
                                    .touched = ic->state != ISK_CTX_STOPPED,
                                    .row = add_row(p, "%s context %d", name, k, false, &pi) };
        }
        pi.nslots = isk_model_slots(pi.model);
        pi.slot_row = (int)p->rows.len;
        for (int k = 0; k < pi.nslots; k++) add_row(p, "%s slot %d", name, k, true, &pi);
        VEC_PUSH(&p->insts, pi);
    }
    unsigned kinds = ISK_EV_BIT(ISK_EV_ISSUE) | ISK_EV_BIT(ISK_EV_CONTEXT) | ISK_EV_BIT(ISK_EV_LAUNCH) |
                     ISK_EV_BIT(ISK_EV_END) | ISK_EV_BIT(ISK_EV_DMA) | ISK_EV_BIT(ISK_EV_EXCEPTION);
    p->subscribed = isk_subscribe(r->sys, kinds, on_event, p) == ISK_OK;
    return p->subscribed;
}

/* ---- the report ---------------------------------------------------------------------------- */

/* A row of a table: as text (--profile) and as CSV (--profile-csv), from one call. */
typedef struct prof_out {
    FILE *text, *csv;
} prof_out;

static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* CSV: table,instance,name,column,value (one value a line: a long table any spreadsheet or
 * pandas pivots). */
static void csv_value(prof_out *out, const char *table, const char *inst, const char *name, const char *column,
                      uint64_t value)
{
    if (!out->csv) return;
    fprintf(out->csv, "%s,", table);
    csv_field(out->csv, inst);
    fputc(',', out->csv);
    csv_field(out->csv, name);
    fprintf(out->csv, ",%s,%" PRIu64 "\n", column, value);
}

static double pct(uint64_t part, uint64_t whole) { return whole ? 100.0 * (double)part / (double)whole : 0.0; }

/* The name of instruction `pattern` of m: its mnemonic (the syntax's first word) and, where the
 * model has several instructions with it, the behaviour. */
static void insn_name(const isk_model *m, int pattern, char *buf, size_t cap)
{
    if (pattern >= isk_model_instruction_count(m)) {
        snprintf(buf, cap, "(illegal)");
        return;
    }
    const isk_instruction_info *ii = isk_model_instruction(m, pattern);
    const char *s = ii->syntax ? ii->syntax : "";
    size_t n = strcspn(s, " \t{");
    if (n) snprintf(buf, cap, "%.*s (%s)", (int)n, s, ii->behaviour);
    else snprintf(buf, cap, "%s", ii->behaviour);
}

static const char *func_name(const prof_inst *pi, int f)
{
    return f < pi->nfunc ? pi->loaded->syms.data[f].name : "(no symbol)";
}

typedef struct ranked { int index; uint64_t key, count; } ranked;

static int by_key_desc(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? 1 : -1;
    if (x->count != y->count) return x->count < y->count ? 1 : -1;
    return x->index - y->index;
}

/* The entries of counts with a count, most clocks first; how many. */
static int rank(const prof_count *counts, int n, ranked *out)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (counts[i].count || counts[i].clocks) out[k++] = (ranked){ i, counts[i].clocks, counts[i].count };
    qsort(out, (size_t)k, sizeof *out, by_key_desc);
    return k;
}

static void report_processor(prof_out *out, const prof_inst *pi, uint64_t clocks, int top)
{
    const char *name = isk_inst_name(pi->inst);
    FILE *t = out->text;
    ranked *rk = isk_xcalloc((size_t)(pi->ninsn > pi->nfunc ? pi->ninsn : pi->nfunc) + 1, sizeof *rk);
    uint64_t total = 0, attributed = 0;
    for (int i = 0; i <= pi->ninsn; i++) total += pi->insn[i].count, attributed += pi->insn[i].clocks;
    char buf[160];

    int k = rank(pi->insn, pi->ninsn + 1, rk);
    if (t) fprintf(t, "\n%s: instructions (%" PRIu64 " issued, %" PRIu64 " clocks attributed)\n"
                   "  %12s %12s %7s  %s\n", name, total, attributed, "count", "clocks", "%clk", "instruction");
    for (int i = 0; i < k; i++) {
        insn_name(pi->model, rk[i].index, buf, sizeof buf);
        const prof_count *c = &pi->insn[rk[i].index];
        if (t && i < top) fprintf(t, "  %12" PRIu64 " %12" PRIu64 " %6.2f%%  %s\n", c->count, c->clocks,
                                  pct(c->clocks, attributed), buf);
        csv_value(out, "instructions", name, buf, "count", c->count);
        csv_value(out, "instructions", name, buf, "clocks", c->clocks);
    }
    if (t && k > top) fprintf(t, "  ... %d more (--profile-top N)\n", k - top);

    k = rank(pi->func, pi->nfunc + 1, rk);
    if (t && (pi->nfunc || k > 1))
        fprintf(t, "\n%s: functions\n  %12s %12s %7s  %s\n", name, "instructions", "clocks", "%clk", "function");
    for (int i = 0; i < k; i++) {
        const prof_count *c = &pi->func[rk[i].index];
        const char *fn = func_name(pi, rk[i].index);
        if (t && (pi->nfunc || k > 1) && i < top)
            fprintf(t, "  %12" PRIu64 " %12" PRIu64 " %6.2f%%  %s\n", c->count, c->clocks, pct(c->clocks, attributed), fn);
        csv_value(out, "functions", name, fn, "instructions", c->count);
        csv_value(out, "functions", name, fn, "clocks", c->clocks);
    }
    if (t && (pi->nfunc || k > 1) && k > top) fprintf(t, "  ... %d more (--profile-top N)\n", k - top);
    free(rk);

    static const char *const cats[NCAT] = { "running", "blocked", "sleeping", "idle" };
    if (t) fprintf(t, "\n%s: contexts (clocks; each row sums to the run's %" PRIu64 ")\n  %7s %12s %12s %12s %12s "
                   "%12s %10s %6s %10s\n", name, clocks, "context", "instructions", "running", "blocked", "sleeping",
                   "idle", "DMAs", "exc.", "blk.DMA");
    for (int k2 = 0; k2 < pi->nctx; k2++) {
        const prof_ctx *c = &pi->ctx[k2];
        if (!c->touched) continue;
        snprintf(buf, sizeof buf, "%d", k2);
        if (t) fprintf(t, "  %7d %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %10" PRIu64
                       " %6" PRIu64 " %10" PRIu64 "\n", k2, c->insns, c->clocks[CAT_RUN], c->clocks[CAT_BLOCKED],
                       c->clocks[CAT_SLEEP], c->clocks[CAT_IDLE], c->dma, c->exceptions, c->blocked_after_dma);
        csv_value(out, "contexts", name, buf, "instructions", c->insns);
        for (int j = 0; j < NCAT; j++) csv_value(out, "contexts", name, buf, cats[j], c->clocks[j]);
        csv_value(out, "contexts", name, buf, "attributed", c->attributed);
        csv_value(out, "contexts", name, buf, "dma", c->dma);
        csv_value(out, "contexts", name, buf, "dma_bytes", c->dma_bytes);
        csv_value(out, "contexts", name, buf, "exceptions", c->exceptions);
        csv_value(out, "contexts", name, buf, "blocked_after_dma", c->blocked_after_dma);
    }
    isk_stats st;
    isk_inst_stats(pi->inst, &st);
    if (t) fprintf(t, "\n%s: stalls: no context could issue in %" PRIu64 " clocks (%.1f%%), %" PRIu64 " of them with a "
                   "context blocked (a DMA or a latency)\n", name, st.idle_clocks, pct(st.idle_clocks, clocks),
                   st.idle_blocked_clocks);
    csv_value(out, "stalls", name, "idle", "clocks", st.idle_clocks);
    csv_value(out, "stalls", name, "idle_blocked", "clocks", st.idle_blocked_clocks);
}

static void report_accelerator(prof_out *out, const prof_inst *pi, uint64_t clocks, int top)
{
    const char *name = isk_inst_name(pi->inst);
    FILE *t = out->text;
    char buf[160];
    ranked *rk = isk_xcalloc((size_t)pi->ninsn + 1, sizeof *rk);
    int k = rank(pi->insn, pi->ninsn + 1, rk);
    if (t) fprintf(t, "\n%s: commands (%" PRIu64 " launched, %" PRIu64 " ended)\n  %12s %12s %10s  %s\n", name,
                   pi->launches, pi->ends, "launches", "clocks", "per cmd", "command");
    for (int i = 0; i < k; i++) {
        const prof_count *c = &pi->insn[rk[i].index];
        insn_name(pi->model, rk[i].index, buf, sizeof buf);
        if (t && i < top) fprintf(t, "  %12" PRIu64 " %12" PRIu64 " %10.2f  %s\n", c->count, c->clocks,
                                  c->count ? (double)c->clocks / (double)c->count : 0.0, buf);
        csv_value(out, "commands", name, buf, "launches", c->count);
        csv_value(out, "commands", name, buf, "clocks", c->clocks);
    }
    if (t && k > top) fprintf(t, "  ... %d more (--profile-top N)\n", k - top);
    free(rk);
    isk_stats st;
    isk_inst_stats(pi->inst, &st);
    if (t) fprintf(t, "\n%s: slots: %d, %" PRIu64 " slot-clocks busy (%.1f%% of %d x %" PRIu64 "), at most %d busy\n",
                   name, pi->nslots, st.slot_clocks, pct(st.slot_clocks, clocks * (uint64_t)(pi->nslots ? pi->nslots : 1)),
                   pi->nslots, clocks, st.max_busy_slots);
    csv_value(out, "slots", name, "busy", "slot_clocks", st.slot_clocks);
    if (t && isk_model_resource_count(pi->model)) fprintf(t, "%s: resources (clocks used)\n", name);
    for (int i = 0; i < isk_model_resource_count(pi->model); i++) {
        const isk_resource_info *ri = isk_model_resource(pi->model, i);
        uint64_t used = st.resource_clocks[__builtin_ctzll(ri->mask)];
        if (t) fprintf(t, "  %12" PRIu64 " %6.1f%%  %s\n", used, pct(used, clocks), ri->name);
        csv_value(out, "resources", name, ri->name, "clocks", used);
    }
    if (t && (st.crew_conflicts || st.resource_clashes))
        fprintf(t, "%s: %" PRIu64 " CREW conflicts, %" PRIu64 " resource clashes\n", name, st.crew_conflicts,
                st.resource_clashes);
}

/* ---- the picture ----------------------------------------------------------------------------- */

/* none of them a state's colour: red is blocked, grey sleeping, light green other functions */
static const char *const palette[] = { "#4e79a7", "#f28e2b", "#2ca02c", "#b07aa1", "#76b7b2",
                                       "#edc948", "#ff9da7", "#9c755f", "#17becf", "#1f3f7f" };
#define NPALETTE (int)(sizeof palette / sizeof *palette)
static const char *const cat_colour[NCAT] = { "#59a14f", "#e15759", "#bab0ac", "#f4f4f4" };

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else if (*s == '"') fputs("&quot;", f);
        else fputc(*s, f);
    }
}

/* The label's colour: labels of the hottest functions (owner: their instance) and commands
 * (owner: their model, so that two instances of one model agree) get a colour of the palette
 * each; the rest share one. */
typedef struct legend { const void *owner; int label; char name[128]; } legend;

static const char *label_colour(const legend *lg, int n, const void *owner, int label)
{
    for (int i = 0; i < n; i++)
        if (lg[i].owner == owner && lg[i].label == label) return palette[i % NPALETTE];
    return "#8cd17d";
}

/* A function's name in the picture, with its instance's when several processors ran. */
static void hot_name(const cli_profile *p, const prof_inst *pi, int f, char *buf, size_t cap)
{
    int nproc = 0;
    for (size_t i = 0; i < p->insts.len; i++) nproc += p->insts.data[i].nctx > 0;
    if (nproc > 1) snprintf(buf, cap, "%s: %s", isk_inst_name(pi->inst), func_name(pi, f));
    else snprintf(buf, cap, "%s", func_name(pi, f));
}

static void write_svg(cli_profile *p, FILE *f, uint64_t clocks)
{
    /* the hottest functions across all processors, and the commands of accelerators */
    VEC(ranked) hot = { 0 };
    VEC(legend) lg = { 0 };
    for (size_t i = 0; i < p->insts.len; i++) {
        prof_inst *pi = &p->insts.data[i];
        if (pi->nctx)
            for (int k = 0; k <= pi->nfunc; k++)
                if (pi->func[k].count) VEC_PUSH(&hot, (ranked){ (int)(i << 20 | (size_t)k), pi->func[k].clocks, pi->func[k].count });
    }
    if (hot.len) qsort(hot.data, hot.len, sizeof *hot.data, by_key_desc);
    size_t nhot = hot.len < 20 ? hot.len : 20;
    for (size_t h = 0; h < nhot && h < (size_t)NPALETTE; h++) {
        const prof_inst *pi = &p->insts.data[hot.data[h].index >> 20];
        legend l = { .owner = pi->inst, .label = hot.data[h].index & 0xfffff };
        hot_name(p, pi, l.label, l.name, sizeof l.name);
        VEC_PUSH(&lg, l);
    }
    size_t nfunc_legend = lg.len;
    for (size_t i = 0; i < p->insts.len; i++) {
        prof_inst *pi = &p->insts.data[i];
        if (!pi->nslots) continue;
        ranked *rk = isk_xcalloc((size_t)pi->ninsn + 1, sizeof *rk);
        int k = rank(pi->insn, pi->ninsn + 1, rk);
        for (int j = 0; j < k && lg.len < 2 * (size_t)NPALETTE; j++) {
            legend l = { .owner = pi->model, .label = rk[j].index };
            insn_name(pi->model, rk[j].index, l.name, sizeof l.name);
            VEC_PUSH(&lg, l);
        }
        free(rk);
    }

    uint64_t span = clocks ? clocks : 1;
    int ncols = (int)((span + p->width - 1) / p->width);
    const int left = 170, top = 40, rowh = 16, plotw = 1000;
    /* rows idle the whole run (contexts never started, slots never used) are left out */
    int *shown = isk_xcalloc(p->rows.len + 1, sizeof *shown), nrows = 0;
    for (size_t r = 0; r < p->rows.len; r++)
        for (int c = 0; c < TL_BUCKETS; c++) {
            const tl_bucket *b = &p->rows.data[r].b[c];
            if (b->clocks[CAT_RUN] || b->clocks[CAT_BLOCKED] || b->clocks[CAT_SLEEP] || b->votes) {
                shown[nrows++] = (int)r;
                break;
            }
        }
    int legend_y = top + nrows * rowh + 30;
    int legend_rows = (int)(lg.len + 1 + NCAT) / 4 + 1;
    int bars_y = legend_y + legend_rows * 16 + 30;
    int height = bars_y + (int)nhot * 18 + 30;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" font-family=\"sans-serif\" font-size=\"11\" shape-rendering=\"crispEdges\">\n<rect width=\"100%%\" height=\"100%%\" "
            "fill=\"white\"/>\n<text x=\"10\" y=\"20\" font-size=\"14\">Timeline: %" PRIu64 " clocks, %" PRIu64
            " per column</text>\n", left + plotw + 20, height, clocks, p->width);
    double colw = (double)plotw / (double)(ncols ? ncols : 1);
    for (int r = 0; r < nrows; r++) {
        const tl_row *row = &p->rows.data[shown[r]];
        int y = top + r * rowh;
        fprintf(f, "<text x=\"5\" y=\"%d\">", y + rowh - 4);
        xml_text(f, row->name);
        fprintf(f, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", left, y, plotw,
                rowh - 2, cat_colour[CAT_IDLE]);
        const void *owner = row->slot ? (const void *)row->model : (const void *)row->inst;
        int32_t last_label = -1;     /* a column with no issue goes on with the last function */
        /* a run of columns of one colour is one rectangle */
        const char *run_colour = NULL;
        int run_start = 0;
        for (int c = 0; c <= ncols; c++) {
            const char *colour = NULL;
            if (c < ncols) {
                const tl_bucket *b = &row->b[c];
                int best = CAT_IDLE;
                for (int k = 0; k < NCAT; k++)
                    if (b->clocks[k] > b->clocks[best]) best = k;
                if (b->votes) last_label = b->label;
                if (best == CAT_RUN && (row->slot || last_label >= 0))
                    colour = label_colour(lg.data, (int)lg.len, owner, row->slot ? b->label : last_label);
                else if (best != CAT_IDLE)
                    colour = cat_colour[best];
            }
            if (colour == run_colour) continue;
            if (run_colour)
                fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"/>\n",
                        left + run_start * colw, y, (c - run_start) * colw, rowh - 2, run_colour);
            run_colour = colour;
            run_start = c;
        }
    }
    /* the legend: the states, then the hottest functions and commands */
    static const char *const cat_name[NCAT] = { "running (other functions)", "blocked", "sleeping", "idle" };
    for (int i = 0; i < (int)lg.len + NCAT; i++) {
        int x = 10 + (i % 4) * 290, y = legend_y + (i / 4) * 16;
        const char *colour = i < NCAT ? (i == CAT_RUN ? "#8cd17d" : cat_colour[i]) : palette[(i - NCAT) % NPALETTE];
        if (i >= NCAT && (size_t)(i - NCAT) >= nfunc_legend) colour = palette[(i - NCAT) % NPALETTE];
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\" stroke=\"#888\"/><text x=\"%d\" "
                "y=\"%d\">", x, y, colour, x + 14, y + 9);
        if (i < NCAT) xml_text(f, cat_name[i]);
        else {
            xml_text(f, (size_t)(i - NCAT) < nfunc_legend ? "" : "command ");
            xml_text(f, lg.data[i - NCAT].name);
        }
        fputs("</text>\n", f);
    }
    /* the hottest functions as bars */
    if (nhot)
        fprintf(f, "<text x=\"10\" y=\"%d\" font-size=\"14\">Hottest functions (clocks attributed)</text>\n",
                bars_y - 10);
    uint64_t maxc = nhot ? hot.data[0].key : 1;
    for (size_t h = 0; h < nhot; h++) {
        const prof_inst *pi = &p->insts.data[hot.data[h].index >> 20];
        int label = hot.data[h].index & 0xfffff;
        int y = bars_y + (int)h * 18;
        double w = maxc ? (double)plotw * 0.8 * (double)hot.data[h].key / (double)maxc : 0;
        char name[160];
        hot_name(p, pi, label, name, sizeof name);
        fprintf(f, "<text x=\"5\" y=\"%d\">", y + 12);
        xml_text(f, name);
        fprintf(f, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%.2f\" height=\"14\" fill=\"%s\"/>\n<text x=\"%.2f\" "
                "y=\"%d\">%" PRIu64 " clocks, %" PRIu64 " instructions</text>\n", left, y, w,
                label_colour(lg.data, (int)nfunc_legend, pi->inst, label), left + w + 5, y + 12, hot.data[h].key,
                hot.data[h].count);
    }
    fputs("</svg>\n", f);
    free(shown);
    VEC_FREE(&hot);
    VEC_FREE(&lg);
}

static void close_output(const cli_run *r, FILE *f, const char *option, const char *path)
{
    bool ok = !ferror(f);
    if (fclose(f) != 0 || !ok) fprintf(stderr, "%s: %s %s: cannot write it\n", r->cmd, option, path);
}

/* Close the open instructions and states at the run's end, then the tables and the picture. */
static void report(cli_run *r, cli_profile *p)
{
    uint64_t end = isk_clock(r->sys), clocks = end - p->begin;
    for (size_t i = 0; i < p->insts.len; i++) {
        prof_inst *pi = &p->insts.data[i];
        for (int k = 0; k < pi->nctx; k++) {
            prof_ctx *c = &pi->ctx[k];
            set_state(p, pi, c, c->state, end);
            close_issue(pi, c, end);
        }
    }
    int top = p->o->top ? p->o->top : 20;
    prof_out out = { .text = p->o->on ? stderr : NULL, .csv = p->csv };
    if (out.csv) fputs("table,instance,name,column,value\n", out.csv);
    if (out.text) fprintf(out.text, "\nprofile: %" PRIu64 " clocks\n", clocks);
    csv_value(&out, "run", "", "", "clocks", clocks);
    for (size_t i = 0; i < p->insts.len; i++) {
        prof_inst *pi = &p->insts.data[i];
        if (pi->nctx) report_processor(&out, pi, clocks, top);
        if (pi->nslots) report_accelerator(&out, pi, clocks, top);
    }
    if (p->csv) close_output(r, p->csv, "--profile-csv", p->o->csv);
    if (p->svg) {
        write_svg(p, p->svg, clocks);
        close_output(r, p->svg, "--profile-svg", p->o->svg);
    }
}

void cli_profile_end(cli_run *r)
{
    cli_profile *p = r->profile;
    if (!p) return;
    if (p->subscribed) {
        isk_unsubscribe(r->sys, on_event, p);
        report(r, p);
    } else {
        if (p->csv) fclose(p->csv);
        if (p->svg) fclose(p->svg);
    }
    for (size_t i = 0; i < p->insts.len; i++) {
        free(p->insts.data[i].insn);
        free(p->insts.data[i].func);
        free(p->insts.data[i].ctx);
    }
    for (size_t i = 0; i < p->rows.len; i++) free(p->rows.data[i].b);
    VEC_FREE(&p->insts);
    VEC_FREE(&p->rows);
    free(p);
    r->profile = NULL;
}
