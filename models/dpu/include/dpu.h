/* isekit's UPMEM host API (docs/dpu-host-api.md): the functions of the SDK's dpu.h, with the
 * SDK's names, types and macros, so that SDK host programs compile unchanged; the DPUs are
 * simulated by isekit's DPU model. Written for isekit from the documented API. */
#ifndef DPU_H
#define DPU_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <dpu_error.h>
#include <dpu_types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum _dpu_launch_policy_t {
    DPU_ASYNCHRONOUS,      /* return once the DPUs are booted; dpu_sync or dpu_status follow */
    DPU_SYNCHRONOUS,       /* return when every DPU of the set has finished */
} dpu_launch_policy_t;

typedef enum _dpu_xfer_t {
    DPU_XFER_TO_DPU,
    DPU_XFER_FROM_DPU,
} dpu_xfer_t;

typedef enum _dpu_xfer_flags_t {
    DPU_XFER_DEFAULT = 0,          /* transfer, then forget the prepared buffers */
    DPU_XFER_NO_RESET = 1 << 0,    /* keep the prepared buffers for the next push */
    DPU_XFER_ASYNC = 1 << 1,       /* accepted; isekit transfers at once (in order with launches) */
} dpu_xfer_flags_t;

typedef enum _dpu_callback_flags_t {
    DPU_CALLBACK_DEFAULT = 0,
    DPU_CALLBACK_ASYNC = 1 << 0,       /* run on the pool after the set's launches */
    DPU_CALLBACK_NONBLOCKING = 1 << 1, /* with ASYNC: return at once (dpu_sync waits for it) */
    DPU_CALLBACK_SINGLE_CALL = 1 << 2, /* one call for the whole set instead of one per rank */
} dpu_callback_flags_t;

/* Check a call: on an error, print where and dpu_error_to_string, then run on_error. */
#define DPU_CHECK(statement, on_error)                                                                       \
    do {                                                                                                     \
        dpu_error_t dpu_check_status_ = (statement);                                                         \
        if (dpu_check_status_ != DPU_OK) {                                                                   \
            fprintf(stderr, "%s:%d(%s): DPU Error (%s)\n", __FILE__, __LINE__, __func__,                     \
                    dpu_error_to_string(dpu_check_status_));                                                 \
            on_error;                                                                                        \
        }                                                                                                    \
    } while (0)
#define DPU_ASSERT(statement) DPU_CHECK(statement, exit(EXIT_FAILURE))

/* dpu_alloc(DPU_ALLOCATE_ALL, ...): as many DPUs as the profile's `nrDpus` (default: one rank). */
#define DPU_ALLOCATE_ALL (UINT_MAX)

/* ---- allocation -------------------------------------------------------------------------- */

/* Allocate nr_dpus simulated DPUs in ranks of `nrDpusPerRank` (default 64). profile: NULL, or
 * "key=value,key=value" (docs/dpu-host-api.md): unknown keys fail with DPU_ERR_INVALID_PROFILE. */
dpu_error_t dpu_alloc(uint32_t nr_dpus, const char *profile, struct dpu_set_t *dpu_set);
dpu_error_t dpu_alloc_ranks(uint32_t nr_ranks, const char *profile, struct dpu_set_t *dpu_set);
/* Free a set dpu_alloc gave (waiting for its launches first). */
dpu_error_t dpu_free(struct dpu_set_t dpu_set);
dpu_error_t dpu_get_nr_ranks(struct dpu_set_t dpu_set, uint32_t *nr_ranks);
dpu_error_t dpu_get_nr_dpus(struct dpu_set_t dpu_set, uint32_t *nr_dpus);

/* ---- iterating ---------------------------------------------------------------------------- */

struct dpu_set_rank_iterator_t {
    struct dpu_set_t *set;
    uint32_t count;
    uint32_t next_idx;
    bool has_next;
    struct dpu_set_t next;
};
struct dpu_set_dpu_iterator_t {
    struct dpu_set_rank_iterator_t rank_iterator;
    uint32_t count;
    uint32_t next_idx;
    bool has_next;
    struct dpu_set_t next;
};
struct dpu_set_rank_iterator_t dpu_set_rank_iterator_from(struct dpu_set_t *set);
void dpu_set_rank_iterator_next(struct dpu_set_rank_iterator_t *iterator);
struct dpu_set_dpu_iterator_t dpu_set_dpu_iterator_from(struct dpu_set_t *set);
void dpu_set_dpu_iterator_next(struct dpu_set_dpu_iterator_t *iterator);

/* DPU_FOREACH(set, dpu) or DPU_FOREACH(set, dpu, i): every DPU of the set, as a one-DPU set,
 * with its index in the set. DPU_RANK_FOREACH the same over ranks. */
