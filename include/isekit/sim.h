/* isekit embedding API: load models, build a system, run it clock by clock, look at it.
 *
 *     isk_diag diag; isk_diag_init(&diag);
 *     isk_model *m = isk_model_load("example", &diag);        // built-in name, model.c or model.so
 *     isk_system *sys = isk_system_new(NULL);
 *     isk_inst *acc = isk_system_add(sys, m, "acc0");
 *     isk_attach(sys, acc, 0);                                 // accelerator number 0
 *     isk_launch(sys, acc, word);                              // the processor's launch, this clock
 *     isk_step(sys, 1);                                        // finish the clock
 *     int64_t v; isk_read(acc, "GR0", 0, &v);
 *
 * One system is one clock domain: every instance in it advances on the same clock. Systems are
 * independent of each other and may run on different threads at the same time.
 */
#ifndef ISEKIT_SIM_H
#define ISEKIT_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "isekit/diag.h"
#include "isekit/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct isk_model isk_model;
typedef struct isk_system isk_system;
typedef struct isk_inst isk_inst;

/* ---- models ----------------------------------------------------------------------------- */

/* Load a model: a built-in name ("example"), a C file (compiled with the system C compiler into
 * a shared object, cached by content hash under $ISEKIT_CACHE or ~/.cache/isekit), or a shared
 * object. Errors (compiler output, bad format strings, overlapping encodings) go to `diag`
 * (NULL = stderr); the result is NULL if any error was reported. Models are reference counted:
 * each isk_model_load returns a new reference, each system holds one per instance. */
isk_model *isk_model_load(const char *spec, isk_diag *diag);
void isk_model_release(isk_model *m);
/* Load a model from its entry (built-in models, tests); NULL after reporting errors. */
isk_model *isk_model_from_entry(const struct isk_model_entry *e, const char *source, isk_diag *diag);

/* The built-in models this program links (each model folder registers its own, see
 * docs/layers.md): how many, and the name of the i-th in link order (NULL outside 0..count-1). */
int isk_builtin_model_count(void);
const char *isk_builtin_model_name(int i);

/* Compile a C file as `isk_model_load` compiles a model's (the system C compiler, isekit's
 * headers, the file's folder, and `include_dir` unless NULL; a shared object cached under
 * $ISEKIT_CACHE) and return the path of the shared object (malloc'd), or NULL after reporting
 * the compiler's messages to diag. The cache key is the preprocessed source (so edits to
 * included headers count), the flags and the model ABI. Host programs of systems (`isekit run
 * edkdsp --host`, with the EdkDSP API's folder) are built so. */
char *isk_dynload_compile(const char *source, const char *include_dir, isk_diag *diag);

const char *isk_model_name(const isk_model *m);
const char *isk_model_title(const isk_model *m);
int isk_model_word_bits(const isk_model *m);
int isk_model_slots(const isk_model *m);

typedef struct isk_storage_info {
    const char *name, *title;
    int kind;                /* enum isk_storage_kind */
    int width, sign, latency, frac, shared;
    uint64_t count;
    const char *const *element_names;   /* per cell, NULL where unnamed; NULL if none at all */
    int display;             /* enum isk_display (abi.h): ISK_DISPLAY_INT unless declared FLOAT */
} isk_storage_info;
int isk_model_storage_count(const isk_model *m);
const isk_storage_info *isk_model_storage(const isk_model *m, int i);
/* A cell's value v as its storage declares it, the raw bits in hex beside it: "N (0xH)"
 * (decimal by sign and width), "N (0xH) = X" (fixed point), "X (0xH)" (FLOAT), "[L, H] (0xH)"
 * (FLOAT(16x2), low half first). */
void isk_format_cell(const isk_storage_info *s, int64_t v, char *out, size_t cap);
/* The float alone, as the declaration's format (`display`, or by the width if INT: 16, 32 or 64
 * bits) reads bits v; false if it has none (other widths). */
bool isk_format_float(const isk_storage_info *s, int display, int64_t v, char *out, size_t cap);
/* A value typed for a cell of s: for FLOAT a float literal ("1.5", "-2e3", "inf", "nan"; FLOAT(16x2)
 * "L, H" or "[L, H]") or raw bits as 0x/0b; else an integer (isk_parse_i64, or up to 2^64-1).
 * false with the reason in `why` (out of the format's range, not a number). */
