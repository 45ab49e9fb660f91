/* Processor models on the engine: issue policies, the decode cache and its invalidation, faults,
 * ports, and a processor launching commands into the article's accelerator on the same clock. */
#define ISK_BUILTIN_MODEL 1
#include "asm/syntax.h"
#include "check.h"
#include "encode.h"
#include "engine/model_desc.h"
#include "isekit/model.h"
#include "isekit/sim.h"

/* A toy accumulator machine: 16-bit words, 8-bit operands. */
STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(16, 0), 64) ROM;
    DECLARE_REGISTERS_FILE(INT(16, 0), 4) A;        /* one accumulator per context */
    DECLARE_MEMORY(INT(16, 0), 16) D;
STATE_END

BEHAVIOUR(Ldi, imm)     { SET(A, CONTEXT, imm); }
BEHAVIOUR(Add, d)       { SET(A, CONTEXT, GET(A, CONTEXT) + GET(D, d)); }
BEHAVIOUR(Store, d)     { SET(D, d, GET(A, CONTEXT)); }
BEHAVIOUR(Dec)          { SET(A, CONTEXT, GET(A, CONTEXT) - 1); }
BEHAVIOUR(Jnz, target)  { if (GET(A, CONTEXT)) JUMP(target); }
BEHAVIOUR(Halt)         { STOP_CONTEXT(CONTEXT); }
BEHAVIOUR(Patch, addr)  { SET(ROM, addr, GET(A, CONTEXT)); }   /* self-modifying code */
BEHAVIOUR(Wait, n)      { BLOCK_FOR(n); }
BEHAVIOUR(Out, port)    { OUTPUT(port, GET(A, CONTEXT)); }
BEHAVIOUR(Launch, n)    { LAUNCH(n, (uint64_t)(uint16_t)GET(A, CONTEXT) | (uint64_t)GET(D, 15) << 16); }
BEHAVIOUR(Start, ctx)   { START_CONTEXT(ctx, 3); }   /* contexts start at instruction 3 */

#define TOY_INSTRUCTIONS \
    KIND_PCREL("target", .pc_bias = 0); \
    INSTRUCTION("0001-0000-iiiiiiii", Ldi, "ldi {i}", .fields = "i:s"); \
    INSTRUCTION("0010-0000-0000-dddd", Add, "add d{d}"); \
    INSTRUCTION("0011-0000-0000-dddd", Store, "st d{d}"); \
    INSTRUCTION("0100-0000-0000-0000", Dec, "dec"); \
    INSTRUCTION("0101-0000-tttttttt", Jnz, "jnz {t}"); \
    INSTRUCTION("0110-0000-0000-0000", Halt, "halt"); \
    INSTRUCTION("0111-0000-aaaaaaaa", Patch, "patch {a}"); \
    INSTRUCTION("1000-0000-nnnnnnnn", Wait, "wait {n}"); \
    INSTRUCTION("1001-0000-pppppppp", Out, "out {p}"); \
    INSTRUCTION("1010-0000-0000-nnnn", Launch, "launch {n}"); \
    INSTRUCTION("1011-0000-0000-00cc", Start, "start {c}");

MODEL_BEGIN(toy_cpi, "toy processor, 2 clocks per instruction")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1, .issue = ISK_ISSUE_CPI, .cpi = 2);
    MEMORY(ROM, "code");
    REGFILE_BEGIN(A, "accumulators") REGISTER(0, "A0"); REGFILE_END()
    MEMORY(D, "data");
    TOY_INSTRUCTIONS
MODEL_END

MODEL_BEGIN(toy_revolver, "toy processor, 4 contexts, a context issues every 3 clocks")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 4, .issue = ISK_ISSUE_REVOLVER, .distance = 3);
    MEMORY(ROM, "code");
    REGFILE_BEGIN(A, "accumulators") REGISTER(0, "A0"); REGFILE_END()
    MEMORY(D, "data");
    TOY_INSTRUCTIONS
MODEL_END

typedef struct toy {
    isk_diag d;
    isk_diag_buffer out;
    isk_model *m;
    isk_system *sys;
    isk_inst *p;
} toy;

static void toy_open(toy *t, const struct isk_model_entry *e, const char *const *program)
{
    isk_diag_init(&t->d);
    isk_diag_capture(&t->d, &t->out);
    t->m = isk_model_from_entry(e, "test", &t->d);
    isk_system_options o = { .diag = &t->d };
    t->sys = isk_system_new(&o);
    t->p = isk_system_add(t->sys, t->m, "cpu");
    for (uint64_t pc = 0; program && program[pc]; pc++)
        isk_write(t->p, "ROM", pc, (int64_t)test_encode(t->m, program[pc], pc));
}

