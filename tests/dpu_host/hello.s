// The DPU half of the hello world: one printf, read by the host with dpu_log_read.
    .data
msg: .asciz "Hello World!\n"
    .text
    .globl main
main:
    sd r22, 8, d22
    add r22, r22, 16
    move r0, msg
    call r23, printf
    move r0, 0
    ld d22, r22, -8
    jump r23
