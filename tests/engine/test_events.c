/* Issue groups and typed events on a small processor.
 *
 * Groups: a pair whose halves swap two registers (each reads before either writes), counted as
 * one issue; the same two instructions without the group bit copy instead; a group at an odd
 * address is the model's exception, unless the model declares .group_align = 1. Events: the
 * values a model wrote to a latency-0 and a latency-2 storage arrive as STORE events in the
 * order and clock they take effect, only for watched storages, and watching changes nothing in
 * the run; ISSUE events carry the engine's decoded entry; ports, DMA, notes, exceptions and context changes arrive as such. */
#define ISK_BUILTIN_MODEL 1
#include <string.h>

#include "check.h"
#include "encode.h"
#include "isekit/model.h"
#include "isekit/sim.h"

STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(16, 0), 64) ROM;
    DECLARE_REGISTERS_FILE(INT(16, 0), 4) R;        /* latency 0 */
    DECLARE_REGISTERS_FILE(INT(16, 2), 2) L;        /* latency 2 */
    DECLARE_MEMORY(INT(16, 0), 8) D;                /* never watched here */
    DECLARE_REGISTER(INT(16, 0)) CAUSE;
STATE_END

BEHAVIOUR(Ldi, d, imm)  { SET(R, d, imm); }
BEHAVIOUR(Mov, d, s)    { SET(R, d, GET(R, s)); }
BEHAVIOUR(Lset, d, imm) { SET(L, d, imm); }
BEHAVIOUR(Lget, d, s)   { SET(R, d, GET(L, s)); }
BEHAVIOUR(St, a, s)     { SET(D, a, GET(R, s)); }
BEHAVIOUR(Out, p, s)    { OUTPUT(p, GET(R, s)); }
BEHAVIOUR(Dma, n)       { DMA_EVENT("copy", 0x10, 0x20, n); TRACE("copied %d", (int)n); }
BEHAVIOUR(Halt)         { STOP_CONTEXT(CONTEXT); }
/* a write straight into the cells, as fast models do: no SET, still a change of R */
BEHAVIOUR(Poke, d, imm) { CELLS(R)[d] = (int16_t)imm; }

static void on_exception(isk_hdr *h, int cause, const char *message)
{
    struct isk_state *S = (struct isk_state *)(void *)h;
    (void)message;
    SET(CAUSE, cause);
    EXIT_CONTEXT(CONTEXT, 7, "exception");
}

/* Bit 15 announces a pair: the word and the next one issue together. `pairs` takes the default
 * alignment (a pair starts at an even PC), `loose_pairs` declares .group_align = 1. */
#define ANY_GROUP(format) "*-" format
#define PAIRS_MODEL(name, title, align)                                                                \
MODEL_BEGIN(name, title)                                                                                \
    WORD_BITS(16);                                                                                      \
    PROCESSOR(.code = "ROM", .contexts = 1, .group_bit = 15, .group_words = 2, .group_align = align);          \
    ON_EXCEPTION(on_exception);                                                                         \
    MEMORY(ROM, "code");                                                                                \
    REGFILE_BEGIN(R, "registers") REGISTERS("r%u"); REGFILE_END()                                       \
    REGFILE_BEGIN(L, "slow registers") REGISTERS("l%u"); REGFILE_END()                                  \
    MEMORY(D, "data");                                                                                  \
    REG(CAUSE, "cause");                                                                                \
    INSTRUCTION(ANY_GROUP("001-00dd-iiiiiiii"), Ldi, "ldi r{d}, {i}", .fields = "i:s");                 \
    INSTRUCTION(ANY_GROUP("010-0000-0000-dd-ss"), Mov, "mov r{d}, r{s}");                               \
    INSTRUCTION(ANY_GROUP("011-000d-iiiiiiii"), Lset, "lset l{d}, {i}", .fields = "i:s");               \
    INSTRUCTION(ANY_GROUP("011-1000-0000-dd-ss"), Lget, "lget r{d}, l{s}");                             \
    INSTRUCTION(ANY_GROUP("100-0000-0aaa-00ss"), St, "st {a}, r{s}");                                   \
    INSTRUCTION(ANY_GROUP("101-0000-pppp-00ss"), Out, "out {p}, r{s}");                                 \
    INSTRUCTION(ANY_GROUP("110-0000-nnnnnnnn"), Dma, "dma {n}");                                        \
    INSTRUCTION(ANY_GROUP("111-0000-0000-0000"), Halt, "halt");                                         \
    INSTRUCTION(ANY_GROUP("000-00dd-iiiiiiii"), Poke, "poke r{d}, {i}", .fields = "i:s");               \
    MODEL_END
