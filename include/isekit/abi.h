/* isekit model ABI: what the engine and a compiled model share. The instance header every
 * model state begins with, the engine's services reached through it, the declarations a
 * description hands the builder and the entry point a model exports. A model is written with
 * the macros of isekit/model.h, which compile to these; an embedding program (isekit/sim.h) sees
 * these types without those macros. */
#ifndef ISEKIT_ABI_H
#define ISEKIT_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever the layout of isk_hdr, the ops tables or the declaration structs change
 * (tests/engine/test_abi.c records each version's layout and fails on a change without a new
 * version); the engine refuses a model compiled against another version. */
#define ISK_ABI_VERSION 24

/* Most operands an instruction format may have (fields passed to a behaviour). */
#define ISK_MAX_OPS 6
/* Largest write latency a storage may declare, in clocks. */
#define ISK_MAX_LATENCY 63

#if defined(__GNUC__) || defined(__clang__)
#define ISK_LIKELY(x) __builtin_expect(!!(x), 1)
#define ISK_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define ISK_INLINE static inline __attribute__((always_inline))
#define ISK_NORETURN __attribute__((noreturn))
#define ISK_NOINLINE __attribute__((noinline))   /* a cold path kept out of the hot behaviour */
#else
#define ISK_LIKELY(x) (x)
#define ISK_UNLIKELY(x) (x)
#define ISK_INLINE static inline
#define ISK_NORETURN
#define ISK_NOINLINE
#endif

enum isk_storage_kind { ISK_MEMORY, ISK_REGFILE, ISK_REGISTER, ISK_CODE_MEMORY };

typedef struct isk_hdr isk_hdr;

/* Processor models: one hardware context (thread, tasklet, worker). The engine owns the array. */
enum isk_context_state {
    ISK_CTX_STOPPED = 0,   /* not started, or stopped itself; START_CONTEXT revives it */
    ISK_CTX_RUNNING,       /* may issue from ready_at on */
    ISK_CTX_BLOCKED,       /* waits until ready_at (e.g. a DMA), then runs again */
    ISK_CTX_SLEEPING,      /* waits for WAKE_CONTEXT or one of its wake_lines */
    ISK_CTX_FAULTED,       /* stopped by a fault */
    ISK_CTX_EXITED         /* stopped by an exception with exit_status (EXIT_CONTEXT) */
};
typedef struct isk_context {
    uint64_t pc;
    /* ready_at, last_issue and insns are exact between runs and through isk_context_of (also
     * from a handler); a fast loop brings them up to date when it stops (the revolver's steady
     * round derives them from its clocks), so a behaviour must not read them through
     * CONTEXT_OF (no model does): it reads the live isk_hdr.issued, clock, pc and context. */
    uint64_t ready_at;     /* first clock at which it may issue again */
    uint64_t last_issue;   /* clock of its last issue */
    uint64_t insns;        /* instructions issued (both of a group) */
    uint64_t blocked;      /* clocks spent BLOCKED (statistics) */
    uint32_t state;
    uint32_t user;         /* free for the model */
    uint32_t iset;         /* the instruction set it decodes with (SET_ISET) */
    uint32_t wake_lines;   /* interrupt lines that wake it while SLEEPING (default: all) */
    int32_t exit_status;   /* ISK_CTX_EXITED: the status EXIT_CONTEXT gave */
    uint32_t spare;
} isk_context;

/* Causes of the exceptions the engine raises itself (RAISE takes a model's own, >= 16). A model
 * that declares ON_EXCEPTION handles them; without a handler each is a fault. */
enum isk_exception_cause {
    ISK_EXC_ILLEGAL = 1,   /* no format of the context's instruction set accepts the word */
    ISK_EXC_FETCH,         /* the PC is outside the code memory */
    ISK_EXC_GROUP,         /* an issue group that is not aligned, or runs past the code memory */
    ISK_EXC_MODEL = 16     /* the first cause free for models */
};

/* Processor models: the issue policy. A scheduler decides which context issues in a clock and
 * what an issue costs; the engine's one issue loop calls it (inlined for the built-in ones,
 * through these pointers for a model's own). Its state is an isk_sched the engine owns. */
