/* A running system: instances of models on one clock. Internal to the engine. */
#ifndef ISK_ENGINE_SYSTEM_H
#define ISK_ENGINE_SYSTEM_H

#include <pthread.h>
#include <setjmp.h>

#include "engine/coro.h"
#include "engine/model_desc.h"

/* isk_decoded (isekit/abi.h), an instruction decoded once, is what the dispatch loop calls: one
 * cache line. */

enum slot_state {
    SLOT_FREE,
    SLOT_FRESH,              /* launched this clock, not yet run */
    SLOT_ON_ENGINE,          /* running its first clock on the engine's stack */
    SLOT_SUSPENDED,          /* waiting for its next clock, on a stack of its own */
    SLOT_ON_OWN,             /* running a later clock on its own stack */
    SLOT_DONE                /* ended this clock; freed at the end of the clock */
};

typedef struct isk_slot {
    int state;
    uint64_t word, started;
    uint64_t end_at;         /* the clock of its promised interrupt (PromiseEnd; UINT64_MAX: none) */
    const isk_decoded *d;    /* the launch cache's entry, or `own` once that entry was reused */
    isk_decoded own;
    isk_coro ctx;
    isk_stack stack;         /* owned while the command runs past its first clock */
} isk_slot;

/* A write waiting for its latency. Which storage and cell it is (for traces, conflict
 * messages and code invalidation) is recovered from the cell's address when needed. */
typedef struct pending_write {
    void *cell;
    int64_t value;
    isk_inst *inst;
    int32_t slot;            /* the writer, for conflict messages (-1: a processor) */
    uint32_t how;            /* as ops->write had it: the cell's bytes, ISK_WRITE_CODE (one store) */
} pending_write;
/* The writes due in one clock. */
typedef VEC(pending_write) write_bucket;

/* A latency-0 write of an issue group, held back to the group's end. */
typedef struct group_write { void *cell; int64_t value; unsigned how; } group_write;

/* A write of the current clock, for the CREW check. */
typedef struct crew_entry {
    void *cell;
    isk_inst *inst;
    int slot;                /* -1: a processor context */
} crew_entry;


#define LAUNCH_CACHE 64

/* isk_prepare: a launch word decoded once (owned by the system, at a fixed address: slots
 * point at its entry). */
struct isk_command {
    isk_decoded d;
    isk_inst *acc;
    uint64_t word;
};

/* A storage of another instance in a processor's address space (isk_map_storage). */
struct isk_bus_map {
    uint64_t base, size;             /* bytes: the storage's cells times cell_bytes */
    isk_inst *target;
    int storage, cell_bytes;
};

struct isk_inst {
    isk_system *sys;
    isk_model *model;
    char *name;
    isk_hdr *hdr;                    /* the model's struct isk_state */
    void **buffers;                  /* per storage */
    bool *owns_buffer;
    isk_param_value *params;         /* per model parameter; text NULL = the default */
    int number;                      /* accelerator number, or -1 */

    /* accelerators */
    int nslots;
    isk_slot *slots;
    int *order;                      /* active slots (DONE ones until the clock ends), in launch order */
    int norder;
    uint64_t seq;
    bool arms_inline;                /* it has a latency-1 storage: run_slot arms SET's inline entry */
    uint64_t resources_used, resources_clock;   /* the resource bits used in that clock */
    int resource_slot[64];           /* the slot that used each bit first (-1: a processor) */
    struct { uint64_t word; isk_decoded d; } launch_cache[LAUNCH_CACHE];   /* isk_launch_cache_clear */

