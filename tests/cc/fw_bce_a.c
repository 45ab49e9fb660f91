/* fw_bce_a.c - models/edkdsp/examples/fw_bce_a.psm in C: one DFU_VADD of 16 elements, then the
 * DFU's operation time on port 40 and the BCE ID A0 in CMEM word 80, and a write to port 41,
 * which two_bces.sys wires to "stop". */
#include "pbbcelib.h"

#define RESULT_PORT 0x40
#define DONE_PORT 0x41

void main(void)
{
    pb2mb_report_running();
    pb2dfu_start_op(DFU_VADD, 16);
    pb2dfu_wait4hw();
    __output(RESULT_PORT, (unsigned char)pcnt_get_dfutime());
    write_bce_id_to_cmem(0xA0);
    __output(DONE_PORT, 0);
    for (;;) ;
}
