/* isekit run ipu PROGRAM... --vertex NAME --state STATE.toml: one vertex on a simulated IPU tile
 * (the C API is isekit/ipu_vertex.h). Prints each worker's exit status, tile cycles and any
 * exception, the vertex's cycles, and the output tensors; writes them to their files. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/runctl.h"
#include "isekit/ipu_vertex.h"

typedef struct ipu_run_cli {
    const char *inputs[64];
    int ninputs;
    const char *vertex, *state, *chip, *outdir;
    const char *incs[32], *defs[32];
    int nincs, ndefs;
    bool quiet;
    cli_run_opts run;
    bool interrupted;     /* the run ended by Ctrl-C (set by run_vertex) */
} ipu_run_cli;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: isekit run ipu PROGRAM... --state STATE.toml [--vertex NAME] [options]\n\n"
            "Run one vertex on a simulated Graphcore IPU tile. PROGRAM is assembly (.S through the C\n"
            "preprocessor with isekit's Poplar headers, or .s), objects (.o) linked for the chip, or\n"
            "one executable linked for it. STATE.toml describes the vertex state: its kind (Vertex on\n"
            "one worker, MultiVertex on all six, SupervisorVertex called by the supervisor), its\n"
            "fields in order, and the tensors they point to, read from and written to raw, .npy or\n"
            ".csv files (models/ipu/README.md, \"Running a vertex\"; docs/ipu-vertex.md).\n\n"
            "options:\n"
            "  --vertex NAME       the entry symbol (default: the description's `vertex`)\n"
            "  --chip ipu1|ipu2    the chip (default: the description's, else ipu2)\n"
            "  -o DIR              write output tensors with relative paths into DIR (default: the\n"
            "                      description's folder, which relative input files come from too)\n"
            "  -I DIR, -D NAME[=V] for the C preprocessor of .S sources\n"
            "  --trace             print every instruction issued (clock, context, address, word, text)\n"
            "  -q, --quiet         only errors and exceptions\n"
            CLI_RUN_OPTIONS_HELP
            "  -h, --help          this text\n\n"
            "Exit status: 0 when the vertex returned and every worker exited with success; 1 when a\n"
            "worker failed (exitnz ...) or raised an exception, or on an error; 2 on bad usage; 3 when\n"
            "--max-clocks (default 100M) came first.\n");
}

static bool parse(int argc, char **argv, void *opts)
{
    ipu_run_cli *o = opts;
    memset(o, 0, sizeof *o);
    cli_run_opts_init(&o->run, 100000000);
    cli_args a = { "isekit run ipu", argc, argv, 1, false };
    for (; a.i < argc && !a.bad; a.i++) {
        const char *s = argv[a.i], *v;
        if (cli_flag(&a, "-q") || cli_flag(&a, "--quiet")) o->quiet = true;
        else if (cli_value(&a, "--vertex", &o->vertex) || cli_value(&a, "--state", &o->state) ||
                 cli_value(&a, "--chip", &o->chip) || cli_value(&a, "-o", &o->outdir))
            continue;
        else if (cli_value(&a, "-I", &v)) { if (v && o->nincs < 32) o->incs[o->nincs++] = v; }
        else if (cli_value(&a, "-D", &v)) { if (v && o->ndefs < 32) o->defs[o->ndefs++] = v; }
        else if (cli_run_option(&a, &o->run, NULL)) continue;
        else if (s[0] == '-' && s[1]) cli_usage_error(&a, "unknown option '%s'", s);
        else if (o->ninputs < 64) o->inputs[o->ninputs++] = s;
        else cli_usage_error(&a, "at most 64 programs");
    }
    if (!a.bad && !o->ninputs) cli_usage_error(&a, "need a PROGRAM (.S/.s sources, objects or an executable)");
    if (!a.bad && !o->state) cli_usage_error(&a, "need --state STATE.toml (the vertex state)");
    if (!a.bad && o->chip && strcmp(o->chip, "ipu1") != 0 && strcmp(o->chip, "ipu2") != 0)
        cli_usage_error(&a, "--chip: '%s' is not ipu1 or ipu2", o->chip);
    return !a.bad;
}

