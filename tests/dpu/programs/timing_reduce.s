// Timing kernel (docs/dpu-timing.md, compared with uPIMulator): sum of 16384 32-bit elements
// of MRAM, 256-byte blocks round the tasklets, each tasklet's sum in partial[id]. No runtime
// call, so that the same text runs unchanged under uPIMulator's assembler.

    .section .mram.noinit,"aw",@nobits
    .p2align 10
A:
    .zero 65536

    .section .bss,"aw",@nobits
    .p2align 3
buf_a:
    .zero 6144
partial:
    .zero 96

    .text
    .globl main
main:
    lsl r16, id, 8
    add r17, r16, buf_a
    move r14, id
    move r10, 0
.Lblock:
    jgeu r14, 256, .Ldone
    lsl r15, r14, 8
    add r0, r15, A
    ldma r17, r0, 31
    move r2, r17
    move r4, 64
.Lsum:
    lw r5, r2, 0
    add r10, r10, r5
    add r2, r2, 4
    add r4, r4, -1, nz, .Lsum
    add r14, r14, NR_TASKLETS
    jump .Lblock
.Ldone:
    lsl r0, id, 2
    sw r0, partial, r10
    jump r23