bool isk_parse_cell(const isk_storage_info *s, const char *text, int64_t *out, char *why, size_t cap);

typedef struct isk_resource_info { uint64_t mask; const char *name; } isk_resource_info;
int isk_model_resource_count(const isk_model *m);
const isk_resource_info *isk_model_resource(const isk_model *m, int i);

typedef struct isk_instruction_info {
    const char *format, *behaviour, *syntax, *fields, *relocs;
    int priority, alias;
    int iset;                /* the processor's instruction set it belongs to (INSTRUCTION .iset) */
    uint64_t mask, match;    /* fixed bits of the format and their values */
    int solo;                /* INSTRUCTION .solo: never in an issue group */
    int group_slot;          /* INSTRUCTION .group_slot: the member of a group it must be (0 any) */
    int flow;                /* INSTRUCTION .flow: ISK_FLOW_CALL, ISK_FLOW_RETURN or 0 */
} isk_instruction_info;
int isk_model_instruction_count(const isk_model *m);
const isk_instruction_info *isk_model_instruction(const isk_model *m, int i);

/* A parameter the model declares, as text for listings: type "integer", "enumeration",
 * "boolean" or "text"; the default as a user would write it; what it accepts ("1 to 1000",
 * "a power of two from 1 to 65536", "fp32 or int32", "yes or no", "any text"); help or "". */
typedef struct isk_param_info { const char *name, *type, *def, *accepts, *help; } isk_param_info;
int isk_model_parameter_count(const isk_model *m);
const isk_param_info *isk_model_parameter(const isk_model *m, int i);
/* Would `value` do for parameter `key`? true, or false with a sentence in `why`: "'mode' is
 * one of: functional, cycle" or "model 'dpu' has no parameter 'x' (its parameters: chip, mode,
 * uncertain)". The one check isk_set_param makes. */
bool isk_model_check_param(const isk_model *m, const char *key, const char *value, char *why, size_t cap);

/* The decoder's report: the fraction of the word space no format accepts, and up to `max`
 * of the largest undecodable regions as format-like strings ("1111-****-..."). For a processor
 * with several instruction sets (PROCESSOR .isets) the report is about set 0. */
typedef struct isk_coverage { double undecodable_fraction; int nregions; char regions[8][80]; } isk_coverage;
void isk_model_coverage(const isk_model *m, isk_coverage *out);

/* Decode one instruction word: the index of the instruction (see isk_model_instruction) and the
 * operand values, or -1 if no format accepts the word. A processor's group bit (PROCESSOR
 * .group_bit) is cleared first, unless a format fixes it (INSTRUCTION .solo). With several instruction sets (PROCESSOR .isets) set 0 is tried
 * first, then set 1, 2, ... in order, so that a disassembler finds the instructions of every set;
 * the instruction's `iset` tells which set accepted the word. The simulator decodes with the
 * issuing context's own set only (isk_model_decode_iset, isekit/desc.h). */
int isk_model_decode(const isk_model *m, uint64_t word, int64_t ops[ISK_MAX_OPS]);

/* ---- systems ---------------------------------------------------------------------------- */

typedef enum {
    ISK_OK = 0,
    ISK_STOPPED,             /* the driver or every processor finished */
    ISK_FAULT,               /* a simulated program or command faulted, model code crashed or hung,
                              * or a deadlock (see isk_last_error) */
    ISK_CONFLICT,            /* a CREW conflict, resource clash or slot exhaustion (as errors) */
    ISK_FAILED,              /* an error: bad arguments, a failed driver, a missing name */
    ISK_BREAK                /* a resumable stop inside a clock: a breakpoint instruction or the
                              * before-issue hook (isk_stop_reason); the next run continues */
} isk_status;

