/* rv05_scratchpad.psm in C: an array over the 64-byte scratchpad filled with i ^ A5, read back
 * directly and through an index, and an index past the end wrapped to the 64-byte space (the
 * hardware's address wrap, which C writes as the mask & 0x3F). The C version's own frame needs
 * room beside the 64 bytes, so it runs on KCPSM6 only, compiled with --scratchpad 128. The final
 * registers are pinned with REGS (rv.h). */
#include "rv.h"

unsigned char spm[64];

int main(void)
{
    unsigned char i = 0;
    do {
        spm[i] = i ^ 0xA5;
        i++;
    } while (i != 0x40);
    unsigned char first = spm[0x00], top = spm[0x3F];
    unsigned char addr = 0x45;              /* 0x45 & 0x3F = 0x05 */
    unsigned char old = spm[addr & 0x3F];   /* A0 */
    unsigned char v = 0x77;
    spm[addr & 0x3F] = v;
    unsigned char back = spm[0x05];         /* 77 */
    unsigned char sum = 0, last = 0;
    for (i = 0; i != 0x40; i++) {
        last = spm[i];
        sum += last;
    }
    __output(0x50, first);
    __output(0x51, top);
    __output(0x52, old);
    __output(0x53, back);
    REGS(i, last, first, top, addr, old, v, back, sum, 0, 0, 0, 0, 0, 0, 0);
    FINISH(8);
    return 0;
}