    /* processors */
    isk_context *contexts;
    isk_decoded *dcache;             /* per code memory cell, per instruction set (memory.c) */
    size_t dcache_bytes;
    bool dcache_mapped;              /* on demand: a mapping of the miss template or a shared image */
    bool code_pristine;              /* nothing decoded since the reset: the next decode shares */
    struct isk_shared_code *shared_code;   /* the program in the table it runs, or NULL */
    bool image_mapped;               /* its decoded image is mapped over dcache */
    uint64_t ncode;
    isk_sched sched;                 /* the issue policy and its state (issue.c) */
    int issue;                       /* enum isk_issue_policy: which fast loop serves it */
    bool sched_stale;                /* contexts changed since the scheduler's `changed` last ran */
    bool sched_dirty;                /* SCHEDULE ran inside a fast loop: its local copy is stale */
    bool groups;                     /* the model has issue groups (PROCESSOR .group_bit) */
    uint64_t quiet_until;            /* unless sched_stale: no issue and nothing to count before */
    /* interrupt lines this instance raises (InterruptLine), routed to processors' inputs;
     * an unrouted line counts in the system's untaken interrupts */
    struct { isk_inst *to; int line; } routes[32];
    isk_port_read_fn port_read;
    isk_port_write_fn port_write;
    void *port_user;
    /* events (events.c): per storage, the copy of a watched one as last reported (NULL: not
     * watched), how many are; the context states last reported */
    void **shadow;
    int nwatched;
    /* per storage: its reads are watched (isk_watch_reads); how many are; what hdr->trap holds
     * between clock boundaries (ISK_TRAP_READS while any is, else 0) */
    bool *read_watched;
    int nread_watched;
    uint32_t trap_rest;
    uint8_t *reported_states;

    /* processors: storages of other instances in its address space (bus.c), by base */
    struct isk_bus_map *bus;
    int nbus;

    isk_stats stats;
    /* isk_inst_set_data: what tools keep with the instance */
    struct { const void *key; void *data; void (*release)(void *); } data[8];
};

/* Where the clock loop is within a clock: the driver, the processors' issues (from cur_proc on),
 * the slots, the end. A run stopped inside a clock (a breakpoint) continues from there. */
enum { PHASE_BEGIN, PHASE_ISSUE, PHASE_SLOTS, PHASE_END };

#define WRITE_RING (ISK_MAX_LATENCY + 1)

#define ISK_MAX_SUBSCRIBERS 16
typedef struct isk_subscriber { unsigned kinds; isk_event_fn fn; void *user; } isk_subscriber;

struct isk_system {
    isk_system_options opt;
    unsigned listening;              /* the event kinds someone subscribed to (ISK_EV_BIT) */
    int nsubscribers;
    isk_subscriber subscribers[ISK_MAX_SUBSCRIBERS];
    isk_diag own_diag, *diag;
    uint64_t clock;
    VEC(isk_inst *) insts;
    VEC(isk_inst *) accelerators;    /* instances with slots */
    VEC(isk_inst *) processors;
    VEC(isk_inst *) by_number;       /* attached accelerators by number */
    isk_driver_fn driver;
    void *driver_user;
    bool driver_done;

    /* writes waiting for their latency, by due clock modulo the ring size */
    write_bucket ring[WRITE_RING];
    size_t pending;                  /* in the ring and the log, but for the log's ISK_WRITE_INLINE entry */
    isk_write_log wlog;              /* this clock's writes to latency-1 cells (abi.h) */
    VEC(crew_entry) crew;            /* this clock's writes, for the CREW check */
    isk_inst *grouping;              /* the processor running an issue group (issue.c run_group) */
    VEC(group_write) group_writes;   /* its latency-0 writes so far */
    int busy_slots;                  /* active slots over all accelerators */
    int ended_slots;                 /* slots whose command ended this clock */
    struct { isk_inst *acc; isk_slot *slot; } last_ended;   /* the last of them */
    int interrupts;
    isk_inst *interrupt_from;

