/* Zicsr and the machine-mode system instructions (privileged spec, chapter 3): the CSRs,
 * ecall, ebreak (or a semihosting call), mret and wfi. */

/* A CSR's value: false if the model has no such CSR (an illegal instruction). */
static bool rv_csr_read(struct isk_state *S, uint32_t csr, uint32_t *v)
{
    const uint64_t cycle = CLOCK - S->cycle_base, instret = INSTRUCTIONS_ISSUED - S->instret_base;
    const uint64_t time = CLOCK - S->mtime_base;
    switch (csr) {
    case 0x300: *v = CSRV(RV_MSTATUS); return true;
    case 0x301: *v = CSRV(RV_MISA); return true;
    case 0x304: *v = CSRV(RV_MIE); return true;
    case 0x305: *v = CSRV(RV_MTVEC); return true;
    case 0x340: *v = CSRV(RV_MSCRATCH); return true;
    case 0x341: *v = CSRV(RV_MEPC); return true;
    case 0x342: *v = CSRV(RV_MCAUSE); return true;
    case 0x343: *v = CSRV(RV_MTVAL); return true;
    case 0x344: *v = CSRV(RV_MIP) = (uint32_t)rv_mip(S); return true;
    case 0xF11: case 0xF12: case 0xF13: *v = 0; return true;     /* mvendorid, marchid, mimpid */
    case 0xF14: *v = CSRV(RV_MHARTID); return true;
    case 0xB00: case 0xC00: *v = (uint32_t)cycle; return true;    /* mcycle, cycle */
    case 0xB80: case 0xC80: *v = (uint32_t)(cycle >> 32); return true;
    case 0xB02: case 0xC02: *v = (uint32_t)instret; return true;  /* minstret, instret */
    case 0xB82: case 0xC82: *v = (uint32_t)(instret >> 32); return true;
    case 0xC01: *v = (uint32_t)time; return true;                 /* time: the CLINT's mtime */
    case 0xC81: *v = (uint32_t)(time >> 32); return true;
    default: return false;
    }
}

/* Write a (writable, existing) CSR, keeping the WARL fields legal. */
static void rv_csr_write(struct isk_state *S, uint32_t csr, uint32_t v)
{
    const uint64_t cycle = CLOCK - S->cycle_base, instret = INSTRUCTIONS_ISSUED + 1 - S->instret_base;
    switch (csr) {
    case 0x300: CSRV(RV_MSTATUS) = (v & (RV_MSTATUS_MIE | RV_MSTATUS_MPIE)) | RV_MSTATUS_MPP; break;
    case 0x304: CSRV(RV_MIE) = v & (RV_MSI | RV_MTI | RV_MEI); break;
    case 0x305: CSRV(RV_MTVEC) = (v & 1) ? (v & ~3u) | 1 : v & ~3u; break;   /* direct or vectored */
    case 0x340: CSRV(RV_MSCRATCH) = v; break;
    case 0x341: CSRV(RV_MEPC) = v & ~3u; break;
    case 0x342: CSRV(RV_MCAUSE) = v; break;
    case 0x343: CSRV(RV_MTVAL) = v; break;
    /* the counters: the next instruction reads the value written (this one is not counted) */
    case 0xB00: S->cycle_base = CLOCK - ((cycle & ~UINT64_C(0xffffffff)) | v); break;
    case 0xB80: S->cycle_base = CLOCK - ((cycle & UINT64_C(0xffffffff)) | (uint64_t)v << 32); break;
    case 0xB02: S->instret_base = INSTRUCTIONS_ISSUED + 1 - ((instret & ~UINT64_C(0xffffffff)) | v); break;
    case 0xB82: S->instret_base = INSTRUCTIONS_ISSUED + 1 - ((instret & UINT64_C(0xffffffff)) | (uint64_t)v << 32); break;
    default: break;                               /* misa, mip: WARL, the writable bits are none */
    }
    rv_rearm(S);
}

/* csrrw/csrrs/csrrc and their immediate forms. `writes` is false for csrrs/csrrc whose source
 * is x0 or 0: they do not write, so they may read a read-only CSR. CSRs 0xC00 and up (bits
 * 11:10 = 3) are read-only; an unknown CSR or a write to a read-only one is an illegal
 * instruction (mtval = the instruction word). */
