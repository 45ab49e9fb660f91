/* isekit run MODEL PROGRAM: simulate, print a trace on request and a summary. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/link_model.h"
#include "asm/load.h"
#include "asm/syntax.h"
#include "base/str.h"
#include "cli/cli.h"
#include "cli/launchlist.h"
#include "isekit/sim.h"

typedef struct run_options {
    const char *model, *program;
    bool trace, warn_conflicts;
    uint64_t max_clocks;
    const char *params[32];
    int nparams;
    const char *shows[32];
    int nshows;
} run_options;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: isekit run MODEL PROGRAM [options]\n\n"
            "Simulate MODEL (a built-in name or a model .c file) running PROGRAM. For an accelerator,\n"
            "PROGRAM is a launch list: one command per line in the model's assembly syntax, launched\n"
            "one per clock, with the directives @CLOCK, wait irq|idle|flag NAME == V|N, write, init\n"
            "and expect (see docs/launch-lists.md). For a processor, PROGRAM is an executable (ELF or\n"
            "Intel-HEX) or an assembly source (.s, .S), assembled and linked by the model's memory map;\n"
            "the run ends when every context has stopped. `isekit run dpu` and `isekit run edkdsp`\n"
            "have options of their own (see their --help).\n\n"
            "options:\n"
            "  --trace             print every clock's events (launches, writes, ends, interrupts;\n"
            "                      for processors, every instruction with its disassembly)\n"
            "  --max-clocks N      stop after N clocks (default: run until everything is idle)\n"
            "  --warn-conflicts    report CREW conflicts and resource clashes as warnings, go on\n"
            "  --param KEY=VALUE   set a model parameter\n"
            "  --show NAME         print a register or cell after the run (e.g. GR0, LDM[5], R[2])\n"
            "  -h, --help          this text\n\n"
            "Exit status: 0 on success, 1 on an error, a simulated fault, a conflict or a failed\n"
            "expectation, 2 on bad usage.\n");
}

static bool parse_args(int argc, char **argv, run_options *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--trace") == 0) o->trace = true;
        else if (strcmp(a, "--warn-conflicts") == 0) o->warn_conflicts = true;
        else if (strcmp(a, "--max-clocks") == 0 && i + 1 < argc) o->max_clocks = strtoull(argv[++i], NULL, 0);
        else if (strcmp(a, "--param") == 0 && i + 1 < argc && o->nparams < 32) o->params[o->nparams++] = argv[++i];
        else if (strcmp(a, "--show") == 0 && i + 1 < argc && o->nshows < 32) o->shows[o->nshows++] = argv[++i];
        else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "isekit run: unknown or incomplete option '%s'\n", a);
            return false;
        } else if (!o->model) o->model = a;
        else if (!o->program) o->program = a;
        else {
            fprintf(stderr, "isekit run: unexpected argument '%s'\n", a);
            return false;
        }
    }
    if (!o->model || !o->program) {
        fprintf(stderr, "isekit run: need a MODEL and a PROGRAM\n");
        return false;
    }
    return true;
}

/* --param KEY=VALUE, each. */
static bool set_params(isk_inst *inst, const run_options *o)
{
    for (int i = 0; i < o->nparams; i++)
        if (isk_set_param_text(inst, o->params[i]) != ISK_OK) return false;
    return true;
}

/* --show NAME, each: its value after the run. */
static bool show_values(isk_inst *inst, const run_options *o)
{
    bool ok = true;
    for (int i = 0; i < o->nshows; i++) {
        int64_t v;
        if (isk_read(inst, o->shows[i], 0, &v) != ISK_OK) {
            ok = false;
            continue;
        }
        printf("%s = %" PRId64 " (0x%" PRIx64 ")\n", o->shows[i], v, (uint64_t)v);
    }
    return ok;
}

static void print_trace(void *user, uint64_t clock, const char *who, const char *what)
{
    (void)user;
    printf("%8" PRIu64 "  %-6s %s\n", clock, who, what);
}

static void print_summary(isk_system *sys, isk_inst *acc)
{
    const isk_model *m = isk_inst_model(acc);
    isk_stats st;
    isk_get_stats(sys, &st);
    printf("summary: %" PRIu64 " clocks, %" PRIu64 " launches, %" PRIu64 " commands completed\n", st.clocks,
           st.launches, st.commands_done);
    double clocks = st.clocks ? (double)st.clocks : 1.0;
    printf("slots: %d, average occupancy %.2f, at most %d busy\n", isk_model_slots(m),
           (double)st.slot_clocks / clocks, st.max_busy_slots);
    for (int i = 0; i < isk_model_resource_count(m); i++) {
        const isk_resource_info *r = isk_model_resource(m, i);
        uint64_t used = st.resource_clocks[__builtin_ctzll(r->mask)];
        printf("resource %-16s used in %" PRIu64 " clocks (%.1f%%)\n", r->name, used, 100.0 * (double)used / clocks);
    }
    printf("conflicts: %" PRIu64 " CREW, %" PRIu64 " resource clashes; interrupts: %" PRIu64 "\n",
           st.crew_conflicts, st.resource_clashes, st.interrupts);
}

