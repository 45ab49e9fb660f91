/* host_seed.c - a host program for fw_seed.psm:
 *
 *     isekit run edkdsp --firmware fw_seed.psm --host host_seed.c
 *
 * It starts the firmware, asks for the DFU's capabilities (WAL_OP_GETCAP), then has the DFU
 * multiply 16 elements (op 0x10): A[0x100 + i] = B[0x08 + 2i] * A[0], and checks every result
 * and return code against plain C. */
#include <stdio.h>

#include <isekit/edkdsp.h>

#define MY_MULT_OP 0x10
#define ELEMENTS 16

EDK_HOST_MAIN(bce)
{
    (void)argc;
    (void)argv;
    int failures = 0;
    if (edk_start(bce, EDK_SLOT_P0) != EDK_OK) return 1;

    uint32_t caps[8];
    int rc = edk_get_capability(bce, caps);
    printf("capabilities: rc %d, bitmap word 0 = 0x%08x\n", rc, (unsigned)caps[0]);
    failures += rc != EDK_OK || caps[0] != 0x7F;

    float b[2 * ELEMENTS], scalar = 1.5f, result[ELEMENTS];
    for (int i = 0; i < 2 * ELEMENTS; i++) b[i] = (float)i * 0.25f - 3.0f;
    edk_write_dmem_f32(bce, EDK_MEM_B, 0x08, b, 2 * ELEMENTS);
    edk_write_dmem_f32(bce, EDK_MEM_A, 0x000, &scalar, 1);

    uint32_t fw_rc = 0xEE;
    edk_mb2pb(bce, MY_MULT_OP);
    edk_mb2pb(bce, ELEMENTS);
    edk_pb2mb(bce, &fw_rc);
    printf("VMUL of %d elements: return code %u\n", ELEMENTS, (unsigned)fw_rc);
    failures += fw_rc != 0;

    edk_read_dmem_f32(bce, EDK_MEM_A, 0x100, result, ELEMENTS);
    for (int i = 0; i < ELEMENTS; i++) {
        float expected = b[2 * i] * scalar;
        if (result[i] != expected) {
            printf("A[0x%03x] = %g, expected %g\n", 0x100 + i, result[i], expected);
            failures++;
        }
    }
    edk_mb2pb(bce, 0x33);                     /* an op the firmware does not know */
    edk_pb2mb(bce, &fw_rc);
    printf("unknown op: return code 0x%02x\n", (unsigned)fw_rc);
    failures += fw_rc != 0xFF;
    printf("%s\n", failures ? "FAILED" : "all results correct");
    return failures != 0;
}
