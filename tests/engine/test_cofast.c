/* A processor beside busy accelerators: the paths the engine takes for it (the fast loop while
 * it is alone, the lean CPI issue beside busy slots) against the general per-clock path, which
 * a subscriber to instruction events forces everywhere. The same systems run on both, stepped
 * in runs of 1..40 clocks, and every state, clock, count and message must agree: multi-clock
 * commands, a launch while a command is busy, a result read from shared memory, an interrupt
 * waking a sleeping context, a command's fault, the processor's fault, a launch with no free
 * slot. */
#define ISK_BUILTIN_MODEL 1
#include <stdlib.h>
#include <string.h>

#include "asm/syntax.h"
#include "check.h"
#include "same_stats.h"
#include "encode.h"
#include "engine/model_desc.h"
#include "engine/system.h"
#include "isekit/model.h"
#include "isekit/sim.h"

/* One state for both models (each names every storage; only SHM is shared). */
STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(16, 0), 64) ROM;
    DECLARE_REGISTER(INT(16, 0)) A;
    DECLARE_MEMORY(INT(16, 0), 16) D;
    DECLARE_MEMORY(INT(32, 1), 8) SHM;              /* shared: the accelerator's results */
    DECLARE_MEMORY(INT(32, 1), 8) R;                /* the accelerator's own */
STATE_END

/* The processor: one instruction a clock. */
BEHAVIOUR(Ldi, imm)     { SET(A, imm); }
BEHAVIOUR(Dec)          { SET(A, GET(A) - 1); }
BEHAVIOUR(St, d)        { SET(D, d, GET(A)); }
BEHAVIOUR(Lds, i)       { SET(A, GET(A) + GET(SHM, i)); }
BEHAVIOUR(Jnz, target)  { if (GET(A)) JUMP(target); }
BEHAVIOUR(Halt)         { STOP_CONTEXT(CONTEXT); }
BEHAVIOUR(Launch, w)    { LAUNCH(0, w); }
BEHAVIOUR(Wfi)          { WAKE_ON_LINES(CONTEXT, 1); SLEEP_CONTEXT(CONTEXT); }
BEHAVIOUR(Ack)          { ACK_LINE(0); }
BEHAVIOUR(In, port)     { SET(A, GET(A) + (int64_t)INPUT(port)); }   /* the host's answer (rig_port) */
/* A one-instruction loop of A clocks that adds the pending lines, read raw, to D[3] in each: a
 * line seen one clock late or early changes the sum. lines_ahead counts the clocks it ran ahead
 * of the accelerators (its ops were not the engine's own), which a cap too early lowers. */
static unsigned long lines_ahead;
BEHAVIOUR(Pnd, target)
{
    SET(D, 3, GET(D, 3) + (int64_t)PENDING_LINES);
    if (S->isk.ops != &isk_engine_ops) lines_ahead++;
    const int64_t a = GET(A) - 1;
    SET(A, a);
    if (a) JUMP(target);
}

MODEL_BEGIN(cofast_cpu, "a CPI-1 processor")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1, .issue = ISK_ISSUE_CPI, .cpi = 1);
    MEMORY(ROM, "code");
    REG(A, "A");
    MEMORY(D, "data");
    SHARED_MEMORY(SHM, "shared");
    MEMORY(R, "unused results");
    KIND_PCREL("target", .pc_bias = 0);
    INSTRUCTION("0001-0000-iiiiiiii", Ldi, "ldi {i}", .fields = "i:s");
    INSTRUCTION("0010-0000-0000-0000", Dec, "dec");
    INSTRUCTION("0011-0000-0000-dddd", St, "st d{d}");
    INSTRUCTION("0100-0000-0000-0iii", Lds, "lds {i}");
    INSTRUCTION("0101-0000-tttttttt", Jnz, "jnz {t}");
    INSTRUCTION("0110-0000-0000-0000", Halt, "halt");
    INSTRUCTION("1010-wwwwwwwwwwww", Launch, "launch {w}");
    INSTRUCTION("0111-0000-0000-0000", Wfi, "wfi");
    INSTRUCTION("1000-0000-0000-0000", Ack, "ack");
    INSTRUCTION("1001-0000-0000-pppp", In, "in {p}");
    INSTRUCTION("1011-0000-tttttttt", Pnd, "pnd {t}");