static int run_launch_list(const run_options *o, isk_model *m, isk_diag *diag)
{
    isk_system_options so = { .conflicts_are_warnings = o->warn_conflicts, .diag = diag };
    if (o->trace) so.trace = print_trace;
    isk_system *sys = isk_system_new(&so);
    isk_inst *acc = isk_system_add(sys, m, isk_model_name(m));
    int rc = EXIT_FAILED;
    if (!acc || isk_attach(sys, acc, 0) != ISK_OK) goto out;
    if (!set_params(acc, o)) goto out;
    launch_list *l = launch_list_load(o->program, sys, acc, diag);
    if (!l) goto out;
    if (launch_list_start(l) == ISK_OK) {
        isk_status st = isk_run(sys, o->max_clocks);
        print_summary(sys, acc);
        bool shown = show_values(acc, o);
        if ((st == ISK_OK || st == ISK_STOPPED) && !launch_list_failures(l) && shown) rc = EXIT_OK;
    }
    launch_list_free(l);
out:
    isk_system_free(sys);
    return rc;
}

/* Models whose programs are not launch lists: the DPU runs executables (or sources built with
 * its runtime); the EdkDSP BCE is a system of a PicoBlaze, a DFU and a host program. */
static const struct { const char *model; int (*run)(int argc, char **argv); } runners[] = {
    { "dpu", cmd_run_dpu },
    { "edkdsp", cmd_run_edkdsp },
};

/* ---- processors ----------------------------------------------------------------------------- */

typedef struct issue_tracer { const isk_model *m; int code; } issue_tracer;

/* One line per instruction: clock, context, PC, word and its disassembly. */
static void print_issue(void *user, uint64_t clock, isk_inst *proc, uint32_t context, uint64_t pc)
{
    const issue_tracer *t = user;
    int64_t word = 0;
    char text[160] = "?";
    if (isk_read(proc, t->m->storages.data[t->code].info.name, pc, &word) == ISK_OK) {
        int pattern = isk_model_decode(t->m, (uint64_t)word, NULL);
        if (pattern >= 0) isk_syntax_print(t->m, isk_syntax_display_pattern(t->m, pattern, (uint64_t)word),
                                           (uint64_t)word, pc, text, sizeof text);
    }
    printf("%8" PRIu64 "  %-6s ctx %-2u pc 0x%04" PRIx64 "  %0*" PRIx64 "  %s\n", clock, isk_inst_name(proc),
           context, pc, (t->m->word_bits + 3) / 4, (uint64_t)word, text);
}

/* Assemble and link a source, or read an executable, into the instance. */
static bool load_program(isk_inst *inst, const char *path, isk_diag *diag)
{
    const isk_model *m = isk_inst_model(inst);
    if (!isk_ends_with(path, ".s") && !isk_ends_with(path, ".S")) return isk_load_executable(inst, path, diag) == 0;
    isk_obj *obj = isk_assemble_files(m, &path, 1, path, NULL, diag);
    if (!obj) return false;
    isk_model_link *ml = isk_model_link_new(m, diag);
    isk_obj *exe = ml ? isk_model_link_objects(ml, &obj, 1, NULL, 0, path, diag) : NULL;
    bool ok = exe && isk_load_obj(inst, exe, NULL, diag) == 0;
    isk_obj_free(exe);
    isk_model_link_free(ml);
    isk_obj_free(obj);
    return ok;
}

static const char *const context_states[] = { "stopped", "running", "blocked", "sleeping", "faulted" };

static int run_processor(const run_options *o, isk_model *m, isk_diag *diag)
{
    issue_tracer tracer = { m, m->code_storage };
    isk_system_options so = { .diag = diag };
    if (o->trace) {
        so.trace = print_trace;
        so.trace_issue = print_issue;
        so.trace_user = &tracer;
    }
    isk_system *sys = isk_system_new(&so);
    isk_inst *proc = isk_system_add(sys, m, isk_model_name(m));
    int rc = EXIT_FAILED;
    if (!proc || !set_params(proc, o) || !load_program(proc, o->program, diag)) goto out;
    isk_status st = isk_run(sys, o->max_clocks);
    isk_stats stats;
    isk_get_stats(sys, &stats);
    printf("summary: %" PRIu64 " clocks, %" PRIu64 " instructions (%.3f per clock)\n", stats.clocks,
           stats.instructions, stats.clocks ? (double)stats.instructions / (double)stats.clocks : 0.0);
    for (int id = 0; isk_context_of(proc, id); id++) {
        const isk_context *c = isk_context_of(proc, id);
        if (c->insns || c->state != ISK_CTX_STOPPED)
            printf("context %d: %" PRIu64 " instructions, %s at pc 0x%" PRIx64 "\n", id, c->insns,
                   context_states[c->state], c->pc);
    }
    if (st == ISK_OK) printf("(stopped after --max-clocks %" PRIu64 ")\n", o->max_clocks);
    bool shown = show_values(proc, o);
    if ((st == ISK_OK || st == ISK_STOPPED) && shown) rc = EXIT_OK;
out:
    isk_system_free(sys);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    for (size_t i = 0; argc > 1 && i < sizeof runners / sizeof *runners; i++)
        if (strcmp(argv[1], runners[i].model) == 0) return runners[i].run(argc - 1, argv + 1);
    if (wants_help(argc, argv)) {
        usage(stdout);
        return EXIT_OK;
    }
    run_options o;
    if (!parse_args(argc, argv, &o)) {
        usage(stderr);
        return EXIT_USAGE;
    }
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *m = isk_model_load(o.model, &diag);
    if (!m) return EXIT_FAILED;
    int rc;
    if (isk_model_slots(m)) {
        rc = run_launch_list(&o, m, &diag);
    } else if (m->is_processor) {
        rc = run_processor(&o, m, &diag);
    } else {
        fprintf(stderr, "isekit run: model '%s' is neither an accelerator (SLOTS) nor a processor (PROCESSOR)\n",
                isk_model_name(m));
        rc = EXIT_FAILED;
    }
    isk_model_release(m);
    return rc;
}
