/* isekit's own poplar/AvailableVTypes.h: which compact vertex-field layouts (architecture.md
 * §11) the target has. Which targets define which flag is not public (the pack's unknown 1);
 * this is isekit's choice, from what each layout can reach: a 16-bit scaled pointer reaches
 * 0x80000 (x8) or region 0 + 256 KiB (x4), which covers ipu1's 256 KiB and not ipu2's 624 KiB,
 * so the compact layouts are on for ipu1 only. Define ISEKIT_VTYPES_COMPACT (or _FULL) to
 * choose for yourself: the vertex state you lay out must match. */
#ifndef ISEKIT_POPLAR_AVAILABLEVTYPES_H
#define ISEKIT_POPLAR_AVAILABLEVTYPES_H

#include "poplar/isekit_ipu.h"

#if defined(ISEKIT_VTYPES_COMPACT) || (ISEKIT_IPU_ARCH == 1 && !defined(ISEKIT_VTYPES_FULL))
#define VECTOR_AVAIL_SCALED_PTR32
#define VECTOR_AVAIL_SCALED_PTR64
#define VECTOR_AVAIL_SHORT_SPAN
#define VECTORLIST_AVAIL_DELTAN
#endif

#endif
