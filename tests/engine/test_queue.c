/* A queue of prepared commands (isk_queue_commands) against a driver launching the same
 * commands with isk_launch_prepared, one per clock: every value, clock, count, activity and
 * message equal at every clock a run split at any limit stops at. The queue of one-clock
 * commands runs in the engine's slotless loop, the driver in run_stream: a slip in the loop's
 * counts, commits or hand-over to a slot shows as a difference here. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "example_harness.h"
#include "same_stats.h"

typedef struct ref { const isk_command *const *cmds; size_t n, next; } ref;

/* What isk_queue_commands promises to be. */
static int drive_ref(void *user, isk_system *sys)
{
    ref *r = user;
    if (r->next == r->n) return 1;
    if (isk_launch_prepared(sys, r->cmds[r->next++]) != ISK_OK) return -1;
    return r->next == r->n;
}

static void compare(harness *q, harness *r)
{
    static const char *const regs[] = { "LR1", "LR2", "LR3", "LR15", "GR0", "GR1", "MULRES", "ACR", "AR0", "AR1" };
    for (size_t i = 0; i < sizeof regs / sizeof *regs; i++) CHECK_EQ(value(q, regs[i]), value(r, regs[i]));
    int64_t a = 0, b = 0;
    CHECK_EQ(isk_read(q->acc, "SHM", 4, &a), ISK_OK);
    CHECK_EQ(isk_read(r->acc, "SHM", 4, &b), ISK_OK);
    CHECK_EQ(a, b);
    CHECK_EQ(isk_read(q->acc, "LDM", 5, &a), ISK_OK);
    CHECK_EQ(isk_read(r->acc, "LDM", 5, &b), ISK_OK);
    CHECK_EQ(a, b);
    CHECK_EQ(isk_clock(q->sys), isk_clock(r->sys));
    CHECK_EQ(isk_busy_slots(q->acc), isk_busy_slots(r->acc));
    check_same_stats(q->sys, r->sys);
    char da[2048], db[2048];
    CHECK_EQ(isk_describe_activity(q->sys, da, sizeof da), isk_describe_activity(r->sys, db, sizeof db));
    CHECK_STR(da, db);
    CHECK_STR(q->messages.text ? q->messages.text : "", r->messages.text ? r->messages.text : "");
}

#define MAXQ 64

/* Queue n commands cycling through `texts` (NULL: the n commands given) and run `clocks` clocks in
 * steps of `limit` (0: one isk_run); the driver steps clock by clock. Returns the queue's last
 * status; its messages are left in *out (the caller closes it). */
static isk_status run_pair(const char *const *texts, size_t ntexts, size_t n, uint64_t clocks, uint64_t limit,
                           harness *out)
{
    harness q, r;
    harness_open(&q, 0);
    harness_open(&r, 0);
    static const isk_command *qc[MAXQ], *rc[MAXQ];
    for (size_t i = 0; i < n; i++) {
        CHECK((qc[i] = isk_prepare(q.sys, q.acc, word_of(&q, texts[i % ntexts]))) != NULL);
        CHECK((rc[i] = isk_prepare(r.sys, r.acc, word_of(&r, texts[i % ntexts]))) != NULL);
    }
    ref d = { rc, n, 0 };
    CHECK_EQ(isk_queue_commands(q.sys, qc, n), ISK_OK);
    isk_set_driver(r.sys, drive_ref, &d);
    isk_status sq = ISK_OK, sr = ISK_OK;
    if (!limit) {
        sq = isk_run(q.sys, clocks);
        sr = isk_run(r.sys, clocks);
        CHECK_EQ(sq, sr);
        compare(&q, &r);
    }
    while (limit && isk_clock(q.sys) < clocks) {
        sq = isk_step(q.sys, limit);
        while (sr == ISK_OK && isk_clock(r.sys) < isk_clock(q.sys)) sr = isk_step(r.sys, 1);
        if (sq != ISK_OK && sr == ISK_OK) sr = isk_step(r.sys, 1);   /* the clock the queue stopped in */
        CHECK_EQ(sq, sr);
        compare(&q, &r);
        if (sq != ISK_OK) break;
    }
    harness_close(&r);
    *out = q;
    return sq;
}

static const char *const one_clock[] = { "ldi lr1, 5",      "move gr0, lr1",      "ldi lr2, -7",
                                         "flag shm[4], 9",  "move gr1, lr2",      "ldg gr1, 3",
                                         "add lr15, gr0, gr1", "stm ldm[5], lr15", "ldm lr3, ldm[5]" };
