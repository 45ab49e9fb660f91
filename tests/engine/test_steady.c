/* The revolver's steady round (issue.c circle_steady) against the general per-clock path, which a
 * subscriber to instruction events forces. The round counts nothing per issue: each context's
 * instruction count, last issue and ready clock are derived when it ends (at the limit, an
 * attention, a PC outside the code memory, a fault) or when a handler asks in the middle
 * (isk_context_of from a port handler). The same programs run on both paths with a gap of 1 and
 * of 3, one and four contexts, stepped in runs of every length 1..30 clocks, and after every
 * run each context's state, PC, counts and ready clock, the statistics, the data memory (which
 * records the clock and the live issue count each instruction saw) and the port handler's view
 * must agree. */
#define ISK_BUILTIN_MODEL 1
#include <stdio.h>
#include <string.h>

#include "asm/syntax.h"
#include "check.h"
#include "encode.h"
#include "engine/model_desc.h"
#include "isekit/model.h"
#include "isekit/sim.h"

STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(16, 0), 64) ROM;
    DECLARE_REGISTERS_FILE(INT(32, 0), 4) A;        /* one counter per context */
    DECLARE_MEMORY(INT(32, 0), 16) D;               /* D14: contexts to start; D15: the mode */
STATE_END

/* A = (context + 1) * k: the contexts leave their loops at different clocks */
BEHAVIOUR(Ldc, k)      { SET(A, CONTEXT, (CONTEXT + 1) * k); }
/* what the instruction saw of the clock and the issue count, folded into its context's cell */
BEHAVIOUR(Tick)
{
    const int64_t v = GET(D, 8 + CONTEXT) * 3 + (int64_t)CLOCK + 7 * (int64_t)INSTRUCTIONS_ISSUED;
    SET(D, 8 + CONTEXT, v & 0xfffffff);
}
BEHAVIOUR(Dec)         { SET(A, CONTEXT, GET(A, CONTEXT) - 1); }
BEHAVIOUR(Jnz, target) { if (GET(A, CONTEXT)) JUMP(target); }
BEHAVIOUR(Jmp, target) { JUMP(target); }
BEHAVIOUR(Halt)        { STOP_CONTEXT(CONTEXT); }
BEHAVIOUR(Start, c)    { if (GET(D, 14) > c) START_CONTEXT(c, 3); }
BEHAVIOUR(Wait, n)     { BLOCK_FOR(n); }
BEHAVIOUR(Out, port)   { OUTPUT(port, GET(A, CONTEXT)); }
BEHAVIOUR(Bad)         { FAULT(1, "a bad instruction"); }
/* the context named by the mode (D15) leaves its loop once, when its counter is 5 */
BEHAVIOUR(Brm, target)
{
    if (GET(D, 15) == (int64_t)CONTEXT && GET(A, CONTEXT) == 5) JUMP(target + 2 * CONTEXT);
}

#define STEADY_INSTRUCTIONS \
    MEMORY(ROM, "code"); \
    REGFILE_BEGIN(A, "counters") REGISTER(0, "A0"); REGFILE_END() \
    MEMORY(D, "data"); \
    KIND_PCREL("target", .pc_bias = 0); \
    INSTRUCTION("0001-0000-kkkkkkkk", Ldc, "ldc {k}"); \
    INSTRUCTION("0010-0000-0000-0000", Tick, "tick"); \
    INSTRUCTION("0011-0000-0000-0000", Dec, "dec"); \
    INSTRUCTION("0100-0000-tttttttt", Jnz, "jnz {t}"); \
    INSTRUCTION("0101-0000-tttttttt", Jmp, "jmp {t}"); \
    INSTRUCTION("0110-0000-0000-0000", Halt, "halt"); \
    INSTRUCTION("0111-0000-0000-00cc", Start, "start {c}"); \
    INSTRUCTION("1000-0000-nnnnnnnn", Wait, "wait {n}"); \
    INSTRUCTION("1001-0000-pppppppp", Out, "out {p}"); \
    INSTRUCTION("1010-0000-0000-0000", Bad, "bad"); \
    INSTRUCTION("1011-0000-tttttttt", Brm, "brm {t}");

