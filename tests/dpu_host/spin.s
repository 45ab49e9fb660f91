// Count to `iters` (WRAM, set by the host), then set `finished` = iters: a kernel that runs
// long enough for the host to see it still running after an asynchronous launch.
    .data
    .p2align 3
    .globl iters, finished
iters: .long 0
    .size iters, 4
finished: .long 0
    .size finished, 4
    .text
    .globl main
main:
    lw r1, zero, iters
    move r2, 0
.Lloop:
    add r2, r2, 1
    jltu r2, r1, .Lloop
    sw zero, finished, r2
    move r0, 0
    jump r23
