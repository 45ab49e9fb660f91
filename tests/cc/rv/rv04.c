/* rv04_shifts.psm in C: the ten shifts and rotates of one byte, and a carry carried through a
 * chain of shifts. C has no carry flag, so the bit each instruction shifts in (the carry of the
 * one before for SLA/SRA) is a variable. */
#include "rv.h"

unsigned char x = 0x96;

int main(void)
{
    unsigned char carry, r;
    __output(0x40, x << 1);               /* SL0 */
    __output(0x41, x << 1 | 1);           /* SL1 */
    __output(0x42, x << 1 | (x & 1));     /* SLX */
    carry = x >> 7;
    __output(0x43, x << 1 | carry);       /* SLA, after SLX's carry */
    __output(0x44, x << 1 | x >> 7);      /* RL */
    __output(0x45, x >> 1);               /* SR0 */
    __output(0x46, x >> 1 | 0x80);        /* SR1 */
    __output(0x47, x >> 1 | (x & 0x80));  /* SRX */
    carry = x & 1;
    __output(0x48, x >> 1 | carry << 7);  /* SRA, after SRX's carry */
    r = x >> 1 | x << 7;                  /* RR */
    __output(0x49, r);
    unsigned char a = 0xC1, b = 0x80, c = 0x81, next;
    carry = a >> 7;
    a <<= 1;
    next = b >> 7;
    b = b << 1 | carry;
    carry = next;
    c = c << 1 | carry;
    __output(0x4A, a);
    __output(0x4B, b);
    __output(0x4C, c);
    unsigned char d = 1;
    d >>= 1;
    REGS(x, r, a, b, c, d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    FINISH(5);
    return 0;
}