typedef struct isk_sched isk_sched;
struct isk_decoded;       /* below: a decode cache's entry */
typedef struct isk_scheduler {
    const char *name;
    /* The context that issues in `clock`, or -1 if none may. */
    int (*pick)(isk_sched *q, uint64_t clock);
    /* Context `id` issued in `clock`: record what the policy needs (e.g. the context's ready_at)
     * and return the first clock at which the processor may issue again (binding until the
     * next reset or SCHEDULE: the engine neither picks nor counts idle clocks before it, in
     * any run, on any path). */
    uint64_t (*issued)(isk_sched *q, uint32_t id, uint64_t clock);
    /* pick found nothing in `clock`: the first later clock at which it may find a context, or
     * UINT64_MAX if none until a context changes state. */
    uint64_t (*next)(isk_sched *q, uint64_t clock);
    /* Contexts changed state (started, stopped, woken, blocked): refresh a cached view (NULL:
     * none; the engine renews isk_sched.running itself). */
    void (*changed)(isk_sched *q);
    int idle_counts;       /* clocks without an issue count as the processor's idle clocks */
    /* Optional (NULL: the engine's loop does it): issue a stretch in the engine's fast loop
     * itself, saving a call and the loop's work per issue. Called in a clock < limit for which
     * q->next_pick is a context (>= 0). For each issue, while clock < limit, it takes
     * id = q->next_pick and returns `clock` at once if id < 0 or the context's pc >= ncode;
     * otherwise it does what the engine's loop would: the context's state from BLOCKED to
     * RUNNING; h->context = id, h->pc = pc, h->next_pc = pc + 1, h->clock = *sys_clock =
     * clock; dcache[pc].fn(h, dcache[pc].op); the context's last_issue = clock and insns + 1,
     * h->issued + 1; then its own `issued` (which sets next_pick) and, unless h->attention,
     * the context's pc = h->next_pc and clock = what `issued` returned. On attention it sets
     * *asked = id and returns what `issued` returned (the engine settles the rest: the pc, the
     * context's ready_at); otherwise *asked = -1 and it returns the clock it stopped at (which
     * may be past limit). It need not look at h->attention before the first issue. Where it
     * runs a behaviour's body inline instead of its fn (as PROCESSOR .round may), it stores, of
     * h->pc, h->next_pc and h->clock, only what that body may read (a fault reports the PC and
     * the clock, a call links the PC, a jump changes NEXT_PC), but *sys_clock every issue (the
     * watchdog and stop requests read it) and all three where it returns: on attention and at
     * its end they are the last issue's, with h->next_pc its next PC. As no inlined body asks
     * for attention, it may look at h->attention only after a call through fn and at least
     * every few thousand clocks (a stop request from another thread), ending then as at the
     * limit (*asked = -1; the engine sees the attention). */
    uint64_t (*run)(isk_sched *q, const struct isk_decoded *dcache, uint64_t ncode, uint64_t clock,
                    uint64_t limit, uint64_t *sys_clock, int *asked);
} isk_scheduler;
struct isk_sched {
    const isk_scheduler *policy;
    isk_hdr *h;            /* the processor, for a model's scheduler: (struct isk_state *)q->h */
    isk_context *contexts;
    uint32_t ncontexts;
    uint32_t cursor;       /* round robin: the context to look at first */
    uint64_t gap;          /* CPI: clocks per instruction; REVOLVER: a context's issue distance */
    uint64_t running;      /* [engine] the contexts RUNNING or BLOCKED, renewed before `changed` */
    uint64_t word[4];      /* free for a model's scheduler */
    /* A model's `issued` may leave the pick of the clock it returns, saving the engine's fast
     * loop the call of `pick` there: the context its pick would return in that clock, or -1
     * (none: the engine calls pick). A scheduler that leaves picks sets it in every call of
     * `issued`; others leave it alone. The run may end before that clock, so a pick's effects
     * on the scheduler's state (e.g. the cursor) are left to the next `issued`, which knows
     * who issued. The engine drops it after an instruction that asked for attention and
     * whenever the contexts change; the general path ignores it (tests/engine/test_next_pick.c). */
    int32_t next_pick;
};

/* The engine's services, reached through the instance header so that a model compiled into a
 * shared object needs no symbols from the program that loads it. Models use the macros below. */