PAIRS_MODEL(pairs, "a processor with pairs of instructions", 0)
PAIRS_MODEL(loose_pairs, "a processor with pairs at any PC", 1)

typedef struct cpu {
    isk_diag d;
    isk_diag_buffer out;
    isk_model *m;
    isk_system *sys;
    isk_inst *p;
} cpu;

/* program: one instruction per line; a line starting with '{' opens a group (its group bit) */
static void cpu_open_model(cpu *c, const struct isk_model_entry *model, const char *const *program)
{
    isk_diag_init(&c->d);
    isk_diag_capture(&c->d, &c->out);
    c->m = isk_model_from_entry(model, "test", &c->d);
    if (!c->m) {
        fprintf(stderr, "the test model does not load:\n%s", c->out.text);
        exit(1);
    }
    c->sys = isk_system_new(&(isk_system_options){ .diag = &c->d });
    c->p = isk_system_add(c->sys, c->m, "cpu");
    for (uint64_t pc = 0; program[pc]; pc++) {
        const char *text = program[pc];
        const bool head = text[0] == '{';
        uint64_t word = test_encode(c->m, text + head, pc) | (head ? 0x8000u : 0);
        isk_write(c->p, "ROM", pc, (int64_t)word);
    }
}

static void cpu_open(cpu *c, const char *const *program) { cpu_open_model(c, &isk_model_pairs, program); }

static void cpu_close(cpu *c)
{
    isk_system_free(c->sys);
    isk_model_release(c->m);
    isk_diag_buffer_free(&c->out);
}

static int64_t reg(cpu *c, const char *name)
{
    int64_t v = -999;
    isk_read(c->p, name, 0, &v);
    return v;
}

/* ---- issue groups ----------------------------------------------------------------------------- */

static void test_group_swaps(void)
{
    static const char *const grouped[] = { "ldi r0, 5", "ldi r1, 7", "{mov r0, r1", "mov r1, r0", "halt", NULL };
    static const char *const single[] = { "ldi r0, 5", "ldi r1, 7", "mov r0, r1", "mov r1, r0", "halt", NULL };
    cpu c;
    cpu_open(&c, grouped);
    CHECK_EQ(isk_run(c.sys, 1000), ISK_STOPPED);
    CHECK_EQ(reg(&c, "r0"), 7);                       /* swapped: both read before either wrote */
    CHECK_EQ(reg(&c, "r1"), 5);
    isk_stats st;
    isk_get_stats(c.sys, &st);
    CHECK_EQ(st.instructions, 5);                     /* five instructions ... */
    CHECK_EQ(st.clocks, 4);                           /* ... in four issues: the pair is one */
    CHECK_EQ(isk_context_of(c.p, 0)->insns, 5);
    CHECK_EQ(isk_context_of(c.p, 0)->pc, 4);          /* stopped at the halt after the pair */
    cpu_close(&c);

    cpu_open(&c, single);
    CHECK_EQ(isk_run(c.sys, 1000), ISK_STOPPED);
    CHECK_EQ(reg(&c, "r0"), 7);                       /* one after the other: a copy */
    CHECK_EQ(reg(&c, "r1"), 7);
    isk_get_stats(c.sys, &st);
    CHECK_EQ(st.clocks, 5);
    cpu_close(&c);
}

/* A latency-2 write in a group is not held back: it commits two clocks later either way. */
static void test_group_latency(void)
{
    static const char *const program[] = { "{lset l0, 9", "lget r0, l0", "lget r1, l0", "lget r2, l0", "halt", NULL };
    cpu c;
    cpu_open(&c, program);
    CHECK_EQ(isk_run(c.sys, 1000), ISK_STOPPED);
    CHECK_EQ(reg(&c, "r0"), 0);                       /* in the pair, clock 0: not yet */
    CHECK_EQ(reg(&c, "r1"), 0);                       /* clock 1: not yet */
    CHECK_EQ(reg(&c, "r2"), 9);                       /* clock 2: visible */
    cpu_close(&c);
}

typedef struct event_log {
    int n;
    isk_event ev[64];
    char text[64][96];
} event_log;

static void record(void *user, const isk_event *ev)
{
    event_log *log = user;
    if (log->n == 64) return;
    log->ev[log->n] = *ev;
    log->ev[log->n].operands = NULL;        /* valid only during the call */
    isk_event_text(ev, log->text[log->n], sizeof log->text[0]);
    log->n++;
}

