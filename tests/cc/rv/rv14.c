/* rv14_pb3_stack_wrap.psm in C (KCPSM3 only): 32 nested CALLs wrap the 32-entry cyclic stack and
 * the 32nd RETURN lands after the deepest RETURN (fin). isekit cc rejects recursion and call
 * nesting deeper than the stack, so the nesting is __asm (the original's routine, with the
 * original's 32 levels). The start-up's CALL of main takes one more slot of the ring, which the
 * 32nd CALL overwrites as it does the original's outermost, so the wrapped RETURN lands after the
 * deepest RETURN, in main's C code after the __asm. Registers are read first (__getreg) and
 * pinned last (REGS, rv.h). */
#include "rv.h"

int main(void)
{
    __setreg(1, 0x20);          /* 32 levels */
    __asm("            CALL rv14_deep\n"
          "            OUTPUT s1, 42               ; never reached on KCPSM3\n"
          "            OUTPUT s1, FF\n"
          "rv14_deep:  ADD sD, 01\n"
          "            SUB s1, 01\n"
          "            JUMP Z, rv14_leaf\n"
          "            CALL rv14_deep\n"
          "            RETURN\n"
          "rv14_leaf:  ADD sE, 01\n"
          "            COMPARE sE, 03\n"
          "            JUMP Z, rv14_fin\n"
          "            RETURN\n"
          "rv14_fin:");
    unsigned char s1 = __getreg(1), sD = __getreg(13), sE = __getreg(14);
    __output(0x41, sD);
    REGS(0, s1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, sD, sE, 0);
    FINISH(E);
    return 0;
}
