/* Shifts and rotates (picoblaze-isa.md section 2): the bit shifted out goes to C, Z = (r == 0).
 * SL1 and SR1 shift a 1 in, so their Z is always 0. Same semantics on both cores; the selector
 * values in w[3:0] are the same too, only the opcode differs. */
#ifndef PB_SHIFT_H
#define PB_SHIFT_H

#include "pb_state.h"

static inline void pb_shift_result(pb_cells r, unsigned x, unsigned v, unsigned carry_out)
{
    v &= 0xFFu;
    r.bank[x] = (uint8_t)v;
    r.control[PB_C] = (uint8_t)carry_out;
    r.control[PB_Z] = v == 0;
}

/* sX << 1 | fill, C = bit 7 out; and fill << 7 | sX >> 1, C = bit 0 out. */
static inline void pb_shift_left(pb_cells r, unsigned x, unsigned fill)
{
    unsigned v = r.bank[x];
    pb_shift_result(r, x, v << 1 | fill, v >> 7);
}
static inline void pb_shift_right(pb_cells r, unsigned x, unsigned fill)
{
    unsigned v = r.bank[x];
    pb_shift_result(r, x, fill << 7 | v >> 1, v & 1u);
}

PB_BEHAVIOUR(SLA_sX, x) { pb_shift_left(r, (unsigned)x, r.control[PB_C]); }  /* C in */
PB_BEHAVIOUR(RL_sX, x) { pb_shift_left(r, (unsigned)x, r.bank[x] >> 7u); }        /* rotate */
PB_BEHAVIOUR(SLX_sX, x) { pb_shift_left(r, (unsigned)x, r.bank[x] & 1u); }         /* bit 0 repeated */
PB_BEHAVIOUR(SL0_sX, x) { pb_shift_left(r, (unsigned)x, 0u); }
PB_BEHAVIOUR(SL1_sX, x) { pb_shift_left(r, (unsigned)x, 1u); }
PB_BEHAVIOUR(SRA_sX, x) { pb_shift_right(r, (unsigned)x, r.control[PB_C]); }  /* C in */
PB_BEHAVIOUR(SRX_sX, x) { pb_shift_right(r, (unsigned)x, r.bank[x] >> 7u); }        /* bit 7 repeated (arithmetic shift) */
PB_BEHAVIOUR(RR_sX, x) { pb_shift_right(r, (unsigned)x, r.bank[x] & 1u); }         /* rotate */
PB_BEHAVIOUR(SR0_sX, x) { pb_shift_right(r, (unsigned)x, 0u); }
PB_BEHAVIOUR(SR1_sX, x) { pb_shift_right(r, (unsigned)x, 1u); }

#endif
