// fuzz-sources: src/engine/*.c src/base/*.c src/asm/syntax.c
// fuzz-cflags: -DISK_CORO_UCONTEXT=1
// fuzz-seeds: fuzz/model_desc_seeds.c
// fuzz-libs: -ldl -lm -lpthread
/* libFuzzer harness for model descriptions: the input is a model, built in-process through
 * the builder a compiled model calls (MODEL_BEGIN's describe function), so that what is
 * fuzzed is the load-time checking, not the C compiler. Each byte picks from a small menu:
 * storages (kind, width, latency, fraction, count up to 2^62, names and titles that collide,
 * register names), resources, operand kinds, formats with their syntax, priorities and aliases,
 * behaviours, slots or a processor. A model that loads is instantiated (its storage bound is
 * lowered to 64 MiB) and run for at most 300 clocks, launching the input's remaining bytes as
 * words. Beyond "no crash, no sanitizer report, no hang, no huge allocation", it checks that
 * a model that does not load reported why and that a run ends in a known status. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/model_desc.h"    /* isk_model_from_entry: the loader of built-in models */

/* The layout of a storage member (ISK_STORAGE): the engine writes the cell pointer and count. */
typedef struct fz_storage {
    void *v;
    uint64_t n;
    void *shape, *count, *where;
} fz_storage;

#define FZ_STORAGES 8
struct isk_state {
    isk_hdr isk;
    fz_storage st[FZ_STORAGES];
};

/* The input being described (a fuzzer runs one input at a time). */
static const uint8_t *in;
static size_t in_len, in_at;
static int st0_bytes, st0_lat, st0_code;   /* storage 0, which the behaviours use */

static unsigned take(void) { return in_at < in_len ? in[in_at++] : 0; }

static fz_storage *st0(isk_hdr *h) { return &((struct isk_state *)(void *)h)->st[0]; }

/* The behaviours: what model code does to the engine, in the engine's own inline helpers. */
static void b_nop(isk_hdr *h, const int64_t *op) { (void)h, (void)op; }
static void b_clocks(isk_hdr *h, const int64_t *op)
{
    for (int64_t i = 0; i < (op[0] & 7); i++) isk_finish_cycle(h);
}
static void b_use(isk_hdr *h, const int64_t *op)
{
    h->ops->use_resources(h, UINT64_C(1) << (op[0] & 63));
    isk_finish_cycle(h);
    h->ops->use_resources(h, (uint64_t)op[0]);
}
static void b_write(isk_hdr *h, const int64_t *op)
{
    fz_storage *s = st0(h);
    if (!s->v) return;
    uint64_t i = isk_index(h, op[0], s->n, "st0");
    isk_store(h, (char *)s->v + i * (uint64_t)st0_bytes, st0_bytes, op[1], st0_lat, st0_code);
    isk_finish_cycle(h);
    i = isk_index(h, op[1], s->n, "st0");
    isk_store(h, (char *)s->v + i * (uint64_t)st0_bytes, st0_bytes, op[0], st0_lat, st0_code);
}
static void b_read(isk_hdr *h, const int64_t *op)
{
    fz_storage *s = st0(h);
    if (!s->v) return;
    uint64_t i = isk_index(h, op[0], s->n, "st0");
    volatile uint8_t sink = ((uint8_t *)s->v)[i * (uint64_t)st0_bytes];
    (void)sink;
}
static void b_fault(isk_hdr *h, const int64_t *op) { h->ops->fault(h, (int)op[0], "fuzz fault"); }
static void b_irq(isk_hdr *h, const int64_t *op)
{
    (void)op;
    h->ops->interrupt(h, 0);
}
static void b_trace(isk_hdr *h, const int64_t *op)
{
    (void)op;
    h->ops->trace(h, "fuzz");
}

