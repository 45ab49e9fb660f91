/* The engine's clock semantics (docs/semantics.md), clock by clock, on the article's example
 * accelerator. */
#include <pthread.h>

#include "example_harness.h"

/* Latency 1: a write in clock k is readable from k+1; reads in clock k see the old value. */
static void test_latency_one(void)
{
    harness h;
    harness_open(&h, 0);
    CHECK_EQ(launch_step(&h, "ldi lr1, 7"), ISK_OK);        /* clock 0 */
    CHECK_EQ(value(&h, "LR1"), 7);
    CHECK_EQ(launch(&h, "ldi lr1, 9"), ISK_OK);             /* clock 1: two commands, one clock */
    CHECK_EQ(launch(&h, "move gr0, lr1"), ISK_OK);          /* reads LR1 before the new write */
    CHECK_EQ(isk_step(h.sys, 1), ISK_OK);
    CHECK_EQ(value(&h, "GR0"), 7);
    CHECK_EQ(value(&h, "LR1"), 9);
    CHECK_EQ(launch_step(&h, "move gr1, lr1"), ISK_OK);     /* clock 2 sees clock 1's write */
    CHECK_EQ(value(&h, "GR1"), 9);
    harness_close(&h);
}

/* Latency 3 (LDM): reads in the two clocks after a write still return the old value. */
static void test_latency_three(void)
{
    harness h;
    harness_open(&h, 0);
    CHECK_EQ(isk_write(h.acc, "LDM", 5, 11), ISK_OK);       /* the host's value before clock 0 */
    CHECK_EQ(launch_step(&h, "ldi lr1, 42"), ISK_OK);       /* clock 0 */
    CHECK_EQ(launch_step(&h, "stm ldm[5], lr1"), ISK_OK);   /* clock 1: LDM[5] = 42 from clock 4 */
    CHECK_EQ(launch_step(&h, "ldm lr2, ldm[5]"), ISK_OK);   /* clock 2 */
    CHECK_EQ(launch_step(&h, "ldm lr3, ldm[5]"), ISK_OK);   /* clock 3 */
    CHECK_EQ(launch_step(&h, "ldm lr4, ldm[5]"), ISK_OK);   /* clock 4 */
    CHECK_EQ(value(&h, "LR2"), 11);
    CHECK_EQ(value(&h, "LR3"), 11);
    CHECK_EQ(value(&h, "LR4"), 42);
    harness_close(&h);
}

/* Two MACs launched in consecutive clocks overlap: the second multiplies while the first adds. */
static void test_mac_pipeline(void)
{
    harness h;
    harness_open(&h, 0);
    launch_step(&h, "ldg gr0, 3");                           /* clock 0 */
    launch_step(&h, "ldg gr1, 4");                           /* clock 1 */
    launch_step(&h, "mac gr0, gr1");                         /* clock 2: MULRES = 12 */
    CHECK_EQ(value(&h, "MULRES"), 12);
    CHECK_EQ(isk_busy_slots(h.acc), 1);
    CHECK_EQ(launch(&h, "mac gr1, gr1"), ISK_OK);            /* clock 3: ACC += 12 and MULRES = 16 */
    CHECK_EQ(isk_busy_slots(h.acc), 2);
    CHECK_EQ(isk_step(h.sys, 1), ISK_OK);
    CHECK_EQ(value(&h, "ACR"), 12);
    CHECK_EQ(value(&h, "MULRES"), 16);
    CHECK_EQ(isk_step(h.sys, 1), ISK_OK);                    /* clock 4: ACC += 16 */
    CHECK_EQ(value(&h, "ACR"), 28);
    CHECK_EQ(isk_busy_slots(h.acc), 0);
    isk_stats st;
    isk_get_stats(h.sys, &st);
    CHECK_EQ(st.max_busy_slots, 2);
    CHECK_EQ(st.commands_done, 4);
    CHECK_EQ(st.resource_clocks[0], 2);                      /* MAC adder: clocks 3 and 4 */
    CHECK_EQ(st.resource_clocks[1], 2);                      /* MAC multiplier: clocks 2 and 3 */
    harness_close(&h);
}

static void load_vectors(harness *h)
{
    for (int i = 0; i < 16; i++) {
        isk_write(h->acc, "DM0", (uint64_t)i, i + 1);
        isk_write(h->acc, "TM0", (uint64_t)(100 + i), 2 * i - 5);
    }
    launch_step(h, "setar ar2, 0");
    launch_step(h, "setar ar3, 100");
}

static int64_t expected_dot(int n)
{
    int64_t sum = 0;
    for (int i = 0; i < n; i++) sum += (int64_t)(i + 1) * (2 * i - 5);
    return sum;
}

