// out[i] = a[i] + b[i] (u32) as a MultiVertex: worker w takes elements w, w + 6, w + 12, ...
// State: a (one_ptr), b (one_ptr), out (span: pointer, then the element count).
//   isekit run ipu vector_add.S --state vector_add.toml
#include "poplar/TileConstants.hpp"

    .section .text.__runCodelet_VectorAdd, "ax"
    .globl __runCodelet_VectorAdd
    .type __runCodelet_VectorAdd, @function
    .align 8
__runCodelet_VectorAdd:
    get $m0, $WSR
    and $m0, $m0, CSR_W_WSR__CTXTID_M1__MASK     // this worker's id, the first element
    ld32 $m1, $mvertex_base, $mzero, 0           // a
    ld32 $m2, $mvertex_base, $mzero, 1           // b
    ld32 $m3, $mvertex_base, $mzero, 2           // out
    ld32 $m4, $mvertex_base, $mzero, 3           // n
    shl $m6, $m0, 2                              // the element's byte offset
.Lloop:
    cmpult $m5, $m0, $m4
    brz $m5, .Ldone
    ld32 $m7, $m1, $m6, 0
    ld32 $m8, $m2, $m6, 0
    add $m7, $m7, $m8
    st32 $m7, $m3, $m6, 0
    add $m6, $m6, 24
    add $m0, $m0, 6
    bri .Lloop
.Ldone:
    exitz $mzero
    .size __runCodelet_VectorAdd, . - __runCodelet_VectorAdd
