/* The test vector of dfu.md section 5 for libdwt's lifting step (fw_lift4sa.psm), shared by
 * tests/edkdsp/test_firmware.c and tests/cc/host_lift4sa.c (the C version's host): 16 input
 * samples, the coefficients [d,0,g,0,b,0,a,0,z,0,1/z,0] and the bit patterns of the result. */
#ifndef LIFT4SA_VECTOR_H
#define LIFT4SA_VECTOR_H
#include <stdint.h>

static inline void lift4sa_input(float input[16])
{
    for (int j = 0; j < 16; j++) input[j] = (float)((37 * j) % 23 - 11) / 8.0f;
}
static const uint32_t lift4sa_coefficients[12] = { 0x3EE31355, 0, 0x3F620676, 0, 0xBD5901AE, 0,
                                                   0xBFCB0673, 0, 0x3F93263D, 0, 0x3F5EAF6F, 0 };
static const uint32_t lift4sa_expected[16] = { 0xBF99189C, 0xBCB3F1E8, 0x3ED89EFA, 0x3FAFF6C4, 0xBDB5BDD7, 0xBF819CFF,
                                               0x3F99DBA1, 0x3E9EAC12, 0x3F9114D3, 0x00000000, 0xBF9114D3, 0xBE9EAC14,
                                               0xBFB0E033, 0x3FB96673, 0xBE8B0674, 0xBF800000 };
#endif
