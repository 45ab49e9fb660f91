# The article's two-clock MAC, pipelined: launches in consecutive clocks overlap. A macro with
# a default argument loads the general registers; .rept repeats the accumulation.
        .text
start:
        .macro load_gr reg, value=1
        ldi lr1, \value
        move \reg, lr1
        .endm

        load_gr gr0, 5
        load_gr gr1                   # the default: 1
        clracc
        .rept 3
        mac gr0, gr0                  # ACC += 25, three times
        .endr
        .ifdef WITH_NEGATIVE
        ldg gr1, -3
        .else
        mac gr0, gr1                  # ACC += 5
        .endif
        add lr15, gr0, gr1            # LR15 = 6
        flag shm[(. - start) / 4], 0x2a   # its own index as the cell: SHM[10] = 42

# expect ACR == 80
# expect LR15 == 6
# expect SHM[10] == 42
