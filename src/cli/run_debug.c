/* `isekit debug` (and `isekit run --debug`): the text front end of the debugger core
 * (debug_core.h), gdb's commands on any model. cli_run_go hands the run to cli_debug_go, which
 * reads commands (from -x FILE, then the terminal through libedit, or plain lines) until the
 * user quits; the runner then prints its usual results. */
#include <ctype.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#include "asm/loaded.h"
#include "base/num.h"
#include "cli/cli.h"
#include "cli/debug_core.h"
#include "cli/launchlist.h"
#include "cli/run_observe.h"
#include "cli/runctl.h"
#include "isekit/desc.h"

typedef struct cli_debugger {
    cli_run *r;
    dbg_core core;
    isk_inst *inst;                  /* the instance names refer to (the selected processor) */
    bool finished, quit, batch;
    isk_status status;               /* what the run returned last */
    char last_line[256];             /* an empty line repeats it (terminal only) */
} cli_debugger;

static const char *const state_names[] = { "stopped", "running", "blocked", "sleeping", "faulted", "exited" };

/* ---- options ---------------------------------------------------------------------------- */

bool cli_debug_option(cli_args *a, cli_run_opts *o)
{
    const char *v;
    if (cli_flag(a, "--debug")) {
        o->debug.on = true;
    } else if (cli_flag(a, "--batch")) {
        o->debug.batch = true;
        if (!cli_debugging(a)) cli_usage_error(a, "--batch is an option of isekit debug (or of --debug)");
    } else if (cli_value(a, "-x", &v)) {
        if (v && !cli_debugging(a)) cli_usage_error(a, "-x is an option of isekit debug (or of --debug)");
        else if (v && o->debug.nscripts == 8) cli_usage_error(a, "at most 8 -x options");
        else if (v) o->debug.scripts[o->debug.nscripts++] = v;
    } else {
        return false;
    }
    return true;
}

/* `isekit debug ARGS...` is `isekit run ARGS... --debug`: every runner gets the debugger
 * through its run options. */
int cmd_debug(int argc, char **argv)
{
    if (wants_help(argc, argv) && argc == 2) {
        printf("usage: isekit debug MODEL PROGRAM [options]\n"
               "       isekit debug SYSTEM.sys [options]\n"
               "       isekit debug RUNNER ARGS... [options]   (e.g. isekit debug dpu prog.S --tasklets 4)\n\n"
               "Run as `isekit run` does, under a gdb-like debugger that stops before the first clock.\n"
               "options (besides those of isekit run):\n"
               "  -x FILE             run the debugger commands in FILE first\n"
               "  --batch             exit after the -x files instead of reading commands\n\n"
               "Type `help` at the prompt for the commands; docs/debugger.md describes them.\n");
        return EXIT_OK;
    }
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args) return EXIT_FAILED;
    args[0] = (char *)"run";
    for (int i = 1; i < argc; i++) args[i] = argv[i];
    args[argc] = (char *)"--debug";
    int rc = cmd_run(argc + 1, args);
    free(args);
    return rc;
}

/* ---- names, values, locations ----------------------------------------------------------- */

/* "INSTANCE.NAME" names a storage of another instance; else the selected one's. */
static isk_inst *inst_of(cli_debugger *g, const char **name)
{
    const char *dot = strchr(*name, '.');
    if (dot) {
        char head[128];
        snprintf(head, sizeof head, "%.*s", (int)(dot - *name), *name);
        isk_inst *inst = isk_instance(g->r->sys, head);
        if (inst) {
            *name = dot + 1;
            return inst;
        }
    }
    return g->inst;
}

static bool resolve(cli_debugger *g, const char *text, isk_ref *ref)
{
    isk_inst *inst = inst_of(g, &text);
    char msg[256];
    if (isk_resolve(inst, text, ref, msg, sizeof msg) == ISK_OK) return true;
    printf("%s\n", msg);
    return false;
}

/* A cell's value in its storage's declared format (isk_format_cell: integer, fixed point,
 * float), the bits in hex. */
static void print_cell(const isk_ref *ref)
{
    char text[128];
    isk_format_cell(isk_model_storage(isk_inst_model(ref->inst), ref->storage), isk_ref_read(ref), text, sizeof text);
    printf("%s", text);
}

static void print_named(const isk_ref *ref)
{
    const isk_storage_info *si = isk_model_storage(isk_inst_model(ref->inst), ref->storage);
    const char *el = si->element_names ? si->element_names[ref->index] : NULL;
    if (el) printf("%s = ", el);
    else if (si->count > 1) printf("%s[%" PRIu64 "] = ", si->name, ref->index);
    else printf("%s = ", si->name);
    print_cell(ref);
    printf("\n");
}

static bool parse_u64(const char *text, uint64_t *out)
{
    char why[128];
    if (isk_parse_u64(text, 0, UINT64_MAX, ISK_UNIT_NONE, out, why, sizeof why)) return true;
    printf("%s\n", why);
    return false;
}

static const isk_loaded *loaded(cli_debugger *g) { return g->core.proc ? isk_loaded_of(g->core.proc) : NULL; }

/* Where pc is, in words: " in SYMBOL+OFF (FILE:LINE)". */
static void where_text(cli_debugger *g, isk_inst *proc, uint64_t pc, char *out, size_t cap)
{
    const isk_loaded *l = proc ? isk_loaded_of(proc) : NULL;
    const isk_loaded_sym *s = l ? isk_loaded_code_at(l, pc) : NULL;
    const isk_line_row *row = l ? isk_loaded_line_at(l, pc) : NULL;
    size_t n = 0;
    out[0] = 0;
    if (s && pc == s->pc) n = (size_t)snprintf(out, cap, " in %s", s->name);
    else if (s) n = (size_t)snprintf(out, cap, " in %s+%" PRIu64, s->name, pc - s->pc);
    if (row && n < cap && row->file < l->files.len)
        snprintf(out + n, cap - n, " (%s:%u)", l->files.data[row->file], row->line);
    (void)g;
}

/* A code location: a PC (a number, as stops and --trace show it), *PC, a symbol, FILE:LINE or
 * LINE (of the current file). Fills up to cap PCs; how many, 0 after a message. */