typedef struct isk_system_options {
    int conflicts_are_warnings;   /* CREW conflicts and resource clashes warn instead of stopping */
    isk_diag *diag;               /* where errors and warnings go (NULL = stderr) */
    /* Bytes of each stack a behaviour runs on: the engine's own stack (every command's first
     * clock) and the stack a multi-clock command keeps. 0 = ISK_DEFAULT_STACK_SIZE (256 KiB).
     * Below each stack lies a 64 KiB guard region: an overflow faults (see catch_crashes)
     * instead of overwriting memory. Systems without accelerators run processor instructions on
     * the calling thread's stack. */
    size_t stack_size;
    /* Called before each processor instruction issues (NULL = no cost): a disassembling trace
     * or a debugger's breakpoints. Returning non-zero stops the run before the instruction:
     * isk_step/isk_run return ISK_BREAK, and the next one issues that very instruction first
     * (without asking the hook again), so the pieces of a run add up to the uninterrupted run. */
    int (*before_issue)(void *user, uint64_t clock, isk_inst *proc, uint32_t context, uint64_t pc);
    void *before_issue_user;   /* also set later with isk_set_before_issue */
    /* SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT raised on the simulating thread while a
     * behaviour runs (a NULL dereference, a division by zero, a stack overflow into a guard
     * region, abort()) are reported through diag with the clock, the instance, the slot and
     * command word or the processor context and PC, the behaviour and the model's file; the run
     * returns ISK_FAULT. The system is then unusable: later runs return ISK_FAILED; it can still
     * be read and freed. The handlers are installed once per process when such a system first
     * runs; a signal raised outside a behaviour, or on a thread running no such system, goes to
     * the handler installed before (the default action, a sanitizer's report). An alternate
     * signal stack is set up for the duration of each run if the thread has none. */
    int catch_crashes;
    /* A behaviour (or host code it calls) that does not return to the engine within this many
     * milliseconds of wall time is reported as for catch_crashes and ends the run with
     * ISK_FAULT (0 = no watchdog). A thread per system watches the clock; the simulation itself
     * pays nothing for it. */
    unsigned watchdog_ms;
    /* SHARED_MEMORY storages are shared only where isk_share_storage says so, instead of by
     * name across the whole system (a system described in a file, docs/systems.md). */
    int explicit_sharing;
} isk_system_options;

#define ISK_DEFAULT_STACK_SIZE ((size_t)256 * 1024)

isk_system *isk_system_new(const isk_system_options *opt);
void isk_system_free(isk_system *sys);

/* Add an instance of a model. Instances of models with SHARED_MEMORY storages of the same name
 * share one storage (their shapes must agree), unless the system's options ask for
 * explicit_sharing. */
isk_inst *isk_system_add(isk_system *sys, isk_model *m, const char *name);
/* Make storage `name` of `inst` the very storage `owner_name` of `owner` (before the first
 * clock): both must be SHARED_MEMORY storages of the same width, signedness, latency and count.
 * Instances already sharing inst's storage follow it. ISK_OK, or ISK_FAILED with the reason in
 * msg ("storage 'X' of dfu1 (32 bits x 256) does not match 'Y' of dfu0 (32 bits x 128)"). */
isk_status isk_share_storage(isk_inst *inst, const char *name, isk_inst *owner, const char *owner_name, char *msg,
                             size_t cap);
/* Map storage `storage` of `target` (any instance of the system, e.g. an accelerator's
 * SHARED_MEMORY) into the byte address space of processor `proc` from `base` on, before the
 * first clock: each cell takes its container's bytes (1, 2, 4 or 8: the width rounded up),
 * little endian, so cell i sits at base + i * bytes. The processor reaches it with BUS_READ and
 * BUS_WRITE (isekit/model.h); an access spanning cells (or mappings) splits into them. A mapping
 * that overlaps another of proc's, or a region of proc's own model, is refused: ISK_FAILED with
 * the reason in msg. */
isk_status isk_map_storage(isk_inst *proc, uint64_t base, isk_inst *target, const char *storage, char *msg,
                           size_t cap);
/* Make `acc` accelerator number `number` of the system's processor(s) and of isk_launch. */
isk_status isk_attach(isk_system *sys, isk_inst *acc, int number);
isk_inst *isk_instance(isk_system *sys, const char *name);
/* The system's instances in the order they were added: the i-th, or NULL past the last. */
isk_inst *isk_instance_at(isk_system *sys, int i);
const char *isk_inst_name(const isk_inst *inst);
const isk_model *isk_inst_model(const isk_inst *inst);
/* The instance's state (struct isk_state of its model), for host code that includes the model. */
isk_hdr *isk_inst_state(isk_inst *inst);
/* Data a tool keeps with an instance under a key of its own (the address of something the tool
 * owns): the loader keeps the program it loaded (symbols, lines), for a debugger or a profile.
 * Setting a key again releases the old data; the instance releases what it holds when freed.
 * At most 8 keys per instance: ISK_FAILED (reported) beyond. */
isk_status isk_inst_set_data(isk_inst *inst, const void *key, void *data, void (*release)(void *data));
void *isk_inst_data(const isk_inst *inst, const void *key);

