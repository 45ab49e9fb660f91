/* What every instruction shares: registers, the pc, traps and interrupts, memory. */
#ifndef RV32_CORE_H
#define RV32_CORE_H

#include <string.h>

/* Registers as raw cells: the decoder only yields 0..31 for a register field. x0 is written
 * like any register and cleared again, cheaper than a test on every write. */
#define XR(i) (CELLS(X)[(uint32_t)(i)])
#define XW(i, v) do { const uint32_t xw_ = (uint32_t)(v); CELLS(X)[(uint32_t)(i)] = xw_; CELLS(X)[0] = 0; } while (0)
#define CSRV(c) (CELLS(CSR)[(c)])

/* The architectural pc of the engine's PC (a RAM word index), and of the next instruction. */
#define RV_PC ((uint32_t)(RV_RAM_BASE + (uint32_t)PC * 4u))
#define RV_NEXT ((uint32_t)(RV_RAM_BASE + (uint32_t)NEXT_PC * 4u))

static inline uint64_t rv_mip(struct isk_state *S)
{
    uint32_t ip = S->msip ? RV_MSI : 0;
    if (CLOCK - S->mtime_base >= S->mtimecmp) ip |= RV_MTI;
    if (PENDING_LINES) ip |= RV_MEI;
    return ip;
}

/* Re-derive what the instruction frame tests, after anything that changes mstatus.MIE, mie,
 * mtimecmp, mtime or msip. */
static inline void rv_rearm(struct isk_state *S)
{
    const uint32_t mie = CSRV(RV_MIE);
    const bool on = CSRV(RV_MSTATUS) & RV_MSTATUS_MIE;
    S->ext_mask = on && (mie & RV_MEI) ? ~UINT32_C(0) : 0;
    S->irq_at = UINT64_MAX;
    if (on && (mie & RV_MTI)) S->irq_at = S->mtimecmp + S->mtime_base < S->mtimecmp ? UINT64_MAX
                                                                                    : S->mtimecmp + S->mtime_base;
    if (on && (mie & RV_MSI) && S->msip) S->irq_at = 0;
}

static const char *rv_cause_name(uint32_t cause)
{
    switch (cause) {
    case RV_CAUSE_FETCH_MISALIGNED: return "instruction address misaligned";
    case RV_CAUSE_FETCH_FAULT: return "instruction access fault";
    case RV_CAUSE_ILLEGAL: return "illegal instruction";
    case RV_CAUSE_BREAKPOINT: return "breakpoint";
    case RV_CAUSE_LOAD_MISALIGNED: return "load address misaligned";
    case RV_CAUSE_LOAD_FAULT: return "load access fault";
    case RV_CAUSE_STORE_MISALIGNED: return "store/AMO address misaligned";
    case RV_CAUSE_STORE_FAULT: return "store/AMO access fault";
    case RV_CAUSE_ECALL_M: return "environment call from M-mode";
    case RV_INTERRUPT | 3: return "machine software interrupt";
    case RV_INTERRUPT | 7: return "machine timer interrupt";
    case RV_INTERRUPT | 11: return "machine external interrupt";
    default: return "trap";
    }
}

/* Enter the trap handler: mepc = epc, mcause, mtval, MPIE = MIE, MIE = 0, MPP = M, pc = mtvec
 * (vectored: interrupts at base + 4 * cause). Without a vector (mtvec's base 0, the reset value)
 * the trap ends the run with a fault naming it, the pc and mtval. */
static ISK_NOINLINE void rv_trap(struct isk_state *S, uint32_t cause, uint32_t tval, uint32_t epc)
{
    const uint32_t tvec = CSRV(RV_MTVEC), base = tvec & ~3u;
    uint32_t target = base;
    if ((tvec & 3) == 1 && (cause & RV_INTERRUPT)) target += 4 * (cause & 0x7fffffffu);
    if (base == 0 || target - RV_RAM_BASE >= RV_RAM_BYTES)
        FAULT((int)(cause & 0xff), "%s (mcause 0x%x) at pc 0x%08x, mtval 0x%08x, and %s", rv_cause_name(cause),
              (unsigned)cause, (unsigned)epc, (unsigned)tval,
              base == 0 ? "no trap vector (mtvec = 0)" : "mtvec points outside the RAM");
    CSRV(RV_MEPC) = epc;
    CSRV(RV_MCAUSE) = cause;
    CSRV(RV_MTVAL) = tval;
    uint32_t st = CSRV(RV_MSTATUS);
    st = (st & ~(RV_MSTATUS_MPIE | RV_MSTATUS_MIE)) | ((st & RV_MSTATUS_MIE) ? RV_MSTATUS_MPIE : 0) | RV_MSTATUS_MPP;
    CSRV(RV_MSTATUS) = st;
    JUMP((target - RV_RAM_BASE) / 4);
    rv_rearm(S);
}

