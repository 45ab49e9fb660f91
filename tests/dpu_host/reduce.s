// sum = A[0] + ... + A[n-1] (n in WRAM, a multiple of 64), one tasklet.
    .set MAXN, 4096
    .section .mram.noinit, "aw", @nobits
    .p2align 3
    .globl A
A:  .space MAXN * 4
    .size A, MAXN * 4
    .data
    .p2align 3
    .globl n, sum
n:  .long 0
    .size n, 4
sum: .long 0
    .size sum, 4
    .section .bss, "aw", @nobits
    .p2align 3
buf: .space 256

    .text
    .globl main
main:
    sd r22, 56, d22
    sd r22, 0, d14
    sd r22, 8, d16
    sd r22, 16, d18
    add r22, r22, 64
    lw r19, zero, n
    lsl r19, r19, 2                     // bytes
    move r14, 0
    move r16, 0
.Lblock:
    jgeu r14, r19, .Ldone
    add r0, r14, A
    move r1, buf
    move r2, 256
    call r23, mram_read
    move r2, buf
    move r4, 64
.Ladd:
    lw r5, r2, 0
    add r16, r16, r5
    add r2, r2, 4
    add r4, r4, -1, nz, .Ladd
    add r14, r14, 256
    jump .Lblock
.Ldone:
    sw zero, sum, r16
    move r0, 0
    ld d22, r22, -8
    ld d14, r22, -64
    ld d16, r22, -56
    ld d18, r22, -48
    jump r23
