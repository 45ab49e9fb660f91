// A crt0 in the layout of the UPMEM SDK's (elf-abi.md 8): it defines no configuration and no
// stacks; NR_TASKLETS, STACK_SIZE_TASKLET_<i>, __sys_stack_thread_<i> and the __atomic_*
// bounds are left to the linker, as the SDK's driver and dpu.lds provide them. isekit dpu-ld
// must link it with no --defsym (tests/cli/dpu_link.sh).
    .section .text.__bootstrap, "ax", @progbits
__bootstrap:
    .globl __bootstrap
    jnz id, __sys_start_thread                  // threads 1.. skip the one-time work
    sd zero, __stdout_buffer_state, 0           // printf: write pointer 0, not wrapped
    move r23, __atomic_end_addr                 // clear the program's atomic bits, top down
.Lclear:
    jeq r23, __atomic_used_addr, __sys_start_thread
    release r23, 0, nz, . + 1
    add r23, r23, -1, true, .Lclear
__sys_start_thread:
    .globl __sys_start_thread
    jeq id, NR_TASKLETS - 1, . + 2              // the last tasklet boots nobody
    boot id, 1
    ld d22, id8, __sys_thread_stack_table_ptr   // r22 = this tasklet's stack
    call r23, main
__sys_end:
    .globl __sys_end
    stop true, __sys_end

    .section .data.__sys_zero, "aw", @progbits
__sys_null_pointer:
    .globl __sys_null_pointer
    .quad 0

    .section .data.immediate_memory, "aw", @progbits
    .p2align 3
__stdout_buffer_state:
    .globl __stdout_buffer_state
    .long 0, 0
__stdout_cache_buffer:
    .globl __stdout_cache_buffer
    .quad 0
__sys_wq_table:
    .globl __sys_wq_table
    .space 24, 0xff

    .section .data, "aw", @progbits
    .p2align 3
__sys_thread_stack_table_ptr:                   // per tasklet: { size, base }
    .globl __sys_thread_stack_table_ptr
    .irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23
    .long STACK_SIZE_TASKLET_\i, __sys_stack_thread_\i
    .endr
