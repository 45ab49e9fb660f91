/* isekit's own poplar/TileConstants.hpp for IPU assembly codelets (`isekit as -m ipu x.S`).
 * Written from the facts of the reference pack (architecture.md §3, §4, §12, §13), not from
 * Poplar's header: the names poplibs' .S files use, with the values the pack gives and cites.
 * __IPU_ARCH_VERSION__ (1 ipu1, 2 ipu2, 21 ipu21; popc defines it) picks the chip; 2 when unset. */
#ifndef ISEKIT_POPLAR_TILECONSTANTS_HPP
#define ISEKIT_POPLAR_TILECONSTANTS_HPP

#include "poplar/isekit_ipu.h"

/* Contexts: six workers and the supervisor. */
#define CTXT_WORKERS 6
#define CTXT_TOTAL 7
#define NUM_WORKERS CTXT_WORKERS

/* $WSR (worker status, lower CSR 1). */
#define CSR_W_WSR__INDEX 1
#define CSR_W_WSR__CTXTID_M1__SHIFT 0
#define CSR_W_WSR__CTXTID_M1__MASK 7
#define CSR_W_WSR__ETYPE__SHIFT 4
#define CSR_W_WSR__ETYPE__MASK 0xF
#define CSR_W_WSR__ERPT__SHIFT 9
#define CSR_W_WSR__ERPT__MASK 1

/* Repeat count: 12 bits on ipu1, 16 from ipu2 on. */
#define CSR_W_REPEAT_COUNT__INDEX 4
#if ISEKIT_IPU_ARCH == 1
#define CSR_W_REPEAT_COUNT__VALUE__MASK 0xFFF
#else
#define CSR_W_REPEAT_COUNT__VALUE__MASK 0xFFFF
#endif

/* Upper-space worker CSRs (index 0x100 + the uget/uput immediate). */
#define CSR_W_FP_STS__INDEX 0x100
#define CSR_W_FP_CLR__INDEX 0x101
#define CSR_W_FP_CLR__ZAACC__SHIFT 3
#define CSR_W_FP_CLR__ZAACC__MASK 1
#define CSR_W_FP_CTL__INDEX 0x102
#define CSR_W_FP_CTL__INV__SHIFT 0
#define CSR_W_FP_CTL__INV__MASK 1
#define CSR_W_FP_CTL__DIV0__SHIFT 1
#define CSR_W_FP_CTL__DIV0__MASK 1
#define CSR_W_FP_CTL__OFLO__SHIFT 2
#define CSR_W_FP_CTL__OFLO__MASK 1
#define CSR_W_FP_CTL__RND__SHIFT 16
#define CSR_W_FP_CTL__RND__MASK 7
#define CSR_W_FP_CTL__ESR__SHIFT 19
#define CSR_W_FP_CTL__ESR__MASK 1
#define CSR_W_FP_CTL__NANOO__SHIFT 20
#define CSR_W_FP_CTL__NANOO__MASK 1
#define CSR_W_TAS__INDEX 0x108

/* Supervisor CSRs. */
#define CSR_S_FP_ICTL__INDEX 0x20
#define CSR_S_FP_ICTL__INV__SHIFT 0
#define CSR_S_FP_ICTL__INV__MASK 1
#define CSR_S_FP_ICTL__DIV0__SHIFT 1
#define CSR_S_FP_ICTL__DIV0__MASK 1
#define CSR_S_FP_ICTL__OFLO__SHIFT 2
#define CSR_S_FP_ICTL__OFLO__MASK 1
#define CSR_S_FP_ICTL__RND__SHIFT 16
#define CSR_S_FP_ICTL__RND__MASK 7
#define CSR_S_FP_ICTL__ESR__SHIFT 19
#define CSR_S_FP_ICTL__ESR__MASK 1
#define CSR_S_FP_ICTL__NANOO__SHIFT 20
#define CSR_S_FP_ICTL__NANOO__MASK 1
#define CSR_S_CCCSLOAD__INDEX 0x50
#define CSR_S_CTXT_STS__INDEX 0x72

/* Sync zones (sync's 4-bit operand). */
#define TEXCH_SYNCZONE_RECV 0
#define TEXCH_SYNCZONE_ANS 1
#define TEXCH_SYNCZONE_LOCAL 2
#define TEXCH_SYNCZONE_INTERNAL 3

/* Tile memory: region 0 starts at the bottom of the populated memory. */
#if ISEKIT_IPU_ARCH == 1
#define TMEM_REGION0_BASE_ADDR 0x40000
#else
#define TMEM_REGION0_BASE_ADDR 0x4C000
#endif
#define TMEM_ELEMSIZE 0x4000
#define TMEM_BYTE_MAX_ADDRESS_WIDTH 21
#define TMEM_FULL_ADDRESS_MASK 0x1FFFFF

#endif
