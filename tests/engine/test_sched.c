/* Engine 2 for processors: a model's own scheduler (six issue slots shared by a supervisor and
 * the workers it starts, as on the Graphcore IPU tile), exceptions a model handles while the
 * other contexts run on, interrupt lines waking a sleeping context, and a run stopped by the
 * before-issue hook that resumes to the uninterrupted run's final state and clock. */
#define ISK_BUILTIN_MODEL 1
#include "check.h"
#include "breaker.h"
#include "encode.h"
#include "isekit/model.h"
#include "isekit/sim.h"

/* A tile: context 0 is the supervisor, 1..6 are workers; slot s of the six issues in the clocks
 * s, s + 6, ...; a worker owns the slot the supervisor started it in until it halts. */
STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(16, 0), 64) ROM;
    DECLARE_REGISTERS_FILE(INT(16, 0), 7) A;       /* one accumulator per context */
    DECLARE_REGISTERS_FILE(INT(16, 0), 7) CAUSE;   /* the last exception's cause, per context */
    DECLARE_MEMORY(INT(16, 0), 16) D;
    uint32_t owner[6];                             /* slot -> worker, 0: the supervisor's */
STATE_END

#define VECTOR 40                                  /* where a model exception continues */

BEHAVIOUR(Ldi, imm)     { SET(A, CONTEXT, imm); }
BEHAVIOUR(Addi, imm)    { SET(A, CONTEXT, GET(A, CONTEXT) + imm); }
BEHAVIOUR(Store, d)     { SET(D, d, GET(A, CONTEXT)); }
BEHAVIOUR(Jnz, target)  { if (GET(A, CONTEXT)) JUMP(target); }
BEHAVIOUR(Halt)         { STOP_CONTEXT(CONTEXT); }
BEHAVIOUR(Bad)          { RAISE(ISK_EXC_MODEL, "bad instruction"); }
BEHAVIOUR(Sleep)        { SLEEP_CONTEXT(CONTEXT); }
BEHAVIOUR(Ack, n)       { SET(A, CONTEXT, PENDING_LINES); ACK_LINE(n); }
/* an exit, then a cost for the same instruction: the exit stands (BLOCK_FOR does not revive) */
BEHAVIOUR(Quit)         { EXIT_CONTEXT(CONTEXT, 5, "quit"); BLOCK_FOR(12); }
/* run w, t: start worker w at t in the first free slot */
BEHAVIOUR(Run, w, target)
{
    for (int s = 0; s < 6; s++)
        if (!S->owner[s]) {
            S->owner[s] = (uint32_t)w;
            START_CONTEXT(w, target);
            return;
        }
    FAULT(1, "no free slot for worker %d", (int)w);
}

/* Exceptions: a model exception vectors; an illegal instruction ends the context with status 3. */
static void on_exception(isk_hdr *h, int cause, const char *message)
{
    struct isk_state *S = (struct isk_state *)(void *)h;
    (void)message;
    SET(CAUSE, CONTEXT, cause);
    if (cause == ISK_EXC_MODEL) JUMP(VECTOR);
    else EXIT_CONTEXT(CONTEXT, 3, "illegal instruction");
}

/* ---- the scheduler: six slots ---- */
static int six_pick(isk_sched *q, uint64_t clock)
{
    const struct isk_state *S = (const struct isk_state *)(void *)q->h;
    const uint32_t id = S->owner[clock % 6];
    const isk_context *c = &q->contexts[id];
    return (c->state == ISK_CTX_RUNNING || c->state == ISK_CTX_BLOCKED) && c->ready_at <= clock ? (int)id : -1;
}
static uint64_t six_issued(isk_sched *q, uint32_t id, uint64_t clock)
{
    (void)q, (void)id;
    return clock + 1;
}
static uint64_t six_next(isk_sched *q, uint64_t clock)
{
    if (!q->running) return UINT64_MAX;
    uint64_t from = clock + 1;
    for (uint32_t id = 0; id < q->ncontexts; id++)        /* nothing is ready before the first ready_at */
        if ((q->running >> id & 1) && q->contexts[id].ready_at > from) from = q->contexts[id].ready_at;
    for (uint64_t t = clock + 1; t < from + 6; t++)
        if (six_pick(q, t) >= 0) return t;
    return UINT64_MAX;
}
/* a worker that is no longer live gives its slot back to the supervisor */
static void six_changed(isk_sched *q)
{
    struct isk_state *S = (struct isk_state *)(void *)q->h;
    for (int s = 0; s < 6; s++)
        if (S->owner[s] && !(q->running >> S->owner[s] & 1)) S->owner[s] = 0;
}
static const isk_scheduler six_slots = { "six slots", six_pick, six_issued, six_next, six_changed, 1, NULL };

