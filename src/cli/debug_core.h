/* The debugger's core: breakpoints, watchpoints, stepping and state queries of a system, for
 * any model, as a C API without text: `isekit debug` (run_debug.c) is one front end, the DAP
 * server another. Nothing here costs a run without a debugger: the before-issue hook and the
 * STORE subscription exist only while a dbg_core is attached.
 *
 * A stop is described by a dbg_stop; between stops the caller may read and write the system
 * (isk_read, isk_write, isk_context_of) as the host. */
#ifndef ISK_CLI_DEBUG_CORE_H
#define ISK_CLI_DEBUG_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>

#include "base/vec.h"
#include "isekit/sim.h"

typedef enum dbg_stop_kind {
    DBG_NONE,            /* not run yet */
    DBG_BREAKPOINT,      /* a breakpoint: id, proc, context, pc */
    DBG_STEP,            /* a step of the selected context ended: proc, context, pc */
    DBG_WATCH,           /* a watched cell changed: id, inst, storage, index, old, value */
    DBG_READ_WATCH,      /* a read (or access) watchpoint's cell was read: id, inst, storage, index
                            (the first of its cells read), value; the reader: slot >= 0, or
                            proc, context and pc (the reading instruction's) */
    DBG_CLOCKS,          /* the clocks asked for ran */
    DBG_INTERRUPTED,     /* dbg_interrupt (Ctrl-C) */
    DBG_MODEL_BREAK,     /* the model stopped the run (a breakpoint instruction): isk_stop_reason */
    DBG_FINISHED,        /* the program finished (status ISK_STOPPED), or the runner's own
                            before-issue hook ended the run (status ISK_BREAK) */
    DBG_ERROR,           /* a fault, a conflict or an error (status; isk_last_error) */
    DBG_LIMIT            /* the run's clock limit (--max-clocks) */
} dbg_stop_kind;

typedef struct dbg_stop {
    dbg_stop_kind kind;
    isk_status status;       /* what the last isk_run returned */
    int id;                  /* the breakpoint's or watchpoint's number */
    uint64_t clock;
    isk_inst *proc;          /* BREAKPOINT, STEP: where the next instruction issues */
    uint32_t context;
    uint64_t pc;
    isk_inst *inst;          /* WATCH */
    int storage;
    uint64_t index;
    int64_t old, value;
    int slot;                /* READ_WATCH: the reading command's slot, or -1 */
    bool in_list;            /* BREAKPOINT, STEP with proc NULL: before step `step` of the launch list */
    size_t step;
} dbg_stop;

/* What a watchpoint stops on: gdb's watch (a change), rwatch (a read), awatch (either). */
typedef enum dbg_access { DBG_ON_WRITE, DBG_ON_READ, DBG_ON_ACCESS } dbg_access;

typedef struct dbg_point {
    int id;
    bool watch, temp;
    /* breakpoints: where (proc NULL = every processor) */
    isk_inst *proc;
    uint64_t pc;
    /* watchpoints: cells first..last of a storage, with the values last seen */
    isk_inst *inst;
    int storage;
    uint64_t first, last;
    int64_t *seen;
    dbg_access access;
    uint64_t hits;
    bool in_list;            /* a breakpoint at step `step` of the launch list (dbg_break_step) */
    size_t step;
} dbg_point;

/* The resources an accelerator used in the last clock it used any (RESOURCE events). */
typedef struct dbg_usage { isk_inst *inst; uint64_t clock, mask; } dbg_usage;

typedef struct dbg_launch { uint64_t clock, word, end; isk_inst *inst; int slot, instruction; } dbg_launch;

/* The shadow call stack (debug_core.c, "call frames"): per context, the frames its CALL
 * instructions (INSTRUCTION .flow) entered and have not left. */
