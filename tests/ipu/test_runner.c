/* The vertex runner (isekit/ipu_vertex.h) and `call`:
 *   - call links the next instruction's address (after a bundle when bundled) and jumps; a
 *     target with bit 19 set raises INVALID_ADDR;
 *   - a Vertex on one worker, a MultiVertex on six workers with unequal slices (the vertex's
 *     cycles are the longest worker's), a SupervisorVertex (state in $m0, returns with br $lr),
 *     on both chips;
 *   - the layout of every field kind, read back by a vertex that copies its own state;
 *   - exceptions: a worker's misaligned load reported with context, address and cause;
 *   - tensor files: .npy, CSV and raw written and read back, f16 rounding, bad files;
 *   - the description's errors at file:line:column. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tile.h"
#include "isekit/ipu_vertex.h"

/* ---- call ------------------------------------------------------------------------------------ */

static void test_call(void)
{
    tile t;
    open_tile(&t);
    if (!t.t) return close_tile(&t);
    /* the supervisor: call 0x4c100, which returns with br $m3 */
    load_code(&t, "  call $m3, 0x4c100\n  bri 0x4c004\n", 0x4C000u);
    load_code(&t, "  setzi $m5, 7\n  br $m3\n", 0x4C100u);
    CHECK_EQ(isk_start(t.t, 0, (0x4C000u - TMEM_BASE) / 4), ISK_OK);
    isk_run(t.sys, 20);
    CHECK_EQ(peek(&t, "$m3", 0), 0x4C004);
    CHECK_EQ(peek(&t, "$m5", 0), 7);
    CHECK_EQ(isk_context_of(t.t, 0)->pc, (0x4C004u - TMEM_BASE) / 4);
    CHECK(t.d.errors == 0);
    close_tile(&t);

    /* a worker: a solo call and a bundled one (its link is past the bundle) */
    open_tile(&t);
    if (!t.t) return close_tile(&t);
    load_code(&t,
              "  call $m3, 0x4c100\n"                 /* 0x4c040 */
              "  { call $m4, 0x4c108 ; fnop }\n"      /* 0x4c044, 0x4c048 */
              "  exitz $m5\n",                       /* 0x4c04c */
              0x4C040u);
    load_code(&t, "  br $m3\n", 0x4C100u);
    load_code(&t, "  setzi $m5, 0\n  br $m4\n", 0x4C108u);
    run_workers(&t, 0x4C040u, 0, 200);
    CHECK_EQ(peek(&t, "w0.$m3", 0), 0x4C044);
    CHECK_EQ(peek(&t, "w0.$m4", 0), 0x4C04C);
    CHECK_EQ(peek(&t, "w0.exit_status", 0), 1);
    CHECK_EQ(peek(&t, "w0.cycles", 0), 4 + 6 * 5);       /* the exit is the sixth issue: a call is one */
    CHECK(t.d.errors == 0);
    close_tile(&t);

    /* bit 19 of the target field: above the 21-bit space, INVALID_ADDR; the link is not written */
    open_tile(&t);
    if (!t.t) return close_tile(&t);
    load_code(&t, "  setzi $m3, 5\n", 0x4C000u);
    poke(&t, 0x4C004u, 0x18000000u | 3u << 20 | 0x80000u | (0x4C100u >> 2));
    CHECK_EQ(isk_start(t.t, 0, (0x4C000u - TMEM_BASE) / 4), ISK_OK);
    isk_run(t.sys, 20);
    CHECK_EQ(peek(&t, "$SSR", 0) >> 4 & 0xF, 8);
    CHECK_EQ(peek(&t, "$m3", 0), 5);
    CHECK_CONTAINS(t.out.text ? t.out.text : "", "call at 0x");
    close_tile(&t);
}

/* ---- the runner ------------------------------------------------------------------------------ */

typedef struct rig { isk_diag d; isk_diag_buffer out; isk_model *m; } rig;

