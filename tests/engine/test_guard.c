/* Crashes in model code, the watchdog, stopping on request and the description of what is going
 * on, on an accelerator whose commands misbehave on purpose (docs/semantics.md, section 7). */
#define ISK_BUILTIN_MODEL 1
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guard_rig.h"
#include "stopper.h"
#include "engine/model_desc.h"
#include "isekit/model.h"
#include "isekit/sim.h"

STATE_BEGIN
    DECLARE_REGISTERS_FILE(INT(64, 1), 8) R;
STATE_END

/* The faults happen in helpers the sanitizers leave alone, so that a sanitized build sees the
 * signal itself rather than the sanitizer's report of what causes it. */
#define RAW __attribute__((noinline, no_sanitize("undefined")))
static RAW int64_t load_from(int64_t address) { return *(volatile int64_t *)(uintptr_t)address; }
static RAW int64_t divide(int64_t a, int64_t b)
{
#if defined(__x86_64__) || defined(__i386__)
    return a / b;
#else
    /* Other hosts do not trap on division by zero. */
    if (b == 0) raise(SIGFPE);
    return b ? a / b : 0;
#endif
}
static RAW int64_t deep(int64_t n)
{
    volatile char pad[4096];
    pad[n % 4096] = (char)n;
    return n ? deep(n - 1) + pad[n % 4096] : 0;
}

ACC_FUNCTION(Ldi, r, v)     { SET(R, r, v); }
ACC_FUNCTION(Null)          { SET(R, 1, load_from(GET(R, 0))); }
ACC_FUNCTION(Div)           { SET(R, 1, divide(7, GET(R, 0))); }
ACC_FUNCTION(Overflow)      { SET(R, 1, deep(1000000 + GET(R, 0))); }
ACC_FUNCTION(Abort)         { if (GET(R, 0) == 0) abort(); }
ACC_FUNCTION(Spin)          { volatile int forever = 1; while (forever) {} SET(R, 1, 1); }
/* Two clocks, then a NULL dereference on the stack the command kept. */
ACC_FUNCTION(Late)
{
    SET(R, 2, 1);
    FinishCycle();
    SET(R, 2, 2);
    FinishCycle();
    SET(R, 1, load_from(GET(R, 0)));
}
/* Runs for ever, one clock at a time. */
ACC_FUNCTION(Count)
{
    for (;;) {
        SET(R, 3, GET(R, 3) + 1);
        FinishCycle();
    }
}
ACC_FUNCTION(Raise, sig)    { SET(R, 4, 1); raise((int)sig); }

MODEL_BEGIN(guarded, "commands that crash")
    WORD_BITS(16);
    SLOTS(4);
    REGFILE_BEGIN(R, "registers") REGISTER(0, "R0"); REGISTER(1, "R1"); REGISTER(3, "R3"); REGFILE_END()
    INSTRUCTION("0001-0rrr-vvvvvvvv", Ldi, "ldi r{r}, {v}");
    INSTRUCTION("0010-0000-0000-0000", Null, "null");
    INSTRUCTION("0010-0000-0000-0001", Div, "div");
    INSTRUCTION("0010-0000-0000-0010", Overflow, "overflow");
    INSTRUCTION("0010-0000-0000-0011", Abort, "abort");
    INSTRUCTION("0010-0000-0000-0100", Spin, "spin");
    INSTRUCTION("0010-0000-0000-0101", Late, "late");
    INSTRUCTION("0010-0000-0000-0110", Count, "count");
    INSTRUCTION("0011-0000-ssssssss", Raise, "raise {s}");
MODEL_END

enum { NUL = 0x2000, DIV = 0x2001, OVERFLOW = 0x2002, ABORT = 0x2003, SPIN = 0x2004, LATE = 0x2005,
       COUNT = 0x2006 };


static void open_acc(rig *r, isk_system_options o) { rig_open(r, &isk_model_guarded, "guard_test.c", "acc0", o); }

static const char *report(const rig *r) { return r->out.text ? r->out.text : ""; }

/* One crashing command: the run ends with ISK_FAULT and a report naming where, the system
 * refuses to run on, and it frees cleanly (the sanitized build checks the leaks). */
