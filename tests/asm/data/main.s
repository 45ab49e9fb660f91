# Two-file program for the tiny test model: main.s calls add_one in lib.s and reads and writes
# lib.s's data; lib.s reads main.s's table. Every reference across the files is a relocation.
        .text
        .global _start
_start: li r1, counter          # data address from the other file (R_TINY_ABS20)
        li r3, 5
1:      call add_one            # call into the other file (R_TINY_CALL)
        addi r3, r3, -1
        bne r3, r0, 1b          # a local branch: resolved by the assembler
        li r4, table
        ld r5, 4(r4)            # table[1] holds the address of counter
        ld r6, 0(r5)
        halt

        .data
        .global table
table:  .long 0, counter, add_one   # data relocations (R_TINY_32) to data and code