static void rig_open(rig *g)
{
    memset(g, 0, sizeof *g);
    isk_diag_init(&g->d);
    isk_diag_capture(&g->d, &g->out);
    g->m = isk_model_load("ipu", &g->d);
    CHECK(g->m != NULL);
}

static void rig_close(rig *g)
{
    isk_model_release(g->m);
    isk_diag_buffer_free(&g->out);
}

static const char *said(const rig *g) { return g->out.text ? g->out.text : ""; }

static ipu_state_desc *parse(rig *g, const char *text)
{
    return ipu_state_parse("state.toml", text, strlen(text), &g->d);
}

static uint32_t u32_at(const ipu_tensor *t, uint64_t i) { return (uint32_t)ipu_tensor_value(t->type, t->data, i); }

/* out[i] = a[i] + b[i], worker w taking elements w, w + 6, ... (models/ipu/examples/vector_add.S
 * without the Poplar header) */
static const char vector_add[] =
    "  .globl __runCodelet_Add\n  .type __runCodelet_Add, @function\n__runCodelet_Add:\n"
    "  get $m0, 1\n  and $m0, $m0, 7\n"
    "  ld32 $m1, $mvertex_base, $mzero, 0\n  ld32 $m2, $mvertex_base, $mzero, 1\n"
    "  ld32 $m3, $mvertex_base, $mzero, 2\n  ld32 $m4, $mvertex_base, $mzero, 3\n  shl $m6, $m0, 2\n"
    "1:\n  cmpult $m5, $m0, $m4\n  brz $m5, 2f\n  ld32 $m7, $m1, $m6, 0\n  ld32 $m8, $m2, $m6, 0\n"
    "  add $m7, $m7, $m8\n  st32 $m7, $m3, $m6, 0\n  add $m6, $m6, 24\n  add $m0, $m0, 6\n  bri 1b\n"
    "2:\n  exitz $mzero\n";

static const char add_state[] =
    "vertex = \"__runCodelet_Add\"\nkind = \"MultiVertex\"\n"
    "[tensor.a]\ntype = \"u32\"\nsize = 21\nvalues = 1000\n"
    "[tensor.b]\ntype = \"u32\"\nvalues = [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]\n"
    "[tensor.out]\ntype = \"u32\"\nsize = 21\n"
    "[[field]]\nkind = \"one_ptr\"\ntensor = \"a\"\n"
    "[[field]]\nkind = \"one_ptr\"\ntensor = \"b\"\n"
    "[[field]]\nkind = \"span\"\ntensor = \"out\"\n";

static void test_multivertex(const char *chip)
{
    rig g;
    rig_open(&g);
    ipu_program *p = ipu_program_from_text(g.m, "add.s", vector_add, chip, &g.d);
    ipu_state_desc *d = parse(&g, add_state);
    CHECK(p && d);
    if (!p || !d) goto out;
    ipu_run_result r;
    CHECK_EQ(ipu_vertex_run(g.m, p, d, NULL, &r, &g.d), 0);
    CHECK(r.ok);
    const ipu_tensor *o = &d->tensors[2];
    for (uint32_t i = 0; i < 21; i++) CHECK_EQ(u32_at(o, i), 1000 + i);
    /* 21 elements: worker 0 and 1 take 4 (one loop round, 9 issues, more), the others 3 */
    uint64_t longest = 0;
    for (int w = 0; w < 6; w++) {
        CHECK(r.worker[w].ran);
        CHECK_EQ(r.worker[w].status, 1);
        if (r.worker[w].cycles > longest) longest = r.worker[w].cycles;
    }
    CHECK_EQ(r.cycles, longest);
    /* each worker issues every 6 cycles: 7 + 9 per element + 3 issues, the first 1 to 6 cycles
     * after runall (the wait for its slot) */
    for (int w = 0; w < 6; w++) {
        const uint64_t issues = 7 + 9 * (w < 3 ? 4 : 3) + 3 - 1;
        CHECK(r.worker[w].cycles >= 6 * issues + 1 && r.worker[w].cycles <= 6 * issues + 6);
    }
    CHECK(r.worker[0].cycles > r.worker[3].cycles + 40);
    CHECK(r.state >= (strcmp(chip, "ipu1") == 0 ? 0x60000u : 0x80000u));
    CHECK_EQ(r.state_bytes, 16);
out:
    ipu_state_free(d);
    ipu_program_free(p);
    rig_close(&g);
}

