/* host_two.c - one host program driving every BCE of a system description:
 *
 *     isekit run edkdsp --system two_bces_host.sys --host host_two.c
 *
 * Each BCE runs fw_seed.psm. The host asks each for its capabilities, gives each its own data
 * and scalar, starts the multiplication (op 0x10) on all of them before collecting any reply, so
 * that the DFUs run at the same time, and checks every result and return code against plain C
 * and that the operations overlapped in time. */
#include <stdio.h>

#include <isekit/edkdsp.h>

#define MY_MULT_OP 0x10
#define ELEMENTS 64
#define MAX_BCES 8

EDK_HOST_MAIN(bce)
{
    (void)argc;
    (void)argv;
    size_t n = edk_bce_count(bce);
    int failures = n < 2 || n > MAX_BCES;
    printf("%zu BCEs\n", n);
    float b[MAX_BCES][2 * ELEMENTS], scalar[MAX_BCES];
    for (size_t k = 0; k < n && k < MAX_BCES; k++) {
        edk_bce *w = edk_bce_at(bce, k);
        uint32_t caps[8];
        int rc = edk_get_capability(w, caps);
        printf("BCE %zu: capabilities rc %d, bitmap word 0 = 0x%08x\n", k, rc, (unsigned)caps[0]);
        failures += rc != EDK_OK || caps[0] != 0x7F;
        for (int i = 0; i < 2 * ELEMENTS; i++) b[k][i] = (float)i * 0.25f - 3.0f + (float)k * 100.0f;
        scalar[k] = 1.5f + (float)k;
        edk_write_dmem_f32(w, EDK_MEM_B, 0x08, b[k], 2 * ELEMENTS);
        edk_write_dmem_f32(w, EDK_MEM_A, 0x000, &scalar[k], 1);
    }
    /* start every BCE, then collect: the host's waits run all of them on the one clock */
    for (size_t k = 0; k < n && k < MAX_BCES; k++) {
        edk_bce *w = edk_bce_at(bce, k);
        failures += edk_mb2pb(w, MY_MULT_OP) != EDK_OK;
        failures += edk_mb2pb(w, ELEMENTS) != EDK_OK;
    }
    uint64_t started[MAX_BCES], ended[MAX_BCES];
    for (size_t k = 0; k < n && k < MAX_BCES; k++) {
        edk_bce *w = edk_bce_at(bce, k);
        uint32_t fw_rc = 0xEE;
        failures += edk_pb2mb(w, &fw_rc) != EDK_OK;
        size_t nlog;
        const edk_dfu_record *log = edk_dfu_log(w, &nlog);
        started[k] = nlog ? log[nlog - 1].started : 0;
        ended[k] = nlog ? log[nlog - 1].started + log[nlog - 1].dfutime : 0;
        printf("BCE %zu: VMUL of %d elements: return code %u, DFU busy in clocks %llu..%llu\n", k, ELEMENTS,
               (unsigned)fw_rc, (unsigned long long)started[k], (unsigned long long)ended[k]);
        failures += fw_rc != 0 || nlog != 1;
        float result[ELEMENTS];
        edk_read_dmem_f32(w, EDK_MEM_A, 0x100, result, ELEMENTS);
        for (int i = 0; i < ELEMENTS; i++) {
            float expected = b[k][2 * i] * scalar[k];
            if (result[i] != expected) {
                printf("BCE %zu: A[0x%03x] = %g, expected %g\n", k, 0x100 + i, result[i], expected);
                failures++;
            }
        }
    }
    /* the operations overlapped: each started before the other ended */
    for (size_t k = 1; k < n && k < MAX_BCES; k++)
        if (!(started[k] < ended[0] && started[0] < ended[k])) {
            printf("BCE %zu's operation did not overlap BCE 0's\n", k);
            failures++;
        }
    printf("%s\n", failures ? "FAILED" : "all results correct");
    return failures != 0;
}
