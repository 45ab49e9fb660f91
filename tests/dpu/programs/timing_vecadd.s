// Timing kernel (docs/dpu-timing.md, compared with uPIMulator): C[i] = A[i] + B[i] over 16384
// 32-bit elements in MRAM, 256-byte blocks round the tasklets, no check and no runtime call, so
// that the same text runs unchanged under uPIMulator's assembler. Row-aligned arrays give both
// simulators the same row-buffer pattern.

    .section .mram.noinit,"aw",@nobits
    .p2align 10
A:
    .zero 65536
B:
    .zero 65536
C:
    .zero 65536

    .section .bss,"aw",@nobits
    .p2align 3
buf_a:
    .zero 6144
buf_b:
    .zero 6144

    .text
    .globl main
main:
    lsl r16, id, 8
    add r17, r16, buf_a
    add r18, r16, buf_b
    move r14, id
.Lblock:
    jgeu r14, 256, .Ldone
    lsl r15, r14, 8
    add r0, r15, A
    ldma r17, r0, 31
    add r0, r15, B
    ldma r18, r0, 31
    move r2, r17
    move r3, r18
    move r4, 64
.Ladd:
    lw r5, r2, 0
    lw r6, r3, 0
    add r5, r5, r6
    sw r2, 0, r5
    add r2, r2, 4
    add r3, r3, 4
    add r4, r4, -1, nz, .Ladd
    add r0, r15, C
    sdma r17, r0, 31
    add r14, r14, NR_TASKLETS
    jump .Lblock
.Ldone:
    jump r23
