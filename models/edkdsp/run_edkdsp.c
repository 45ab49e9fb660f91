/* isekit run edkdsp: an EdkDSP basic computing element running firmware, driven by a host
 * program compiled on the fly; prints the DFU operations with their operation-time counters. */
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/ports.h"
#include "cli/runctl.h"
#include "cli/sysfile.h"
#include "isekit/sim.h"
#include "isekit/desc.h"
#include "isekit/edkdsp.h"

#define MAX_PARAMS 32

/* The host program is a shared object that calls the host API inside this executable, which
 * exports its symbols (CMakeLists.txt) and links the BCE's objects whole (isekit_model HOST). */

typedef struct edk_cli {
    const char *firmware, *host, *core, *system;
    const char *params[MAX_PARAMS + 1];      /* NULL-terminated for edk_config */
    uint64_t timeout;
    cli_run_opts run;
    int host_argc;
    char **host_argv;
} edk_cli;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: isekit run edkdsp --firmware FW [--host HOST.c] [options] [-- HOST ARGS...]\n"
            "       isekit run edkdsp --system F.sys --host HOST.c [options] [-- HOST ARGS...]\n\n"
            "Simulate an EdkDSP basic computing element: a PicoBlaze running FW, its data flow unit\n"
            "(DFU) with data memories A-D, and a host program. FW is a .psm file (assembled for the\n"
            "core, with pbbcelib.psm available to INCLUDE) or a .hex/.mem/.dec/.bin image; it is put in\n"
            "firmware slot 0. HOST.c defines EDK_HOST_MAIN(bce) (isekit/edkdsp.h), is compiled on\n"
            "the fly like a model and drives the BCE; its return value is the exit status. Without a\n"
            "host the firmware is started and runs for --max-clocks. Afterwards every DFU operation is\n"
            "listed with its operation-time counter.\n\n"
            "With --system, F.sys is a system description with several BCEs (ports = edkdsp_bce DFU,\n"
            "each PicoBlaze loading its own program); HOST.c gets the first BCE and reaches the\n"
            "others with edk_bce_at(bce, i).\n\n"
            "options:\n"
            "  --system F.sys      several BCEs from a system description, driven by one host\n"
            "  --core NAME         kcpsm3 (default) or kcpsm6\n"
            "  --param NAME=VALUE  a DFU parameter (e.g. latency_vmul=9, memory_words=4096), or\n"
            "                      pb.NAME=VALUE for the PicoBlaze (e.g. pb.scratchpad_size=128)\n"
            "  --timeout N         clocks a host call may wait (default 10M; suffixes k, M, G, T)\n"
            "  --max-clocks N      without a host: clocks to run (default 100k); reaching them is\n"
            "                      the normal end of a run without a host (status 0)\n"
            "  --trace             print every clock's events\n"
            "  --watchdog SECONDS  end the run when one behaviour runs this long without returning to\n"
            "                      the engine (default 10, 0 = off)\n"
            "  --behaviour-stack BYTES  the stack of each multi-clock behaviour (default 256K)\n"
            CLI_MAX_ERRORS_HELP
            "  -h, --help          this text\n\n"
            "Exit status: 0 on success (with a host: its return value is 0); 1 on an error, a failed\n"
            "host call or a host returning non-zero; 2 on bad usage; 130 after Ctrl-C (the report so\n"
            "far is printed; a second Ctrl-C exits at once).\n");
}

static bool parse_args(int argc, char **argv, void *opts)
{
    edk_cli *o = opts;
    memset(o, 0, sizeof *o);
    cli_run_opts_init(&o->run, 100000);
    cli_args a = { "isekit run edkdsp", argc, argv, 1, false };
    for (; a.i < argc && !a.bad; a.i++) {
        if (cli_flag(&a, "--")) {
            o->host_argc = argc - a.i - 1;
            o->host_argv = argv + a.i + 1;
            break;
        }
        if (cli_value(&a, "--firmware", &o->firmware) || cli_value(&a, "--host", &o->host) ||
            cli_value(&a, "--core", &o->core) || cli_value(&a, "--system", &o->system) ||
            cli_u64(&a, "--timeout", 1, UINT64_MAX, ISK_UNIT_COUNT, &o->timeout) ||
            cli_run_option(&a, &o->run, NULL))
            continue;
        cli_usage_error(&a, "unknown option '%s'", argv[a.i]);
    }
    /* the BCE's instances are the host's to read (edk_read_dmem ...): no --show */
    if (!a.bad && o->run.nshows) cli_usage_error(&a, "--show does not apply to the EdkDSP BCE");
    if (!a.bad && o->system) {
        /* the description names the cores, their parameters and programs */
        if (o->firmware || o->core || o->run.nparams || o->timeout)
            cli_usage_error(&a, "--system: the description gives the firmware, cores and parameters "
                                "(no --firmware, --core, --param or --timeout)");
        else if (!o->host)
            cli_usage_error(&a, "--system needs --host (without one, run the description: isekit run %s)", o->system);
    } else if (!a.bad && !o->firmware) {
        cli_usage_error(&a, "--firmware is required");
    }
    for (int i = 0; i < o->run.nparams && i < MAX_PARAMS; i++) o->params[i] = o->run.params[i];
    return !a.bad;
}