/* A Vertex (one worker, run with a region-0-relative base) and a SupervisorVertex ($m0 = state,
 * br $lr back), and a worker's exception. */
static void test_vertex_kinds(void)
{
    rig g;
    rig_open(&g);
    /* Vertex: state [p, n]: p[i] *= 3 */
    ipu_program *p = ipu_program_from_text(g.m, "v.s",
        "  .globl V\nV:\n  ld32 $m1, $mvertex_base, $mzero, 0\n  ld32 $m2, $mvertex_base, $mzero, 1\n"
        "  setzi $m3, 0\n1:\n  ld32 $m4, $m1, $m3, 0\n  mul $m4, $m4, 3\n  st32step $m4, $m1, $m3+=, 1\n"
        "  add $m2, $m2, -1\n  brnz $m2, 1b\n  exitz $mzero\n"
        "  .globl S\nS:\n  ld32 $m1, $m0, $mzero, 0\n  ld32 $m2, $m0, $mzero, 1\n  add $m1, $m1, $m2\n"
        "  st32 $m1, $m0, $mzero, 2\n  br $lr\n"
        "  .globl Bad\nBad:\n  setzi $m1, 0x80002\n  ld32 $m2, $m1, $mzero, 0\n  exitz $mzero\n",
        NULL, &g.d);
    ipu_state_desc *d = parse(&g,
        "kind = \"Vertex\"\n[tensor.x]\ntype = \"i32\"\nvalues = [1, -2, 3, 40000]\nregion = 0\n"
        "[[field]]\nkind = \"one_ptr\"\ntensor = \"x\"\n[[field]]\nkind = \"u32\"\nvalue = 4\n");
    CHECK(p && d);
    if (!p || !d) goto out;
    ipu_run_result r;
    CHECK_EQ(ipu_vertex_run(g.m, p, d, &(ipu_run_options){ .vertex = "V" }, &r, &g.d), 0);
    CHECK(r.ok && r.worker[0].ran && !r.worker[1].ran);
    CHECK(d->tensors[0].placed < 0x80000u);                            /* region 0, as asked */
    CHECK_EQ((int32_t)u32_at(&d->tensors[0], 1), -6);
    CHECK_EQ(u32_at(&d->tensors[0], 3), 120000);
    CHECK_EQ(r.cycles, r.worker[0].cycles);
    CHECK_EQ(r.worker[0].cycles % 6, 4);              /* run at clock 2 of the supervisor, slot 0 at 6 */
    ipu_state_free(d);

    d = parse(&g, "kind = \"SupervisorVertex\"\n[[field]]\nkind = \"u32\"\nvalue = 40\n[[field]]\nkind = \"u32\"\n"
                  "value = 2\n[[field]]\nkind = \"u32\"\nvalue = 0\n");
    CHECK(d != NULL);
    if (!d) goto out;
    CHECK_EQ(ipu_vertex_run(g.m, p, d, &(ipu_run_options){ .vertex = "S" }, &r, &g.d), 0);
    CHECK(r.ok && r.returned);
    CHECK_EQ(r.cycles, 6);                             /* call to return: call and five issues, one a clock */
    for (int w = 0; w < 6; w++) CHECK(!r.worker[w].ran);
    ipu_state_free(d);

    d = parse(&g, "vertex = \"Bad\"\n");
    CHECK(d != NULL);
    if (!d) goto out;
    CHECK_EQ(ipu_vertex_run(g.m, p, d, NULL, &r, &g.d), 0);
    CHECK(!r.ok && r.returned);
    CHECK(r.worker[0].excepted);
    CHECK_EQ(r.worker[0].etype, 8);
    CHECK_EQ(r.worker[0].status, -1);
    CHECK_EQ(r.worker[0].pc, r.entry + 4);
    CHECK_CONTAINS(r.worker[0].cause, "ld32 at 0x80002 is not 4-byte aligned");
    ipu_state_free(d);

    /* an unknown vertex lists the entry points */
    d = parse(&g, "vertex = \"Nope\"\n");
    CHECK_EQ(ipu_vertex_run(g.m, p, d, NULL, &r, &g.d), -1);
    CHECK_CONTAINS(said(&g), "vertex 'Nope' is not in v.s; its entry points:");
out:
    ipu_state_free(d);
    ipu_program_free(p);
    rig_close(&g);
}