static void toy_close(toy *t)
{
    isk_system_free(t->sys);
    isk_model_release(t->m);
    isk_diag_buffer_free(&t->out);
}

static int64_t read_d(toy *t, uint64_t i)
{
    int64_t v = 0;
    isk_read(t->p, "D", i, &v);
    return v;
}

/* sum = 5 + 4 + 3 + 2 + 1 */
static const char *const sum_program[] = {
    "ldi 5", "st d1",                     /* 0, 1: counter */
    "ldi 0", "st d2",                     /* 2, 3: sum */
    "ldi 0", "add d2", "add d1", "st d2", /* 4..7 */
    "ldi 0", "add d1", "dec", "st d1",    /* 8..11 */
    "jnz 4", "halt", NULL,                /* 12, 13 */
};

static void test_cpi_timing_and_fast_path(void)
{
    /* 4 set-up + 5 loops of 9 + halt = 50 instructions, 2 clocks each. */
    toy t;
    toy_open(&t, &isk_model_toy_cpi, sum_program);
    CHECK_EQ(isk_run(t.sys, 0), ISK_STOPPED);
    CHECK_EQ(read_d(&t, 2), 15);
    isk_stats st;
    isk_get_stats(t.sys, &st);
    CHECK_EQ(st.instructions, 50);
    CHECK_EQ(isk_clock(t.sys), 100);
    CHECK_EQ(isk_context_of(t.p, 0)->pc, 13);   /* halted by its own halt: keeps that PC */
    toy_close(&t);

    /* Stepping one clock at a time gives the same clocks (the fast path is only a shortcut). */
    toy_open(&t, &isk_model_toy_cpi, sum_program);
    int steps = 0;
    while (isk_context_of(t.p, 0)->state == ISK_CTX_RUNNING && steps < 1000) {
        CHECK_EQ(isk_step(t.sys, 1), ISK_OK);
        steps++;
    }
    CHECK_EQ(steps, 99);        /* halt issues at clock 98 */
    CHECK_EQ(read_d(&t, 2), 15);
    toy_close(&t);
}

static void test_faults(void)
{
    static const char *const bad[] = { "ldi 1", "jnz 40", NULL };
    toy t;
    toy_open(&t, &isk_model_toy_cpi, bad);
    CHECK_EQ(isk_run(t.sys, 0), ISK_FAULT);
    CHECK_CONTAINS(isk_last_error(t.sys), "clock 4, cpu context 0, pc 0x28: illegal instruction 0x0000");
    CHECK_EQ(isk_context_of(t.p, 0)->state, ISK_CTX_FAULTED);
    /* The fault interrupted the fast loop: the state still says where and after how much. */
    isk_stats st;
    isk_get_stats(t.sys, &st);
    CHECK_EQ(isk_context_of(t.p, 0)->pc, 40);
    CHECK_EQ(isk_context_of(t.p, 0)->insns, 2);
    CHECK_EQ(st.instructions, 2);
    CHECK_EQ(st.clocks, 4);
    CHECK_EQ(isk_clock(t.sys), 4);
    toy_close(&t);

    /* The same on the revolver's fast loop: two contexts, the second faults at its second issue. */
    static const char *const revolver_bad[] = { "start 1", "ldi 1", "halt", "ldi 2", "jnz 40", NULL };
    toy_open(&t, &isk_model_toy_revolver, revolver_bad);
    CHECK_EQ(isk_run(t.sys, 0), ISK_FAULT);
    CHECK_CONTAINS(isk_last_error(t.sys), "cpu context 1, pc 0x28: illegal instruction");
    isk_get_stats(t.sys, &st);
    CHECK_EQ(isk_context_of(t.p, 1)->pc, 40);
    CHECK_EQ(isk_context_of(t.p, 1)->insns, 2);
    CHECK_EQ(st.instructions, isk_context_of(t.p, 0)->insns + 2);
    CHECK_EQ(st.clocks, isk_clock(t.sys));
    toy_close(&t);

    static const char *const outside[] = { "ldi 1", "add d15", "jnz 63", NULL };
    toy_open(&t, &isk_model_toy_cpi, outside);
    isk_write(t.p, "ROM", 63, 0x5000 | 64);   /* jnz 64: just outside the code memory */
    CHECK_EQ(isk_run(t.sys, 0), ISK_FAULT);
    CHECK_CONTAINS(isk_last_error(t.sys), "pc 0x40 is outside the code memory (64 instructions)");
    toy_close(&t);
}

