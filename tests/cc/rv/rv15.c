/* rv15_bin2dec.psm in C: FB and 07 as three ASCII decimal digits and a newline on the console
 * port FE, by repeated subtraction as the original does. The final registers (the last call's
 * digits) are kept in globals and pinned with REGS (rv.h). */
#include "rv.h"

unsigned char hundreds, tens, ones;

static void todec(unsigned char v)
{
    hundreds = '0';
    while (v >= 100) {
        v -= 100;
        hundreds++;
    }
    tens = '0';
    while (v >= 10) {
        v -= 10;
        tens++;
    }
    ones = '0' + v;
    __output(0xFE, hundreds);
    __output(0xFE, tens);
    __output(0xFE, ones);
    __output(0xFE, '\n');
}

int main(void)
{
    todec(0xFB);
    todec(0x07);
    unsigned char h = hundreds, t = tens, o = ones;
    REGS(o, h, t, '\n', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    FINISH(0);
    return 0;
}