MODEL_END

/* The accelerator: n clocks of work, then the result flag in SHM[0]. */
ACC_FUNCTION(Work, n)
{
    for (int64_t t = 1; t <= n; t++) {
        SET(R, t % 8, GET(R, (t - 1) % 8) + t);
        FinishCycle();
    }
    SET(SHM, 0, GET(SHM, 0) + n);
}

/* n clocks, then the processor's interrupt line. */
ACC_FUNCTION(Irq, n)
{
    for (int64_t t = 1; t < n; t++) {
        SET(R, 7, t);
        FinishCycle();
    }
    InterruptProcessor();
}

/* The same with its end promised at its first clock (.interrupts_at_end); `late` interrupts one
 * clock after the promise, a breach. */
ACC_FUNCTION(Irq_end, n)
{
    PromiseEnd(n);
    for (int64_t t = 1; t < n; t++) FinishCycle();   /* no write: two may run at once */
    InterruptProcessor();
}
ACC_FUNCTION(Irq_late, n)
{
    PromiseEnd(n);
    for (int64_t t = 1; t <= n; t++) {
        SET(R, 7, t);
        FinishCycle();
    }
    InterruptProcessor();
}

/* A fault (an index outside R) in its k-th clock. */
ACC_FUNCTION(Bad, k)
{
    for (int64_t t = 1; t < k; t++) {
        SET(R, 6, t);
        FinishCycle();
    }
    (void)GET(R, 99);
}

MODEL_BEGIN(cofast_acc, "an accelerator of multi-clock commands")
    WORD_BITS(16);
    SLOTS(2);
    MEMORY(ROM, "unused code");
    REG(A, "unused A");
    MEMORY(D, "unused data");
    SHARED_MEMORY(SHM, "shared");
    MEMORY(R, "results");
    INSTRUCTION("0000-0001-nnnnnnnn", Work, "work {n}");
    INSTRUCTION("0000-0010-nnnnnnnn", Irq, "irq {n}");
    INSTRUCTION("0000-0011-kkkkkkkk", Bad, "bad {k}");
MODEL_END

/* A clash: R[0] written twice in one clock. */
ACC_FUNCTION(Twice)
{
    SET(R, 0, 1);
    FinishCycle();
    SET(R, 1, GET(R, 0));
    SET(R, 1, 2);
}

/* A stop of the run in its second clock. */
ACC_FUNCTION(Halt_run)
{
    SET(R, 2, 1);
    FinishCycle();
    SET(R, 2, 2);
    BREAKPOINT("the command stops");
}

/* The same commands declared inert, and storages no processor reaches: R private, SHM not shared
 * (a plain memory here), so the processor runs ahead of them. Irq, Bad, Twice and Halt_run break
 * the promise. */
MODEL_BEGIN(cofast_inert, "an accelerator of inert multi-clock commands")
    WORD_BITS(16);
    SLOTS(2);
    MEMORY(ROM, "unused code");
    REG(A, "unused A");
    MEMORY(D, "unused data");
    MEMORY(SHM, "results, not shared");
    PRIVATE_MEMORY(R, "results");
    INSTRUCTION("0000-0001-nnnnnnnn", Work, "work {n}", .inert = 1);
    INSTRUCTION("0000-0010-nnnnnnnn", Irq, "irq {n}", .inert = 1);
    INSTRUCTION("0000-0011-kkkkkkkk", Bad, "bad {k}", .inert = 1);
    INSTRUCTION("0000-0100-0000-0000", Twice, "twice", .inert = 1);
    INSTRUCTION("0000-0101-0000-0000", Halt_run, "haltrun", .inert = 1);
    INSTRUCTION("0000-0110-nnnnnnnn", Irq_end, "irqend {n}", .interrupts_at_end = 1);
    INSTRUCTION("0000-0111-nnnnnnnn", Irq_late, "irqlate {n}", .interrupts_at_end = 1);
    INSTRUCTION("0000-1000-nnnnnnnn", Irq, "irqany {n}", .interrupts_at_end = 1);   /* no promise */
