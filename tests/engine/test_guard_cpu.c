/* Processors: deadlocks, stop requests inside the fast issue loops, crashes and the watchdog in
 * processor instructions, and skipping the idle clocks a driver waits for (docs/semantics.md). */
#define ISK_BUILTIN_MODEL 1
#include <signal.h>

#include "guard_rig.h"
#include "engine/model_desc.h"
#include "isekit/model.h"
#include "isekit/sim.h"

STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(16, 0), 16) ROM;
    DECLARE_REGISTER(INT(64, 0)) N;
STATE_END

BEHAVIOUR(Nop)          { SET(N, GET(N) + 1); }
BEHAVIOUR(Jump, t)      { SET(N, GET(N) + 1); JUMP(t); }
BEHAVIOUR(Sleep)        { SLEEP_CONTEXT(CONTEXT); }
BEHAVIOUR(Halt)         { STOP_CONTEXT(CONTEXT); }
BEHAVIOUR(Raise, s)     { raise((int)s); }
BEHAVIOUR(Crash)        { if (GET(N) >= 0) abort(); }
BEHAVIOUR(Spin)         { volatile int forever = 1; while (forever) {} }
BEHAVIOUR(Start, ctx)   { START_CONTEXT(ctx, 0); }

#define CPU_INSTRUCTIONS \
    INSTRUCTION("0000-0000-0000-0000", Nop, "nop"); \
    INSTRUCTION("0001-0000-0000-tttt", Jump, "jump {t}"); \
    INSTRUCTION("0010-0000-0000-0000", Sleep, "sleep"); \
    INSTRUCTION("0010-0000-0000-0001", Halt, "halt"); \
    INSTRUCTION("0010-0000-0000-0010", Crash, "crash"); \
    INSTRUCTION("0010-0000-0000-0011", Spin, "spin"); \
    INSTRUCTION("0011-0000-ssssssss", Raise, "raise {s}"); \
    INSTRUCTION("0100-0000-0000-00cc", Start, "start {c}");

MODEL_BEGIN(cpu1, "one context, 2 clocks per instruction")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1, .issue = ISK_ISSUE_CPI, .cpi = 2);
    MEMORY(ROM, "code");
    REG(N, "count");
    CPU_INSTRUCTIONS
MODEL_END

MODEL_BEGIN(cpu4, "four contexts, round robin")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 4, .issue = ISK_ISSUE_REVOLVER, .distance = 1);
    MEMORY(ROM, "code");
    REG(N, "count");
    CPU_INSTRUCTIONS
MODEL_END

enum { NOP = 0x0000, JUMP = 0x1000, SLEEP = 0x2000, HALT = 0x2001, CRASH = 0x2002, SPIN = 0x2003,
       RAISE = 0x3000, START = 0x4000 };


static void open_cpu(rig *r, const struct isk_model_entry *e, isk_system_options o, const int *program)
{
    rig_open(r, e, "cpu_test.c", "cpu", o);
    for (uint64_t pc = 0; program[pc] >= 0; pc++) isk_write(r->inst, "ROM", pc, program[pc]);
}

/* Every context sleeps and nothing can wake one: an error naming each, not a spin. */
static void test_deadlock(void)
{
    const int program[] = { NOP, START | 1, SLEEP, -1 };    /* context 1 starts at 0 too */
    rig r;
    open_cpu(&r, &isk_model_cpu4, (isk_system_options){ 0 }, program);
    CHECK_EQ(isk_run(r.sys, 1000000), ISK_FAULT);
    CHECK(isk_clock(r.sys) < 10);
    /* a context that put itself to sleep waits at the instruction after its sleep */
    CHECK_CONTAINS(isk_last_error(r.sys), "deadlock: cpu context 0 sleeps at pc 0x3, cpu context 1 sleeps at "
                                         "pc 0x3; nothing can wake them");
    char buf[256];
    CHECK_EQ(isk_describe_activity(r.sys, buf, sizeof buf), 0);
    CHECK_CONTAINS(buf, "cpu context 0: sleeping at pc 0x3, waits for a wake-up\n");
    rig_close(&r);
    /* the same in steps: the idle clock that finds it stops the step */
    open_cpu(&r, &isk_model_cpu1, (isk_system_options){ 0 }, (const int[]){ NOP, SLEEP, -1 });
    CHECK_EQ(isk_step(r.sys, 1000000), ISK_FAULT);
    CHECK(isk_clock(r.sys) < 10);
    CHECK_CONTAINS(isk_last_error(r.sys), "deadlock: cpu context 0 sleeps at pc 0x2; nothing can wake it");
    rig_close(&r);
    /* a context that stopped is no deadlock: the run has finished */
    open_cpu(&r, &isk_model_cpu1, (isk_system_options){ 0 }, (const int[]){ NOP, HALT, -1 });
    CHECK_EQ(isk_run(r.sys, 0), ISK_STOPPED);
    rig_close(&r);
}