static const isk_behaviour_info behaviours[] = {
    { "Nop", "", 0, b_nop },           { "Clocks", "a", 1, b_clocks }, { "Use", "a", 1, b_use },
    { "Write", "a, b", 2, b_write },   { "Read", "a", 1, b_read },     { "Fault", "a", 1, b_fault },
    { "Irq", "", 0, b_irq },           { "Trace", "", 0, b_trace },    { "Swapped", "b, a", 2, b_write },
};
#define NBEH (sizeof behaviours / sizeof *behaviours)

static const char *const names[] = { "A", "B", "R", "M", "a", "CODE" };
static const char *const titles[] = { NULL, "Memory", "memory", "A", "Registers", "r0", "" };
static const char *const elements[] = { "r0", "R0", "A", "x", "Memory", "" };
static const char *const patterns[] = { "r%u", "R%02x", "%d", "bad", "x%u%u", "%%%u", "r%99u" };
static const char *const kind_tables[] = { "r0..r3=0", "r0..r23=0 zero=24", "d0..d22/2=0", "a=1 a=2", "r3..r0=0",
                                           "", "x=", "..=0", "r0..r999999999=0" };
static const char *const syntaxes[] = { NULL,        "op",          "op {a}",          "op {a:k}, {b:k}", "op {a:k",
                                        "op {zz}",   "op {a:none}", "op {b}, {a:i}",   "{a:k}{a:k}" };
static const uint64_t counts[] = { 1, 2, 4, 16, 256, 4096, 65536, UINT64_C(1) << 24, UINT64_C(1) << 40,
                                   UINT64_C(1) << 62, 0, 3 };
static const uint64_t masks[] = { 1, 2, 4, 8, 3, 0, UINT64_C(1) << 63, 1, 2 };

/* A format of `bits` significant symbols from the menu, sometimes one short or long. */
static void format_text(char *out, size_t cap, int bits)
{
    static const char symbols[] = "0101ab**-";
    unsigned skew = take() % 8;
    int n = bits + (skew == 0 ? -1 : skew == 1 ? 1 : 0);
    size_t at = 0;
    unsigned seed = take();
    for (int i = 0; i < n && at + 1 < cap; i++) {
        unsigned r = (seed + (unsigned)i * 7u + take() % 3u) % (sizeof symbols - 1);
        char c = symbols[r];
        if (c == '-' && at + 2 < cap) out[at++] = '-';
        out[at++] = c == '-' ? '0' : c;
    }
    out[at] = 0;
}