static int find(const event_log *log, isk_event_kind kind, int from)
{
    for (int i = from; i < log->n; i++)
        if (log->ev[i].kind == kind) return i;
    return -1;
}

static void test_group_misaligned(void)
{
    static const char *const program[] = { "ldi r0, 1", "{mov r1, r0", "mov r2, r0", "halt", NULL };
    cpu c;
    cpu_open(&c, program);
    event_log log = { 0 };
    isk_subscribe(c.sys, ISK_EV_BIT(ISK_EV_EXCEPTION) | ISK_EV_BIT(ISK_EV_CONTEXT), record, &log);
    CHECK_EQ(isk_run(c.sys, 1000), ISK_STOPPED);
    CHECK_EQ(reg(&c, "cause"), ISK_EXC_GROUP);        /* the model's handler ran */
    CHECK_EQ(reg(&c, "r1"), 0);                       /* and the group did not */
    CHECK_EQ(isk_context_of(c.p, 0)->state, ISK_CTX_EXITED);
    CHECK_EQ(isk_context_of(c.p, 0)->exit_status, 7);
    int e = find(&log, ISK_EV_EXCEPTION, 0);
    CHECK(e >= 0);
    if (e >= 0) {
        CHECK_EQ(log.ev[e].cause, ISK_EXC_GROUP);
        CHECK_EQ(log.ev[e].pc, 1);
        CHECK_EQ(log.ev[e].clock, 1);
        CHECK_CONTAINS(log.text[e], "issue group at pc 0x1 is not aligned");
    }
    int x = find(&log, ISK_EV_CONTEXT, 0);
    CHECK(x >= 0);
    if (x >= 0) {
        CHECK_EQ(log.ev[x].from, ISK_CTX_RUNNING);
        CHECK_EQ(log.ev[x].to, ISK_CTX_EXITED);
    }
    cpu_close(&c);
}

/* The same program in a model whose pairs may start at any PC: the pair at pc 1 runs as one
 * issue, both halves reading r0 before either writes. */
static void test_group_unaligned_allowed(void)
{
    static const char *const program[] = { "ldi r0, 1", "{mov r1, r0", "mov r0, r1", "halt", NULL };
    cpu c;
    cpu_open_model(&c, &isk_model_loose_pairs, program);
    CHECK_EQ(isk_run(c.sys, 1000), ISK_STOPPED);
    CHECK_EQ(reg(&c, "cause"), 0);                    /* no exception */
    CHECK_EQ(reg(&c, "r1"), 1);
    CHECK_EQ(reg(&c, "r0"), 0);                       /* read r1 from before the pair */
    isk_stats st;
    isk_get_stats(c.sys, &st);
    CHECK_EQ(st.instructions, 4);
    CHECK_EQ(st.clocks, 3);                           /* the pair is one issue */
    CHECK_EQ(isk_context_of(c.p, 0)->pc, 3);
    cpu_close(&c);
    cpu_open(&c, program);                            /* the default alignment refuses it */
    CHECK_EQ(isk_run(c.sys, 1000), ISK_STOPPED);
    CHECK_EQ(reg(&c, "cause"), ISK_EXC_GROUP);
    cpu_close(&c);
}

/* ---- events --------------------------------------------------------------------------------- */

/* What the program writes, where and when (CPI 1: instruction k issues in clock k). */
static const char *const writes_program[] = {
    "ldi r1, 5",        /* clock 0: R1 = 5 now */
    "lset l0, 9",       /* clock 1: L0 = 9, committed at the end of clock 2 */
    "ldi r2, -3",       /* clock 2: R2 = -3 now, before L0's commit */
    "st 3, r1",         /* clock 3: D[3], not watched */
    "{mov r1, r2",      /* clock 4: a pair: R1 = -3 and R2 = 5, made in order at the pair's end */
    "mov r2, r1",
    "lset l1, -7",      /* clock 5: L1 = -7 at the end of clock 6 */
    "poke r3, 12",      /* clock 6: R3 = 12, written around the engine */
    "ldi r1, -3",       /* clock 7: the value R1 holds: no change */
    "halt",             /* clock 8 */
    NULL,
};

