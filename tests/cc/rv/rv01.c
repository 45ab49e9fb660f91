/* rv01_arith16.psm in C: 16-bit add and subtract with the carry between bytes, and a carry into a
 * third byte (unsigned long). The final registers are pinned with REGS (rv.h). */
#include "rv.h"

unsigned int x = 0x1234, y = 0xEDCC, z = 0x8000;
unsigned long w = 0xFFFF;
unsigned char one = 1;

int main(void)
{
    unsigned int sum = x + y; /* wraps to 0000 */
    __output(0x10, sum);
    __output(0x11, sum >> 8);
    unsigned int dif = z - 1; /* the borrow crosses the bytes: 7FFF */
    __output(0x12, dif);
    __output(0x13, dif >> 8);
    unsigned long inc = w + 1; /* the carry reaches the third byte */
    __output(0x14, inc);
    __output(0x15, inc >> 8);
    __output(0x16, inc >> 16);
    unsigned char s7 = one + 0;
    unsigned char carry = s7 < one; /* adding zero carries nothing */
    unsigned char r0 = sum, r1 = sum >> 8, r2 = dif, r3 = dif >> 8;
    unsigned char r4 = inc, r5 = inc >> 8, r6 = inc >> 16;
    REGS(r0, r1, r2, r3, r4, r5, r6, s7, carry, 0, 0, 0, 0, 0, 0, 0);
    FINISH(8);
    return 0;
}
