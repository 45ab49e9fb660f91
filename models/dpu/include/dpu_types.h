/* isekit's UPMEM host API: the types host programs name (dpu.h includes this). */
#ifndef DPU_TYPES_H
#define DPU_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t dpu_id_t;
typedef uint16_t dpu_rank_id_t;
typedef uint8_t dpu_thread_t;
typedef uint32_t wram_addr_t;
typedef uint32_t mram_addr_t;
typedef uint32_t wram_size_t;
typedef uint32_t mram_size_t;
typedef uint32_t dpu_mem_max_addr_t;
typedef uint32_t dpu_mem_max_size_t;
typedef uint64_t dpuinstruction_t;
typedef uint32_t dpuword_t;

#define DPU_BOOT_THREAD 0

/* The name to give dpu_copy_to/from and dpu_push_xfer for the MRAM heap: the copy's offset is
 * then a byte offset from the end of the program's MRAM data. */
#define DPU_MRAM_HEAP_POINTER_NAME "__sys_used_mram_end"

struct dpu_rank_t;   /* a rank of DPUs (opaque) */
struct dpu_t;        /* one DPU (opaque) */
struct dpu_program_t;

typedef enum _dpu_set_kind_t {
    DPU_SET_RANKS,
    DPU_SET_DPU,
} dpu_set_kind_t;

/* A set of DPUs: some ranks (what dpu_alloc gives, and DPU_RANK_FOREACH), or one DPU
 * (DPU_FOREACH). A value: copy it freely; it stays valid until dpu_free. */
struct dpu_set_t {
    dpu_set_kind_t kind;
    union {
        struct {
            uint32_t nr_ranks;
            struct dpu_rank_t **ranks;
        } list;
        struct dpu_t *dpu;
    };
};

/* A symbol of a loaded program: its address as the DPU sees it and its size in bytes. */
struct dpu_symbol_t {
    dpu_mem_max_addr_t address;
    dpu_mem_max_size_t size;
};

struct dpu_incbin_t {
    uint8_t *buffer;
    size_t size;
};

#endif
