/* A reduction over 64 DPUs in 4 ranks of 16 on 2 threads: each DPU sums its part of one
 * array; the host gathers the partial sums with dpu_push_xfer and checks the total. */
#include <dpu.h>

#include "check_host.h"

#define NR_DPUS 64
#define PART 512

static uint32_t data[NR_DPUS * PART];

int main(void)
{
    struct dpu_set_t set, dpu, rank;
    uint32_t i, nr_ranks, seen_ranks = 0;
    DPU_ASSERT(dpu_alloc(NR_DPUS, "nrDpusPerRank=16,nrThreads=2", &set));
    DPU_ASSERT(dpu_get_nr_ranks(set, &nr_ranks));
    CHECK_EQ(nr_ranks, 4);
    DPU_RANK_FOREACH(set, rank, i) {
        uint32_t n;
        DPU_ASSERT(dpu_get_nr_dpus(rank, &n));
        CHECK_EQ(n, 16);
        CHECK_EQ(i, seen_ranks);
        seen_ranks++;
    }
    CHECK_EQ(seen_ranks, 4);
    DPU_ASSERT(dpu_load(set, REDUCE_BINARY, NULL));
    uint64_t expect = 0;
    for (i = 0; i < NR_DPUS * PART; i++) data[i] = (i * 2654435761u) >> 12, expect += data[i];
    uint32_t n = PART;
    DPU_ASSERT(dpu_broadcast_to(set, "n", 0, &n, sizeof n, DPU_XFER_DEFAULT));
    DPU_FOREACH(set, dpu, i) DPU_ASSERT(dpu_prepare_xfer(dpu, &data[i * PART]));
    DPU_ASSERT(dpu_push_xfer(set, DPU_XFER_TO_DPU, "A", 0, PART * 4, DPU_XFER_DEFAULT));
    DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
    uint32_t sums[NR_DPUS];
    DPU_FOREACH(set, dpu, i) DPU_ASSERT(dpu_prepare_xfer(dpu, &sums[i]));
    DPU_ASSERT(dpu_push_xfer(set, DPU_XFER_FROM_DPU, "sum", 0, 4, DPU_XFER_DEFAULT));
    uint64_t total = 0;
    for (i = 0; i < NR_DPUS; i++) {
        uint32_t part = 0;
        for (uint32_t k = 0; k < PART; k++) part += data[i * PART + k];
        CHECK_EQ(sums[i], part);
        total += sums[i];
    }
    CHECK_EQ(total, expect);
    printf("reduce: %u elements, total %llu\n", NR_DPUS * PART, (unsigned long long)total);
    DPU_ASSERT(dpu_free(set));
    return DONE();
}
