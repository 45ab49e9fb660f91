/* Storage: widths 1..64, wrap and sign extension on write, fixed point, latency 0 against
 * latency 1 between two commands of one clock. */
#define ISK_BUILTIN_MODEL 1
#include "check.h"
#include "engine/model_desc.h"
#include "isekit/model.h"
#include "isekit/sim.h"

STATE_BEGIN
    DECLARE_REGISTER(INT(1)) S1;
    DECLARE_REGISTER(UINT(1)) U1;
    DECLARE_REGISTER(INT(7)) S7;
    DECLARE_REGISTER(UINT(36)) U36;
    DECLARE_REGISTER(INT(63)) S63;
    DECLARE_REGISTER(INT(64)) S64;
    DECLARE_REGISTER(UINT(64)) U64;
    DECLARE_REGISTER(FIXED(4, 12)) FX;
    DECLARE_REGISTER(INT(32, 0)) NOW;        /* latency 0 */
    DECLARE_REGISTER(INT(32)) LATER;         /* latency 1 */
    DECLARE_MEMORY(INT(32), 4) OUT;
STATE_END

/* Write v (sign-extended from the 16-bit operand) everywhere. */
ACC_FUNCTION(WriteAll, v)
{
    int64_t x = SEXT(v, 16);
    SET(S1, x);
    SET(U1, x);
    SET(S7, x);
    SET(U36, x);
    SET(S63, x);
    SET(S64, x);
    SET(U64, x);
    SET(FX, x);
    SET(NOW, x);
    SET(LATER, x);
}

/* Copies what it sees of NOW and LATER: run in the same clock after WriteAll. */
ACC_FUNCTION(Observe)
{
    SET(OUT, 0, GET(NOW));
    SET(OUT, 1, GET(LATER));
}

/* FX = FX * FX in 4.12 fixed point. */
ACC_FUNCTION(Square)
{
    SET(FX, FX_MUL(GET(FX), GET(FX), 12));
}

MODEL_BEGIN(shapes, "storage shapes")
    WORD_BITS(24);
    SLOTS(4);
    REG(S1, "S1"); REG(U1, "U1"); REG(S7, "S7"); REG(U36, "U36"); REG(S63, "S63");
    REG(S64, "S64"); REG(U64, "U64"); REG(FX, "FX"); REG(NOW, "NOW"); REG(LATER, "LATER");
    MEMORY(OUT, "OUT");
    INSTRUCTION("00000001-vvvvvvvvvvvvvvvv", WriteAll, "write {v}", .fields = "v:s");
    INSTRUCTION("00000010-0000000000000000", Observe, "observe");
    INSTRUCTION("00000011-0000000000000000", Square, "square");
MODEL_END

static int64_t rd(isk_inst *i, const char *name)
{
    int64_t v = 0;
    isk_read(i, name, 0, &v);
    return v;
}

static void test_wrap(void)
{
    isk_diag d;
    isk_diag_init(&d);
    isk_model *m = isk_model_from_entry(&isk_model_shapes, "test", &d);
    isk_system *sys = isk_system_new(NULL);
    isk_inst *a = isk_system_add(sys, m, "a");
    static const int64_t values[] = { 0, 1, -1, 63, 64, -64, -65, 0x7fff, -0x8000, 12345 };
    for (size_t k = 0; k < sizeof values / sizeof *values; k++) {
        int64_t v = values[k];
        isk_launch(sys, a, 0x010000 | (uint64_t)(v & 0xffff));
        isk_launch(sys, a, 0x020000);
        isk_step(sys, 1);
        CHECK_EQ(rd(a, "S1"), (v & 1) ? -1 : 0);
        CHECK_EQ(rd(a, "U1"), v & 1);
        CHECK_EQ(rd(a, "S7"), (int64_t)((uint64_t)v << 57) >> 57);
        CHECK_EQ(rd(a, "U36"), v & ((INT64_C(1) << 36) - 1));
        CHECK_EQ(rd(a, "S63"), v);
        CHECK_EQ(rd(a, "S64"), v);
        CHECK_EQ(rd(a, "U64"), v);
        CHECK_EQ(rd(a, "FX"), (int16_t)v);
        /* Observe ran after WriteAll in the same clock: it saw NOW's new value (latency 0) and
         * LATER's old one (latency 1). */
        int64_t seen_now, seen_later;
        isk_read(a, "OUT", 0, &seen_now);
        isk_read(a, "OUT", 1, &seen_later);
        CHECK_EQ(seen_now, v);
        CHECK_EQ(seen_later, k ? values[k - 1] : 0);
    }
    /* 1.5 squared in 4.12 is 2.25; 3.0 squared overflows 4 integer bits and wraps. */
    isk_write(a, "FX", 0, FX_FROM_DOUBLE(1.5, 12));
    isk_launch(sys, a, 0x030000);
    isk_step(sys, 1);
    CHECK_EQ(rd(a, "FX"), FX_FROM_DOUBLE(2.25, 12));
    CHECK(FX_TO_DOUBLE(rd(a, "FX"), 12) == 2.25);
    isk_write(a, "FX", 0, FX_FROM_DOUBLE(3.0, 12));
    isk_launch(sys, a, 0x030000);
    isk_step(sys, 1);
    CHECK_EQ(rd(a, "FX"), (int16_t)FX_FROM_DOUBLE(9.0, 12));
    /* The shape as the debugger sees it. */
    const isk_storage_info *fx = isk_model_storage(m, isk_model_find_storage(m, "FX"));
    CHECK_EQ(fx->width, 16);
    CHECK_EQ(fx->frac, 12);
    CHECK_EQ(fx->sign, 1);
    CHECK_EQ(fx->latency, 1);
    const isk_storage_info *now = isk_model_storage(m, isk_model_find_storage(m, "NOW"));
    CHECK_EQ(now->latency, 0);
    isk_system_free(sys);
    isk_model_release(m);
}

int main(void)
{
    test_wrap();
    return CHECK_DONE();
}
