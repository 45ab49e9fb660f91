/* fw_ex1.c - the example firmware of the pbbcelib API v2 document (section 3.4), typed from the
 * seed as C. Only the OCR errors are corrected:
 *   "../../api/10-pb-firmware/pbbcelib.h"  -> "pbbcelib.h" (found with -I; the seed's SDK layout)
 *   "Oxff; rc" (a line split by the OCR)   -> "rc = 0xff;"
 *   MY_MULT_0OP                            -> MY_MULT_OP
 *   "int 1 = ..."                          -> "int l = ..."
 *   DFUAG_O                                -> DFUAG_0
 *   pb2dfu_wait_hw                         -> pb2dfu_wait4hw (the API's name)
 *   pb2dfu_start_op(DFU_VMUL, 1)           -> pb2dfu_start_op(DFU_VMUL, l) (the count just received;
 *                                             the OCR reads the letter l as the digit 1)
 *   "+" and "¥" (closing braces)           -> "}"
 *   "return O;" in void main               -> removed (the loop never ends; a value in a void
 *                                             function is an error in C17)
 */
#include "pbbcelib.h"

#define MY_MULT_OP 0x10

void main()
{
    unsigned char op;
    unsigned char rc;

    pb2mb_report_running();

    do {
        /* waiting for data from MB (the first byte is a required operation) */
        op = mbpb_exchange_data(0);

        rc = 0xff;

        if (op == WAL_OP_GETCAP) { /* FW support only this one operation */
            /* read DFU capability and write it into the control/status memory (8 words) */
            write_dfu_caps_to_cmem();
            rc = 0;

        } else if (op == MY_MULT_OP) {
            int l = mbpb_exchange_data(0);
            pb2dfu_set_bank(DFUAG_0, MBANK_A);
            pb2dfu_set_addr(DFUAG_0, 0x100);
            pb2dfu_set_fulladdr(DFUAG_1, MBANK_B, 0x08);
            pb2dfu_set_inc(DFUAG_0, 1);
            pb2dfu_set_inc(DFUAG_1, 2);
            pb2dfu_start_op(DFU_VMUL, l);
            rc = pb2dfu_wait4hw();
        }

        /* send result/return code to MB */
        mbpb_exchange_data(rc);

    } while (1);
}
