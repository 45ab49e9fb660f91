/* Plain C references for real poplibs vertices run on the simulated IPU tile
 * (scripts/poplibs_vertices.sh drives it; nothing of poplibs is compiled here):
 *
 *   poplibs_vertices gen DIR CHIP
 *                                write, for each vertex, its state description (DIR/NAME.toml),
 *                                made-up inputs (DIR/NAME.*.raw, little-endian) and what the
 *                                vertex must compute (DIR/NAME.want.raw)
 *   poplibs_vertices list        one line per vertex: NAME FILE SYMBOL (FILE relative to lib/)
 *   poplibs_vertices check DIR NAME
 *                                compare DIR/NAME.out.raw (written by the run) with the
 *                                reference, element by element, bit for bit
 *
 * What each vertex computes is read from its C++ codelet in poplibs (the semantics, not its
 * code): BinaryOp1D out[i] = in1[i] OP in2[i] (float: one IEEE operation, rounded to nearest
 * even; half: computed in float, which is exact for + - *, then rounded to half); UnaryOp1D
 * BITWISE_NOT out[i] = ~in[i]; ContinuousReduce ReduceMax out[o] = the largest of numPartials
 * consecutive partials, for numOutputsM1 + 1 outputs. The inputs come from a fixed-seed
 * generator: float values of every magnitude (subnormals included, no NaN, so that the
 * reference needs no NaN convention the pack does not give). The state's pointer fields are as
 * poplibs lays them out for the chip: ContinuousReduce's partials and out are 16-bit scaled
 * pointers where VECTOR_AVAIL_SCALED_PTR32 is defined (ipu1 with our AvailableVTypes.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { F32, F16, I16 } etype;

typedef struct vertex {
    const char *name, *file, *symbol, *kind;
    etype type;
    char op;                  /* + - * for BinaryOp1D, ~ for UnaryOp1D, M for ReduceMax */
    unsigned n;               /* elements (BinaryOp1D, UnaryOp1D); outputs (ReduceMax) */
    unsigned partials;        /* ReduceMax: partials per output */
} vertex;

#define BINARY(op, ty) "__runCodelet_popops__BinaryOp1D___popops__expr__BinaryOpType__" op "_" ty

static const vertex vertices[] = {
    { "add_float", "popops/codelets/asm/binaryOps1D.S", BINARY("ADD", "float"), "MultiVertex", F32, '+', 203, 0 },
    { "sub_float", "popops/codelets/asm/binaryOps1D.S", BINARY("SUBTRACT", "float"), "MultiVertex", F32, '-', 97, 0 },
    { "mul_float", "popops/codelets/asm/binaryOps1D.S", BINARY("MULTIPLY", "float"), "MultiVertex", F32, '*', 128, 0 },
    { "add_half", "popops/codelets/asm/binaryOps1D.S", BINARY("ADD", "half"), "MultiVertex", F16, '+', 301, 0 },
    { "mul_half", "popops/codelets/asm/binaryOps1D.S", BINARY("MULTIPLY", "half"), "MultiVertex", F16, '*', 77, 0 },
    { "not_short", "popops/codelets/asm/unaryOps1D.S",
      "__runCodelet_popops__UnaryOp1D___popops__expr__UnaryOpType__BITWISE___NOT_short", "MultiVertex", I16, '~', 151,
      0 },
    { "reducemax_float", "popops/codelets/asm/ContinuousReductionNoAcc.S",
      "__runCodelet_popops__ContinuousReduce___popops__ReduceMax_float_float_false", "Vertex", F32, 'M', 7, 13 },
};
#define NVERTICES (sizeof vertices / sizeof *vertices)

/* ---- numbers ----------------------------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t next_random(void)      /* xorshift64*, fixed seed: the same inputs every run */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}

static float bits_f32(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint32_t f32_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

/* A random f32 of any magnitude (subnormals included), never NaN or infinite. */
static float random_f32(void)
{
    for (;;) {
        uint32_t b = next_random();
        if ((b >> 23 & 0xFF) != 0xFF) return bits_f32(b);
    }
}

/* A random f16 pattern, never NaN or infinite. */
static uint16_t random_f16(void)
{
    for (;;) {
        uint16_t h = (uint16_t)next_random();
        if ((h >> 10 & 0x1F) != 0x1F) return h;
    }
}

static float f16_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h >> 15) << 31, exp = h >> 10 & 0x1F, frac = h & 0x3FF;
    if (exp == 0x1F) return bits_f32(sign | 0x7F800000u | frac << 13);
    float mag = exp ? ldexpf((float)(frac | 0x400), (int)exp - 25) : ldexpf((float)frac, -24);
    return sign ? -mag : mag;
}

