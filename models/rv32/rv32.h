/* RV32IM + Zicsr, machine mode only: the state (docs/rv32.md).
 *
 * RAM is one code memory of 32-bit words at 0x80000000: instructions are fetched from it (the
 * engine's PC is the word index, the architectural pc is RV_RAM_BASE + 4 * PC) and loads and
 * stores reach its bytes (little endian, like the host that runs isekit: checked below). */
#ifndef ISEKIT_MODEL_RV32_H
#define ISEKIT_MODEL_RV32_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <isekit/model.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the rv32 model reads RAM bytes through its 32-bit cells: a little-endian host is needed"
#endif

#define RV_RAM_BASE 0x80000000u
#define RV_RAM_BYTES (16u << 20)                 /* 16 MiB, as docs/rv32.md says */
#define RV_RAM_WORDS (RV_RAM_BYTES / 4)
/* The CLINT and the PLIC's claim register where qemu's virt machine has them. */
#define RV_CLINT_MSIP 0x02000000u
#define RV_CLINT_MTIMECMP 0x02004000u
#define RV_CLINT_MTIME 0x0200bff8u
#define RV_PLIC_PENDING 0x0c001000u
#define RV_PLIC_CLAIM 0x0c200004u
#define RV_SEMIHOST_FILES 16

/* The CSRs the model keeps in storage (cells of CSR); the counters and mip are computed. */
enum rv_csr_cell { RV_MSTATUS, RV_MISA, RV_MIE, RV_MTVEC, RV_MSCRATCH, RV_MEPC, RV_MCAUSE, RV_MTVAL, RV_MIP,
                   RV_MHARTID, RV_NCSR };

/* mstatus and mie/mip bits */
enum { RV_MSTATUS_MIE = 1u << 3, RV_MSTATUS_MPIE = 1u << 7, RV_MSTATUS_MPP = 3u << 11 };
enum { RV_MSI = 1u << 3, RV_MTI = 1u << 7, RV_MEI = 1u << 11 };

/* mcause values */
enum {
    RV_CAUSE_FETCH_MISALIGNED = 0, RV_CAUSE_FETCH_FAULT = 1, RV_CAUSE_ILLEGAL = 2, RV_CAUSE_BREAKPOINT = 3,
    RV_CAUSE_LOAD_MISALIGNED = 4, RV_CAUSE_LOAD_FAULT = 5, RV_CAUSE_STORE_MISALIGNED = 6,
    RV_CAUSE_STORE_FAULT = 7, RV_CAUSE_ECALL_M = 11,
    RV_INTERRUPT = 0x80000000u
};

STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(32, 0), RV_RAM_WORDS) RAM;
    DECLARE_REGISTERS_FILE(UINT(32, 0), 32) X;              /* x0..x31; x0 is kept 0 */
    DECLARE_REGISTERS_FILE(UINT(32, 0), RV_NCSR) CSR;

    /* ---- configuration (PARAMs, read at reset) ---- */
    uint32_t mul_cycles, div_cycles, load_cycles, branch_cycles;
    uint64_t clock_hz;

    /* ---- timers and interrupts ---- */
    uint64_t mtimecmp;
    uint64_t mtime_base;          /* mtime = CLOCK - mtime_base (a write of mtime moves it) */
    uint64_t cycle_base, instret_base;   /* mcycle/minstret writes */
    uint32_t msip;
    /* What the instruction frame tests after each instruction (rv_rearm keeps them): the clock
     * from which an enabled interrupt is pending (0: now, UINT64_MAX: none by the timer) and the
     * interrupt lines that are enabled (MIE and MEIE: all; else none). */
    uint64_t irq_at;
    uint32_t ext_mask;

    /* ---- semihosting (semihost.h): per instance, no globals ---- */
    FILE *files[RV_SEMIHOST_FILES];
    uint8_t file_kind[RV_SEMIHOST_FILES];  /* 0 free, 1 host file, 2 stdin, 3 stdout, 4 stderr, 5 features */
    uint32_t feature_pos;
    int32_t sh_errno;
STATE_END

#endif