/* Set a model parameter of an instance before its first clock (the instance is reset). A name
 * the model does not declare, or a value its declaration does not accept, is an error naming
 * the instance, the parameter and what it accepts (isk_model_check_param); the value is kept. */
isk_status isk_set_param(isk_inst *inst, const char *key, const char *value);
/* The same from "KEY=VALUE" (as --param takes it); a text without '=' is an error. */
isk_status isk_set_param_text(isk_inst *inst, const char *assignment);
/* The parameter's value as text (as set, or the default), NULL if the model has no such one. */
const char *isk_get_param(const isk_inst *inst, const char *key);
/* Its number, as the model reads it with GET_PARAM (an integer, an enumeration's index, a
 * boolean's 0 or 1): false (and 0) if the model has no such parameter or it is text. */
bool isk_get_param_number(const isk_inst *inst, const char *key, int64_t *out);

/* The processor side of a launch: hand `word` to the accelerator in the current clock; the
 * command's first step runs in this clock. At most the free slots can be taken. */
isk_status isk_launch(isk_system *sys, isk_inst *acc, uint64_t word);

/* A prepared command: `word` decoded once for accelerator `acc` of `sys` (its behaviour and
 * operands, the accelerator checked), to be launched any number of times with
 * isk_launch_prepared, which looks nothing up. The system owns it (freed with the system).
 * NULL, with the error reported, if acc is not an accelerator of sys or no instruction format
 * of its model accepts the word; the system itself is not stopped. */
typedef struct isk_command isk_command;
const isk_command *isk_prepare(isk_system *sys, isk_inst *acc, uint64_t word);
/* isk_launch(sys, acc, word) of a prepared command: the same launch, the same errors (no free
 * slot, a stopped system), the same clocks and counts. */
isk_status isk_launch_prepared(isk_system *sys, const isk_command *cmd);

/* A queue of prepared commands, launched one per clock with no call to the host: commands[i]
 * at the start of clock isk_clock(sys) + i, exactly as a driver calling
 * isk_launch_prepared(sys, commands[i]) in that clock and returning 1 (finished) with the last
 * would: the same clocks, counts, messages and events. The queue is the system's driver (it
 * replaces one set by isk_set_driver, and isk_set_driver or another isk_queue_commands replaces
 * it). The array is not copied: it must stay unchanged until the queue is done or replaced (a
 * long stream can be queued in blocks, e.g. one per isk_step). It does not wait: a command still running when the next is due
 * keeps its slot, the next takes another, and one that finds no free slot stops the run with
 * isk_launch's error (ISK_CONFLICT). While the accelerator would run only the queue's one-clock
 * commands (one accelerator, no processor, no event subscriber, no port handler, no watched
 * reads), the engine calls each command's behaviour directly and counts once per run (see
 * docs/engine.md). Refused at once, with nothing queued: a stopped system (its status), a NULL
 * array of n > 0 commands (ISK_FAILED, reported; the system is not stopped). A NULL command or
 * one prepared for another system is reported in the clock it is due, with its index, and stops
 * the run with ISK_FAILED (checking each when queued would cost more than the loop's test). */
isk_status isk_queue_commands(isk_system *sys, const isk_command *const *commands, size_t n);

/* A driver runs at the start of every clock, before the processors and accelerators: it plays
 * the main processor (e.g. a launch list). It returns 0 to go on, 1 when it has finished
 * (the run then ends once every accelerator is idle), < 0 to stop with an error, or
 * ISK_DRIVER_BREAK to stop before the clock has any other effect (a debugger's breakpoint in a
 * launch list): isk_step/isk_run return ISK_BREAK with the clock not counted, and the next run
 * begins that clock by calling the driver again. */
enum { ISK_DRIVER_BREAK = 2 };
typedef int (*isk_driver_fn)(void *user, isk_system *sys);
void isk_set_driver(isk_system *sys, isk_driver_fn fn, void *user);

/* Ports of processor models (OUTPUT/INPUT in behaviours). */
typedef void (*isk_port_write_fn)(void *user, isk_inst *inst, uint64_t port, uint64_t value);
typedef uint64_t (*isk_port_read_fn)(void *user, isk_inst *inst, uint64_t port);
void isk_set_ports(isk_inst *inst, isk_port_read_fn rd, isk_port_write_fn wr, void *user);