MODEL_BEGIN(tile, "a supervisor and six workers in six issue slots")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 7, .issue = ISK_ISSUE_MODEL, .scheduler = &six_slots);
    ON_EXCEPTION(on_exception);
    MEMORY(ROM, "code");
    REGFILE_BEGIN(A, "accumulators") REGISTERS("A%u"); REGFILE_END()
    REGFILE_BEGIN(CAUSE, "causes") REGISTERS("CAUSE%u"); REGFILE_END()
    MEMORY(D, "data");
    KIND_PCREL("target", .pc_bias = 0);
    INSTRUCTION("0001-0000-iiiiiiii", Ldi, "ldi {i}", .fields = "i:s");
    INSTRUCTION("0010-0000-iiiiiiii", Addi, "addi {i}", .fields = "i:s");
    INSTRUCTION("0011-0000-0000-dddd", Store, "st d{d}");
    INSTRUCTION("0101-0000-tttttttt", Jnz, "jnz {t}");
    INSTRUCTION("0110-0000-0000-0000", Halt, "halt");
    INSTRUCTION("0111-0www-tttttttt", Run, "run {w}, {t}");
    INSTRUCTION("1000-0000-0000-0000", Bad, "bad");
    INSTRUCTION("1001-0000-0000-0000", Sleep, "sleep");
    INSTRUCTION("1010-0000-0000-nnnn", Ack, "ack {n}");
    INSTRUCTION("1011-0000-0000-0000", Quit, "quit");
MODEL_END

typedef struct tile {
    isk_diag d;
    isk_diag_buffer out;
    isk_model *m;
    isk_system *sys;
    isk_inst *p;
    struct isk_state *S;
} tile;

/* program: "addr: text" lines are placed at addr; the others follow the previous one */
static void tile_open(tile *t, const char *const *program, const isk_system_options *opt)
{
    isk_diag_init(&t->d);
    isk_diag_capture(&t->d, &t->out);
    t->m = isk_model_from_entry(&isk_model_tile, "test", &t->d);
    isk_system_options o = opt ? *opt : (isk_system_options){ 0 };
    o.diag = &t->d;
    t->sys = isk_system_new(&o);
    t->p = isk_system_add(t->sys, t->m, "tile");
    t->S = (struct isk_state *)(void *)isk_inst_state(t->p);
    test_load_lines(t->p, t->m, "ROM", program);
}

static void tile_close(tile *t)
{
    isk_system_free(t->sys);
    isk_model_release(t->m);
    isk_diag_buffer_free(&t->out);
}

static int64_t read_d(tile *t, uint64_t i)
{
    int64_t v = 0;
    isk_read(t->p, "D", i, &v);
    return v;
}

/* ---- a model's scheduler --------------------------------------------------------------------- */

/* The supervisor starts two workers, then counts to 20; worker 1 counts down from 5, worker 2
 * from 3, each storing its result. The workers halt long before the supervisor. */
static const char *const slots_program[] = {
    "run 1, 10", "run 2, 20", "ldi 60", "addi -1", "jnz 3", "ldi 99", "st d0", "halt",
    "10: ldi 5", "addi -1", "jnz 11", "ldi 11", "st d1", "halt",
    "20: ldi 3", "addi -1", "jnz 21", "ldi 22", "st d2", "halt",
    NULL,
};

typedef struct issue_log { uint64_t n; uint64_t clock[512]; uint32_t ctx[512]; uint32_t owner[512]; tile *t; } issue_log;

static int record_issue(void *user, uint64_t clock, isk_inst *proc, uint32_t context, uint64_t pc)
{
    issue_log *log = user;
    (void)proc, (void)pc;
    if (log->n < 512) {
        log->clock[log->n] = clock;
        log->ctx[log->n] = context;
        log->owner[log->n] = log->t->S->owner[clock % 6];
        log->n++;
    }
    return 0;
}

