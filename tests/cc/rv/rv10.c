/* rv10_interrupt.psm in C: two interrupts, each requested by a write to port FC (the bench raises
 * the interrupt input until interrupt_ack), taken by a C __interrupt handler that counts them.
 * main waits for each count before the next request, then reports 02 as the original does. The
 * original's check that RETURNI restores the flags is not C's (the handler saves the registers it
 * uses; the flags are the hardware's). The final registers are pinned with REGS (rv.h). */
#include "rv.h"

volatile unsigned char count;

__interrupt void isr(void)
{
    count++;
}

int main(void)
{
    __enable_interrupt();
    unsigned char v = 0xFF;
    v++;                        /* 00 */
    __output(0xFC, v);          /* first request */
    while (count != 1) ;
    __output(0xFC, v);          /* second request */
    while (count != 2) ;
    unsigned char n = count;
    REGS(v, 0, 0, 0, 0, 0, 0, 0, 0, 0, n, 0, 0, 0, 0, 0);
    FINISH(A);
    return 0;
}
