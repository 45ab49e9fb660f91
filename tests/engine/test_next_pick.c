/* A model scheduler's after-issue hook may leave the next pick (isk_sched.next_pick, abi.h):
 * the engine's fast loop then issues that context without calling pick. A round robin whose
 * contexts stay busy a few clocks after each issue, block (attention) and halt at different
 * times issues the same contexts in the same clocks whether its hook leaves picks or not, on
 * the fast loop, the general path and runs split at many limits; leaving picks spares most
 * pick calls. A stale pick taken after a context halted or blocked, a pick not taken, or a
 * cursor the skipped pick did not move would each change the log or the count. The same holds
 * when the scheduler issues the stretches of left picks itself (isk_scheduler.run). */
#define ISK_BUILTIN_MODEL 1
#include "check.h"
#include "encode.h"
#include "isekit/model.h"
#include "isekit/sim.h"

#define LOG_MAX 4096

STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(16, 0), 64) ROM;
    DECLARE_REGISTERS_FILE(INT(16, 0), 4) A;
    uint32_t leave;                    /* the hook leaves its next pick */
    uint32_t own;                      /* and its run issues while it does */
    uint64_t ran;                      /* issues made by run */
    uint64_t picks;                    /* calls of pick */
    uint64_t n;                        /* issues logged by the hook */
    uint64_t log_clock[LOG_MAX];
    uint32_t log_ctx[LOG_MAX];
STATE_END

BEHAVIOUR(Ldi, imm)     { SET(A, CONTEXT, imm); }
BEHAVIOUR(Addi, imm)    { SET(A, CONTEXT, GET(A, CONTEXT) + imm); }
BEHAVIOUR(Jnz, target)  { if (GET(A, CONTEXT)) JUMP(target); }
BEHAVIOUR(Halt)         { STOP_CONTEXT(CONTEXT); }
BEHAVIOUR(Blk, n)       { BLOCK_FOR(n); }

/* the live context ready in `clock` that the round robin comes to first, from the cursor */
static int rr_find(const isk_sched *q, uint64_t clock)
{
    for (uint32_t k = 0; k < q->ncontexts; k++) {
        const uint32_t id = (q->cursor + k) % q->ncontexts;
        const isk_context *c = &q->contexts[id];
        if ((c->state == ISK_CTX_RUNNING || c->state == ISK_CTX_BLOCKED) && c->ready_at <= clock) return (int)id;
    }
    return -1;
}
static int rr_pick(isk_sched *q, uint64_t clock)
{
    struct isk_state *S = (struct isk_state *)(void *)q->h;
    S->picks++;
    const int id = rr_find(q, clock);
    if (id >= 0) q->cursor = (uint32_t)id + 1;
    return id;
}
/* context id stays busy 2 + id clocks; the hook leaves the pick of the next clock, and after
 * an instruction that asked for attention (a halt, a block) a wrong one, the issuer itself,
 * which the engine must drop */
static uint64_t rr_issued(isk_sched *q, uint32_t id, uint64_t clock)
{
    struct isk_state *S = (struct isk_state *)(void *)q->h;
    if (S->n < LOG_MAX) {
        S->log_clock[S->n] = clock;
        S->log_ctx[S->n] = id;
    }
    S->n++;
    isk_context *c = &q->contexts[id];
    if (c->ready_at < clock + 2 + id) c->ready_at = clock + 2 + id;
    if (S->leave) {
        q->cursor = id + 1;            /* as this issue's pick did, unless the engine skipped it */
        q->next_pick = S->isk.attention ? (int32_t)id : rr_find(q, clock + 1);
    }
    return clock + 1;
}
static uint64_t rr_next(isk_sched *q, uint64_t clock)
{
    uint64_t first = UINT64_MAX;
    for (uint32_t id = 0; id < q->ncontexts; id++) {
        const isk_context *c = &q->contexts[id];
        if (c->state != ISK_CTX_RUNNING && c->state != ISK_CTX_BLOCKED) continue;
        const uint64_t at = c->ready_at > clock ? c->ready_at : clock + 1;
        if (at < first) first = at;
    }
    return first;
}
/* the engine's loop over left picks, in the scheduler (when `own`; otherwise it leaves them) */
static uint64_t rr_run(isk_sched *q, const isk_decoded *dcache, uint64_t ncode, uint64_t clock, uint64_t limit,
                       uint64_t *sys_clock, int *asked)
{
    struct isk_state *S = (struct isk_state *)(void *)q->h;
    *asked = -1;
    while (S->own && clock < limit && q->next_pick >= 0) {
        const int id = q->next_pick;
        isk_context *c = &q->contexts[id];
        if (c->pc >= ncode) break;
        isk_sched_issue(q->h, c, (uint32_t)id, c->pc, dcache, clock, sys_clock);
        S->ran++;
        const uint64_t after = rr_issued(q, (uint32_t)id, clock);
        if (S->isk.attention) {
            *asked = id;
            return after;
        }
        c->pc = S->isk.next_pc;
        clock = after;
    }
    return clock;
}
static const isk_scheduler round_robin = { "busy round robin", rr_pick, rr_issued, rr_next, NULL, 1, rr_run };

MODEL_BEGIN(picker, "four contexts in a round robin, busy after each issue")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 4, .issue = ISK_ISSUE_MODEL, .scheduler = &round_robin);
    MEMORY(ROM, "code");
    REGFILE_BEGIN(A, "accumulators") REGISTERS("A%u"); REGFILE_END()
    KIND_PCREL("target", .pc_bias = 0);
    INSTRUCTION("0001-0000-iiiiiiii", Ldi, "ldi {i}", .fields = "i:s");
    INSTRUCTION("0010-0000-iiiiiiii", Addi, "addi {i}", .fields = "i:s");
    INSTRUCTION("0101-0000-tttttttt", Jnz, "jnz {t}");
    INSTRUCTION("0110-0000-0000-0000", Halt, "halt");
    INSTRUCTION("0111-0000-nnnnnnnn", Blk, "blk {n}");
