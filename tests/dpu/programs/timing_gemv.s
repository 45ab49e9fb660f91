// Timing kernel (docs/dpu-timing.md, compared with uPIMulator), GEMV-like: y = M x for a
// 256 x 64 matrix of 32-bit elements in MRAM, one 256-byte row per DMA, rows round the
// tasklets, x and y in WRAM, 8-bit products (mul_ul_ul). No runtime call, so that the same text
// runs unchanged under uPIMulator's assembler.

    .section .mram.noinit,"aw",@nobits
    .p2align 10
M:
    .zero 65536

    .section .bss,"aw",@nobits
    .p2align 3
buf_m:
    .zero 6144
x:
    .zero 256
y:
    .zero 1024

    .text
    .globl main
main:
    lsl r16, id, 8
    add r17, r16, buf_m
    move r14, id
.Lrow:
    jgeu r14, 256, .Ldone
    lsl r15, r14, 8
    add r0, r15, M
    ldma r17, r0, 31
    move r2, r17
    move r3, x
    move r4, 64
    move r10, 0
.Ldot:
    lw r5, r2, 0
    lw r6, r3, 0
    mul_ul_ul r5, r5, r6
    add r10, r10, r5
    add r2, r2, 4
    add r3, r3, 4
    add r4, r4, -1, nz, .Ldot
    lsl r0, r14, 2
    sw r0, y, r10
    add r14, r14, NR_TASKLETS
    jump .Lrow
.Ldone:
    jump r23