/* A write to the code memory drops the decoded instruction at that address. */
static void test_self_modifying_code(void)
{
    static const char *const program[] = {
        "ldi 0", "add d0", "patch 6",          /* 0-2: ROM[6] = D0 = "ldi 16" */
        "ldi 0", "jnz 0", "ldi 0",             /* 3-5 */
        "ldi 7",                               /* 6: patched */
        "st d3", "halt", NULL,
    };
    toy t;
    toy_open(&t, &isk_model_toy_cpi, program);
    isk_write(t.p, "D", 0, 0x1010);            /* the encoding of "ldi 16" */
    isk_start(t.p, 0, 6);                      /* run instruction 6 once: it is decoded and cached */
    isk_step(t.sys, 2);
    int64_t a;
    isk_read(t.p, "A0", 0, &a);
    CHECK_EQ(a, 7);
    isk_start(t.p, 0, 0);
    CHECK_EQ(isk_run(t.sys, 0), ISK_STOPPED);
    CHECK_EQ(read_d(&t, 3), 16);
    toy_close(&t);
}

static void test_revolver(void)
{
    /* One context: an instruction every 3 clocks. */
    static const char *const count[] = { "ldi 3", "dec", "jnz 1", "halt", NULL };
    toy t;
    toy_open(&t, &isk_model_toy_revolver, count);
    CHECK_EQ(isk_run(t.sys, 0), ISK_STOPPED);
    isk_stats st;
    isk_get_stats(t.sys, &st);
    CHECK_EQ(st.instructions, 8);
    CHECK_EQ(isk_clock(t.sys), 22);           /* last issue at clock 21 */
    toy_close(&t);

    /* Four contexts running the same loop: one instruction per clock once all have started. */
    static const char *const four[] = { "start 1", "start 2", "start 3", "ldi 30", "dec", "jnz 4", "halt", NULL };
    toy_open(&t, &isk_model_toy_revolver, four);
    CHECK_EQ(isk_run(t.sys, 0), ISK_STOPPED);
    isk_get_stats(t.sys, &st);
    uint64_t n = st.instructions;
    CHECK(n > 4 * 60);
    CHECK(isk_clock(t.sys) < n + n / 10);      /* close to one per clock */
    CHECK(st.idle_clocks < 12);
    toy_close(&t);
}

static int never_stops(void *user, uint64_t clock, isk_inst *proc, uint32_t context, uint64_t pc)
{
    (void)user, (void)clock, (void)proc, (void)context, (void)pc;
    return 0;
}

/* The revolver's steady round (four contexts, a gap of 3: each ready at its turn, the round
 * skips the tests) ends at a run's limit, at a BLOCK_FOR and at a stop exactly as the general
 * path (a before-issue hook) goes: the same clock, and the same PC, counts and ready clock of
 * every context after each piece of the run. */
static void test_steady_round(void)
{
    static const char *const program[] = { "start 1", "start 2", "start 3", "ldi 20", "dec", "jnz 4",
                                            "wait 5", "ldi 9", "dec", "jnz 8", "halt", NULL };
    toy fast, general;
    toy_open(&fast, &isk_model_toy_revolver, program);
    toy_open(&general, &isk_model_toy_revolver, program);
    isk_set_before_issue(general.sys, never_stops, NULL);
    int pieces = 0;
    for (; pieces < 40 && isk_context_of(fast.p, 0)->state != ISK_CTX_STOPPED; pieces++) {
        CHECK_EQ(isk_step(fast.sys, 7), isk_step(general.sys, 7));
        CHECK_EQ(isk_clock(fast.sys), isk_clock(general.sys));
        for (uint32_t id = 0; id < 4; id++) {
            const isk_context *a = isk_context_of(fast.p, id), *b = isk_context_of(general.p, id);
            CHECK_EQ(a->pc, b->pc);
            CHECK_EQ(a->insns, b->insns);
            CHECK_EQ(a->ready_at, b->ready_at);
            CHECK_EQ(a->last_issue, b->last_issue);
            CHECK_EQ(a->state, b->state);
        }
    }
    CHECK(pieces > 15 && pieces < 40);             /* 4 x (3 + 2 x 20 + 1 + 2 x 9 + 1) issues, 7 clocks a piece */
    isk_stats a, b;
    isk_get_stats(fast.sys, &a);
    isk_get_stats(general.sys, &b);
    CHECK_EQ(a.instructions, b.instructions);
    CHECK_EQ(a.idle_clocks, b.idle_clocks);
    toy_close(&fast);
    toy_close(&general);
}

/* The processor launches a command into the example accelerator: the launch is one processor
 * instruction, and the command's first step runs in the same clock. */