static void print_issue(void *user, const isk_event *ev)
{
    (void)user;
    char text[200];
    cli_issue_text(ev, text, sizeof text);
    char who[16] = "sup";
    if (ev->context) snprintf(who, sizeof who, "w%u", ev->context - 1);
    printf("%10" PRIu64 "  %-3s %05" PRIx64 ":  %08" PRIx64 "  %s\n", ev->clock, who, 0x40000 + ev->pc * 4,
           ev->word & 0xFFFFFFFFu, text);
}

static const char *const etypes[16] = { [5] = "FP", [6] = "CONFLICT", [8] = "INVALID_ADDR", [9] = "INVALID_OP",
                                        [12] = "INVALID_INSTR", [13] = "EXERR" };

static void print_tensor(const ipu_tensor *t)
{
    printf("tensor %s (%s[%" PRIu64 "] at 0x%x):", t->name, ipu_dtype_name(t->type), t->count, t->placed);
    for (uint64_t i = 0; i < t->count && i < 8; i++) printf(" %.9g", ipu_tensor_value(t->type, t->data, i));
    printf("%s%s%s\n", t->count > 8 ? " ..." : "", t->output ? " -> " : "", t->output ? t->output : "");
}

static int report(const ipu_run_cli *o, const ipu_state_desc *d, const ipu_run_result *r)
{
    static const char *const kinds[] = { "Vertex", "MultiVertex", "SupervisorVertex" };
    if (!o->quiet)
        printf("vertex %s (%s): entry 0x%x, state 0x%x (%u bytes)\n", o->vertex ? o->vertex : d->vertex,
               kinds[d->kind], r->entry, r->state, r->state_bytes);
    for (int w = 0; w < 6; w++) {
        const ipu_worker_result *wr = &r->worker[w];
        if (!wr->ran) continue;
        if (wr->excepted) {
            const char *et = etypes[wr->etype] ? etypes[wr->etype] : "?";
            printf("worker %d: exception %s (%u) at 0x%x, clock %" PRIu64 ", after %" PRIu64 " tile cycles: %s\n", w, et,
                   wr->etype, wr->pc, wr->clock, wr->cycles, wr->cause);
        } else if (wr->status < 0) {
            printf("worker %d: still running at 0x%x after %" PRIu64 " tile cycles\n", w, wr->pc, wr->cycles);
        } else if (!o->quiet || wr->status != 1) {
            printf("worker %d: exit %s, %" PRIu64 " tile cycles\n", w, wr->status == 1 ? "success" : "failure", wr->cycles);
        }
    }
    if (r->sup_excepted)
        printf("supervisor: exception at 0x%x, clock %" PRIu64 ": %s\n", r->sup_pc, r->sup_clock, r->sup_cause);
    if (r->timed_out && o->interrupted) printf("the run was interrupted (Ctrl-C) at clock %" PRIu64 "\n", r->clocks);
    else if (r->timed_out) printf("the run reached --max-clocks (%" PRIu64 " clocks) first\n", r->clocks);
    if (!o->quiet) {
        printf("vertex: %s, %" PRIu64 " tile cycles%s; %" PRIu64 " instructions in %" PRIu64 " clocks with the trampoline\n",
               r->ok ? "success" : "FAILED", r->cycles, d->kind == IPU_SUPERVISOR_VERTEX ? " (call to return)"
                                                         : d->kind == IPU_MULTI_VERTEX ? " (the longest worker's)" : "",
               r->instructions, r->clocks);
        for (size_t i = 0; i < d->ntensors; i++)
            if (d->tensors[i].output) print_tensor(&d->tensors[i]);
    }
    if (o->interrupted) return EXIT_INTERRUPTED;
    return r->ok ? EXIT_OK : r->timed_out ? EXIT_LIMIT : EXIT_FAILED;
}

