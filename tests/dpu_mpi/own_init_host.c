/* A host program that starts and finalises MPI itself (docs/dpu-host-api.md, "MPI"): the
 * library uses that MPI, and the servers are let go at the program's MPI_Finalize, so the run
 * ends (run.sh bounds it) and prints after the finalisation. */
#include <dpu.h>
#include <mpi.h>

#include "../dpu_host/check_host.h"

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    struct dpu_set_t set, dpu;
    uint32_t i;
    DPU_ASSERT(dpu_alloc(16, "nrDpusPerRank=4", &set));
    DPU_ASSERT(dpu_load(set, HELLO_BINARY, NULL));
    DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
    DPU_FOREACH(set, dpu, i)
        if (i == 15) DPU_ASSERT(dpu_log_read(dpu, stdout));
    DPU_ASSERT(dpu_free(set));
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Finalize();
    printf("finalized by the program, %d processes\n", size);
    return DONE();
}
