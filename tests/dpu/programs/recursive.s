// A recursive function using the stack as the ABI says: fib(n) = n < 2 ? n : fib(n-1) + fib(n-2),
// a frame of 16 bytes per call (the caller's r22/r23 at r22 - 8 saved with one sd, n and the
// first result in callee-saved r14/r15, saved below). Tasklet t computes fib(10 + t % 8) into
// result[t] and returns it; tasklet 0 prints its own.

    .data
    .p2align 2
result:
    .globl result
    .space 4 * 24
fmt:
    .asciz "fib(%d) = %d\n"

    .text
// fib(r0 = n) -> r0
fib:
    jltu r0, 2, .Lleaf                  // a leaf: returns n, touches no stack
    sd r22, 8, d22                      // frame 16: r22/r23 at 8, r14/r15 at 0
    sd r22, 0, d14
    add r22, r22, 16
    move r14, r0
    add r0, r14, -1
    call r23, fib
    move r15, r0                        // fib(n - 1)
    add r0, r14, -2
    call r23, fib
    add r0, r0, r15
    ld d22, r22, -8                     // r22 back to the caller's, r23 the return
    ld d14, r22, 0
.Lleaf:
    jump r23

main:
    .globl main
    sd r22, 24, d22
    sd r22, 0, d14
    add r22, r22, 32
    move r14, id                        // r14 = 10 + id % 8
    and r14, r14, 7
    add r14, r14, 10
    move r0, r14
    call r23, fib
    lsl r1, id, 2
    sw r1, result, r0
    jnz id, .Lret
    sw r22, -16, r14
    sw r22, -24, r0
    move r15, r0
    move r0, fmt
    call r23, printf
    move r0, r15
.Lret:
    ld d22, r22, -8
    ld d14, r22, 0
    jump r23
