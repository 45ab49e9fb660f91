/* fw_lift4sa.c - models/edkdsp/examples/fw_lift4sa.psm in C: the forward CDF 9/7 lifting step of
 * libdwt's ASVP firmware (fw_fp01_lift4sa), 15 DFU operations per block, with the same host
 * protocol: the host writes `steps` into CMEM word 01, the input into memory A and the
 * coefficients into memory B, sends 1 and waits for the end (host_lift4sa.c); 0 ends the firmware.
 * Each operation's vectors are set up while the previous operation still runs (the DFU latches
 * its settings at the start), and started as soon as the previous one is done. */
#include "pbbcelib.h"

/* address generator `ag` reads/writes memory `bank` from `addr` with increment `inc` */
static void vector(unsigned char ag, unsigned char bank, unsigned int addr, int inc)
{
    pb2dfu_set_fulladdr(ag, bank, addr);
    pb2dfu_set_inc(ag, inc);
}

/* wait for the previous operation, start `op` over `n` elements */
static void start(unsigned char op, unsigned int n)
{
    pb2dfu_wait4hw();
    pb2dfu_start_op(op, n);
}

void main(void)
{
    pb2mb_report_running();
    while (mbpb_exchange_data(0)) {
        unsigned int steps = read_bce_cmem_u16(0x01, 0);
        /* the four lifting steps: for (A[m], B[c]) in (3,6), (2,4), (1,2), (0,0):
         *   C[1:2] <- A[m:2] * B[c:0]       (steps + 1)
         *   B[1:2] <- A[m+1:2] + C[1:2]     (steps)
         *   A[m+1:2] <- B[1:2] + C[3:2]     (steps) */
        unsigned char m = 3, c = 6;
        do {
            vector(DFUAG_0, MBANK_C, 1, 2);
            vector(DFUAG_1, MBANK_A, m, 2);
            vector(DFUAG_2, MBANK_B, c, 0);
            start(DFU_VMUL, steps + 1);
            vector(DFUAG_0, MBANK_B, 1, 2);
            vector(DFUAG_1, MBANK_A, m + 1, 2);
            vector(DFUAG_2, MBANK_C, 1, 2);
            start(DFU_VADD, steps);
            vector(DFUAG_0, MBANK_A, m + 1, 2);
            vector(DFUAG_1, MBANK_B, 1, 2);
            vector(DFUAG_2, MBANK_C, 3, 2);
            start(DFU_VADD, steps);
            c -= 2;
        } while (m--);
        /* scaling: C[1:2] <- A[1:2] * B[8:0], C[0:2] <- A[0:2] * B[10:0] (steps each) */
        vector(DFUAG_0, MBANK_C, 1, 2);
        vector(DFUAG_1, MBANK_A, 1, 2);
        vector(DFUAG_2, MBANK_B, 8, 0);
        start(DFU_VMUL, steps);
        vector(DFUAG_0, MBANK_C, 0, 2);
        vector(DFUAG_1, MBANK_A, 0, 2);
        vector(DFUAG_2, MBANK_B, 10, 0);
        start(DFU_VMUL, steps);
        /* the 4 border samples: C[2*steps:1] <- A[2*steps:1] */
        vector(DFUAG_0, MBANK_C, steps << 1, 1);
        vector(DFUAG_1, MBANK_A, steps << 1, 1);
        start(DFU_VCOPY, 4);
        pb2dfu_wait4hw();
        mbpb_exchange_data(0);  /* end of computation */
    }
    for (;;) ;
}