struct isk_engine_ops {
    void (*boundary)(isk_hdr *h);     /* a clock boundary is pending: suspend until the next clock */
    /* A write the engine must see: latency >= 1, code memory, or CREW checking on. `how` is
     * latency | ISK_WRITE_BYTES(bytes) | ISK_WRITE_CODE. */
    void (*write)(isk_hdr *h, void *cell, int64_t value, unsigned how);
    void (*use_resources)(isk_hdr *h, uint64_t mask);
    void (*interrupt)(isk_hdr *h, int line);
    ISK_NORETURN void (*fault)(isk_hdr *h, int code, const char *message);
    ISK_NORETURN void (*index_fault)(isk_hdr *h, const char *storage, int64_t index, uint64_t count);
    void (*launch)(isk_hdr *h, int accelerator, uint64_t word);
    void (*invalidate_code)(isk_hdr *h, uint64_t address);
    void (*port_write)(isk_hdr *h, uint64_t port, uint64_t value);
    uint64_t (*port_read)(isk_hdr *h, uint64_t port);
    void (*trace)(isk_hdr *h, const char *message);
    /* A parameter's value: its text (NULL if the model declares no such parameter), and its
     * number (an integer, an enumeration's index, a boolean's 0 or 1). */
    const char *(*param)(isk_hdr *h, const char *key);
    int64_t (*param_number)(isk_hdr *h, const char *key);
    /* Processors: choose the issue policy (ISK_ISSUE_*, `gap` its CPI or distance; `own` for
     * ISK_ISSUE_MODEL), e.g. from a parameter at reset. */
    void (*schedule)(isk_hdr *h, int issue, uint64_t gap, const isk_scheduler *own);
    /* An architectural exception of the issuing context: the model's handler runs (or, without
     * one, it is a fault). Returns to the behaviour, which should return at once. */
    void (*exception)(isk_hdr *h, int cause, const char *message);
    /* Stop only context `id` with an exit status, reported with its PC and the clock. */
    void (*exit_context)(isk_hdr *h, uint32_t id, int status, const char *message);
    /* Stop the run after this instruction, resumably (a bkp instruction): isk_run returns
     * ISK_BREAK and continues from there when called again. */
    void (*breakpoint)(isk_hdr *h, const char *message);
    /* A transfer the model made (a DMA): a DMA event for subscribers, nothing otherwise. */
    void (*dma)(isk_hdr *h, const char *what, uint64_t from, uint64_t to, uint64_t bytes);
    /* Processors: a little-endian access of 1..8 bytes at a byte address outside the model's
     * own storages, through the storages of other instances the system maps there
     * (isk_map_storage). Non-zero if every byte is mapped; otherwise nothing is read or written
     * (*value is 0) and the model raises its own access fault. */
    int (*bus_read)(isk_hdr *h, uint64_t addr, int bytes, uint64_t *value);
    int (*bus_write)(isk_hdr *h, uint64_t addr, int bytes, uint64_t value);
    /* Called by GET and NOTE_READ only while h->trap is non-zero: takes a pending clock boundary
     * (ISK_TRAP_BOUNDARY), then reports a read of cells first..first+n-1 of the storage at
     * `storage` (its offset in the state) if someone watches reads (ISK_TRAP_READS). */
    void (*read)(isk_hdr *h, size_t storage, int64_t first, uint64_t n);
    /* A command declared .interrupts_at_end, in its first clock: it raises its interrupt in its
     * `clocks`-th clock, this one being the first (PromiseEnd; 0, from PromiseEnd of less than 1, is
     * a fault). */
    void (*promise_end)(isk_hdr *h, uint64_t clocks);
};
/* The bits of isk_hdr.trap. Both make the storage accesses of a behaviour leave their fast path,
 * which tests only that the word is zero. */
#define ISK_TRAP_BOUNDARY 1u   /* FinishCycle() ran: the next access suspends until the next clock */
#define ISK_TRAP_READS 2u      /* reads of this instance are watched (isk_watch_reads) */

/* The writes of the current clock to latency-1 cells, in order, committed at the clock's end
 * (one log per system, so that shared cells meet in it). A command's first such write in a
 * clock is appended by SET itself (isk_store, into isk_hdr.inline_entry: the log is empty, so
 * no CREW conflict is possible); every other goes through ops->write, which scans the log. */
typedef struct isk_write_entry {
    void *cell;
    int64_t value;
    void *inst;               /* the writer's instance (isk_hdr.engine), for a conflict's message */
    int32_t slot;             /* the writer's slot, -1: a processor */
    uint32_t how;             /* as ops->write has it; ISK_WRITE_INLINE: appended by SET */
} isk_write_entry;
typedef struct isk_write_log { isk_write_entry *data; size_t len, cap; } isk_write_log;   /* cap >= 1 */
/* isk_hdr.checking of a command in slot s: ISK_CHECKING_SLOT + s. */
#define ISK_CHECKING_SLOT 2u

/* The first member of every model's state. Fields marked [engine] are maintained by the engine;
 * a model reads them through the macros of this header. */
