# The M extension with the spec's corner cases: division by zero, INT_MIN / -1, signs.
    .include "lib.inc"
    .text
    .globl _start
_start:
    LI32 s0, 0x80000000
    li s1, -1
    li s2, 7
    li s3, -3
    mul a0, s2, s3
    CHECK a0, -21, 1
    mulh a0, s3, s2
    CHECK a0, -1, 2
    mulh a0, s0, s0
    CHECK a0, 0x40000000, 3
    mulhu a0, s1, s1
    CHECK a0, 0xfffffffe, 4
    mulhsu a0, s3, s1
    CHECK a0, 0xfffffffd, 5
    mulhsu a0, s2, s1
    CHECK a0, 6, 6
    div a0, s2, s3
    CHECK a0, -2, 7
    rem a0, s2, s3
    CHECK a0, 1, 8
    rem a0, s3, s2
    CHECK a0, -3, 9
    divu a0, s3, s2
    CHECK a0, 0x24924924, 10
    remu a0, s3, s2
    CHECK a0, 1, 11
    div a0, s2, zero
    CHECK a0, -1, 12
    divu a0, s2, zero
    CHECK a0, 0xffffffff, 13
    rem a0, s3, zero
    CHECK a0, -3, 14
    remu a0, s3, zero
    CHECK a0, 0xfffffffd, 15
    div a0, s0, s1
    CHECK a0, 0x80000000, 16
    rem a0, s0, s1
    CHECK a0, 0, 17
    mul zero, s2, s2
    CHECK zero, 0, 18
    PASS
    EXIT_CODE
