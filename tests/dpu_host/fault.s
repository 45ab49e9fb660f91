// Load from past the end of the WRAM: the DPU faults.
    .text
    .globl main
main:
    move r1, 0x20000
    lw r0, r1, 0
    jump r23
