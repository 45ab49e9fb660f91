// Host inputs without a host program (isekit run dpu --mram/--set/--dump/--dump-mram, in
// tests/cli/dpu_link.sh): sums `count` 32-bit words of the MRAM buffer at `offset` (given with
// --mram FILE@OFFSET) and the four words of `table`; stores both sums in `result` and writes
// `result` to the MRAM just after the buffer.
    .section .dpu_host, "aw", @progbits
    .p2align 3
count:                                          // words to sum: a multiple of 2, at most 512
    .globl count
    .long 0
    .size count, 4
offset:                                         // the buffer's MRAM offset, 8-aligned
    .globl offset
    .long 0
    .size offset, 4
result:                                         // { buffer sum, table sum }
    .globl result
    .long 0, 0
    .size result, 8
table:
    .globl table
    .long 1, 2, 3, 4
    .size table, 16

    .section .bss, "aw", @nobits
    .p2align 3
buf:
    .space 2048

    .text
main:
    .globl main
    sd r22, 8, d22
    add r22, r22, 16
    lw r0, zero, offset
    move r1, buf
    lw r2, zero, count
    lsl r2, r2, 2
    call r23, mram_read                         // mram_read(MRAM, WRAM, bytes)
    lw r2, zero, count
    move r3, buf
    move r4, 0
.Lsum:
    jz r2, .Ltable
    lw r5, r3, 0
    add r4, r4, r5
    add r3, r3, 4
    add r2, r2, -1
    jump .Lsum
.Ltable:
    sw zero, result, r4
    lw r5, zero, table
    lw r6, zero, table + 4
    add r5, r5, r6
    lw r6, zero, table + 8
    add r5, r5, r6
    lw r6, zero, table + 12
    add r5, r5, r6
    sw zero, result + 4, r5
    move r0, result                             // mram_write(WRAM, MRAM, bytes)
    lw r1, zero, count
    lsl r1, r1, 2
    lw r2, zero, offset
    add r1, r1, r2
    move r2, 8
    call r23, mram_write
    lw r0, zero, result
    ld d22, r22, -8
    jump r23
