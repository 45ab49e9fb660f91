/* rv07_div16.psm in C: 16/8 restoring division, 0xBEEF / 0x13 = 0x0A0C remainder 0x0B. The
 * carry out of the remainder's shift, a flag in the original, is a variable. The final registers
 * are pinned with REGS (rv.h). */
#include "rv.h"

unsigned int dividend = 0xBEEF;
unsigned char divisor = 0x13;

int main(void)
{
    unsigned int q = dividend;
    unsigned char rem = 0, n = 16;
    do {
        unsigned char carry = rem >> 7;
        rem = rem << 1 | q >> 15;
        q <<= 1;
        if (carry || rem >= divisor) {  /* an overflowed remainder always subtracts */
            rem -= divisor;
            q |= 1;
        }
    } while (--n);
    unsigned char q0 = q, q1 = q >> 8, d = divisor;
    __output(0x60, q1);
    __output(0x61, q0);
    REGS(q0, q1, rem, d, n, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    FINISH(2);
    return 0;
}
