/* isekit's own poplar/StackSizeDefs.hpp: the stack declarations of architecture.md §11.1 as
 * assembler macros.
 *   DEF_STACK_USAGE size, func      the total stack of func, callees included
 *   DEF_STACK_SIZE_OWN size, func   func's own stack; each callee declares its own
 * (arguments may also be separated by spaces, as poplibs writes them). Each defines the symbol
 * `__isekit_stack.func` (.equiv: a second declaration of func, of either kind, is an error at
 * its line) and records the declaration in the section `.isekit.stack` as the word `size`, the
 * word 0 (USAGE) or 1 (OWN) and func's name with a NUL, for the vertex runner and `isekit ld`.
 * ISEKIT_STACK_CHECK (below) makes a missing declaration an error. */
#ifndef ISEKIT_POPLAR_STACKSIZEDEFS_HPP
#define ISEKIT_POPLAR_STACKSIZEDEFS_HPP

#include "poplar/isekit_ipu.h"

#ifdef __ASSEMBLER__
.macro __isekit_def_stack kind:req, size:req, func:req
  .ifdef __isekit_stack.\func
    .error "second stack size declaration for \func (DEF_STACK_USAGE or DEF_STACK_SIZE_OWN): each function has exactly one"
  .endif
  .equiv __isekit_stack.\func, \size
  .pushsection .isekit.stack, "", @progbits
  .word \size
  .word \kind
  .asciz "\func"
  .popsection
.endm
.macro DEF_STACK_USAGE size:req, func:req
  __isekit_def_stack 0, \size, \func
.endm
.macro DEF_STACK_SIZE_OWN size:req, func:req
  __isekit_def_stack 1, \size, \func
.endm
/* ISEKIT_STACK_CHECK func: an error unless func has a stack declaration above (place it after
 * the declarations, e.g. at the end of the file, for every __runCodelet_ entry point). */
.macro ISEKIT_STACK_CHECK func:req
  .ifndef __isekit_stack.\func
    .error "no stack size declaration for \func: add DEF_STACK_USAGE size, \func (or DEF_STACK_SIZE_OWN), even for size 0"
  .endif
.endm
#endif

#endif
