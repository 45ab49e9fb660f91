/* isekit's additions to the UPMEM host API (not in the SDK): the simulated time of a set and
 * where its ranks live. */
#ifndef DPU_ISEKIT_H
#define DPU_ISEKIT_H

#include <dpu.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Simulated time since dpu_alloc (docs/dpu-host-api.md, "Simulated time"). */
struct dpu_isekit_time {
    uint32_t launches;              /* dpu_launch calls that finished */
    uint64_t last_kernel_cycles;    /* the last launch: the most cycles any of its DPUs took */
    uint64_t kernel_cycles;         /* the sum of that over the launches */
    double kernel_seconds;          /* kernel_cycles at the chip's clock (350 MHz v1A, 400 MHz v1B) */
    uint64_t bytes_to_dpus, bytes_from_dpus;
    double transfer_seconds;        /* host <-> DPU transfers by the bandwidth model */
    bool cycle_mode;                /* false: functional mode, a cycle is one issued instruction */
};

/* The simulated time of the allocation `dpu_set` belongs to (waits for nothing). */
dpu_error_t dpu_isekit_get_time(struct dpu_set_t dpu_set, struct dpu_isekit_time *time);

/* The MPI process that simulates the set's first rank: 0 with libdpu.so; with libdpu-mpi.so
 * rank r lives on process r % (the number of processes) (docs/dpu-host-api.md, "MPI"). */
dpu_error_t dpu_isekit_get_process(struct dpu_set_t dpu_set, int *process);

#ifdef __cplusplus
}
#endif

#endif
