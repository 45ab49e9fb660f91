/* The clock's write log (abi.h isk_write_log): a command's first write of a clock to a
 * latency-1 cell is appended by SET itself, every other through ops->write. The CREW check,
 * latency and the counts must be those of the queue it replaces: a conflict is caught whichever
 * path the earlier write took, with the same message, and a command reading a cell it wrote in
 * the same clock sees the old value. */
#define ISK_BUILTIN_MODEL 1
#include <string.h>

#include "check.h"
#include "engine/model_desc.h"
#include "isekit/model.h"
#include "isekit/sim.h"

STATE_BEGIN
    DECLARE_MEMORY(INT(32, 1), 64) M;
    DECLARE_MEMORY(INT(32, 2), 8) L2;
    DECLARE_MEMORY(INT(16, 0), 64) L0;
STATE_END

/* M[i] = v: one write. */
ACC_FUNCTION(Put, i, v) { SET(M, i, v); }

/* M[i] = v, then M[i + 1] = M[i] as read after that write: the old M[i]. */
ACC_FUNCTION(PutCopy, i, v)
{
    SET(M, i, v);
    SET(M, i + 1, GET(M, i));
}

/* M[i] = 1 and then M[i] = 2 in one clock: a command conflicts with itself. */
ACC_FUNCTION(Twice, i)
{
    SET(M, i, 1);
    SET(M, i, 2);
}

/* L2[i] = v (latency 2) and M[i] = v (latency 1) in one clock. */
ACC_FUNCTION(Both, i, v)
{
    SET(L2, i, v);
    SET(M, i, v);
}

/* M[i + k] = k + 1 for k < n: more writes in a clock than the log's first room. */
ACC_FUNCTION(Fill, i, n)
{
    for (int64_t k = 0; k < n; k++) SET(M, i + k, k + 1);
}

/* M[i] = v through ops->write itself (the public ABI), then M[i + 1] = v + 1 by SET: SET must
 * not take the log's first entry, which the direct write holds (abi.h isk_hdr.inline_entry). */
ACC_FUNCTION(Direct, i, v)
{
    S->isk.ops->write(&S->isk, &CELLS(M)[i], v, 1u | ISK_WRITE_BYTES(sizeof CELLS(M)[0]));
    SET(M, i + 1, v + 1);
}

/* L0[i + k] = k + 1 for k < n: latency 0, made now and logged for the clock's CREW check. */
ACC_FUNCTION(Fill0, i, n)
{
    for (int64_t k = 0; k < n; k++) SET(L0, i + k, k + 1);
}

MODEL_BEGIN(wlog, "the write log")
    WORD_BITS(16);
    SLOTS(4);
    MEMORY(M, "memory, latency 1");
    MEMORY(L2, "memory, latency 2");
    MEMORY(L0, "memory, latency 0");
    INSTRUCTION("0001-iiiiii-vvvvvv", Put, "put {i}, {v}");
    INSTRUCTION("0010-iiiiii-vvvvvv", PutCopy, "putcopy {i}, {v}");
    INSTRUCTION("0011-iiiiii-000000", Twice, "twice {i}");
    INSTRUCTION("0100-000iii-vvvvvv", Both, "both {i}, {v}");
    INSTRUCTION("0101-iiiiii-nnnnnn", Fill, "fill {i}, {n}");
    INSTRUCTION("0110-iiiiii-vvvvvv", Direct, "direct {i}, {v}");
    INSTRUCTION("0111-iiiiii-nnnnnn", Fill0, "fill0 {i}, {n}");
MODEL_END

static uint64_t put(unsigned i, unsigned v) { return 0x1000u | i << 6 | v; }
static uint64_t putcopy(unsigned i, unsigned v) { return 0x2000u | i << 6 | v; }
static uint64_t twice(unsigned i) { return 0x3000u | i << 6; }
static uint64_t both(unsigned i, unsigned v) { return 0x4000u | i << 6 | v; }
static uint64_t fill(unsigned i, unsigned n) { return 0x5000u | i << 6 | n; }
static uint64_t direct(unsigned i, unsigned v) { return 0x6000u | i << 6 | v; }
static uint64_t fill0(unsigned i, unsigned n) { return 0x7000u | i << 6 | n; }

typedef struct rig { isk_diag d; isk_diag_buffer out; isk_model *m; isk_system *sys; isk_inst *a; } rig;

static void open_rig(rig *r, int warnings)
{
    isk_diag_init(&r->d);
    isk_diag_capture(&r->d, &r->out);
    r->m = isk_model_from_entry(&isk_model_wlog, "test", &r->d);
    isk_system_options o = { .conflicts_are_warnings = warnings, .diag = &r->d };
    r->sys = isk_system_new(&o);
    r->a = isk_system_add(r->sys, r->m, "a");
    isk_attach(r->sys, r->a, 0);
}

static void close_rig(rig *r)
{
    isk_system_free(r->sys);
    isk_model_release(r->m);
    isk_diag_buffer_free(&r->out);
}

static int64_t cell(rig *r, const char *storage, uint64_t i)
{
    int64_t v = -1;
    CHECK_EQ(isk_read(r->a, storage, i, &v), ISK_OK);
    return v;
}

