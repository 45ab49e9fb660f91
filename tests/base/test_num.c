/* The strict number parser every option and parameter goes through: bases, separators, unit
 * suffixes, ranges, overflow, and the inputs strtoull used to accept silently. */
#include "base/num.h"
#include "check.h"

static uint64_t u(const char *text, uint64_t min, uint64_t max, isk_unit unit, int *ok, char *why)
{
    uint64_t v = 12345;
    *ok = isk_parse_u64(text, min, max, unit, &v, why, 200);
    return v;
}

int main(void)
{
    char why[200];
    int ok;
    CHECK_EQ(u("0", 0, 100, ISK_UNIT_NONE, &ok, why), 0);
    CHECK(ok);
    CHECK_EQ(u("42", 0, 100, ISK_UNIT_NONE, &ok, why), 42);
    CHECK_EQ(u("0x2A", 0, 100, ISK_UNIT_NONE, &ok, why), 42);
    CHECK_EQ(u("0b101010", 0, 100, ISK_UNIT_NONE, &ok, why), 42);
    CHECK_EQ(u("1_000_000", 0, UINT64_MAX, ISK_UNIT_NONE, &ok, why), 1000000);
    CHECK(ok);
    CHECK_EQ(u("18446744073709551615", 0, UINT64_MAX, ISK_UNIT_NONE, &ok, why), (long long)UINT64_MAX);
    CHECK(ok);

    /* units */
    CHECK_EQ(u("5M", 0, UINT64_MAX, ISK_UNIT_COUNT, &ok, why), 5000000);
    CHECK(ok);
    CHECK_EQ(u("2k", 0, UINT64_MAX, ISK_UNIT_COUNT, &ok, why), 2000);
    CHECK_EQ(u("3T", 0, UINT64_MAX, ISK_UNIT_COUNT, &ok, why), 3000000000000LL);
    CHECK_EQ(u("256K", 0, UINT64_MAX, ISK_UNIT_BYTES, &ok, why), 262144);
    CHECK_EQ(u("1MiB", 0, UINT64_MAX, ISK_UNIT_BYTES, &ok, why), 1048576);
    CHECK(ok);
    u("5M", 0, UINT64_MAX, ISK_UNIT_NONE, &ok, why);
    CHECK(!ok);
    CHECK_CONTAINS(why, "'5M' is not a number");
    u("1MiB", 0, UINT64_MAX, ISK_UNIT_COUNT, &ok, why);
    CHECK(!ok);
    CHECK_CONTAINS(why, "suffixes: k, M, G, T");

    /* what strtoull and atoi let through */
    static const char *const junk[] = { "", "abc", "3abc", "1e1", " 5", "5 ", "x", "0x", "_1", "1__0", "1_", "--1",
                                        "0b", "0b2" };
    for (size_t i = 0; i < sizeof junk / sizeof *junk; i++) {
        u(junk[i], 0, UINT64_MAX, ISK_UNIT_COUNT, &ok, why);
        CHECK(!ok);
        CHECK_CONTAINS(why, "is not a number");
    }
    CHECK_EQ(u("0b2", 0, 100, ISK_UNIT_NONE, &ok, why), 12345);   /* untouched on failure */

    /* ranges and overflow */
    u("-5", 0, UINT64_MAX, ISK_UNIT_NONE, &ok, why);
    CHECK(!ok);
    CHECK_CONTAINS(why, "-5 is out of range (0 to 18446744073709551615)");
    u("0", 1, 24, ISK_UNIT_NONE, &ok, why);
    CHECK(!ok);
    CHECK_CONTAINS(why, "0 is out of range (1 to 24)");
    u("25", 1, 24, ISK_UNIT_NONE, &ok, why);
    CHECK(!ok);
    u("18446744073709551616", 0, UINT64_MAX, ISK_UNIT_NONE, &ok, why);
    CHECK(!ok);
    CHECK_CONTAINS(why, "does not fit in 64 bits");
    u("20000000T", 0, UINT64_MAX, ISK_UNIT_COUNT, &ok, why);
    CHECK(!ok);
    CHECK_CONTAINS(why, "does not fit in 64 bits");

    /* signed */
    int64_t s = 0;
    CHECK(isk_parse_i64("-5", -10, 10, ISK_UNIT_NONE, &s, why, sizeof why));
    CHECK_EQ(s, -5);
    CHECK(isk_parse_i64("-0x8000000000000000", INT64_MIN, INT64_MAX, ISK_UNIT_NONE, &s, why, sizeof why));
    CHECK(s == INT64_MIN);
    CHECK(!isk_parse_i64("0x8000000000000000", INT64_MIN, INT64_MAX, ISK_UNIT_NONE, &s, why, sizeof why));
    CHECK_CONTAINS(why, "out of range");
    CHECK(!isk_parse_i64("-11", -10, 10, ISK_UNIT_NONE, &s, why, sizeof why));
    CHECK(isk_parse_i64("+7", -10, 10, ISK_UNIT_NONE, &s, why, sizeof why));
    CHECK_EQ(s, 7);
    return CHECK_DONE();
}