static const char *const mixed[] = { "ldi lr1, 5", "mac gr0, gr1", "move gr0, lr1", "delay 2", "ldi lr2, -7",
                                     "flag shm[4], 9", "move gr1, lr2", "mac gr1, gr0", "stm ldm[5], lr1",
                                     "ldm lr3, ldm[5]" };
#define N(a) (sizeof a / sizeof *a)

/* Runs split at every limit: one-clock commands (the slotless loop throughout) and ones that
 * take several clocks (each gets a slot; the queue goes on launching one per clock). */
static void test_same_as_driver(void)
{
    for (uint64_t limit = 0; limit <= 40; limit++) {
        harness q;
        CHECK_EQ(run_pair(one_clock, N(one_clock), 30, 45, limit, &q), limit ? ISK_OK : ISK_STOPPED);
        CHECK_EQ(value(&q, "GR0"), 5);
        isk_stats s;
        isk_get_stats(q.sys, &s);
        CHECK_EQ(s.launches, 30);
        CHECK_EQ(s.commands_done, 30);
        harness_close(&q);
        CHECK_EQ(run_pair(mixed, N(mixed), 30, 45, limit, &q), limit ? ISK_OK : ISK_STOPPED);
        harness_close(&q);
    }
}

/* A command that faults in the middle of a queue of one-clock commands: the same message, naming
 * the clock, the slot and the command, at any limit; the system stays stopped and refuses a queue. */
static void test_fault(void)
{
    static const char *const faulting[] = { "ldi lr1, 3", "move gr0, lr1", "flag shm[4], 1", "ldi lr2, 4",
                                            "ldm lr2, ldm[3000]", "ldi lr3, 1" };
    for (uint64_t limit = 1; limit <= 8; limit++) {
        harness q;
        CHECK_EQ(run_pair(faulting, N(faulting), N(faulting), 20, limit, &q), ISK_FAULT);
        CHECK_CONTAINS(q.messages.text, "clock 4, acc slot 0 (Load_LREG_LDM, word 0x");
        CHECK_CONTAINS(q.messages.text, "launched at clock 4): index 3000 is outside LDM (2048 cells)");
        CHECK_EQ(isk_clock(q.sys), 4);
        CHECK_EQ(value(&q, "LR2"), 4);
        isk_stats s;
        isk_get_stats(q.sys, &s);
        CHECK_EQ(s.launches, 5);
        CHECK_EQ(s.commands_done, 4);
        const isk_command *c = isk_prepare(q.sys, q.acc, word_of(&q, "ldi lr1, 1"));
        CHECK_EQ(isk_queue_commands(q.sys, &c, 1), ISK_FAULT);   /* a stopped system */
        harness_close(&q);
    }
}

/* A queued command writing a cell that a command still running writes in the same clock (CONV's
 * address register): the CREW conflict of a driver's launch. Commands that outnumber the free
 * slots: isk_launch's error, in the clock of the launch. */
static void test_conflicts(void)
{
    static const char *const crew[] = { "setloop 3", "ldi lr1, 2", "conv acc, dm0[ar0], tm0[ar1]", "ldi lr2, 1",
                                        "setar ar0, 5", "ldi lr3, 1" };
    static const char *const slots[] = { "ldi lr1, 2", "delay 9", "delay 9", "delay 9", "delay 9", "delay 9" };
    for (uint64_t limit = 1; limit <= 8; limit++) {
        harness q;
        CHECK_EQ(run_pair(crew, N(crew), N(crew), 20, limit, &q), ISK_CONFLICT);
        CHECK_CONTAINS(q.messages.text, "clock 4: CREW conflict: ");
        CHECK_CONTAINS(q.messages.text, "(CONV_ACC_DM0_TM0, word 0x");
        harness_close(&q);
        CHECK_EQ(run_pair(slots, N(slots), N(slots), 20, limit, &q), ISK_CONFLICT);
        CHECK_CONTAINS(q.messages.text, "clock 5: acc: no free slot for Delay");
        harness_close(&q);
    }
}

/* A NULL command or one of another system in the queue: reported in the clock it is due, the
 * commands before it run. A NULL array: refused at once. */