/* A synchronous exception of the instruction at pc. */
static inline void rv_exception(struct isk_state *S, uint32_t cause, uint32_t tval)
{
    rv_trap(S, cause, tval, RV_PC);
}

/* An enabled pending interrupt, taken between this instruction and the next (mepc = the next
 * one): external before software before timer, as the privileged spec orders them. */
static ISK_NOINLINE void rv_interrupt(struct isk_state *S)
{
    const uint32_t pending = (uint32_t)rv_mip(S) & CSRV(RV_MIE);
    if (!(CSRV(RV_MSTATUS) & RV_MSTATUS_MIE) || !pending) return;
    const uint32_t code = (pending & RV_MEI) ? 11 : (pending & RV_MSI) ? 3 : 7;
    rv_trap(S, RV_INTERRUPT | code, 0, RV_NEXT);
}

/* The frame of every instruction (model.h INSTRUCTION_FRAME): after it, an enabled interrupt
 * that is pending is taken; two compares when none is. */
#define INSTRUCTION_FRAME rv
static inline uint64_t rv_before(struct isk_state *S) { (void)S; return 0; }
static inline void rv_after(struct isk_state *S, uint64_t before)
{
    (void)before;
    if (ISK_UNLIKELY(CLOCK >= S->irq_at || (PENDING_LINES & S->ext_mask)) &&
        CONTEXT_OF(0).state != ISK_CTX_EXITED && CONTEXT_OF(0).state != ISK_CTX_STOPPED)
        rv_interrupt(S);
}

/* Control transfer to a byte address: misaligned (no C extension: not a multiple of 4) or
 * outside the RAM raises the exception at this instruction, as the spec has it for jumps. */
static inline bool rv_jump(struct isk_state *S, uint32_t target)
{
    if (ISK_UNLIKELY(target & 3)) {
        rv_exception(S, RV_CAUSE_FETCH_MISALIGNED, target);
        return false;
    }
    if (ISK_UNLIKELY(target - RV_RAM_BASE >= RV_RAM_BYTES)) {
        rv_exception(S, RV_CAUSE_FETCH_FAULT, target);
        return false;
    }
    JUMP((target - RV_RAM_BASE) / 4);
    return true;
}

/* ---- memory ---------------------------------------------------------------------------------- */

/* Loads and stores outside the RAM: the CLINT (msip, mtimecmp, mtime), the PLIC's pending bits
 * and claim register; anything else goes to the system's bus (storages of other instances a
 * system file maps, docs/rv32.md "Launch commands and the system"), and what is not mapped
 * there faults. This is the one place an address outside the RAM is decided. Accesses are
 * aligned. */
static ISK_NOINLINE bool rv_bus_read(struct isk_state *S, uint32_t addr, unsigned size, uint32_t *v)
{
    const uint64_t mtime = CLOCK - S->mtime_base;
    const uint32_t word = addr & ~3u, shift = (addr & 3) * 8;
    uint32_t w;
    switch (word) {
    case RV_CLINT_MSIP: w = S->msip; break;
    case RV_CLINT_MTIMECMP: w = (uint32_t)S->mtimecmp; break;
    case RV_CLINT_MTIMECMP + 4: w = (uint32_t)(S->mtimecmp >> 32); break;
    case RV_CLINT_MTIME: w = (uint32_t)mtime; break;
    case RV_CLINT_MTIME + 4: w = (uint32_t)(mtime >> 32); break;
    case RV_PLIC_PENDING: w = PENDING_LINES << 1; break;        /* PLIC source n + 1 is line n */
    case RV_PLIC_CLAIM:
        w = 0;
        for (int n = 0; n < 32; n++)
            if (PENDING_LINES & (UINT32_C(1) << n)) {
                ACK_LINE(n);                                     /* claiming acknowledges the line */
                w = (uint32_t)n + 1;
                break;
            }
        break;
    default: {
        uint64_t b;
        if (!BUS_READ(addr, (int)size, &b)) return false;
        *v = (uint32_t)b;
        return true;
    }
    }
    w >>= shift;
    *v = size == 4 ? w : size == 2 ? (w & 0xffff) : (w & 0xff);
    return true;
}

