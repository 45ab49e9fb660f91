/* The UPMEM DPU: its state, as the model (dpu.c) and host code (loader, `isekit run dpu`, tests)
 * see it. Facts: ../shared/reference/dpu/semantics.md 1, elf-abi.md 2, timing.md.
 *
 * One instance is one DPU. Everything lives in the instance: a process may run thousands.
 * Host code that includes this header gets `struct isk_state`; it must not include another
 * model's state in the same translation unit. */
#ifndef ISEKIT_MODEL_DPU_H
#define ISEKIT_MODEL_DPU_H

#include <stdbool.h>
#include <stdint.h>

#include <isekit/model.h>

/* ---- chip characteristics (v1A is the declared maximum; v1B uses less) -------------------- */
#define DPU_THREADS 24                 /* hardware threads (tasklets): 24 v1A, 16 v1B */
#define DPU_REGS 32                    /* register operand encodings per thread: r0..r23, then constants */
#define DPU_GPRS 24
#define DPU_IRAM_INSNS 4096            /* 48-bit instructions: 4096 v1A, 3968 v1B */
#define DPU_WRAM_BYTES 65536           /* 65536 v1A, 63488 v1B */
#define DPU_MRAM_BYTES (64u << 20)     /* 64 MiB */
#define DPU_ATOMIC_BITS 256            /* 256 v1A, 64 v1B */
#define DPU_REVOLVER 11                /* a thread issues at most once every 11 cycles */

/* Encodings of the constant registers (semantics.md 1). */
enum { DPU_ZERO = 24, DPU_ONE, DPU_LNEG, DPU_MNEG, DPU_ID, DPU_ID2, DPU_ID4, DPU_ID8 };

/* Fault codes of FAULT() (what `isekit run` reports besides thread, PC and cycle). The `fault`
 * instruction reports its own immediate (the runtime's codes, elf-abi.md 11); the hardware
 * exceptions use codes above that range. */
enum {
    DPU_FAULT_MEMORY = 0x100,          /* WRAM access out of range or misaligned; failed stack check */
    DPU_FAULT_DMA = 0x101,             /* DMA range outside WRAM, MRAM or IRAM */
    DPU_FAULT_THREAD = 0x102,          /* boot/resume/clr_run/read_run of a thread the chip lacks */
    DPU_FAULT_UNCERTAIN = 0x103,       /* hash/sats executed with PARAM uncertain=fault */
};

/* Per-thread statistics kept by the model (the engine keeps PC, state and instruction count). */
typedef struct dpu_thread_stats {
    uint64_t dma_cycles;               /* cycles spent blocked on DMA (cycle mode) */
    uint64_t dma_bytes;
} dpu_thread_stats;

/* The detailed timing's parameters (PARAM timing=detailed; dram.h, docs/dpu-timing.md). */
typedef struct dpu_timing {
    uint64_t logic_mhz, mem_mhz;       /* the memory controller runs mem/logic times faster */
    uint64_t t_rcd, t_ras, t_rp, t_cl, t_bl, row_bytes;   /* in memory cycles; the row buffer */
    uint64_t pipeline;                 /* stages before the register-file stage */
} dpu_timing;

/* The memory controller's state (memory cycles) and its counts. */
typedef struct dpu_dram {
    uint64_t row, act_at, io_free, bus_free;
    bool row_open;
    uint64_t commands, activations, precharges;
} dpu_dram;

/* The pipeline and register-file stage of the detailed timing (dram.h): the cycles [from, to)
 * in which the stage's input is held ("frozen"), oldest first, for the instructions still in
 * flight, in a ring indexed by two running counts. */
/* more than pipeline_stages' largest value (60) + 2: pipe_enter asserts the ring never fills */
#define DPU_FREEZES 64
typedef struct dpu_pipe {
    uint64_t from[DPU_FREEZES], to[DPU_FREEZES];
    uint32_t tail, head;               /* the oldest interval kept, one past the newest (mod 64) */
    uint64_t lag;                      /* pipeline_stages - 1 + the frozen cycles of the intervals kept */
    uint64_t stage_free;               /* the first cycle the stage takes the next instruction */
    uint64_t issued_at;                /* 1 + the cycle of the last issue (0: none yet) */
    uint64_t open_at;                  /* the first cycle after it that the pipeline lets issue */
    /* issued_at when that issue entered the pipeline a cycle late, blocking the next cycle
     * (written only then: an older value is a cycle before any asked about; UINT64_MAX after
     * reset, none) */
    uint64_t late_at;
} dpu_pipe;

STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(48, 0), DPU_IRAM_INSNS) IRAM;
    DECLARE_MEMORY(UINT(8, 0), DPU_WRAM_BYTES) WRAM;
    DECLARE_MEMORY(UINT(8, 0), DPU_MRAM_BYTES) MRAM;
    DECLARE_MEMORY(UINT(1, 0), DPU_ATOMIC_BITS) ATOMIC;
    /* The register-file rule's cache (timing=detailed): cells 2i and 2i+1 hold IRAM word i and
     * its GPR reads (bits 0..23) and writes (24..47), bit 63 set once filled. A storage rather
     * than a state array so that the engine maps it on demand: prim-mode DPUs never touch it.
     * Never cleared: an entry is checked against the word, and the registers depend on it alone. */
    DECLARE_MEMORY(UINT(64, 0), 2 * DPU_IRAM_INSNS) RFC;
    /* Thread t's register operand i is R[t * 32 + i]: r0..r23, then zero, one, lneg, mneg, id,
     * id2, id4, id8, written once at reset, so that reading any operand is one access. */
    DECLARE_REGISTERS_FILE(UINT(32, 0), DPU_THREADS * DPU_REGS) R;
    DECLARE_REGISTERS_FILE(UINT(1, 0), DPU_THREADS) ZF;
    DECLARE_REGISTERS_FILE(UINT(1, 0), DPU_THREADS) CF;

    /* ---- configuration (PARAMs, read at reset) ---- */
    int cycle_mode;                    /* 0: functional (as fast as possible), 1: cycle mode */
    int v1b;                           /* chip v1B */
    uint32_t nthreads, wram_bytes, iram_insns, atomic_bits;
    /* wram_bytes - n: the last address an access of n bytes may start at (n 1, 2, 4, 8), one
     * load against an access's address instead of a load and a subtraction */
    uint32_t wram_last[9];
    /* &CELLS(R)[t * DPU_REGS]: thread t's registers, set at reset, so that a behaviour finds its
     * thread's registers in one load (forms.h dpu_rthread). R never moves: a register file is no
     * SHARED_MEMORY (isk_share_storage refuses it), so its cells are bound once, at creation. */
    uint32_t *regs_of[DPU_THREADS];
    int uncertain_fault;               /* fault on instructions without a public definition */
    /* hash and sats have no public definition (semantics.md 6.3, 6.5): replaceable hooks */
    uint32_t (*sats_hook)(uint32_t ra);
    uint32_t (*hash_hook)(uint32_t ra, uint32_t k);

    /* ---- the performance counter (`time`, `time_cfg`) ---- */
    int time_mode;                     /* 1 cycles, 2 instructions, 3 nothing */
    uint64_t time_base, time_origin;

    /* ---- statistics (the engine counts instructions and idle cycles: isk_inst_stats) ---- */
    uint64_t dma_reads, dma_writes, dma_read_bytes, dma_write_bytes, dma_cycles;
    dpu_thread_stats thread[DPU_THREADS];

    /* ---- the detailed timing (timing=detailed in cycle mode; dram.h) ---- */
    int detailed;
    dpu_timing tm;
    dpu_dram dram;
    dpu_pipe pipe;
    uint64_t rf_stall_cycles;          /* issue cycles lost to the register-file stage (dpu_rf_stalls) */
    /* While detailed_run's stretch is open (rf_open), the stalls are rf_base + h->clock -
     * h->issued (each issue's cycle after the previous one's, less one, telescoped), written
     * into rf_stall_cycles when it closes; a fault leaves it open. */
    uint64_t rf_base;
    bool rf_open;
    uint64_t stretch_limit;            /* detailed_stretch's chunk end (the limit at most), while it runs */
    uint64_t rf_stall_in_dma_wait;     /* of those, cycles the engine counts as DMA wait too */
    uint64_t rf_counted_until;         /* detailed_next counted the stalls before this cycle */
    uint64_t prev_writes[DPU_THREADS]; /* GPRs each thread's previous instruction wrote (dram_banks) */
    uint8_t rr_after[DPU_THREADS];     /* the live thread after each in the round robin (detailed) */
    /* &contexts[rr_after[t]] (detailed_changed): one load finds the next context. The engine's
     * contexts never move (allocated with the instance, isk_sched_select) and every run renews
     * rr_after through `changed` before it issues. */
    isk_context *ctx_after[DPU_THREADS];
STATE_END

/* The register-file stall cycles so far, exact after a fault in a stretch too. */
static inline uint64_t dpu_rf_stalls(const struct isk_state *S)
{
    return S->rf_open ? S->rf_base + S->isk.clock - S->isk.issued : S->rf_stall_cycles;
}

#endif
