/* Included by isekit's poplar/ headers: what Graphcore's assembler knows natively and isekit's
 * IPU model does not (yet), as preprocessor and assembler definitions, so that unmodified
 * codelets assemble. From the facts of architecture.md §3, §11.1, §13. */
#ifndef ISEKIT_POPLAR_ISEKIT_IPU_H
#define ISEKIT_POPLAR_ISEKIT_IPU_H

/* The chip: popc defines __IPU_ARCH_VERSION__ (1, 2, 21); ipu2 when it is not given. */
#ifdef __IPU_ARCH_VERSION__
#define ISEKIT_IPU_ARCH __IPU_ARCH_VERSION__
#else
#define ISEKIT_IPU_ARCH 2
#endif

/* Section flags for worker code (the value of Poplar's token is not public: plain code). */
#define FUNCTION_IS_WORKER "ax"

#ifdef __ASSEMBLER__
/* The mode directives: isekit assembles worker and supervisor instructions in any section
 * (each class is in its context's instruction set), so they select nothing here. Graphcore's
 * other parser directives only relax checks isekit does not make. */
.macro .worker
.endm
.macro .supervisor
.endm
.macro .allow_optimizations
.endm
.macro .allow_invalid_repeat
.endm

/* CSR names as operands: Graphcore's assembler turns `$NAME` into the low 8 bits of the CSR's
 * index (`put $TAS, $m0` is `put 8, $m0`); the instruction picks the space. Not checked here:
 * a name used in the wrong context. */
.set $PC, 0x00
.set $WSR, 0x01
.set $VERTEX_BASE, 0x02
.set $WORKER_BASE, 0x03
.set $REPEAT_COUNT, 0x04
.set $REPEAT_FIRST, 0x05
.set $REPEAT_END, 0x06
.set $COUNT_L, 0x60
.set $COUNT_U, 0x61
.set $DBG_DATA, 0x70
.set $FP_STS, 0x00
.set $FP_CLR, 0x01
.set $FP_CTL, 0x02
.set $PRNG_0_0, 0x03
.set $PRNG_0_1, 0x04
.set $PRNG_1_0, 0x05
.set $PRNG_1_1, 0x06
.set $PRNG_SEED, 0x07
.set $TAS, 0x08
.set $SSR, 0x01
.set $CR, 0x02
.set $TILE_ID, 0x03
.set $FP_ICTL, 0x20
.set $WORKER0_BASE, 0x21
.set $WORKER1_BASE, 0x22
.set $WORKER2_BASE, 0x23
.set $WORKER3_BASE, 0x24
.set $WORKER4_BASE, 0x25
.set $WORKER5_BASE, 0x26
.set $CCCSLOAD, 0x50
.set $SCOUNT_L, 0x60
.set $SCOUNT_U, 0x61
.set $CTXT_STS, 0x72

/* ldconst $r, imm32: setzi with the low 20 bits, then `or` of the upper 12 when they are not
 * zero (§11.1). */
.macro ldconst reg:req, imm:req
  setzi \reg, (\imm) & 0xFFFFF
  .if ((\imm) & 0xFFF00000) != 0
    or \reg, \reg, (\imm) & 0xFFF00000
  .endif
.endm
#endif

#endif