MODEL_END

typedef struct rig {
    isk_diag d;
    isk_diag_buffer out;
    isk_model *cpu, *acc;
    isk_system *sys;
    isk_inst *p, *a;
    unsigned long issues;       /* instruction events (the per-clock rig only) */
    uint64_t seen[64][7];       /* what port 2's handler saw of the context and the statistics */
    int nseen;
} rig;

static void count_issue(void *user, const isk_event *e)
{
    (void)e;
    ((rig *)user)->issues++;
}

/* Port 0: the accelerator's busy slots (a status query); port 1: its SHM[0] (a result read);
 * port 2: the context's counts and the statistics, as a handler sees them in the middle of the
 * instruction (noted in the rig, which same_state compares; reads 0). */
static uint64_t rig_port(void *user, isk_inst *inst, uint64_t port)
{
    rig *r = user;
    int64_t v = 0;
    if (port == 0) return (uint64_t)isk_busy_slots(r->a) * 100;
    if (port == 2) {
        const isk_context *c = isk_context_of(inst, 0);
        isk_stats s;
        isk_get_stats(r->sys, &s);
        if (r->nseen < 64) {
            uint64_t *e = r->seen[r->nseen++];
            e[0] = isk_clock(r->sys), e[1] = c->pc, e[2] = c->insns, e[3] = c->last_issue, e[4] = c->ready_at;
            e[5] = s.instructions, e[6] = s.clocks;
        }
        return 0;
    }
    CHECK_EQ(isk_read(r->a, "SHM", 0, &v), ISK_OK);
    return (uint64_t)v;
}

/* per_clock: subscribe to instruction events, which keeps the processor on the general path.
 * inert: the accelerator is cofast_inert, which the processor runs ahead of (engine.md). */
static bool inert_rigs;

static void rig_open(rig *r, const char *const *program, bool per_clock)
{
    memset(r, 0, sizeof *r);
    isk_diag_init(&r->d);
    isk_diag_capture(&r->d, &r->out);
    r->cpu = isk_model_from_entry(&isk_model_cofast_cpu, "test", &r->d);
    r->acc = isk_model_from_entry(inert_rigs ? &isk_model_cofast_inert : &isk_model_cofast_acc, "test", &r->d);
    if (!r->cpu || !r->acc) {
        fprintf(stderr, "%s", r->out.text ? r->out.text : "the models do not load\n");
        exit(1);
    }
    isk_system_options o = { .diag = &r->d };
    r->sys = isk_system_new(&o);
    r->p = isk_system_add(r->sys, r->cpu, "cpu");
    r->a = isk_system_add(r->sys, r->acc, "acc");
    CHECK_EQ(isk_attach(r->sys, r->a, 0), ISK_OK);
    CHECK_EQ(isk_route_interrupt(r->a, 0, r->p, 0), ISK_OK);
    isk_set_ports(r->p, rig_port, NULL, r);
    for (uint64_t pc = 0; program[pc]; pc++)
        isk_write(r->p, "ROM", pc, strcmp(program[pc], "word 0") ? (int64_t)test_encode(r->cpu, program[pc], pc) : 0);
    if (per_clock) CHECK_EQ(isk_subscribe(r->sys, ISK_EV_BIT(ISK_EV_ISSUE), count_issue, r), ISK_OK);
}

static void rig_close(rig *r)
{
    isk_system_free(r->sys);
    isk_model_release(r->cpu);
    isk_model_release(r->acc);
    isk_diag_buffer_free(&r->out);
}

static int64_t cell(isk_inst *inst, const char *name, uint64_t i)
{
    int64_t v = 0;
    CHECK_EQ(isk_read(inst, name, i, &v), ISK_OK);
    return v;
}

