/* Multi-clock behaviours: the first clock runs on the engine's stack, later clocks on a stack
 * the command took; faults, nesting, recursion and reuse of stacks on both paths. */
#define ISK_BUILTIN_MODEL 1
#include "check.h"
#include "engine/model_desc.h"
#include "isekit/model.h"
#include "isekit/sim.h"

STATE_BEGIN
    DECLARE_MEMORY(INT(32, 1), 64) M;
    DECLARE_REGISTER(UINT(32, 0)) COUNT;
STATE_END

/* Runs n clocks, writing M[base + 1 .. base + n], one per clock. */
ACC_FUNCTION(Walk, base, n)
{
    for (int64_t t = 1; t <= n; t++) {
        SET(M, base + t, GET(M, base + t - 1) + 1);
        if (t < n) FinishCycle();
    }
}

/* Reads outside M in its k-th clock. */
ACC_FUNCTION(FaultAt, k)
{
    for (int64_t t = 1; t < k; t++) {
        SET(COUNT, t);
        FinishCycle();
    }
    (void)GET(M, 1000);
}

/* Recursion across clock boundaries: each level takes a clock. */
static int64_t depth_sum(STATE, int64_t depth)
{
    if (depth == 0) return 0;
    char pad[512];                       /* make the frames big enough to matter */
    pad[depth % 512] = (char)depth;
    FinishCycle();
    SET(COUNT, GET(COUNT) + 1);
    return depth + depth_sum(S, depth - 1) + (pad[depth % 512] - (char)depth);
}

ACC_FUNCTION(Recurse, depth)
{
    SET(M, 63, depth_sum(S, depth));
}

/* Two FinishCycle() at the end: the second one ends an empty clock. */
ACC_FUNCTION(TwoEnds)
{
    SET(M, 0, 5);
    FinishCycle();
    FinishCycle();
}

MODEL_BEGIN(multiclock, "multi-clock behaviours")
    WORD_BITS(16);
    SLOTS(8);
    MEMORY(M, "memory");
    REG(COUNT, "count");
    INSTRUCTION("0001-bbbbbb-nnnnnn", Walk, "walk {b}, {n}");
    INSTRUCTION("0100-0000-kkkkkkkk", FaultAt, "faultat {k}");
    INSTRUCTION("0010-0000-dddddddd", Recurse, "recurse {d}");
    INSTRUCTION("0011-0000-0000-0000", TwoEnds, "twoends");
MODEL_END

static isk_model *load(isk_diag *d)
{
    return isk_model_from_entry(&isk_model_multiclock, "test", d);
}

/* The model, a system and its one accelerator "a". */
static isk_inst *open_a(isk_model **m, isk_system **sys)
{
    isk_diag d;
    isk_diag_init(&d);
    *m = load(&d);
    *sys = isk_system_new(NULL);
    return isk_system_add(*sys, *m, "a");
}

static int busy_clocks(isk_system *sys, isk_inst *a)
{
    int clocks = 0;
    while (isk_busy_slots(a) && clocks < 1000 && isk_step(sys, 1) == ISK_OK) clocks++;
    return clocks;
}

/* A driver issuing a command each clock (the engine's stream loop) against the same commands
 * launched by the host between clocks (the general loop and run_beside): the same clocks,
 * memory and statistics. Every fifth command takes three clocks, so the stream leaves its loop
 * for busy slots and comes back; the driver finishes at clock 20 and may ask for a break. */
typedef struct stream_script { isk_inst *a; int break_at, calls_at_break, fault_at; } stream_script;

static uint64_t stream_word(uint64_t c) { return 0x1000u | (c * 2 % 50) << 6 | (c % 5 == 3 ? 3u : 1u); }

static int stream_driver(void *user, isk_system *sys)
{
    stream_script *s = user;
    uint64_t c = isk_clock(sys);
    if ((int)c == s->break_at && s->calls_at_break++ == 0) return ISK_DRIVER_BREAK;
    if (c == 20) return 1;
    return isk_launch(sys, s->a, stream_word(c)) == ISK_OK ? 0 : -1;
}

/* The stream with a command faulting in its fault_at-th clock launched at clock 2. */
static int fault_driver(void *user, isk_system *sys)
{
    stream_script *s = user;
    uint64_t c = isk_clock(sys);
    uint64_t word = c == 2 ? 0x4000u | (unsigned)s->fault_at : stream_word(c);
    return isk_launch(sys, s->a, word) == ISK_OK ? 0 : -1;
}

static void test_fault_on_both_stacks(void)
{
    isk_diag d;
    isk_diag_init(&d);
    isk_diag_buffer out;
    isk_diag_capture(&d, &out);
    isk_model *m = load(&d);
    for (int fault_at = 1; fault_at <= 3; fault_at++) {
        isk_system_options o = { .diag = &d };
        isk_system *sys = isk_system_new(&o);
        isk_inst *a = isk_system_add(sys, m, "a");
        CHECK_EQ(isk_launch(sys, a, 0x1000u | 8u << 6 | 5u), ISK_OK);  /* a healthy neighbour */
        CHECK_EQ(isk_launch(sys, a, 0x4000u | (unsigned)fault_at), ISK_OK);
        isk_status st = ISK_OK;
        for (int k = 0; k < 10 && st == ISK_OK; k++) st = isk_step(sys, 1);
        CHECK_EQ(st, ISK_FAULT);
        char expect[64];
        snprintf(expect, sizeof expect, "clock %d, a slot 1 (FaultAt", fault_at - 1);
        CHECK_CONTAINS(isk_last_error(sys), expect);
        CHECK_CONTAINS(isk_last_error(sys), "index 1000 is outside M (64 cells)");
        isk_system_free(sys);
        /* launched by a driver: the first clock runs inside the engine's stream loop */
        sys = isk_system_new(&o);
        stream_script s = { .a = isk_system_add(sys, m, "a"), .break_at = -1, .fault_at = fault_at };
        isk_set_driver(sys, fault_driver, &s);
        CHECK_EQ(isk_run(sys, 100), ISK_FAULT);
        snprintf(expect, sizeof expect, "clock %d, a slot 0 (FaultAt", 1 + fault_at);
        CHECK_CONTAINS(isk_last_error(sys), expect);
        isk_system_free(sys);
    }
    isk_model_release(m);
    isk_diag_buffer_free(&out);
}

