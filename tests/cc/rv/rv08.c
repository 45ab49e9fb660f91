/* rv08_callsum.psm in C: the sum 1..30 = 0x01D1. The original recurses (30 nested CALLs); isekit
 * cc rejects recursion (static frames), so the C version sums in a loop: the same registers and
 * outputs, not the call depth (rv13/rv14 in C reach the stack's depth through __asm). The final
 * registers are pinned with REGS (rv.h). */
#include "rv.h"

unsigned char n = 0x1E;

int main(void)
{
    unsigned int sum = 0;
    unsigned char i = n;
    do
        sum += i;
    while (--i);
    unsigned char s0 = sum, s1 = sum >> 8;
    __output(0x70, s0);
    REGS(s0, s1, 0, 0, 0, 0, 0, 0, i, 0, 0, 0, 0, 0, 0, 0);
    FINISH(1);
    return 0;
}