MODEL_END

/* context k starts at 10 k: counts down, some blocking each round, and halts */
static const char *const program[] = {
    "0: ldi 30", "addi -1", "jnz 1", "halt",
    "10: ldi 20", "addi -1", "blk 5", "jnz 11", "halt",
    "20: ldi 25", "addi -1", "jnz 21", "halt",
    "30: ldi 10", "blk 17", "addi -1", "jnz 31", "halt",
    NULL,
};

typedef struct outcome {
    uint64_t clock, instructions, picks, n, ran;
    uint64_t log_clock[LOG_MAX];
    uint32_t log_ctx[LOG_MAX];
} outcome;

static int never(void *user, uint64_t clock, isk_inst *proc, uint32_t context, uint64_t pc)
{
    (void)user, (void)clock, (void)proc, (void)context, (void)pc;
    return 0;
}

/* limit 0: one run (of 100000 clocks at most); otherwise runs of `limit` clocks until every context halted */
static void run(outcome *o, bool leave, uint64_t limit, bool general, bool own)
{
    isk_diag d;
    isk_diag_buffer out;
    isk_diag_init(&d);
    isk_diag_capture(&d, &out);
    isk_model *m = isk_model_from_entry(&isk_model_picker, "test", &d);
    isk_system_options opt = { .diag = &d };
    isk_system *sys = isk_system_new(&opt);
    isk_inst *p = isk_system_add(sys, m, "picker");
    if (general) isk_set_before_issue(sys, never, NULL);
    struct isk_state *S = (struct isk_state *)(void *)isk_inst_state(p);
    S->leave = leave;
    S->own = own;
    test_load_lines(p, m, "ROM", program);
    for (int k = 1; k < 4; k++) CHECK_EQ(isk_start(p, k, (uint64_t)(10 * k)), ISK_OK);
    isk_status st;
    int runs = 0;
    /* bounded: a stale pick of a halted context could issue it for ever */
    while ((st = isk_run(sys, limit ? limit : 100000)) == ISK_OK && limit && runs < 100000) runs++;
    CHECK_EQ(st, ISK_STOPPED);
    isk_stats s;
    isk_inst_stats(p, &s);
    o->clock = isk_clock(sys);
    o->instructions = s.instructions;
    o->picks = S->picks;
    o->n = S->n;
    o->ran = S->ran;
    memcpy(o->log_clock, S->log_clock, sizeof o->log_clock);
    memcpy(o->log_ctx, S->log_ctx, sizeof o->log_ctx);
    isk_system_free(sys);
    isk_model_release(m);
    isk_diag_buffer_free(&out);
}

static void check_same(const outcome *a, const outcome *b, const char *what, uint64_t limit)
{
    uint64_t first = 0;
    while (first < a->n && first < LOG_MAX && a->log_clock[first] == b->log_clock[first] &&
           a->log_ctx[first] == b->log_ctx[first])
        first++;
    if (b->clock != a->clock || b->n != a->n || first < a->n)
        fprintf(stderr, "%s, limit %llu: clock %llu, %llu issues, first difference at issue %llu\n", what,
                (unsigned long long)limit, (unsigned long long)b->clock, (unsigned long long)b->n,
                (unsigned long long)first);
    CHECK_EQ(b->clock, a->clock);
    CHECK_EQ(b->n, a->n);
    CHECK_EQ(b->instructions, a->instructions);
    CHECK_EQ(first, a->n);
}

int main(void)
{
    static outcome plain, left, other;
    run(&plain, false, 0, false, false);         /* the fast loop calls pick for every issue */
    CHECK_EQ(plain.n, plain.instructions);
    CHECK(plain.n < LOG_MAX);
    CHECK_EQ(plain.instructions, 4 + 2 * 30 + 3 * 20 + 2 * 25 + 3 * 10 + 4);   /* ldi, the loops, halt */
    CHECK(plain.picks >= plain.n);
    CHECK_EQ(plain.ran, 0);
    run(&left, true, 0, false, false);
    check_same(&plain, &left, "picks left", 0);
    CHECK(left.picks * 2 < plain.picks);         /* taken: pick only after attention or when idle */
    run(&other, true, 0, true, false);
    check_same(&plain, &other, "general path", 0);
    run(&other, true, 0, false, true);
    check_same(&plain, &other, "own run", 0);
    CHECK(other.ran * 2 > other.n);              /* most issues were the scheduler's own */
    CHECK_EQ(other.picks, left.picks);
    static const uint64_t limits[] = { 1, 2, 3, 5, 7, 11, 13, 29, 64 };
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        run(&other, true, limits[i], false, false);
        check_same(&plain, &other, "picks left, split", limits[i]);
        run(&other, true, limits[i], true, false);
        check_same(&plain, &other, "general path, split", limits[i]);
        run(&other, true, limits[i], false, true);
        check_same(&plain, &other, "own run, split", limits[i]);
    }
    printf("%llu issues in %llu clocks: %llu picks called, %llu with the hook's picks taken\n",
           (unsigned long long)plain.n, (unsigned long long)plain.clock, (unsigned long long)plain.picks,
           (unsigned long long)left.picks);
    return CHECK_DONE();
}
