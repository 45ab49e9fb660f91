/* The tile's memory rules (architecture.md 4, 5, 7) on one worker: the bank-conflict rule of
 * one instruction's accesses in region 1 (a and a+8 never conflict, a and a+16 do unless they
 * straddle a 32 KiB element) and region 0 (one 16 KiB bank), natural alignment, 128-bit loads
 * only from region 1, unpopulated addresses, the pace family's EA1 outside executable memory;
 * rpt's body alignment, count width per chip and forbidden instructions; a bundle at 4 mod 8
 * (allowed), an undefined CSR, the f32 flags and traps. Each exception stops only its worker, with
 * $WSR.ETYPE and a report naming the context, the PC and the addresses. */
#include "tile.h"

#define CODE 0x4C100u

enum { ET_FP = 5, ET_CONFLICT = 6, ET_INVALID_ADDR = 8, ET_INVALID_INSTR = 12 };

/* Run `text` on worker 0 of a chip; returns the worker's $WSR.ETYPE (0: none). */
static int run(tile *t, const char *chip, const char *text)
{
    open_tile_chip(t, chip);
    load_code(t, text, CODE);
    run_workers(t, CODE, 0, 60000);
    return (int)(peek(t, "w0.$WSR", 0) >> 4 & 0xF);
}

static const char *out(const tile *t) { return t->out.text ? t->out.text : ""; }

/* ld2x64pace with A0 = $m2, A1 = $m3 (both loads, strides one atom). */
static int two_loads(tile *t, const char *chip, uint32_t a0, uint32_t a1)
{
    char text[512];
    snprintf(text, sizeof text,
             "  setzi $m2, 0x%x\n  setzi $m3, 0x%x\n  tapack $m0:1, $m2, $m3, $m15\n"
             "  ld2x64pace $a0:1, $a2:3, $m0:1+=, $m15, 0\n  exitz $m15\n", a0, a1);
    return run(t, chip, text);
}