struct isk_hdr {
    uint32_t trap;            /* [engine] non-zero: the next storage access must call ops->boundary
                                 (GET and NOTE_READ: ops->read); ISK_TRAP_* bits */
    uint32_t checking;        /* [engine] non-zero: every write goes through ops->write (the CREW log,
                                 an issue group's buffer) or the write log below; 1: an issue
                                 group, ISK_CHECKING_SLOT + s: a command in slot s */
    uint64_t clock;           /* [engine] the current clock */
    uint64_t pc, next_pc;     /* [engine] processors: address of this instruction / of the next one */
    uint32_t context;         /* [engine] processors: the context issuing now */
    uint32_t ncontexts;       /* [engine] */
    isk_context *contexts;    /* [engine] */
    const struct isk_engine_ops *ops;  /* [engine] */
    void *engine;             /* [engine] private */
    void *user;               /* free for the embedding program */
    /* Set by anything an instruction does that the engine's fast loops must look at before the
     * next instruction: a context started, stopped, woken or blocked, a write queued for its
     * latency, a launch, a port access. Cleared by the engine. */
    uint32_t attention;
    uint32_t lines;           /* [engine] processors: pending interrupt lines (ACK_LINE clears one) */
    /* [engine] processors: instructions issued before this one, live, are
     * issued + issued_per_clock * clock (INSTRUCTIONS_ISSUED): a steady round issues one
     * instruction per clock, so it sets issued_per_clock to 1 and issued to a bias (its start
     * count less its start clock) rather than adding one per issue; 0 elsewhere */
    uint64_t issued, issued_per_clock;
    isk_write_log *wlog;      /* [engine] the system's log of this clock's writes to latency-1 cells */
    /* [engine] non-NULL only while a command runs and the log is empty: the log's first entry,
     * its writer (inst, slot) filled in, where SET puts its first latency-1 write (then clears
     * this and sets the log's length to 1); NULL: every latency-1 write goes through ops->write.
     * A model may call ops->write itself at any time: a latency-1 write made so clears this (it
     * takes the log's first entry), so that a later SET appends behind it. */
    isk_write_entry *inline_entry;
};

/* The live count of a processor's issues before the current one (isk_hdr.issued). */
ISK_INLINE uint64_t isk_issued(const isk_hdr *h) { return h->issued + h->issued_per_clock * h->clock; }

typedef void (*isk_behaviour_fn)(isk_hdr *h, const int64_t *op);
typedef struct isk_behaviour_info {
    const char *name;
    const char *params;     /* the parameter names as written, comma separated */
    int nparams;
    isk_behaviour_fn fn;
} isk_behaviour_info;

typedef struct isk_builder isk_builder;

/* How tools print and read a storage's cells (model.h: FLOAT(32) ...). A display property only:
 * the bits, GET and SET are the same as for UINT of the width. F16X2 is a 32-bit cell holding
 * two binary16 halves, the low half first. */
enum isk_display { ISK_DISPLAY_INT, ISK_DISPLAY_F16, ISK_DISPLAY_F32, ISK_DISPLAY_F64, ISK_DISPLAY_F16X2 };

typedef struct isk_storage_decl {
    const char *name;        /* the member name, e.g. "GRF" */
    const char *title;       /* the debugger's title, e.g. "General Registers" */
    int kind, sign, width, latency, frac, cell_bytes;
    uint64_t count;
    size_t offset;           /* of the member in struct isk_state */
    int shared;              /* bound by name to the same storage of other instances */
    int seq;                 /* the declaration's rank in STATE_BEGIN..STATE_END (1, 2, ...), 0 = unknown */
    int line;                /* the declaration's line in the state's file, 0 = unknown */
    int display;             /* enum isk_display: how tools show a cell (model.h FLOAT) */
    /* PRIVATE_MEMORY/_REG/_REGFILE_BEGIN: no processor reads or writes it raw (never shared,
     * never mapped on a bus: isk_map_storage refuses it), so a processor may run ahead of the
     * inert commands that use it (docs/model-api.md "Inert commands"). */
    int private_storage;
} isk_storage_decl;

/* How operands are written in assembly. Referenced by syntax templates as {FIELD:kind}. */
enum isk_kind_type {
    ISK_KIND_INT,            /* an integer, optionally a symbol or expression */
    ISK_KIND_NAMES,          /* a table of names: registers, conditions, flags */
    ISK_KIND_PCREL,          /* a code target encoded relative to the instruction's address */
    ISK_KIND_ABS             /* a code or data address encoded as is */
};
typedef struct isk_kind_decl {
    const char *name;
    int type;                /* enum isk_kind_type */
    /* NAMES: space-separated items "name=value" or ranges "r0..r23=0" (names r0..r23 get
     * values 0..23) or stepped ranges "d0..d22/2=0" (d0, d2, ... get 0, 2, ...). A value's
     * first name is the one printed. Matching ignores case unless `exact_case`. */
    const char *names;
    int exact_case;
    /* INT, PCREL, ABS: the encoded field holds value >> scale (the value must be a multiple of
     * 1 << scale). The accepted range is [min, max] if min < max, else what the field holds. */
    int scale;
    int64_t min, max;
    int hex;                 /* print in hexadecimal */
    int64_t pc_bias;         /* PCREL: field = (target - (PC + pc_bias)) >> scale */
    const char *reloc;       /* relocation the assembler emits for symbolic values */
} isk_kind_decl;

