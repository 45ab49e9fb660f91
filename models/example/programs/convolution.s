# CONV over five samples and five taps, written as a launch program: the vectors are stored by
# macros, and the loop count comes from the program itself: the labels 1 and 2 bracket the
# stores of the samples, two launches (8 bytes) per sample.
# Run: isekit as -m example convolution.s -o conv.o; isekit dis -m example --plain conv.o > conv.ll;
#      isekit run example conv.ll
        .include "common.inc"

        .text
        .global main
main:
1:      store_list dm, 0, 1, 2, 3, 4, 5        # samples DM0[0..4]
2:      store_list tm, 8, 2, 2, 2, 2, 2        # taps TM0[8..12]
        setloop (2b - 1b) / 8 - 1              # LOOPREG + 1 products
        setar ar0, 0
        setar ar1, 8
        clracc
        conv acc, dm0[ar0], tm0[ar1]
        .size main, . - main

# expect ACR == 30
# expect DM0[4] == 5
# expect TM0[12] == 2
# expect LOOPREG == 0
