// A program linked as the SDK links (isekit dpu-ld): NR_TASKLETS, the stacks and the MRAM heap
// pointer come from the linker. Tasklet t stores t*t+1 at __sys_used_mram_end + 8t (the host's
// DPU_MRAM_HEAP_POINTER_NAME), touches __sys_big_scratch (NOLOAD, from the archive) and
// returns t*t+1; after a barrier tasklet 0 reads the values back, prints their sum and its
// stack's offset from __sys_stack_thread_0, and returns the sum.
    .include "dpu.inc"
    .set N_MAX, 24

    .section .bss, "aw", @nobits
    .p2align 3
buf:
    .space 8 * N_MAX

    .data
fmt:
    .asciz "link: %u tasklets, sum %u, stack %u\n"
    BARRIER_INIT done, NR_TASKLETS

    .text
main:
    .globl main
    sd r22, 40, d22                             // frame 48: the sum at -40, printf's arguments
    add r22, r22, 48
    move r2, id
    mul_ul_ul r2, r2, r2
    add r2, r2, 1                               // r2 = id*id + 1
    lsl r3, id, 3
    add r0, r3, buf
    sw r0, 0, r2
    sw r0, 4, r2
    move r1, __sys_used_mram_end
    add r1, r1, r3
    move r2, 8
    call r23, mram_write
    move r0, buf
    move r1, __sys_big_scratch
    move r2, 8
    call r23, mram_write
    move r0, done
    call r23, barrier_wait
    lsl r0, id, 3
    lw r0, r0, buf                              // this tasklet's value
    jnz id, .Lreturn
    move r0, __sys_used_mram_end                // mram_read(MRAM, WRAM, bytes)
    move r1, buf
    move r2, NR_TASKLETS                        // a link-time value: no arithmetic on it here
    lsl r2, r2, 3
    call r23, mram_read
    move r4, 0                                  // sum
    move r5, 0
.Lsum:
    lsl r6, r5, 3
    lw r6, r6, buf
    add r4, r4, r6
    add r5, r5, 1
    jltu r5, NR_TASKLETS, .Lsum
    sw r22, -40, r4                             // keep the sum across printf
    move r1, NR_TASKLETS
    sw r22, -16, r1
    sw r22, -24, r4
    move r2, __sys_stack_thread_0
    sub r1, r22, r2
    sw r22, -32, r1
    move r0, fmt
    call r23, printf
    lw r0, r22, -40
.Lreturn:
    ld d22, r22, -8
    jump r23