typedef struct host_call {
    edk_host_main_fn main;
    edk_bce *bce;
    int argc;
    char **argv;
} host_call;

static int call_host(void *arg)
{
    host_call *c = arg;
    return c->main(c->bce, c->argc, c->argv);
}

/* The host's waits run the BCE's clocks through the run: under isekit debug or --dap the
 * debugger then stops them (cli_run_hosted). */
static isk_status step_run(void *run, uint64_t clocks) { return cli_run_step(run, clocks); }

static int run_host(const edk_cli *o, edk_bce *bce, isk_diag *diag, cli_run *r)
{
    char *so = isk_dynload_compile(o->host, EDKDSP_INCLUDE_DIR, diag);
    if (!so) return EXIT_FAILED;
    void *dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    free(so);
    if (!dl) {
        fprintf(stderr, "%s: %s: cannot load the host program: %s\n", r->cmd, o->host, dlerror());
        return EXIT_FAILED;
    }
    host_call c = { .bce = bce, .argc = o->host_argc, .argv = o->host_argv };
    *(void **)&c.main = dlsym(dl, "edk_host_main");
    int rc;
    if (!c.main) {
        fprintf(stderr, "%s: %s defines no EDK_HOST_MAIN(bce)\n", r->cmd, o->host);
        rc = EXIT_FAILED;
    } else {
        if (r->debugger || r->dap) edk_set_step(bce, step_run, r);
        r->limit = UINT64_MAX;         /* the host's timeouts bound its waits, not --max-clocks */
        int result;
        isk_status st = cli_run_hosted(r, call_host, &c, &result);
        edk_set_step(bce, NULL, NULL);
        rc = (st == ISK_OK || st == ISK_STOPPED) && result == 0 ? EXIT_OK : EXIT_FAILED;
    }
    dlclose(dl);
    return rc;
}

static void print_report(edk_bce *bce, const char *name)
{
    size_t n;
    const edk_dfu_record *log = edk_dfu_log(bce, &n);
    isk_stats st;
    isk_get_stats(edk_system(bce), &st);
    printf("\n%s%sDFU operations: %zu (time = the DFU's 16-bit operation-time counter, in clocks)\n",
           name ? name : "", name ? ": " : "", n);
    if (n) printf("  %4s  %-8s %6s %4s %12s %8s  %s\n", "#", "op", "N", "REP", "started at", "time", "error");
    for (size_t i = 0; i < n; i++) {
        const edk_dfu_record *r = &log[i];
        printf("  %4zu  %-8s %6u %4u %12" PRIu64 " ", i + 1, edk_dfu_op_name(r->op), r->n, r->rep, r->started);
        if (r->finished) printf("%8u  %u\n", r->dfutime, r->error);
        else printf("%8s  -\n", "running");
    }
    if (!name) printf("summary: %" PRIu64 " clocks, %" PRIu64 " PicoBlaze instructions\n", st.clocks, st.instructions);
}

/* --param values are bad usage when the DFU (or, for pb.NAME, the core) does not take them,
 * as in the other runners: check them before the BCE is built. */
static bool check_params(const edk_cli *o, isk_diag *diag)
{
    bool ok = true;
    for (int i = 0; o->params[i] && ok; i++) {
        bool pb = strncmp(o->params[i], "pb.", 3) == 0;
        isk_model *m = isk_model_load(pb ? (o->core ? o->core : "kcpsm3") : "edkdsp_dfu", diag);
        ok = m && cli_check_param("isekit run edkdsp", m, o->params[i] + (pb ? 3 : 0));
        if (m) isk_model_release(m);
    }
    return ok;
}

/* --system: the BCEs a description wires (each PicoBlaze whose port device is the BCE glue), in
 * the order of its instances, driven by one host. */