typedef struct dbg_frame {
    uint64_t site;       /* the call instruction's pc */
    uint64_t ret;        /* where the routine returns to: the instruction (group) after the call */
    uint64_t entry;      /* the routine's first pc: the call's target */
} dbg_frame;
typedef struct dbg_calls {
    isk_inst *proc;
    uint32_t context;
    uint64_t head;       /* the pc of the context's last issue (a group's first word) */
    unsigned words;      /* words it issued there (ISSUE events): the fall-through is head + words */
    int pending;         /* ISK_FLOW_CALL or _RETURN issued: resolved at the context's next issue */
    uint64_t site;
    bool truncated;      /* the outermost frames were dropped (more than DBG_MAX_FRAMES) */
    VEC(dbg_frame) frames;
} dbg_calls;
#define DBG_MAX_FRAMES 65536
/* The call stacks of a system's contexts: a debugger's (dbg_core) or the DAP server's. */
typedef struct dbg_callstacks {
    isk_system *sys;
    VEC(dbg_calls) calls;
    dbg_calls *last;     /* the last one looked up; NULL while no model marks calls (no cost) */
} dbg_callstacks;

typedef struct dbg_core {
    isk_system *sys;
    uint64_t limit;                  /* the run's clock limit */
    void (*between)(void *user);     /* the runner's work between slices (cli_run.between) */
    void *between_user;
    /* How the core runs the system, as isk_run (NULL: isk_run): a runner whose host program
     * drives the clock runs it through the host (runctl.h: cli_run_advance). */
    isk_status (*advance)(void *user, uint64_t clocks);
    void *advance_user;
    VEC(dbg_point) points;
    int next_id;
    /* the selected context: what step and stepi step */
    isk_inst *proc;
    uint32_t context;
    /* a run in progress */
    long steps_left;                 /* < 0: not stepping */
    bool at_issue;                   /* the last stop was in the hook: its instruction issues next */
    dbg_stop hit;
    bool hit_set;
    volatile sig_atomic_t interrupted, in_run;   /* set by dbg_interrupt; a run is under way */
    /* the before-issue hook the runner had installed: still called first */
    int (*chain)(void *user, uint64_t clock, isk_inst *proc, uint32_t context, uint64_t pc);
    void *chain_user;
    bool chain_hit;
    VEC(dbg_launch) launches;        /* every command launched, with its end once seen */
    VEC(dbg_usage) usage;            /* per accelerator */
    dbg_stop last;
    dbg_callstacks calls;            /* call frames, only for models that mark calls */
    long finish_depth;               /* >= 0: dbg_finish runs until the selected context's depth is below */
    /* the launch list of a system without a processor (dbg_attach_list), or NULL */
    struct launch_list *list;
    long list_steps_left;            /* < 0: not stepping the list */
    size_t list_seen;                /* the step the list last asked about, + 1 */
} dbg_core;

/* Attach to a system (before its first clock or between runs); limit = the clock limit. */
void dbg_core_init(dbg_core *d, isk_system *sys, uint64_t limit);
void dbg_core_free(dbg_core *d);

/* Add a breakpoint at pc of proc (NULL: of every processor), temporary (deleted when hit) or
 * not; its number. */
int dbg_break(dbg_core *d, isk_inst *proc, uint64_t pc, bool temp);
/* Watch cells first..last of storage `storage` of inst: its number, or -1 with msg. */
int dbg_watch(dbg_core *d, isk_inst *inst, int storage, uint64_t first, uint64_t last, char *msg, size_t cap);
/* The same for reads (rwatch: DBG_ON_READ) or reads and changes (awatch: DBG_ON_ACCESS). A read
 * is seen where the model reports it: GET, and NOTE_READ on its raw-cell paths. */
int dbg_watch_access(dbg_core *d, isk_inst *inst, int storage, uint64_t first, uint64_t last, dbg_access access,
                     char *msg, size_t cap);
/* Delete point `id` (false if there is none), or all with id < 0. */
bool dbg_delete(dbg_core *d, int id);
const dbg_point *dbg_point_find(const dbg_core *d, int id);
/* After the host wrote cells (set): the watchpoints take the values as seen, so that the
 * host's own write does not stop the run. */
