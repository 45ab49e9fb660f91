/* The C versions of the run vectors (tests/picoblaze/programs/rvNN_*.psm; tests/cli/cc_rv.sh runs
 * them in the run vectors' bench). Their contract includes the final registers, which C does not
 * name: REGS pins s0..sF with isekit cc's __setreg, from sF down to s0, so each value is computed
 * (in s0) before the lower registers are loaded; its arguments must be plain byte variables or
 * constants, whose load touches s0 only. FINISH ends the run as the original does, by writing
 * the register the original writes to port FF. */
#ifndef RV_H
#define RV_H
#define REGS(r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, rA, rB, rC, rD, rE, rF) do { \
        __setreg(15, rF); __setreg(14, rE); __setreg(13, rD); __setreg(12, rC); \
        __setreg(11, rB); __setreg(10, rA); __setreg(9, r9); __setreg(8, r8); \
        __setreg(7, r7); __setreg(6, r6); __setreg(5, r5); __setreg(4, r4); \
        __setreg(3, r3); __setreg(2, r2); __setreg(1, r1); __setreg(0, r0); } while (0)
#define FINISH(reg) __asm("OUTPUT s" #reg ", FF")
#endif