static void crash_case(uint64_t word, const char *behaviour, const char *what, size_t stack_size)
{
    rig r;
    open_acc(&r, (isk_system_options){ .catch_crashes = 1, .stack_size = stack_size });
    CHECK_EQ(isk_launch(r.sys, r.inst, 0x1000 | 5), ISK_OK);       /* ldi r0, 5: a clock that works */
    CHECK_EQ(isk_step(r.sys, 1), ISK_OK);
    CHECK_EQ(isk_launch(r.sys, r.inst, 0x1000), ISK_OK);           /* ldi r0, 0 */
    CHECK_EQ(isk_step(r.sys, 1), ISK_OK);
    CHECK_EQ(isk_launch(r.sys, r.inst, word), ISK_OK);
    CHECK_EQ(isk_step(r.sys, 10), ISK_FAULT);
    const char *msg = isk_last_error(r.sys);
    CHECK_CONTAINS(msg, "acc0 slot 0");
    CHECK_CONTAINS(msg, behaviour);
    CHECK_CONTAINS(msg, "model 'guarded' (guard_test.c)");
    CHECK_CONTAINS(msg, what);
    char word_text[32];
    snprintf(word_text, sizeof word_text, "word 0x%04llx", (unsigned long long)word);
    CHECK_CONTAINS(msg, word_text);
    CHECK_CONTAINS(msg, "launched at clock 2");
    CHECK_EQ(isk_step(r.sys, 1), ISK_FAILED);
    CHECK_CONTAINS(report(&r), "cannot run on after a crash in model code");
    int64_t v = -1;
    CHECK_EQ(isk_read(r.inst, "R0", 0, &v), ISK_OK);                /* still readable */
    CHECK_EQ(v, 0);
    rig_close(&r);
}

static void test_null_dereference(void) { crash_case(NUL, "behaviour Null", "clock 2, acc0", 0); }
static void test_division_by_zero(void) { crash_case(DIV, "behaviour Div", "SIGFPE", 0); }
static void test_abort(void) { crash_case(ABORT, "behaviour Abort", "SIGABRT, abort() was called", 0); }

static void test_stack_overflow(void)
{
    crash_case(OVERFLOW, "behaviour Overflow", "stack overflow: the behaviour needs more than its stack of "
               "262144 bytes (raise isk_system_options.stack_size)", 0);
    /* the size is a parameter, and the message says the one in force */
    crash_case(OVERFLOW, "behaviour Overflow", "its stack of 131072 bytes", 128 * 1024);
}

/* A crash on the stack a multi-clock command kept (its third clock), other commands running. */
static void test_crash_on_own_stack(void)
{
    rig r;
    open_acc(&r, (isk_system_options){ .catch_crashes = 1 });
    CHECK_EQ(isk_launch(r.sys, r.inst, COUNT), ISK_OK);
    CHECK_EQ(isk_launch(r.sys, r.inst, LATE), ISK_OK);
    CHECK_EQ(isk_step(r.sys, 10), ISK_FAULT);
    CHECK_EQ(isk_clock(r.sys), 2);
    CHECK_CONTAINS(isk_last_error(r.sys), "clock 2, acc0 slot 1 (Late, word 0x2005, launched at clock 0)");
    CHECK_CONTAINS(isk_last_error(r.sys), "SIGSEGV");
    int64_t v = 0;
    isk_read(r.inst, "R3", 0, &v);
    CHECK_EQ(v, 2);                       /* Count ran clocks 0 and 1; clock 2's write never landed */
    CHECK_EQ(isk_step(r.sys, 1), ISK_FAILED);
    rig_close(&r);                        /* Count's suspended stack is freed with the system */
}

/* Without catch_crashes nothing is installed for the system and the error path is unchanged;
 * with it, a signal outside any behaviour still gets the previous disposition (here: the
 * default one, or a sanitizer's report), in a child process. */
static void test_crash_outside_behaviour_is_not_caught(void)
{
    rig r;
    open_acc(&r, (isk_system_options){ .catch_crashes = 1 });
    CHECK_EQ(isk_launch(r.sys, r.inst, 0x1000 | 5), ISK_OK);
    CHECK_EQ(isk_step(r.sys, 1), ISK_OK);      /* the handlers are installed now */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        load_from(0);                          /* in no behaviour: not the engine's business */
        _exit(0);
    }
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(!(WIFEXITED(status) && WEXITSTATUS(status) == 0));
    CHECK(r.out.text == NULL || !strstr(r.out.text, "crashed"));
    rig_close(&r);
}

/* A command stuck in a C loop is reported by the watchdog with the same "where". */
static void test_watchdog(void)
{
    rig r;
    open_acc(&r, (isk_system_options){ .watchdog_ms = 100 });
    CHECK_EQ(isk_launch(r.sys, r.inst, COUNT), ISK_OK);
    CHECK_EQ(isk_step(r.sys, 3), ISK_OK);     /* a run that does not stick is left alone */
    CHECK_EQ(isk_launch(r.sys, r.inst, SPIN), ISK_OK);
    CHECK_EQ(isk_run(r.sys, 0), ISK_FAULT);
    CHECK_CONTAINS(isk_last_error(r.sys), "clock 3, acc0 slot 1 (Spin, word 0x2004, launched at clock 3)");
    CHECK_CONTAINS(isk_last_error(r.sys), "did not return to the engine within 100 ms (watchdog)");
    CHECK_EQ(isk_run(r.sys, 0), ISK_FAILED);
    rig_close(&r);
}