static void test_model_scheduler(void)
{
    /* through the general path, every issue seen by the hook */
    tile t;
    issue_log log = { .t = &t };
    isk_system_options o = { .before_issue = record_issue, .before_issue_user = &log };
    tile_open(&t, slots_program, &o);
    CHECK_EQ(isk_run(t.sys, 10000), ISK_STOPPED);
    CHECK_EQ(read_d(&t, 0), 99);
    CHECK_EQ(read_d(&t, 1), 11);
    CHECK_EQ(read_d(&t, 2), 22);
    bool slot_respected = true, supervisor_got_slot_back = false;
    uint64_t worker_issues[3] = { 0 };
    for (uint64_t i = 0; i < log.n; i++) {
        /* a context issues only in a slot it owns (the supervisor: the unowned ones) */
        if (log.ctx[i] != log.owner[i]) slot_respected = false;
        if (log.ctx[i] && log.ctx[i] < 3) worker_issues[log.ctx[i]]++;
        if (log.ctx[i] == 0 && log.clock[i] % 6 == 0 && log.clock[i] > 6) supervisor_got_slot_back = true;
    }
    CHECK(slot_respected);
    CHECK(supervisor_got_slot_back);                 /* worker 1 halted: slot 0 is the supervisor's again */
    CHECK_EQ(worker_issues[1], 1 + 2 * 5 + 3);       /* ldi, 5 x (addi, jnz), ldi, st, halt */
    CHECK_EQ(worker_issues[2], 1 + 2 * 3 + 3);
    CHECK_EQ(log.clock[1], 1);                       /* run 2 in slot 1, still the supervisor's */
    CHECK_EQ(log.ctx[1], 0);
    CHECK_EQ(log.clock[6], 6);                       /* worker 1 first issues in its slot 0 at clock 6 */
    CHECK_EQ(log.ctx[6], 1);
    CHECK_EQ(log.ctx[7], 2);                         /* and worker 2 in slot 1 */
    uint64_t general_clock = isk_clock(t.sys);
    isk_stats st;
    isk_get_stats(t.sys, &st);
    CHECK_EQ(st.instructions, log.n);
    tile_close(&t);

    /* the same program through the fast loop ends in the same clock */
    tile_open(&t, slots_program, NULL);
    CHECK_EQ(isk_run(t.sys, 10000), ISK_STOPPED);
    CHECK_EQ(isk_clock(t.sys), general_clock);
    CHECK_EQ(read_d(&t, 0), 99);
    CHECK_EQ(read_d(&t, 1), 11);
    isk_stats fast;
    isk_get_stats(t.sys, &fast);
    CHECK_EQ(fast.instructions, st.instructions);
    CHECK_EQ(fast.idle_clocks, st.idle_clocks);
    tile_close(&t);
}

/* ---- exceptions ------------------------------------------------------------------------------- */

static void test_exceptions(void)
{
    /* worker 1 raises a model exception and continues at the vector; worker 2 meets an illegal
     * word and exits with status 3; the supervisor counts on meanwhile */
    static const char *const program[] = {
        "run 1, 10", "run 2, 20", "ldi 30", "addi -1", "jnz 3", "ldi 99", "st d0", "halt",
        "10: bad", "ldi 1", "st d1", "halt",
        "20: #ffff", "halt",
        "40: ldi 77", "st d5", "halt",
        NULL,
    };
    tile t;
    tile_open(&t, program, NULL);
    CHECK_EQ(isk_run(t.sys, 10000), ISK_STOPPED);
    CHECK_EQ(read_d(&t, 0), 99);                     /* the supervisor finished */
    CHECK_EQ(read_d(&t, 5), 77);                     /* worker 1 went to the vector */
    CHECK_EQ(read_d(&t, 1), 0);                      /* and not on after the bad instruction */
    int64_t cause = 0;
    isk_read(t.p, "CAUSE1", 0, &cause);
    CHECK_EQ(cause, ISK_EXC_MODEL);
    isk_read(t.p, "CAUSE2", 0, &cause);
    CHECK_EQ(cause, ISK_EXC_ILLEGAL);
    CHECK_EQ(isk_context_of(t.p, 2)->state, ISK_CTX_EXITED);
    CHECK_EQ(isk_context_of(t.p, 2)->exit_status, 3);
    CHECK_EQ(isk_context_of(t.p, 2)->pc, 20);
    CHECK_CONTAINS(t.out.text, "tile context 2 exits with status 3 at pc 0x14: illegal instruction");
    isk_stats st;
    isk_get_stats(t.sys, &st);
    CHECK_EQ(st.exceptions, 2);
    tile_close(&t);
}

