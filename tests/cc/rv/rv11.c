/* rv11_pb6_banks.psm in C (KCPSM6 only): register banks and HWBUILD are not C's, so __asm does
 * them: STAR copies bank A's s0 into bank B's registers (the values computed in C and pinned in s0
 * with __setreg), HWBUILD reads the core's hwbuild generic (41 in the bench). The sums of the
 * original are computed in C; the final registers of bank A are pinned with REGS (rv.h). */
#include "rv.h"

unsigned char a0 = 0x11, a1 = 0x22;

int main(void)
{
    unsigned char b0 = a1, b2 = 0x33;   /* STAR s0, s1 and STAR s2, 33 */
    b0 += b2;                           /* bank B's ADD s0, s2: 55 */
    unsigned char a5 = b0;              /* STAR s5, s0 */
    unsigned char b1 = 0x99;
    a5 += a0;                           /* 66 */
    __asm("HWBUILD s0");
    unsigned char hw = __getreg(0);
    __output(0x30, a5);
    __setreg(0, b2);
    __asm("STAR s2, s0");
    __setreg(0, b1);
    __asm("STAR s1, s0");
    __setreg(0, b0);
    __asm("STAR s0, s0");
    REGS(a0, a1, 0, 0, 0, a5, hw, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    FINISH(6);
    return 0;
}