static int parse_location(cli_debugger *g, const char *text, uint64_t *pcs, int cap)
{
    if (!g->core.proc) {
        printf("no processor in this system: breakpoints need one (use cycle, watch)\n");
        return 0;
    }
    const isk_loaded *l = loaded(g);
    if (*text == '*') text++;
    if (isdigit((unsigned char)*text) && !strchr(text, ':')) {
        /* a bare number: a PC; with line information, a line of the current file (gdb) */
        const isk_line_row *row = l ? isk_loaded_line_at(l, isk_context_of(g->core.proc, (int)g->core.context)->pc) : NULL;
        if (!row || text[0] == '0') return parse_u64(text, pcs) ? 1 : 0;
    }
    const char *colon = strrchr(text, ':');
    char file[256] = "";
    uint64_t line;
    if (colon || isdigit((unsigned char)*text)) {
        if (colon) snprintf(file, sizeof file, "%.*s", (int)(colon - text), text);
        if (!parse_u64(colon ? colon + 1 : text, &line)) return 0;
        if (!l || !l->lines.len) {
            printf("no line information in the program (assemble it with line information, or break at a "
                   "symbol or a pc)\n");
            return 0;
        }
        if (!colon) {
            const isk_line_row *row = isk_loaded_line_at(l, isk_context_of(g->core.proc, (int)g->core.context)->pc);
            snprintf(file, sizeof file, "%s", row ? l->files.data[row->file] : l->files.data[0]);
        }
        int n = isk_loaded_line_pcs(l, file, (uint32_t)line, pcs, cap);
        if (n <= 0) printf("no code at %s:%" PRIu64 "\n", file, line);
        return n < cap ? n : cap;
    }
    const isk_loaded_sym *s = l ? isk_loaded_find(l, text) : NULL;
    if (s && s->code) {
        pcs[0] = s->pc;
        return 1;
    }
    printf(s ? "'%s' is not in code\n" : "no symbol '%s' in the program\n", text);
    return 0;
}

/* ---- the launch list: the program of a system without a processor ------------------------ */

/* " demo.ll:11 (mac gr0, gr0)": where step lies (the file's last component, as gdb shows it). */
static void list_where(const launch_list *l, size_t step, char *out, size_t cap)
{
    const char *file, *text;
    int line;
    if (!launch_list_step_source(l, step, &file, &line, &text)) {
        snprintf(out, cap, " the end of the launch list");
        return;
    }
    const char *base = strrchr(file, '/');
    if (line) snprintf(out, cap, " %s:%d (%s)", base ? base + 1 : file, line, text);
    else snprintf(out, cap, " %s (%s)", base ? base + 1 : file, text);
}

/* break LINE, FILE:LINE or LABEL (a launch program's) in the list: steps, 0 after a message. */
static int list_location(cli_debugger *g, const char *text, size_t *steps, int cap)
{
    const launch_list *l = g->core.list;
    const char *colon = strrchr(text, ':');
    if (colon || isdigit((unsigned char)*text)) {
        char file[256] = "";
        uint64_t line;
        if (colon) snprintf(file, sizeof file, "%.*s", (int)(colon - text), text);
        if (!parse_u64(colon ? colon + 1 : text, &line)) return 0;
        const char *main_file, *ignored;
        int ignored_line;
        if (!colon && launch_list_step_source(l, 0, &main_file, &ignored_line, &ignored))
            snprintf(file, sizeof file, "%s", main_file);
        int n = line <= INT32_MAX ? launch_list_line_steps(l, file, (int)line, steps, cap) : 0;
        if (n <= 0) printf("no launch step at %s:%" PRIu64 "\n", file, line);
        return n < cap ? n : cap;
    }
    if (launch_list_label(l, text, steps)) return 1;
    printf("no label '%s' in the launch program\n", text);
    return 0;
}

static void list_break(cli_debugger *g, const char *arg, bool temp)
{
    size_t steps[16];
    if (!*arg) steps[0] = launch_list_next(g->core.list);
    int n = *arg ? list_location(g, arg, steps, 16) : 1;
    for (int i = 0; i < n; i++) {
        char where[512];
        int id = dbg_break_step(&g->core, steps[i], temp);
        list_where(g->core.list, steps[i], where, sizeof where);
        printf("%s %d at%s\n", temp ? "Temporary breakpoint" : "Breakpoint", id, where);
    }
}

/* ---- stops -------------------------------------------------------------------------------- */

static void print_pc_line(cli_debugger *g, isk_inst *proc, uint32_t ctx, uint64_t pc)
{
    char text[256], where[256];
    dbg_disasm_at(proc, pc, text, sizeof text);
    where_text(g, proc, pc, where, sizeof where);
    printf("  %s context %u pc 0x%" PRIx64 "%s: %s\n", isk_inst_name(proc), ctx, pc, where, text);
}

/* gdb's words for the kinds of watchpoint */
static const char *watch_title(dbg_access access)
{
    return access == DBG_ON_READ ? "Hardware read watchpoint"
           : access == DBG_ON_ACCESS ? "Hardware access (read/write) watchpoint" : "Watchpoint";
}

/* A read watchpoint's stop: the cell and its value, then who read it (the reading instruction's
 * context and pc, or the command's slot) and when. */
static void report_read(cli_debugger *g, const dbg_stop *s)
{
    const dbg_point *p = dbg_point_find(&g->core, s->id);
    const isk_storage_info *si = isk_model_storage(isk_inst_model(s->inst), s->storage);
    printf("%s %d: %s.%s[%" PRIu64 "]  Value = %" PRId64 " (0x%" PRIx64 ")\n", watch_title(p ? p->access : DBG_ON_READ),
           s->id, isk_inst_name(s->inst), si->name, s->index, s->value, (uint64_t)s->value);
    if (s->proc) {
        char where[256];
        where_text(g, s->proc, s->pc, where, sizeof where);
        printf("  read by %s context %u at pc 0x%" PRIx64 "%s, clock %" PRIu64 "\n", isk_inst_name(s->proc), s->context,
               s->pc, where, s->clock);
    } else if (s->slot >= 0) {
        printf("  read by %s slot %d, clock %" PRIu64 "\n", isk_inst_name(s->inst), s->slot, s->clock);
    } else {
        printf("  read at clock %" PRIu64 "\n", s->clock);
    }
}

