/* Clocks per second of a whole EdkDSP basic computing element on one host core: the example
 * firmware (models/edkdsp/examples/fw_seed.psm) on a KCPSM3 receives an operation from the host,
 * sets up the address generators and has the DFU multiply 255 elements, polling it until done;
 * the host sends the next one at once. PicoBlaze, DFU and host rendezvous share the clock, as in
 * `isekit run edkdsp`. Prints "<name>: <value> <unit>". */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "isekit/edkdsp.h"

#define ELEMENTS 255

/* One run of `operations` multiplications: clocks per second, or 0 on an error. */
static double run(int operations, uint64_t *clocks)
{
    edk_bce *bce = edk_open(NULL);
    if (!bce) return 0;
    double rate = 0;
    if (edk_set_firmware_file(bce, EDK_SLOT_P0, ISEKIT_SOURCE_DIR "/models/edkdsp/examples/fw_seed.psm") == EDK_OK &&
        edk_start(bce, EDK_SLOT_P0) == EDK_OK) {
        float b[2 * ELEMENTS], scalar = 1.5f;
        for (int i = 0; i < 2 * ELEMENTS; i++) b[i] = (float)i;
        edk_write_dmem_f32(bce, EDK_MEM_B, 0x08, b, 2 * ELEMENTS);
        edk_write_dmem_f32(bce, EDK_MEM_A, 0, &scalar, 1);
        uint64_t start = edk_clock(bce);
        double t0 = bench_now();
        int ok = 1;
        for (int op = 0; op < operations && ok; op++) {
            uint32_t rc = 1;
            ok = edk_mb2pb(bce, 0x10) == EDK_OK && edk_mb2pb(bce, ELEMENTS) == EDK_OK &&
                 edk_pb2mb(bce, &rc) == EDK_OK && rc == 0;
        }
        double dt = bench_now() - t0;
        *clocks = edk_clock(bce) - start;
        if (ok) rate = (double)*clocks / dt;
        else fprintf(stderr, "bench_edkdsp: %s\n", edk_last_error(bce));
    }
    edk_close(bce);
    return rate;
}

int main(int argc, char **argv)
{
    /* bench_edkdsp [operations] */
    int operations = argc > 1 ? atoi(argv[1]) : 400;
    double best = 0;
    uint64_t clocks = 0;
    for (int i = 0; i < 3; i++) {          /* the best of three: the least disturbed */
        double r = run(operations, &clocks);
        if (r == 0) return 1;
        if (r > best) best = r;
    }
    printf("edkdsp BCE, PicoBlaze + DFU VMUL of %d elements: %.1f M clocks/s (%llu clocks per run)\n", ELEMENTS,
           best / 1e6, (unsigned long long)clocks);
    return 0;
}