    /* the clock loop's position, kept here so the loop can continue on another stack */
    int phase;
    size_t cur_proc;
    size_t cur_acc;
    int cur_order;
    isk_inst *cur_inst;              /* whose behaviour runs now */
    int cur_slot;                    /* -1: a processor instruction */
    uint64_t run_until;
    bool run_to_end;
    bool reached_end;                /* the last isk_run ended because everything finished */
    isk_status status;
    char last_error[512];
    jmp_buf *fault_jmp;              /* the live clock loop's, for faults on its stack */
    /* The processor's fast loop in progress (run_alone), so that a fault leaving it by longjmp
     * can still settle its counts: the processor, the clock it began at, its idle clocks then. */
    struct {
        isk_inst *proc;
        uint64_t start, issued_before;
        isk_context *sticky;          /* a sticky scheduler's context: insns = sticky_base + issued */
        uint64_t sticky_base;
        /* h->issued when the sticky context was picked, and its gap: a fault's instruction
         * (uncounted) had an issue of the context before it in the run if issued moved since */
        uint64_t sticky_issued, sticky_gap;
        /* the revolver's steady round (circle_steady) runs: its contexts' counts, last issues
         * and ready clocks are brought up to date from the clocks since steady_since, where
         * steady_first issued, round the circle of steady_live (steady_gap 0: none runs) */
        uint64_t steady_since, steady_gap;
        uint64_t steady_live;
        uint32_t steady_first;
    } fast;
    /* A processor runs ahead of busy accelerators whose commands are inert (ahead.c): while
     * `proc` is set, the accelerators have run the clocks before `from` only, and proc's ops are
     * isk_engine_ops_ahead (its own were `ops`); isk_catch_up runs them up to the clock. */
    struct {
        isk_inst *proc;
        const struct isk_engine_ops *ops;
        uint64_t from;
        bool declared;   /* an accelerator declares inert commands: else the clock loop never asks */
    } ahead;
    /* A resumable stop (a breakpoint instruction, the before-issue hook): the run ends with
     * ISK_BREAK at the loop's position; resume_issue: the first issue of the next run is the
     * instruction the hook stopped before (resume_context), not asked about again. */
    bool stop_now, resume_issue;
    uint32_t resume_context;
    char stop_reason[256];

    /* stacks: the engine runs on cur_stack; suspended commands own the stacks they took */
    isk_coro caller;                 /* the embedding program, while the engine runs */
    isk_coro engine;                 /* the engine, while a command runs on its own stack */
    isk_stack cur_stack;
    VEC(isk_stack) spare_stacks;
    VEC(isk_command *) commands;     /* isk_prepare's, freed with the system */
    /* isk_queue_commands: the caller's array of commands, its length, the next to launch; while
     * the slotless loop runs (clock.c run_slotless), the accelerator it serves and the clock it
     * began at, from which its counts and the queue's position are brought up to date when it
     * leaves. The loop tests one word after each command, its accelerator's h->attention, set by
     * every write to commit and by all that can end its clock with the command back in the loop:
     * a launch (start_command, which sets only attention: the loop then finds norder != 1), a
     * stop (isk_break), a command taking a stack of its own (take_boundary); and by a lowered
     * limit (isk_request_stop, isk_stop_after_clock), after which the loop reads the limit again
     * and goes on. All but a launch set leave first: the loop looks at it (and at norder) only
     * on attention, and clears it before it reads the limit again. A status set inside a command
     * always unwinds (stop_with, isk_abandon_behaviour), so none returns; a debug build asserts
     * all four (tests/engine/test_queue_exits.c). unwritten: the loop's clocks since start whose
     * writes it did not commit as SET's one inline entry (each one write, counted when it
     * leaves) */
    struct {
        const isk_command *const *cmds;
        size_t len, next;
        isk_inst *acc;
        uint64_t start, unwritten, end;   /* end: the loop's, min(queue's end, the limit) */
        bool leave;
    } queue;
    isk_stack recycle;               /* a finished command's stack, to put back */
    bool caller_ready;
    pthread_t caller_thread;

    isk_stats stats;

