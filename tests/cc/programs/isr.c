/* An interrupt handler: it counts interrupts in a global; main enables interrupts and waits for
 * the count, then reports it. */
#include "out.h"

volatile unsigned char ticks;

__interrupt void tick(void)
{
    ticks++;
    __output(2, ticks);
}

int main(void)
{
    __enable_interrupt();
    while (ticks < 3) ;
    __disable_interrupt();
    OUT(ticks);
    DONE();
    return 0;
}