/* f32 -> f16, round to nearest even, subnormals kept, overflow to infinity. */
static uint16_t f32_to_f16(float f)
{
    const uint16_t sign = (uint16_t)(f32_bits(f) >> 16 & 0x8000);
    double a = fabs((double)f);
    if (isnan(f)) return (uint16_t)(sign | 0x7E00);
    if (a >= 65520.0) return (uint16_t)(sign | 0x7C00);
    if (a == 0) return sign;
    int e;
    frexp(a, &e);
    int exp = e - 1 < -14 ? -14 : e - 1;
    double q = nearbyint(ldexp(a, 10 - exp));
    if (q >= 2048) q /= 2, exp++;
    if (q < 1024) return (uint16_t)(sign | (uint16_t)q);
    return (uint16_t)(sign | (exp + 15) << 10 | ((unsigned)q - 1024));
}

/* ---- files ------------------------------------------------------------------------------- */

static FILE *open_file(const char *dir, const char *name, const char *suffix, const char *mode)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", dir, name, suffix);
    FILE *f = fopen(path, mode);
    if (!f) {
        perror(path);
        exit(2);
    }
    return f;
}

static void write_raw(const char *dir, const char *name, const char *suffix, const void *data, size_t bytes)
{
    FILE *f = open_file(dir, name, suffix, "wb");
    if (fwrite(data, 1, bytes, f) != bytes) {
        perror(name);
        exit(2);
    }
    fclose(f);
}

static const char *type_name(etype t) { return t == F32 ? "f32" : t == F16 ? "f16" : "i16"; }
static size_t type_size(etype t) { return t == F32 ? 4 : 2; }

static void tensor(FILE *toml, const vertex *v, const char *tname, etype t, const char *suffix, int output)
{
    fprintf(toml, "\n[tensor.%s]\ntype = \"%s\"\n%s = \"%s%s\"\n", tname, type_name(t), output ? "output" : "file",
            v->name, suffix);
}

static void field(FILE *toml, const char *kind, const char *tname)
{
    fprintf(toml, "\n[[field]]\nkind = \"%s\"\ntensor = \"%s\"\n", kind, tname);
}

/* ---- the vertices ------------------------------------------------------------------------- */

static void gen(const vertex *v, const char *dir, int ipu1)
{
    FILE *toml = open_file(dir, v->name, ".toml", "w");
    fprintf(toml, "# %s: made-up inputs for poplibs' %s (scripts/poplibs_vertices.c)\nvertex = \"%s\"\nkind = \"%s\"\n",
            v->name, v->file, v->symbol, v->kind);
    const size_t es = type_size(v->type);
    if (v->op == 'M') {                              /* ContinuousReduce: partials, out, numOutputsM1, numPartials */
        const size_t np = (size_t)v->n * v->partials;
        float *in = malloc(np * 4), *want = malloc((size_t)v->n * 4);
        for (size_t i = 0; i < np; i++) in[i] = random_f32();
        for (unsigned o = 0; o < v->n; o++) {
            float m = -INFINITY;
            for (unsigned p = 0; p < v->partials; p++) m = fmaxf(m, in[(size_t)o * v->partials + p]);
            want[o] = m;
        }
        write_raw(dir, v->name, ".in.raw", in, np * 4);
        write_raw(dir, v->name, ".want.raw", want, (size_t)v->n * 4);
        fprintf(toml, "\n[tensor.partials]\ntype = \"f32\"\nfile = \"%s.in.raw\"\n", v->name);
        fprintf(toml, "\n[tensor.out]\ntype = \"f32\"\nsize = %u\noutput = \"%s.out.raw\"\n", v->n, v->name);
        field(toml, ipu1 ? "scaled_ptr32" : "one_ptr", "partials");
        field(toml, ipu1 ? "scaled_ptr32" : "one_ptr", "out");
        fprintf(toml, "\n[[field]]\nkind = \"u16\"\nvalue = %u\n\n[[field]]\nkind = \"u16\"\nvalue = %u\n", v->n - 1,
                v->partials);
        free(in), free(want);
    } else if (v->op == '~') {                       /* UnaryOp1D: in, out (span) */
        uint16_t *in = malloc(v->n * es), *want = malloc(v->n * es);
        for (unsigned i = 0; i < v->n; i++) in[i] = (uint16_t)next_random(), want[i] = (uint16_t)~in[i];
        write_raw(dir, v->name, ".in.raw", in, v->n * es);
        write_raw(dir, v->name, ".want.raw", want, v->n * es);
        tensor(toml, v, "in", v->type, ".in.raw", 0);
        fprintf(toml, "\n[tensor.out]\ntype = \"%s\"\nsize = %u\noutput = \"%s.out.raw\"\n", type_name(v->type), v->n,
                v->name);
        field(toml, "one_ptr", "in");
        field(toml, "span", "out");
        free(in), free(want);
    } else {                                         /* BinaryOp1D: in1, in2, out (span) */
        uint8_t *a = malloc(v->n * es), *b = malloc(v->n * es), *want = malloc(v->n * es);
        for (unsigned i = 0; i < v->n; i++) {
            if (v->type == F32) {
                float x = random_f32(), y = random_f32();
                if (i % 5 == 1) y = bits_f32(f32_bits(x) ^ (next_random() & 0x00FFFFFFu));   /* cancellation */
                const float r = v->op == '+' ? x + y : v->op == '-' ? x - y : x * y;
                memcpy(a + 4 * i, &x, 4), memcpy(b + 4 * i, &y, 4), memcpy(want + 4 * i, &r, 4);
            } else {
                uint16_t x = random_f16(), y = random_f16();
                const float fx = f16_to_f32(x), fy = f16_to_f32(y);
                const uint16_t r = f32_to_f16(v->op == '+' ? fx + fy : v->op == '-' ? fx - fy : fx * fy);
                memcpy(a + 2 * i, &x, 2), memcpy(b + 2 * i, &y, 2), memcpy(want + 2 * i, &r, 2);
            }
        }
        write_raw(dir, v->name, ".in1.raw", a, v->n * es);
        write_raw(dir, v->name, ".in2.raw", b, v->n * es);
        write_raw(dir, v->name, ".want.raw", want, v->n * es);
        tensor(toml, v, "in1", v->type, ".in1.raw", 0);
        tensor(toml, v, "in2", v->type, ".in2.raw", 0);
        fprintf(toml, "\n[tensor.out]\ntype = \"%s\"\nsize = %u\noutput = \"%s.out.raw\"\n", type_name(v->type), v->n,
                v->name);
        field(toml, "one_ptr", "in1");
        field(toml, "one_ptr", "in2");
        field(toml, "span", "out");
        free(a), free(b), free(want);
    }
    fclose(toml);
}

