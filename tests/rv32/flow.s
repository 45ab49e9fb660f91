# Branches taken and not, jal and jalr links, jalr clearing bit 0 of the target.
    .include "lib.inc"
    .text
    .globl _start
_start:
    li s0, -1
    li s1, 1
    li a0, 0
    beq s0, s1, 1f
    addi a0, a0, 1
1:  bne s0, s1, 1f
    addi a0, a0, 100
1:  blt s0, s1, 1f
    addi a0, a0, 100
1:  bge s0, s1, 1f
    addi a0, a0, 2
1:  bltu s0, s1, 1f
    addi a0, a0, 4
1:  bgeu s0, s1, 1f
    addi a0, a0, 100
1:  beqz zero, 1f
    addi a0, a0, 100
1:  bnez zero, 1f
    addi a0, a0, 8
1:  CHECK a0, 15, 1
2:  jal t0, 3f
3:  auipc t1, 0
    sub a0, t1, t0
    CHECK a0, 0, 2
jalr_at:
    auipc t1, 0
    addi t1, t1, target - jalr_at + 1   # jalr clears bit 0 of the target
    jalr ra, 0(t1)
back:
    PASS
target:
    auipc t2, 0
    sub a0, t2, ra
    CHECK a0, target - back, 3
    jr ra
    EXIT_CODE
