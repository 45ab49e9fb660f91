// crt0: how a DPU program starts (elf-abi.md 8), for isekit's DPU runtime.
//
// The host starts thread 0 at instruction 0. Thread 0 resets the printf state; then every
// thread boots the next one (the staggered boot: thread i+1 starts one issue after thread i's
// `boot`), loads its stack pointer from the table of stacks, and calls main. When main
// returns, the thread stops with its PC parked on the stop instruction; the DPU is done when
// every thread has stopped. main's return value stays in r0.
//
// Configuration, as absolute symbols defined before this file (for instance by a first input
// holding `.set NR_TASKLETS, 16`) or left to the defaults:
//   NR_TASKLETS             tasklets to boot, 1..24 (default 1)
//   STACK_SIZE_DEFAULT      bytes of stack per tasklet, a multiple of 8 (default 1024)
//   STACK_SIZE_TASKLET_<i>  the stack of tasklet i (default: STACK_SIZE_DEFAULT below
//                           NR_TASKLETS, else 0)
// They end up in the executable's symbol table, where the loader reads them.

    .ifndef NR_TASKLETS
    .set NR_TASKLETS, 1
    .endif
    .ifndef STACK_SIZE_DEFAULT
    .set STACK_SIZE_DEFAULT, 1024
    .endif
    .if NR_TASKLETS < 1 || NR_TASKLETS > 24
    .error "NR_TASKLETS must be 1..24"
    .endif
    .globl NR_TASKLETS
    .globl STACK_SIZE_DEFAULT

    .irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23
    .ifndef STACK_SIZE_TASKLET_\i
    .if \i < NR_TASKLETS
    .set STACK_SIZE_TASKLET_\i, STACK_SIZE_DEFAULT
    .else
    .set STACK_SIZE_TASKLET_\i, 0
    .endif
    .endif
    .if STACK_SIZE_TASKLET_\i % 8
    .error "the stack sizes must be multiples of 8"
    .endif
    .globl STACK_SIZE_TASKLET_\i
    .endr

    .section .text.__bootstrap, "ax", @progbits
__bootstrap:
    .globl __bootstrap
    .type __bootstrap, @function
    jnz id, __sys_start_thread                  // threads 1.. skip the one-time work
    sd zero, __stdout_buffer_state, 0           // printf: write pointer 0, not wrapped
__sys_start_thread:
    .globl __sys_start_thread
    jeq id, NR_TASKLETS - 1, . + 2              // the last tasklet boots nobody
    boot id, 1                                  // start the next tasklet (at instruction 0)
    ld d22, id8, __sys_thread_stack_table_ptr   // r22 = this tasklet's stack, r23 = its size
    call r23, main
__sys_end:
    .globl __sys_end
    stop true, __sys_end

// WRAM 0: the null pointer's 8 bytes, so that no object lives at address 0.
    .section .data.__sys_zero, "aw", @progbits
__sys_null_pointer:
    .globl __sys_null_pointer
    .quad 0

// Objects the runtime reaches with the short (12-bit) offsets of store-immediate forms.
    .section .data.immediate_memory, "aw", @progbits
    .p2align 3
__stdout_buffer_state:                          // printf: { write pointer, has wrapped }
    .globl __stdout_buffer_state
    .long 0, 0
__stdout_cache_buffer:                          // printf: 8 bytes on their way to MRAM
    .globl __stdout_cache_buffer
    .quad 0
__sys_wq_table:                                 // wait queues: the next sleeper of each thread
    .globl __sys_wq_table
    .space 24, 0xff

// The stacks (full ascending: r22 points at the first free byte, locals below it).
    .section .data, "aw", @progbits
    .p2align 3
__sys_thread_stack_table_ptr:                   // per tasklet: { size, base }
    .globl __sys_thread_stack_table_ptr
    .irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23
    .long STACK_SIZE_TASKLET_\i, __sys_stack_thread_\i
    .endr

    .section .data.stacks, "aw", @nobits
    .p2align 3
    .irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23
__sys_stack_thread_\i:
    .globl __sys_stack_thread_\i
    .space STACK_SIZE_TASKLET_\i
    .endr