/* Everything a user can see of the two systems: the same, or the check names what differs. */
static void same_state(rig *x, rig *y, int run, int line)
{
    char where[64];
    snprintf(where, sizeof where, "runs of %d clocks, program line %d", run, line);
    isk_stats s, t;
    isk_get_stats(x->sys, &s);
    isk_get_stats(y->sys, &t);
    if (memcmp(&s, &t, sizeof s) != 0) fprintf(stderr, "stats differ (%s)\n", where);
    check_same_stats(x->sys, y->sys);
    CHECK_EQ(isk_clock(x->sys), isk_clock(y->sys));
    CHECK_EQ(isk_busy_slots(x->a), isk_busy_slots(y->a));
    CHECK_STR(isk_last_error(x->sys), isk_last_error(y->sys));
    const isk_context *c = isk_context_of(x->p, 0), *e = isk_context_of(y->p, 0);
    CHECK_EQ(c->pc, e->pc);
    CHECK_EQ(c->state, e->state);
    CHECK_EQ(c->insns, e->insns);
    CHECK_EQ(c->ready_at, e->ready_at);
    CHECK_EQ(c->last_issue, e->last_issue);
    CHECK_EQ(cell(x->p, "A", 0), cell(y->p, "A", 0));
    for (uint64_t i = 0; i < 16; i++) CHECK_EQ(cell(x->p, "D", i), cell(y->p, "D", i));
    for (uint64_t i = 0; i < 8; i++) {
        CHECK_EQ(cell(x->a, "SHM", i), cell(y->a, "SHM", i));
        CHECK_EQ(cell(x->a, "R", i), cell(y->a, "R", i));
    }
    CHECK_EQ(x->out.len, y->out.len);
    if (x->out.len == y->out.len && x->out.len) CHECK(memcmp(x->out.text, y->out.text, x->out.len) == 0);
    CHECK_EQ(x->nseen, y->nseen);
    static const char *const what[] = { "clock", "pc", "insns", "last_issue", "ready_at", "instructions", "clocks" };
    for (int k = 0; k < x->nseen && k < y->nseen; k++)
        for (int f = 0; f < 7; f++)
            if (x->seen[k][f] != y->seen[k][f]) {
                fprintf(stderr, "port 2's read %d: %s %llu, per clock %llu\n", k, what[f],
                        (unsigned long long)x->seen[k][f], (unsigned long long)y->seen[k][f]);
                CHECK_EQ(x->seen[k][f], y->seen[k][f]);
            }
}

/* Run `program` on both paths in runs of `run` clocks, comparing after each, until the run
 * ends or fails (the same way on both); returns the final status. */
static isk_status compare_runs(const char *const *program, int run, uint64_t max_clock, int line)
{
    rig x, y;
    rig_open(&x, program, false);
    rig_open(&y, program, true);
    isk_status sx = ISK_OK, sy = ISK_OK;
    while (sx == ISK_OK && isk_clock(x.sys) < max_clock) {
        sx = isk_step(x.sys, (uint64_t)run);
        sy = isk_step(y.sys, (uint64_t)run);
        CHECK_EQ(sx, sy);
        same_state(&x, &y, run, line);
        if (sx != sy) break;
    }
    CHECK(y.issues > 0);         /* the per-clock rig did see every instruction */
    rig_close(&x);
    rig_close(&y);
    return sx;
}

/* Each program on every run length from 1 to 40 clocks, and to the end in one run; `want` is
 * how the run ends, `error` a part of its message. */
static void check_program(const char *const *program, isk_status want, const char *error, int line)
{
    /* stepping, a program that halts leaves the system running idle to the last clock */
    for (int run = 1; run <= 40; run++) CHECK_EQ(compare_runs(program, run, 400, line), want == ISK_STOPPED ? ISK_OK : want);
    rig x;
    rig_open(&x, program, false);
    CHECK_EQ(isk_run(x.sys, 1000), want);
    if (error) CHECK_CONTAINS(isk_last_error(x.sys), error);
    rig_close(&x);
}

/* A command busy for 12 clocks; a second one launched while it runs; a loop meanwhile; an
 * interrupt command whose line wakes the sleeping processor; the flag read from SHM. */
static const char *const busy_program[] = {
    "launch 0x10c",                 /* 0: work 12 */
    "ldi 5", "dec", "jnz 2",        /* 1..3: 5 loops beside it */
    "launch 0x106",                 /* 4: work 6, the first still busy */
    "ldi 3", "dec", "jnz 6",
    "launch 0x209",                 /* 8: irq 9 */
    "wfi",                          /* 9: sleep until the line */
    "ack",
    "ldi 0", "lds 0", "st d1",      /* 11..13: the flags: 12 + 6 */
    "ldi 20", "dec", "jnz 15",      /* 14..16: alone again */
    "halt", NULL,
};

