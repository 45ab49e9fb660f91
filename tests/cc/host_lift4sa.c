/* host_lift4sa.c - a host program for fw_lift4sa.psm and its C version tests/cc/fw_lift4sa.c:
 *
 *     isekit run edkdsp --firmware fw_lift4sa.hex --host host_lift4sa.c
 *
 * One block of libdwt's lifting step on the test vector of dfu.md section 5 (the one
 * tests/edkdsp/test_firmware.c runs on the .psm): the 16 results bit-exact, 15 DFU operations,
 * and the block's clocks printed. */
#include <stdio.h>

#include <isekit/edkdsp.h>

EDK_HOST_MAIN(bce)
{
    (void)argc;
    (void)argv;
    if (edk_start(bce, EDK_SLOT_P0) != EDK_OK) return 1;
    float input[16];
    for (int j = 0; j < 16; j++) input[j] = (float)((37 * j) % 23 - 11) / 8.0f;
    static const uint32_t coefficients[12] = { 0x3EE31355, 0, 0x3F620676, 0, 0xBD5901AE, 0,
                                               0xBFCB0673, 0, 0x3F93263D, 0, 0x3F5EAF6F, 0 };
    static const uint32_t expected[16] = { 0xBF99189C, 0xBCB3F1E8, 0x3ED89EFA, 0x3FAFF6C4, 0xBDB5BDD7, 0xBF819CFF,
                                           0x3F99DBA1, 0x3E9EAC12, 0x3F9114D3, 0x00000000, 0xBF9114D3, 0xBE9EAC14,
                                           0xBFB0E033, 0x3FB96673, 0xBE8B0674, 0xBF800000 };
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