enum { RV_CSR_W, RV_CSR_S, RV_CSR_C };
static inline void rv_csr(struct isk_state *S, int64_t csr, int how, uint32_t src, bool writes, int64_t rd)
{
    uint32_t old;
    if (!rv_csr_read(S, (uint32_t)csr, &old) || (writes && ((uint32_t)csr >> 10) == 3)) {
        rv_exception(S, RV_CAUSE_ILLEGAL, CELLS(RAM)[PC]);
        return;
    }
    if (writes) rv_csr_write(S, (uint32_t)csr, how == RV_CSR_W ? src : how == RV_CSR_S ? old | src : old & ~src);
    XW(rd, old);
}
BEHAVIOUR(csrrw, csr, rs1, rd) { rv_csr(S, csr, RV_CSR_W, XR(rs1), true, rd); }
BEHAVIOUR(csrrs, csr, rs1, rd) { rv_csr(S, csr, RV_CSR_S, XR(rs1), rs1 != 0, rd); }
BEHAVIOUR(csrrc, csr, rs1, rd) { rv_csr(S, csr, RV_CSR_C, XR(rs1), rs1 != 0, rd); }
BEHAVIOUR(csrrwi, csr, uimm, rd) { rv_csr(S, csr, RV_CSR_W, (uint32_t)uimm, true, rd); }
BEHAVIOUR(csrrsi, csr, uimm, rd) { rv_csr(S, csr, RV_CSR_S, (uint32_t)uimm, uimm != 0, rd); }
BEHAVIOUR(csrrci, csr, uimm, rd) { rv_csr(S, csr, RV_CSR_C, (uint32_t)uimm, uimm != 0, rd); }

BEHAVIOUR(ecall) { rv_exception(S, RV_CAUSE_ECALL_M, 0); }

/* ebreak between `slli zero, zero, 0x1f` and `srai zero, zero, 7` is a semihosting call
 * (semihost.h); alone it is the breakpoint exception (mtval = its pc). */
enum { RV_SEMIHOST_ENTRY = 0x01f01013u, RV_SEMIHOST_EXIT = 0x40705013u };
BEHAVIOUR(ebreak)
{
    if (PC > 0 && PC + 1 < RV_RAM_WORDS && CELLS(RAM)[PC - 1] == RV_SEMIHOST_ENTRY &&
        CELLS(RAM)[PC + 1] == RV_SEMIHOST_EXIT) {
        rv_semihost(S);
        return;
    }
    rv_exception(S, RV_CAUSE_BREAKPOINT, RV_PC);
}

/* mret: pc = mepc, MIE = MPIE, MPIE = 1, MPP stays M (the only mode). */
BEHAVIOUR(mret)
{
    const uint32_t st = CSRV(RV_MSTATUS);
    CSRV(RV_MSTATUS) = (st & ~RV_MSTATUS_MIE) | ((st & RV_MSTATUS_MPIE) ? RV_MSTATUS_MIE : 0) | RV_MSTATUS_MPIE;
    rv_jump(S, CSRV(RV_MEPC));
    rv_rearm(S);
}

/* wfi: the hart waits until an interrupt enabled in mie is pending (whatever mstatus.MIE says;
 * with MIE set the trap is then taken after the wfi). It waits by sleeping until an interrupt
 * line when only MEIE can wake it, by blocking until mtimecmp when only MTIE can, and by
 * looking again each clock when both can. The waiting wfi issues again when it wakes, which
 * minstret does not count. With nothing enabled that can wake it the run ends with a fault. */
BEHAVIOUR(wfi)
{
    const uint32_t mie = CSRV(RV_MIE);
    if (rv_mip(S) & mie) return;
    const bool lines = mie & RV_MEI;
    const bool timer = (mie & RV_MTI) && S->mtimecmp <= UINT64_MAX - S->mtime_base;   /* it comes some day */
    if (!lines && !timer)
        FAULT(RV_CAUSE_ILLEGAL, "wfi at pc 0x%08x would sleep for ever: no interrupt that can wake it is enabled "
              "in mie (0x%x; a timer needs MTIE and a reachable mtimecmp, an interrupt line MEIE)", (unsigned)RV_PC,
              (unsigned)mie);
    JUMP(PC);
    S->instret_base++;
    const uint64_t deadline = S->mtimecmp + S->mtime_base;
    if (timer && !lines) BLOCK_FOR(deadline > CLOCK ? deadline - CLOCK : 1);
    else if (lines && !timer) {
        WAKE_ON_LINES(0, ~UINT32_C(0));
        SLEEP_CONTEXT(0);
    } else BLOCK_FOR(1);
}