/* CONV lasts LOOPREG + 2 clocks and raises the interrupt in its last clock. */
static void test_conv_length_and_interrupt(void)
{
    for (int n = 0; n <= 6; n += 3) {
        harness h;
        harness_open(&h, 0);
        load_vectors(&h);
        char setloop[32];
        snprintf(setloop, sizeof setloop, "setloop %d", n);
        launch_step(&h, setloop);
        uint64_t start = isk_clock(h.sys);
        CHECK_EQ(launch(&h, "conv acc, dm0[ar2], tm0[ar3]"), ISK_OK);
        for (int k = 0; k < n + 2; k++) {
            CHECK_EQ(isk_busy_slots(h.acc), 1);
            CHECK_EQ(isk_interrupts(h.sys, 0, NULL), 0);
            CHECK_EQ(isk_step(h.sys, 1), ISK_OK);
        }
        CHECK_EQ(isk_busy_slots(h.acc), 0);
        CHECK_EQ(isk_interrupts(h.sys, 1, NULL), 1);
        CHECK_EQ(isk_clock(h.sys) - start, (uint64_t)n + 2);
        /* The accumulator is 36 bits unsigned: a negative sum wraps. */
        CHECK_EQ(value(&h, "ACR"), (int64_t)((uint64_t)expected_dot(n + 1) & ((UINT64_C(1) << 36) - 1)));
        CHECK_EQ(value(&h, "LOOPREG"), 0);
        CHECK_EQ(value(&h, "AR2"), n + 1);
        harness_close(&h);
    }
}

/* A trailing FinishCycle() adds no clock; each other one ends a clock. */
static void test_finish_cycle_counts(void)
{
    harness h;
    harness_open(&h, 0);
    launch_step(&h, "move gr0, lr0");
    CHECK_EQ(isk_busy_slots(h.acc), 0);                      /* Move: one clock despite FinishCycle() */
    for (int n = 1; n <= 4; n++) {
        char text[32];
        snprintf(text, sizeof text, "delay %d", n);
        CHECK_EQ(launch(&h, text), ISK_OK);
        int clocks = 0;
        do {
            isk_step(h.sys, 1);
            clocks++;
        } while (isk_busy_slots(h.acc) && clocks < 10);
        CHECK_EQ(clocks, n);
    }
    harness_close(&h);
}

/* CREW: two writes to one cell in one clock. An error by default, a warning on request. */
static void test_crew_conflict(void)
{
    harness h;
    harness_open(&h, 0);
    launch(&h, "ldg gr1, 1");
    launch(&h, "ldg gr1, 2");
    CHECK_EQ(isk_step(h.sys, 1), ISK_CONFLICT);
    CHECK_CONTAINS(isk_last_error(h.sys), "clock 0: CREW conflict: acc.GRF[1] (GR1) written twice");
    CHECK_CONTAINS(isk_last_error(h.sys), "slot 0 (Load_GREG_IMM");
    CHECK_CONTAINS(isk_last_error(h.sys), "slot 1 (Load_GREG_IMM");
    CHECK_EQ(isk_step(h.sys, 1), ISK_CONFLICT);             /* a stopped system stays stopped */
    harness_close(&h);

    harness_open(&h, 1);
    launch(&h, "ldg gr1, 1");
    launch(&h, "ldg gr1, 2");
    CHECK_EQ(isk_step(h.sys, 1), ISK_OK);
    CHECK_CONTAINS(h.messages.text, "warning: clock 0: CREW conflict");
    isk_stats st;
    isk_get_stats(h.sys, &st);
    CHECK_EQ(st.crew_conflicts, 1);
    harness_close(&h);
}

/* Resources: MAC's accumulate and CLRACC both need the MAC adder in the same clock. */
static void test_resource_clash(void)
{
    harness h;
    harness_open(&h, 0);
    launch_step(&h, "mac gr0, gr1");                         /* clock 0: multiply */
    CHECK_EQ(launch_step(&h, "clracc"), ISK_CONFLICT);       /* clock 1: both add */
    CHECK_CONTAINS(isk_last_error(h.sys), "clock 1: resource clash in acc");
    CHECK_CONTAINS(isk_last_error(h.sys), "Clear_ACC");
    CHECK_CONTAINS(isk_last_error(h.sys), "0x1 (MAC adder)");
    CHECK_CONTAINS(isk_last_error(h.sys), "MAC_LREG_GREG");
    harness_close(&h);
}

/* A clash as a warning: the clock's bits are counted once, the first user stays the one named,
 * and the statistics include the clock just run when they are read, for the system and for the
 * instance (a scheme that counts a clock's uses only when the next clock's arrive must still
 * show them). */