static void report(cli_debugger *g, const dbg_stop *s)
{
    char where[256], text[128];
    g->status = s->status;
    if (s->in_list) {
        list_where(g->core.list, s->step, where, sizeof where);
        if (s->kind == DBG_BREAKPOINT) printf("Breakpoint %d,%s at clock %" PRIu64 "\n", s->id, where, s->clock);
        else printf("Stepped,%s at clock %" PRIu64 "\n", where, s->clock);
        return;
    }
    switch (s->kind) {
    case DBG_BREAKPOINT:
    case DBG_STEP:
        where_text(g, s->proc, s->pc, where, sizeof where);
        if (s->kind == DBG_BREAKPOINT) printf("Breakpoint %d,", s->id);
        else printf("Stepped,");
        printf("%s at pc 0x%" PRIx64 ", %s context %u, clock %" PRIu64 "\n", where, s->pc, isk_inst_name(s->proc),
               s->context, s->clock);
        dbg_disasm_at(s->proc, s->pc, text, sizeof text);
        printf("  0x%" PRIx64 ": %s\n", s->pc, text);
        return;
    case DBG_WATCH: {
        const isk_storage_info *si = isk_model_storage(isk_inst_model(s->inst), s->storage);
        const dbg_point *p = dbg_point_find(&g->core, s->id);
        printf("%s %d: %s.%s[%" PRIu64 "] changed at clock %" PRIu64 "\n", watch_title(p ? p->access : DBG_ON_WRITE),
               s->id, isk_inst_name(s->inst), si->name, s->index, s->clock);
        printf("  old = %" PRId64 " (0x%" PRIx64 "), new = %" PRId64 " (0x%" PRIx64 ")\n", s->old, (uint64_t)s->old,
               s->value, (uint64_t)s->value);
        break;
    }
    case DBG_READ_WATCH: report_read(g, s); break;
    case DBG_CLOCKS: printf("clock %" PRIu64 "\n", s->clock); break;
    case DBG_INTERRUPTED: printf("Interrupted at clock %" PRIu64 "\n", s->clock); break;
    case DBG_MODEL_BREAK: printf("Stopped: %s\n", isk_stop_reason(g->r->sys)); break;
    case DBG_FINISHED: printf("The program finished at clock %" PRIu64 ".\n", s->clock); break;
    case DBG_ERROR:
        printf("The run stopped with an error at clock %" PRIu64 ": %s\n", s->clock, isk_last_error(g->r->sys));
        break;
    case DBG_LIMIT: printf("--max-clocks reached at clock %" PRIu64 "\n", s->clock); break;
    case DBG_NONE: break;
    }
    if (s->kind == DBG_FINISHED || (s->status != ISK_OK && s->status != ISK_BREAK) || s->kind == DBG_LIMIT)
        g->finished = true;
    if (g->core.proc && !g->finished) {
        const isk_context *c = isk_context_of(g->core.proc, (int)g->core.context);
        if (c) print_pc_line(g, g->core.proc, g->core.context, c->pc);
    }
}

static bool can_run(cli_debugger *g)
{
    if (!g->finished) return true;
    printf("The program is not being run: it finished at clock %" PRIu64 ".\n", isk_clock(g->r->sys));
    return false;
}

/* ---- commands ----------------------------------------------------------------------------- */

static bool count_arg(const char *arg, uint64_t *n)
{
    *n = 1;
    return !*arg || parse_u64(arg, n);
}

static void cmd_break(cli_debugger *g, const char *arg, bool temp)
{
    uint64_t pcs[16];
    if (!g->core.proc && g->core.list) return list_break(g, arg, temp);
    if (!*arg) {
        if (!g->core.proc) return (void)printf("no processor in this system\n");
        pcs[0] = isk_context_of(g->core.proc, (int)g->core.context)->pc;
    }
    int n = *arg ? parse_location(g, arg, pcs, 16) : 1;
    for (int i = 0; i < n; i++) {
        int id = dbg_break(&g->core, NULL, pcs[i], temp);
        char where[256];
        where_text(g, g->core.proc, pcs[i], where, sizeof where);
        printf("%s %d at pc 0x%" PRIx64 "%s\n", temp ? "Temporary breakpoint" : "Breakpoint", id, pcs[i], where);
    }
}

/* STORAGE, STORAGE[i], STORAGE[i..j] or an element name: watch those cells (for changes,
 * reads or both: watch, rwatch, awatch). */
static void cmd_watch(cli_debugger *g, const char *arg, dbg_access access)
{
    char name[256];
    snprintf(name, sizeof name, "%s", arg);
    char *dots = strstr(name, "..");
    uint64_t last = 0;
    bool range = false;
    if (dots) {
        char *close = strchr(dots, ']');
        if (!close) return (void)printf("write STORAGE[FIRST..LAST]\n");
        *close = 0;
        if (!parse_u64(dots + 2, &last)) return;
        dots[0] = ']';
        dots[1] = 0;
        range = true;
    }
    uint64_t len = 0;                  /* *ADDR,LEN: LEN bytes from ADDR (a number or a symbol) */
    char *comma = name[0] == '*' ? strchr(name, ',') : NULL;
    if (comma) {
        *comma = 0;
        if (!parse_u64(comma + 1, &len)) return;
        if (!len) return (void)printf("*ADDR,LEN needs a LEN of at least one byte\n");
    }
    isk_ref ref;
    const isk_loaded *l = loaded(g);
    const isk_loaded_sym *sym = l && !dots ? isk_loaded_find(l, name[0] == '*' ? name + 1 : name) : NULL;
    uint64_t addr = sym ? sym->addr : 0;
    isk_addr_cell c;
    if (sym || name[0] == '*') {
        /* a data symbol (its cells, as far as its size says) or *ADDR: through the address map */
        if (!sym && !parse_u64(name + 1, &addr)) return;
        if (!isk_addr_to_cell(isk_inst_model(g->inst), addr, &c) || c.storage < 0)
            return (void)printf("address 0x%" PRIx64 " is in no storage of %s\n", addr, isk_inst_name(g->inst));
        const isk_map_region *r = &isk_inst_model(g->inst)->map.regions.data[c.region];
        const uint64_t bytes = len ? len : sym ? sym->size : 0;
        uint64_t cells = bytes && r->cell_bytes ? (bytes + (uint64_t)r->cell_bytes - 1) / (uint64_t)r->cell_bytes : 1;
        ref = (isk_ref){ g->inst, c.storage, c.index };
        last = c.index + cells - 1;
        range = true;
    } else if (!resolve(g, name, &ref)) {
        return;
    }
    char msg[256];
    int id = dbg_watch_access(&g->core, ref.inst, ref.storage, ref.index, range ? last : ref.index, access, msg,
                              sizeof msg);
    if (id < 0) return (void)printf("%s\n", msg);
    printf("%s %d: %s\n", watch_title(access), id, arg);
}

