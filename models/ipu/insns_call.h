/* call (architecture.md 8.1): $mLink <- the address of the next instruction (after the bundle
 * when bundled: a group's NEXT_PC is already past its last word), then jump to the absolute
 * byte address whose >> 2 the 20-bit field holds. The pack calls bit 19's effect unknown (label
 * fixups fill bits 18:0): we take all 20 bits, so a set bit 19 names an address above the 21-bit
 * tile space and raises INVALID_ADDR like any unpopulated one. The table has no register form. */
#ifndef ISEKIT_MODEL_IPU_INSNS_CALL_H
#define ISEKIT_MODEL_IPU_INSNS_CALL_H

#include "insns.h"

BEHAVIOUR(call_mmmn_zi, Link, Target)
{
    if (ipu_in_rpt(S, "call")) return;
    const int64_t pc = ipu_code(S, (uint32_t)Target * 4, "call");
    if (pc < 0) return;
    ipu_set_m(S, Link, IPU_TMEM_BASE + (uint32_t)NEXT_PC * 4);
    JUMP(pc);
}

#endif
