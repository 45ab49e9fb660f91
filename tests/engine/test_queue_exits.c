/* The slotless loop (clock.c run_slotless) tests one word after each queued command, which
 * everything that ends its clock early sets (system.h queue.leave). Each way a queued one-clock
 * command can come back to that loop and end it is run here, queued and through a driver
 * launching the same prepared commands (which never takes the slotless loop): a stop of the run
 * (isk_break), a launch from the command, a command that keeps a stack of its own and returns on
 * it last in the queue. Every status, clock, cell, count and message must be equal; a loop that
 * missed its exit would run on past the stop or the launch and differ (and a debug build's
 * assertion names the missing setter). */
#define ISK_BUILTIN_MODEL 1
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "same_stats.h"
#include "isekit/model.h"
#include "isekit/sim.h"

STATE_BEGIN
    DECLARE_MEMORY(INT(32, 1), 8) R;
STATE_END

ACC_FUNCTION(Put, n)   { SET(R, 0, n); }
ACC_FUNCTION(Stop)     { SET(R, 1, GET(R, 1) + 1); BREAKPOINT("queued stop"); }
ACC_FUNCTION(Spawn, n) { SET(R, 3, n); LAUNCH(0, 0x0100 | n); }   /* a Put n beside it */
ACC_FUNCTION(Long)
{
    SET(R, 2, GET(R, 2) + 1);
    FinishCycle();
    SET(R, 4, GET(R, 2));   /* touches storage after FinishCycle(): a stack of its own */
}

MODEL_BEGIN(qexit_acc, "an accelerator whose one-clock commands end the slotless loop's clock")
    WORD_BITS(16);
    SLOTS(2);
    MEMORY(R, "results");
    INSTRUCTION("0000-0001-nnnnnnnn", Put, "put {n}");
    INSTRUCTION("0000-0010-0000-0000", Stop, "stop");
    INSTRUCTION("0000-0011-nnnnnnnn", Spawn, "spawn {n}");
    INSTRUCTION("0000-0100-0000-0000", Long, "long");
MODEL_END

typedef struct one {
    isk_diag d;
    isk_diag_buffer out;
    isk_model *m;
    isk_system *sys;
    isk_inst *a;
    const isk_command *cmds[8];
    size_t n, next;
} one;

static int drive(void *user, isk_system *sys)
{
    one *o = user;
    if (o->next == o->n) return 1;
    if (isk_launch_prepared(sys, o->cmds[o->next++]) != ISK_OK) return -1;
    return o->next == o->n;
}

static void open_one(one *o, const uint64_t *words, size_t n, bool queued)
{
    memset(o, 0, sizeof *o);
    isk_diag_init(&o->d);
    isk_diag_capture(&o->d, &o->out);
    o->m = isk_model_from_entry(&isk_model_qexit_acc, "test", &o->d);
    if (!o->m) {
        fprintf(stderr, "%s", o->out.text ? o->out.text : "the model does not load\n");
        exit(1);
    }
    isk_system_options opt = { .diag = &o->d };
    o->sys = isk_system_new(&opt);
    o->a = isk_system_add(o->sys, o->m, "acc");
    CHECK_EQ(isk_attach(o->sys, o->a, 0), ISK_OK);
    o->n = n;
    for (size_t i = 0; i < n; i++) CHECK((o->cmds[i] = isk_prepare(o->sys, o->a, words[i])) != NULL);
    if (queued) CHECK_EQ(isk_queue_commands(o->sys, o->cmds, n), ISK_OK);
    else isk_set_driver(o->sys, drive, o);
}

static void close_one(one *o)
{
    isk_system_free(o->sys);
    isk_model_release(o->m);
    isk_diag_buffer_free(&o->out);
}

/* Runs of `limit` clocks until the run ends, both ways, compared after each; returns how many
 * runs stopped with ISK_BREAK. */
static int same_both_ways(const uint64_t *words, size_t n, uint64_t limit)
{
    one q, r;
    open_one(&q, words, n, true);
    open_one(&r, words, n, false);
    int breaks = 0;
    for (int run = 0; run < 20; run++) {
        const isk_status sq = isk_run(q.sys, limit), sr = isk_run(r.sys, limit);
        CHECK_EQ(sq, sr);
        CHECK_EQ(isk_clock(q.sys), isk_clock(r.sys));
        CHECK_EQ(isk_busy_slots(q.a), isk_busy_slots(r.a));
        for (uint64_t i = 0; i < 5; i++) {
            int64_t x = -1, y = -2;
            CHECK_EQ(isk_read(q.a, "R", i, &x), ISK_OK);
            CHECK_EQ(isk_read(r.a, "R", i, &y), ISK_OK);
            CHECK_EQ(x, y);
        }
        check_same_stats(q.sys, r.sys);
        CHECK_STR(q.out.text ? q.out.text : "", r.out.text ? r.out.text : "");
        if (sq == ISK_BREAK) breaks++;
        else if (sq != ISK_OK) break;
    }
    close_one(&q);
    close_one(&r);
    return breaks;
}

int main(void)
{
    enum { PUT = 0x0100, STOP = 0x0200, SPAWN = 0x0300, LONG = 0x0400 };
    static const uint64_t stops[] = { PUT | 1, STOP, PUT | 2, STOP, STOP, PUT | 3 };
    static const uint64_t spawns[] = { PUT | 1, SPAWN | 7, PUT | 2, SPAWN | 9, PUT | 4 };
    static const uint64_t long_last[] = { PUT | 1, PUT | 2, LONG };
    static const uint64_t long_first[] = { LONG, PUT | 5, PUT | 6, LONG, PUT | 8 };
    for (uint64_t limit = 0; limit <= 8; limit++) {
        CHECK_EQ(same_both_ways(stops, sizeof stops / sizeof *stops, limit), 3);
        same_both_ways(spawns, sizeof spawns / sizeof *spawns, limit);
        same_both_ways(long_last, sizeof long_last / sizeof *long_last, limit);
        same_both_ways(long_first, sizeof long_first / sizeof *long_first, limit);
    }
    return CHECK_DONE();
}