/* An endless loop in the fast issue loops (CPI and round robin) stops at the clock the handler
 * ran in. */
static void test_request_stop_in_fast_loops(void)
{
    struct sigaction old = stop_on_sigusr1();
    const int program[] = { NOP, NOP, RAISE | SIGUSR1, NOP, JUMP | 3, -1 };
    rig r;
    open_cpu(&r, &isk_model_cpu1, (isk_system_options){ 0 }, program);
    to_stop = r.sys;
    CHECK_EQ(isk_run(r.sys, 0), ISK_OK);
    CHECK_EQ(isk_clock(r.sys), 5);              /* the raise issued at clock 4, its first clock */
    rig_close(&r);
    open_cpu(&r, &isk_model_cpu4, (isk_system_options){ 0 }, program);
    to_stop = r.sys;
    CHECK_EQ(isk_run(r.sys, 0), ISK_OK);
    CHECK_EQ(isk_clock(r.sys), 3);              /* one context: instructions at clocks 0, 1, 2 */
    CHECK_EQ(isk_run(r.sys, 50), ISK_OK);      /* the loop goes on afterwards */
    CHECK_EQ(isk_clock(r.sys), 53);
    rig_close(&r);
    sigaction(SIGUSR1, &old, NULL);
}

/* A crash or a stuck instruction in a fast loop names the context, the PC and the behaviour; the
 * counts up to it are settled. */
static void test_crash_and_watchdog_in_processor(void)
{
    rig r;
    open_cpu(&r, &isk_model_cpu1, (isk_system_options){ .catch_crashes = 1 }, (const int[]){ NOP, NOP, CRASH, -1 });
    CHECK_EQ(isk_run(r.sys, 0), ISK_FAULT);
    CHECK_CONTAINS(isk_last_error(r.sys), "clock 4, cpu context 0, pc 0x2, in behaviour Crash of model 'cpu1' "
                                         "(cpu_test.c): crashed: SIGABRT");
    CHECK_EQ(isk_context_of(r.inst, 0)->state, ISK_CTX_FAULTED);
    CHECK_EQ(isk_context_of(r.inst, 0)->pc, 2);
    isk_stats st;
    isk_get_stats(r.sys, &st);
    CHECK_EQ(st.instructions, 2);
    CHECK_EQ(isk_run(r.sys, 0), ISK_FAILED);
    rig_close(&r);
    open_cpu(&r, &isk_model_cpu4, (isk_system_options){ .watchdog_ms = 50 }, (const int[]){ NOP, SPIN, -1 });
    CHECK_EQ(isk_run(r.sys, 0), ISK_FAULT);
    CHECK_CONTAINS(isk_last_error(r.sys), "clock 1, cpu context 0, pc 0x1, in behaviour Spin of model 'cpu4' "
                                         "(cpu_test.c): did not return to the engine within 50 ms (watchdog)");
    rig_close(&r);
}

/* A driver that waits for a far clock: the idle clocks are skipped, not simulated one by one. */
typedef struct far { int calls; uint64_t at[4]; } far;

static int far_driver(void *user, isk_system *sys)
{
    far *f = user;
    f->at[f->calls++] = isk_clock(sys);
    if (f->calls == 1) {
        isk_driver_wait_until(sys, UINT64_C(1000000000000));
        return 0;
    }
    return 1;
}

static void test_driver_wait_skips_idle_clocks(void)
{
    rig r;
    open_cpu(&r, &isk_model_cpu4, (isk_system_options){ 0 }, (const int[]){ NOP, HALT, -1 });
    far f = { 0 };
    isk_set_driver(r.sys, far_driver, &f);
    CHECK_EQ(isk_run(r.sys, 0), ISK_STOPPED);
    CHECK_EQ(f.calls, 2);
    CHECK_EQ(f.at[1], UINT64_C(1000000000000));
    isk_stats st;
    isk_get_stats(r.sys, &st);
    CHECK_EQ(st.clocks, UINT64_C(1000000000001));
    CHECK_EQ(st.instructions, 2);
    CHECK_EQ(st.idle_clocks, UINT64_C(1000000000001) - 2);
    rig_close(&r);
    /* the run's limit still holds */
    open_cpu(&r, &isk_model_cpu4, (isk_system_options){ 0 }, (const int[]){ HALT, -1 });
    f = (far){ 0 };
    isk_set_driver(r.sys, far_driver, &f);
    CHECK_EQ(isk_run(r.sys, 5000), ISK_OK);
    CHECK_EQ(isk_clock(r.sys), 5000);
    CHECK_EQ(f.calls, 1);
    rig_close(&r);
}

int main(void)
{
    test_deadlock();
    test_request_stop_in_fast_loops();
    test_crash_and_watchdog_in_processor();
    test_driver_wait_skips_idle_clocks();
    return CHECK_DONE();
}
