/* The IPU tile's state, shared by the description (ipu.c) and the behaviours (insns.h). */
#ifndef ISEKIT_MODEL_IPU_H
#define ISEKIT_MODEL_IPU_H

#include <isekit/model.h>

enum {
    IPU_WORKERS = 6,               /* CTXT_WORKERS */
    IPU_CONTEXTS = 7,              /* the supervisor is context 0, worker n (0..5) context n + 1 */
    IPU_REGS = 16,
    IPU_TMEM_BASE = 0x40000,       /* the lowest tile-memory address of either chip (ipu1 region 0) */
    IPU_TMEM_WORDS = (0xE8000 - 0x40000) / 4,   /* up to the end of ipu2 region 1 */
    IPU_MZERO = 15, IPU_AZERO = 15,
    IPU_MWORKER_BASE = 12, IPU_MVERTEX_BASE = 13,
};

/* The worker CSRs vertices use, as indices of the CSR file (CSR names in ipu.c). */
enum ipu_wcsr { W_WSR, W_VERTEX_BASE, W_WORKER_BASE, W_REPEAT_COUNT, W_REPEAT_FIRST, W_REPEAT_END,
                W_FP_STS, W_FP_CTL, W_TAS, W_PRNG_0_0, W_PRNG_0_1, W_PRNG_1_0, W_PRNG_1_1, W_NCSR };
/* The supervisor's. */
enum ipu_scsr { S_SSR, S_CR, S_TILE_ID, S_FP_ICTL, S_WORKER0_BASE, S_CCCSLOAD = S_WORKER0_BASE + 6, S_CTXT_STS,
                S_NCSR };

/* Attributes of a class in isa_instructions.inc (gen_isa.py): solo = never in a bundle (bit 31
 * clear), the aux pipeline, control flow, system, loads, stores; solo with bit 31 set (sendpicp,
 * whose first word has the co-issue bit although it is no bundle); calls and returns (INSTRUCTION .flow). */
enum { IPU_SOLO = 1, IPU_AUX = 2, IPU_CONTROL = 4, IPU_SYSTEM = 8, IPU_LOAD = 16, IPU_STORE = 32, IPU_SOLO_BIT_SET = 64,
       IPU_CALL = 128, IPU_RETURN = 256 };

/* Exception types ($WSR.ETYPE) and the causes this model raises (architecture.md 5). */
enum { IPU_ET_FP = 5, IPU_ET_CONFLICT = 6, IPU_ET_INVALID_ADDR = 8, IPU_ET_INVALID_OP = 9, IPU_ET_INVALID_INSTR = 12,
       IPU_ET_EXERR = 13 };
enum { IPU_EXC_UNMODELLED = ISK_EXC_MODEL, IPU_EXC_ADDRESS, IPU_EXC_MISALIGNED, IPU_EXC_SOLO, IPU_EXC_RUN,
       IPU_EXC_CONFLICT, IPU_EXC_FP, IPU_EXC_INVALID_OP, IPU_EXC_CSR, IPU_EXC_IN_RPT };
/* trap's breakpoints (ETYPE PBRK0 2, PBRK1 3) and an instruction of another chip (insns_int.h) */
enum { IPU_EXC_PBRK0 = IPU_EXC_IN_RPT + 1, IPU_EXC_PBRK1, IPU_EXC_ILLEGAL };
enum { IPU_ET_PBRK0 = 2, IPU_ET_PBRK1 = 3, IPU_CCCS_SLOTS = 256 };
/* $WSR fields */
enum { IPU_WSR_ETYPE_SHIFT = 4, IPU_WSR_ERPT = 1u << 9 };
/* $CTXT_STS: 2 bits per context (0 inactive, 1 active, 3 excepted) */
enum { IPU_CTXT_INACTIVE = 0, IPU_CTXT_ACTIVE = 1, IPU_CTXT_EXCEPTED = 3 };

STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(32, 0), IPU_TMEM_WORDS) TMEM;
    DECLARE_REGISTERS_FILE(UINT(32, 0), IPU_CONTEXTS * IPU_REGS) M;
    DECLARE_REGISTERS_FILE(FLOAT(32, 0), IPU_WORKERS * IPU_REGS) A;    /* f32 or two f16: shown as f32 */
    DECLARE_REGISTERS_FILE(UINT(32, 0), IPU_WORKERS * W_NCSR) WCSR;
    DECLARE_REGISTERS_FILE(UINT(32, 0), S_NCSR) SCSR;
    DECLARE_REGISTERS_FILE(FLOAT(32, 0), IPU_WORKERS * 16) AACC;   /* f32 accumulators */
    /* $DBG_DATA (one for the tile) and the CCCS slots ld64putcs/ld128putcs write (insns_int.h) */
    DECLARE_REGISTERS_FILE(UINT(32, 0), 1) DBG_DATA;
    DECLARE_REGISTERS_FILE(UINT(32, 0), IPU_CCCS_SLOTS * 2) CCCS;
    /* The simulator's record of each worker's last vertex (not architectural): its exit status
     * (1 success, 0 failure, -1 none yet) and its tile cycles from run/runall to the exit. */
    DECLARE_REGISTERS_FILE(INT(32, 0), IPU_WORKERS) EXIT_STATUS;
    DECLARE_REGISTERS_FILE(UINT(32, 0), IPU_WORKERS) CYCLES;
    int ipu2;                      /* the chip: 0 ipu1 (Mk1 GC2), 1 ipu2 (Mk2 GC200) */
    uint32_t mem_lo, mem_hi;       /* the populated byte addresses [lo, hi) */
    uint32_t owner[IPU_WORKERS];   /* the context holding each barrel slot (0: the supervisor) */
    uint64_t started[IPU_WORKERS]; /* the clock of each worker's run */
STATE_END

#endif