static void describe(isk_builder *B)
{
    char fmt[8][80];
    B->ops->model(B, "fuzz", "a fuzzed model");
    int word = (int)(take() % 72);
    B->ops->word_bits(B, word);
    if (word < 8 || word > 64) word = 8 + word % 57;
    unsigned shape = take();
    if (shape & 1) B->ops->slots(B, (int)(take() % 6));
    int nst = (int)(take() % (FZ_STORAGES + 1));
    for (int i = 0; i < nst; i++) {
        unsigned k = take(), w = take(), c = take();
        int width = (int)(w % 66);
        isk_storage_decl d = {
            .name = names[take() % (sizeof names / sizeof *names)],
            .title = titles[take() % (sizeof titles / sizeof *titles)],
            .kind = (int)(k % 5), .sign = (int)((k >> 3) & 1), .width = width,
            .latency = (int)((k >> 4) % 3 == 2 ? 64 : (k >> 4) % 3), .frac = (int)(c >> 6),
            .cell_bytes = width <= 8 ? 1 : width <= 16 ? 2 : width <= 32 ? 4 : 8,
            .count = counts[c % (sizeof counts / sizeof *counts)],
            .offset = offsetof(struct isk_state, st) + (size_t)i * sizeof(fz_storage),
            .seq = i + 1, .line = 100 + i,
        };
        if ((k & 0xe0) == 0xe0) d.offset += 4;      /* a misplaced member */
        if (i == 0) {
            st0_bytes = d.cell_bytes;
            st0_lat = d.latency;
            st0_code = d.kind == ISK_CODE_MEMORY;
        }
        B->ops->line(B, 10 + i);
        B->ops->storage(B, &d);
        for (unsigned e = take() % 4; e > 0; e--) {
            unsigned x = take();
            if (x & 1) B->ops->elements(B, patterns[(x >> 1) % (sizeof patterns / sizeof *patterns)]);
            else B->ops->element(B, (x >> 1) % 6, elements[(x >> 4) % (sizeof elements / sizeof *elements)]);
        }
        if (take() & 1) B->ops->end_group(B);
    }
    for (unsigned r = take() % 4; r > 0; r--) B->ops->resource(B, masks[take() % (sizeof masks / sizeof *masks)], "res");
    for (unsigned n = take() % 3; n > 0; n--) {
        unsigned t = take();
        isk_kind_decl k = { .name = t & 1 ? "k" : "i", .type = (int)(t >> 1) % 5,
                            .names = kind_tables[(t >> 4) % (sizeof kind_tables / sizeof *kind_tables)],
                            .scale = (int)(take() % 4), .min = (int8_t)take(), .max = (int8_t)take() };
        B->ops->kind(B, &k);
    }
    int ninsn = (int)(take() % 9);
    for (int i = 0; i < ninsn; i++) {
        format_text(fmt[i], sizeof fmt[i], word);
        unsigned o = take();
        isk_insn_decl d = { .format = fmt[i], .behaviour = &behaviours[o % NBEH],
                            .syntax = syntaxes[take() % (sizeof syntaxes / sizeof *syntaxes)],
                            .priority = (int)((o >> 4) & 1), .alias = (o >> 5) == 7,
                            .fields = (o >> 5) == 6 ? "a:s<<1" : NULL };
        B->ops->line(B, 50 + i);
        B->ops->instruction(B, &d);
    }
    if (shape & 2) {
        unsigned p = take();
        B->ops->processor(B, &(isk_processor_decl){ .code = p & 1 ? "CODE" : "A", .contexts = (int)(p >> 1) % 5,
                                                    .issue = (int)(p >> 4) % 4, .cpi = 1, .distance = 2 });
    }
}

static void discard(void *user, isk_severity sev, const char *msg)
{
    (void)user, (void)sev, (void)msg;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    setenv("ISEKIT_MAX_STORAGE", "64M", 1);   /* well under -rss_limit_mb, even if every cell is touched */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    in = data;
    in_len = size;
    /* The first byte: how many storages the state "declares" (the description may name others). */
    int declared = size ? data[0] % (FZ_STORAGES + 1) : 0;
    in_at = 1;
    st0_bytes = 1;
    st0_lat = st0_code = 0;
    isk_diag d;
    isk_diag_init(&d);
    d.emit = discard;
    d.max_errors = 64;
    struct isk_model_entry e = { ISK_ABI_VERSION, "fuzz", sizeof(struct isk_state), describe, "fuzz.c", "fuzz.c", 1,
                                 declared };
    isk_model *m = isk_model_from_entry(&e, "fuzz", &d);
    if (!m && !d.errors) abort();
    if (!m) return 0;
    isk_system_options so = { .diag = &d };
    isk_system *sys = isk_system_new(&so);
    isk_inst *inst = isk_system_add(sys, m, "fz");
    if (inst && isk_model_slots(m) > 0 && isk_attach(sys, inst, 0) == ISK_OK) {
        for (int i = 0; i < 16 && in_at < in_len; i++) {
            uint64_t w = take() | (uint64_t)take() << 8;
            if (isk_launch(sys, inst, w) != ISK_OK) break;
            if (isk_step(sys, 1 + take() % 4) == ISK_FAULT) break;
        }
    }
    if (inst) {
        isk_status st = isk_run(sys, 300);
        if (st != ISK_OK && st != ISK_STOPPED && st != ISK_FAULT && st != ISK_CONFLICT && st != ISK_FAILED) abort();
    }
    isk_system_free(sys);
    isk_model_release(m);
    return 0;
}
