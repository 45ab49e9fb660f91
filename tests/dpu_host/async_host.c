/* An asynchronous launch overlaps host work: after dpu_launch(DPU_ASYNCHRONOUS) returns, the
 * host polls dpu_status and does work; it must see the DPUs still running at least once (a
 * synchronous launch could never show that), then dpu_sync, and every DPU finished its count.
 * An asynchronous callback runs once per rank after the launch. */
#include <dpu.h>

#include "check_host.h"

#define NR_DPUS 8
#define ITERS 2000000

static dpu_error_t count_call(struct dpu_set_t rank, uint32_t rank_id, void *arg)
{
    (void)rank;
    (void)rank_id;
    (*(int *)arg)++;
    return DPU_OK;
}

int main(void)
{
    struct dpu_set_t set, dpu;
    DPU_ASSERT(dpu_alloc(NR_DPUS, "nrDpusPerRank=4", &set));
    DPU_ASSERT(dpu_load(set, SPIN_BINARY, NULL));
    uint32_t iters = ITERS;
    DPU_ASSERT(dpu_broadcast_to(set, "iters", 0, &iters, sizeof iters, DPU_XFER_DEFAULT));
    DPU_ASSERT(dpu_launch(set, DPU_ASYNCHRONOUS));
    int calls = 0;
    DPU_ASSERT(dpu_callback(set, count_call, &calls, DPU_CALLBACK_ASYNC | DPU_CALLBACK_NONBLOCKING));
    unsigned long running_seen = 0, host_work = 0;
    bool done = false, fault = false;
    while (!done) {
        DPU_ASSERT(dpu_status(set, &done, &fault));
        if (!done) running_seen++;
        for (int k = 0; k < 1000; k++) host_work += (unsigned long)k;   /* the host's own work */
    }
    DPU_ASSERT(dpu_sync(set));
    CHECK(running_seen > 0);
    CHECK(!fault);
    CHECK_EQ(calls, 2);
    DPU_FOREACH(set, dpu) {
        uint32_t finished = 0;
        DPU_ASSERT(dpu_copy_from(dpu, "finished", 0, &finished, sizeof finished));
        CHECK_EQ(finished, ITERS);
    }
    printf("async: the host polled %lu times while the DPUs ran (work %lu)\n", running_seen, host_work);
    DPU_ASSERT(dpu_free(set));
    return DONE();
}
