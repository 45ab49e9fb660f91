/* binary16 conversions of the host tools (src/base/half.h): round to nearest even at every kind
 * of tie, subnormals, overflow to infinity, signed zeros, NaN; and every one of the 63,488
 * finite patterns read back and converted again to itself. */
#include <math.h>

#include "base/half.h"
#include "check.h"

int main(void)
{
    CHECK_EQ(isk_half_from_double(1.0), 0x3C00);
    CHECK_EQ(isk_half_from_double(-2.0), 0xC000);
    CHECK_EQ(isk_half_from_double(65504), 0x7BFF);
    CHECK_EQ(isk_half_from_double(65519), 0x7BFF);
    CHECK_EQ(isk_half_from_double(65520), 0x7C00);                 /* the tie above the largest: even, inf */
    CHECK_EQ(isk_half_from_double(-INFINITY), 0xFC00);
    CHECK_EQ(isk_half_from_double(0x1p-25), 0);                    /* a tie: to even, 0 */
    CHECK_EQ(isk_half_from_double(0x1.8p-24), 2);                  /* a tie: to even, 2 */
    CHECK_EQ(isk_half_from_double(0x1p-24), 1);                    /* the least subnormal */
    CHECK_EQ(isk_half_from_double(1 + 0x1p-11), 0x3C00);          /* a tie: to even */
    CHECK_EQ(isk_half_from_double(1 + 0x1.8p-10), 0x3C02);        /* a tie: to even */
    CHECK_EQ(isk_half_from_double(1 + 0x1.8p-11), 0x3C01);        /* above the tie: up */
    CHECK_EQ(isk_half_from_double(0x1.ffcp-15), 0x0400);          /* rounds up into the normals */
    CHECK_EQ(isk_half_from_double(-0.0), 0x8000);
    CHECK_EQ(isk_half_from_double(NAN) & 0x7FFF, 0x7E00);
    CHECK(isnan(isk_half_to_double(0x7E01)));
    CHECK_EQ(isk_half_to_double(0xFC00), -INFINITY);
    CHECK_EQ(isk_half_to_double(0x0001), 0x1p-24);
    int bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++)
        if ((h & 0x7C00) != 0x7C00 && isk_half_from_double(isk_half_to_double((uint16_t)h)) != h) bad++;
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
