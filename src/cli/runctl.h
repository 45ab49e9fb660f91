/* How every `isekit run` ends with a report: the options all runners share, a run in slices
 * with a progress line on a terminal, Ctrl-C, the clock limit and the exit statuses.
 *
 * Exit statuses of the runners (docs/limits.md): 0 finished, 1 an error (a fault, a failed
 * expectation, a deadlock, a crash in model code), 2 bad usage, 3 the clock limit reached
 * first, 130 stopped by Ctrl-C. */
#ifndef ISK_CLI_RUNCTL_H
#define ISK_CLI_RUNCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/options.h"
#include "cli/run_observe.h"
#include "isekit/sim.h"

enum { EXIT_LIMIT = 3, EXIT_INTERRUPTED = 130 };

/* The default clock limit of every runner: about a minute of simulation at typical speeds. */
#define CLI_DEFAULT_MAX_CLOCKS 10000000000ull
#define CLI_DEFAULT_WATCHDOG 10
#define CLI_MAX_LIST 32

typedef struct cli_run_opts {
    uint64_t max_clocks;
    uint64_t watchdog_s;             /* 0 = off */
    uint64_t behaviour_stack;        /* bytes; 0 = the engine's default */
    int max_errors;                  /* -1 = the default */
    bool trace;
    const char *params[CLI_MAX_LIST];
    int nparams;
    const char *shows[CLI_MAX_LIST];
    int nshows;
    cli_traces_opts traces;          /* run_observe.h */
    cli_profile_opts profile;
    cli_debug_opts debug;
    cli_dap_opts dap;
} cli_run_opts;

void cli_run_opts_init(cli_run_opts *o, uint64_t default_max_clocks);
/* Claim an option every runner takes: --max-clocks N (also spelt `alias` if not NULL),
 * --watchdog SECONDS, --behaviour-stack BYTES, --max-errors N, --trace, --param K=V, --show NAME,
 * and those of the trace files, the profile and the debugger (run_observe.h). */
bool cli_run_option(cli_args *a, cli_run_opts *o, const char *alias);
/* Their --help lines. */
#define CLI_RUN_OPTIONS_HELP                                                                        \
    "  --max-clocks N      stop after N clocks with exit status 3, naming what was still running\n" \
    "                      (default 10G; suffixes k, M, G, T)\n"                                     \
    "  --watchdog SECONDS  end the run when one behaviour runs this long without returning to\n"    \
    "                      the engine (default 10, 0 = off)\n"                                        \
    "  --behaviour-stack BYTES  the stack of each multi-clock behaviour (default 256K)\n"            \
    "  --param KEY=VALUE   set a model parameter\n"                                                   \
    "  --show NAME         print a register or cell after the run (e.g. GR0, LDM[5], R[2])\n"        \
    CLI_TRACES_HELP CLI_PROFILE_HELP CLI_DEBUG_HELP CLI_DAP_HELP                                                   \
    CLI_MAX_ERRORS_HELP
#define CLI_EXIT_HELP                                                                                \
    "Exit status: 0 on success; 1 on an error, a fault, a crash in model code, a deadlock or a\n"   \
    "failed expectation; 2 on bad usage; 3 when --max-clocks was reached first; 130 after\n"        \
    "Ctrl-C (the statistics so far are printed; a second Ctrl-C exits at once).\n"

/* The system options the run options imply: the watchdog, crashes in model code caught and
 * reported, the behaviour stack. */
void cli_run_system_options(const cli_run_opts *o, isk_system_options *so);

/* --trace: every event but resource use as a line "CLOCK  INSTANCE  WHAT" on stdout (a
 * processor's instruction with its word and disassembly), every storage of every instance
 * watched. Subscribe after the system's instances are added. */
isk_status cli_trace(isk_system *sys);
/* The text of a processor's instruction event: its disassembly, or "(illegal)". */
void cli_issue_text(const isk_event *ev, char *out, size_t cap);

typedef struct cli_run {
    const char *cmd;                 /* "isekit run", for messages ("isekit debug" under the debugger) */
    char cmd_buf[96];
    isk_system *sys;
    uint64_t limit;                  /* the clock at which --max-clocks is reached */
    uint64_t slice;                  /* clocks per slice, tuned to ~0.1 s */
    double start, last_shown;
    uint64_t last_clock;
    uint64_t first_clock, first_insns;   /* where the run began, for the final summary */
    bool progress, shown;            /* stderr is a terminal; a progress line is on it */
    /* Called between two slices when the run went on (NULL = none): where the runner acts on
     * what its port handlers asked for with isk_stop_after_clock (ports.h: stop ports). */
    void (*between)(void *user);
    void *between_user;
    /* The runner's own before-issue hook ends its run (e.g. at a return address it set up):
     * cli_run_go returns ISK_BREAK to the runner instead of going on past it. */
    bool break_ends_run;
    /* Reaching the clock limit is the run's normal end (status 0), as for firmware run without a
     * host for --max-clocks: a DAP client is told exit code 0, not the limit's 3. */
    bool limit_is_end;
    const cli_run_opts *opts;
    struct cli_traces *traces;       /* run_observe.h: NULL unless asked for */
    struct cli_profile *profile;
    struct cli_debugger *debugger;
    struct cli_dap *dap;
    struct cli_hosted *hosted;       /* cli_run_hosted: the host program's thread, while it runs */
    bool observers_failed;           /* one of them could not start (reported) */
    struct launch_list *launch_list; /* the run's launch list (launchlist.h), or NULL: a debugger breaks in it */
} cli_run;