    /* isk_request_stop: set from a signal handler or another thread, consumed by a run */
    atomic_int stop_requested;
    uint64_t driver_wait;            /* isk_driver_wait_until: the driver's next clock */
    /* Crashes and the watchdog (guard.c). After a crash in model code the system is unusable. */
    bool crashed;
    struct isk_guard *guard;         /* the watchdog and alternate signal stack, while wanted */
};

/* issue.c: processors */
void isk_sched_select(isk_inst *p, int issue, uint64_t gap, const isk_scheduler *own);
/* One clock of processor p on the general path: ISK_ISSUE_ON, or the run stops after p's
 * issue (a fault, a breakpoint) or before it (the before-issue hook: the clock loop keeps its
 * position, and the same instruction is the first of the next run). */
enum { ISK_ISSUE_ON, ISK_ISSUE_STOP_AFTER, ISK_ISSUE_STOP_BEFORE };
int isk_issue_clock(isk_system *sys, isk_inst *p);
void isk_run_alone(isk_system *sys, isk_inst *p);
/* ahead.c: whether the busy accelerators' commands are all inert and use only storage private
 * in the system: 1 if all are suspended, 2 if some have yet to run their first clock (on the
 * engine's stack, in the general loop), else 0; the processor's fast loop ahead of them. */
int isk_accelerators_inert(const isk_system *sys, uint64_t *until);
bool isk_command_inert(const isk_inst *a, int slot);
void isk_run_ahead(isk_system *sys, uint64_t until);
/* clock.c: the accelerators run the clocks from sys->ahead.from to the current clock (nothing
 * if they are not behind); the processor's ops are its own again. */
void isk_catch_up(isk_system *sys);
void isk_settle_fast_loop_after_fault(isk_system *sys);
/* Bring the counts a fast loop keeps in registers up to date (host code asks for them). */
void isk_sync_fast_counts(isk_system *sys);
void isk_engine_exception(isk_hdr *h, int cause, const char *message);
void isk_break(isk_system *sys, const char *message);
void isk_deliver_line(isk_inst *p, int line);
/* Point storage i of inst (and its member in the state) at `buffer`: binding at creation, and
 * explicit sharing (share.c). */
void isk_bind_buffer(isk_inst *inst, size_t i, void *buffer);
void isk_op_schedule(isk_hdr *h, int issue, uint64_t gap, const isk_scheduler *own);
void isk_op_exception(isk_hdr *h, int cause, const char *message);
void isk_op_exit_context(isk_hdr *h, uint32_t id, int status, const char *message);
void isk_op_breakpoint(isk_hdr *h, const char *message);

/* clock.c */
void isk_clock_run(isk_system *sys);
ISK_NORETURN void isk_op_fault(isk_hdr *h, int code, const char *message);
/* engine ops that ahead.c's table shares with isk_engine_ops (they touch only the caller) */
void isk_op_use_resources(isk_hdr *h, uint64_t mask);
void isk_op_invalidate_code(isk_hdr *h, uint64_t address);
void isk_op_trace(isk_hdr *h, const char *message);
const char *isk_op_param(isk_hdr *h, const char *key);
int64_t isk_op_param_number(isk_hdr *h, const char *key);
void isk_op_dma(isk_hdr *h, const char *what, uint64_t from, uint64_t to, uint64_t bytes);
void isk_op_promise_end(isk_hdr *h, uint64_t clocks);
void isk_check_deadlock(isk_system *sys);
void isk_engine_main(void *sys);   /* the clock loop as the body of an engine stack */
isk_stack isk_take_stack(isk_system *sys);
void isk_launch_cache_clear(isk_inst *a);   /* every entry empty */
void isk_commands_free(isk_system *sys);    /* isk_prepare's */
/* The log entries sys->pending leaves out: the one SET appends itself (model.h isk_store), which
 * has no way to count it; always the log's first. */
ISK_INLINE size_t isk_log_uncounted(const isk_write_log *log)
{
    return log->len && (log->data[0].how & ISK_WRITE_INLINE);
}
/* The slotless loop (clock.c run_slotless), if one runs, looks after the command that returns:
 * its exit word, then the one word it tests, its accelerator's attention (the queue above). */