static void cmd_info_breakpoints(cli_debugger *g)
{
    if (!g->core.points.len) return (void)printf("No breakpoints or watchpoints.\n");
    printf("Num  Type        Where\n");
    for (size_t i = 0; i < g->core.points.len; i++) {
        const dbg_point *p = &g->core.points.data[i];
        if (p->watch) {
            const isk_storage_info *si = isk_model_storage(isk_inst_model(p->inst), p->storage);
            printf("%-4d %-11s %s.%s[%" PRIu64 "..%" PRIu64 "]", p->id,
                   p->access == DBG_ON_READ ? "read watch" : p->access == DBG_ON_ACCESS ? "acc watch" : "watchpoint",
                   isk_inst_name(p->inst), si->name, p->first, p->last);
        } else if (p->in_list) {
            char where[512];
            list_where(g->core.list, p->step, where, sizeof where);
            printf("%-4d %-11s%s", p->id, p->temp ? "tbreakpoint" : "breakpoint", where);
        } else {
            char where[256];
            where_text(g, g->core.proc, p->pc, where, sizeof where);
            printf("%-4d %-11s pc 0x%" PRIx64 "%s", p->id, p->temp ? "tbreakpoint" : "breakpoint", p->pc, where);
        }
        printf(p->hits ? ", hit %" PRIu64 " time(s)\n" : "\n", p->hits);
    }
}

static void print_storage(isk_inst *inst, int s, uint64_t max)
{
    const isk_storage_info *si = isk_model_storage(isk_inst_model(inst), s);
    for (uint64_t i = 0; i < si->count && i < max; i++) print_named(&(isk_ref){ inst, s, i });
    if (si->count > max)
        printf("  (%" PRIu64 " more cells: print %s[N] or x/N %s[I])\n", si->count - max, si->name, si->name);
}

static void cmd_info_registers(cli_debugger *g, const char *arg)
{
    isk_inst *inst = *arg ? isk_instance(g->r->sys, arg) : g->inst;
    if (!inst) return (void)printf("no instance '%s'\n", arg);
    const isk_model *m = isk_inst_model(inst);
    for (int s = 0; s < isk_model_storage_count(m); s++) {
        const isk_storage_info *si = isk_model_storage(m, s);
        if (si->kind == ISK_REGISTER || si->kind == ISK_REGFILE) print_storage(inst, s, 64);
    }
}

static void cmd_info_storage(cli_debugger *g, const char *arg)
{
    if (!*arg) {
        const isk_model *m = isk_inst_model(g->inst);
        for (int s = 0; s < isk_model_storage_count(m); s++) {
            const isk_storage_info *si = isk_model_storage(m, s);
            static const char *const floats[] = { "", ", f16", ", f32", ", f64", ", f16 pairs" };
            printf("%-12s %-28s %s%d bits x %" PRIu64 "%s\n", si->name, si->title ? si->title : "",
                   si->sign ? "signed " : "unsigned ", si->width, si->count,
                   si->frac ? ", fixed point" : floats[si->display]);
        }
        return;
    }
    const char *name = arg;
    isk_inst *inst = inst_of(g, &name);
    int s = isk_model_find_storage(isk_inst_model(inst), name);
    if (s < 0) {
        isk_ref ref;
        if (resolve(g, arg, &ref)) print_named(&ref);
        return;
    }
    print_storage(inst, s, 256);
}

static void cmd_set(cli_debugger *g, const char *arg)
{
    if (strncmp(arg, "var ", 4) == 0) arg += 4;
    char name[256];
    size_t n = strcspn(arg, "= \t");
    snprintf(name, sizeof name, "%.*s", (int)n, arg);
    const char *v = arg + n;
    while (*v == ' ' || *v == '\t' || *v == '=') v++;
    int64_t value;
    char why[128];
    isk_ref ref;
    if (!*name || !*v) return (void)printf("write set NAME = VALUE\n");
    if (!resolve(g, name, &ref)) return;
    if (!isk_parse_cell(isk_model_storage(isk_inst_model(ref.inst), ref.storage), v, &value, why, sizeof why))
        return (void)printf("%s\n", why);
    isk_ref_write(&ref, value);
    dbg_watch_refresh(&g->core);
    print_named(&ref);
}

/* x/NF ADDR: N cells from a byte address of the model's address map (or a storage name), in
 * format F: x hex, d signed, u unsigned, f float (the declared FLOAT format, else by the width),
 * b binary, c character, i instructions. */