/* The command faults in its 7th clock, while the processor loops. */
static const char *const acc_fault_program[] = {
    "launch 0x307", "ldi 30", "dec", "jnz 2", "halt", NULL,
};

/* The processor fetches a word no format accepts while a command runs. */
static const char *const cpu_fault_program[] = {
    "launch 0x114", "ldi 4", "dec", "jnz 2", "ldi 1", "jnz 7", "halt", "word 0", NULL,
};

/* The processor alone (its fast loop on the engine's path) fetches a word no format accepts. */
static const char *const alone_fault_program[] = {
    "ldi 4", "dec", "jnz 1", "ldi 1", "jnz 6", "halt", "word 0", NULL,
};

/* A port handler reads the context's counts and the statistics in the middle of instructions:
 * the first of a run of the fast loop and later ones, alone and beside a busy command. */
static const char *const probe_program[] = {
    "in 2", "ldi 3", "in 2", "dec", "jnz 2",
    "launch 0x108",                 /* 5: work 8 */
    "in 2", "ldi 4", "in 2", "dec", "jnz 8",
    "in 2", "halt", NULL,
};

/* A third launch while both slots are busy. */
static const char *const no_slot_program[] = {
    "launch 0x108", "ldi 2", "dec", "jnz 2", "launch 0x108", "launch 0x108", "halt", NULL,
};

/* A command declared inert breaks its promise: on both paths the same error at the same clock;
 * the processor ran ahead on the engine's path, which says so after it. */
static void check_breach(const char *const *program, isk_status want, const char *error)
{
    for (int run = 1; run <= 40; run++) {
        rig x, y;
        rig_open(&x, program, false);
        rig_open(&y, program, true);
        isk_status sx = ISK_OK, sy = ISK_OK;
        while (sx == ISK_OK && isk_clock(x.sys) < 400) sx = isk_step(x.sys, (uint64_t)run);
        while (sy == ISK_OK && isk_clock(y.sys) < 400) sy = isk_step(y.sys, (uint64_t)run);
        CHECK_EQ(sx, want);
        CHECK_EQ(sy, want);
        CHECK_CONTAINS(y.out.text ? y.out.text : "", error);
        CHECK(x.out.len >= y.out.len && y.out.len && memcmp(x.out.text, y.out.text, y.out.len) == 0);
        if (x.out.len > y.out.len) CHECK_CONTAINS(x.out.text + y.out.len, "had run ahead to clock");
        rig_close(&x);
        rig_close(&y);
    }
}

/* Beside inert commands: status queries while busy, a launch while busy, results read through
 * the host once they end, loops between. */
static const char *const inert_program[] = {
    "launch 0x10c",                 /* 0: work 12 */
    "ldi 5", "dec", "jnz 2",        /* 1..3: 5 loops beside it */
    "launch 0x106",                 /* 4: work 6, the first still busy */
    "ldi 1", "in 0",                /* 5, 6: A = 1 + busy (200) */
    "st d1",
    "ldi 9", "dec", "jnz 9",        /* 8..10: the second ends meanwhile */
    "ldi 0", "in 0", "st d3",       /* 11..13: busy again? */
    "ldi 12", "dec", "jnz 15",      /* 14..16: until the first ends */
    "ldi 0", "in 1", "st d2",       /* 17..19: the flags: 12 + 6 */
    "ldi 20", "dec", "jnz 21",      /* 20..22: alone again */
    "halt", NULL,
};

/* Commands that interrupt at their promised end: a loop beside one until its line rises (read
 * raw: the line wakes the sleep), a launch while one is busy, two promises at once (the
 * earlier caps the processor), the line while the processor loops, an interrupt not waited for. */