ISK_INLINE void isk_queue_leave(isk_system *sys)
{
    sys->queue.leave = true;
    if (sys->queue.acc) sys->queue.acc->hdr->attention = 1;
}
/* Ops that do something first and then call another table's: ISK_WRAP_OPS(P, BEFORE, TABLE)
 * defines P_boundary, P_write, ... for every entry, each running BEFORE(h) and then the same entry
 * of TABLE (an expression, read after BEFORE: ahead.c's BEFORE puts the processor's own table
 * back). A table takes the ones it needs; the rest go unused. */
#define ISK_WRAP_OPS(P, BEFORE, TABLE) \
    __attribute__((unused)) static void P##_boundary(isk_hdr *h) { BEFORE(h); (TABLE)->boundary(h); } \
    __attribute__((unused)) static void P##_write(isk_hdr *h, void *cell, int64_t value, unsigned how) \
    { BEFORE(h); (TABLE)->write(h, cell, value, how); } \
    __attribute__((unused)) static void P##_use_resources(isk_hdr *h, uint64_t mask) \
    { BEFORE(h); (TABLE)->use_resources(h, mask); } \
    __attribute__((unused)) static void P##_interrupt(isk_hdr *h, int line) { BEFORE(h); (TABLE)->interrupt(h, line); } \
    __attribute__((unused)) static ISK_NORETURN void P##_fault(isk_hdr *h, int code, const char *message) \
    { BEFORE(h); (TABLE)->fault(h, code, message); } \
    __attribute__((unused)) static ISK_NORETURN void P##_index_fault(isk_hdr *h, const char *storage, int64_t index, \
                                                                    uint64_t count) \
    { BEFORE(h); (TABLE)->index_fault(h, storage, index, count); } \
    __attribute__((unused)) static void P##_launch(isk_hdr *h, int accelerator, uint64_t word) \
    { BEFORE(h); (TABLE)->launch(h, accelerator, word); } \
    __attribute__((unused)) static void P##_invalidate_code(isk_hdr *h, uint64_t address) \
    { BEFORE(h); (TABLE)->invalidate_code(h, address); } \
    __attribute__((unused)) static void P##_port_write(isk_hdr *h, uint64_t port, uint64_t value) \
    { BEFORE(h); (TABLE)->port_write(h, port, value); } \
    __attribute__((unused)) static uint64_t P##_port_read(isk_hdr *h, uint64_t port) \
    { BEFORE(h); return (TABLE)->port_read(h, port); } \
    __attribute__((unused)) static void P##_trace(isk_hdr *h, const char *message) { BEFORE(h); (TABLE)->trace(h, message); } \
    __attribute__((unused)) static const char *P##_param(isk_hdr *h, const char *key) \
    { BEFORE(h); return (TABLE)->param(h, key); } \
    __attribute__((unused)) static int64_t P##_param_number(isk_hdr *h, const char *key) \
    { BEFORE(h); return (TABLE)->param_number(h, key); } \
    __attribute__((unused)) static void P##_schedule(isk_hdr *h, int issue, uint64_t gap, const isk_scheduler *own) \
    { BEFORE(h); (TABLE)->schedule(h, issue, gap, own); } \
    __attribute__((unused)) static void P##_exception(isk_hdr *h, int cause, const char *message) \
    { BEFORE(h); (TABLE)->exception(h, cause, message); } \
    __attribute__((unused)) static void P##_exit_context(isk_hdr *h, uint32_t id, int status, const char *message) \
    { BEFORE(h); (TABLE)->exit_context(h, id, status, message); } \
    __attribute__((unused)) static void P##_breakpoint(isk_hdr *h, const char *message) \
    { BEFORE(h); (TABLE)->breakpoint(h, message); } \
    __attribute__((unused)) static void P##_dma(isk_hdr *h, const char *what, uint64_t from, uint64_t to, uint64_t bytes) \
    { BEFORE(h); (TABLE)->dma(h, what, from, to, bytes); } \
    __attribute__((unused)) static int P##_bus_read(isk_hdr *h, uint64_t addr, int bytes, uint64_t *value) \
    { BEFORE(h); return (TABLE)->bus_read(h, addr, bytes, value); } \
    __attribute__((unused)) static int P##_bus_write(isk_hdr *h, uint64_t addr, int bytes, uint64_t value) \
    { BEFORE(h); return (TABLE)->bus_write(h, addr, bytes, value); } \
    __attribute__((unused)) static void P##_read(isk_hdr *h, size_t storage, int64_t first, uint64_t n) \
    { BEFORE(h); (TABLE)->read(h, storage, first, n); } \
    __attribute__((unused)) static void P##_promise_end(isk_hdr *h, uint64_t clocks) \
    { BEFORE(h); (TABLE)->promise_end(h, clocks); }