/* Install the Ctrl-C handler for this system, and start what the options ask for beyond the
 * run (trace files, a profile, the debugger: run_observe.h); if one of those fails (reported),
 * r->observers_failed is set and cli_run_go does not run. */
void cli_run_begin(cli_run *r, const char *cmd, isk_system *sys, const cli_run_opts *o, uint64_t max_clocks);
/* Run until finished, the limit, an error or Ctrl-C, at most `clocks` more clocks (0 = up to
 * the limit), in slices with a progress line. Returns as isk_run. */
isk_status cli_run_go(cli_run *r, uint64_t clocks);
/* Runners whose host code drives the clock (a host program that waits for the firmware with
 * isk_step loops, as EdkDSP's --host) still run under the debugger or the DAP server, which
 * expect to own the run: cli_run_hosted runs host(user) on a thread of its own and cli_run_go on
 * the caller's; the two take turns, never at once. Each clock the host's code runs goes through
 * cli_run_step (where it would call isk_step): it runs only as far as the debugger's current
 * command lets it (cli_run_advance), and hands a stop (a breakpoint, a step, a watch, Ctrl-C)
 * to the debugger's prompt before the host's wait goes on. The first stop comes at the host's
 * first cli_run_step, before its first clock; after the host returned, the prompt stays (the
 * program has finished). Leaving the debugger before that makes every later cli_run_step fail
 * (ISK_FAILED), so that the host winds down through its own error paths.
 * Without a debugger or DAP server, cli_run_hosted is a plain call of host and cli_run_step is
 * isk_step. Returns what cli_run_go returned (ISK_OK without a debugger; ISK_FAILED if an
 * observer failed to start: host is not run), the host's return value in *result. */
isk_status cli_run_hosted(cli_run *r, int (*host)(void *user), void *user, int *result);
/* isk_step(r->sys, clocks) for the host's code (see cli_run_hosted). */
isk_status cli_run_step(cli_run *r, uint64_t clocks);
/* For the debugger and the DAP server: isk_run(r->sys, clocks), or with a host program running,
 * let it run until it stops for the debugger or `clocks` clocks have run; ISK_STOPPED once the
 * host program returned. */
isk_status cli_run_advance(cli_run *r, uint64_t clocks);
/* True once Ctrl-C was pressed. */
bool cli_run_interrupted(const cli_run *r);
/* True if the run stopped at the limit (the last cli_run_go returned ISK_OK there). */
bool cli_run_at_limit(const cli_run *r);
/* Finish the trace files and the profile, leave the debugger, clear the progress line, restore
 * Ctrl-C. On a terminal, after a run of over a second: a last line with the clocks, the host
 * time and the rates. */
void cli_run_end(cli_run *r);

/* After the runner's statistics, for a run that did not finish (it returned ISK_OK): the
 * message for Ctrl-C or the limit, with what was still running (isk_describe_activity) and
 * `where` the driver stands if not NULL; the exit status (EXIT_INTERRUPTED or EXIT_LIMIT). */
int cli_run_unfinished(cli_run *r, const char *where);

/* After a fault: how to get past it from the command line, where there is a way. */
void cli_run_fault_hint(const cli_run *r);

/* --param KEY=VALUE, each, on an instance; false after an error. A name the model does not
 * declare or a value it does not accept is bad usage, "CMD: --param K=V: why", and sets *rc
 * to EXIT_USAGE. */
bool cli_set_params(const char *cmd, isk_inst *inst, const cli_run_opts *o, int *rc);
/* The check alone, for one KEY=VALUE and model m: false after printing that message. */
bool cli_check_param(const char *cmd, const isk_model *m, const char *assignment);
/* --show NAME, each: its value after the run on stdout; false if a name is unknown. */
bool cli_show_values(isk_inst *inst, const cli_run_opts *o);
/* One of them: "SHOWN_AS = value (0xhex)"; false if `name` is unknown (reported). */
bool cli_show_value(isk_inst *inst, const char *name, const char *shown_as);

#endif