static void cmd_x(cli_debugger *g, const char *fmt, const char *arg)
{
    uint64_t n = 1;
    char f = 'x';
    if (*fmt == '/') {
        fmt++;
        char *end;
        if (isdigit((unsigned char)*fmt)) n = strtoull(fmt, &end, 0), fmt = end;
        if (*fmt) f = *fmt;
    }
    if (!strchr("xdufbci", f) || n == 0 || n > 65536)
        return (void)printf("write x/NF ADDR with N 1 to 65536 and F one of x d u f b c i\n");
    if (!*arg) return (void)printf("x needs an address or a storage name\n");
    const isk_model *m = isk_inst_model(g->inst);
    isk_ref ref = { g->inst, -1, 0 };
    uint64_t addr = 0;
    bool is_addr = isdigit((unsigned char)*arg);
    const isk_loaded *l = loaded(g);
    const isk_loaded_sym *sym = !is_addr && l ? isk_loaded_find(l, arg) : NULL;
    if (sym) is_addr = true, addr = sym->addr;
    else if (is_addr && !parse_u64(arg, &addr)) return;
    if (f == 'i') {
        uint64_t pc = addr;
        if (!g->core.proc) return (void)printf("no processor in this system\n");
        if (is_addr && !isk_addr_to_pc(isk_inst_model(g->core.proc), addr, &pc))
            return (void)printf("0x%" PRIx64 " is not an instruction's address\n", addr);
        for (uint64_t i = 0; i < n; i++) {
            char text[256];
            dbg_disasm_at(g->core.proc, pc + i, text, sizeof text);
            printf("  pc 0x%" PRIx64 ": %s\n", pc + i, text);
        }
        return;
    }
    if (is_addr) {
        isk_addr_cell c;
        if (!isk_addr_to_cell(m, addr, &c) || c.storage < 0)
            return (void)printf("address 0x%" PRIx64 " is in no storage of %s\n", addr, isk_inst_name(g->inst));
        ref.storage = c.storage;
        ref.index = c.index;
    } else if (!resolve(g, arg, &ref)) {
        return;
    }
    const isk_storage_info *si = isk_model_storage(isk_inst_model(ref.inst), ref.storage);
    uint64_t mask = si->width >= 64 ? UINT64_MAX : (1ull << si->width) - 1;
    char text[64];
    if (f == 'f' && !isk_format_float(si, si->display, 0, text, sizeof text))
        return (void)printf("%s has %d-bit cells and no FLOAT format: x/f reads 16, 32 or 64 bits\n", si->name,
                            si->width);
    for (uint64_t i = 0; i < n && ref.index + i < si->count; i++) {
        if (i % 8 == 0) printf(i ? "\n%s[0x%" PRIx64 "]:" : "%s[0x%" PRIx64 "]:", si->name, ref.index + i);
        int64_t v = isk_ref_read(&(isk_ref){ ref.inst, ref.storage, ref.index + i });
        uint64_t u = (uint64_t)v & mask;
        switch (f) {
        case 'x': printf(" 0x%0*" PRIx64, (si->width + 3) / 4, u); break;
        case 'd': printf(" %" PRId64, si->sign || si->width >= 64 ? v : (int64_t)(u << (64 - si->width)) >> (64 - si->width)); break;
        case 'u': printf(" %" PRIu64, u); break;
        case 'f': isk_format_float(si, si->display, (int64_t)u, text, sizeof text), printf(" %s", text); break;
        case 'c': printf(" '%c'", u >= 32 && u < 127 ? (char)u : '.'); break;
        case 'b':
            printf(" ");
            for (int b = si->width - 1; b >= 0; b--) putchar((u >> b) & 1 ? '1' : '0');
            break;
        }
    }
    printf("\n");
}

static void cmd_disassemble(cli_debugger *g, const char *arg)
{
    if (!g->core.proc) return (void)printf("no processor in this system\n");
    uint64_t pc = isk_context_of(g->core.proc, (int)g->core.context)->pc, at = pc;
    if (*arg) {
        uint64_t pcs[1];
        if (parse_location(g, arg, pcs, 1) != 1) return;
        at = pcs[0];
    }
    uint64_t first = at > 8 ? at - 8 : 0;
    for (uint64_t p = first; p < at + 8; p++) {
        char text[256], where[256];
        uint64_t w;
        if (!dbg_code_word(g->core.proc, p, &w)) break;
        dbg_disasm_at(g->core.proc, p, text, sizeof text);
        const isk_loaded *l = loaded(g);
        const isk_loaded_sym *s = l ? isk_loaded_code_at(l, p) : NULL;
        if (s && s->pc == p) printf("%s:\n", s->name);
        where_text(g, NULL, p, where, sizeof where);
        printf("%s pc 0x%04" PRIx64 "  %s\n", p == pc ? "=>" : "  ", p, text);
    }
}

static void cmd_info_threads(cli_debugger *g)
{
    for (int i = 0; isk_instance_at(g->r->sys, i); i++) {
        isk_inst *p = isk_instance_at(g->r->sys, i);
        for (int id = 0; isk_inst_model(p)->is_processor && isk_context_of(p, id); id++) {
            const isk_context *c = isk_context_of(p, id);
            char where[256];
            where_text(g, p, c->pc, where, sizeof where);
            printf("%s %s context %-2d %-8s pc 0x%04" PRIx64 "%s, %" PRIu64 " instructions\n",
                   p == g->core.proc && (uint32_t)id == g->core.context ? "*" : " ", isk_inst_name(p), id,
                   state_names[c->state < 6 ? c->state : 0], c->pc, where, c->insns);
        }
    }
    if (!g->core.proc) printf("no processor in this system: no threads\n");
}

static void cmd_thread(cli_debugger *g, const char *arg)
{
    const char *sp = strchr(arg, ' ');
    isk_inst *p = g->core.proc;
    if (sp) {
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(sp - arg), arg);
        p = isk_instance(g->r->sys, name);
        arg = sp + 1;
        if (!p || !isk_inst_model(p)->is_processor) return (void)printf("no processor '%s'\n", name);
    }
    uint64_t id;
    if (!p) return (void)printf("no processor in this system: no threads\n");
    if (!*arg) return cmd_info_threads(g);
    if (!parse_u64(arg, &id)) return;
    if (!isk_context_of(p, (int)id) || id > INT32_MAX)
        return (void)printf("%s has no context %" PRIu64 "\n", isk_inst_name(p), id);
    g->core.proc = p;
    g->core.context = (uint32_t)id;
    g->inst = p;
    print_pc_line(g, p, (uint32_t)id, isk_context_of(p, (int)id)->pc);
}