static void test_store_events(void)
{
    struct { int64_t clock; const char *storage; uint64_t index; int64_t value; int latency; } want[] = {
        { 0, "R", 1, 5, 0 }, { 2, "R", 2, -3, 0 }, { 2, "L", 0, 9, 2 }, { 4, "R", 1, -3, 0 }, { 4, "R", 2, 5, 0 },
        { 6, "R", 3, 12, 0 }, { 6, "L", 1, -7, 2 },
    };
    const int nwant = (int)(sizeof want / sizeof *want);
    cpu c;
    cpu_open(&c, writes_program);
    event_log log = { 0 };
    CHECK_EQ(isk_subscribe(c.sys, ISK_EV_BIT(ISK_EV_STORE), record, &log), ISK_OK);
    /* the storages by index, as a subscriber finds them */
    int r = -1, l = -1;
    for (int i = 0; i < isk_model_storage_count(c.m); i++) {
        if (strcmp(isk_model_storage(c.m, i)->name, "R") == 0) r = i;
        if (strcmp(isk_model_storage(c.m, i)->name, "L") == 0) l = i;
    }
    CHECK(r >= 0 && l >= 0);
    CHECK_EQ(isk_watch(c.p, r, true), ISK_OK);
    CHECK_EQ(isk_watch(c.p, l, true), ISK_OK);
    CHECK_EQ(isk_watch(c.p, 99, true), ISK_FAILED);   /* no such storage: refused */
    CHECK_EQ(isk_run(c.sys, 1000), ISK_STOPPED);
    CHECK_EQ(log.n, nwant);
    for (int i = 0; i < log.n && i < nwant; i++) {
        const isk_event *e = &log.ev[i];
        CHECK_EQ(e->kind, ISK_EV_STORE);
        CHECK_EQ((int64_t)e->clock, want[i].clock);
        CHECK_EQ(e->storage, strcmp(want[i].storage, "R") == 0 ? r : l);
        CHECK_EQ(e->index, want[i].index);
        CHECK_EQ(e->value, want[i].value);
        CHECK_EQ(e->latency, want[i].latency);
    }
    CHECK_STR(log.text[0], "R[1] (r1) = 5");
    /* the values the events reported are the state the run ends in */
    CHECK_EQ(reg(&c, "r1"), -3);
    CHECK_EQ(reg(&c, "r2"), 5);
    CHECK_EQ(reg(&c, "l1"), -7);
    CHECK_EQ(reg(&c, "r3"), 12);
    int64_t d3 = 0;
    isk_read(c.p, "D", 3, &d3);
    CHECK_EQ(d3, 5);
    cpu_close(&c);

    /* not watched: no event, the same end */
    cpu_open(&c, writes_program);
    event_log none = { 0 };
    isk_subscribe(c.sys, ISK_EV_BIT(ISK_EV_STORE), record, &none);
    isk_watch(c.p, -1, true);
    isk_watch(c.p, -1, false);
    CHECK_EQ(isk_run(c.sys, 1000), ISK_STOPPED);
    CHECK_EQ(none.n, 0);
    CHECK_EQ(reg(&c, "r1"), -3);
    CHECK_EQ(isk_clock(c.sys), 9);
    cpu_close(&c);
}

static uint64_t port_value;
static void port_write(void *user, isk_inst *inst, uint64_t port, uint64_t value)
{
    (void)user, (void)inst;
    port_value = port << 16 | value;
}