static void test_conflicts(void)
{
    static const struct { const char *chip; uint32_t a0, a1; int etype; const char *says; } cases[] = {
        { "ipu2", 0x80000, 0x80008, 0, NULL },                      /* the two banks of one element */
        { "ipu2", 0x80000, 0x80010, ET_CONFLICT, "CONFLICT_EA1" },   /* same bank, same element */
        { "ipu2", 0x80000, 0x80018, 0, NULL },                      /* bit 3 differs */
        { "ipu2", 0x87FF0, 0x88000, 0, NULL },                      /* straddles an element boundary */
        { "ipu2", 0x80000, 0x88000, 0, NULL },                      /* another element */
        { "ipu2", 0x60000, 0x80000, 0, NULL },                      /* region 0 at EA0 is fine */
        { "ipu2", 0x60000, 0x63FF8, ET_CONFLICT, "bank 5" },        /* one 16 KiB bank of region 0 */
        { "ipu2", 0x80000, 0x64000, ET_INVALID_ADDR, "EXECUTABLE_ADDRESS_EA1" },
        { "ipu1", 0x60000, 0x60010, ET_CONFLICT, "bank 8" },
        { "ipu1", 0x60000, 0x60008, 0, NULL },
        { "ipu1", 0x67FF0, 0x68000, 0, NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tile t;
        const int etype = two_loads(&t, cases[i].chip, cases[i].a0, cases[i].a1);
        if (etype != cases[i].etype) fprintf(stderr, "case %zu: %s", i, out(&t));
        CHECK_EQ(etype, cases[i].etype);
        CHECK_EQ(peek(&t, "w0.exit_status", 0), cases[i].etype ? -1 : 1);
        if (cases[i].says) CHECK_CONTAINS(out(&t), cases[i].says);
        close_tile(&t);
    }
}

/* ld2xst64pace: three EAs; any two in one bank conflict, else both loads and the store happen
 * and the three addresses step by the stride register's fields (s0 = 2, s1 = -1 atoms). */
static void test_three_addresses(void)
{
    static const struct { uint32_t a0, a1, a2; int etype; const char *says; } cases[] = {
        { 0x80000, 0x80008, 0x88000, 0, NULL },
        { 0x80000, 0x80008, 0x80010, ET_CONFLICT, "EA0 load 0x80000 and EA2 store 0x80010 are in bank 13 (CONFLICT_EA2)" },
        { 0x80000, 0x80018, 0x80008, ET_CONFLICT, "EA1 load 0x80018 and EA2 store 0x80008 are in bank 14" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tile t;
        char text[512];
        snprintf(text, sizeof text,
                 "  setzi $m2, 0x%x\n  setzi $m3, 0x%x\n  setzi $m4, 0x%x\n  tapack $m0:1, $m2, $m3, $m4\n"
                 "  setzi $m5, 0xFFC02\n  setzi $a6, 7\n  setzi $a7, 9\n"
                 "  ld2xst64pace $a0:3, $a6:7, $m0:1+=, $m5, 0b100100\n  exitz $m15\n",
                 cases[i].a0, cases[i].a1, cases[i].a2);
        open_tile(&t);
        poke(&t, cases[i].a0, 11), poke(&t, cases[i].a1 + 4, 22);
        load_code(&t, text, CODE);
        run_workers(&t, CODE, 0, 1000);
        CHECK_EQ(peek(&t, "w0.$WSR", 0) >> 4 & 0xF, cases[i].etype);
        if (cases[i].says) {
            CHECK_CONTAINS(out(&t), cases[i].says);
            CHECK_EQ(peek_mem(&t, cases[i].a2), 0);    /* nothing stored */
        } else {
            CHECK_EQ(peek(&t, "w0.$a0", 0), 11);
            CHECK_EQ(peek(&t, "w0.$a3", 0), 22);
            CHECK_EQ(peek_mem(&t, cases[i].a2), 7);
            CHECK_EQ(peek_mem(&t, cases[i].a2 + 4), 9);
            const uint32_t lo = (uint32_t)peek(&t, "w0.$m0", 0), hi = (uint32_t)peek(&t, "w0.$m1", 0);
            CHECK_EQ(lo & 0x1FFFFF, cases[i].a0 + 8);          /* Strimm 00: one atom */
            CHECK_EQ(hi & 0x1FFFFF, cases[i].a1 + 2 * 8);      /* 01: s0 = 2 atoms */
            CHECK_EQ(lo >> 21 | (hi >> 21) << 11, cases[i].a2 - 8);   /* 10: s1 = -1 atom */
        }
        close_tile(&t);
    }
}

/* Alignment, populated memory, 128-bit loads only from region 1. */
static void test_addresses(void)
{
    static const struct { const char *chip, *text; int etype; const char *says; } cases[] = {
        { "ipu2", "  setzi $m2, 0x80004\n  ld64 $a0:1, $m2, $m15, 0\n  exitz $m15\n", ET_INVALID_ADDR,
          "ld64: load at 0x80004 is not 8-byte aligned (MISALIGNED_EA0)" },
        { "ipu2", "  setzi $m2, 0x80008\n  ld128 $a0:3, $m2, $m15, 0\n  exitz $m15\n", ET_INVALID_ADDR, "not 16-byte aligned" },
        { "ipu2", "  setzi $m2, 0x80010\n  ld128 $a0:3, $m2, $m15, 0\n  exitz $m15\n", 0, NULL },
        { "ipu2", "  setzi $m2, 0x60000\n  ld128 $a0:3, $m2, $m15, 0\n  exitz $m15\n", ET_INVALID_ADDR,
          "128-bit load at 0x60000: only region 1 (0x80000 up) (INVALID_REGION_EA0)" },
        { "ipu1", "  setzi $m2, 0x50000\n  ld128 $a0:3, $m2, $m15, 0\n  exitz $m15\n", ET_INVALID_ADDR, "(0x60000 up)" },
        { "ipu1", "  setzi $m2, 0x60000\n  ld128 $a0:3, $m2, $m15, 0\n  exitz $m15\n", 0, NULL },
        { "ipu2", "  setzi $m2, 0xE8000\n  st64 $a0:1, $m2, $m15, 0\n  exitz $m15\n", ET_INVALID_ADDR, "no memory there" },
        { "ipu2", "  setzi $m2, 0x4B000\n  ld64 $a0:1, $m2, $m15, 0\n  exitz $m15\n", ET_INVALID_ADDR, "no memory there" },
        { "ipu1", "  setzi $m2, 0x80000\n  ld64 $a0:1, $m2, $m15, 0\n  exitz $m15\n", ET_INVALID_ADDR, "no memory there" },
        { "ipu2", "  setzi $m2, 0x80002\n  ldz16 $m0, $m2, $m15, 0\n  exitz $m15\n", 0, NULL },
        { "ipu2", "  setzi $m2, 0x80001\n  ldz16 $m0, $m2, $m15, 0\n  exitz $m15\n", ET_INVALID_ADDR, "2-byte aligned" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tile t;
        const int etype = run(&t, cases[i].chip, cases[i].text);
        if (etype != cases[i].etype) fprintf(stderr, "case %zu: %s", i, out(&t));
        CHECK_EQ(etype, cases[i].etype);
        if (cases[i].says) {
            CHECK_CONTAINS(out(&t), cases[i].says);
            CHECK_CONTAINS(out(&t), "context 1");
            CHECK_CONTAINS(out(&t), "pc 0x");
        }
        close_tile(&t);
    }

    /* a 64-bit round trip and the step forms' increments (scaled by 8) */
    tile t;
    open_tile(&t);
    poke(&t, 0x80010, 0x11111111), poke(&t, 0x80014, 0x22222222);
    load_code(&t,
              "  setzi $m2, 0x80000\n  setzi $m3, 16\n  ld64step $a0:1, $m2, $m3+=, 1\n"
              "  st64step $a0:1, $m2, $m3+=, 2\n  ld128 $a4:7, $m15, $m2, 1\n  exitz $m15\n", CODE);
    run_workers(&t, CODE, 0, 1000);
    CHECK_EQ(peek_mem(&t, 0x80018), 0x11111111);
    CHECK_EQ(peek_mem(&t, 0x8001C), 0x22222222);
    CHECK_EQ(peek(&t, "w0.$m3", 0), 16 + 8 + 16);
    CHECK_EQ(peek(&t, "w0.$a7", 0), 0x22222222);  /* ld128 at 0x80010: words 0x80010..0x8001C */
    CHECK_EQ(peek(&t, "w0.exit_status", 0), 1);
    close_tile(&t);
}

/* rpt: count width per chip (12 bits ipu1, 16 bits ipu2), 0 skips the body, the body must start
 * 8-byte aligned, control and system instructions in it raise INSTR_IN_REPEAT with ERPT. */
static int rpt_count(const char *chip, uint32_t count)
{
    char text[512];
    tile t;
    snprintf(text, sizeof text,
             "  setzi $m3, 0x%x\n  setzi $m4, 0\n  { rpt $m3, 0 ; fnop }\n"
             "  { add $m4, $m4, 1 ; fnop }\n  exitz $m15\n", count);
    run(&t, chip, text);
    CHECK_EQ(peek(&t, "w0.exit_status", 0), 1);
    const int n = (int)peek(&t, "w0.$m4", 0);
    close_tile(&t);
    return n;
}

static void test_rpt(void)
{
    CHECK_EQ(rpt_count("ipu2", 0), 0);
    CHECK_EQ(rpt_count("ipu2", 7), 7);
    CHECK_EQ(rpt_count("ipu2", 0x10003), 3);
    CHECK_EQ(rpt_count("ipu2", 0x1003), 0x1003);
    CHECK_EQ(rpt_count("ipu1", 0x1003), 3);

    tile t;
    /* a solo rpt at an 8-aligned address: its body is misaligned (words: the assembler refuses
     * the bundle there) */
    open_tile(&t);
    static const uint32_t misaligned[] = { 0x19300002, 0x19E00000, 0x4330A000, 0x99E00000, 0x9AD00000, 0x43F04000 };
    for (uint32_t i = 0; i < 6; i++) poke(&t, CODE + 4 * i, misaligned[i]);
    run_workers(&t, CODE, 0, 1000);
    CHECK_EQ(peek(&t, "w0.$WSR", 0) >> 4 & 0xF, ET_INVALID_ADDR);
    CHECK_CONTAINS(out(&t), "rpt: its body at 0x4c10c is not 8-byte aligned");
    close_tile(&t);

    static const char *const forbidden[] = { "{ bri 0x4c110 ; fnop }", "{ get $m0, 1 ; fnop }", "{ put 4, $m0 ; fnop }",
                                             "{ rpt $m3, 0 ; fnop }", "{ nop ; uput 8, $a0 }" };
    for (size_t i = 0; i < sizeof forbidden / sizeof forbidden[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "  setzi $m3, 2\n  nop\n  { rpt $m3, 0 ; fnop }\n  %s\n  exitz $m15\n", forbidden[i]);
        CHECK_EQ(run(&t, "ipu2", text), ET_INVALID_INSTR);
        CHECK_CONTAINS(out(&t), "is not allowed in a rpt body (INSTR_IN_REPEAT)");
        CHECK_EQ(peek(&t, "w0.$WSR", 0) >> 9 & 1, 1);
        CHECK_EQ(peek(&t, "w0.$REPEAT_COUNT", 0), 2);
        close_tile(&t);
    }
}

/* A bundle at an address = 4 (mod 8) runs, an undefined CSR, f32 overflow (flag, then trap), and an
 * exception of one of six workers leaving the others to finish. */
static void test_other(void)
{
    tile t;
    /* the bundle at 0x4C104 (4 mod 8: PROCESSOR .group_align = 1) issues once, as a bundle */
    CHECK_EQ(run(&t, "ipu2", "  setzi $m1, 5\n  { add $m1, $m1, 1 ; fnop }\n  exitz $m15\n"), 0);
    CHECK_EQ(peek_mem(&t, CODE + 4) >> 31, 1);    /* the co-issue bit on both words */
    CHECK_EQ(peek_mem(&t, CODE + 8) >> 31, 1);
    CHECK_EQ(peek(&t, "w0.$m1", 0), 6);
    CHECK_EQ(peek(&t, "w0.exit_status", 0), 1);
    CHECK_EQ(peek(&t, "w0.cycles", 0), 6 * 3 - 2);   /* three issues: setzi, the bundle, exitz */
    close_tile(&t);

    CHECK_EQ(run(&t, "ipu2", "  get $m0, 0x40\n  exitz $m15\n"), ET_INVALID_INSTR);
    CHECK_CONTAINS(out(&t), "get: no CSR 0x40 in the worker (INVALID_CSR)");
    close_tile(&t);

    static const char overflow[] =
        "  setzi $a0, 0x7F000\n  or $a0, $a0, 0x7F000000\n  mov $a1, $a0\n%s"
        "  f32v2add $a2:3, $a0:1, $a0:1\n  uget $a4, 0\n  exitz $m15\n";
    char text[256];
    snprintf(text, sizeof text, overflow, "");
    CHECK_EQ(run(&t, "ipu2", text), 0);
    CHECK_EQ(peek(&t, "w0.$a2", 0), 0x7F800000);  /* +inf */
    CHECK_EQ(peek(&t, "w0.$a4", 0), 4);           /* $FP_STS.OFLO */
    close_tile(&t);
    snprintf(text, sizeof text, overflow, "  setzi $a5, 4\n  uput 2, $a5\n");
    CHECK_EQ(run(&t, "ipu2", text), ET_FP);
    CHECK_EQ(peek(&t, "w0.$a2", 0), 0);           /* the trapping instruction wrote nothing */
    close_tile(&t);

    /* six workers: worker 2 loads a conflicting pair (A1 = A0 + 16), the others A0 + 8 */
    open_tile(&t);
    load_code(&t,
              "  get $m0, 1\n  and $m0, $m0, 7\n  setzi $m3, 2\n  cmpeq $m1, $m0, $m3\n  shl $m1, $m1, 3\n"
              "  setzi $m2, 0x80000\n  add $m4, $m2, 8\n  add $m4, $m4, $m1\n  tapack $m6:7, $m2, $m4, $m15\n"
              "  ld2x64pace $a0:1, $a2:3, $m6:7+=, $m15, 0\n  exitz $m15\n", CODE);
    run_workers(&t, CODE, 1, 1000);
    for (int w = 0; w < 6; w++) {
        char name[24];
        snprintf(name, sizeof name, "w%d.exit_status", w);
        CHECK_EQ(peek(&t, name, 0), w == 2 ? -1 : 1);
        snprintf(name, sizeof name, "w%d.$WSR", w);
        CHECK_EQ(peek(&t, name, 0) >> 4 & 0xF, w == 2 ? ET_CONFLICT : 0);
    }
    CHECK_CONTAINS(out(&t), "context 3");
    close_tile(&t);
}

int main(void)
{
    test_conflicts();
    test_three_addresses();
    test_addresses();
    test_rpt();
    test_other();
    return CHECK_DONE();
}
