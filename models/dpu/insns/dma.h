/* DMA between MRAM and WRAM/IRAM (semantics.md 11). In cycle mode the issuing thread blocks:
 * timing=prim, the PrIM model (timing.md 5.1): 77 + 0.5 * bytes cycles on reads, 61 + 0.5 *
 * bytes on writes; timing=detailed, until the memory controller (dram.h) has served it.
 *
 *   wram = ra & 0x00fffff8      mram = rb & 0xfffffff8
 *   N    = (1 + ((imm + (ra >> 24)) & 0xff)) * 8 bytes          (8 .. 2048)
 *   ldma: WRAM <- MRAM    sdma: MRAM <- WRAM
 *   ldmai: IRAM <- MRAM; wram / 8 is the first instruction index, 8 bytes per instruction */

enum { DMA_TO_WRAM, DMA_TO_MRAM, DMA_TO_IRAM };

/* The detailed model's cost of a DMA issued now: it crosses the pipeline and the
 * register-file stage, then the memory controller. */
static uint64_t dpu_dma_detailed(struct isk_state *S, uint32_t mram, uint32_t n)
{
    const uint64_t at = dpu_follow_issue(S, S->isk.context, S->isk.pc, CLOCK);
    return dram_access(S, mram, n, at) - CLOCK;
}

static void dpu_dma(struct isk_state *S, int dir, uint32_t ra, uint32_t rb, uint32_t imm)
{
    static const char *const name[] = { "ldma", "sdma", "ldmai" };
    const uint32_t wram = ra & 0x00fffff8, mram = rb & 0xfffffff8;
    const uint32_t n = (1 + ((imm + (ra >> 24)) & 0xff)) << 3;
    if ((uint64_t)mram + n > DPU_MRAM_BYTES)
        FAULT(DPU_FAULT_DMA, "DMA fault: %s of %u bytes at MRAM offset 0x%x is outside the MRAM (0x%x bytes)",
              name[dir], (unsigned)n, (unsigned)mram, (unsigned)DPU_MRAM_BYTES);
    if (dir == DMA_TO_IRAM) {
        const uint32_t first = wram >> 3, count = n >> 3;
        if ((uint64_t)first + count > S->iram_insns)
            FAULT(DPU_FAULT_DMA, "DMA fault: ldmai of %u instructions at IRAM index 0x%x is outside the IRAM "
                  "(%u instructions)", (unsigned)count, (unsigned)first, (unsigned)S->iram_insns);
        for (uint32_t i = 0; i < count; i++) {
            uint64_t w = 0;
            for (int b = 0; b < 6; b++) w |= (uint64_t)GET(MRAM, mram + 8 * i + (uint32_t)b) << (8 * b);
            SET(IRAM, first + i, w);          /* a write to code memory: the decode cache follows */
        }
    } else {
        if ((uint64_t)wram + n > S->wram_bytes)
            FAULT(DPU_FAULT_DMA, "DMA fault: %s of %u bytes at WRAM address 0x%x is outside the WRAM (0x%x bytes)",
                  name[dir], (unsigned)n, (unsigned)wram, (unsigned)S->wram_bytes);
        /* a bulk copy between two byte memories of latency 0, bounds checked above; its source
         * is a read a watchpoint sees */
        if (dir == DMA_TO_WRAM) {
            NOTE_READ(MRAM, mram, n);
            memcpy(CELLS(WRAM) + wram, CELLS(MRAM) + mram, n);
        } else {
            NOTE_READ(WRAM, wram, n);
            memcpy(CELLS(MRAM) + mram, CELLS(WRAM) + wram, n);
        }
    }
    if (dir == DMA_TO_MRAM) DMA_EVENT(name[dir], wram, mram, n);
    else DMA_EVENT(name[dir], mram, dir == DMA_TO_IRAM ? wram >> 3 : wram, n);
    if (dir == DMA_TO_MRAM) S->dma_writes++, S->dma_write_bytes += n;
    else S->dma_reads++, S->dma_read_bytes += n;
    S->thread[S->isk.context].dma_bytes += n;
    if (S->cycle_mode) {
        const uint64_t cost = S->detailed ? dpu_dma_detailed(S, mram, n)
                                          : (uint64_t)(dir == DMA_TO_MRAM ? 61 : 77) + n / 2;
        BLOCK_FOR(cost);
        S->dma_cycles += cost;
        S->thread[S->isk.context].dma_cycles += cost;
    }
}

static inline void op_ldma(struct isk_state *S, uint32_t ra, uint32_t rb, uint32_t imm)
{
    dpu_dma(S, DMA_TO_WRAM, ra, rb, imm);
}
static inline void op_sdma(struct isk_state *S, uint32_t ra, uint32_t rb, uint32_t imm)
{
    dpu_dma(S, DMA_TO_MRAM, ra, rb, imm);
}
static inline void op_ldmai(struct isk_state *S, uint32_t ra, uint32_t rb, uint32_t imm)
{
    dpu_dma(S, DMA_TO_IRAM, ra, rb, imm);
}