MODEL_BEGIN(steady_gap1, "four contexts, one issue per clock")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 4, .issue = ISK_ISSUE_REVOLVER, .distance = 1);
    STEADY_INSTRUCTIONS
MODEL_END

MODEL_BEGIN(steady_gap3, "four contexts, a context issues every 3 clocks")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 4, .issue = ISK_ISSUE_REVOLVER, .distance = 3);
    STEADY_INSTRUCTIONS
MODEL_END

static const char *const program[64] = {
    [0] = "start 1", "start 2", "start 3",
    [3] = "ldc 12",
    [4] = "tick", "brm 20", "dec", "jnz 4",             /* 4..7: the first loop */
    [8] = "wait 4", "ldc 3",
    [10] = "tick", "dec", "jnz 10", "halt",             /* 10..13: the second */
    [20] = "out 1", "jnz 6",                            /* mode 0: a port handler reads the counts */
    [22] = "bad",                                       /* mode 1: a fault */
    [24] = "jmp 200",                                   /* mode 2: a PC outside the code memory */
    [26] = "out 2", "jnz 6",                            /* mode 3: as mode 0, the last context */
};

typedef struct rig {
    isk_diag d;
    isk_diag_buffer out;
    isk_model *m;
    isk_system *sys;
    isk_inst *p;
    uint64_t seen;            /* what the port handler saw of every context, folded */
    unsigned issues;          /* ISSUE events (the general path only) */
} rig;

/* The port handler reads every context's counts in the middle of an instruction. */
static void port_write(void *user, isk_inst *inst, uint64_t port, uint64_t value)
{
    rig *r = user;
    r->seen = r->seen * 31 + port * 7 + value + isk_clock(r->sys);
    const uint64_t now = isk_clock(r->sys);
    for (int id = 0; id < 4; id++) {
        const isk_context *c = isk_context_of(inst, id);
        r->seen = r->seen * 31 + c->insns * 5 + c->last_issue * 3 + (c->ready_at > now ? c->ready_at : now) + c->pc +
                  c->state;
    }
    /* and the statistics, whose instruction count a steady round keeps as a bias on the clock */
    isk_stats s;
    isk_get_stats(r->sys, &s);
    r->seen = r->seen * 31 + s.instructions;
}

static void count_issue(void *user, const isk_event *ev)
{
    (void)ev;
    ((rig *)user)->issues++;
}

static void rig_open(rig *r, const struct isk_model_entry *e, int contexts, int mode, bool general)
{
    memset(r, 0, sizeof *r);
    isk_diag_init(&r->d);
    isk_diag_capture(&r->d, &r->out);
    r->m = isk_model_from_entry(e, "test", &r->d);
    isk_system_options o = { .diag = &r->d };
    r->sys = isk_system_new(&o);
    r->p = isk_system_add(r->sys, r->m, "cpu");
    for (uint64_t pc = 0; pc < 64; pc++)
        if (program[pc]) isk_write(r->p, "ROM", pc, (int64_t)test_encode(r->m, program[pc], pc));
    isk_write(r->p, "D", 14, contexts);
    isk_write(r->p, "D", 15, mode);
    isk_set_ports(r->p, NULL, port_write, r);
    if (general) CHECK_EQ(isk_subscribe(r->sys, ISK_EV_BIT(ISK_EV_ISSUE), count_issue, r), ISK_OK);
}

static void rig_close(rig *r)
{
    isk_system_free(r->sys);
    isk_model_release(r->m);
    isk_diag_buffer_free(&r->out);
}

/* One program in runs of at most `piece` clocks on both paths, to its end; returns the
 * instructions it issued. */
