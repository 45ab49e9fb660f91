# The machine timer: mtimecmp = mtime + 40, MTIE and MIE on, wfi sleeps until it fires; the
# interrupt enters through the vectored table at base + 4 * 7 with MIE off and MPIE on, and
# mret returns after the wfi with MIE on again.
    .include "lib.inc"
    .text
    .globl _start
_start:
    auipc t0, 0
    addi t0, t0, vectors - _start + 1      # vectored mode
    csrw mtvec, t0
    li s2, 0                               # interrupts taken
    LI32 s0, 0x0200bff8                    # mtime
    LI32 s1, 0x02004000                    # mtimecmp
    lw t0, 0(s0)
    addi t0, t0, 40
    li t1, -1
    sw t1, 4(s1)                           # the high word first: no early interrupt
    sw t0, 0(s1)
    sw zero, 4(s1)
    li t1, 0x80
    csrs mie, t1                           # MTIE
    csrsi mstatus, 8                       # MIE
sleep:
    wfi
after:
    CHECK s2, 1, 1
    CHECK s3, 0x80000007, 2
    CHECK s4, 0, 3
    lw t1, 0(s0)
    lw t2, 0(s1)
    sltu a0, t1, t2
    CHECK a0, 0, 4                         # mtime passed mtimecmp
    csrr a0, mstatus
    andi a0, a0, 8
    CHECK a0, 8, 5
    PASS
vectors:
    j bad
    j bad
    j bad
    j bad
    j bad
    j bad
    j bad
    j on_timer                             # cause 7
bad:
    li t5, 90
    j fail
on_timer:
    addi s2, s2, 1
    csrr s3, mcause
    csrr s4, mepc
    auipc t3, 0
    addi t3, t3, after - .
    addi t3, t3, 4
    sub s4, s4, t3                         # 0 if mepc = after
    csrr t3, mstatus
    andi t3, t3, 0x88
    li t4, 0x80
    bne t3, t4, bad                        # MIE off, MPIE on
    li t1, -1
    sw t1, 4(s1)                           # mtimecmp far away: the interrupt ends
    mret
    EXIT_CODE
