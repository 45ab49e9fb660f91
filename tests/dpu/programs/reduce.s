// A reduction with a barrier. X[0..N) is initialised WRAM data. Tasklet t sums X[t], X[t+T],
// ... into partial[t]; after a barrier, tasklet 0 adds the partial sums into `total`; after a
// second barrier every tasklet copies `total` into seen[t] (so the test sees that nobody passed
// the second barrier before tasklet 0 had written it), and returns it.

    .set N, 2048

    .data
    .p2align 2
X:
    .set v, 17
    .rept N
    .long v                             // a pseudo-random sequence: v = (v * 73 + 41) mod 10007
    .set v, (v * 73 + 41) % 10007
    .endr
partial:
    .space 4 * 24
total:
    .long 0xdeadbeef
seen:
    .globl seen
    .space 4 * 24
    .globl total
fmt:
    .asciz "reduce: %d tasklets, total %u\n"
    BARRIER_INIT phase, NR_TASKLETS

    .text
main:
    .globl main
    sd r22, 24, d22                     // frame 32: r14/r15 at 0, the return pair at 24
    sd r22, 0, d14
    add r22, r22, 32
    lsl r1, id, 2
    add r1, r1, X                       // &X[id]
    move r2, X + 4 * N                  // the end
    move r3, 0
    move r4, NR_TASKLETS
    lsl r4, r4, 2                       // stride in bytes
.Lsum:
    jgeu r1, r2, .Lsummed
    lw r5, r1, 0
    add r3, r3, r5
    add r1, r1, r4
    jump .Lsum
.Lsummed:
    lsl r1, id, 2
    sw r1, partial, r3
    move r0, phase
    call r23, barrier_wait
    jnz id, .Lsecond
    move r1, 0                          // tasklet 0: the total
    move r2, 0
    move r4, NR_TASKLETS
    lsl r4, r4, 2                       // (barrier_wait used the caller-saved registers)
.Ltotal:
    lw r3, r2, partial
    add r1, r1, r3
    add r2, r2, 4
    jltu r2, r4, .Ltotal
    sw zero, total, r1
    move r2, NR_TASKLETS
    sw r22, -16, r2
    sw r22, -24, r1
    move r0, fmt
    call r23, printf
.Lsecond:
    move r0, phase
    call r23, barrier_wait
    lw r0, zero, total
    lsl r1, id, 2
    sw r1, seen, r0
    ld d22, r22, -8
    ld d14, r22, 0
    jump r23
