// A runtime member as a C compiler leaves an __mram_noinit object: .mram.noinit with
// @progbits and zeros. The SDK's script makes the section NOLOAD; the executable must not
// carry the zeros (tests/cli/dpu_link.sh checks its type and the file size).
    .section .mram.noinit, "aw", @progbits
    .p2align 3
__sys_big_scratch:
    .globl __sys_big_scratch
    .space 1048576
