/* Resumable stops on the DPU: a breakpoint of the before-issue hook stops 16 tasklets in cycle
 * mode before every issue of one instruction; resumed each time, the run ends in the state and
 * the cycle of the uninterrupted run. */
#include "check.h"
#include "dpu_harness.h"
#include "breaker.h"

/* each tasklet sums 10 + 9 + ... + 1 + its id into r0 */
static const char *const program[] = { "move r0, id", "move r1, 10", "add r0, r0, r1", "sub r1, r1, 1, nz, 2",
                                       "stop", NULL };

static void open16(dpu_harness *h, breaker *b)
{
    dh_open(h, "cycle");
    if (b) {
        isk_system_free(h->sys);                    /* again, with the hook */
        isk_system_options o = { .diag = &h->diag, .before_issue = break_at, .before_issue_user = b };
        h->sys = isk_system_new(&o);
        h->dpu = isk_system_add(h->sys, h->model, "dpu");
        isk_set_param(h->dpu, "mode", "cycle");
        h->S = (struct isk_state *)(void *)isk_inst_state(h->dpu);
    }
    dh_load(h, program);
    for (int t = 1; t < 16; t++) isk_start(h->dpu, t, 0);
}

int main(void)
{
    dpu_harness whole, parts;
    open16(&whole, NULL);
    CHECK_EQ(dh_run(&whole), ISK_STOPPED);
    breaker b = { 2, 0 };
    open16(&parts, &b);
    isk_status st;
    int runs = 0;
    while ((st = isk_run(parts.sys, 0)) == ISK_BREAK && runs < 10000) runs++;
    CHECK_EQ(st, ISK_STOPPED);
    CHECK_EQ(runs, 16 * 10);                        /* every tasklet, every time round its loop */
    CHECK_EQ(b.stops, runs);
    CHECK_EQ(isk_clock(parts.sys), isk_clock(whole.sys));
    for (int t = 0; t < 16; t++) {
        CHECK_EQ(dh_reg(&parts, t, 0), 55 + t);
        CHECK_EQ(dh_reg(&parts, t, 0), dh_reg(&whole, t, 0));
        CHECK_EQ(isk_context_of(parts.dpu, t)->insns, isk_context_of(whole.dpu, t)->insns);
    }
    isk_stats a, c;
    isk_get_stats(whole.sys, &a);
    isk_get_stats(parts.sys, &c);
    CHECK_EQ(c.instructions, a.instructions);
    CHECK_EQ(c.idle_clocks, a.idle_clocks);
    printf("16 tasklets, cycle mode: %d stops, %llu cycles as uninterrupted\n", runs,
           (unsigned long long)isk_clock(parts.sys));
    dh_close(&whole);
    dh_close(&parts);
    return CHECK_DONE();
}