static void test_bad_commands(void)
{
    for (int foreign = 0; foreign < 2; foreign++) {
        harness h, other;
        harness_open(&h, 0);
        harness_open(&other, 0);
        const isk_command *c[3] = { isk_prepare(h.sys, h.acc, word_of(&h, "ldi lr1, 7")),
                                    foreign ? isk_prepare(other.sys, other.acc, word_of(&h, "ldi lr2, 1")) : NULL,
                                    isk_prepare(h.sys, h.acc, word_of(&h, "ldi lr3, 1")) };
        CHECK_EQ(isk_queue_commands(h.sys, c, 3), ISK_OK);
        CHECK_EQ(isk_step(h.sys, 5), ISK_FAILED);
        CHECK_EQ(isk_clock(h.sys), 1);
        CHECK_EQ(value(&h, "LR1"), 7);
        CHECK_EQ(value(&h, "LR3"), 0);
        CHECK_CONTAINS(isk_last_error(h.sys), foreign ? "clock 1: isk_queue_commands: command 1 of the queue: prepared "
                                                        "for another system"
                                                      : "clock 1: isk_queue_commands: command 1 of the queue: no "
                                                        "command (isk_prepare failed)");
        harness_close(&other);
        harness_close(&h);
    }
    harness h;
    harness_open(&h, 0);
    CHECK_EQ(isk_queue_commands(h.sys, NULL, 2), ISK_FAILED);
    CHECK_EQ(isk_step(h.sys, 2), ISK_OK);   /* refused, not stopped */
    CHECK_EQ(isk_queue_commands(h.sys, NULL, 0), ISK_OK);
    CHECK_EQ(isk_run(h.sys, 10), ISK_STOPPED);   /* an empty queue is done at once */
    harness_close(&h);
}

/* A thread that asks the system to stop once, as soon as it sees its clock past `after` (or
 * never, if told it is done first). */
typedef struct late_stopper { isk_system *sys; uint64_t after; atomic_int done; } late_stopper;

static void *stop_once_after(void *arg)
{
    late_stopper *s = arg;
    while (!atomic_load(&s->done))
        if (isk_clock(s->sys) > s->after) {
            isk_request_stop(s->sys);
            break;
        }
    return NULL;
}

/* One try of test_request_stop: a queue of `n` commands run while another thread asks the
 * system to stop once its clock has passed `start` + 1000. Whatever the try, the commands all
 * run, each once, and the clock ends at the queue's end; true if the request ended the run
 * inside the queue. */
static bool request_inside_queue(harness *h, const isk_command **cmds, size_t n)
{
    const uint64_t start = isk_clock(h->sys);
    CHECK_EQ(isk_queue_commands(h->sys, cmds, n), ISK_OK);
    late_stopper s = { h->sys, start + 1000, 0 };
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, stop_once_after, &s), 0);
    const isk_status st = isk_run(h->sys, 0);
    atomic_store(&s.done, 1);
    pthread_join(t, NULL);
    const uint64_t stopped_at = isk_clock(h->sys);
    CHECK(st == ISK_OK || st == ISK_STOPPED);
    CHECK(stopped_at > start + 1000);
    CHECK_EQ(value(h, "LR1"), 3);
    /* the request may have come after the run ended: such a request ends the next run before
     * its first clock, so a run of no clocks takes it */
    CHECK_EQ(isk_step(h->sys, 0), ISK_OK);
    CHECK_EQ(isk_clock(h->sys), stopped_at);
    CHECK_EQ(isk_run(h->sys, 0), ISK_STOPPED);   /* no request now: the rest of the queue, to its end */
    CHECK_EQ(isk_clock(h->sys), start + n);
    return stopped_at < start + n;
}

/* isk_request_stop from another thread ends a run of a long queue at the end of a clock, not at
 * the end of the queue: the slotless loop sees the request during the run. The request comes
 * once the run is under way (its clock past 1,000); a loop that did not see it would run the
 * queue whole, in every try. A loaded machine may not schedule the requesting thread during a
 * whole run (some 40 ms): hence up to 20 tries, of which one must end inside the queue. */
static void test_request_stop(void)
{
    enum { LONG = 1 << 21 };
    harness h;
    harness_open(&h, 0);
    const isk_command *one = isk_prepare(h.sys, h.acc, word_of(&h, "ldi lr1, 3"));
    const isk_command **cmds = malloc(LONG * sizeof *cmds);
    CHECK(one != NULL && cmds != NULL);
    for (size_t i = 0; i < LONG; i++) cmds[i] = one;
    bool inside = false;
    for (int try = 0; try < 20 && !inside; try++) inside = request_inside_queue(&h, cmds, LONG);
    CHECK(inside);
    free(cmds);
    harness_close(&h);
}

int main(void)
{
    test_same_as_driver();
    test_fault();
    test_conflicts();
    test_bad_commands();
    test_request_stop();
    return CHECK_DONE();
}