static int run_system(const edk_cli *o, isk_diag *diag)
{
    sysfile *f = sysfile_read(o->system, diag);
    if (!f) return EXIT_FAILED;
    isk_system_options so = { .diag = diag, .explicit_sharing = 1 };
    cli_run_system_options(&o->run, &so);
    isk_system *sys = isk_system_new(&so);
    port_wiring *w = port_wiring_new(sys, f->port_log ? stdout : NULL);
    const sys_port_device *glue = sys_port_device_find("edkdsp_bce");
    VEC(edk_bce *) bces = { 0 };
    VEC(const char *) names = { 0 };
    int rc = EXIT_FAILED;
    if (sysfile_build(f, sys, w, NULL, diag) && (!o->run.trace || cli_trace(sys) == ISK_OK)) {
        for (size_t i = 0; i < f->instances.len; i++) {
            isk_inst *inst = isk_instance(sys, f->instances.data[i].name);
            if (!isk_inst_model(inst)->is_processor) continue;
            proc_ports *pp = port_wiring_of(w, inst);
            if (pp->device != glue || !pp->device_user) continue;
            VEC_PUSH(&bces, pp->device_user);
            VEC_PUSH(&names, f->instances.data[i].name);
        }
        if (!bces.len) {
            fprintf(stderr, "isekit run edkdsp: %s: no BCE (no processor with ports = edkdsp_bce DFU)\n", o->system);
        } else {
            edk_bce_group(bces.data, bces.len);
            cli_run r;
            cli_run_begin(&r, "isekit run edkdsp", sys, &o->run, o->run.max_clocks);
            rc = run_host(o, bces.data[0], diag, &r);
            for (size_t i = 0; i < bces.len; i++) print_report(bces.data[i], names.data[i]);
            isk_stats st;
            isk_get_stats(sys, &st);
            printf("summary: %zu BCEs, %" PRIu64 " clocks, %" PRIu64 " PicoBlaze instructions\n", bces.len, st.clocks,
                   st.instructions);
            if (cli_run_interrupted(&r)) rc = cli_run_unfinished(&r, NULL);
            cli_run_end(&r);
        }
    }
    VEC_FREE(&bces);
    VEC_FREE(&names);
    port_wiring_free(w);
    isk_system_free(sys);
    sysfile_free(f);
    return rc;
}

static int cmd_run_edkdsp(int argc, char **argv)
{
    edk_cli o;
    int start = cli_start(argc, argv, usage, parse_args, &o);
    if (start >= 0) return start;
    isk_diag diag;
    cli_diag_init(&diag, o.run.max_errors);
    if (o.system) return run_system(&o, &diag);
    if (!check_params(&o, &diag)) return EXIT_USAGE;
    isk_system_options so = { 0 };
    cli_run_system_options(&o.run, &so);
    edk_config cfg = { .core = o.core, .params = o.params, .timeout_clocks = o.timeout, .diag = &diag,
                       .system = &so };
    edk_bce *bce = edk_open(&cfg);
    if (!bce) return EXIT_FAILED;
    if (o.run.trace && cli_trace(edk_system(bce)) != ISK_OK) {
        edk_close(bce);
        return EXIT_FAILED;
    }
    cli_run r;
    cli_run_begin(&r, "isekit run edkdsp", edk_system(bce), &o.run, o.run.max_clocks);
    int errors = diag.errors;
    int rc = edk_set_firmware_file(bce, EDK_SLOT_P0, o.firmware) == EDK_OK ? EXIT_OK : EXIT_FAILED;
    if (rc == EXIT_OK && o.host) {
        rc = run_host(&o, bce, &diag, &r);
    } else if (rc == EXIT_OK) {
        /* no host waits for "running": --max-clocks counts from the reset, and firmware that never
         * reports running is no error here */
        bool ok = edk_launch(bce, EDK_SLOT_P0) == EDK_OK;
        /* under isekit debug (or a DAP client) the debugger runs the firmware (cli_run_go hands
         * it the run) */
        const bool debugged = r.debugger || r.dap;
        if (debugged) r.limit = isk_clock(edk_system(bce)) + o.run.max_clocks;   /* as edk_run counts */
        r.limit_is_end = true;          /* without a host, --max-clocks is the run's normal end */
        isk_status st = ok && debugged ? cli_run_go(&r, 0) : ISK_OK;
        if (debugged) ok = ok && (st == ISK_OK || st == ISK_STOPPED);
        else ok = ok && edk_run(bce, o.run.max_clocks) == EDK_OK;
        rc = ok ? EXIT_OK : EXIT_FAILED;
    }
    /* an error the diagnostics printed already is not repeated */
    if (*edk_last_error(bce) && rc != EXIT_OK && !cli_run_interrupted(&r) && diag.errors == errors)
        fprintf(stderr, "%s: %s\n", r.cmd, edk_last_error(bce));
    print_report(bce, NULL);
    if (cli_run_interrupted(&r)) rc = cli_run_unfinished(&r, NULL);
    cli_run_end(&r);
    edk_close(bce);
    return rc;
}

CLI_RUNNER(cmd_run_edkdsp, "edkdsp", "an EdkDSP BCE: PicoBlaze firmware, the DFU and a host program");
