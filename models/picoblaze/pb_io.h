/* Ports and scratchpad (picoblaze-isa.md sections 2, 3 and 9). The port number of the indirect
 * forms is sY; the scratchpad address is masked to the scratchpad size (64 bytes on KCPSM3;
 * 64, 128 or 256 on KCPSM6), in both the direct and the indirect forms. */
#ifndef PB_IO_H
#define PB_IO_H

#include "pb_state.h"

BEHAVIOUR(INPUT_sX_pp, x, p)     { PB_CELLS; sX(x) = (uint8_t)INPUT(p); }
BEHAVIOUR(INPUT_sX_at_sY, x, y)  { PB_CELLS; sX(x) = (uint8_t)INPUT(sX(y)); }
BEHAVIOUR(OUTPUT_sX_pp, x, p)    { PB_CELLS; OUTPUT(p, sX(x)); }
BEHAVIOUR(OUTPUT_sX_at_sY, x, y) { PB_CELLS; OUTPUT(sX(y), sX(x)); }

BEHAVIOUR(FETCH_sX_ss, x, s)     { PB_CELLS; sX(x) = CELLS(SPM)[(unsigned)s & S->spm_mask]; }
BEHAVIOUR(FETCH_sX_at_sY, x, y)  { PB_CELLS; sX(x) = CELLS(SPM)[sX(y) & S->spm_mask]; }
BEHAVIOUR(STORE_sX_ss, x, s)     { PB_CELLS; CELLS(SPM)[(unsigned)s & S->spm_mask] = sX(x); }
BEHAVIOUR(STORE_sX_at_sY, x, y)  { PB_CELLS; CELLS(SPM)[sX(y) & S->spm_mask] = sX(x); }

#endif
