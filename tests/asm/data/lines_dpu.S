// A DPU .S for the line tests: cpp drops these comments and the #define lines, and writes
// `# N "file"` markers that the assembler follows.
#define ANSWER 42
#define TWICE(r) add r, r, r

    .text
    .globl main
main:
    move r0, ANSWER
    TWICE(r0)
    .macro inc3 reg
    add \reg, \reg, 1
    add \reg, \reg, 2
    .endm
    inc3 r0

    jump r23