void dbg_watch_refresh(dbg_core *d);

/* Run: until a stop, for at most `clocks` clocks (0: up to the limit). */
dbg_stop dbg_continue(dbg_core *d, uint64_t clocks);
/* Issue n instructions of the selected context and stop before its next one. */
dbg_stop dbg_stepi(dbg_core *d, long n);
/* From a signal handler or another thread: stop the run under way at the end of its clock
 * (nothing between runs: a Ctrl-C at the prompt must not end the next run at once). */
void dbg_interrupt(dbg_core *d);

/* ---- launch lists ----
 * A system driven by a launch list (launchlist.h) has no processor: the list is the program of
 * an imaginary main processor, and its steps take breakpoints and stepi. A stop comes before
 * the clock in which the step would act; the run then goes on with that very step. */

/* Break and step in list l (call once, before the first run). */
void dbg_attach_list(dbg_core *d, struct launch_list *l);
/* A breakpoint before step `step` of the list: its number. */
int dbg_break_step(dbg_core *d, size_t step, bool temp);

/* ---- call frames ----
 * A shadow call stack per context, kept from the ISSUE events of instructions the model marks
 * INSTRUCTION(.flow = ISK_FLOW_CALL / ISK_FLOW_RETURN) while a debugger is attached: a call pushes
 * a frame when the context's next issue is not the instruction after it (taken); a return pops
 * to the frame whose return address the next issue lands on (none: a computed jump, not a
 * return). Exact for any code, leaf routines and hand-written assembly included; no frame
 * layout in memory is read. */

/* Whether proc's model marks any instruction as a call. */
bool dbg_model_has_calls(const isk_inst *proc);
/* Keep call stacks for the processors of sys whose models mark calls (an ISSUE subscriber);
 * nothing at all if none does. */
void dbg_calls_attach(dbg_callstacks *cs, isk_system *sys);
void dbg_calls_detach(dbg_callstacks *cs);
/* From a before-issue hook, at every issue: context ctx of proc issues at pc next. Its call
 * depth after its last instruction, or -1 if no call stacks are kept. */
long dbg_calls_issue(dbg_callstacks *cs, isk_inst *proc, uint32_t ctx, uint64_t pc);
/* Between runs: the call sites of context ctx of proc, innermost first: out[0] is the call
 * that entered the routine the context is in now, out[1] the call that entered out[0]'s... Returns how many there are
 * (0 for a model without calls, or before any call); fills at most max. `truncated` (may be
 * NULL): the outermost frames were not kept. */
int dbg_calls_frames(dbg_callstacks *cs, isk_inst *proc, uint32_t ctx, dbg_frame *out, int max, bool *truncated);
/* dbg_calls_frames of a debugger's call stacks. */
int dbg_frames(dbg_core *d, isk_inst *proc, uint32_t ctx, dbg_frame *out, int max, bool *truncated);
/* Run until the selected context returns from its current routine (its call depth drops below
 * the current one): a DBG_STEP stop at the return address, or whatever stops the run first.
 * false with a message if there is no routine to return from. */
bool dbg_finish(dbg_core *d, dbg_stop *out, char *msg, size_t cap);

/* The first processor of the system, or NULL for systems of accelerators only. */
isk_inst *dbg_first_processor(isk_system *sys);
/* The instruction word at pc of a processor's code memory; false outside it. */
bool dbg_code_word(isk_inst *proc, uint64_t pc, uint64_t *word);
/* The byte at addr of inst's address map (the debugger's x, DAP's readMemory, gdb's m):
 * read into *out, or with write set, *write stored; false where the simulator holds none. */
bool dbg_mem_byte(isk_inst *inst, uint64_t addr, uint8_t *out, const uint8_t *write);
/* The disassembled instruction at pc ("(no code)" outside the code memory). */
void dbg_disasm_at(isk_inst *proc, uint64_t pc, char *out, size_t cap);

#endif
