// A worker vertex written for isekit's tests in poplibs' style: Poplar's headers (isekit's own,
// models/ipu/include), the stack declaration, the section flag token, CSR names, ldconst, a
// register pair spelled by a continued macro and the workers' stride. Not a poplibs file.
#include "poplar/TileConstants.hpp"
#include "poplar/AvailableVTypes.h"
#include "poplar/StackSizeDefs.hpp"

#define VERTEX_NAME __runCodelet_isekit_test__AddConstant
#define PAIR a0: \
  1
#define mIn m0
#define mOut m1
#define mCount m2

.extern someOtherSymbol
DEF_STACK_USAGE 0 VERTEX_NAME

.section .text.VERTEX_NAME, FUNCTION_IS_WORKER
.globl VERTEX_NAME
.type VERTEX_NAME, @function
.align 8
.worker
VERTEX_NAME:
  get $m3, $WSR
  and $m3, $m3, CSR_W_WSR__CTXTID_M1__MASK
  ld32 $mIn, $mvertex_base, $mzero, 0
  ld32 $mOut, $mvertex_base, $mzero, 1
  ldconst $m4, 0x12345678
  ldconst $m5, TMEM_REGION0_BASE_ADDR
  setzi $m6, CTXT_WORKERS * NUM_WORKERS
  ld64step $PAIR, $mzero, $mIn+=, CTXT_WORKERS
  uput $FP_CLR, $azero
  exitz $mzero
.size VERTEX_NAME, . - VERTEX_NAME

ISEKIT_STACK_CHECK VERTEX_NAME
