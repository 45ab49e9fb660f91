/* A tile for the IPU tests: the model loaded, one instance, diagnostics captured; code
 * assembled into tile memory; memory and registers read and written by address or name. */
#ifndef ISEKIT_TESTS_IPU_TILE_H
#define ISEKIT_TESTS_IPU_TILE_H

#include "asm/asm.h"
#include "check.h"
#include "isekit/sim.h"

#define TMEM_BASE 0x40000u

typedef struct tile { isk_model *m; isk_system *sys; isk_inst *t; isk_diag d; isk_diag_buffer out; } tile;

/* Assemble `text` and write its words at byte address `at`; returns the number of words
 * (the first `max` also go to `words` when it is not NULL). */
static inline size_t load_code_words(tile *t, const char *text, uint32_t at, uint32_t *words, size_t max)
{
    isk_asm *a = isk_asm_new(t->m, "v.o", NULL, &t->d);
    isk_asm_text(a, "v.s", text, strlen(text));
    isk_obj *o = isk_asm_finish(a);
    isk_asm_free(a);
    CHECK(o != NULL);
    size_t n = 0;
    uint32_t sec = o ? isk_obj_find_section(o, ".text") : 0;
    if (sec) {
        const isk_section *s = &o->secs.data[sec];
        /* written unlinked: a label as an address (a relocation) would stay 0, so the tests
         * write targets as numbers (tests/cli/ipu_reloc.sh links labels) */
        CHECK_EQ(s->relocs.len, 0);
        for (uint64_t off = 0; off + 4 <= s->size; off += 4, n++) {
            uint32_t w = (uint32_t)s->data[off] | (uint32_t)s->data[off + 1] << 8 | (uint32_t)s->data[off + 2] << 16 |
                         (uint32_t)s->data[off + 3] << 24;
            if (words && n < max) words[n] = w;
            CHECK_EQ(isk_write(t->t, "TMEM", (at - TMEM_BASE + off) / 4, w), ISK_OK);
        }
    }
    isk_obj_free(o);
    return n;
}

static inline void load_code(tile *t, const char *text, uint32_t at) { load_code_words(t, text, at, NULL, 0); }

static inline void poke(tile *t, uint32_t addr, uint32_t v) { CHECK_EQ(isk_write(t->t, "TMEM", (addr - TMEM_BASE) / 4, v), ISK_OK); }

static inline int64_t peek(tile *t, const char *name, uint64_t i)
{
    int64_t v = -12345;
    CHECK_EQ(isk_read(t->t, name, i, &v), ISK_OK);
    return v;
}

static inline uint32_t peek_mem(tile *t, uint32_t addr) { return (uint32_t)peek(t, "TMEM", (addr - TMEM_BASE) / 4); }

/* chip: "ipu1", "ipu2" or NULL (the default, ipu2) */
static inline void open_tile_chip(tile *t, const char *chip)
{
    memset(t, 0, sizeof *t);
    isk_diag_init(&t->d);
    isk_diag_capture(&t->d, &t->out);
    t->m = isk_model_load("ipu", &t->d);
    t->sys = isk_system_new(&(isk_system_options){ .diag = &t->d });
    t->t = isk_system_add(t->sys, t->m, "tile");
    if (chip && t->t) CHECK_EQ(isk_set_param(t->t, "chip", chip), ISK_OK);
}

static inline void open_tile(tile *t) { open_tile_chip(t, NULL); }

/* Start the supervisor at 0x4C000 again (run_workers loaded it) for `clocks`. */
static inline void rerun_workers(tile *t, uint64_t clocks)
{
    CHECK_EQ(isk_start(t->t, 0, (0x4C000u - TMEM_BASE) / 4), ISK_OK);
    isk_run(t->sys, clocks);
}

/* A supervisor at 0x4C000 that starts one worker at `entry` (run, in clock 2, with the vertex
 * base 0x80000, region 1) or all six (`all`: runall), waits for them and spins; the run lasts
 * `clocks`. The worker in slot 0 issues its k-th instruction in clock 6k. */
static inline void run_workers(tile *t, uint32_t entry, int all, uint64_t clocks)
{
    char text[256];
    snprintf(text, sizeof text,
             "  setzi $m1, 0x%x\n  setzi $m2, 0x%x\n  %s $m1, $m2, 0\n  sync 2\n  bri 0x4c010\n", entry,
             all ? 0x80000u : 0x80000u - 0x4C000u, all ? "runall" : "run");
    load_code(t, text, 0x4C000u);
    rerun_workers(t, clocks);
}

static inline void close_tile(tile *t)
{
    isk_system_free(t->sys);
    isk_model_release(t->m);
    isk_diag_buffer_free(&t->out);
}

#endif