/* BLOCK_FOR after the issuing context exited (a model charging a cost after an exception) leaves
 * it exited, not blocked and runnable again. */
static void test_block_after_exit(void)
{
    static const char *const program[] = { "run 1, 10", "halt", "10: quit", "ldi 5", "st d2", "halt", NULL };
    tile t;
    tile_open(&t, program, NULL);
    CHECK_EQ(isk_run(t.sys, 1000), ISK_STOPPED);
    CHECK_EQ(isk_context_of(t.p, 1)->state, ISK_CTX_EXITED);
    CHECK_EQ(isk_context_of(t.p, 1)->exit_status, 5);
    CHECK_EQ(read_d(&t, 2), 0);
    tile_close(&t);
}

/* ---- interrupt lines -------------------------------------------------------------------------- */

typedef struct raiser { isk_inst *p; uint64_t at; } raiser;

static int raise_at(void *user, isk_system *sys)
{
    raiser *r = user;
    if (isk_clock(sys) < r->at) return 0;
    isk_raise_line(r->p, 2);
    return 1;
}

static void test_interrupt_lines(void)
{
    /* the supervisor sleeps until the host raises line 2 at clock 50, then records what it saw */
    static const char *const program[] = { "sleep", "ack 2", "st d6", "ack 0", "st d7", "halt", NULL };
    tile t;
    tile_open(&t, program, NULL);
    raiser r = { t.p, 50 };
    isk_set_driver(t.sys, raise_at, &r);
    CHECK_EQ(isk_run(t.sys, 1000), ISK_STOPPED);
    CHECK_EQ(read_d(&t, 6), 4);                      /* line 2 was pending */
    CHECK_EQ(read_d(&t, 7), 0);                      /* and acknowledged */
    CHECK_EQ(isk_context_of(t.p, 0)->last_issue, 55);   /* woken for clock 51: ack, st, ack, st, halt at 55 */
    tile_close(&t);

    /* a context that does not wake on that line sleeps on: a deadlock */
    tile_open(&t, program, NULL);
    isk_context_of(t.p, 0)->wake_lines = 1u << 3;
    r.p = t.p;
    isk_set_driver(t.sys, raise_at, &r);
    CHECK_EQ(isk_run(t.sys, 1000), ISK_FAULT);
    CHECK_CONTAINS(isk_last_error(t.sys), "deadlock");
    tile_close(&t);
}

/* An accelerator's interrupt routed to the tile's line 1 wakes the sleeping supervisor. */
typedef struct feeder { isk_inst *acc; uint64_t words[2]; int next; } feeder;

static int feed(void *user, isk_system *sys)
{
    feeder *f = user;
    if (f->next < 2) isk_launch(sys, f->acc, f->words[f->next++]);
    return f->next == 2;
}

static void test_routed_interrupt(void)
{
    static const char *const program[] = { "sleep", "ack 1", "st d6", "halt", NULL };
    tile t;
    tile_open(&t, program, NULL);
    isk_model *em = isk_model_load("example", &t.d);
    CHECK(em != NULL);
    isk_inst *acc = isk_system_add(t.sys, em, "acc");
    isk_attach(t.sys, acc, 0);
    CHECK_EQ(isk_route_interrupt(acc, 0, t.p, 1), ISK_OK);
    CHECK_EQ(isk_route_interrupt(acc, 40, t.p, 1), ISK_FAILED);
    feeder f = { acc, { test_encode(em, "setloop 3", 0), test_encode(em, "conv acc, dm0[ar0], tm0[ar1]", 0) }, 0 };
    isk_set_driver(t.sys, feed, &f);
    CHECK_EQ(isk_run(t.sys, 1000), ISK_STOPPED);
    CHECK_EQ(read_d(&t, 6), 2);                      /* line 1 was pending when the supervisor woke */
    int taken = isk_interrupts(t.sys, 0, NULL);
    CHECK_EQ(taken, 0);                              /* a routed line is not an untaken interrupt */
    tile_close(&t);
    isk_model_release(em);
}

/* ---- resumable stops -------------------------------------------------------------------------- */