static void test_recursion_and_stack_reuse(void)
{
    isk_model *m;
    isk_system *sys;
    isk_inst *a = open_a(&m, &sys);
    for (int round = 0; round < 50; round++) {
        int depth = 1 + round % 40;
        CHECK_EQ(isk_launch(sys, a, 0x2000u | (unsigned)depth), ISK_OK);
        CHECK_EQ(busy_clocks(sys, a), depth + 1);
        int64_t v;
        isk_read(a, "M", 63, &v);
        CHECK_EQ(v, depth * (depth + 1) / 2);
    }
    int64_t count;
    isk_read(a, "COUNT", 0, &count);
    CHECK(count > 0);
    isk_system_free(sys);
    isk_model_release(m);
}

static void test_many_concurrent(void)
{
    isk_model *m;
    isk_system *sys;
    isk_inst *a = open_a(&m, &sys);
    /* Eight walks of different lengths on disjoint cells, launched in one clock, many times:
     * commands end in every order, so stacks are taken and given back in every order. */
    for (int round = 0; round < 30; round++) {
        int n[8];
        for (int s = 0; s < 8; s++) {
            n[s] = 1 + (s * 3 + round) % 7;
            CHECK_EQ(isk_write(a, "M", (uint64_t)s * 8, round), ISK_OK);
            CHECK_EQ(isk_launch(sys, a, 0x1000u | (unsigned)(s * 8) << 6 | (unsigned)n[s]), ISK_OK);
        }
        CHECK_EQ(busy_clocks(sys, a), 7);
        for (int s = 0; s < 8; s++) {
            int64_t v;
            isk_read(a, "M", (uint64_t)(s * 8 + n[s]), &v);
            CHECK_EQ(v, round + n[s]);
        }
    }
    isk_system_free(sys);
    isk_model_release(m);
}

static void test_trailing_finish_cycles(void)
{
    isk_model *m;
    isk_system *sys;
    isk_inst *a = open_a(&m, &sys);
    CHECK_EQ(isk_launch(sys, a, 0x3000), ISK_OK);
    CHECK_EQ(busy_clocks(sys, a), 2);
    isk_system_free(sys);
    isk_model_release(m);
}

static void test_driver_stream(void)
{
    /* the reference: the host launches before each clock */
    isk_model *m;
    isk_system *ref;
    isk_inst *ra = open_a(&m, &ref);
    for (uint64_t c = 0; c < 20; c++) {
        CHECK_EQ(isk_launch(ref, ra, stream_word(c)), ISK_OK);
        CHECK_EQ(isk_step(ref, 1), ISK_OK);
    }
    CHECK_EQ(isk_run(ref, 0), ISK_STOPPED);
    CHECK_EQ(isk_clock(ref), 21u);
    for (int break_at = -1; break_at <= 8; break_at += 9) {
        isk_system *sys = isk_system_new(NULL);
        stream_script s = { .a = isk_system_add(sys, m, "a"), .break_at = break_at };
        isk_set_driver(sys, stream_driver, &s);
        isk_status st = isk_run(sys, 0);
        if (break_at >= 0) {
            CHECK_EQ(st, ISK_BREAK);
            CHECK_EQ(isk_clock(sys), (uint64_t)break_at);   /* the clock is not counted */
            st = isk_run(sys, 0);
            CHECK_EQ(s.calls_at_break, 2);                   /* the driver begins it again */
        }
        CHECK_EQ(st, ISK_STOPPED);
        CHECK_EQ(isk_clock(sys), isk_clock(ref));
        for (int i = 0; i < 64; i++) {
            int64_t v, w;
            isk_read(s.a, "M", i, &v);
            isk_read(ra, "M", i, &w);
            CHECK_EQ(v, w);
        }
        isk_stats x, y;
        isk_get_stats(sys, &x);
        isk_get_stats(ref, &y);
        CHECK_EQ(x.clocks, y.clocks);
        CHECK_EQ(x.launches, 20u);
        CHECK_EQ(x.launches, y.launches);
        CHECK_EQ(x.commands_done, y.commands_done);
        CHECK_EQ(x.slot_clocks, y.slot_clocks);
        CHECK_EQ(x.slot_clocks, 28u);                        /* 16 one-clock, 4 three-clock */
        CHECK_EQ(x.writes, y.writes);
        CHECK_EQ(x.max_busy_slots, y.max_busy_slots);
        isk_system_free(sys);
    }
    isk_system_free(ref);
    isk_model_release(m);
}

int main(void)
{
    test_fault_on_both_stacks();
    test_recursion_and_stack_reuse();
    test_many_concurrent();
    test_trailing_finish_cycles();
    test_driver_stream();
    return CHECK_DONE();
}
