/* Vector add over 64 DPUs: A and B pushed with dpu_prepare_xfer/dpu_push_xfer, n broadcast,
 * a synchronous launch, C pushed back; every element checked. Also the MRAM heap round trip
 * and the simulated time. argv[1]: the profile (the scaling measurement varies nrThreads). */
#include <dpu.h>
#include <dpu_isekit.h>
#include <string.h>

#include "check_host.h"

#define NR_DPUS 64
#define N 1024

static uint32_t A[NR_DPUS][N], B[NR_DPUS][N], C[NR_DPUS][N];

int main(int argc, char **argv)
{
    struct dpu_set_t set, dpu;
    uint32_t i, nr;
    DPU_ASSERT(dpu_alloc(NR_DPUS, argc > 1 ? argv[1] : NULL, &set));
    DPU_ASSERT(dpu_get_nr_dpus(set, &nr));
    CHECK_EQ(nr, NR_DPUS);
    DPU_ASSERT(dpu_load(set, VECADD_BINARY, NULL));
    for (i = 0; i < NR_DPUS; i++)
        for (uint32_t k = 0; k < N; k++) A[i][k] = i * 100000 + k, B[i][k] = 7 * k + i;
    uint32_t n = N;
    DPU_ASSERT(dpu_broadcast_to(set, "n", 0, &n, sizeof n, DPU_XFER_DEFAULT));
    DPU_FOREACH(set, dpu, i) DPU_ASSERT(dpu_prepare_xfer(dpu, A[i]));
    DPU_ASSERT(dpu_push_xfer(set, DPU_XFER_TO_DPU, "A", 0, sizeof A[0], DPU_XFER_DEFAULT));
    DPU_FOREACH(set, dpu, i) DPU_ASSERT(dpu_prepare_xfer(dpu, B[i]));
    DPU_ASSERT(dpu_push_xfer(set, DPU_XFER_TO_DPU, "B", 0, sizeof B[0], DPU_XFER_DEFAULT));
    DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
    DPU_FOREACH(set, dpu, i) DPU_ASSERT(dpu_prepare_xfer(dpu, C[i]));
    DPU_ASSERT(dpu_push_xfer(set, DPU_XFER_FROM_DPU, "C", 0, sizeof C[0], DPU_XFER_DEFAULT));
    int bad = 0;
    for (i = 0; i < NR_DPUS; i++)
        for (uint32_t k = 0; k < N; k++) bad += C[i][k] != A[i][k] + B[i][k];
    CHECK_EQ(bad, 0);
    printf("vecadd: %u elements on %u DPUs, %d wrong\n", NR_DPUS * N, NR_DPUS, bad);

    /* the MRAM heap is past the program's MRAM symbols: a round trip leaves C alone */
    uint64_t heap_in[4] = { 1, 2, 3, 0xfeedfacecafebeefull }, heap_out[4] = { 0 };
    uint32_t c0 = 0;
    DPU_FOREACH(set, dpu, i) {
        if (i != 5) continue;
        DPU_ASSERT(dpu_copy_to(dpu, DPU_MRAM_HEAP_POINTER_NAME, 8, heap_in, sizeof heap_in));
        DPU_ASSERT(dpu_copy_from(dpu, DPU_MRAM_HEAP_POINTER_NAME, 8, heap_out, sizeof heap_out));
        DPU_ASSERT(dpu_copy_from(dpu, "C", 0, &c0, sizeof c0));
    }
    CHECK(memcmp(heap_in, heap_out, sizeof heap_in) == 0);
    CHECK_EQ(c0, A[5][0] + B[5][0]);

    struct dpu_isekit_time t;
    DPU_ASSERT(dpu_isekit_get_time(set, &t));
    CHECK_EQ(t.launches, 1);
    CHECK(t.kernel_cycles > N);
    CHECK_EQ(t.last_kernel_cycles, t.kernel_cycles);
    CHECK_EQ(t.bytes_to_dpus, NR_DPUS * (2 * sizeof A[0] + 4) + sizeof heap_in);
    CHECK_EQ(t.bytes_from_dpus, NR_DPUS * sizeof C[0] + sizeof heap_out + 4);
    CHECK(t.transfer_seconds > 0);
    DPU_ASSERT(dpu_free(set));
    return DONE();
}
