# Loads and stores: sizes, sign and zero extension, little-endian byte order, a store over code
# that is then executed (the decoded instruction must follow the store).
    .include "lib.inc"
    .text
    .globl _start
_start:
    LI32 s0, 0x80200000
    LI32 t0, 0x8081f2f3
    sw t0, 0(s0)
    lb a0, 0(s0)
    CHECK a0, 0xfffffff3, 1
    lbu a0, 3(s0)
    CHECK a0, 0x80, 2
    lh a0, 2(s0)
    CHECK a0, 0xffff8081, 3
    lhu a0, 0(s0)
    CHECK a0, 0xf2f3, 4
    lw a0, 0(s0)
    CHECK a0, 0x8081f2f3, 5
    li t1, 0x55
    sb t1, 1(s0)
    lw a0, 0(s0)
    CHECK a0, 0x808155f3, 6
    LI32 t1, 0x1234
    sh t1, 2(s0)
    lw a0, 0(s0)
    CHECK a0, 0x123455f3, 7
    lb a0, 2047(s0)
    CHECK a0, 0, 8
    addi s1, s0, 16
    sw t0, -4(s1)
    lw a0, 12(s0)
    CHECK a0, 0x8081f2f3, 9
    # run `patch` once as it is (a0 = 1), then store `li a0, 2` over it and run it again
    li a0, 0
    jal patch
    CHECK a0, 1, 10
2:  auipc t2, 0
    LI32 t0, 0x00200513        # li a0, 2
    addi t2, t2, patch - 2b
    sw t0, 0(t2)
    jal patch
    CHECK a0, 2, 11
    PASS
    li t5, 99                  # never here: patch must not fall through
patch:
    li a0, 1
    ret
    EXIT_CODE