/* ---- stopping on request ------------------------------------------------------------------ */


/* From a signal handler (as for SIGINT): the run ends at the end of that clock with ISK_OK. */
static void test_request_stop_from_handler(void)
{
    rig r;
    open_acc(&r, (isk_system_options){ 0 });
    struct sigaction old = stop_on_sigusr1();
    to_stop = r.sys;
    CHECK_EQ(isk_launch(r.sys, r.inst, COUNT), ISK_OK);
    CHECK_EQ(isk_step(r.sys, 5), ISK_OK);
    CHECK_EQ(isk_launch(r.sys, r.inst, 0x3000 | SIGUSR1), ISK_OK);   /* raises SIGUSR1 in clock 5 */
    CHECK_EQ(isk_run(r.sys, 0), ISK_OK);                             /* not STOPPED: Count runs on */
    CHECK_EQ(isk_clock(r.sys), 6);
    int64_t v = 0;
    isk_read(r.inst, "R3", 0, &v);
    CHECK_EQ(v, 6);                                                  /* clock 5 was complete */
    /* each request ends one run: the next one goes on */
    CHECK_EQ(isk_step(r.sys, 4), ISK_OK);
    CHECK_EQ(isk_clock(r.sys), 10);
    /* a request between runs ends the next one before its first clock */
    isk_request_stop(r.sys);
    CHECK_EQ(isk_run(r.sys, 0), ISK_OK);
    CHECK_EQ(isk_clock(r.sys), 10);
    CHECK_EQ(isk_step(r.sys, 2), ISK_OK);
    CHECK_EQ(isk_clock(r.sys), 12);
    sigaction(SIGUSR1, &old, NULL);
    rig_close(&r);
}

/* From another thread, while a command runs for ever. */
static void test_request_stop_from_thread(void)
{
    rig r;
    open_acc(&r, (isk_system_options){ 0 });
    CHECK_EQ(isk_launch(r.sys, r.inst, COUNT), ISK_OK);
    CHECK_EQ(isk_step(r.sys, 1), ISK_OK);
    stopper s = { r.sys, 0 };
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, stop_until_done, &s), 0);
    CHECK_EQ(isk_run(r.sys, 0), ISK_OK);
    atomic_store(&s.done, 1);
    pthread_join(t, NULL);
    CHECK_EQ(isk_busy_slots(r.inst), 1);
    rig_close(&r);
}

/* ---- what is going on --------------------------------------------------------------------- */

static void test_describe_activity(void)
{
    rig r;
    open_acc(&r, (isk_system_options){ 0 });
    char buf[512];
    CHECK_EQ(isk_describe_activity(r.sys, buf, sizeof buf), 0);
    CHECK_STR(buf, "");
    CHECK_EQ(isk_launch(r.sys, r.inst, COUNT), ISK_OK);
    CHECK_EQ(isk_step(r.sys, 3), ISK_OK);
    CHECK_EQ(isk_launch(r.sys, r.inst, 0x1000 | 0x100 | 9), ISK_OK); /* ldi r1, 9 */
    CHECK_EQ(isk_describe_activity(r.sys, buf, sizeof buf), 2);
    CHECK_STR(buf, "acc0 slot 0: Count (word 0x2006), launched at clock 0, in its clock 4\n"
                   "acc0 slot 1: Ldi (word 0x1109), launched at clock 3, in its clock 1\n");
    CHECK_EQ(isk_step(r.sys, 1), ISK_OK);
    CHECK_EQ(isk_describe_activity(r.sys, buf, sizeof buf), 1);
    CHECK_STR(buf, "acc0 slot 0: Count (word 0x2006), launched at clock 0, in its clock 5\n");
    /* a buffer too small for a line ends with "..." and the count is still right */
    char tiny[40];
    CHECK_EQ(isk_describe_activity(r.sys, tiny, sizeof tiny), 1);
    CHECK_STR(tiny, "...\n");
    rig_close(&r);
}

int main(void)
{
    test_null_dereference();
    test_division_by_zero();
    test_abort();
    test_stack_overflow();
    test_crash_on_own_stack();
    test_crash_outside_behaviour_is_not_caught();
    test_watchdog();
    test_request_stop_from_handler();
    test_request_stop_from_thread();
    test_describe_activity();
    return CHECK_DONE();
}