/* INSTRUCTION .solo: the value the format fixes the group bit to, plus one (0: not solo). */
enum isk_solo { ISK_SOLO = 1, ISK_SOLO_BIT_SET = 2 };

/* INSTRUCTION .flow: how an instruction moves between routines, for a debugger's call stack
 * (backtrace, finish). A CALL that is taken (the context's next issue is not the following
 * instruction) enters a routine; a RETURN leaves one when the context's next issue lands on
 * the return address of a routine it is in. Conditional calls and returns carry the mark too. */
enum isk_flow { ISK_FLOW_NONE = 0, ISK_FLOW_CALL = 1, ISK_FLOW_RETURN = 2 };

/* Options of INSTRUCTION after the format, the behaviour and the syntax. */
typedef struct isk_insn_decl {
    const char *format;      /* the article's format string, e.g. "11-**-0000-0000-0001-LREG-GREG" */
    const isk_behaviour_info *behaviour;
    const char *syntax;      /* assembly template, e.g. "move gr{GREG:gr}, lr{LREG:lr}" */
    /* Explicit field maps, ';'-separated, in the notation name{H:L}=h:l name{b}=d (value bits
     * H..L come from word bits h..l); a name may carry flags at its first mention:
     * "imm:s{7:4}=19:16 imm{3:0}=23:20" (s = signed, <<N = scaled by 2^N, n = negated: the operand
     * is minus the field, for sugar such as sub $d, $s, imm = add $d, $s, -imm). The letters of the
     * format then only mark which bits are operand bits. Also "name:s" alone flags a field of
     * the format string. */
    const char *fields;
    int priority;            /* overlapping formats: the higher priority decodes first */
    /* 1 = an alias (syntactic sugar) of another instruction with the same behaviour: its format
     * pins some operand bits of the base format. The simulator never decodes to an alias; the
     * assembler accepts it, and the disassembler prints it whenever a word matches it. */
    int alias;
    int iset;                /* the processor's instruction set it belongs to (0 = the first) */
    /* Relocations the assembler emits for symbolic operands, "imm=R_DPU_IMM24 pc=R_DPU_PC";
     * an operand not listed uses its kind's `reloc`. */
    const char *relocs;
    /* Issues alone, never in an issue group (PROCESSOR .group_bit); the assembler refuses it
     * inside `{ }`. ISK_SOLO: the format's group bit is a fixed 0, so a word with the bit set
     * does not decode as it. ISK_SOLO_BIT_SET: the bit is a fixed 1, and a word that decodes
     * as this format is not a group's head although it has the bit (the IPU's sendpicp). */
    int solo;
    /* 1..group_words: the member of an issue group the instruction must be (the IPU's main
     * pipe first, aux second); the assembler refuses it elsewhere in `{ }`. 0: any. */
    int group_slot;
    int flow;                /* enum isk_flow: a call, a return or neither (0) */
    /* Accelerator commands: the command neither faults, stops the run, conflicts (CREW,
     * resources) nor interrupts, and touches only PRIVATE storage, so a processor may run ahead
     * of it (docs/model-api.md "Inert commands"). A breach is a model error. */
    int inert;
    /* Accelerator commands: inert except one interrupt, raised in the clock the command promised
     * in its first (PromiseEnd, model.h): a processor runs ahead of it up to that clock. An
     * interrupt in any other clock after the promise is a model error. */
    int interrupts_at_end;
} isk_insn_decl;

/* Processor models: how instructions are fetched and issued. */
enum isk_issue_policy {
    ISK_ISSUE_CPI,           /* one context; an instruction every `cpi` clocks */
    ISK_ISSUE_REVOLVER,      /* round robin over ready contexts; one context issues at most
                                every `distance` clocks; one instruction per clock in all */
    ISK_ISSUE_BARREL,        /* context i issues in clocks i, i+n, i+2n, ... (n = contexts) */
    ISK_ISSUE_MODEL          /* the model's own isk_scheduler (.scheduler) */
};
/* The decode cache's entry of one code address: the behaviour and its operand fields
 * (pattern: the index of the model's INSTRUCTION, -1 while the word is not decoded, whose fn
 * then decodes it). A processor's own burst or stretch (below) reads it. `spare` is what the
 * model's PROCESSOR .entry_spare computes when the engine decodes the entry, 0 without one or
 * while the entry is not decoded (invalidated); a burst may also keep what it derives there at
 * run time, but that write copies a page of entries that instances running one program would
 * otherwise share. */
