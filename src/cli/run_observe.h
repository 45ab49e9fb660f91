/* What a run's options add to it beyond the run itself: trace files (--vcd, --perfetto), a
 * profile (--profile...), a debugger (isekit debug, -x, --batch), a DAP server (isekit debug
 * --dap). runctl.c calls these hooks
 * at the run's begin, between the steps of cli_run_go and at its end, so every runner that
 * uses cli_run gets them without code of its own.
 *
 * Each feature keeps its options in its part of cli_run_opts and its state behind a pointer in
 * cli_run; a feature that was not asked for costs nothing (no subscriber, no hook). */
#ifndef ISK_CLI_RUN_OBSERVE_H
#define ISK_CLI_RUN_OBSERVE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/options.h"
#include "isekit/sim.h"

struct cli_run;
struct cli_run_opts;

/* ---- trace files (run_traces.c) ---- */
/* docs/traces.md: --vcd FILE (waveforms), --vcd-storage NAME[,NAME...] (which storages it
 * holds), --perfetto FILE (a timeline as Chrome trace-event JSON). */
#define CLI_TRACES_MAX_STORAGES 32
typedef struct cli_traces_opts {
    const char *vcd, *perfetto;
    const char *vcd_storages[CLI_TRACES_MAX_STORAGES];   /* the --vcd-storage values, as given */
    int nvcd_storages;
} cli_traces_opts;
struct cli_traces;
bool cli_traces_option(cli_args *a, struct cli_run_opts *o);
#define CLI_TRACES_HELP                                                                             \
    "  --vcd FILE          write a waveform (VCD, 1 clock = 1 ns): per context its pc and state,\n" \
    "                      per slot busy and its command, the storages' cells (gtkwave FILE)\n"    \
    "  --vcd-storage NAME[,NAME...]  only these storages in the VCD (default: every storage of\n" \
    "                      at most 64 cells of at most 64 bits)\n"                                \
    "  --perfetto FILE     write a timeline (Chrome trace JSON, 1 clock = 1 us): instructions,\n"  \
    "                      commands, stalls, DMA, exceptions per context and slot (ui.perfetto.dev)\n"
bool cli_traces_begin(struct cli_run *r, const struct cli_run_opts *o);
void cli_traces_end(struct cli_run *r);

/* ---- the profile (run_profile.c) ---- */
typedef struct cli_profile_opts {
    bool on;                         /* --profile: the tables on stderr after the run */
    const char *csv, *svg;           /* --profile-csv FILE, --profile-svg FILE */
    int top;                         /* --profile-top N: rows per table (0: 20) */
} cli_profile_opts;
struct cli_profile;
bool cli_profile_option(cli_args *a, struct cli_run_opts *o);
#define CLI_PROFILE_HELP                                                                           \
    "  --profile           after the run, on stderr: counts and clocks per instruction, function,\n" \
    "                      context and command, stalls, resource use (docs/profiles.md)\n"          \
    "  --profile-top N     rows per profile table (default 20)\n"                                   \
    "  --profile-csv FILE  the profile's tables as CSV (table,instance,name,column,value)\n"        \
    "  --profile-svg FILE  a picture: a timeline of contexts and slots, the hottest functions\n"
bool cli_profile_begin(struct cli_run *r, const struct cli_run_opts *o);
void cli_profile_end(struct cli_run *r);

/* ---- the debugger (run_debug.c) ---- */
typedef struct cli_debug_opts {
    bool on;                         /* isekit debug, or --debug: the run stops before its first clock */
    bool batch;                      /* --batch: leave after the -x files */
    const char *scripts[8];          /* -x FILE: commands run first */
    int nscripts;
} cli_debug_opts;
struct cli_debugger;
bool cli_debug_option(cli_args *a, struct cli_run_opts *o);
#define CLI_DEBUG_HELP                                                                              \
    "  --debug             run under the debugger (as isekit debug): stop before the first clock\n"  \
    "  -x FILE             debugger commands to run first (with --debug; docs/debugger.md)\n"        \
    "  --batch             leave the debugger after the -x files\n"
bool cli_debug_begin(struct cli_run *r, const struct cli_run_opts *o);
/* cli_run_go while a debugger is attached (r->debugger): the user's commands run the system. */
isk_status cli_debug_go(struct cli_run *r, uint64_t clocks);
void cli_debug_end(struct cli_run *r);

/* ---- the Debug Adapter Protocol server (run_dap.c) ---- */
typedef struct cli_dap_opts {
    bool on;                 /* --dap: a client on stdin/stdout */
    bool tcp;                /* --dap-port N: a client on 127.0.0.1:N */
    uint64_t port;
} cli_dap_opts;
struct cli_dap;
bool cli_dap_option(cli_args *a, struct cli_run_opts *o);
#define CLI_DAP_HELP                                                                                \
    "  --dap               serve the Debug Adapter Protocol on stdin/stdout (the run's own output\n"  \
    "                      goes to stderr): debug from VS Code, nvim-dap, Emacs (docs/dap.md)\n"      \
    "  --dap-port N        the same for one client on 127.0.0.1:N (0: any free port, printed)\n"
bool cli_dap_begin(struct cli_run *r, const struct cli_run_opts *o);
/* cli_run_go while a DAP client drives the run (r->dap). */
isk_status cli_dap_go(struct cli_run *r, uint64_t clocks);
void cli_dap_end(struct cli_run *r);

/* ---- the gdb remote serial protocol stub (run_gdb.c) ---- */
typedef struct cli_gdb_opts {
    bool on;                 /* --gdb PORT: one gdb on 127.0.0.1:PORT */
    uint64_t port;
} cli_gdb_opts;
struct cli_gdb;
bool cli_gdb_option(cli_args *a, struct cli_run_opts *o);
#define CLI_GDB_HELP                                                                                \
    "  --gdb PORT          serve gdb's remote protocol on 127.0.0.1:PORT (0: any free port, printed)\n" \
    "                      for a processor whose model declares GDB_TARGET (docs/gdb.md)\n"
bool cli_gdb_begin(struct cli_run *r, const struct cli_run_opts *o);
/* cli_run_go while gdb drives the run (r->gdb). */
isk_status cli_gdb_go(struct cli_run *r, uint64_t clocks);
void cli_gdb_end(struct cli_run *r);

#endif