static void test_resource_clocks_with_clash(void)
{
    harness h;
    harness_open(&h, 1);
    launch_step(&h, "mac gr0, gr1");                         /* clock 0: multiplier */
    CHECK_EQ(launch_step(&h, "clracc"), ISK_OK);             /* clock 1: MAC and CLRACC add */
    CHECK_CONTAINS(h.messages.text, "warning: clock 1: resource clash in acc");
    CHECK_CONTAINS(h.messages.text, "already used in this clock by acc slot 0 (MAC_LREG_GREG");
    isk_stats st, ist;
    isk_get_stats(h.sys, &st);
    CHECK_EQ(st.resource_clashes, 1);
    CHECK_EQ(st.resource_clocks[0], 1);                      /* adder: clock 1, still open */
    CHECK_EQ(st.resource_clocks[1], 1);                      /* multiplier: clock 0 */
    launch_step(&h, "mac gr1, gr1");                         /* clock 2: multiplier */
    CHECK_EQ(isk_step(h.sys, 1), ISK_OK);                    /* clock 3: adder */
    launch_step(&h, "mac gr1, gr1");                         /* clock 4: multiplier */
    CHECK_EQ(isk_step(h.sys, 1), ISK_OK);                    /* clock 5: adder */
    isk_get_stats(h.sys, &st);
    isk_inst_stats(h.acc, &ist);
    CHECK_EQ(st.resource_clocks[0], 3);
    CHECK_EQ(st.resource_clocks[1], 3);
    CHECK_EQ(st.resource_clocks[2], 0);
    CHECK_EQ(ist.resource_clocks[0], 3);
    CHECK_EQ(ist.resource_clocks[1], 3);
    CHECK_EQ(ist.resource_clashes, 1);
    harness_close(&h);
}

/* N_s = 4 slots: a fifth concurrent command has none; a slot freed in clock k serves k+1. */
static void test_slot_exhaustion(void)
{
    harness h;
    harness_open(&h, 0);
    for (int i = 0; i < 4; i++) CHECK_EQ(launch_step(&h, "delay 5"), ISK_OK);   /* clocks 0..3 */
    CHECK_EQ(isk_busy_slots(h.acc), 4);
    CHECK_EQ(launch(&h, "ldi lr0, 1"), ISK_CONFLICT);                            /* clock 4 */
    CHECK_CONTAINS(isk_last_error(h.sys), "clock 4: acc: no free slot for Load_LREG_IMM");
    CHECK_CONTAINS(isk_last_error(h.sys), "all 4 slots are busy");
    harness_close(&h);

    harness_open(&h, 0);
    for (int i = 0; i < 4; i++) launch_step(&h, "delay 5");
    CHECK_EQ(isk_step(h.sys, 1), ISK_OK);                                        /* clock 4: first ends */
    CHECK_EQ(isk_busy_slots(h.acc), 3);
    CHECK_EQ(launch_step(&h, "ldi lr0, 1"), ISK_OK);                             /* clock 5 */
    harness_close(&h);
}

/* Synchronisation 1: static timing. The programmer knows CONV takes LOOPREG + 2 clocks. */
static void test_sync_static(void)
{
    harness h;
    harness_open(&h, 0);
    load_vectors(&h);
    launch_step(&h, "setloop 4");
    launch_step(&h, "conv acc, dm0[ar2], tm0[ar3]");
    isk_step(h.sys, 4);                                      /* 5 clocks after the launch */
    CHECK(value(&h, "ACR") != (int64_t)(uint64_t)expected_dot(5));
    isk_step(h.sys, 1);                                      /* 6 = LOOPREG + 2 */
    CHECK_EQ(value(&h, "ACR"), (int64_t)((uint64_t)expected_dot(5) & ((UINT64_C(1) << 36) - 1)));
    harness_close(&h);
}

/* Synchronisation 2: a flag in shared memory, polled by the processor. */
static void test_sync_flag(void)
{
    harness h;
    harness_open(&h, 0);
    load_vectors(&h);
    launch_step(&h, "setloop 7");
    uint64_t start = isk_clock(h.sys);
    launch_step(&h, "convf acc, dm0[ar2], tm0[ar3], shm[3]");
    int64_t flag = 0;
    while (isk_read(h.acc, "SHM", 3, &flag) == ISK_OK && !flag && isk_clock(h.sys) < 100) isk_step(h.sys, 1);
    CHECK_EQ(flag, 1);
    CHECK_EQ(isk_clock(h.sys) - start, 9u);                  /* seen in the clock after the last */
    CHECK_EQ(value(&h, "ACR"), expected_dot(8));
    CHECK_EQ(isk_interrupts(h.sys, 0, NULL), 0);
    harness_close(&h);
}