static void cmd_info_slots(cli_debugger *g)
{
    char what[4096];
    int active = isk_describe_activity(g->r->sys, what, sizeof what);
    printf("clock %" PRIu64 "\n", isk_clock(g->r->sys));
    for (int i = 0; isk_instance_at(g->r->sys, i); i++) {
        isk_inst *a = isk_instance_at(g->r->sys, i);
        const isk_model *m = isk_inst_model(a);
        if (!isk_model_slots(m)) continue;
        printf("%s: %d of %d slots busy\n", isk_inst_name(a), isk_busy_slots(a), isk_model_slots(m));
        for (size_t u = 0; u < g->core.usage.len; u++) {
            const dbg_usage *us = &g->core.usage.data[u];
            if (us->inst != a) continue;
            printf("%s: resources used in clock %" PRIu64 ":", isk_inst_name(a), us->clock);
            for (int k = 0; k < isk_model_resource_count(m); k++)
                if (us->mask & isk_model_resource(m, k)->mask) printf(" %s;", isk_model_resource(m, k)->name);
            printf("\n");
        }
    }
    printf("%s%s", what, *what && what[strlen(what) - 1] != '\n' ? "\n" : "");
    if (!active) printf("nothing active\n");
}

static void cmd_info_launches(cli_debugger *g)
{
    if (!g->core.launches.len) return (void)printf("No launches yet.\n");
    for (size_t i = 0; i < g->core.launches.len; i++) {
        const dbg_launch *l = &g->core.launches.data[i];
        const isk_instruction_info *ii = isk_model_instruction(isk_inst_model(l->inst), l->instruction);
        printf("clock %-6" PRIu64 " %s slot %d: %s (0x%" PRIx64 ")", l->clock, isk_inst_name(l->inst), l->slot,
               ii ? ii->behaviour : "?", l->word);
        if (l->end != UINT64_MAX) printf(", ended at clock %" PRIu64 "\n", l->end);
        else printf(", running\n");
    }
}

/* The shadow call stack (dbg_frames): #0 the current pc, then each caller at its call site. */
static void cmd_backtrace(cli_debugger *g)
{
    if (!g->core.proc) return (void)printf("no processor in this system\n");
    uint64_t pc = isk_context_of(g->core.proc, (int)g->core.context)->pc;
    char where[256];
    where_text(g, g->core.proc, pc, where, sizeof where);
    printf("#0  pc 0x%" PRIx64 "%s\n", pc, where);
    if (!dbg_model_has_calls(g->core.proc)) {
        printf("(model '%s' declares no calls: only the current frame)\n",
               isk_model_name(isk_inst_model(g->core.proc)));
        return;
    }
    enum { SHOWN = 64 };
    dbg_frame f[SHOWN];
    bool truncated;
    int n = dbg_frames(&g->core, g->core.proc, g->core.context, f, SHOWN, &truncated);
    for (int k = 0; k < n && k < SHOWN; k++) {
        where_text(g, g->core.proc, f[k].site, where, sizeof where);
        printf("#%-2d pc 0x%" PRIx64 "%s\n", k + 1, f[k].site, where);
    }
    if (n > SHOWN) printf("(%d more frames)\n", n - SHOWN);
    if (truncated) printf("(older frames were not kept: more than %d calls deep)\n", DBG_MAX_FRAMES);
}

static void cmd_finish(cli_debugger *g)
{
    if (!can_run(g)) return;
    char where[256], msg[256];
    uint64_t pc = g->core.proc ? isk_context_of(g->core.proc, (int)g->core.context)->pc : 0;
    if (g->core.proc) where_text(g, g->core.proc, pc, where, sizeof where);
    dbg_stop s;
    if (g->core.proc && dbg_model_has_calls(g->core.proc) &&
        dbg_frames(&g->core, g->core.proc, g->core.context, NULL, 0, NULL) > 0)
        printf("Run till exit from #0  pc 0x%" PRIx64 "%s\n", pc, where);
    if (!dbg_finish(&g->core, &s, msg, sizeof msg)) return (void)printf("%s\n", msg);
    if (s.kind == DBG_STEP) {
        where_text(g, s.proc, s.pc, where, sizeof where);
        printf("Returned to pc 0x%" PRIx64 "%s, %s context %u, clock %" PRIu64 "\n", s.pc, where,
               isk_inst_name(s.proc), s.context, s.clock);
        g->status = s.status;
        print_pc_line(g, s.proc, s.context, s.pc);
        return;
    }
    report(g, &s);
}

static void cmd_info_symbol(cli_debugger *g, const char *arg)
{
    uint64_t pc;
    if (!parse_u64(arg, &pc)) return;
    char where[256];
    where_text(g, g->core.proc, pc, where, sizeof where);
    printf(*where ? "pc 0x%" PRIx64 " is%s\n" : "no symbol matches pc 0x%" PRIx64 "\n", pc, where);
}

static void help(void)
{
    printf("Commands (gdb's names; abbreviations in brackets):\n"
           "  break [b] LOC, tbreak LOC   stop before the instruction at LOC: a pc, *PC, SYMBOL,\n"
           "                              FILE:LINE or LINE (with line information)\n"
           "  delete [d] [N]              delete breakpoint/watchpoint N, or all\n"
           "  info breakpoints [i b]      list them\n"
           "  stepi [si] [N], step [s] [N], next [n] [N]\n"
           "                              issue N instructions of the current context (step: a\n"
           "                              source line, with line information)\n"
           "  cycle [N]                   run N clocks\n"
           "  continue [c] [N]            run until a stop (N: at most N clocks)\n"
           "  until [u] LOC, advance LOC  run until LOC\n"
           "  finish                      run until the current routine returns\n"
           "  watch STORAGE[I] | STORAGE[I..J] | NAME   stop when a cell changes\n"
           "  rwatch LOCATION, awatch LOCATION          stop when a cell is read (awatch: or changes)\n"
           "  info registers [i r] [INST] registers and register files by display name\n"
           "  info storage [NAME]         the storages, or one of them\n"
           "  print [p] NAME              a register or cell (INST.NAME in other instances)\n"
           "  set [var] NAME = VALUE      write it\n"
           "  x/NF ADDR|SYMBOL|NAME       N cells, F: x d u b c i\n"
           "  disassemble [LOC]           the code around the pc or LOC\n"
           "  info threads, thread [INST] N   the contexts; select one\n"
           "  info slots, info launches   the accelerators' active commands; the launch history\n"
           "  backtrace [bt]              the current pc and the calls that led to it\n"
           "  info symbol PC              the symbol a pc lies in\n"
           "  quit [q]                    leave; the run's results are printed\n");
}

