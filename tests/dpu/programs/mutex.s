// A mutex-protected counter: every tasklet adds 1 to `counter` ROUNDS times, with a load, an add
// and a store under the mutex (without it, updates of interleaved tasklets would be lost).
// After a barrier, tasklet 0 prints the counter; every tasklet returns it.

    .set ROUNDS, 50

    .data
    .p2align 2
counter:
    .long 0
    .globl counter
fmt:
    .asciz "mutex: counter %u\n"
    MUTEX_INIT counter_lock
    BARRIER_INIT all_done, NR_TASKLETS

    .text
main:
    .globl main
    sd r22, 24, d22                     // frame 32: r14/r15 at 0, the return pair at 24
    sd r22, 0, d14
    add r22, r22, 32
    move r14, ROUNDS
.Lround:
    move r0, counter_lock
    call r23, mutex_lock
    lw r1, zero, counter
    add r1, r1, 1
    nop                                 // widen the window another tasklet could use
    sw zero, counter, r1
    move r0, counter_lock
    call r23, mutex_unlock
    add r14, r14, -1, nz, .Lround
    move r0, all_done
    call r23, barrier_wait
    lw r1, zero, counter
    jnz id, .Lret
    sw r22, -16, r1
    move r0, fmt
    call r23, printf
    lw r1, zero, counter
.Lret:
    move r0, r1
    ld d22, r22, -8
    ld d14, r22, 0
    jump r23