static uint8_t *read_all(const char *dir, const char *name, const char *suffix, size_t *size)
{
    FILE *f = open_file(dir, name, suffix, "rb");
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n == cap) buf = realloc(buf, cap = cap ? 2 * cap : 4096);
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got);
    fclose(f);
    *size = n;
    return buf;
}

/* Bit for bit; the first mismatches are printed with their values. Exit 1 on any. */
static int check(const vertex *v, const char *dir)
{
    size_t ng, nw;
    uint8_t *got = read_all(dir, v->name, ".out.raw", &ng), *want = read_all(dir, v->name, ".want.raw", &nw);
    const size_t es = type_size(v->type), n = nw / es;
    int bad = 0;
    if (ng != nw) {
        printf("%s: %zu bytes written, %zu expected\n", v->name, ng, nw);
        bad = 1;
    }
    size_t mismatches = 0;
    for (size_t i = 0; i < n && ng == nw; i++) {
        if (!memcmp(got + i * es, want + i * es, es)) continue;
        if (mismatches++ < 5) {
            uint32_t g = 0, w = 0;
            memcpy(&g, got + i * es, es), memcpy(&w, want + i * es, es);
            double gv = v->type == F32 ? bits_f32(g) : v->type == F16 ? f16_to_f32((uint16_t)g) : (int16_t)g;
            double wv = v->type == F32 ? bits_f32(w) : v->type == F16 ? f16_to_f32((uint16_t)w) : (int16_t)w;
            printf("%s: element %zu is 0x%0*x (%.9g), the reference 0x%0*x (%.9g)\n", v->name, i, (int)(2 * es), g, gv,
                   (int)(2 * es), w, wv);
        }
    }
    if (mismatches) bad = 1;
    printf("%s: %zu of %zu %s elements equal to the C reference bit for bit\n", v->name, ng == nw ? n - mismatches : 0,
           n, type_name(v->type));
    free(got), free(want);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "list")) {
        for (size_t i = 0; i < NVERTICES; i++) printf("%s %s %s\n", vertices[i].name, vertices[i].file, vertices[i].symbol);
        return 0;
    }
    if (argc == 4 && !strcmp(argv[1], "gen")) {
        for (size_t i = 0; i < NVERTICES; i++) gen(&vertices[i], argv[2], !strcmp(argv[3], "ipu1"));
        return 0;
    }
    if (argc == 4 && !strcmp(argv[1], "check")) {
        for (size_t i = 0; i < NVERTICES; i++)
            if (!strcmp(vertices[i].name, argv[3])) return check(&vertices[i], argv[2]);
        fprintf(stderr, "no vertex '%s'\n", argv[3]);
        return 2;
    }
    fprintf(stderr, "usage: poplibs_vertices list | gen DIR ipu1|ipu2 | check DIR NAME\n");
    return 2;
}
