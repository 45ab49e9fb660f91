/* Ports and scratchpad (picoblaze-isa.md sections 2, 3 and 9). The port number of the indirect
 * forms is sY; the scratchpad address is masked to the scratchpad size (64 bytes on KCPSM3;
 * 64, 128 or 256 on KCPSM6), in both the direct and the indirect forms. */
#ifndef PB_IO_H
#define PB_IO_H

#include "pb_state.h"

BEHAVIOUR(INPUT_sX_pp, x, p)     { PB_BEGIN; sX(x) = (uint8_t)INPUT(p); PB_END; }
BEHAVIOUR(INPUT_sX_at_sY, x, y)  { PB_BEGIN; sX(x) = (uint8_t)INPUT(sX(y)); PB_END; }
BEHAVIOUR(OUTPUT_sX_pp, x, p)    { PB_BEGIN; OUTPUT(p, sX(x)); PB_END; }
BEHAVIOUR(OUTPUT_sX_at_sY, x, y) { PB_BEGIN; OUTPUT(sX(y), sX(x)); PB_END; }

BEHAVIOUR(FETCH_sX_ss, x, s)     { PB_BEGIN; sX(x) = CELLS(SPM)[(unsigned)s & S->spm_mask]; PB_END; }
BEHAVIOUR(FETCH_sX_at_sY, x, y)  { PB_BEGIN; sX(x) = CELLS(SPM)[sX(y) & S->spm_mask]; PB_END; }
BEHAVIOUR(STORE_sX_ss, x, s)     { PB_BEGIN; CELLS(SPM)[(unsigned)s & S->spm_mask] = sX(x); PB_END; }
BEHAVIOUR(STORE_sX_at_sY, x, y)  { PB_BEGIN; CELLS(SPM)[sX(y) & S->spm_mask] = sX(x); PB_END; }

#endif
