# Synchronous traps: each exception's mcause, mtval and mepc, mstatus on entry and after mret,
# CSR access rules (unknown CSR, write to a read-only one, the no-write forms), the counters.
    .include "lib.inc"
    .ifndef MULCYCLES
    .equ MULCYCLES, 1              # the run's --param mul_cycles
    .endif
    .text
    .globl _start
_start:
    auipc t0, 0
    addi t0, t0, handler - _start
    csrw mtvec, t0
    csrsi mstatus, 8              # MIE = 1: a trap saves it in MPIE
    LI32 s0, 0x80200000
# illegal instruction: mtval is the word
t_illegal:
    .word 0xffffffff
    CHECK s8, 2, 1
    CHECK s9, 0xffffffff, 2
    CHECK s10, 0, 3
    csrr a0, mstatus
    CHECK a0, 0x1888, 4           # MIE back to 1 by mret, MPIE = 1, MPP = M
    lw a0, 1(s0)
    CHECK s8, 4, 5
    LI32 t0, 0x80200001
    CHECK s9, 0x80200001, 6
    sh a0, 3(s0)
    CHECK s8, 6, 7
    CHECK s9, 0x80200003, 8
    li t1, 0x100
    lw a0, 0(t1)
    CHECK s8, 5, 9
    CHECK s9, 0x100, 10
    sb a0, 0(t1)
    CHECK s8, 7, 11
    ecall
    CHECK s8, 11, 12
    CHECK s9, 0, 13
t_ebreak:
    ebreak
    CHECK s8, 3, 14
    li a1, 77
t_jump:
    auipc t0, 0
    jalr a1, 6(t0)                # target misaligned: trap, a1 not written
    CHECK s8, 0, 15
    CHECK a1, 77, 16
    .word 0x7c002573              # csrr a0, 0x7c0: no such CSR
    CHECK s8, 2, 17
    CHECK s9, 0x7c002573, 18
    li a0, 5
    csrw cycle, a0                # read-only
    CHECK s8, 2, 19
    li s8, 0
    csrrs a0, cycle, zero         # reading one is fine
    csrrc a0, instret, zero
    CHECK s8, 0, 20
    csrw mscratch, a0
    csrrwi a0, mscratch, 0x15
    csrrsi a0, mscratch, 0x0a
    csrrci a0, mscratch, 0x01
    csrr a0, mscratch
    CHECK a0, 0x1e, 21
    csrr a0, misa
    CHECK a0, 0x40001100, 22
    csrr a0, mhartid
    CHECK a0, 0, 23
    csrr a1, minstret
    nop
    csrr a2, minstret
    sub a0, a2, a1
    CHECK a0, 2, 24
    csrr a1, mcycle
    mul a3, a1, a1
    csrr a2, mcycle
    sub a0, a2, a1
    CHECK a0, MULCYCLES + 1, 25
    csrwi minstret, 0
    csrr a0, minstret
    CHECK a0, 0, 26
    PASS
# The handler: s8 = mcause, s9 = mtval, s10 = 0 if mepc is the trapping instruction (checked
# through the ebreak's and the jump's own addresses), resumes after it. mstatus in it: MIE 0.
handler:
    csrr s8, mcause
    csrr s9, mtval
    csrr s10, mepc
    csrr s11, mstatus
    andi s11, s11, 8
    bnez s11, bad_mie
    addi t4, s10, 4
    csrw mepc, t4
    auipc t4, 0
    addi t4, t4, t_ebreak - .
    addi t4, t4, 4
    bne s10, t4, 1f
    bne s9, s10, bad_tval         # ebreak: mtval = its pc
1:  li s10, 0
    mret
bad_mie:
    li t5, 90
    j fail
bad_tval:
    li t5, 91
    j fail
    EXIT_CODE