typedef struct isk_decoded {
    isk_behaviour_fn fn;
    int32_t pattern;
    uint32_t spare;
    int64_t op[ISK_MAX_OPS];
} isk_decoded;

/* One issue of a model scheduler's own stretch (isk_scheduler.run) as the engine's loop makes
 * it: context `id` (c) issues the instruction at pc in `clock`; the caller then calls its own
 * `issued` and looks at h->attention. */
ISK_INLINE void isk_sched_issue(isk_hdr *h, isk_context *c, uint32_t id, uint64_t pc, const isk_decoded *dcache,
                                uint64_t clock, uint64_t *sys_clock)
{
    if (c->state == ISK_CTX_BLOCKED) c->state = ISK_CTX_RUNNING;
    h->context = id;
    h->pc = pc;
    h->next_pc = pc + 1;
    h->clock = *sys_clock = clock;
    dcache[pc].fn(h, dcache[pc].op);
    c->last_issue = clock;
    c->insns++;
    h->issued++;
}

/* A processor's own fast loop (PROCESSOR .burst), for ISK_ISSUE_CPI with one context while it
 * runs alone: it issues the context's instructions from h->next_pc on, one every `cpi` clocks
 * from clock `after`, while after < limit and the PC is below ncode, until an instruction sets
 * h->attention; each instruction's entry is dcache[pc]. Before it calls an entry's fn it makes
 * *clock (the system's clock), h->pc, h->next_pc (pc + 1), h->clock and h->issued what the
 * engine's loop would (the behaviours it runs inline need none of them); between calls it moves
 * *clock on and looks at h->attention at least every few thousand instructions (the watchdog
 * and stop requests from other threads). It returns the clock after its last issue, with h->next_pc the next PC and
 * h->issued counting every issue. What it runs must be what the entries' fn would do. */
typedef uint64_t isk_burst_fn(isk_hdr *h, const isk_decoded *dcache, uint64_t ncode, uint64_t after,
                              uint64_t limit, uint64_t *clock);

/* A processor's own steady round (PROCESSOR .round), for ISK_ISSUE_REVOLVER: what the engine's
 * steady round does (issue.c, circle_steady: at least `distance` live contexts, each running and
 * ready at its turn, so that one issues at every clock) between its start and its settling,
 * while the instance's ops are the engine's own. From `clock` on, one issue per clock while
 * clock < r->limit: context r->id first, then r->after[r->id], and so on round the circle of the
 * live contexts. Before an issue it ends (ISK_ROUND_OUTSIDE) if the context's pc >= ncode;
 * otherwise it makes h->context, h->pc, h->next_pc (pc + 1) and h->clock what the engine's loop
 * would before it calls the entry's fn (what it runs inline needs h->context, h->pc and h->clock,
 * which a fault reports, and h->next_pc if it may jump), then ends (ISK_ROUND_ASKED) if
 * h->attention, leaving the context's pc alone; else the context's pc = h->next_pc. It counts no
 * issue (the engine derives the counts from the clocks). It looks at h->attention after every
 * fn it calls and at least every few thousand instructions (a stop request from another
 * thread); seen between two issues, it ends as at the limit (ISK_ROUND_LIMIT). On return r->id
 * is the context that ended it, or the next to issue, r->end says why, h->clock is the last
 * issue's and the result is the clock after it. What it runs must be what the entries' fn
 * would do. */
enum isk_round_end { ISK_ROUND_LIMIT, ISK_ROUND_OUTSIDE, ISK_ROUND_ASKED };
typedef struct isk_round {
    isk_context *contexts;
    const uint64_t *after;            /* the live context after each one round the circle */
    isk_context *const *after_ctx;    /* &contexts[after[i]] */
    uint64_t limit;
    uint32_t id;                      /* in: the first to issue; out: see above */
    int end;                          /* out: enum isk_round_end */
} isk_round;
typedef uint64_t isk_round_fn(isk_hdr *h, const isk_decoded *dcache, uint64_t ncode, uint64_t clock, isk_round *r);

