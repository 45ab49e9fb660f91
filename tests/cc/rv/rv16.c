/* rv16_fib16.psm in C: 16-bit Fibonacci until a sum overflows 16 bits (the carry, a flag in the
 * original, is the 32-bit sum's third byte); the count of terms ends in sC. The final registers
 * are pinned with REGS (rv.h). */
#include "rv.h"

int main(void)
{
    unsigned int a = 1, b = 1, last;
    unsigned char n = 2;
    for (;;) {
        last = b;
        unsigned long s = (unsigned long)a + b;
        b = s;
        if (s >> 16) break;
        a = last;
        n++;
    }
    unsigned char a0 = a, a1 = a >> 8, b0 = b, b1 = b >> 8, l0 = last, l1 = last >> 8;
    __output(0x80, l1);
    __output(0x81, l0);
    REGS(a0, a1, b0, b1, l0, l1, 0, 0, 0, 0, 0, 0, n, 0, 0, 0);
    FINISH(C);
    return 0;
}
