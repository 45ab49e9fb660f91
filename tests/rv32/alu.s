# RV32I computation: every register-immediate and register-register instruction, lui, auipc,
# x0, shifts by amounts of 32 and more (the low 5 bits count).
    .include "lib.inc"
    .text
    .globl _start
_start:
    LI32 s0, 0x80000001
    li s1, -5
    addi a0, s1, 7
    CHECK a0, 2, 1
    addi a0, s0, -1
    CHECK a0, 0x80000000, 2
    slti a0, s1, -4
    CHECK a0, 1, 3
    slti a0, s1, -5
    CHECK a0, 0, 4
    sltiu a0, s1, -4
    CHECK a0, 1, 5
    sltiu a0, s1, 5
    CHECK a0, 0, 6
    xori a0, s1, -1
    CHECK a0, 4, 7
    ori a0, s0, 0x70
    CHECK a0, 0x80000071, 8
    andi a0, s1, 0x7f
    CHECK a0, 0x7b, 9
    slli a0, s0, 4
    CHECK a0, 0x10, 10
    srli a0, s0, 31
    CHECK a0, 1, 11
    srai a0, s0, 31
    CHECK a0, 0xffffffff, 12
    srai a0, s1, 1
    CHECK a0, 0xfffffffd, 13
    add a0, s0, s1
    CHECK a0, 0x7ffffffc, 14
    sub a0, s1, s0
    CHECK a0, 0x7ffffffa, 15
    li t0, 33
    sll a0, s0, t0
    CHECK a0, 2, 16
    srl a0, s0, t0
    CHECK a0, 0x40000000, 17
    sra a0, s0, t0
    CHECK a0, 0xc0000000, 18
    li t0, -1
    srl a0, s0, t0
    CHECK a0, 1, 19
    slt a0, s0, s1
    CHECK a0, 1, 20
    sltu a0, s0, s1
    CHECK a0, 1, 21
    sltu a0, s1, s0
    CHECK a0, 0, 22
    xor a0, s0, s1
    CHECK a0, 0x7ffffffa, 23
    or a0, s0, s1
    CHECK a0, 0xfffffffb, 24
    and a0, s0, s1
    CHECK a0, 0x80000001, 25
    lui a0, 0xfffff
    CHECK a0, 0xfffff000, 26
1:  auipc a0, 1
    la_check:
    LI32 t0, 0x1000
    sub a0, a0, t0
    LI32 t1, 0x80000000
    sub a0, a0, t1
    CHECK a0, 1b - _start, 27
    addi zero, zero, 5
    CHECK zero, 0, 28
    add zero, s0, s0
    lui zero, 1
    mv a0, zero
    CHECK a0, 0, 29
    neg a0, s1
    CHECK a0, 5, 30
    snez a0, s1
    CHECK a0, 1, 31
    seqz a0, s1
    CHECK a0, 0, 32
    not a0, s1
    CHECK a0, 4, 33
    PASS
    EXIT_CODE