static bool is(const char *cmd, const char *full, size_t min)
{
    size_t n = strlen(cmd);
    return n >= min && n <= strlen(full) && strncmp(cmd, full, n) == 0;
}

/* One command line; false to leave the debugger. */
static bool execute(cli_debugger *g, char *line)
{
    while (isspace((unsigned char)*line)) line++;
    size_t len = strlen(line);
    while (len && isspace((unsigned char)line[len - 1])) line[--len] = 0;
    if (!*line || *line == '#') return true;
    char cmd[64];
    size_t n = strcspn(line, " \t/");
    snprintf(cmd, sizeof cmd, "%.*s", (int)(n < 63 ? n : 63), line);
    const char *fmt = line + n;
    const char *arg = fmt + strcspn(fmt, " \t");
    while (*arg == ' ' || *arg == '\t') arg++;
    uint64_t count;
    if (is(cmd, "quit", 1) || strcmp(cmd, "exit") == 0) return false;
    if (is(cmd, "help", 1)) {
        help();
    } else if (is(cmd, "break", 1) || strcmp(cmd, "br") == 0) {
        cmd_break(g, arg, false);
    } else if (is(cmd, "tbreak", 2)) {
        cmd_break(g, arg, true);
    } else if (is(cmd, "delete", 1)) {
        uint64_t id;
        if (!*arg) dbg_delete(&g->core, -1);
        else if (parse_u64(arg, &id) && (id > INT32_MAX || !dbg_delete(&g->core, (int)id)))
            printf("no breakpoint or watchpoint %s\n", arg);
    } else if (is(cmd, "stepi", 2) || is(cmd, "nexti", 2) || strcmp(cmd, "si") == 0 || strcmp(cmd, "ni") == 0 || is(cmd, "step", 1) || is(cmd, "next", 1)) {
        if (!count_arg(arg, &count) || !can_run(g)) return true;
        bool by_line = strcmp(cmd, "si") && strcmp(cmd, "ni") && !is(cmd, "stepi", 5) && !is(cmd, "nexti", 5);
        const isk_loaded *l = loaded(g);
        for (uint64_t i = 0; i < count; i++) {
            const isk_context *c = g->core.proc ? isk_context_of(g->core.proc, (int)g->core.context) : NULL;
            const isk_line_row *from = by_line && l && c ? isk_loaded_line_at(l, c->pc) : NULL;
            dbg_stop s = dbg_stepi(&g->core, 1);
            /* a source line: instructions until another line's row */
            for (int k = 0; from && s.kind == DBG_STEP && k < 100000; k++) {
                const isk_line_row *to = isk_loaded_line_at(l, s.pc);
                if (to && (to->line != from->line || to->file != from->file)) break;
                s = dbg_stepi(&g->core, 1);
            }
            if (s.kind != DBG_STEP && s.kind != DBG_CLOCKS) {
                report(g, &s);
                return true;
            }
            if (i + 1 == count) report(g, &s);
        }
    } else if (is(cmd, "cycle", 2)) {
        if (count_arg(arg, &count) && can_run(g)) {
            dbg_stop s = dbg_continue(&g->core, count);
            report(g, &s);
        }
    } else if (is(cmd, "continue", 1) || strcmp(cmd, "run") == 0 || strcmp(cmd, "r") == 0) {
        count = 0;
        if ((!*arg || parse_u64(arg, &count)) && can_run(g)) {
            dbg_stop s = dbg_continue(&g->core, count);
            report(g, &s);
        }
    } else if (is(cmd, "until", 1) || is(cmd, "advance", 3)) {
        uint64_t pcs[16];
        int k = *arg ? parse_location(g, arg, pcs, 16) : 0;
        if (!*arg) printf("until needs a location\n");
        if (k > 0 && can_run(g)) {
            int first = 0;
            for (int i = 0; i < k; i++) {
                int id = dbg_break(&g->core, NULL, pcs[i], true);
                if (!i) first = id;
            }
            dbg_stop s = dbg_continue(&g->core, 0);
            for (int i = 0; i < k; i++) dbg_delete(&g->core, first + i);
            report(g, &s);
        }
    } else if (is(cmd, "finish", 3)) {
        cmd_finish(g);
    } else if (is(cmd, "watch", 2)) {
        if (!*arg) printf("watch needs a storage cell: NAME, STORAGE[I] or STORAGE[I..J]\n");
        else cmd_watch(g, arg, DBG_ON_WRITE);
    } else if (is(cmd, "rwatch", 2) || is(cmd, "awatch", 2)) {
        if (!*arg) printf("%s needs a storage cell: NAME, STORAGE[I], STORAGE[I..J] or *ADDR\n", cmd);
        else cmd_watch(g, arg, cmd[0] == 'r' ? DBG_ON_READ : DBG_ON_ACCESS);
    } else if (is(cmd, "info", 1)) {
        char sub[32];
        size_t k = strcspn(arg, " \t");
        snprintf(sub, sizeof sub, "%.*s", (int)(k < 31 ? k : 31), arg);
        const char *rest = arg + k;
        while (*rest == ' ') rest++;
        if (is(sub, "registers", 1)) cmd_info_registers(g, rest);
        else if (is(sub, "breakpoints", 1) || is(sub, "watchpoints", 3)) cmd_info_breakpoints(g);
        else if (is(sub, "storage", 2)) cmd_info_storage(g, rest);
        else if (is(sub, "threads", 2)) cmd_info_threads(g);
        else if (is(sub, "slots", 2)) cmd_info_slots(g);
        else if (is(sub, "launches", 1)) cmd_info_launches(g);
        else if (is(sub, "symbol", 2)) cmd_info_symbol(g, rest);
        else printf("unknown info command '%s' (info registers, breakpoints, storage, threads, slots, launches, "
                    "symbol)\n", sub);
    } else if (is(cmd, "print", 1) || strcmp(cmd, "output") == 0) {
        isk_ref ref;
        if (!*arg) printf("print needs a name\n");
        else if (resolve(g, arg, &ref)) print_named(&ref);
    } else if (strcmp(cmd, "set") == 0) {
        cmd_set(g, arg);
    } else if (strcmp(cmd, "x") == 0) {
        cmd_x(g, fmt, arg);
    } else if (is(cmd, "disassemble", 5)) {
        cmd_disassemble(g, arg);
    } else if (is(cmd, "thread", 1)) {
        cmd_thread(g, arg);
    } else if (is(cmd, "backtrace", 2) || strcmp(cmd, "bt") == 0 || strcmp(cmd, "where") == 0) {
        cmd_backtrace(g);
    } else {
        printf("unknown command '%s' (type help)\n", cmd);
    }
    return true;
}