/* Install (or, with NULL, remove) the before-issue hook of isk_system_options on a system that
 * exists already (a debugger attaching): it takes effect at the next isk_step/isk_run. */
void isk_set_before_issue(isk_system *sys, int (*fn)(void *user, uint64_t clock, isk_inst *proc, uint32_t context,
                                                     uint64_t pc), void *user);

/* The before-issue hook installed now (NULL if none), and its user pointer: a debugger that
 * attaches keeps calling the hook a runner installed (e.g. one that ends the run at a PC). */
void isk_get_before_issue(const isk_system *sys, int (**fn)(void *user, uint64_t clock, isk_inst *proc,
                                                            uint32_t context, uint64_t pc), void **user);

/* Run exactly `clocks` clocks, idle ones included (a finished system goes on clocking: isk_run
 * is the call that stops at the end), unless an error, a stop request or a deadlock ends the run
 * first. Returns ISK_OK when the clocks were run. A deadlock ends the run with ISK_FAULT: a context sleeps and nothing else is active (no busy
 * slot, no pending write, no running or blocked context, no driver still running), so nothing can
 * ever wake it; the error names each sleeping context and its PC. */
isk_status isk_step(isk_system *sys, uint64_t clocks);
/* Run until finished (ISK_STOPPED, also when everything finishes in the last allowed clock) or
 * for at most max_clocks clocks (ISK_OK: the limit came first); max_clocks = 0 means no limit. */
isk_status isk_run(isk_system *sys, uint64_t max_clocks);
/* From a port handler, a driver or a trace hook during isk_step/isk_run: return to the caller
 * when the current clock ends, as if the run had asked for exactly that many clocks (isk_run
 * then returns ISK_OK, not finished). An embedding program that waits for an event its handlers
 * see can so run in long steps and still stop at the very clock. No effect on a later run. */
void isk_stop_after_clock(isk_system *sys);
/* Async-signal-safe, callable from any thread (e.g. a SIGINT handler): end the running
 * isk_step/isk_run at the end of the current clock, as isk_stop_after_clock does (the run returns
 * ISK_OK; a processor's multi-clock instruction stays busy until its end). A request made while
 * no run is going on ends the next run before its first clock. Each request ends one run. */
void isk_request_stop(isk_system *sys);

/* What is still going on, one line per thing, written into buf (cap bytes, always terminated,
 * truncated with "..." if too small):
 *   "acc0 slot 1: MAC (word 0x1234), launched at clock 5, in its clock 2"
 *   "cpu context 0: running at pc 0x40"     "cpu context 3: blocked until clock 90 at pc 0x12"
 *   "cpu context 2: sleeping at pc 0x10, waits for a wake-up"
 *   "3 writes pending"                      "1 interrupt not taken"
 * Returns the number of things that can still change the system by themselves: active slots
 * and running or blocked contexts (one each), pending writes (one in all). Sleeping contexts and
 * untaken interrupts are listed but not counted: only the driver or the host can act on them.
 * 0 means the system is quiescent: nothing changes unless the driver or the host acts. A
 * sleeping context while nothing else is active and no driver runs is a deadlock (isk_step). */
int isk_describe_activity(const isk_system *sys, char *buf, size_t cap);

/* From a driver: it will not act before clock `clock` (e.g. a launch list's "@N command"). The
 * engine does not call it before then and, while nothing else is active (no busy slot, no
 * pending write, no running or blocked context), skips the idle clocks at once; they count as
 * clocks (and as idle clocks of the processors) in the statistics. A run's clock limit still
 * holds: the clock stops at the limit. */
void isk_driver_wait_until(isk_system *sys, uint64_t clock);

uint64_t isk_clock(const isk_system *sys);
/* Why the last run returned ISK_BREAK ("clock 40, dpu thread 3, pc 0x12: breakpoint"). */
const char *isk_stop_reason(const isk_system *sys);
/* Interrupt lines. Route line `line` (0..31) that instance `from` raises (InterruptLine in its
 * behaviours) to input `to_line` of processor `to`; an unrouted line counts in isk_interrupts as
 * before. isk_raise_line raises an input of a processor from the host (a port handler, the
 * driver): the model sees it in PENDING_LINES, and its sleeping contexts whose WAKE_ON_LINES
 * holds it run again from the next clock. */