/* The table of them all. */
#define ISK_WRAPPED_OPS(P) { \
    .boundary = P##_boundary, .write = P##_write, .use_resources = P##_use_resources, .interrupt = P##_interrupt, \
    .fault = P##_fault, .index_fault = P##_index_fault, .launch = P##_launch, .invalidate_code = P##_invalidate_code, \
    .port_write = P##_port_write, .port_read = P##_port_read, .trace = P##_trace, .param = P##_param, \
    .param_number = P##_param_number, .schedule = P##_schedule, .exception = P##_exception, \
    .exit_context = P##_exit_context, .breakpoint = P##_breakpoint, .dma = P##_dma, .bus_read = P##_bus_read, \
    .bus_write = P##_bus_write, .read = P##_read, .promise_end = P##_promise_end }
extern const struct isk_engine_ops isk_engine_ops;
/* clock.c: a fast loop that stores the clock in its instance's header only (issue.c's steady
 * round, clock.c's slotless loop) runs with this table in place of the plain one: each entry
 * first brings sys->clock, which the engine's services read, up to date from h->clock. While it
 * is in, that header's clock runs ahead of the system's: isk_bring_clock brings it (a signal
 * handler, a fault, a loop's exit), isk_live_clock reads it from another thread (the watchdog,
 * isk_request_stop). */
extern const struct isk_engine_ops isk_engine_ops_clocked;
void isk_bring_clock(isk_system *sys);
uint64_t isk_live_clock(const isk_system *sys);
/* The same, with the ops->read of an instance whose reads are watched (isk_watch_reads). */
extern const struct isk_engine_ops isk_engine_ops_reads;
void isk_decode_miss(isk_hdr *h, const int64_t *op);
/* The entry of `word` for instruction set iset of inst's model; false: no format accepts it. */
bool isk_decode_word(const isk_inst *inst, uint32_t iset, uint64_t word, isk_decoded *d);

/* memory.c: storages of ISK_ON_DEMAND_BYTES or more are mapped on demand (untouched pages cost
 * nothing); decode caches cost the pages decoded and share decoded programs (docs/engine.md). */
#define ISK_ON_DEMAND_BYTES ((size_t)64 << 10)
void *isk_storage_alloc(size_t bytes);     /* zeroed */
void isk_storage_free(void *p, size_t bytes);
/* Zero `bytes` at p inside a storage of storage_bytes: an on-demand storage's whole pages go
 * back to the kernel (zero again, and free) instead of being written. */
void isk_storage_zero(void *p, size_t bytes, size_t storage_bytes);
void isk_dcache_new(isk_inst *inst);       /* inst->ncode set: every entry a miss */
void isk_dcache_clear(isk_inst *inst);     /* every entry a miss again (a reset) */
void isk_dcache_free(isk_inst *inst);
/* At the first decode after a reset: map the decoded image of the code memory's words, shared
 * with every instance that runs them (made when a second instance runs them; the first one
 * decodes on its own). */
