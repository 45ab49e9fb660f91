/* Prepared commands (isk_prepare, isk_launch_prepared): a word decoded once, launched like
 * isk_launch with the same clocks, values, counts and errors. */
#include "example_harness.h"
#include "same_stats.h"

/* A word no format accepts, an instance that is no accelerator or of another system: NULL
 * with the reason, and the system is not stopped. */
static void test_prepare_errors(void)
{
    harness h;
    harness_open(&h, 0);
    CHECK(isk_prepare(h.sys, h.acc, 0) == NULL);
    CHECK_CONTAINS(h.messages.text, "acc: no instruction format of 'example' accepts the word 0x");
    CHECK(isk_prepare(h.sys, NULL, word_of(&h, "ldi lr1, 1")) == NULL);
    CHECK_CONTAINS(h.messages.text, "isk_prepare: (null) is not an instance of this system");
    isk_system *other = isk_system_new(NULL);
    isk_inst *elsewhere = isk_system_add(other, h.model, "elsewhere");
    CHECK(isk_prepare(h.sys, elsewhere, word_of(&h, "ldi lr1, 1")) == NULL);
    CHECK_CONTAINS(h.messages.text, "isk_prepare: elsewhere is not an instance of this system");
    /* prepared for the other system, launched into this one */
    const isk_command *foreign = isk_prepare(other, elsewhere, word_of(&h, "ldi lr1, 1"));
    CHECK(foreign != NULL);
    CHECK_EQ(isk_step(h.sys, 1), ISK_OK);                       /* the errors above stopped nothing */
    CHECK_EQ(isk_launch_prepared(h.sys, foreign), ISK_FAILED);
    CHECK_CONTAINS(isk_last_error(h.sys), "isk_launch_prepared: prepared for another system");
    isk_system_free(other);
    harness_close(&h);

    harness_open(&h, 0);
    CHECK_EQ(isk_launch_prepared(h.sys, NULL), ISK_FAILED);
    CHECK_CONTAINS(isk_last_error(h.sys), "no command (isk_prepare failed)");
    harness_close(&h);
}

/* A prepared command launched into a busy accelerator: the slot error of isk_launch. */
static void test_busy(void)
{
    harness h;
    harness_open(&h, 0);
    const isk_command *delay = isk_prepare(h.sys, h.acc, word_of(&h, "delay 5"));
    CHECK(delay != NULL);
    int launched = 0;
    isk_status st;
    while ((st = isk_launch_prepared(h.sys, delay)) == ISK_OK) launched++;
    CHECK_EQ(st, ISK_CONFLICT);
    CHECK(launched >= 1);
    CHECK_EQ(isk_busy_slots(h.acc), launched);
    CHECK_CONTAINS(isk_last_error(h.sys), "clock 0: acc: no free slot for Delay");
    harness_close(&h);
}

/* The same stream launched as words and as prepared commands: equal registers, counts and
 * statistics after every clock. */
static const char *const stream[] = { "ldi lr1, 5", "move gr0, lr1", "ldi lr2, -7", "flag shm[4], 9",
                                      "move gr1, lr2", "mac gr0, gr1", "ldg gr1, 3", "delay 2" };
#define NSTREAM (sizeof stream / sizeof *stream)

static void test_same_as_launch(void)
{
    harness w, p;
    harness_open(&w, 0);
    harness_open(&p, 0);
    const isk_command *cmd[NSTREAM];
    for (size_t i = 0; i < NSTREAM; i++) CHECK((cmd[i] = isk_prepare(p.sys, p.acc, word_of(&p, stream[i]))) != NULL);
    static const char *const regs[] = { "LR1", "LR2", "GR0", "GR1", "MULRES", "ACR" };
    for (int c = 0; c < 40; c++) {
        size_t i = (size_t)c % NSTREAM;
        if (c % 9 != 8) {                                       /* now and then a clock without a launch */
            CHECK_EQ(isk_launch(w.sys, w.acc, word_of(&w, stream[i])), ISK_OK);
            CHECK_EQ(isk_launch_prepared(p.sys, cmd[i]), ISK_OK);
        }
        CHECK_EQ(isk_step(w.sys, 1), ISK_OK);
        CHECK_EQ(isk_step(p.sys, 1), ISK_OK);
        for (size_t r = 0; r < sizeof regs / sizeof *regs; r++) CHECK_EQ(value(&w, regs[r]), value(&p, regs[r]));
        int64_t a = 0, b = 0;
        CHECK_EQ(isk_read(w.acc, "SHM", 4, &a), ISK_OK);
        CHECK_EQ(isk_read(p.acc, "SHM", 4, &b), ISK_OK);
        CHECK_EQ(a, b);
        CHECK_EQ(isk_busy_slots(w.acc), isk_busy_slots(p.acc));
        CHECK_EQ(isk_clock(w.sys), isk_clock(p.sys));
    }
    check_same_stats(w.sys, p.sys);
    isk_stats a;
    isk_get_stats(w.sys, &a);
    CHECK(a.launches > 30);
    CHECK_EQ(value(&p, "GR0"), 5);
    harness_close(&w);
    harness_close(&p);
}

/* A driver launching prepared commands (the engine's stream loop) against one launching the
 * same words: the same values and clocks when the run finishes. */
typedef struct driver_state { isk_inst *acc; const isk_command *cmd[NSTREAM]; uint64_t words[NSTREAM]; int n; } driver_state;

static int drive_prepared(void *user, isk_system *sys)
{
    driver_state *d = user;
    if (d->n == 100) return 1;
    return isk_launch_prepared(sys, d->cmd[d->n++ % NSTREAM]) == ISK_OK ? 0 : -1;
}

static int drive_words(void *user, isk_system *sys)
{
    driver_state *d = user;
    if (d->n == 100) return 1;
    return isk_launch(sys, d->acc, d->words[d->n++ % NSTREAM]) == ISK_OK ? 0 : -1;
}

static void test_driver(void)
{
    harness w, p;
    harness_open(&w, 0);
    harness_open(&p, 0);
    driver_state dw = { .acc = w.acc }, dp = { .acc = p.acc };
    for (size_t i = 0; i < NSTREAM; i++) {
        dw.words[i] = word_of(&w, stream[i]);
        CHECK((dp.cmd[i] = isk_prepare(p.sys, p.acc, word_of(&p, stream[i]))) != NULL);
    }
    isk_set_driver(w.sys, drive_words, &dw);
    isk_set_driver(p.sys, drive_prepared, &dp);
    CHECK_EQ(isk_run(w.sys, 0), ISK_STOPPED);
    CHECK_EQ(isk_run(p.sys, 0), ISK_STOPPED);
    CHECK_EQ(isk_clock(w.sys), isk_clock(p.sys));
    CHECK(isk_clock(p.sys) >= 100);
    static const char *const regs[] = { "LR1", "LR2", "GR0", "GR1", "MULRES", "ACR" };
    for (size_t r = 0; r < sizeof regs / sizeof *regs; r++) CHECK_EQ(value(&w, regs[r]), value(&p, regs[r]));
    harness_close(&w);
    harness_close(&p);
}

int main(void)
{
    test_prepare_errors();
    test_busy();
    test_same_as_launch();
    test_driver();
    return CHECK_DONE();
}
