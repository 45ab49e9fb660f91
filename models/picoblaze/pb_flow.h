/* Program flow and interrupt control (picoblaze-isa.md sections 2, 3, 5 and 7).
 *
 * Conditions are tested on the flags before the instruction: 0 = Z, 1 = NZ, 2 = C, 3 = NC.
 * CALL pushes its own address and RETURN continues at the popped address + 1; the interrupt
 * response pushes the address of the instruction it abandons and RETURNI continues there (+0),
 * restoring C and Z (KCPSM3: from the shadow register; KCPSM6: from the stack entry, with the
 * bank). A RETURN whose condition fails leaves the stack alone. */
#ifndef PB_FLOW_H
#define PB_FLOW_H

#include "pb_stack.h"

static inline unsigned pb_condition(const uint8_t *control, int64_t c)
{
    unsigned flag = (c & 2) ? control[PB_C] : control[PB_Z];
    return flag ^ (unsigned)(c & 1);
}

static inline void pb_call(STATE, uint64_t target)
{
    pb_push(S, PC);
    JUMP(target);
}

static inline void pb_return(STATE)
{
    JUMP((pb_pop(S) + 1u) & PB_PC_MASK);
}

PB_BEHAVIOUR(JUMP_aaa, a)          { JUMP(a); }
PB_BEHAVIOUR(JUMP_cc_aaa, c, a)    { if (pb_condition(r.control, c)) JUMP(a); }
BEHAVIOUR(CALL_aaa, a)             { pb_call(S, (uint64_t)a); }
BEHAVIOUR(CALL_cc_aaa, c, a)       { if (pb_condition(CELLS(CONTROL), c)) pb_call(S, (uint64_t)a); }
BEHAVIOUR(RETURN)                  { pb_return(S); }
BEHAVIOUR(RETURN_cc, c)            { if (pb_condition(CELLS(CONTROL), c)) pb_return(S); }

BEHAVIOUR(RETURNI, e)
{
    uint8_t *const control = CELLS(CONTROL);
    unsigned entry = pb_pop(S);
    JUMP(entry & PB_PC_MASK);
    if (PB_SHADOW_FLAGS) {
        unsigned shadow = control[PB_SHADOW];
        control[PB_C] = shadow & 1u;
        control[PB_Z] = shadow >> 1 & 1u;
    } else {
        control[PB_C] = entry >> 12 & 1u;
        control[PB_Z] = entry >> 13 & 1u;
        control[PB_BANK] = entry >> 14 & 1u;
    }
    control[PB_IE] = (uint8_t)e;
}
BEHAVIOUR(ENABLE_INTERRUPT)        { CELLS(CONTROL)[PB_IE] = 1; }
BEHAVIOUR(DISABLE_INTERRUPT)       { CELLS(CONTROL)[PB_IE] = 0; }

#endif