static const char *const at_end_program[] = {
    "launch 0x60c",                 /* 0: irqend 12 */
    "ldi 3", "dec", "jnz 2",        /* 1..3 */
    "launch 0x102",                 /* 4: work 2 beside it */
    "wfi", "ack",                   /* 5, 6: woken by the first's line */
    "launch 0x609",                 /* 7: irqend 9 */
    "launch 0x605",                 /* 8: irqend 5, ends first */
    "wfi", "ack",                   /* 9, 10 */
    "ldi 12", "dec", "jnz 12",      /* 11..13: the second's line rises meanwhile */
    "ack", "ldi 1", "in 2",         /* 14..16 */
    "launch 0x603",                 /* 17: irqend 3, its line never waited for */
    "ldi 9", "dec", "jnz 19",
    "halt", NULL,
};

/* The line read raw in every clock across its rise (pnd), after commands of 7 and 2 clocks. */
static const char *const at_end_lines_program[] = {
    "launch 0x607",                 /* 0: irqend 7 */
    "ldi 12", "pnd 2",              /* 1, 2: its line rises meanwhile */
    "ack", "launch 0x602",          /* 3, 4: irqend 2 */
    "ldi 5", "pnd 6",               /* 5, 6 */
    "halt", NULL,
};

/* A command interrupts a clock after its promised end. */
static const char *const at_end_late_program[] = {
    "launch 0x706", "ldi 30", "dec", "jnz 2", "halt", NULL,
};

/* An "inert" command interrupts. */
static const char *const inert_irq_program[] = {
    "launch 0x209", "ldi 30", "dec", "jnz 2", "halt", NULL,
};

/* An "inert" command writes one cell twice in a clock. */
static const char *const inert_clash_program[] = {
    "launch 0x400", "ldi 30", "dec", "jnz 2", "halt", NULL,
};

/* An "inert" command stops the run. */
static const char *const inert_stop_program[] = {
    "launch 0x500", "ldi 30", "dec", "jnz 2", "halt", NULL,
};

/* One-clock commands that interrupt in their first clock, queued with no processor (the
 * engine's slotless loop, which names a command's slot only when asked): counted as a driver's
 * launches would be; declared inert, a model error naming the command; a promise (PromiseEnd)
 * binds its own command only, not the next one queued. */
static void queued_first_clock(const struct isk_model_entry *entry, const uint64_t words[3], isk_status want,
                               const char *error)
{
    isk_diag d;
    isk_diag_buffer out = { 0 };
    isk_diag_init(&d);
    isk_diag_capture(&d, &out);
    isk_model *m = isk_model_from_entry(entry, "test", &d);
    isk_system_options o = { .diag = &d };
    isk_system *sys = isk_system_new(&o);
    isk_inst *a = isk_system_add(sys, m, "acc");
    const isk_command *queue[3];
    for (int i = 0; i < 3; i++) CHECK((queue[i] = isk_prepare(sys, a, words[i])) != NULL);
    CHECK_EQ(isk_queue_commands(sys, queue, 3), ISK_OK);
    CHECK_EQ(isk_run(sys, 10), want);
    isk_stats st;
    isk_get_stats(sys, &st);
    if (error) {
        CHECK_CONTAINS(out.text ? out.text : "", error);
        CHECK_EQ(isk_clock(sys), 0);
    } else {
        CHECK_EQ(st.interrupts, 3);
        CHECK_EQ(st.commands_done, 3);
    }
    isk_system_free(sys);
    isk_model_release(m);
    isk_diag_buffer_free(&out);
}