/* ---- the session -------------------------------------------------------------------------- */

/* Ctrl-C while the simulation runs: stop at the end of the clock and come back to the prompt.
 * The handler must find the running core, from whatever thread gets the signal. */
static dbg_core *volatile running_core;

static void on_sigint(int sig)
{
    (void)sig;
    dbg_core *d = running_core;
    if (d) dbg_interrupt(d);
}

static bool run_script(cli_debugger *g, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: -x %s: cannot open it\n", g->r->cmd, path);
        return false;
    }
    char line[1024];
    bool go_on = true;
    while (go_on && fgets(line, sizeof line, f)) go_on = execute(g, line);
    fclose(f);
    return go_on;
}

bool cli_debug_begin(cli_run *r, const cli_run_opts *o)
{
    if (!o->debug.on || o->dap.on || o->gdb.on) return true;    /* the DAP server or gdb drives the run instead */
    cli_debugger *g = calloc(1, sizeof *g);
    if (!g) return false;
    g->r = r;
    g->batch = o->debug.batch;
    dbg_core_init(&g->core, r->sys, r->limit);
    g->inst = g->core.proc ? g->core.proc : isk_instance_at(r->sys, 0);
    r->debugger = g;
    return true;
}

void cli_debug_end(cli_run *r)
{
    cli_debugger *g = r->debugger;
    if (!g) return;
    dbg_core_free(&g->core);
    free(g);
    r->debugger = NULL;
}
/* The line editor (libedit's readline), opened only when a person types at a terminal: linked
 * into isekit it would cost every run about 0.25 ms of start-up, with the libraries it brings
 * (libtinfo, libbsd, libmd). Without it, lines are read plainly. */
typedef struct line_editor {
    char *(*read_line)(const char *prompt);
    int (*add_history)(const char *line);
    void (*using_history)(void);
} line_editor;

static bool open_line_editor(line_editor *e)
{
    void *lib = dlopen("libedit.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return false;
    void *read_line = dlsym(lib, "readline"), *add = dlsym(lib, "add_history"), *using = dlsym(lib, "using_history");
    if (!read_line || !add || !using) {
        dlclose(lib);
        return false;
    }
    /* POSIX guarantees dlsym's data pointer converts to a function pointer; memcpy says so in C */
    memcpy(&e->read_line, &read_line, sizeof read_line);
    memcpy(&e->add_history, &add, sizeof add);
    memcpy(&e->using_history, &using, sizeof using);
    return true;
}

/* The core runs the system through the run: a host program may be the one that drives it. */
static isk_status advance_run(void *run, uint64_t clocks) { return cli_run_advance(run, clocks); }

isk_status cli_debug_go(cli_run *r, uint64_t clocks)
{
    (void)clocks;    /* the user decides how far the run goes */
    cli_debugger *g = r->debugger;
    g->core.limit = r->limit;        /* a runner may move it after its own start-up clocks */
    g->core.between = r->between;
    g->core.between_user = r->between_user;
    g->core.advance = advance_run;
    g->core.advance_user = r;
    if (r->launch_list && !g->core.proc && !g->core.list) dbg_attach_list(&g->core, r->launch_list);
    g->status = ISK_OK;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESTART;    /* a Ctrl-C at the prompt must not end the line reader */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    running_core = &g->core;
    printf("isekit debug: %s stopped before clock %" PRIu64 "; type help for the commands\n",
           isk_inst_name(g->inst), isk_clock(r->sys));
    if (g->core.proc) print_pc_line(g, g->core.proc, g->core.context, isk_context_of(g->core.proc, (int)g->core.context)->pc);
    bool go_on = true;
    for (int i = 0; go_on && i < r->opts->debug.nscripts; i++) go_on = run_script(g, r->opts->debug.scripts[i]);
    line_editor editor;
    const bool tty = isatty(STDIN_FILENO), edit = tty && open_line_editor(&editor);
    if (edit) editor.using_history();
    while (go_on && !g->batch) {
        fflush(stdout);
        char buf[1024], *line = NULL;
        if (tty && !edit) {
            fputs("(isekit) ", stdout);
            fflush(stdout);
        }
        if (edit) {
            line = editor.read_line("(isekit) ");
            if (line && *line) {
                editor.add_history(line);
                snprintf(g->last_line, sizeof g->last_line, "%s", line);
            } else if (line) {
                free(line);
                line = strdup(g->last_line);
            }
        } else if (fgets(buf, sizeof buf, stdin)) {
            line = strdup(buf);
        }
        if (!line) break;
        go_on = execute(g, line);
        free(line);
    }
    running_core = NULL;
    sigaction(SIGINT, &old, NULL);
    fflush(stdout);
    if (!g->finished) {
        fprintf(stderr, "%s: the debugger left the program unfinished at clock %" PRIu64 "\n", r->cmd,
                isk_clock(r->sys));
        return g->status == ISK_OK || g->status == ISK_BREAK ? ISK_FAILED : g->status;
    }
    return g->status;
}
