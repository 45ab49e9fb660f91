/* The DFU model alone in a system (no PicoBlaze): settings written by name as the BCE's glue
 * would, operations launched as the START port would, and a plain C reference of the seed's
 * address generators and operations to compare with, element by element. */
#ifndef TESTS_EDKDSP_DFU_HARNESS_H
#define TESTS_EDKDSP_DFU_HARNESS_H

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "check.h"
#include "isekit/sim.h"

enum { VCOPY, VADD, VMUL, VMAC, DPROD, VSUB, VMSUBAC };
enum { USE_IDX = 1, STEP_IDXBND = 2 };
enum { MEM_A, MEM_B, MEM_C, MEM_D };

typedef struct ag_setup { int bank, addr, inc, lo, hi, flags; } ag_setup;

typedef struct dfu {
    isk_diag diag;
    isk_model *model;
    isk_system *sys;
    isk_inst *inst;
} dfu;

static const char *const mem_name[4] = { "DMA", "DMB", "DMC", "DMD" };

static inline void dfu_open(dfu *d, const char *const *params)
{
    isk_diag_init(&d->diag);
    d->model = isk_model_load("edkdsp_dfu", &d->diag);
    d->sys = isk_system_new(&(isk_system_options){ .diag = &d->diag });
    d->inst = isk_system_add(d->sys, d->model, "dfu");
    for (int i = 0; params && params[i]; i += 2) CHECK_EQ(isk_set_param(d->inst, params[i], params[i + 1]), ISK_OK);
}

static inline void dfu_close(dfu *d)
{
    isk_system_free(d->sys);
    isk_model_release(d->model);
}

static inline void set_reg(dfu *d, const char *name, unsigned index, int64_t v)
{
    CHECK_EQ(isk_write(d->inst, name, index, v), ISK_OK);
}

static inline int64_t get_reg(dfu *d, const char *name, unsigned index)
{
    int64_t v = 0;
    CHECK_EQ(isk_read(d->inst, name, index, &v), ISK_OK);
    return v;
}

static inline void set_ag(dfu *d, int k, ag_setup s)
{
    set_reg(d, "AG_BANK", (unsigned)k, s.bank);
    set_reg(d, "AG_ADDR", (unsigned)k, s.addr);
    set_reg(d, "AG_INC", (unsigned)k, s.inc);
    set_reg(d, "AG_LO", (unsigned)k, s.lo);
    set_reg(d, "AG_HI", (unsigned)k, s.hi);
    set_reg(d, "AG_FLAGS", (unsigned)k, s.flags);
}

static inline void put_word(dfu *d, int mem, unsigned a, uint32_t w) { set_reg(d, mem_name[mem], a, w); }
static inline uint32_t word_at(dfu *d, int mem, unsigned a) { return (uint32_t)get_reg(d, mem_name[mem], a); }
static inline uint32_t bits_of(float f) { uint32_t w; memcpy(&w, &f, 4); return w; }
static inline float float_of(uint32_t w) { float f; memcpy(&f, &w, 4); return f; }

/* Step until the DFU is idle (or the run stops: then the check fails). */
static inline void wait_idle(dfu *d)
{
    for (int guard = 0; isk_busy_slots(d->inst) && guard < 200000; guard++) {
        isk_status st = isk_step(d->sys, 1);
        CHECK_EQ(st, ISK_OK);
        if (st != ISK_OK) {
            fprintf(stderr, "the DFU stopped: %s\n", isk_last_error(d->sys));
            return;
        }
    }
}

/* Launch op (this clock) and run until the DFU is idle; returns the clocks it took. */
static inline uint64_t run_op(dfu *d, int op, unsigned n, unsigned rep)
{
    set_reg(d, "CNT", 0, n);
    set_reg(d, "REP", 0, rep);
    uint64_t start = isk_clock(d->sys);
    CHECK_EQ(isk_launch(d->sys, d->inst, (uint64_t)op), ISK_OK);
    wait_idle(d);
    return isk_clock(d->sys) - start;
}

/* ---- the reference: dfu.md section 3.2, written out separately from the model ---------------- */

typedef struct ref_ag { long i, inc, lo, hi; int bank, flags; } ref_ag;

static inline bool ref_bound(ref_ag *g)
{
    if (g->inc < 0 && g->i < g->lo) { g->i = g->hi; return true; }
    if (g->inc > 0 && g->i > g->hi) { g->i = g->lo; return true; }
    return false;
}

static inline void ref_advance(ref_ag *m, ref_ag *s)
{
    if (m->flags == 0) {
        m->i += m->inc;
        ref_bound(m);
        return;
    }
    s->i += s->inc;
    bool hit = ref_bound(s);
    if ((m->flags & STEP_IDXBND) && !hit) return;
    m->i += m->inc;
    ref_bound(m);
}

/* the memories of the reference, as words */
typedef struct ref_mem { uint32_t w[4][1024]; } ref_mem;

static inline unsigned ref_addr(const ref_mem *r, const ref_ag *m, const ref_ag *s)
{
    long a = m->i;
    if (m->flags & USE_IDX) a += (long)r->w[s->bank][(unsigned long)s->i & 1023];
    return (unsigned)((unsigned long)a & 1023);
}

static inline ref_ag ref_of(ag_setup s)
{
    return (ref_ag){ s.addr, s.inc, s.lo, s.hi, s.bank, s.flags };
}

/* One operation on the reference memories, fp32 arithmetic with two roundings. */
static inline void ref_run(ref_mem *r, int op, const ag_setup setup[8], unsigned n, unsigned rep)
{
    ref_ag g[8];
    for (int k = 0; k < 8; k++) g[k] = ref_of(setup[k]);
    for (unsigned t = 0; t < rep; t++) {
        float acc = 0.0f;
        for (unsigned e = 0; e < n; e++) {
            float a = float_of(r->w[g[1].bank][ref_addr(r, &g[1], &g[5])]);
            float b = op == VCOPY ? 0 : float_of(r->w[g[2].bank][ref_addr(r, &g[2], &g[6])]);
            float c = op == VMAC || op == VMSUBAC ? float_of(r->w[g[3].bank][ref_addr(r, &g[3], &g[7])]) : 0;
            volatile float p = a * b;           /* rounded on its own, like the DFU's multiplier */
            uint32_t result;
            switch (op) {
            case VCOPY: result = r->w[g[1].bank][ref_addr(r, &g[1], &g[5])]; break;
            case VADD: result = bits_of(a + b); break;
            case VSUB: result = bits_of(a - b); break;
            case VMUL: result = bits_of(p); break;
            case VMAC: result = bits_of(c + p); break;
            case VMSUBAC: result = bits_of(c - p); break;
            default: acc = acc + p; result = bits_of(acc); break;
            }
            if (op != DPROD) {
                r->w[g[0].bank][ref_addr(r, &g[0], &g[4])] = result;
                int used = op == VCOPY ? 2 : (op == VMAC || op == VMSUBAC) ? 4 : 3;
                for (int k = 0; k < used; k++) ref_advance(&g[k], &g[k + 4]);
            } else {
                ref_advance(&g[1], &g[5]);
                ref_advance(&g[2], &g[6]);
                if (e + 1 == n) {
                    r->w[g[0].bank][ref_addr(r, &g[0], &g[4])] = result;
                    ref_advance(&g[0], &g[4]);
                }
            }
        }
    }
}

#endif