isk_status isk_route_interrupt(isk_inst *from, int line, isk_inst *to, int to_line);
isk_status isk_raise_line(isk_inst *proc, int line);
/* The first line of the error that stopped the system, or "" if none. */
const char *isk_last_error(const isk_system *sys);
/* Number of commands executing in an accelerator. */
int isk_busy_slots(const isk_inst *acc);
/* Interrupts raised by accelerators and not yet taken: returns the number of pending ones and
 * clears them if `take`; *from receives the last raiser. */
int isk_interrupts(isk_system *sys, int take, isk_inst **from);

/* Processors: a context's PC and state (enum isk_context_state), to read; (re)starting one at
 * pc, or stopping one (a later isk_start or WAKE_CONTEXT continues it at pc). Between runs. */
isk_context *isk_context_of(isk_inst *proc, int id);
isk_status isk_start(isk_inst *proc, int context, uint64_t pc);
isk_status isk_stop(isk_inst *proc, int context, uint64_t pc);

/* ---- storage by name -------------------------------------------------------------------- */

/* A name is a storage name ("GRF"), its title ("General Registers"), an element name ("GR0"),
 * optionally with an index: "GRF[1]", "LDM[0x10]". Matching ignores case. Reads see committed
 * values; writes from outside the clock take effect at once (they are the host's, between
 * clocks). */
typedef struct isk_ref { isk_inst *inst; int storage; uint64_t index; } isk_ref;
isk_status isk_lookup(isk_inst *inst, const char *name, isk_ref *out);
/* The same without reporting: the reason for a failure goes to msg. */
isk_status isk_resolve(isk_inst *inst, const char *name, isk_ref *out, char *msg, size_t cap);
isk_status isk_read(isk_inst *inst, const char *name, uint64_t index, int64_t *value);
isk_status isk_write(isk_inst *inst, const char *name, uint64_t index, int64_t value);
int64_t isk_ref_read(const isk_ref *r);
void isk_ref_write(const isk_ref *r, int64_t value);
/* Bulk access to a whole storage (e.g. loading a program image); out-of-range is an error. */
isk_status isk_storage_load(isk_inst *inst, int storage, uint64_t first, const int64_t *values, uint64_t n);
/* Zero n cells from first; a big storage's untouched pages stay untouched (a NOBITS section). */
isk_status isk_storage_clear(isk_inst *inst, int storage, uint64_t first, uint64_t n);

/* ---- events ------------------------------------------------------------------------------- */

/* What happens in a system, as typed events for whoever subscribes: a text trace, a waveform
 * writer, a profiler, a debugger. Nothing is built and no path is slowed for a kind nobody
 * subscribed to; an instruction-issue subscriber makes a processor take the engine's general
 * path (one clock at a time), as a before-issue hook does. */
typedef enum isk_event_kind {
    ISK_EV_ISSUE,        /* a context issues an instruction (before its behaviour runs): context,
                            pc, word, instruction and operands as the engine decoded them */
    ISK_EV_STORE,        /* a cell of a watched storage (isk_watch) took a new value: storage,
                            index, value, latency. Seen after the processor instruction that
                            wrote it (latency 0, also straight into its cells), else at the end
                            of `clock`: a command's writes, a write of latency >= 1 committing
                            (visible from clock + 1), the host's */
    ISK_EV_LAUNCH,       /* a command starts: slot, word, instruction and operands */
    ISK_EV_END,          /* a command ends: slot, instruction, `amount` = the clocks it took */
    ISK_EV_RESOURCE,     /* resources used in this clock: `mask` */
    ISK_EV_CONTEXT,      /* a context changed state: context, pc, `from` -> `to` (enum
                            isk_context_state); seen when its processor next issues or idles */
    ISK_EV_EXCEPTION,    /* an architectural exception: context, pc, `cause`, text */
    ISK_EV_INTERRUPT,    /* interrupt line `line` raised by inst, or (text "input") raised at input
                            `line` of processor inst by a route or the host */
    ISK_EV_PORT_READ,    /* a processor read `port`: the handler's `value` */
    ISK_EV_PORT_WRITE,   /* a processor wrote `value` to `port` */
    ISK_EV_DMA,          /* a model's transfer (DMA_EVENT): `amount` bytes from `from` to `to` in
                            the model's address space, text names the direction */
    ISK_EV_NOTE,         /* a model's TRACE text */
    ISK_EV_LOAD,         /* a behaviour read cells of a storage whose reads are watched
                            (isk_watch_reads): storage, `index` = the first cell, `amount` = how
                            many, value = the first cell's; the reader's slot, or context and pc.
                            Seen within the reading instruction or clock (GET: before the
                            behaviour uses the value) */
    ISK_EV_KINDS
} isk_event_kind;
#define ISK_EV_BIT(kind) (1u << (kind))
#define ISK_EV_ALL ((1u << ISK_EV_KINDS) - 1)