/* Synchronisation 3: the accelerator interrupts the processor. */
static void test_sync_interrupt(void)
{
    harness h;
    harness_open(&h, 0);
    load_vectors(&h);
    launch_step(&h, "setloop 2");
    launch_step(&h, "conv acc, dm0[ar2], tm0[ar3]");
    isk_inst *from = NULL;
    while (!isk_interrupts(h.sys, 1, &from) && isk_clock(h.sys) < 100) isk_step(h.sys, 1);
    CHECK(from == h.acc);
    CHECK_EQ(value(&h, "ACR"), (int64_t)((uint64_t)expected_dot(3) & ((UINT64_C(1) << 36) - 1)));
    harness_close(&h);
}

/* A command's fault names the clock, the slot and the cause, and stops the system. */
static void test_fault_report(void)
{
    harness h;
    harness_open(&h, 0);
    launch_step(&h, "ldi lr0, 1");
    CHECK_EQ(launch_step(&h, "ldm lr1, ldm[3000]"), ISK_FAULT);
    CHECK_CONTAINS(isk_last_error(h.sys), "clock 1, acc slot 0 (Load_LREG_LDM");
    CHECK_CONTAINS(isk_last_error(h.sys), "index 3000 is outside LDM (2048 cells)");
    harness_close(&h);

    harness_open(&h, 0);
    CHECK_EQ(isk_launch(h.sys, h.acc, 0x000000), ISK_FAULT);
    CHECK_CONTAINS(isk_last_error(h.sys), "no instruction format of 'example' accepts the word 0x000000");
    harness_close(&h);
}

/* Names: storage, title, element names, indices. */
static void test_names(void)
{
    harness h;
    harness_open(&h, 0);
    int64_t v;
    CHECK_EQ(isk_write(h.acc, "General Registers[1]", 0, 5), ISK_OK);
    CHECK_EQ(isk_read(h.acc, "GR1", 0, &v), ISK_OK);
    CHECK_EQ(v, 5);
    CHECK_EQ(isk_read(h.acc, "grf[1]", 0, &v), ISK_OK);
    CHECK_EQ(v, 5);
    CHECK_EQ(isk_write(h.acc, "Acc LDM[0x10]", 0, -70000), ISK_OK);  /* wraps to 16 bits */
    CHECK_EQ(isk_read(h.acc, "LDM", 16, &v), ISK_OK);
    CHECK_EQ(v, (int16_t)-70000);
    CHECK_EQ(isk_write(h.acc, "ACR", 0, -1), ISK_OK);                 /* 36-bit unsigned */
    CHECK_EQ(value(&h, "ACR"), (INT64_C(1) << 36) - 1);
    CHECK_EQ(isk_read(h.acc, "GRF[2]", 0, &v), ISK_FAILED);
    CHECK_CONTAINS(h.messages.text, "index 2 is outside GRF (2 cells)");
    CHECK_EQ(isk_read(h.acc, "nothing", 0, &v), ISK_FAILED);
    CHECK_CONTAINS(h.messages.text, "no storage or register named 'nothing'");
    harness_close(&h);
}

/* Two accelerators in one system share the memory declared SHARED_MEMORY. */
static void test_shared_memory(void)
{
    harness h;
    harness_open(&h, 0);
    isk_inst *second = isk_system_add(h.sys, h.model, "acc1");
    CHECK(second != NULL);
    isk_attach(h.sys, second, 1);
    CHECK_EQ(isk_launch(h.sys, second, word_of(&h, "flag shm[9], 77")), ISK_OK);
    isk_step(h.sys, 1);
    CHECK_EQ(value(&h, "SHM[9]"), 77);
    int64_t v;
    isk_read(second, "DM0", 0, &v);
    CHECK_EQ(v, 0);
    harness_close(&h);
}

/* No global state: independent systems on several threads give the same results. */
static void *thread_body(void *arg)
{
    int64_t *result = arg;
    for (int round = 0; round < 20; round++) {
        harness h;
        harness_open(&h, 0);
        load_vectors(&h);
        launch_step(&h, "setloop 9");
        launch_step(&h, "conv acc, dm0[ar2], tm0[ar3]");
        launch_step(&h, "delay 3");
        isk_run(h.sys, 1000);
        *result = value(&h, "ACR");
        harness_close(&h);
    }
    return NULL;
}

static void test_threads(void)
{
    pthread_t t[4];
    int64_t results[4];
    for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, thread_body, &results[i]);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < 4; i++) CHECK_EQ(results[i], expected_dot(10));
}

int main(void)
{
    test_latency_one();
    test_latency_three();
    test_mac_pipeline();
    test_conv_length_and_interrupt();
    test_finish_cycle_counts();
    test_crew_conflict();
    test_resource_clash();
    test_resource_clocks_with_clash();
    test_slot_exhaustion();
    test_sync_static();
    test_sync_flag();
    test_sync_interrupt();
    test_fault_report();
    test_names();
    test_shared_memory();
    test_threads();
    return CHECK_DONE();
}
