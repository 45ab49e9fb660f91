// printf of several values. Tasklet 0 prints a line of every kind of conversion; then every
// tasklet prints one line (in whatever order the tasklets get the printf lock), puts and putchar.
// Variable arguments: argument k in the slot at r22 - 16 - 8k (models/dpu/runtime/stdio.s).

    .data
fmt_all:    .asciz "hello: %d tasklets, %u %x %s %c %lld %5d|%-4d| 100%%\n"
fmt_one:    .asciz "tasklet %d of %d\n"
word_dpu:   .asciz "dpu"
line:       .asciz "the end"

    .text
    .globl main
main:
    sd r22, 72, d22                     // frame: 80 bytes, 8 outgoing arguments at -16 - 8k
    add r22, r22, 80
    jnz id, .Lothers
    move r1, NR_TASKLETS
    sw r22, -16, r1                     // %d
    move r1, 4000000000
    sw r22, -24, r1                     // %u
    move r1, 0xbeef
    sw r22, -32, r1                     // %x
    move r1, word_dpu
    sw r22, -40, r1                     // %s
    move r1, 90
    sw r22, -48, r1                     // %c: 'Z'
    move r1, 0xfffffee0                 // -1234567890123 = 0xfffffee0_8e04fb35 (low word first)
    move r2, 0x8e04fb35
    sw r22, -56, r2
    sw r22, -52, r1                     // %lld
    move r1, 42
    sw r22, -64, r1                     // %5d
    move r1, -7
    sw r22, -72, r1                     // %-4d
    move r0, fmt_all
    call r23, printf
.Lothers:
    move r1, id
    sw r22, -16, r1
    move r1, NR_TASKLETS
    sw r22, -24, r1
    move r0, fmt_one
    call r23, printf
    jnz id, .Ldone
    move r0, line
    call r23, puts
    move r0, 33                         // '!'
    call r23, putchar
    move r0, 10
    call r23, putchar
.Ldone:
    move r0, id
    ld d22, r22, -8
    jump r23