void isk_dcache_share(isk_inst *inst);
/* The image inst's cache maps (NULL: its own entries only); for tests. */
const void *isk_dcache_shared(const isk_inst *inst);
void isk_flush_group_writes(isk_system *sys, isk_inst *p);
/* Leave the behaviour running now for the live clock loop (its slot or context stays stopped). */
ISK_NORETURN void isk_abandon_behaviour(isk_system *sys);

/* guard.c: crashes in model code and the watchdog around one run (isk_step/isk_run).
 * isk_guard_enter returns the previous running system of this thread, for isk_guard_leave. */
isk_system *isk_guard_enter(isk_system *sys);
void isk_guard_leave(isk_system *sys, isk_system *previous);
/* In isk_clock_run after a behaviour was abandoned by a signal: report it (on a normal stack). */
void isk_guard_report(isk_system *sys);
void isk_guard_free(isk_system *sys);

/* system.c */
void isk_report(isk_system *sys, isk_severity sev, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A parameter as the model reads it (GET_PARAM, PARAM_VALUE); reading one it does not declare
 * (or the number of a text) is reported and gives 0 (NULL). */
int64_t isk_read_param_number(isk_inst *inst, const char *key);
const char *isk_read_param(isk_inst *inst, const char *key);
/* "GRF[1] (GR1)", or "acc.GRF[1] (GR1)" when qualified with the instance's name. */
void isk_describe_cell(const isk_inst *inst, const char *storage, uint64_t index, bool qualified, char *out,
                       size_t cap);
void isk_describe_actor(const isk_inst *inst, int slot, char *out, size_t cap);
/* clock.c: "clock 12, acc0 slot 1 (MAC_LREG_GREG)" or "clock 12, dpu thread 3, pc 0x1a": who
 * acts now in inst, for reports. */
void isk_describe_where(isk_system *sys, isk_inst *inst, char *out, size_t cap);
/* The slotless loop's running command written into slot 0 (its entry, word, launch clock), for
 * whatever reads the running slot: a report, an op that asks whether the command is inert. */
void isk_describe_queued(isk_system *sys);
static inline uint64_t isk_cell_read_raw(const void *cell, int bytes)
{
    switch (bytes) {
    case 1: return *(const uint8_t *)cell;
    case 2: return *(const uint16_t *)cell;
    case 4: return *(const uint32_t *)cell;
    default: return *(const uint64_t *)cell;
    }
}

static inline void isk_cell_write_raw(void *cell, int bytes, int64_t value)
{
    switch (bytes) {
    case 1: *(uint8_t *)cell = (uint8_t)value; break;
    case 2: *(uint16_t *)cell = (uint16_t)value; break;
    case 4: *(uint32_t *)cell = (uint32_t)value; break;
    default: *(uint64_t *)cell = (uint64_t)value; break;
    }
}
void isk_invalidate_code(isk_inst *inst, uint64_t address);
/* Which storage and index a cell address belongs to; false if none of inst's. */
bool isk_cell_location(const isk_inst *inst, const void *cell, int *storage, uint64_t *index);

/* bus.c: a processor's mappings (isk_map_storage) and the BUS_READ/BUS_WRITE operations. */
int isk_op_bus_read(isk_hdr *h, uint64_t addr, int bytes, uint64_t *value);
int isk_op_bus_write(isk_hdr *h, uint64_t addr, int bytes, uint64_t value);

/* events.c: deliver an event of the current clock to its subscribers. */
void isk_emit(isk_system *sys, isk_event *ev);
/* STORE events for the cells of inst's watched storages that changed since last reported. */
void isk_report_changes(isk_system *sys, isk_inst *inst);
/* ops->read while reads of inst are watched: a LOAD event if storage (an offset in the state)
 * is one of them. */
void isk_report_read(isk_inst *inst, size_t storage, int64_t first, uint64_t n);
static inline bool isk_listening(const isk_system *sys, isk_event_kind kind)
{
    return __builtin_expect((sys->listening >> kind) & 1, 0);
}

#endif
