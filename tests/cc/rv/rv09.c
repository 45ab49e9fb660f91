/* rv09_io_loopback.psm in C: __output and __input with a variable port (through (s8)) on the
 * bench's loop-back ports 00-0F, and constant ports 80 (5C in the bench) and 81 (00). The final
 * registers are pinned with REGS (rv.h). */
#include "rv.h"

int main(void)
{
    unsigned char port = 0, v = 0x10;
    do
        __output(port, v++);
    while (++port != 0x10);
    unsigned char sum = 0, in = 0;
    for (port = 0; port != 0x10; port++) {
        in = __input(port);
        sum += in;
    }
    unsigned char p80 = __input(0x80), p81 = __input(0x81);
    __output(0x20, sum);
    __output(0x21, p80);
    REGS(port, v, sum, in, p80, p81, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    FINISH(5);
    return 0;
}
