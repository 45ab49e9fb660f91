/* The host API over MPI (docs/dpu-host-api.md, "MPI"): 64 DPUs in 8 ranks of 8, started with
 * `mpirun -np P`, argv[1] = P. Each rank must live on process (rank index) % P; a DPU of the
 * last rank (remote when P > 1) prints Hello World! through dpu_log_read; a fault on a remote
 * DPU comes back as DPU_ERR_DPU_FAULT with the server's message (checked by run.sh). */
#include <dpu.h>
#include <dpu_isekit.h>
#include <stdlib.h>

#include "../dpu_host/check_host.h"

int main(int argc, char **argv)
{
    int procs = argc > 1 ? atoi(argv[1]) : 1;
    struct dpu_set_t set, rank, dpu;
    uint32_t r, i;
    DPU_ASSERT(dpu_alloc(64, "nrDpusPerRank=8", &set));
    DPU_RANK_FOREACH(set, rank, r) {
        int p = -1;
        DPU_ASSERT(dpu_isekit_get_process(rank, &p));
        CHECK_EQ(p, (int)(r % (uint32_t)procs));
        printf("rank %u on process %d\n", (unsigned)r, p);
    }
    /* hello world on every DPU; the log of the last one */
    DPU_ASSERT(dpu_load(set, HELLO_BINARY, NULL));
    DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
    DPU_FOREACH(set, dpu, i) {
        if (i != 63) continue;
        int p = -1;
        DPU_ASSERT(dpu_isekit_get_process(dpu, &p));
        CHECK_EQ(p, (int)(7 % (uint32_t)procs));
        DPU_ASSERT(dpu_log_read(dpu, stdout));
    }
    /* a fault on DPU 3 of rank 7 */
    DPU_FOREACH(set, dpu, i)
        if (i == 7 * 8 + 3) DPU_ASSERT(dpu_load(dpu, FAULT_BINARY, NULL));
    CHECK_EQ(dpu_launch(set, DPU_SYNCHRONOUS), DPU_ERR_DPU_FAULT);
    bool done = false, fault = false;
    DPU_RANK_FOREACH(set, rank, r) {
        DPU_ASSERT(dpu_status(rank, &done, &fault));
        CHECK(done);
        CHECK_EQ(fault, r == 7);
    }
    DPU_ASSERT(dpu_free(set));
    return DONE();
}