static ISK_NOINLINE bool rv_bus_write(struct isk_state *S, uint32_t addr, unsigned size, uint32_t v)
{
    const uint32_t word = addr & ~3u, shift = (addr & 3) * 8;
    const uint32_t mask = (size == 4 ? ~0u : size == 2 ? 0xffffu : 0xffu) << shift;
    const uint64_t mtime = CLOCK - S->mtime_base;
    v <<= shift;
#define RV_MERGE(old) (((uint32_t)(old) & ~mask) | (v & mask))
    switch (word) {
    case RV_CLINT_MSIP: S->msip = RV_MERGE(S->msip) & 1; break;
    case RV_CLINT_MTIMECMP:
        S->mtimecmp = (S->mtimecmp & ~UINT64_C(0xffffffff)) | RV_MERGE(S->mtimecmp);
        break;
    case RV_CLINT_MTIMECMP + 4:
        S->mtimecmp = (S->mtimecmp & UINT64_C(0xffffffff)) | (uint64_t)RV_MERGE(S->mtimecmp >> 32) << 32;
        break;
    case RV_CLINT_MTIME:
    case RV_CLINT_MTIME + 4: {
        uint64_t t = word == RV_CLINT_MTIME ? (mtime & ~UINT64_C(0xffffffff)) | RV_MERGE(mtime)
                                            : (mtime & UINT64_C(0xffffffff)) | (uint64_t)RV_MERGE(mtime >> 32) << 32;
        S->mtime_base = CLOCK - t;
        break;
    }
    case RV_PLIC_CLAIM: break;                                   /* completion: nothing to do */
    default: return BUS_WRITE(addr, (int)size, v >> shift) != 0;   /* v was shifted above */
    }
#undef RV_MERGE
    rv_rearm(S);
    return true;
}

/* A load of 1, 2 or 4 bytes at addr: false after raising its exception. RAM is one bounds test
 * on the raw cells. */
ISK_INLINE bool rv_load(struct isk_state *S, uint32_t addr, unsigned size, uint32_t *v)
{
    if (ISK_UNLIKELY(addr & (size - 1))) {
        rv_exception(S, RV_CAUSE_LOAD_MISALIGNED, addr);
        return false;
    }
    const uint32_t off = addr - RV_RAM_BASE;
    if (ISK_LIKELY(off < RV_RAM_BYTES)) {
        const uint8_t *p = (const uint8_t *)CELLS(RAM) + off;
        switch (size) {
        case 1: *v = *p; break;
        case 2: { uint16_t t; memcpy(&t, p, 2); *v = t; break; }
        default: memcpy(v, p, 4); break;
        }
    } else if (!rv_bus_read(S, addr, size, v)) {
        rv_exception(S, RV_CAUSE_LOAD_FAULT, addr);
        return false;
    }
    if (ISK_UNLIKELY(S->load_cycles > 1)) BLOCK_FOR(S->load_cycles);
    return true;
}

/* A store: the word changes in place, and if it changed, its decoded instruction (if it was
 * code) is dropped with CODE_CHANGED, one call, no lookup. A store that
 * leaves the word as it was needs nothing: the decode cache depends on the word only. */
ISK_INLINE void rv_store(struct isk_state *S, uint32_t addr, unsigned size, uint32_t v)
{
    if (ISK_UNLIKELY(addr & (size - 1))) {
        rv_exception(S, RV_CAUSE_STORE_MISALIGNED, addr);
        return;
    }
    const uint32_t off = addr - RV_RAM_BASE;
    if (ISK_LIKELY(off < RV_RAM_BYTES)) {
        uint32_t *w = &CELLS(RAM)[off / 4];
        const uint32_t shift = (off & 3) * 8;
        const uint32_t mask = (size == 4 ? ~0u : size == 2 ? 0xffffu : 0xffu) << shift;
        const uint32_t old = *w, now = (old & ~mask) | ((v << shift) & mask);
        if (now != old) {
            *w = now;
            CODE_CHANGED(off / 4);
        }
    } else if (!rv_bus_write(S, addr, size, v)) {
        rv_exception(S, RV_CAUSE_STORE_FAULT, addr);
    }
}

/* A pointer to len bytes of RAM at addr (semihosting's argument blocks and buffers), or NULL. */
static inline uint8_t *rv_ram_span(struct isk_state *S, uint32_t addr, uint32_t len)
{
    const uint32_t off = addr - RV_RAM_BASE;
    if (off >= RV_RAM_BYTES || len > RV_RAM_BYTES - off) return NULL;
    return (uint8_t *)CELLS(RAM) + off;
}

#endif
