/* isekit run MODEL PROGRAM: simulate, print a trace on request and a summary. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/launchlist.h"
#include "isekit/sim.h"

typedef struct run_options {
    const char *model, *program;
    bool trace, warn_conflicts;
    uint64_t max_clocks;
    const char *params[32];
    int nparams;
} run_options;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: isekit run MODEL PROGRAM [options]\n\n"
            "Simulate MODEL (a built-in name or a model .c file) running PROGRAM. For an accelerator,\n"
            "PROGRAM is a launch list: one command per line in the model's assembly syntax, launched\n"
            "one per clock, with the directives @CLOCK, wait irq|idle|flag NAME == V|N, write, init\n"
            "and expect (see docs/launch-lists.md).\n\n"
            "options:\n"
            "  --trace             print every clock's events (launches, writes, ends, interrupts)\n"
            "  --max-clocks N      stop after N clocks (default: run until everything is idle)\n"
            "  --warn-conflicts    report CREW conflicts and resource clashes as warnings, go on\n"
            "  --param KEY=VALUE   set a model parameter\n"
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
    for (int i = 0; i < o->nparams; i++) {
        char key[128];
        const char *eq = strchr(o->params[i], '=');
        if (!eq) {
            fprintf(stderr, "isekit run: --param needs KEY=VALUE, got '%s'\n", o->params[i]);
            goto out;
        }
        snprintf(key, sizeof key, "%.*s", (int)(eq - o->params[i]), o->params[i]);
        if (isk_set_param(acc, key, eq + 1) != ISK_OK) goto out;
    }
    launch_list *l = launch_list_load(o->program, sys, acc, diag);
    if (!l) goto out;
    if (launch_list_start(l) == ISK_OK) {
        isk_status st = isk_run(sys, o->max_clocks);
        print_summary(sys, acc);
        if ((st == ISK_OK || st == ISK_STOPPED) && !launch_list_failures(l)) rc = EXIT_OK;
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
    } else {
        fprintf(stderr, "isekit run: model '%s' is not an accelerator; its program loader is not available yet\n",
                isk_model_name(m));
        rc = EXIT_FAILED;
    }
    isk_model_release(m);
    return rc;
}