static void test_processor_launches(void)
{
    static const char *const program[] = { "ldi 0x31", "launch 0", "halt", NULL };
    toy t;
    toy_open(&t, &isk_model_toy_cpi, program);
    isk_model *ex = isk_model_load("example", &t.d);
    isk_inst *acc = isk_system_add(t.sys, ex, "acc");
    isk_attach(t.sys, acc, 0);
    /* word = D15 << 16 | A: "ldg gr1, 3" is 0xc20031 */
    isk_write(t.p, "D", 15, 0xc2);
    CHECK_EQ(isk_step(t.sys, 2), ISK_OK);      /* clocks 0-1: ldi */
    CHECK_EQ(isk_step(t.sys, 1), ISK_OK);      /* clock 2: launch; ldg runs in clock 2 */
    int64_t gr1;
    isk_read(acc, "GR1", 0, &gr1);
    CHECK_EQ(gr1, 3);                          /* visible in clock 3 (latency 1) */
    isk_stats st;
    isk_get_stats(t.sys, &st);
    CHECK_EQ(st.launches, 1);
    CHECK_EQ(isk_run(t.sys, 0), ISK_STOPPED);
    isk_model_release(ex);
    toy_close(&t);
}

typedef struct port_log { uint64_t port, value, clock, pc; int writes; isk_system *sys; } port_log;

static void on_write(void *user, isk_inst *inst, uint64_t port, uint64_t value)
{
    port_log *l = user;
    l->port = port;
    l->value = value;
    l->clock = isk_clock(l->sys);
    l->pc = isk_context_of(inst, 0)->pc;     /* exact also while a fast loop keeps it elsewhere */
    l->writes++;
}

static void test_ports_and_blocking(void)
{
    static const char *const program[] = { "ldi 42", "wait 10", "out 7", "halt", NULL };
    toy t;
    toy_open(&t, &isk_model_toy_cpi, program);
    port_log log = { .sys = t.sys };
    isk_set_ports(t.p, NULL, on_write, &log);
    CHECK_EQ(isk_run(t.sys, 0), ISK_STOPPED);
    CHECK_EQ(log.writes, 1);
    CHECK_EQ(log.port, 7);
    CHECK_EQ(log.value, 42);
    CHECK_EQ(log.clock, 12);                   /* ldi 0, wait 2 (blocks 10 clocks), out 12 */
    CHECK_EQ(log.pc, 2);
    toy_close(&t);
}

/* isk_stop_after_clock from a port handler: each run returns right after the clock of the
 * OUTPUT, and the pieces add up to the uninterrupted run (both fast loops). */
static void stop_on_write(void *user, isk_inst *inst, uint64_t port, uint64_t value)
{
    on_write(user, inst, port, value);
    isk_stop_after_clock(((port_log *)user)->sys);
}

static void check_stops(const struct isk_model_entry *e, const char *const *program, int outputs)
{
    toy whole, parts;
    toy_open(&whole, e, program);
    CHECK_EQ(isk_run(whole.sys, 0), ISK_STOPPED);
    toy_open(&parts, e, program);
    port_log log = { .sys = parts.sys };
    isk_set_ports(parts.p, NULL, stop_on_write, &log);
    int returns = 0;
    isk_status st;
    while ((st = isk_run(parts.sys, 0)) == ISK_OK && returns < 100) {
        returns++;
        CHECK_EQ(isk_clock(parts.sys), log.clock + 1);
        CHECK_EQ(log.writes, returns);
    }
    CHECK_EQ(st, ISK_STOPPED);
    CHECK_EQ(returns, outputs);
    isk_stats a, b;
    isk_get_stats(whole.sys, &a);
    isk_get_stats(parts.sys, &b);
    CHECK_EQ(isk_clock(parts.sys), isk_clock(whole.sys));
    CHECK_EQ(b.instructions, a.instructions);
    CHECK_EQ(b.clocks, a.clocks);
    toy_close(&whole);
    toy_close(&parts);
}

static void test_stop_after_clock(void)
{
    static const char *const loop[] = { "ldi 3", "out 1", "dec", "jnz 1", "halt", NULL };
    check_stops(&isk_model_toy_cpi, loop, 3);
    static const char *const two[] = { "start 1", "out 1", "halt", "out 2", "ldi 2", "out 3", "dec", "jnz 5", "halt",
                                       NULL };
    check_stops(&isk_model_toy_revolver, two, 4);
}

int main(void)
{
    test_cpi_timing_and_fast_path();
    test_faults();
    test_self_modifying_code();
    test_revolver();
    test_steady_round();
    test_processor_launches();
    test_ports_and_blocking();
    test_stop_after_clock();
    return CHECK_DONE();
}