#define DPU_FOREACH_PICK_(a, b, c, name, ...) name
#define DPU_FOREACH(...) DPU_FOREACH_PICK_(__VA_ARGS__, DPU_FOREACH_I_, DPU_FOREACH_X_, ~)(__VA_ARGS__)
#define DPU_RANK_FOREACH(...) DPU_FOREACH_PICK_(__VA_ARGS__, DPU_RANK_FOREACH_I_, DPU_RANK_FOREACH_X_, ~)(__VA_ARGS__)
#define DPU_FOREACH_X_(set, dpu)                                                                             \
    for (struct dpu_set_dpu_iterator_t dpu_it_ = dpu_set_dpu_iterator_from(&(set));                          \
         (dpu) = dpu_it_.next, dpu_it_.has_next; dpu_set_dpu_iterator_next(&dpu_it_))
#define DPU_FOREACH_I_(set, dpu, i)                                                                          \
    for (struct dpu_set_dpu_iterator_t dpu_it_ = dpu_set_dpu_iterator_from(&(set));                          \
         (i) = dpu_it_.count, (dpu) = dpu_it_.next, dpu_it_.has_next; dpu_set_dpu_iterator_next(&dpu_it_))
#define DPU_RANK_FOREACH_X_(set, rank)                                                                       \
    for (struct dpu_set_rank_iterator_t dpu_rank_it_ = dpu_set_rank_iterator_from(&(set));                   \
         (rank) = dpu_rank_it_.next, dpu_rank_it_.has_next; dpu_set_rank_iterator_next(&dpu_rank_it_))
#define DPU_RANK_FOREACH_I_(set, rank, i)                                                                    \
    for (struct dpu_set_rank_iterator_t dpu_rank_it_ = dpu_set_rank_iterator_from(&(set));                   \
         (i) = dpu_rank_it_.count, (rank) = dpu_rank_it_.next, dpu_rank_it_.has_next;                        \
         dpu_set_rank_iterator_next(&dpu_rank_it_))

/* ---- programs ----------------------------------------------------------------------------- */

/* Load a DPU executable (a file, or its bytes in memory) into every DPU of the set; *program
 * (may be NULL) receives the program, valid until dpu_free. */
dpu_error_t dpu_load(struct dpu_set_t dpu_set, const char *binary_path, struct dpu_program_t **program);
dpu_error_t dpu_load_from_memory(struct dpu_set_t dpu_set, uint8_t *buffer, size_t buffer_size,
                                 struct dpu_program_t **program);
dpu_error_t dpu_get_symbol(struct dpu_program_t *program, const char *symbol_name, struct dpu_symbol_t *symbol);

/* ---- running ------------------------------------------------------------------------------ */

dpu_error_t dpu_launch(struct dpu_set_t dpu_set, dpu_launch_policy_t policy);
/* done: no DPU of the set is running; fault: one of them stopped in a fault. Never waits. */
dpu_error_t dpu_status(struct dpu_set_t dpu_set, bool *done, bool *fault);
/* Wait for the set's launches and asynchronous callbacks; DPU_ERR_DPU_FAULT if a DPU faulted. */
dpu_error_t dpu_sync(struct dpu_set_t dpu_set);
/* Call callback(set, rank index, args) for every rank of the set (or once: SINGLE_CALL). */
dpu_error_t dpu_callback(struct dpu_set_t dpu_set, dpu_error_t (*callback)(struct dpu_set_t, uint32_t, void *),
                         void *args, dpu_callback_flags_t flags);

/* ---- memories ----------------------------------------------------------------------------- */

/* Copy to or from a symbol of the loaded program (WRAM or MRAM, by the symbol's address), or
 * the MRAM heap (DPU_MRAM_HEAP_POINTER_NAME), symbol_offset bytes into it, in every DPU of the
 * set (copy_from: a one-DPU set). */
dpu_error_t dpu_copy_to(struct dpu_set_t dpu_set, const char *symbol_name, uint32_t symbol_offset, const void *src,
                        size_t length);
dpu_error_t dpu_copy_from(struct dpu_set_t dpu_set, const char *symbol_name, uint32_t symbol_offset, void *dst,
                          size_t length);
dpu_error_t dpu_broadcast_to(struct dpu_set_t dpu_set, const char *symbol_name, uint32_t symbol_offset,
                             const void *src, size_t length, dpu_xfer_flags_t flags);
/* Give each DPU of the set its own host buffer for the next dpu_push_xfer (NULL clears it). */
dpu_error_t dpu_prepare_xfer(struct dpu_set_t dpu_set, void *buffer);
/* Transfer length bytes between each DPU's prepared buffer and the symbol (DPUs without a
 * buffer are skipped). */
dpu_error_t dpu_push_xfer(struct dpu_set_t dpu_set, dpu_xfer_t xfer, const char *symbol_name, uint32_t symbol_offset,
                          size_t length, dpu_xfer_flags_t flags);

/* ---- the log ------------------------------------------------------------------------------ */

/* Write what the DPU's program printed (printf, puts, putchar) to stream; a one-DPU set. */
dpu_error_t dpu_log_read(struct dpu_set_t set, FILE *stream);

#ifdef __cplusplus
}
#endif

#endif