typedef struct isk_event {
    isk_event_kind kind;
    uint64_t clock;
    isk_inst *inst;           /* whose event it is */
    int slot;                 /* the command's slot, or -1 (a processor, the host) */
    uint32_t context;         /* processors: the context */
    uint64_t pc;
    int instruction;          /* ISSUE, LAUNCH, END: the instruction's index (isk_model_instruction) */
    uint64_t word;            /* ISSUE, LAUNCH: the instruction word */
    const int64_t *operands;  /* ISSUE, LAUNCH: its operands, as the engine decoded them */
    int storage;              /* STORE, LOAD: the storage's index (isk_model_storage) */
    uint64_t index;           /* STORE, LOAD: the (first) cell */
    int64_t value;            /* STORE, LOAD, PORT_*: the value */
    int latency;              /* STORE */
    uint64_t port;            /* PORT_* */
    uint64_t mask;            /* RESOURCE */
    int cause, line;          /* EXCEPTION; INTERRUPT */
    int from, to;             /* CONTEXT: states */
    uint64_t src, dst, amount;/* DMA: addresses and bytes; END: amount = clocks; LOAD: cells */
    const char *text;         /* EXCEPTION: the message; DMA: the direction; NOTE: the text */
} isk_event;

typedef void (*isk_event_fn)(void *user, const isk_event *ev);
/* Call fn for every event of the kinds in `kinds` (ISK_EV_BIT(...) | ..., or ISK_EV_ALL), in
 * the order they happen, from inside the run. Subscribers are called in the order they
 * subscribed; at most 16. Returns ISK_FAILED (reported) if there are too many. */
isk_status isk_subscribe(isk_system *sys, unsigned kinds, isk_event_fn fn, void *user);
void isk_unsubscribe(isk_system *sys, isk_event_fn fn, void *user);
/* STORE events for storage `storage` of inst (an index of isk_model_storage; -1: all of them),
 * for the values it takes from now on. The engine keeps a copy of a watched storage and
 * compares it after each processor instruction and at each clock's end: a watch costs that
 * comparison, and makes the processors take the general path while someone subscribes to STORE. */
isk_status isk_watch(isk_inst *inst, int storage, bool on);
/* LOAD events for reads of storage `storage` of inst (-1: all of them): reads through GET, and
 * through CELLS where the model marks them with NOTE_READ (the memories and register files of
 * the shipped models). While an instance has a watched storage, every GET and NOTE_READ of its
 * behaviours calls into the engine; with none, they cost what they did. */
isk_status isk_watch_reads(isk_inst *inst, int storage, bool on);
/* The event in words, as `isekit run --trace` prints it after the clock and the instance:
 * "launch MAC (0x1234) in slot 0", "GRF[1] (GR1) = 5", "port 0x3 <- 0x41", ... Returns buf. */
const char *isk_event_text(const isk_event *ev, char *buf, size_t cap);

/* ---- statistics ------------------------------------------------------------------------- */

typedef struct isk_stats {
    uint64_t clocks;
    uint64_t launches;               /* commands started, all accelerators */
    uint64_t commands_done;
    uint64_t slot_clocks;            /* sum over clocks of busy slots (unfinished commands too) */
    int max_busy_slots;
    uint64_t resource_clocks[64];    /* per resource bit: clocks in which it was used */
    uint64_t crew_conflicts, resource_clashes;
    uint64_t interrupts;
    uint64_t instructions;           /* processor instructions issued */
    uint64_t idle_clocks;            /* processor clocks in which no context could issue */
    uint64_t idle_blocked_clocks;    /* of those, clocks in which a context was BLOCKED (e.g. a DMA) */
    uint64_t exceptions;             /* architectural exceptions handled by models */
    uint64_t writes;                 /* storage writes through the latency queue */
} isk_stats;
void isk_get_stats(const isk_system *sys, isk_stats *out);
void isk_inst_stats(const isk_inst *inst, isk_stats *out);

#ifdef __cplusplus
}
#endif
#endif
