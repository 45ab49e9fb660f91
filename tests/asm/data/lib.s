        .text
        .global add_one, counter
        .type add_one, @function
add_one:
        li r7, counter
        ld r8, 0(r7)
        addi r8, r8, 1
        st r8, 0(r7)
        li r9, table            # back into main.s
        ld r10, 0(r9)
        ret
        .size add_one, . - add_one

        .data
counter: .long 10
