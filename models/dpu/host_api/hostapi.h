/* The inside of isekit's UPMEM host API (models/dpu/include/dpu.h; docs/dpu-host-api.md).
 *
 * An allocation (hapi_ctx) holds ranks; a rank holds DPUs. Every operation on a rank goes
 * through ONE interface, hapi_rank_ops: load, copy, run, log, close. The local backend
 * (rank_local.c) simulates a rank as one isk_system with its DPU instances in this process; a
 * backend for another process (MPI) implements the same five operations by messages. api.c
 * never touches a rank's simulation otherwise. Launches run ranks on a pool of host threads
 * (pool.c): `run` is called on a pool thread, the others on the caller's thread while the
 * rank is not running. */
#ifndef ISEKIT_DPU_HOSTAPI_H
#define ISEKIT_DPU_HOSTAPI_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <dpu.h>
#include <dpu_isekit.h>
#include "isekit/sim.h"
#include "../dpu_host.h"

typedef struct hapi_ctx hapi_ctx;
typedef struct hapi_pool hapi_pool;

struct dpu_program_t {
    dpu_program p;
    uint32_t heap;                 /* MRAM byte offset of DPU_MRAM_HEAP_POINTER_NAME */
    struct dpu_program_t *next;    /* the allocation's programs, freed by dpu_free */
};

struct dpu_t {
    struct dpu_rank_t *rank;
    uint32_t index;                /* in its rank */
    isk_inst *inst;                /* local backend */
    struct dpu_program_t *prog;    /* NULL until loaded */
    void *xfer;                    /* dpu_prepare_xfer's buffer */
    bool boot;                     /* part of the launch being prepared or running */
    bool fault;                    /* its last launch ended in a fault */
};

/* The rank interface. Each returns DPU_OK or an error after writing one message (which rank,
 * which DPU, what) to stderr. */
typedef struct hapi_rank_ops {
    dpu_error_t (*load)(struct dpu_rank_t *r, struct dpu_t *dpu, struct dpu_program_t *prog);
    /* symbol NULL: MRAM by byte offset */
    dpu_error_t (*copy)(struct dpu_rank_t *r, struct dpu_t *dpu, const char *symbol, uint32_t offset, void *buf,
                        size_t len, bool to_dpu);
    /* boot the DPUs with `boot` set and run until they all stopped; *cycles: the clocks it took */
    dpu_error_t (*run)(struct dpu_rank_t *r, uint64_t *cycles);
    /* what the DPU printed (malloc'd); NULL with DPU_ERR_LOG_CONTEXT_MISSING if it cannot print */
    dpu_error_t (*log)(struct dpu_rank_t *r, struct dpu_t *dpu, char **text, size_t *len);
    void (*close)(struct dpu_rank_t *r);
} hapi_rank_ops;

struct dpu_rank_t {
    hapi_ctx *ctx;
    uint32_t index;
    uint32_t nr_dpus;
    struct dpu_t *dpus;
    const hapi_rank_ops *ops;
    void *backend;                 /* the backend's own state */
    int process;                   /* the MPI process simulating it (0: this one) */
    /* under ctx->lock */
    int pending;                   /* launches queued or running */
    dpu_error_t last_error;        /* of the last launch */
};

/* The profile (docs/dpu-host-api.md). */
typedef struct hapi_profile {
    uint32_t nr_dpus_all;          /* nrDpus: what DPU_ALLOCATE_ALL gives */
    uint32_t dpus_per_rank;        /* nrDpusPerRank */
    uint32_t threads;              /* nrThreads */
    uint64_t max_cycles;           /* maxCycles, 0 = no limit */
    bool report;                   /* report=1: print the simulated time at dpu_free */
    double to_gbps, from_gbps;     /* per rank, GB/s */
    double latency_us;             /* per transfer call */
    char params[16][2][64];        /* DPU model parameters */
    int nparams;
} hapi_profile;

struct hapi_ctx {
    isk_model *model;
    hapi_profile prof;
    uint32_t nr_ranks;
    struct dpu_rank_t **ranks;
    struct dpu_program_t *programs;
    hapi_pool *pool;
    pthread_mutex_t lock;
    pthread_cond_t done;           /* a launch or callback finished */
    int callbacks_pending;
    dpu_error_t callback_error;
    struct dpu_isekit_time time;   /* under lock */
    double mhz;
};

/* Print "dpu: " + the message to stderr and return code. */
dpu_error_t hapi_error(dpu_error_t code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The local backend: a rank of n DPUs simulated here. */
dpu_error_t hapi_local_rank_open(hapi_ctx *ctx, struct dpu_rank_t *r);

/* The MPI backend (mpi/rank_mpi.c, only in libdpu-mpi.so): hapi_mpi_start starts MPI at the
 * first dpu_alloc and returns only on process 0; hapi_mpi_rank_open places a rank on a process
 * (the local backend for process 0's). */
#ifdef HAPI_MPI
dpu_error_t hapi_mpi_start(void);
dpu_error_t hapi_mpi_rank_open(hapi_ctx *ctx, struct dpu_rank_t *r);
#define HAPI_RANK_OPEN hapi_mpi_rank_open
#else
#define HAPI_RANK_OPEN hapi_local_rank_open
#endif

/* The pool: n threads running jobs in submission order. */
hapi_pool *hapi_pool_new(uint32_t threads);
void hapi_pool_submit(hapi_pool *p, void (*fn)(void *arg), void *arg);
void hapi_pool_free(hapi_pool *p);

/* The profile: defaults, then "key=value,..." on top. */
dpu_error_t hapi_profile_parse(hapi_profile *prof, const char *text, const isk_model *m);

#endif
