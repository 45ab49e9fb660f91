/* host_lift4sa.c - a host program for fw_lift4sa.psm and its C version tests/cc/fw_lift4sa.c:
 *
 *     isekit run edkdsp --firmware fw_lift4sa.hex --host host_lift4sa.c
 *
 * One block of libdwt's lifting step on the test vector of dfu.md section 5 (the one
 * tests/edkdsp/test_firmware.c runs on the .psm): the 16 results bit-exact, 15 DFU operations,
 * and the block's clocks printed. */
#include <stdio.h>

#include <isekit/edkdsp.h>
#include "../edkdsp/lift4sa_vector.h"

EDK_HOST_MAIN(bce)
{
    (void)argc;
    (void)argv;
    if (edk_start(bce, EDK_SLOT_P0) != EDK_OK) return 1;
    float input[16];
    lift4sa_input(input);
    const uint32_t *coefficients = lift4sa_coefficients, *expected = lift4sa_expected;
    uint32_t steps = 6, out[16];
    int failures = 0;
    failures += edk_write_dmem_f32(bce, EDK_MEM_A, 0, input, 16) != EDK_OK;
    failures += edk_write_dmem(bce, EDK_MEM_B, 0, coefficients, 12) != EDK_OK;
    failures += edk_write_cmem(bce, 0x01, &steps, 1) != EDK_OK;
    uint64_t start = edk_clock(bce);
    failures += edk_mb2pb(bce, 1) != EDK_OK;
    failures += edk_pb2mb(bce, NULL) != EDK_OK;
    uint64_t clocks = edk_clock(bce) - start;
    failures += edk_read_dmem(bce, EDK_MEM_C, 0, out, 16) != EDK_OK;
    for (int i = 0; i < 16; i++)
        if (out[i] != expected[i]) {
            printf("C[%d] = %08X, expected %08X\n", i, (unsigned)out[i], (unsigned)expected[i]);
            failures++;
        }
    size_t n;
    edk_dfu_log(bce, &n);
    printf("lifting step: %zu DFU operations, %llu clocks\n", n, (unsigned long long)clocks);
    failures += n != 15;
    failures += edk_mb2pb(bce, 0) != EDK_OK;
    printf("%s\n", failures ? "FAILED" : "all results correct");
    return failures != 0;
}
