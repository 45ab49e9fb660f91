/* rv03_logic_parity.psm in C: AND, OR, XOR, and the parity that TEST puts in the carry computed
 * in C (the flag itself is not C's). Port FF gets 00 when every check holds, 01 otherwise. */
#include "rv.h"

unsigned char v = 0x3D, f0 = 0xF0;

static unsigned char parity(unsigned char x)
{
    unsigned char p = 0;
    while (x) {
        p ^= x & 1;
        x >>= 1;
    }
    return p;
}

int main(void)
{
    unsigned char fail = 0;
    if (!parity(v & 0xFF)) fail = 1;                   /* 3D has five ones */
    if ((v & 0x04) == 0 || !parity(v & 0x04)) fail = 1;
    if ((v & 0xC2) != 0 || parity(v & 0xC2)) fail = 1;
    unsigned char s1 = (unsigned char)(f0 - 0xF1) & 0x0F; /* the borrow's FF, masked */
    __output(0x30, s1);
    s1 |= 0xF0;
    __output(0x31, s1);
    s1 ^= 0x5A;
    __output(0x32, s1);
    unsigned char s2 = s1 ^ s1;
    if (s2) fail = 1;
    if (parity(s1 & 0x81)) fail = 1;                   /* A5 & 81 = 81: even */
    REGS(v, s1, s2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, fail);
    FINISH(F);
    return 0;
}