/* Every field kind at its natural alignment: a vertex copies the first 18 words of its state to
 * the tensor its first field points to. */
static void test_layout(void)
{
    rig g;
    rig_open(&g);
    ipu_program *p = ipu_program_from_text(g.m, "dump.s",
        "  .globl D\nD:\n  ld32 $m1, $mvertex_base, $mzero, 0\n  setzi $m2, 18\n  setzi $m3, 0\n"
        "1:\n  ld32 $m4, $mvertex_base, $m3, 0\n  st32step $m4, $m1, $m3+=, 1\n  add $m2, $m2, -1\n"
        "  brnz $m2, 1b\n  exitz $mzero\n", "ipu1", &g.d);
    ipu_state_desc *d = parse(&g,
        "vertex = \"D\"\n"
        "[tensor.dump]\ntype = \"u32\"\nsize = 18\n"
        "[tensor.h]\ntype = \"f16\"\nvalues = [1.5, -2]\nregion = 0\n"
        "[tensor.k]\ntype = \"u8\"\nsize = 3\nregion = 0\naddress = 0x50000\n"
        "[tensor.s]\ntype = \"i16\"\nsize = 5\nelement = 2\n"
        "[[field]]\nkind = \"one_ptr\"\ntensor = \"dump\"\n"      /* 0 */
        "[[field]]\nkind = \"u16\"\nvalue = 0xBEEF\n"              /* 4 */
        "[[field]]\nkind = \"span\"\ntensor = \"s\"\n"             /* 8 (aligned to 4) */
        "[[field]]\nkind = \"f16\"\nvalues = [1, 0.1]\n"           /* 16, 18 */
        "[[field]]\nkind = \"f32\"\nvalue = -0.5\n"                /* 20 */
        "[[field]]\nkind = \"u8\"\nvalue = 9\n"                    /* 24 */
        "[[field]]\nkind = \"short_span\"\ntensor = \"k\"\n"       /* 28 */
        "[[field]]\nkind = \"scaled_ptr32\"\ntensor = \"h\"\n"     /* 32 */
        "[[field]]\nkind = \"scaled_ptr64\"\ntensor = \"k\"\n"     /* 34 */
        "[[field]]\nkind = \"vector\"\nof = \"span\"\ntensors = [\"s\", \"k\"]\n"       /* 36 */
        "[[field]]\nkind = \"vector\"\nof = \"one_ptr\"\ncounted = false\ntensors = [\"h\"]\n"   /* 44 */
        "[[field]]\nkind = \"i32\"\nvalue = -7\n"                  /* 48 */
        "[[field]]\nkind = \"span\"\ntensor = \"s\"\ncount = 2\n"  /* 52 */);
    CHECK(p && d);
    if (!p || !d) goto out;
    ipu_run_result r;
    CHECK_EQ(ipu_vertex_run(g.m, p, d, NULL, &r, &g.d), 0);
    CHECK(r.ok);
    const ipu_tensor *dump = &d->tensors[0], *h = &d->tensors[1], *k = &d->tensors[2], *s = &d->tensors[3];
    CHECK_EQ(r.state_bytes, 60);
    CHECK_EQ(k->placed, 0x50000);
    CHECK_EQ((s->placed - 0x60000) / 0x8000, 2);                     /* element 2 of ipu1's region 1 */
    CHECK_EQ(u32_at(dump, 0), dump->placed);
    CHECK_EQ(u32_at(dump, 1), 0xBEEF);
    CHECK_EQ(u32_at(dump, 2), s->placed);
    CHECK_EQ(u32_at(dump, 3), 5);
    CHECK_EQ(u32_at(dump, 4), 0x2E663C00);                           /* 1.0h, 0.1h (0x2E66, rounded to even) */
    CHECK_EQ(u32_at(dump, 5), 0xBF000000);
    CHECK_EQ(u32_at(dump, 6), 9);
    CHECK_EQ(u32_at(dump, 7), 0x50000u | 3u << 20);
    CHECK_EQ(u32_at(dump, 8), (h->placed - 0x40000) / 4 | (0x50000u / 8) << 16);
    const uint32_t entries = u32_at(dump, 9);
    CHECK_EQ(u32_at(dump, 10), 2);
    CHECK(entries >= 0x60000u && entries % 8 == 0);
    CHECK_EQ(u32_at(dump, 12), -7 & 0xFFFFFFFFu);
    CHECK_EQ(u32_at(dump, 13), s->placed);
    CHECK_EQ(u32_at(dump, 14), 2);
    CHECK(u32_at(dump, 11) >= 0x60000u && u32_at(dump, 11) != entries);
    ipu_state_free(d);

    /* scaled_ptr64 cannot reach ipu2's region 1 */
    ipu_program_free(p);
    p = ipu_program_from_text(g.m, "dump.s", "  .globl D\nD:\n  exitz $mzero\n", "ipu2", &g.d);
    d = parse(&g, "vertex = \"D\"\n[tensor.t]\ntype = \"u32\"\nsize = 2\n[[field]]\nkind = \"scaled_ptr64\"\ntensor = \"t\"\n");
    CHECK(p && d);
    if (!p || !d) goto out;
    CHECK_EQ(ipu_vertex_run(g.m, p, d, NULL, &r, &g.d), -1);
    CHECK_CONTAINS(said(&g), "scaled_ptr64 of 't' at 0x8");
    CHECK_CONTAINS(said(&g), "below 0x80000");
out:
    ipu_state_free(d);
    ipu_program_free(p);
    rig_close(&g);
}