int main(void)
{
    static const uint64_t irq1[3] = { 0x0201, 0x0201, 0x0201 };                /* irq 1 */
    static const uint64_t promised_then_not[3] = { 0x0601, 0x0801, 0x0601 };   /* irqend 1, irqany 1 */
    queued_first_clock(&isk_model_cofast_acc, irq1, ISK_STOPPED, NULL);
    queued_first_clock(&isk_model_cofast_inert, irq1, ISK_FAULT, "an interrupt from a command declared inert");
    queued_first_clock(&isk_model_cofast_inert, promised_then_not, ISK_STOPPED, NULL);
    static const uint64_t promised_none[3] = { 0x0600, 0x0600, 0x0600 };         /* irqend 0 */
    queued_first_clock(&isk_model_cofast_inert, promised_none, ISK_FAULT, "PromiseEnd(clocks < 1)");
    check_program(busy_program, ISK_STOPPED, NULL, __LINE__);
    /* the run's figures themselves (the flags, the counts) */
    rig x;
    rig_open(&x, busy_program, false);
    CHECK_EQ(isk_run(x.sys, 1000), ISK_STOPPED);
    CHECK_EQ(cell(x.p, "D", 1), 18);
    isk_stats st;
    isk_get_stats(x.sys, &st);
    CHECK_EQ(st.launches, 3);
    CHECK_EQ(st.commands_done, 3);
    CHECK_EQ(st.interrupts, 1);
    CHECK(st.idle_clocks == 0 && st.instructions < st.clocks);   /* the sleep counts no idle clock (CPI) */
    rig_close(&x);

    check_program(acc_fault_program, ISK_FAULT, "index 99 is outside R", __LINE__);
    /* "word 0" is the word 0, which no format accepts */
    check_program(cpu_fault_program, ISK_FAULT, "illegal instruction", __LINE__);
    check_program(alone_fault_program, ISK_FAULT, "illegal instruction", __LINE__);
    check_program(no_slot_program, ISK_CONFLICT, "no free slot", __LINE__);
    check_program(probe_program, ISK_STOPPED, NULL, __LINE__);

    /* Inert commands: the processor runs ahead of them and they catch up at each interaction
     * (a launch, a port read whose handler asks the accelerator's state) and at the run's limit. */
    inert_rigs = true;
    check_program(inert_program, ISK_STOPPED, NULL, __LINE__);
    rig_open(&x, inert_program, false);
    CHECK_EQ(isk_run(x.sys, 1000), ISK_STOPPED);
    CHECK_EQ(cell(x.p, "D", 1), 1 + 100);   /* one slot busy when asked: the first had ended */
    CHECK_EQ(cell(x.p, "D", 2), 18);
    rig_close(&x);
    /* breaches of the promise: a model error on both paths, the same message */
    check_breach(inert_irq_program, ISK_FAULT, "launched at clock 0): an interrupt from a command declared inert");
    check_breach(acc_fault_program, ISK_FAULT, "index 99 is outside R");
    check_breach(inert_clash_program, ISK_CONFLICT, "clock 1: CREW conflict");
    check_breach(inert_stop_program, ISK_FAULT, "launched at clock 0): a breakpoint (a stop of the run) "
                                                "in a command declared inert");
    /* the processor's own fault while ahead of them: an illegal word, a launch with no free slot */
    check_program(cpu_fault_program, ISK_FAULT, "illegal instruction", __LINE__);
    check_program(no_slot_program, ISK_CONFLICT, "no free slot", __LINE__);
    check_program(probe_program, ISK_STOPPED, NULL, __LINE__);
    /* interrupts at a promised end: exact, and the processor did run ahead of them */
    check_program(at_end_program, ISK_STOPPED, NULL, __LINE__);
    rig_open(&x, at_end_program, false);
    CHECK_EQ(isk_run(x.sys, 1000), ISK_STOPPED);
    isk_get_stats(x.sys, &st);
    CHECK_EQ(st.interrupts, 4);
    CHECK_EQ(st.commands_done, 5);
    rig_close(&x);
    /* the line read raw across its rise: exact, and read ahead of the command up to the clock
     * the line becomes visible (a cap one clock late reads it as not yet raised) */
    check_program(at_end_lines_program, ISK_STOPPED, NULL, __LINE__);
    rig_open(&x, at_end_lines_program, false);
    lines_ahead = 0;
    CHECK_EQ(isk_run(x.sys, 1000), ISK_STOPPED);
    /* irqend 7 runs clocks 0..6 (launched at 0): its line is seen from clock 7, by pnd at 7..13
     * of 2..13; irqend 2 runs 15..16, seen by pnd at 17..21. The processor ran ahead from clock
     * 1 to 6 (ldi, then pnd at 2..6): a cap at the end itself, not a clock after, loses one. */
    CHECK_EQ(cell(x.p, "D", 3), 7 + 5);
    CHECK_EQ(lines_ahead, 5);
    rig_close(&x);
    check_breach(at_end_late_program, ISK_FAULT, "an interrupt at clock 6 from a command that promised it at clock 5");
    return CHECK_DONE();
}
