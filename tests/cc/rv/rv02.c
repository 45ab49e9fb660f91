/* rv02_zchain_loop.psm in C: a 16-bit down-counter loop (0102 steps). The .psm original ends its
 * loop on SUBCY's Z flag, which KCPSM6 chains over both bytes and KCPSM3 takes from the high byte
 * alone; C has no flags, so the KCPSM3 version tests what that core's flag sees (n >> 8). */
#include "rv.h"

unsigned int n = 0x0102;

int main(void)
{
    unsigned int count = 0;
    do {
        count++;
        n--;
#if __PICOBLAZE__ == 3
    } while (n >> 8);
#else
    } while (n);
#endif
    unsigned char r0 = n, r1 = n >> 8, r2 = count, r3 = count >> 8;
    __output(0x20, r2);
    __output(0x21, r3);
    __output(0x22, r0);
    REGS(r0, r1, r2, r3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    FINISH(1);
    return 0;
}
