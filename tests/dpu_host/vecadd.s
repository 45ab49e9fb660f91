// C = A + B over n 32-bit elements (n in WRAM, a multiple of 64, at most MAXN), A, B and C
// MRAM symbols the host fills and reads. Blocks of 64 elements go round the tasklets.
    .set MAXN, 4096
    .set BLOCK, 256

    .section .mram.noinit, "aw", @nobits
    .p2align 3
    .globl A, B, C
A:  .space MAXN * 4
    .size A, MAXN * 4
B:  .space MAXN * 4
    .size B, MAXN * 4
C:  .space MAXN * 4
    .size C, MAXN * 4

    .data
    .p2align 3
    .globl n
n:  .long 0
    .size n, 4

    .section .bss, "aw", @nobits
    .p2align 3
buf_a: .space BLOCK * 24
buf_b: .space BLOCK * 24

    .text
    .globl main
main:
    sd r22, 56, d22
    sd r22, 0, d14
    sd r22, 8, d16
    sd r22, 16, d18
    add r22, r22, 64
    lw r19, zero, n
    lsr r19, r19, 6                     // blocks
    lsl r16, id, 8
    add r17, r16, buf_a
    add r18, r16, buf_b
    move r14, id
.Lblock:
    jgeu r14, r19, .Ldone
    lsl r15, r14, 8
    add r0, r15, A
    move r1, r17
    move r2, BLOCK
    call r23, mram_read
    add r0, r15, B
    move r1, r18
    move r2, BLOCK
    call r23, mram_read
    move r2, r17
    move r3, r18
    move r4, BLOCK / 4
.Ladd:
    lw r5, r2, 0
    lw r6, r3, 0
    add r5, r5, r6
    sw r2, 0, r5
    add r2, r2, 4
    add r3, r3, 4
    add r4, r4, -1, nz, .Ladd
    move r0, r17
    add r1, r15, C
    move r2, BLOCK
    call r23, mram_write
    add r14, r14, NR_TASKLETS
    jump .Lblock
.Ldone:
    move r0, 0
    ld d22, r22, -8
    ld d14, r22, -64
    ld d16, r22, -56
    ld d18, r22, -48
    jump r23