typedef struct isk_processor_decl {
    const char *code;        /* the code memory storage (DECLARE_CODE_MEMORY) */
    int contexts;            /* hardware contexts (threads, 1..64); context 0 starts at reset_pc */
    int issue;               /* enum isk_issue_policy */
    int cpi;                 /* ISK_ISSUE_CPI: clocks per instruction */
    int distance;            /* ISK_ISSUE_REVOLVER: minimum clocks between two issues of a context */
    uint64_t reset_pc;
    int code_bytes;          /* bytes one instruction occupies in an image (e.g. 8 for 48-bit words in 64-bit containers) */
    int pc_unit_bytes;       /* bytes per PC unit in assembly addresses (1 = byte addresses) */
    const isk_scheduler *scheduler;   /* ISK_ISSUE_MODEL */
    int isets;               /* instruction sets (INSTRUCTION .iset = 0..isets-1); 0 means 1 */
    /* Issue groups: a word with bit `group_bit` set (group_bit > 0) issues together with the
     * next `group_words - 1` words, read before any of them writes; the group must start at a
     * PC that is a multiple of group_align words (0 means group_words; a divisor of it, e.g. 1
     * for the IPU's 4-byte aligned bundles). The bit is not part of any format. group_all = 1:
     * the assembler sets the bit on every word of a group, not only on its head (the engine
     * and the disassembler still take a group from its head). */
    int group_bit, group_words, group_all, group_align;
    isk_burst_fn *burst;     /* ISK_ISSUE_CPI, one context: the model's own fast loop (optional) */
    isk_round_fn *round;     /* ISK_ISSUE_REVOLVER: the model's own steady round (optional) */
    /* Optional: the `spare` word of a decode cache entry the engine has just decoded from
     * `word` (fn, pattern and op filled), wherever it decodes one: an instance's own decode
     * and a shared program's whole image. It must depend on the word alone (instances running
     * one program share their entries); what a burst or stretch would otherwise derive per
     * issue or keep at run time. 0 means nothing kept. */
    uint32_t (*entry_spare)(const isk_decoded *entry, uint64_t word);
} isk_processor_decl;

/* The toolchain's view of a processor: its object files, memory map and relocations. */
typedef struct isk_elf_decl {
    uint16_t machine;        /* e_machine */
    int elfclass;            /* 32 or 64 */
    int big_endian;
    uint32_t flags;          /* e_flags of the objects and executables the toolchain writes */
    /* The ABI version inside e_flags: the linker refuses to mix objects whose versions differ,
     * the loader refuses executables of another version. abi_mask 0 = no version. */
    uint32_t abi_mask;
    int abi_shift;
} isk_elf_decl;

/* What a gdb remote stub (isekit debug --gdb) tells gdb about a processor: the architecture
 * gdb knows it as, and the registers of gdb's `g` packet in gdb's order. */
typedef struct isk_gdb_decl {
    const char *arch;        /* gdb's name, e.g. "riscv:rv32" (NULL: none; gdb must be told) */
    /* Space-separated, in gdb's register numbering: a storage or element name as the debugger
     * takes it ("X[3]", "ra", "ACC"), a range of cells "X[0..31]", or "pc" (the context's pc as
     * a byte address). Each may end in ":BYTES" (default: the cell's width in whole bytes; pc:
     * the ELF class's address size, else 4). */
    const char *registers;
    const char *feature;     /* a target.xml feature name (qXfer:features:read), e.g. "org.gnu.gdb.riscv.cpu"; NULL: no XML */
    uint64_t context_stride; /* banked registers: context c's cell is c * context_stride further on */
} isk_gdb_decl;

typedef struct isk_region_decl {
    const char *name;        /* e.g. "IRAM" */
    uint64_t base, size;     /* addresses in the ELF files, in bytes */
    const char *sections;    /* the sections the linker places here, glob patterns: ".text .text.*" */
    const char *storage;     /* the storage holding the region in the simulator, NULL if none */
    int code;                /* 1: the region holds instructions of proc.code_bytes bytes each */
} isk_region_decl;

typedef struct isk_reloc_decl {
    uint32_t type;           /* ELF r_type */
    const char *name;        /* e.g. "R_DPU_IMM24_PC" */
    int bytes;               /* size of the unit patched at r_offset, in the ELF's byte order */
    /* Where the value's bits go inside the unit, in the notation of INSTRUCTION .fields with one
     * name: "v:s{23:12}=11:0 v{11}=12 ..." (NULL = the whole unit). A value that does not fit
     * the fields (signed if flagged s) is a link error unless min < max says otherwise. */
    const char *fields;
    int pcrel;               /* the value is S + A - P instead of S + A */
    int shift;               /* the value must be a multiple of 1 << shift and is placed >> shift */
    int64_t min, max;        /* accepted range of the value before the shift, when min < max */
    /* Applied to S + A (and to P) before anything else, e.g. byte address -> instruction index. */
    uint64_t (*convert)(uint64_t address);
} isk_reloc_decl;

