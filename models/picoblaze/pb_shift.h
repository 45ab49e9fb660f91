/* Shifts and rotates (picoblaze-isa.md section 2): the bit shifted out goes to C, Z = (r == 0).
 * SL1 and SR1 shift a 1 in, so their Z is always 0. Same semantics on both cores; the selector
 * values in w[3:0] are the same too, only the opcode differs. */
#ifndef PB_SHIFT_H
#define PB_SHIFT_H

#include "pb_state.h"

static inline void pb_shift_result(STATE, unsigned x, unsigned r, unsigned carry_out)
{
    PB_CELLS;
    r &= 0xFFu;
    sX(x) = (uint8_t)r;
    CARRY = (uint8_t)carry_out;
    ZERO = r == 0;
}

#define PB_SHIFT_LEFT(NAME, fill) \
    BEHAVIOUR(NAME##_sX, x) { PB_CELLS; unsigned v = sX(x); pb_shift_result(S, (unsigned)x, v << 1 | (fill), v >> 7); }
#define PB_SHIFT_RIGHT(NAME, fill) \
    BEHAVIOUR(NAME##_sX, x) { PB_CELLS; unsigned v = sX(x); pb_shift_result(S, (unsigned)x, (fill) << 7 | v >> 1, v & 1u); }

PB_SHIFT_LEFT(SLA, CARRY)          /* C in */
PB_SHIFT_LEFT(RL, v >> 7)          /* rotate */
PB_SHIFT_LEFT(SLX, v & 1u)         /* bit 0 repeated */
PB_SHIFT_LEFT(SL0, 0u)
PB_SHIFT_LEFT(SL1, 1u)
PB_SHIFT_RIGHT(SRA, (unsigned)CARRY)
PB_SHIFT_RIGHT(SRX, v >> 7)        /* bit 7 repeated (arithmetic shift) */
PB_SHIFT_RIGHT(RR, v & 1u)
PB_SHIFT_RIGHT(SR0, 0u)
PB_SHIFT_RIGHT(SR1, 1u)

#endif
