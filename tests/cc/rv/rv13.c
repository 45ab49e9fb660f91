/* rv13_pb6_stack_reset.psm in C (KCPSM6 only): 31 nested CALLs overflow the stack and reset the
 * core to 000; the registers survive, and sF counts the boots. isekit cc rejects recursion and
 * call nesting deeper than the stack, so the nesting is __asm (the original's routine); the
 * start-up's CALL of main is the first of the 31 levels, so main counts itself in sD as the
 * routine does on each entry. The program has no globals, so the start-up touches no register
 * before main. Registers are read first (__getreg) and pinned last (REGS, rv.h). */
#include "rv.h"

int main(void)
{
    unsigned char s1 = __getreg(1), sD = __getreg(13), boot = __getreg(15);
    boot++;
    if (boot == 2) {
        __output(0x41, sD);
        REGS(0, s1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, sD, 0, boot);
        FINISH(F);
        return 0;
    }
    __setreg(13, sD + 1);       /* main's own entry */
    __setreg(15, boot);
    __setreg(1, 0x1E);          /* main's own level taken from 1F */
    __asm("            CALL rv13_deep\n"
          "            OUTPUT s1, 42               ; never reached\n"
          "rv13_deep:  ADD sD, 01\n"
          "            SUB s1, 01\n"
          "            RETURN Z\n"
          "            CALL rv13_deep\n"
          "            RETURN");
    return 0;
}