/* Launch the words in one clock and run it. */
static isk_status one_clock(rig *r, const uint64_t *words, size_t n)
{
    for (size_t i = 0; i < n; i++) CHECK_EQ(isk_launch(r->sys, r->a, words[i]), ISK_OK);
    return isk_step(r->sys, 1);
}
#define ONE_CLOCK(r, ...) one_clock((r), (const uint64_t[]){ __VA_ARGS__ }, \
                                    sizeof (const uint64_t[]){ __VA_ARGS__ } / sizeof(uint64_t))

/* Latency 1 through the log: invisible in the clock of the write, visible from the next. */
static void test_latency(void)
{
    rig r;
    open_rig(&r, 0);
    CHECK_EQ(isk_write(r.a, "M", 3, 40), ISK_OK);
    CHECK_EQ(isk_launch(r.sys, r.a, putcopy(3, 7)), ISK_OK);   /* M[3] = 7, M[4] = old M[3] */
    CHECK_EQ(isk_launch(r.sys, r.a, put(5, 9)), ISK_OK);       /* a second command: the call path */
    CHECK_EQ(isk_step(r.sys, 1), ISK_OK);
    CHECK_EQ(cell(&r, "M", 3), 7);
    CHECK_EQ(cell(&r, "M", 4), 40);
    CHECK_EQ(cell(&r, "M", 5), 9);
    /* latency 2 beside latency 1 in one clock: the ring and the log, each at its clock */
    CHECK_EQ(isk_launch(r.sys, r.a, both(2, 11)), ISK_OK);
    CHECK_EQ(isk_step(r.sys, 1), ISK_OK);
    CHECK_EQ(cell(&r, "M", 2), 11);
    CHECK_EQ(cell(&r, "L2", 2), 0);
    CHECK_EQ(isk_step(r.sys, 1), ISK_OK);
    CHECK_EQ(cell(&r, "L2", 2), 11);
    isk_stats st;
    isk_get_stats(r.sys, &st);
    CHECK_EQ(st.writes, 5);
    CHECK_EQ(st.crew_conflicts, 0);
    close_rig(&r);
}

/* Two commands write one cell in one clock: the first write was SET's own append. */
static void test_conflict_inline_first(void)
{
    rig r;
    open_rig(&r, 0);
    CHECK_EQ(ONE_CLOCK(&r, put(3, 1), put(3, 2)), ISK_CONFLICT);
    CHECK_CONTAINS(isk_last_error(r.sys), "clock 0: CREW conflict: a.M[3] written twice in one clock, by a slot 0 (Put");
    CHECK_CONTAINS(isk_last_error(r.sys), "and by a slot 1 (Put");
    CHECK_EQ(cell(&r, "M", 3), 0);                              /* the run stopped inside the clock */
    char why[512];
    isk_describe_activity(r.sys, why, sizeof why);   /* the first command's write, which SET appended itself */
    CHECK_CONTAINS(why, "1 write pending");
    close_rig(&r);
}

/* The earlier write went through ops->write (it was not the clock's first). */
static void test_conflict_called_first(void)
{
    rig r;
    open_rig(&r, 0);
    CHECK_EQ(isk_launch(r.sys, r.a, put(9, 1)), ISK_OK);        /* the clock's first write */
    CHECK_EQ(ONE_CLOCK(&r, put(3, 1), put(3, 2)), ISK_CONFLICT);
    CHECK_CONTAINS(isk_last_error(r.sys), "CREW conflict: a.M[3] written twice in one clock, by a slot 1 (Put");
    CHECK_CONTAINS(isk_last_error(r.sys), "and by a slot 2 (Put");
    close_rig(&r);
}

/* One command writing a cell twice in a clock conflicts with itself, as before the log. */
static void test_conflict_self(void)
{
    rig r;
    open_rig(&r, 0);
    CHECK_EQ(isk_launch(r.sys, r.a, twice(6)), ISK_OK);
    CHECK_EQ(isk_step(r.sys, 1), ISK_CONFLICT);
    CHECK_CONTAINS(isk_last_error(r.sys), "CREW conflict: a.M[6] written twice in one clock, by a slot 0 (Twice");
    CHECK_CONTAINS(isk_last_error(r.sys), "and by a slot 0 (Twice");
    close_rig(&r);
}

/* Conflicts as warnings: each is counted, the clock goes on and the later write wins. */
static void test_conflict_warnings(void)
{
    rig r;
    open_rig(&r, 1);
    CHECK_EQ(ONE_CLOCK(&r, put(3, 1), put(3, 2), put(3, 3)), ISK_OK);   /* the third conflicts twice */
    CHECK_CONTAINS(r.out.text, "warning: clock 0: CREW conflict: a.M[3]");
    CHECK_EQ(cell(&r, "M", 3), 3);
    isk_stats st;
    isk_get_stats(r.sys, &st);
    CHECK_EQ(st.crew_conflicts, 3);
    CHECK_EQ(st.writes, 3);
    /* the next clock starts with an empty log: no conflict with the last clock's writes */
    CHECK_EQ(ONE_CLOCK(&r, put(3, 4)), ISK_OK);
    isk_get_stats(r.sys, &st);
    CHECK_EQ(st.crew_conflicts, 3);
    CHECK_EQ(cell(&r, "M", 3), 4);
    close_rig(&r);
}