static void test_resumable_stops(void)
{
    tile whole;
    tile_open(&whole, slots_program, NULL);
    CHECK_EQ(isk_run(whole.sys, 10000), ISK_STOPPED);

    /* a breakpoint on the workers' and the supervisor's loops: stopped before each issue there,
     * and each run resumes at exactly that instruction */
    static const uint64_t breakpoints[] = { 3, 11, 21 };
    for (int i = 0; i < 3; i++) {
        tile parts;
        breaker b = { breakpoints[i], 0 };
        isk_system_options o = { .before_issue = break_at, .before_issue_user = &b };
        tile_open(&parts, slots_program, &o);
        isk_status st;
        int runs = 0;
        while ((st = isk_run(parts.sys, 10000)) == ISK_BREAK && runs < 1000) {
            runs++;
            CHECK_EQ(isk_context_of(parts.p, 0)->state == ISK_CTX_FAULTED, 0);
        }
        CHECK_EQ(st, ISK_STOPPED);
        CHECK(runs > 0);
        CHECK_EQ(runs, b.stops);
        CHECK_EQ(isk_clock(parts.sys), isk_clock(whole.sys));
        for (int d = 0; d < 3; d++) CHECK_EQ(read_d(&parts, (uint64_t)d), read_d(&whole, (uint64_t)d));
        isk_stats a, c;
        isk_get_stats(whole.sys, &a);
        isk_get_stats(parts.sys, &c);
        CHECK_EQ(c.instructions, a.instructions);
        CHECK_EQ(c.clocks, a.clocks);
        tile_close(&parts);
    }

    /* the same hook installed after the system ran a while (a debugger attaching), then removed */
    tile late;
    tile_open(&late, slots_program, NULL);
    CHECK_EQ(isk_run(late.sys, 5), ISK_OK);
    breaker b = { 21, 0 };
    int (*got)(void *, uint64_t, isk_inst *, uint32_t, uint64_t) = break_at;
    void *got_user = &b;
    isk_get_before_issue(late.sys, &got, &got_user);
    CHECK(got == NULL && got_user == NULL);
    isk_set_before_issue(late.sys, break_at, &b);
    isk_get_before_issue(late.sys, &got, &got_user);
    CHECK(got == break_at && got_user == &b);
    CHECK_EQ(isk_run(late.sys, 10000), ISK_BREAK);
    CHECK_EQ(b.stops, 1);
    isk_set_before_issue(late.sys, NULL, NULL);
    CHECK_EQ(isk_run(late.sys, 10000), ISK_STOPPED);
    CHECK_EQ(b.stops, 1);
    CHECK_EQ(isk_clock(late.sys), isk_clock(whole.sys));
    for (int d = 0; d < 3; d++) CHECK_EQ(read_d(&late, (uint64_t)d), read_d(&whole, (uint64_t)d));
    tile_close(&late);
    tile_close(&whole);
}

/* Data a tool keeps with an instance: found by its key, replaced (the old released), released
 * with the instance; a ninth key is refused. */
static int released;
static void count_release(void *data) { released += *(int *)data; }

static void test_inst_data(void)
{
    tile t;
    tile_open(&t, slots_program, NULL);
    static int one = 1, ten = 10, hundred = 100;
    static char keys[9];
    CHECK(isk_inst_data(t.p, &keys[0]) == NULL);
    CHECK_EQ(isk_inst_set_data(t.p, &keys[0], &one, count_release), ISK_OK);
    CHECK(isk_inst_data(t.p, &keys[0]) == &one);
    CHECK_EQ(isk_inst_set_data(t.p, &keys[0], &ten, count_release), ISK_OK);
    CHECK_EQ(released, 1);
    CHECK(isk_inst_data(t.p, &keys[0]) == &ten);
    for (int k = 1; k < 8; k++) CHECK_EQ(isk_inst_set_data(t.p, &keys[k], &one, NULL), ISK_OK);
    CHECK_EQ(isk_inst_set_data(t.p, &keys[8], &hundred, count_release), ISK_FAILED);
    CHECK_EQ(released, 101);                         /* refused data is released at once */
    tile_close(&t);
    CHECK_EQ(released, 111);
}

int main(void)
{
    test_model_scheduler();
    test_exceptions();
    test_block_after_exit();
    test_interrupt_lines();
    test_routed_interrupt();
    test_resumable_stops();
    test_inst_data();
    return CHECK_DONE();
}
