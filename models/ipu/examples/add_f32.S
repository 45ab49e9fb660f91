// out[i] = a[i] + b[i] (f32, rounded to nearest even) as a Vertex on one worker, two elements a
// bundle: 64-bit loads into ARF pairs, f32v2add, a 64-bit store. n must be even and the three
// tensors 8-byte aligned (misaligned ones raise the alignment exception: add_f32_misaligned.toml).
//   isekit run ipu add_f32.S --state add_f32.toml
#include "poplar/TileConstants.hpp"

    .section .text.__runCodelet_AddF32, "ax"
    .globl __runCodelet_AddF32
    .type __runCodelet_AddF32, @function
    .align 8
__runCodelet_AddF32:
    ld32 $m0, $mvertex_base, $mzero, 0           // a
    ld32 $m1, $mvertex_base, $mzero, 1           // b
    ld32 $m2, $mvertex_base, $mzero, 2           // out (span: pointer, count)
    ld32 $m3, $mvertex_base, $mzero, 3
    shr $m3, $m3, 1                              // pairs
    setzi $m4, 0
    setzi $m5, 0
    setzi $m6, 0
.Lloop:
    ld64step $a0:1, $m0, $m4+=, 1
    ld64step $a2:3, $m1, $m5+=, 1
    f32v2add $a0:1, $a0:1, $a2:3
    st64step $a0:1, $m2, $m6+=, 1
    add $m3, $m3, -1
    brnz $m3, .Lloop
    exitz $mzero
    .size __runCodelet_AddF32, . - __runCodelet_AddF32
