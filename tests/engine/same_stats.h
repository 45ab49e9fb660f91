/* Two systems' statistics (isk_get_stats) the same, field by field, so that a failing check names
 * the field. The comparison tests (a queue against a driver, a fast path against the general one)
 * share it. Include after check.h. */
#ifndef ISK_TEST_SAME_STATS_H
#define ISK_TEST_SAME_STATS_H

#include "isekit/sim.h"

static void check_same_stats(const isk_system *a, const isk_system *b)
{
    isk_stats s, t;
    isk_get_stats(a, &s);
    isk_get_stats(b, &t);
    CHECK_EQ(s.clocks, t.clocks);
    CHECK_EQ(s.launches, t.launches);
    CHECK_EQ(s.commands_done, t.commands_done);
    CHECK_EQ(s.slot_clocks, t.slot_clocks);
    CHECK_EQ(s.max_busy_slots, t.max_busy_slots);
    for (int i = 0; i < 64; i++) CHECK_EQ(s.resource_clocks[i], t.resource_clocks[i]);
    CHECK_EQ(s.crew_conflicts, t.crew_conflicts);
    CHECK_EQ(s.resource_clashes, t.resource_clashes);
    CHECK_EQ(s.interrupts, t.interrupts);
    CHECK_EQ(s.instructions, t.instructions);
    CHECK_EQ(s.idle_clocks, t.idle_clocks);
    CHECK_EQ(s.idle_blocked_clocks, t.idle_blocked_clocks);
    CHECK_EQ(s.exceptions, t.exceptions);
    CHECK_EQ(s.writes, t.writes);
}

#endif
