// Vector add over MRAM with DMA: C[i] = A[i] + B[i] for N 32-bit elements. A and B are
// initialised data of the executable (section .mram, loaded into MRAM), C is .mram.noinit.
// Blocks of 64 elements go round the tasklets (block b to tasklet b % NR_TASKLETS): each
// mram_reads its blocks of A and B into its own WRAM buffers, adds, and mram_writes C. After a
// barrier, tasklet 0 reads C back, checks C[i] = 4i + 1, prints and returns the errors.

    .set N, 4096
    .set BLOCK, 256                     // bytes per transfer: 64 elements
    .set NBLOCKS, N * 4 / BLOCK

    .section .mram, "aw", @progbits
    .p2align 3
A:
    .set v, 0
    .rept N
    .long v                             // A[i] = i
    .set v, v + 1
    .endr
B:
    .set v, 0
    .rept N
    .long 3 * v + 1                     // B[i] = 3i + 1
    .set v, v + 1
    .endr

    .section .mram.noinit, "aw", @nobits
    .p2align 3
C:
    .space N * 4
    .globl C

    .section .bss, "aw", @nobits
    .p2align 3
buf_a:
    .space BLOCK * 24
buf_b:
    .space BLOCK * 24

    .data
fmt:
    .asciz "vecadd: %u elements, %u errors, sum %u\n"
    BARRIER_INIT done, NR_TASKLETS

    .text
main:
    .globl main
    sd r22, 56, d22                     // frame 64: r14..r19 at 0..23, outgoing arguments
    sd r22, 0, d14
    sd r22, 8, d16
    sd r22, 16, d18
    add r22, r22, 64
    lsl r16, id, 8                      // r16 = id * BLOCK
    add r17, r16, buf_a                 // this tasklet's buffers
    add r18, r16, buf_b
    move r14, id                        // r14 = block
.Lblock:
    jgeu r14, NBLOCKS, .Ldone
    lsl r15, r14, 8                     // r15 = block * BLOCK
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
    move r0, done
    call r23, barrier_wait
    move r0, 0
    jnz id, .Lreturn
    // tasklet 0: read C back and check it
    move r14, 0                         // block
    move r19, 0                         // errors
    move r16, 0                         // sum
    move r15, 1                         // the expected C[i] = 4i + 1
.Lcheck_block:
    jgeu r14, NBLOCKS, .Lreport
    lsl r0, r14, 8
    add r0, r0, C
    move r1, r17
    move r2, BLOCK
    call r23, mram_read
    move r2, r17
    move r4, BLOCK / 4
.Lcheck:
    lw r5, r2, 0
    add r16, r16, r5
    jeq r5, r15, .Lok
    add r19, r19, 1
.Lok:
    add r15, r15, 4
    add r2, r2, 4
    add r4, r4, -1, nz, .Lcheck
    add r14, r14, 1
    jump .Lcheck_block
.Lreport:
    move r1, N
    sw r22, -16, r1
    sw r22, -24, r19
    sw r22, -32, r16
    move r0, fmt
    call r23, printf
    move r0, r19
.Lreturn:
    ld d22, r22, -8
    ld d14, r22, 0
    ld d16, r22, 8
    ld d18, r22, 16
    jump r23