/* ---- tensor files ------------------------------------------------------------------------------ */

static void test_files(void)
{
    rig g;
    rig_open(&g);
    const ipu_dtype types[] = { IPU_F32, IPU_F16, IPU_I32, IPU_U32, IPU_I16, IPU_U16, IPU_I8, IPU_U8, IPU_BOOL };
    const char *const exts[] = { "npy", "csv", "bin" };
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
        for (int e = 0; e < 3; e++) {
            const ipu_dtype t = types[ti];
            const unsigned size = ipu_dtype_size(t);
            uint8_t data[5 * 4];
            for (unsigned i = 0; i < 5 * size; i++) data[i] = (uint8_t)(0x11 * i + 3);
            if (t == IPU_BOOL)
                for (unsigned i = 0; i < 5; i++) data[i] = i & 1;
            if (t == IPU_F32) memcpy(data, (float[]){ 1.5f, -0.1f, 3e38f, 1e-40f, 7 }, 20);
            if (t == IPU_F16) memcpy(data, (uint16_t[]){ 0x3C00, 0x2E66, 0x7BFF, 0x0001, 0xC000 }, 10);
            char path[64];
            snprintf(path, sizeof path, "ipu_runner_t%zu.%s", ti, exts[e]);
            CHECK_EQ(ipu_tensor_write(path, t, 5, data, &g.d), 0);
            uint8_t *back = NULL;
            uint64_t n = 0;
            CHECK_EQ(ipu_tensor_read(path, t, &n, &back, &g.d), 0);
            CHECK_EQ(n, 5);
            CHECK(back && memcmp(back, data, 5 * size) == 0);
            free(back);
            /* a wrong count, or a wrong dtype for .npy */
            n = 6;
            CHECK_EQ(ipu_tensor_read(path, t, &n, &back, &g.d), -1);
            if (e == 0) {
                n = 0;
                CHECK_EQ(ipu_tensor_read(path, t == IPU_F32 ? IPU_I32 : IPU_F32, &n, &back, &g.d), -1);
                CHECK_CONTAINS(g.d.last, "does not match the tensor's");
            }
            remove(path);
        }
    /* a bad CSV number names its line and column */
    FILE *f = fopen("ipu_runner_bad.csv", "w");
    fputs("1, 2\n3, 4x\n", f);
    fclose(f);
    uint8_t *back = NULL;
    uint64_t n = 0;
    CHECK_EQ(ipu_tensor_read("ipu_runner_bad.csv", IPU_U32, &n, &back, &g.d), -1);
    CHECK_CONTAINS(said(&g), "ipu_runner_bad.csv:2:4:");
    f = fopen("ipu_runner_bad.csv", "w");
    fputs("1, 300\n", f);
    fclose(f);
    CHECK_EQ(ipu_tensor_read("ipu_runner_bad.csv", IPU_U8, &n, &back, &g.d), -1);
    CHECK_CONTAINS(said(&g), "ipu_runner_bad.csv:1:4: error: 300 is out of range for u8");
    remove("ipu_runner_bad.csv");
    rig_close(&g);
}

