/* Ports and scratchpad (picoblaze-isa.md sections 2, 3 and 9). The port number of the indirect
 * forms is sY; the scratchpad address is masked to the scratchpad size (64 bytes on KCPSM3;
 * 64, 128 or 256 on KCPSM6), in both the direct and the indirect forms. */
#ifndef PB_IO_H
#define PB_IO_H

#include "pb_state.h"

BEHAVIOUR(INPUT_sX_pp, x, p)     { const pb_cells r = pb_cells_of(S); r.bank[x] = (uint8_t)INPUT(p); }
BEHAVIOUR(INPUT_sX_at_sY, x, y)  { const pb_cells r = pb_cells_of(S); r.bank[x] = (uint8_t)INPUT(r.bank[y]); }
BEHAVIOUR(OUTPUT_sX_pp, x, p)    { const pb_cells r = pb_cells_of(S); OUTPUT(p, r.bank[x]); }
BEHAVIOUR(OUTPUT_sX_at_sY, x, y) { const pb_cells r = pb_cells_of(S); OUTPUT(r.bank[y], r.bank[x]); }

/* FETCH reads the scratchpad raw (the mask is its bounds check). While reads are watched
 * (the trap word), it leaves the address for pb_after_instruction, which makes the NOTE_READ
 * call: a high NEXT_PC bit sends the frame's one test there (pb_after). A call here would make
 * every FETCH save and restore two registers around it (+10 host instructions). */
ISK_INLINE void pb_fetch(STATE, pb_cells r, unsigned x, unsigned at)
{
    r.bank[x] = CELLS(SPM)[at];
    if (ISK_UNLIKELY(S->isk.trap)) {
        S->fetched = at + 1;
        NEXT_PC |= 1u << PB_PC_BITS;
    }
}
PB_BEHAVIOUR(FETCH_sX_ss, x, s)     { pb_fetch(S, r, (unsigned)x, (unsigned)s & S->spm_mask); }
PB_BEHAVIOUR(FETCH_sX_at_sY, x, y)  { pb_fetch(S, r, (unsigned)x, r.bank[y] & S->spm_mask); }
PB_BEHAVIOUR(STORE_sX_ss, x, s)     { CELLS(SPM)[(unsigned)s & S->spm_mask] = r.bank[x]; }
PB_BEHAVIOUR(STORE_sX_at_sY, x, y)  { CELLS(SPM)[r.bank[y] & S->spm_mask] = r.bank[x]; }

#endif
