/* rv12_pb6_table.psm in C (KCPSM6 only): the original reads a LOAD&RETURN table with CALL@ and
 * chains 16-bit COMPARE/COMPARECY and TEST/TESTCY; in C the table is an array (in the scratchpad)
 * and the 16-bit comparisons and the test are C's. sA, the original's table address (tbl'lower =
 * 21) plus the index, is C's index plus that address, since the C table has another address. The
 * final registers are pinned with REGS (rv.h). */
#include "rv.h"

const unsigned char tbl[9] = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x00 };
unsigned int x = 0x1234, y = 0x1233, mask = 0x0180, t = 0x0100;

static unsigned char parity(unsigned int v)
{
    unsigned char p = 0;
    for (; v; v >>= 1) p ^= v & 1;
    return p;
}

int main(void)
{
    unsigned char i = 0, sum = 0, e;
    while ((e = tbl[i]) != 0) {
        sum += e;
        i++;
    }
    __output(0x40, sum);
    unsigned char fail = 0;
    if (x != 0x1234) fail = 1;                  /* COMPARE/COMPARECY: equal */
    if (!(y < x)) fail = 1;                     /* COMPARE/COMPARECY: below */
    if (!(t & mask) || !parity(t & mask)) fail = 1; /* TEST/TESTCY: non-zero, odd parity */
    if (fail) {
        __output(0xFF, 0xEE);
        return 0;
    }
    unsigned char lo = 0x21 + i, s2 = y, s3 = y >> 8, s5 = t >> 8;
    REGS(e, 0, s2, s3, 0, s5, 0, 0, sum, 0, lo, 0, 0, 0, i, 0);
    FINISH(8);
    return 0;
}