/* ---- the description's errors -------------------------------------------------------------------- */

static void expect_error(const char *text, const char *message)
{
    rig g;
    rig_open(&g);
    ipu_state_desc *d = parse(&g, text);
    CHECK(d == NULL);
    CHECK_CONTAINS(said(&g), message);
    ipu_state_free(d);
    rig_close(&g);
}

static void test_errors(void)
{
    expect_error("kind = \"Vertex\"\nbogus = 1\n", "state.toml:2:1: error: bogus: not a key of the description");
    expect_error("kind = \"Multi\"\n", "state.toml:1:8: error: kind: must be one of \"Vertex\", \"MultiVertex\"");
    expect_error("[[field]]\nkind = \"span\"\ntensor = \"nope\"\n",
                 "state.toml:3:10: error: tensor: no [tensor.nope] in this description");
    expect_error("[tensor.a]\ntype = \"f32\"\nvalues = [1, 2,\n  \"x\"]\n", "state.toml:4:3: error: values: must be numbers");
    expect_error("[tensor.a]\ntype = \"u16\"\nvalues = [1, 70000]\n", "state.toml:3:14: error: values: 70000 is out of range");
    expect_error("[tensor.a]\ntype = \"i32\"\nvalues = [1.5]\n", "1.5 is not an integer");
    expect_error("[tensor.a]\ntype = \"i32\"\n", "[tensor.a] needs `size`, `values` or `file`");
    expect_error("[tensor.a]\ntype = \"i32\"\nsize = 2\n[tensor.a]\n", "state.toml:4:1: error: section [tensor.a] appears twice");
    expect_error("x = [1, 2\n", "the array is not closed");
    expect_error("vertex = \"a\" kind = \"Vertex\"\n", "state.toml:1:14: error: unexpected text after the value");
    expect_error("vertex = \"a\nb\"\n", "state.toml:1:10: error: string: no closing quote");
    expect_error("[runner]\n", "state.toml:1:1: error: [runner]: not a section of a vertex state");
    expect_error("stack = 12\n", "stack: must be a multiple of 8");
    expect_error("a.b = 1\n", "dotted keys are not supported");
    expect_error("[[field]]\nkind = \"u32\"\n", "a u32 field needs a value");
    expect_error("t = { a = 1 }\n", "inline tables are not supported");
    expect_error("n = 0x\n", "state.toml:1:5: error:");
    expect_error("[tensor.a]\ntype = \"u8\"\nvalues = []\n", "state.toml:3:10: error: values: is empty");
    expect_error("[tensor.a]\ntype = \"f32\"\nsize = 300000\n", "size: must be an integer from 1 to 262144");
}

int main(void)
{
    test_call();
    test_multivertex("ipu2");
    test_multivertex("ipu1");
    test_vertex_kinds();
    test_layout();
    test_files();
    test_errors();
    return CHECK_DONE();
}