/* Model parameters: set per instance (isk_set_param, --param NAME=VALUE) before it runs. The
 * engine parses and checks every value, the default included, and refuses a bad one naming the
 * parameter and what it accepts. */
enum isk_param_type {
    ISK_PARAM_TEXT,          /* any text (PARAM_VALUE) */
    ISK_PARAM_INT,           /* an integer in [min, max], written as the one number parser reads
                                them (decimal, 0x, 0b, '_' separators) */
    ISK_PARAM_ENUM,          /* one of `words` (ignoring case); GET_PARAM is its index */
    ISK_PARAM_BOOL           /* yes/no, true/false, on/off, 1/0; GET_PARAM is 1 or 0 */
};
typedef struct isk_param_decl {
    const char *name;
    int type;                /* enum isk_param_type */
    const char *text;        /* TEXT, ENUM: the default */
    int64_t value;           /* INT, BOOL: the default */
    int64_t min, max;        /* INT: the accepted range */
    int pow2;                /* INT: only powers of two */
    int hex;                 /* INT: shown in hexadecimal */
    const char *words;       /* ENUM: the accepted words, space separated */
    const char *help;        /* one line for `isekit info`, NULL = none */
} isk_param_decl;

struct isk_builder_ops {
    void (*model)(isk_builder *b, const char *name, const char *title);
    void (*word_bits)(isk_builder *b, int bits);
    void (*slots)(isk_builder *b, int n);
    void (*storage)(isk_builder *b, const isk_storage_decl *d);
    void (*element)(isk_builder *b, uint64_t index, const char *name);   /* inside REGFILE_BEGIN/END */
    void (*end_group)(isk_builder *b);
    void (*resource)(isk_builder *b, uint64_t mask, const char *name);
    void (*kind)(isk_builder *b, const isk_kind_decl *d);
    void (*instruction)(isk_builder *b, const isk_insn_decl *d);
    void (*processor)(isk_builder *b, const isk_processor_decl *d);
    void (*param)(isk_builder *b, const isk_param_decl *d);
    void (*init)(isk_builder *b, void (*fn)(isk_hdr *h));
    void (*elf)(isk_builder *b, const isk_elf_decl *d);
    void (*region)(isk_builder *b, const isk_region_decl *d);
    void (*reloc)(isk_builder *b, const isk_reloc_decl *d);
    void (*elements)(isk_builder *b, const char *pattern);           /* inside REGFILE_BEGIN/END */
    void (*line)(isk_builder *b, int line);   /* the line of the description's next declaration */
    /* Processors: the handler of architectural exceptions (ON_EXCEPTION). */
    void (*exception_handler)(isk_builder *b, void (*fn)(isk_hdr *h, int cause, const char *message));
    /* Processors: what gdb needs (GDB_TARGET). */
    void (*gdb)(isk_builder *b, const isk_gdb_decl *d);
};
struct isk_builder {
    const struct isk_builder_ops *ops;
    void *engine;
};

/* What a model file exports: the engine looks up `isk_model_entry` in a dynamically loaded
 * model, and `isk_model_<name>` for a built-in one. */
struct isk_model_entry {
    int abi_version;
    const char *name;
    size_t state_size;
    void (*describe)(isk_builder *B);
    const char *file;            /* of the description (MODEL_BEGIN), NULL = unknown */
    const char *state_file;      /* of STATE_BEGIN, NULL = unknown */
    int state_line;              /* of STATE_BEGIN */
    int storages;                /* storages declared in the state; 0 = unknown, not checked */
};

/* What a cell of w bits (1 to 64) holds: v wrapped to w bits, sign-extended when sgn. Models
 * store so (SET, SEXT, ZEXT), the tools encode so. The portable form shifts no negative number. */
ISK_INLINE int64_t isk_wrap(int64_t v, int w, int sgn)
{
    if (w >= 64) return v;
    uint64_t m = (UINT64_C(1) << w) - 1, u = (uint64_t)v & m;
    if (!sgn) return (int64_t)u;
#if defined(__GNUC__) || defined(__clang__)
    /* the sign bit shifted to the top and back, arithmetically (both compilers define that and
     * the conversion): one sign extension, a single movsx for 8, 16 and 32 bits */
    return (int64_t)((uint64_t)v << (64 - w)) >> (64 - w);
#else
    const uint64_t s = UINT64_C(1) << (w - 1);
    return (u & s) ? -(int64_t)((~u & m) + 1) : (int64_t)u;
#endif
}

#ifdef __cplusplus
}
#endif
#endif