/* The folder of a path ("" for the current one), malloc'd. */
static char *folder(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *s = calloc(1, slash ? (size_t)(slash - path) + 2 : 1);
    if (slash) memcpy(s, path, (size_t)(slash - path) + (slash == path));
    return s;
}

/* --param, checked before (cli_check_param) */
static void setup(void *user, isk_system *sys, isk_inst *tile)
{
    (void)sys;
    const ipu_run_cli *o = user;
    for (int i = 0; i < o->run.nparams; i++) isk_set_param_text(tile, o->run.params[i]);
}

/* The vertex runs as every runner's run does (runctl.h): the trace files, the profile, the
 * debugger or a DAP client, the progress line and Ctrl-C. */
static isk_status run_vertex(void *user, isk_system *sys, uint64_t max_clocks)
{
    ipu_run_cli *o = user;
    cli_run r;
    cli_run_begin(&r, "isekit run ipu", sys, &o->run, max_clocks);
    r.break_ends_run = true;        /* vertex.c's hook stops at the trampoline's end */
    isk_status st = cli_run_go(&r, 0);
    o->interrupted = cli_run_interrupted(&r);
    cli_run_end(&r);
    return st;
}

static int cmd_run_ipu(int argc, char **argv)
{
    ipu_run_cli o;
    char name[64];
    int start = cli_start(argc, argv, usage, parse, &o);
    if (start >= 0) return start;
    isk_diag diag;
    cli_diag_init(&diag, o.run.max_errors);
    isk_model *m = isk_model_load("ipu", &diag);
    if (!m) return EXIT_FAILED;
    int rc = EXIT_FAILED;
    for (int i = 0; i < o.run.nparams; i++)
        if (!cli_check_param("isekit run ipu", m, o.run.params[i])) {
            isk_model_release(m);
            return EXIT_USAGE;
        }
    ipu_program *p = NULL;
    char *dir = folder(o.state);
    ipu_state_desc *d = ipu_state_read(o.state, &diag);
    if (!d || ipu_state_load_tensors(d, dir, &diag) != 0) goto out;
    if (o.chip && d->chip && strcmp(o.chip, d->chip) != 0)
        fprintf(stderr, "%s: --chip %s overrides the description's chip %s\n",
                cli_command_name("isekit run ipu", o.run.debug.on, name, sizeof name), o.chip, d->chip);
    const char *chip = o.chip ? o.chip : d->chip ? d->chip : "ipu2";
    free(d->chip);
    d->chip = NULL;
    ipu_build_options bo = { o.incs, (size_t)o.nincs, o.defs, (size_t)o.ndefs };
    p = ipu_program_build(m, o.inputs, (size_t)o.ninputs, chip, &bo, &diag);
    if (!p) goto out;
    ipu_run_options ro = { .vertex = o.vertex, .max_clocks = o.run.max_clocks, .setup = setup, .setup_user = &o };
    ro.run = run_vertex, ro.run_user = &o;
    if (o.run.trace) ro.trace = print_issue, ro.trace_kinds = ISK_EV_BIT(ISK_EV_ISSUE), ro.trace_user = NULL;
    ipu_run_result r;
    if (ipu_vertex_run(m, p, d, &ro, &r, &diag) != 0) goto out;
    rc = report(&o, d, &r);
    if (ipu_state_write_outputs(d, o.outdir ? o.outdir : dir, &diag) != 0) rc = EXIT_FAILED;
out:
    ipu_program_free(p);
    ipu_state_free(d);
    free(dir);
    isk_model_release(m);
    return rc;
}

CLI_RUNNER(cmd_run_ipu, "ipu", "one vertex on an IPU tile: .S/.s/.o/executable, a vertex-state description");