static uint64_t compare(const struct isk_model_entry *e, int contexts, int mode, uint64_t piece)
{
    rig fast, general;
    rig_open(&fast, e, contexts, mode, false);
    rig_open(&general, e, contexts, mode, true);
    isk_status a = ISK_OK, b = ISK_OK;
    int runs = 0;
    bool same = true;
    for (; runs < 2000 && a == ISK_OK && same; runs++) {
        a = isk_run(fast.sys, piece);
        b = isk_run(general.sys, piece);
        same &= a == b && isk_clock(fast.sys) == isk_clock(general.sys) && fast.seen == general.seen;
        /* a ready clock already reached says nothing (with a gap of 1 the fast loops record none) */
        const uint64_t now = isk_clock(fast.sys);
        for (int id = 0; id < 4; id++) {
            const isk_context *x = isk_context_of(fast.p, id), *y = isk_context_of(general.p, id);
            same &= x->pc == y->pc && x->insns == y->insns && x->last_issue == y->last_issue &&
                    (x->ready_at > now ? x->ready_at : now) == (y->ready_at > now ? y->ready_at : now) &&
                    x->state == y->state;
        }
        for (uint64_t i = 0; i < 16; i++) {
            int64_t x = 0, y = 0;
            isk_read(fast.p, "D", i, &x);
            isk_read(general.p, "D", i, &y);
            same &= x == y;
        }
        isk_stats s, t;
        isk_get_stats(fast.sys, &s);
        isk_get_stats(general.sys, &t);
        same &= s.instructions == t.instructions && s.idle_clocks == t.idle_clocks && s.clocks == t.clocks;
    }
    if (!same || strcmp(isk_last_error(fast.sys), isk_last_error(general.sys)) != 0) {
        fprintf(stderr, "%s, %d contexts, mode %d, runs of %llu clocks: the paths differ after run %d "
                "(status %d/%d, clock %llu/%llu, error '%s' / '%s')\n", e == &isk_model_steady_gap1 ? "gap 1" : "gap 3",
                contexts, mode, (unsigned long long)piece, runs, a, b, (unsigned long long)isk_clock(fast.sys),
                (unsigned long long)isk_clock(general.sys), isk_last_error(fast.sys), isk_last_error(general.sys));
        for (int id = 0; id < 4; id++) {
            const isk_context *x = isk_context_of(fast.p, id), *y = isk_context_of(general.p, id);
            fprintf(stderr, "  context %d: pc %llu/%llu insns %llu/%llu last issue %llu/%llu ready %llu/%llu state %u/%u\n", id,
                    (unsigned long long)x->pc, (unsigned long long)y->pc, (unsigned long long)x->insns,
                    (unsigned long long)y->insns, (unsigned long long)x->last_issue, (unsigned long long)y->last_issue,
                    (unsigned long long)x->ready_at, (unsigned long long)y->ready_at, x->state, y->state);
        }
        CHECK(false);
    }
    /* how each program ends: modes 1 and 2 fault, the others stop */
    CHECK_EQ(a, mode == 1 || mode == 2 ? ISK_FAULT : ISK_STOPPED);
    if (mode == 1) CHECK_CONTAINS(isk_last_error(fast.sys), "context 1, pc 0x16: a bad instruction");
    if (mode == 2) CHECK_CONTAINS(isk_last_error(fast.sys), "pc 0xc8 is outside the code memory");
    if (mode == 0 || mode == 3) CHECK(fast.seen != 0);
    isk_stats s;
    isk_get_stats(fast.sys, &s);
    CHECK_EQ(s.instructions + (mode == 1), general.issues);   /* a faulting instruction is not counted */
    rig_close(&fast);
    rig_close(&general);
    return s.instructions;
}

int main(void)
{
    const struct isk_model_entry *models[] = { &isk_model_steady_gap1, &isk_model_steady_gap3 };
    for (int g = 0; g < 2; g++) {
        for (uint64_t piece = 1; piece <= 30; piece++) {
            /* four contexts: no special path, then each mode */
            for (int mode = -1; mode <= 3; mode++) {
                const uint64_t n = compare(models[g], 4, mode, piece);
                /* 3 starts; context c: ldc, 12 (c + 1) x 4, wait, ldc, 3 (c + 1) x 3, halt */
                if (mode == -1) CHECK_EQ(n, 3 + 16 + 57 * 10);
            }
            compare(models[g], 1, -1, piece);                  /* one context alone */
            compare(models[g], 1, 0, piece);
        }
    }
    return CHECK_DONE();
}
