/* The DFU's address generators (the seed's Algorithms 2-5, as restated in dfu.md section 3.2).
 *
 * Each of the four main generators k (virtual vectors M0..M3) has a slave k+4. A generator holds
 * an index i, an increment I (signed 16 bit), bounds L and U and, on a main generator, the mode
 * flags USE_IDX and STEP_IDXBND. After each element:
 *
 *   mode 0                 i0 += I0, then the bound rule
 *   any flag set           the slave steps: i4 += I4, then its bound rule; it "hits" if it wrapped
 *     STEP_IDXBND          the main generator steps only when the slave hit
 *     otherwise            the main generator steps as in mode 0
 *   bound rule             I < 0 and i < L: i = U;  I > 0 and i > U: i = L  (no overshoot kept)
 *
 * The address of an element is i0, plus, with USE_IDX, the slave's data word M4[i4] read as an
 * index (the offset is not accumulated into i0). Indices start at the generators' start
 * addresses O once per operation, not once per repetition. Arithmetic is done in 32 bits, so
 * negative increments below 0 are seen as such before the bound test. */
#ifndef DFU_AG_H
#define DFU_AG_H

#include <stdbool.h>
#include <stdint.h>

enum { DFU_AGFL_USE_IDX = 1, DFU_AGFL_STEP_IDXBND = 2 };

typedef struct dfu_ag {
    int32_t i;               /* the running index */
    int32_t inc, lo, hi;     /* I, L, U */
    unsigned bank;           /* the physical memory (0 = A .. 3 = D) of its virtual vector */
    unsigned flags;          /* main generators: DFU_AGFL_* */
} dfu_ag;

/* The bound rule after an increment; true if the index wrapped. */
static inline bool dfu_ag_wrap(dfu_ag *g)
{
    if (g->inc < 0 && g->i < g->lo) {
        g->i = g->hi;
        return true;
    }
    if (g->inc > 0 && g->i > g->hi) {
        g->i = g->lo;
        return true;
    }
    return false;
}

static inline bool dfu_ag_step(dfu_ag *g)
{
    g->i += g->inc;
    return dfu_ag_wrap(g);
}

/* Advance main generator `main` and its slave after one element. */
static inline void dfu_ag_advance(dfu_ag *main, dfu_ag *slave)
{
    if (!main->flags) {
        dfu_ag_step(main);
        return;
    }
    bool hit = dfu_ag_step(slave);
    if (!(main->flags & DFU_AGFL_STEP_IDXBND) || hit) dfu_ag_step(main);
}

#endif