/* More writes in a clock than the log's first room: it grows, and every write lands. */
static void test_many_writes(void)
{
    rig r;
    open_rig(&r, 0);
    CHECK_EQ(ONE_CLOCK(&r, fill(10, 40), putcopy(60, 5)), ISK_OK);
    for (unsigned k = 0; k < 40; k++) CHECK_EQ(cell(&r, "M", 10 + k), k + 1);
    CHECK_EQ(cell(&r, "M", 60), 5);
    CHECK_EQ(cell(&r, "M", 9), 0);
    CHECK_EQ(cell(&r, "M", 50), 0);
    isk_stats st;
    isk_get_stats(r.sys, &st);
    CHECK_EQ(st.writes, 42);
    /* a conflict found deep in a grown log */
    CHECK_EQ(ONE_CLOCK(&r, fill(10, 40), put(45, 1)), ISK_CONFLICT);
    CHECK_CONTAINS(isk_last_error(r.sys), "CREW conflict: a.M[45] written twice in one clock, by a slot 0 (Fill");
    close_rig(&r);
}

/* Latency-0 writes: visible at once, CREW-checked against every earlier one of the clock, the log
 * grown past its first room, emptied at the clock's end; as warnings, counted and the later wins. */
static void test_latency_zero(void)
{
    rig r;
    open_rig(&r, 0);
    CHECK_EQ(ONE_CLOCK(&r, fill0(0, 40), fill0(50, 3)), ISK_OK);
    for (unsigned k = 0; k < 40; k++) CHECK_EQ(cell(&r, "L0", k), k + 1);
    CHECK_EQ(cell(&r, "L0", 52), 3);
    CHECK_EQ(ONE_CLOCK(&r, fill0(0, 1)), ISK_OK);               /* the last clock's log is gone */
    CHECK_EQ(ONE_CLOCK(&r, fill0(0, 40), fill0(39, 1)), ISK_CONFLICT);
    CHECK_CONTAINS(isk_last_error(r.sys), "clock 2: CREW conflict: a.L0[39] written twice in one clock, by a slot 0 (Fill0");
    CHECK_CONTAINS(isk_last_error(r.sys), "and by a slot 1 (Fill0");
    close_rig(&r);
    open_rig(&r, 1);
    CHECK_EQ(ONE_CLOCK(&r, fill0(5, 2), fill0(6, 1), fill0(6, 1)), ISK_OK);   /* the third conflicts twice */
    CHECK_CONTAINS(r.out.text, "warning: clock 0: CREW conflict: a.L0[6]");
    CHECK_EQ(cell(&r, "L0", 6), 1);
    CHECK_EQ(cell(&r, "L0", 5), 1);
    isk_stats st;
    isk_get_stats(r.sys, &st);
    CHECK_EQ(st.crew_conflicts, 3);
    close_rig(&r);
}

/* A command's direct ops->write as the clock's first latency-1 write, then SET: both land (SET
 * does not overwrite the log's first entry), in the slot loop and in the slotless queue. */
static void test_direct_then_set(void)
{
    rig r;
    open_rig(&r, 0);
    CHECK_EQ(ONE_CLOCK(&r, direct(20, 5)), ISK_OK);
    CHECK_EQ(cell(&r, "M", 20), 5);
    CHECK_EQ(cell(&r, "M", 21), 6);
    /* and the second of them conflicts with a later command's write, the direct one too */
    CHECK_EQ(ONE_CLOCK(&r, direct(30, 1), put(30, 2)), ISK_CONFLICT);
    CHECK_CONTAINS(isk_last_error(r.sys), "CREW conflict: a.M[30] written twice in one clock, by a slot 0 (Direct");
    close_rig(&r);
    open_rig(&r, 0);
    const isk_command *q[3] = { isk_prepare(r.sys, r.a, direct(40, 7)), isk_prepare(r.sys, r.a, direct(42, 9)),
                                isk_prepare(r.sys, r.a, put(44, 3)) };
    CHECK_EQ(isk_queue_commands(r.sys, q, 3), ISK_OK);
    CHECK_EQ(isk_step(r.sys, 3), ISK_OK);
    CHECK_EQ(cell(&r, "M", 40), 7);
    CHECK_EQ(cell(&r, "M", 41), 8);
    CHECK_EQ(cell(&r, "M", 42), 9);
    CHECK_EQ(cell(&r, "M", 43), 10);
    CHECK_EQ(cell(&r, "M", 44), 3);
    isk_stats st;
    isk_get_stats(r.sys, &st);
    CHECK_EQ(st.writes, 5);
    close_rig(&r);
}

int main(void)
{
    test_latency();
    test_conflict_inline_first();
    test_conflict_called_first();
    test_conflict_self();
    test_conflict_warnings();
    test_many_writes();
    test_direct_then_set();
    test_latency_zero();
    return CHECK_DONE();
}