static void test_other_events(void)
{
    static const char *const program[] = { "ldi r3, 42", "out 9, r3", "dma 16", "halt", NULL };
    cpu c;
    cpu_open(&c, program);
    isk_set_ports(c.p, NULL, port_write, NULL);
    event_log log = { 0 };
    isk_subscribe(c.sys, ISK_EV_ALL, record, &log);
    CHECK_EQ(isk_run(c.sys, 1000), ISK_STOPPED);
    /* each instruction as the engine decoded it, before its effects */
    int i = find(&log, ISK_EV_ISSUE, 0);
    CHECK(i >= 0);
    if (i >= 0) {
        CHECK_EQ(log.ev[i].pc, 0);
        CHECK_EQ(log.ev[i].word, test_encode(c.m, "ldi r3, 42", 0));
        CHECK_STR(isk_model_instruction(c.m, log.ev[i].instruction)->behaviour, "Ldi");
        CHECK_STR(log.text[i], "ctx 0 pc 0x0: Ldi (0x132a)");
    }
    int p = find(&log, ISK_EV_PORT_WRITE, 0);
    CHECK(p > find(&log, ISK_EV_ISSUE, 1));           /* after the out instruction issued */
    if (p >= 0) {
        CHECK_EQ(log.ev[p].port, 9);
        CHECK_EQ(log.ev[p].value, 42);
        CHECK_EQ(log.ev[p].clock, 1);
        CHECK_EQ(log.ev[p].pc, 1);
        CHECK_STR(log.text[p], "port 0x9 <- 0x2a");
    }
    CHECK_EQ(port_value, (9u << 16) | 42u);           /* the handler still ran */
    int d = find(&log, ISK_EV_DMA, 0);
    CHECK(d >= 0);
    if (d >= 0) {
        CHECK_EQ(log.ev[d].amount, 16);
        CHECK_EQ(log.ev[d].src, 0x10);
        CHECK_EQ(log.ev[d].dst, 0x20);
        CHECK_STR(log.text[d], "dma copy: 16 bytes, 0x10 -> 0x20");
    }
    int n = find(&log, ISK_EV_NOTE, 0);
    CHECK(n > d);
    if (n >= 0) CHECK_STR(log.text[n], "copied 16");
    int x = find(&log, ISK_EV_CONTEXT, 0);
    CHECK(x >= 0);
    if (x >= 0) {
        CHECK_STR(log.text[x], "context 0 running -> stopped at pc 0x3");
        CHECK_EQ(log.ev[x].clock, 3);
    }
    CHECK_EQ(find(&log, ISK_EV_STORE, 0), -1);        /* nothing watched */
    isk_unsubscribe(c.sys, record, &log);
    cpu_close(&c);
}

/* LOAD events: the GETs of R (st's, the pair's) arrive with the reading context's pc and the
 * value read (the pair reads before it writes); reads of other storages, and any once the watch
 * is off, do not; watching reads changes nothing in the run. */
static void test_load_events(void)
{
    struct { int64_t clock; uint64_t pc, index; int64_t value; } want[] = {
        { 3, 3, 1, 5 }, { 4, 4, 2, -3 }, { 4, 5, 1, 5 },
    };
    const int nwant = (int)(sizeof want / sizeof *want);
    cpu c;
    cpu_open(&c, writes_program);
    event_log log = { 0 };
    CHECK_EQ(isk_subscribe(c.sys, ISK_EV_BIT(ISK_EV_LOAD), record, &log), ISK_OK);
    int r = -1;
    for (int i = 0; i < isk_model_storage_count(c.m); i++)
        if (strcmp(isk_model_storage(c.m, i)->name, "R") == 0) r = i;
    CHECK_EQ(isk_watch_reads(c.p, r, true), ISK_OK);
    CHECK_EQ(isk_watch_reads(c.p, 99, true), ISK_FAILED);
    CHECK_EQ(isk_run(c.sys, 1000), ISK_STOPPED);
    CHECK_EQ(log.n, nwant);
    for (int i = 0; i < log.n && i < nwant; i++) {
        const isk_event *e = &log.ev[i];
        CHECK_EQ(e->kind, ISK_EV_LOAD);
        CHECK_EQ((int64_t)e->clock, want[i].clock);
        CHECK_EQ(e->pc, want[i].pc);
        CHECK_EQ(e->storage, r);
        CHECK_EQ(e->index, want[i].index);
        CHECK_EQ(e->amount, 1);
        CHECK_EQ(e->value, want[i].value);
        CHECK_EQ(e->slot, -1);
    }
    CHECK_STR(log.text[0], "read R[1] (r1) = 5");
    CHECK_EQ(reg(&c, "r1"), -3);
    CHECK_EQ(isk_clock(c.sys), 9);
    cpu_close(&c);

    /* watched, then not: no event, the same end */
    cpu_open(&c, writes_program);
    event_log none = { 0 };
    isk_subscribe(c.sys, ISK_EV_BIT(ISK_EV_LOAD), record, &none);
    isk_watch_reads(c.p, -1, true);
    isk_watch_reads(c.p, -1, false);
    CHECK_EQ(isk_run(c.sys, 1000), ISK_STOPPED);
    CHECK_EQ(none.n, 0);
    CHECK_EQ(reg(&c, "r1"), -3);
    CHECK_EQ(reg(&c, "r2"), 5);
    CHECK_EQ(isk_clock(c.sys), 9);
    cpu_close(&c);
}

int main(void)
{
    test_group_swaps();
    test_group_latency();
    test_group_misaligned();
    test_group_unaligned_allowed();
    test_store_events();
    test_load_events();
    test_other_events();
    return CHECK_DONE();
}
