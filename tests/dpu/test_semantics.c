/* The DPU's instruction semantics (semantics.md), family by family, on small programs run
 * through the engine: results, ZF/CF, every kind of condition, pairs, memory, DMA, atomics,
 * threads, faults. Branch targets are instruction indexes. */
#include "dpu_harness.h"

#define PROG(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Run a program on one thread; returns the harness still open for inspection. */
static isk_status run(dpu_harness *h, const char *const *lines)
{
    dh_open(h, NULL);
    dh_load(h, lines);
    return dh_run(h);
}

static void test_add_sub_flags(void)
{
    dpu_harness h;
    CHECK_EQ(run(&h, PROG("move r1, 0xffffffff", "add r0, r1, 2", "stop")), ISK_STOPPED);
    CHECK_EQ(dh_reg(&h, 0, 0), 1);
    CHECK_EQ(dh_cf(&h, 0), 1);
    CHECK_EQ(dh_zf(&h, 0), 0);
    dh_close(&h);

    /* 64-bit add through the carry: d2 = 0x1_ffffffff + 1 */
    run(&h, PROG("move r2, 1", "move r3, 0xffffffff", "add r3, r3, 1", "addc r2, r2, 0", "stop"));
    CHECK_EQ(dh_pair(&h, 0, 2), 0x200000000ll);
    dh_close(&h);

    /* subtract: CF = 1 means no borrow */
    run(&h, PROG("move r1, 5", "move r2, 3", "sub r0, r1, r2", "stop"));
    CHECK_EQ(dh_reg(&h, 0, 0), 2);
    CHECK_EQ(dh_cf(&h, 0), 1);
    dh_close(&h);
    run(&h, PROG("move r1, 3", "move r2, 5", "sub r0, r1, r2", "stop"));
    CHECK_EQ(dh_reg(&h, 0, 0), (uint32_t)-2);
    CHECK_EQ(dh_cf(&h, 0), 0);
    dh_close(&h);
    run(&h, PROG("move r1, 3", "sub r0, r1, r1", "stop"));
    CHECK_EQ(dh_zf(&h, 0), 1);
    CHECK_EQ(dh_cf(&h, 0), 1);
    dh_close(&h);

    /* rsub: rb - ra; sub with the immediate first: imm - ra; neg */
    run(&h, PROG("move r1, 3", "move r2, 10", "rsub r0, r1, r2", "sub r3, 100, r1", "neg r4, r1", "stop"));
    CHECK_EQ(dh_reg(&h, 0, 0), 7);
    CHECK_EQ(dh_reg(&h, 0, 3), 97);
    CHECK_EQ(dh_reg(&h, 0, 4), (uint32_t)-3);
    dh_close(&h);

    /* the runtime's 64-bit negate: sub lo, 0, lo; subc hi, 0, hi (needs CF = no borrow) */
    run(&h, PROG("move r2, 0", "move r3, 5", "sub r3, 0, r3", "subc r2, 0, r2", "stop"));
    CHECK_EQ(dh_pair(&h, 0, 2), (uint64_t)-5);
    dh_close(&h);
}

static void test_conditions(void)
{
    /* branch taken: the destination is written and PC jumps */
    CHECK_EQ(dh_r0(PROG("move r1, 5", "move r0, 0", "sub r2, r1, 5, z, 5", "move r0, 1", "stop",
                        "move r0, 2", "stop")), 2);
    CHECK_EQ(dh_r0(PROG("move r1, 5", "move r0, 0", "sub r2, r1, 4, z, 5", "move r0, 1", "stop",
                        "move r0, 2", "stop")), 1);
    /* jcc sugars: signed and unsigned */
    const char *const lt[] = { "move r1, 0xfffffffd", "move r2, 2", "move r0, 0", "jlts r1, r2, 5", "stop",
                               "or r0, r0, 1", "jltu r1, r2, 8", "or r0, r0, 2", "stop", NULL };
    CHECK_EQ(dh_r0(lt), 3);
    CHECK_EQ(dh_r0(PROG("move r1, 7", "move r0, 1", "jgtu r1, 6, 4", "move r0, 0", "stop")), 1);
    CHECK_EQ(dh_r0(PROG("move r1, 6", "move r0, 1", "jgtu r1, 6, 4", "move r0, 0", "stop")), 0);
    CHECK_EQ(dh_r0(PROG("move r1, -7", "move r0, 1", "jges r1, -7, 4", "move r0, 0", "stop")), 1);
    /* 64-bit unsigned compare: sub zero, lo, lo; subc zero, hi, hi, xgtu */
    const char *const cmp64[] = { "move r1, 1", "move r2, 0", "move r3, 0", "move r4, 5", "move r0, 0",
                                  "sub zero, r2, r4", "subc zero, r1, r3, xgtu, 9", "stop", "stop",
                                  "move r0, 1", "stop", NULL };
    CHECK_EQ(dh_r0(cmp64), 1);      /* (1, 0) > (0, 5) */
    const char *const eq64[] = { "move r1, 1", "move r2, 5", "move r3, 1", "move r4, 5", "move r0, 0",
                                 "sub zero, r2, r4", "subc zero, r1, r3, xgtu, 9", "stop", "stop",
                                 "move r0, 1", "stop", NULL };
    CHECK_EQ(dh_r0(eq64), 0);       /* equal: not greater */
    /* xz: both words zero */
    CHECK_EQ(dh_r0(PROG("move r0, 0", "sub zero, r0, 0, false", "subc zero, r0, 0, xz, 4", "stop", "move r0, 1",
                        "stop")), 1);
    /* set forms: rc = cond ? 1 : 0; flags still from X */
    CHECK_EQ(dh_r0(PROG("move r1, 3", "move r2, 5", "sub r0, r1, r2, ltu", "stop")), 1);
    CHECK_EQ(dh_r0(PROG("move r1, 5", "move r2, 5", "sub r0, r1, r2, ltu", "stop")), 0);
    CHECK_EQ(dh_r0(PROG("move r1, 5", "add r0, r1, -5, z", "stop")), 1);
    /* source conditions test ra; e/o the result */
    CHECK_EQ(dh_r0(PROG("move r1, 0", "move r0, 0", "add r2, r1, 3, sz, 4", "stop", "move r0, 1", "stop")), 1);
    CHECK_EQ(dh_r0(PROG("move r1, 2", "move r0, 0", "lsl r2, r1, 1, e, 4", "stop", "move r0, 1", "stop")), 1);
    /* overflow and carry of add */
    CHECK_EQ(dh_r0(PROG("move r1, 0x7fffffff", "move r0, 0", "add r2, r1, 1, ov, 4", "stop", "move r0, 1",
                        "stop")), 1);
    CHECK_EQ(dh_r0(PROG("move r1, 0xffffffff", "move r0, 0", "add r2, r1, 1, c, 4", "stop", "move r0, 1",
                        "stop")), 1);
    /* nc5: no carry into bit 5 */
    CHECK_EQ(dh_r0(PROG("move r1, 0x10", "move r0, 0", "add r2, r1, 1, nc5, 4", "stop", "move r0, 1",
                        "stop")), 1);
    CHECK_EQ(dh_r0(PROG("move r1, 0x1f", "move r0, 0", "add r2, r1, 1, nc5, 4", "stop", "move r0, 1",
                        "stop")), 0);
    /* sh32: bit 5 of the shift register; the shift uses bits 4:0 */
    CHECK_EQ(dh_r0(PROG("move r1, 1", "move r3, 33", "move r0, 0", "lsl r2, r1, r3, sh32, 5", "stop",
                        "move r0, r2", "stop")), 2);
    /* count max: clz of 0 */
    CHECK_EQ(dh_r0(PROG("move r1, 0", "move r0, 0", "clz r2, r1, max, 4", "stop", "move r0, r2", "stop")), 32);
}

static void test_logic_shift(void)
{
    dpu_harness h;
    run(&h, PROG("move r1, 0xf0f0f0f0", "move r2, 0xff00ff00", "and r3, r1, r2", "or r4, r1, r2",
                 "xor r5, r1, r2", "nand r6, r1, r2", "nor r7, r1, r2", "nxor r8, r1, r2", "andn r9, r1, r2",
                 "orn r10, r1, r2", "not r11, r1", "stop"));
    CHECK_EQ(dh_reg(&h, 0, 3), 0xf000f000u);
    CHECK_EQ(dh_reg(&h, 0, 4), 0xfff0fff0u);
    CHECK_EQ(dh_reg(&h, 0, 5), 0x0ff00ff0u);
    CHECK_EQ(dh_reg(&h, 0, 6), 0x0fff0fffu);
    CHECK_EQ(dh_reg(&h, 0, 7), 0x000f000fu);
    CHECK_EQ(dh_reg(&h, 0, 8), 0xf00ff00fu);
    CHECK_EQ(dh_reg(&h, 0, 9), 0x0f000f00u);
    CHECK_EQ(dh_reg(&h, 0, 10), 0xff0fff0fu);
    CHECK_EQ(dh_reg(&h, 0, 11), 0x0f0f0f0fu);
    dh_close(&h);

    run(&h, PROG("move r1, 0x80000001", "lsl r2, r1, 4", "lsr r3, r1, 4", "asr r4, r1, 4", "rol r5, r1, 4",
                 "ror r6, r1, 4", "move r7, 1", "lsl1 r8, r7, 4", "move r9, 0x80000000", "lsr1 r10, r9, 4",
                 "lslx r11, r1, 4", "move r12, 0x8000000f", "lsrx r13, r12, 4", "move r14, 0x10000000",
                 "lsl1x r15, r14, 4", "move r16, 3", "lsr1x r17, r16, 4", "lslx r18, r1, 0", "lsl1x r19, r1, 0",
                 "stop"));
    CHECK_EQ(dh_reg(&h, 0, 2), 0x00000010u);
    CHECK_EQ(dh_reg(&h, 0, 3), 0x08000000u);
    CHECK_EQ(dh_reg(&h, 0, 4), 0xf8000000u);
    CHECK_EQ(dh_reg(&h, 0, 5), 0x00000018u);
    CHECK_EQ(dh_reg(&h, 0, 6), 0x18000000u);
    CHECK_EQ(dh_reg(&h, 0, 8), 0x1fu);
    CHECK_EQ(dh_reg(&h, 0, 10), 0xf8000000u);
    CHECK_EQ(dh_reg(&h, 0, 11), 8);
    CHECK_EQ(dh_reg(&h, 0, 13), 0xf0000000u);
    CHECK_EQ(dh_reg(&h, 0, 15), 0xfffffff1u);
    CHECK_EQ(dh_reg(&h, 0, 17), 0x3fffffffu);
    CHECK_EQ(dh_reg(&h, 0, 18), 0);
    CHECK_EQ(dh_reg(&h, 0, 19), 0xffffffffu);
    dh_close(&h);

    /* shift-and-add: rc = rb + (ra << n); ZF from the shifted value */
    run(&h, PROG("move r1, 100", "move r2, 3", "lsl_add r3, r1, r2, 3", "lsl_sub r4, r1, r2, 3",
                 "lsr_add r5, r1, r2, 1", "rol_add r6, r1, r2, 31", "move r7, 0", "lsl_add r8, r1, r7, 2", "stop"));
    CHECK_EQ(dh_reg(&h, 0, 3), 124);
    CHECK_EQ(dh_reg(&h, 0, 4), 76);
    CHECK_EQ(dh_reg(&h, 0, 5), 101);
    CHECK_EQ(dh_reg(&h, 0, 6), 100 + 0x80000001u);
    CHECK_EQ(dh_reg(&h, 0, 8), 100);
    CHECK_EQ(dh_zf(&h, 0), 1);
    dh_close(&h);
}

static void test_bits_mul(void)
{
    dpu_harness h;
    run(&h, PROG("move r1, 0x00010000", "clz r2, r1", "move r3, 0xff000000", "clo r4, r3", "move r5, 0xfffffff0",
                 "cls r6, r5", "move r7, 0xffff", "cls r8, r7", "move r9, 0xf0f0", "cao r10, r9", "move r11, 0x80",
                 "extsb r12, r11", "move r13, 0x12348678", "extuh r14, r13", "extsh r15, r13", "extub r16, r13",
                 "move r17, 0x12345678", "move r18, 0xff34ff78", "cmpb4 r19, r17, r18", "stop"));
    CHECK_EQ(dh_reg(&h, 0, 2), 15);
    CHECK_EQ(dh_reg(&h, 0, 4), 8);
    CHECK_EQ(dh_reg(&h, 0, 6), 28);
    CHECK_EQ(dh_reg(&h, 0, 8), 16);
    CHECK_EQ(dh_reg(&h, 0, 10), 8);
    CHECK_EQ(dh_reg(&h, 0, 12), 0xffffff80u);
    CHECK_EQ(dh_reg(&h, 0, 14), 0x8678);
    CHECK_EQ(dh_reg(&h, 0, 15), 0xffff8678u);
    CHECK_EQ(dh_reg(&h, 0, 16), 0x78);
    CHECK_EQ(dh_reg(&h, 0, 19), 0x00010001);
    dh_close(&h);

    run(&h, PROG("move r1, 0x1234", "move r2, 0x5678", "mul_ul_ul r3, r1, r2", "mul_uh_uh r4, r1, r2",
                 "mul_ul_uh r5, r1, r2", "move r6, 0xff00", "move r7, 2", "mul_sh_sl r8, r6, r7",
                 "move r9, 0x80", "mul_sl_ul r10, r9, r9", "mul_sl_sl r11, r9, r9", "mul_sh_sl.s d12, r6, r7",
                 "stop"));
    CHECK_EQ(dh_reg(&h, 0, 3), 0x34 * 0x78);
    CHECK_EQ(dh_reg(&h, 0, 4), 0x12 * 0x56);
    CHECK_EQ(dh_reg(&h, 0, 5), 0x34 * 0x56);
    CHECK_EQ(dh_reg(&h, 0, 8), (uint32_t)-2);
    CHECK_EQ(dh_reg(&h, 0, 10), (uint32_t)(-128 * 128));
    CHECK_EQ(dh_reg(&h, 0, 11), 128 * 128);
    CHECK_EQ(dh_pair(&h, 0, 12), (uint64_t)-2);
    dh_close(&h);
}

/* 32 x 32 multiply with mul_step, as the runtime's __mulsi3 */
static void test_mul_step(void)
{
    const uint32_t a = 123457, b = 6789013;
    char lines[40][64];
    const char *prog[41];
    int n = 0;
    snprintf(lines[n], sizeof lines[n], "move r0, %u", a), n++;
    snprintf(lines[n], sizeof lines[n], "move r2, %u", b), n++;
    snprintf(lines[n], sizeof lines[n], "move r1, 0"), n++;
    for (int k = 0; k < 32; k++) snprintf(lines[n], sizeof lines[n], "mul_step d0, r2, d0, %d, z, 35", k), n++;
    snprintf(lines[n], sizeof lines[n], "stop"), n++;
    for (int i = 0; i < n; i++) prog[i] = lines[i];
    prog[n] = NULL;
    dpu_harness h;
    run(&h, prog);
    CHECK_EQ(dh_reg(&h, 0, 1), (uint32_t)(a * b));
    CHECK_EQ(dh_reg(&h, 0, 0), 0);
    dh_close(&h);
}

/* unsigned divide with div_step: r0 = quotient, r1 = remainder */
static void test_div_step(void)
{
    const uint32_t x = 1000000, y = 7;
    const int k0 = __builtin_clz(y) - __builtin_clz(x);
    char lines[40][64];
    const char *prog[41];
    int n = 0;
    snprintf(lines[n], sizeof lines[n], "move r0, 0"), n++;
    snprintf(lines[n], sizeof lines[n], "move r1, %u", x), n++;
    snprintf(lines[n], sizeof lines[n], "move r4, %u", y), n++;
    for (int k = k0; k >= 0; k--) snprintf(lines[n], sizeof lines[n], "div_step d0, r4, d0, %d", k), n++;
    snprintf(lines[n], sizeof lines[n], "stop"), n++;
    for (int i = 0; i < n; i++) prog[i] = lines[i];
    prog[n] = NULL;
    dpu_harness h;
    run(&h, prog);
    CHECK_EQ(dh_reg(&h, 0, 0), x / y);
    CHECK_EQ(dh_reg(&h, 0, 1), x % y);
    dh_close(&h);
}

static void test_pairs(void)
{
    dpu_harness h;
    run(&h, PROG("move r1, -5", "add.s d2, r1, 0, false", "add.u d4, r1, 0, false", "move.s d6, 0x80000000",
                 "move.u d8, 0x80000000", "movd d10, d2", "swapd d12, d8", "sub.s d14, one, 2, false",
                 "sub.u d16, one, r1, ltu", "stop"));
    CHECK_EQ(dh_pair(&h, 0, 2), (uint64_t)-5);
    CHECK_EQ(dh_pair(&h, 0, 4), 0xfffffffbull);
    CHECK_EQ(dh_pair(&h, 0, 6), 0xffffffff80000000ull);
    CHECK_EQ(dh_pair(&h, 0, 8), 0x80000000ull);
    CHECK_EQ(dh_pair(&h, 0, 10), (uint64_t)-5);
    CHECK_EQ(dh_pair(&h, 0, 12), 0x8000000000000000ull);
    CHECK_EQ(dh_pair(&h, 0, 14), (uint64_t)-1);
    CHECK_EQ(dh_pair(&h, 0, 16), 1);
    dh_close(&h);
}

static void test_wram(void)
{
    dpu_harness h;
    run(&h, PROG("move r1, 0x100", "move r2, 0x11223344", "move r3, 0x8899aabb", "sw r1, 0, r2", "lbu r4, r1, 0",
                 "lbs r5, r1, 3", "lhu r6, r1, 2", "sw !big, r1, 8, r2", "lw r7, r1, 8", "sd r1, 16, d2",
                 "ld d8, r1, 16", "sb_id r1, 24", "sw r1, 28, -5", "sd r1, 32, -2", "sh r1, 40, -32767",
                 "lhs r10, r1, 40", "lw.s d12, r1, 28", "lbu.u d14, r1, 28", "sd !big, r1, 48, d2",
                 "ld !big, d16, r1, 48", "sb r1, 56, -1", "lbs r18, r1, 56", "stop"));
    CHECK_EQ(dh_reg(&h, 0, 4), 0x44);
    CHECK_EQ(dh_reg(&h, 0, 5), 0x11);
    CHECK_EQ(dh_reg(&h, 0, 6), 0x1122);
    CHECK_EQ(dh_reg(&h, 0, 7), 0x44332211u);
    CHECK_EQ(dh_wram32(&h, 0x110), 0x8899aabbu);          /* !little: the odd (low) half first */
    CHECK_EQ(dh_wram32(&h, 0x114), 0x11223344u);
    CHECK_EQ(dh_pair(&h, 0, 8), 0x112233448899aabbull);
    CHECK_EQ(CELLS_OF(&h, WRAM)[0x118], 0);               /* thread id 0 */
    CHECK_EQ(dh_wram32(&h, 0x11c), 0xfffffffbu);
    CHECK_EQ(dh_wram32(&h, 0x120), 0xfffffffeu);
    CHECK_EQ(dh_wram32(&h, 0x124), 0xffffffffu);
    CHECK_EQ(dh_reg(&h, 0, 10), 0xffff8001u);
    CHECK_EQ(dh_pair(&h, 0, 12), (uint64_t)-5);
    CHECK_EQ(dh_pair(&h, 0, 14), 0xfb);
    CHECK_EQ(CELLS_OF(&h, WRAM)[0x130], 0x11);            /* !big: the 8-byte value, big-endian */
    CHECK_EQ(dh_pair(&h, 0, 16), 0x112233448899aabbull);
    CHECK_EQ(dh_reg(&h, 0, 18), (uint32_t)-1);
    dh_close(&h);

    /* the stack pointer table idiom of crt0: ld d22, id8, table (word 0 size, word 1 base) */
    dh_open(&h, NULL);
    dh_set_wram32(&h, 0x200, 1024);
    dh_set_wram32(&h, 0x204, 0x800);
    dh_load(&h, PROG("ld d22, id8, 0x200", "stop"));
    dh_run(&h);
    CHECK_EQ(dh_reg(&h, 0, 22), 0x800);
    CHECK_EQ(dh_reg(&h, 0, 23), 1024);
    dh_close(&h);

    /* sd r22, off, d22: r23 at the lower address, r22 at +4 */
    run(&h, PROG("move r22, 0x300", "move r23, 0x77", "sd r22, 8, d22", "stop"));
    CHECK_EQ(dh_wram32(&h, 0x308), 0x77);
    CHECK_EQ(dh_wram32(&h, 0x30c), 0x300);
    dh_close(&h);
}

static void check_fault(const char *const *prog, const char *what, const char *detail)
{
    dpu_harness h;
    CHECK_EQ(run(&h, prog), ISK_FAULT);
    CHECK_CONTAINS(isk_last_error(h.sys), what);
    if (detail) CHECK_CONTAINS(isk_last_error(h.sys), detail);
    dh_close(&h);
}

static void test_faults(void)
{
    dpu_harness h;
    check_fault(PROG("move r1, 0x102", "lw r0, r1, 0", "stop"), "memory fault", "misaligned");
    check_fault(PROG("move r1, 0x10000", "lw r0, r1, 0", "stop"), "memory fault", "outside the WRAM");
    check_fault(PROG("move r1, 0xfffe", "sw r1, 0, r1", "stop"), "memory fault", "pc 0x1");
    check_fault(PROG("fault 2", "stop"), "fault 2 (division by zero)", "fault code 2");
    /* bkp stops the run after itself, resumably: the run goes on to the stop */
    CHECK_EQ(run(&h, PROG("nop", "bkp", "move r0, 7", "stop")), ISK_BREAK);
    CHECK_CONTAINS(isk_stop_reason(h.sys), "pc 0x1: breakpoint: bkp");
    CHECK_EQ(isk_context_of(h.dpu, 0)->pc, 2);
    CHECK_EQ(dh_reg(&h, 0, 0), 0);
    CHECK_EQ(isk_run(h.sys, 0), ISK_STOPPED);
    CHECK_EQ(dh_reg(&h, 0, 0), 7);
    dh_close(&h);
    check_fault(PROG("move r1, 0x8000", "call r23, r1, 0"), "outside the code memory", NULL);
    /* stack checks: pointer 0x100, limit 0x120 */
    CHECK_EQ(dh_r0(PROG("move r1, 0x01200100", "move r2, 0x5a", "move r3, 0x100", "sw r3, 4, r2", "lws r0, r1, 4",
                        "stop")), 0x5a);
    check_fault(PROG("move r1, 0x0120011c", "lws r0, r1, 4", "stop"), "stack check failed", "limit 0x120");
    check_fault(PROG("move r1, 0x0001fff8", "adds r0, r1, 8", "stop"), "stack check of adds", NULL);
    CHECK_EQ(dh_r0(PROG("move r1, 0x0001fff0", "adds r0, r1, 8", "stop")), 0x0001fff8);

    /* an illegal word: no signature accepts it */
    dh_open(&h, NULL);
    int64_t bad = 0xffffffffffffll;
    isk_storage_load(h.dpu, isk_model_find_storage(h.model, "IRAM"), 0, &bad, 1);
    CHECK_EQ(dh_run(&h), ISK_FAULT);
    CHECK_CONTAINS(isk_last_error(h.sys), "illegal instruction 0xffffffffffff");
    CHECK_CONTAINS(isk_last_error(h.sys), "clock 0");
    dh_close(&h);
}

static void test_call_jump(void)
{
    CHECK_EQ(dh_r0(PROG("call r23, 4", "add r0, r0, 1", "stop", "nop", "move r0, 10", "jump r23")), 11);
    /* computed jump: jump ra, off */
    CHECK_EQ(dh_r0(PROG("move r1, 2", "jump r1, 2", "move r0, 1", "stop", "move r0, 2", "stop")), 2);
    /* call rc, ra, rb */
    CHECK_EQ(dh_r0(PROG("move r1, 2", "move r2, 2", "call r0, r1, r2", "stop", "stop")), 3);
}

static void test_atomic(void)
{
    dpu_harness h;
    /* bit 5 free: z taken; taken again: nz */
    run(&h, PROG("move r0, 0", "acquire zero, 5, z, 3", "stop", "or r0, r0, 1", "acquire zero, 5, nz, 6", "stop",
                 "or r0, r0, 2", "release zero, 5, nz, 9", "or r0, r0, 4", "acquire zero, 5, z, 11", "stop",
                 "or r0, r0, 8", "stop"));
    CHECK_EQ(dh_reg(&h, 0, 0), 1 | 2 | 8);
    dh_close(&h);
    /* the index is v[15:8] ^ v[7:0] */
    run(&h, PROG("move r1, 0x0305", "acquire r1, 0, z, 2", "stop", "stop"));
    CHECK_EQ(CELLS_OF(&h, ATOMIC)[6], 1);
    dh_close(&h);
}

static void test_threads(void)
{
    dpu_harness h;
    /* crt0's chain: each thread boots the next */
    run(&h, PROG("jeq id, 3, 2", "boot id, 1", "add r0, id, 100", "stop"));
    for (int t = 0; t < 4; t++) CHECK_EQ(dh_reg(&h, t, 0), 100u + (uint32_t)t);
    CHECK_EQ(isk_context_of(h.dpu, 4)->state, ISK_CTX_STOPPED);
    CHECK_EQ(isk_context_of(h.dpu, 4)->insns, 0);
    dh_close(&h);

    /* stop / resume: thread 1 stops; thread 0 spins on resume until that succeeds */
    run(&h, PROG("jnz id, 6", "boot zero, 1", "resume zero, 1, nz, 2", "move r0, 7", "stop", "nop",
                 "move r1, 1", "stop", "move r1, 2", "stop"));
    CHECK_EQ(dh_reg(&h, 0, 0), 7);
    CHECK_EQ(dh_reg(&h, 1, 1), 2);
    dh_close(&h);

    /* boot of a running thread: X = 1; read_run */
    run(&h, PROG("boot zero, 0, nz, 2", "stop", "read_run zero, 0, nz, 4", "stop", "move r0, 1", "stop"));
    CHECK_EQ(dh_reg(&h, 0, 0), 1);
    dh_close(&h);

    /* stop true, pc parks the thread on pc; a resume continues there */
    run(&h, PROG("stop true, 3", "move r0, 1", "stop", "stop"));
    CHECK_EQ(isk_context_of(h.dpu, 0)->pc, 3);
    dh_close(&h);

    /* v1B has 16 threads */
    dh_open_chip(&h, NULL, "v1B");
    dh_load(&h, PROG("boot zero, 20", "stop"));
    CHECK_EQ(dh_run(&h), ISK_FAULT);
    CHECK_CONTAINS(isk_last_error(h.sys), "boot of thread 20");
    dh_close(&h);
}

static void test_dma(void)
{
    dpu_harness h;
    dh_open(&h, NULL);
    for (int i = 0; i < 64; i++) CELLS_OF(&h, MRAM)[0x1000 + i] = (uint8_t)(i * 3);
    dh_load(&h, PROG("move r1, 0x100", "move r2, 0x1000", "ldma r1, r2, 3", "lw r3, r1, 4", "add r3, r3, 1",
                     "sw r1, 4, r3", "move r4, 0x2000", "sdma r1, r4, 3", "move r5, 0x01000200", "move r6, 0x3000", "sdma r5, r6, 0",
                     "stop"));
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    CHECK_EQ(CELLS_OF(&h, WRAM)[0x100 + 31], 93);
    CHECK_EQ(CELLS_OF(&h, WRAM)[0x100 + 32], 0);            /* 32 bytes only */
    CHECK_EQ(CELLS_OF(&h, MRAM)[0x2000 + 4], 13);           /* 12 + 1 */
    CHECK_EQ(CELLS_OF(&h, MRAM)[0x2000 + 31], 93);
    CHECK_EQ(h.S->dma_reads, 1);
    CHECK_EQ(h.S->dma_writes, 2);
    CHECK_EQ(h.S->dma_read_bytes, 32);
    CHECK_EQ(h.S->dma_write_bytes, 32 + 16);                /* size from ra[31:24] = 1: 16 bytes */
    dh_close(&h);

    /* ldmai: an instruction image in MRAM, 8 bytes per instruction, copied to IRAM index 8 */
    dh_open(&h, NULL);
    uint64_t img[2] = { dh_word(&h, "move r0, 42"), dh_word(&h, "stop") };
    for (int i = 0; i < 2; i++)
        for (int b = 0; b < 8; b++) CELLS_OF(&h, MRAM)[0x400 + 8 * i + b] = (uint8_t)(img[i] >> (8 * b));
    dh_load(&h, PROG("move r1, 64", "move r2, 0x400", "ldmai r1, r2, 1", "jump 8"));
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    CHECK_EQ(dh_reg(&h, 0, 0), 42);
    dh_close(&h);

    check_fault(PROG("move r1, 0xfff8", "move r2, 0", "ldma r1, r2, 1", "stop"), "DMA fault", "outside the WRAM");
    check_fault(PROG("move r1, 0", "move r2, 0x3fffff8", "sdma r1, r2, 1", "stop"), "DMA fault", "outside the MRAM");
}

static void test_time(void)
{
    dpu_harness h;
    /* cycle mode: the counter counts cycles; time returns T[35:4] */
    dh_open(&h, "cycle");
    dh_load(&h, PROG("move r1, 1", "time_cfg r2, r1", "nop", "nop", "time r0", "stop"));
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    /* reset at clock 11; time at clock 44: 33 cycles >> 4 = 2 */
    CHECK_EQ(dh_reg(&h, 0, 0), 2);
    dh_close(&h);
    /* instruction mode in functional mode: the loop runs in the engine's steady round, whose
     * count follows the clock from a bias; the move, the n turns of the loop and the time itself
     * make n + 2, 63 (one over reads 4) and 64 (one short reads 3). In one run, and in runs of 7
     * clocks, each of which starts a new round from the count the last one left. */
    for (int n = 61; n <= 62; n++)
        for (int piece = 0; piece <= 7; piece += 7) {
            dh_open(&h, NULL);
            char move[32];
            snprintf(move, sizeof move, "move r3, %d", n);
            dh_load(&h, PROG("move r1, 5", "time_cfg r2, r1", move, "add r3, r3, -1, nz, 3", "time r0", "stop"));
            isk_status st = ISK_OK;
            if (piece) while ((st = isk_run(h.sys, piece)) == ISK_OK) {}
            else st = dh_run(&h);
            CHECK_EQ(st, ISK_STOPPED);
            CHECK_EQ(dh_reg(&h, 0, 0), (uint32_t)(n + 2) >> 4);
            isk_stats s;
            isk_get_stats(h.sys, &s);
            CHECK_EQ(s.instructions, (uint64_t)n + 5);    /* the stop too */
            dh_close(&h);
        }
}

static void test_uncertain(void)
{
    dpu_harness h;
    dh_open(&h, NULL);
    isk_set_param(h.dpu, "uncertain", "fault");
    dh_load(&h, PROG("move r1, 5", "hash r0, r1, 3, false", "stop"));
    CHECK_EQ(dh_run(&h), ISK_FAULT);
    CHECK_CONTAINS(isk_last_error(h.sys), "hash has no public definition");
    dh_close(&h);
    /* the default sats: signed 32 -> signed 16 saturation */
    CHECK_EQ(dh_r0(PROG("move r1, 100000", "sats r0, r1", "stop")), 32767);
}

/* The end of the IRAM: a thread that runs off its last word, or jumps to or past its end, faults
 * there ("outside the code memory") at the same cycle, with every thread's PC, registers and
 * count the same, whether the DPU's own steady round runs it (round.h) or the engine's general
 * loop (while reads are watched, which keeps the round out). With 1 and 16 tasklets, in
 * functional and cycle mode. */
static void run_off_the_end(const char *mode, int tasklets, const char *const *tail, int tail_at, bool watched,
                            dpu_harness *h)
{
    dh_open(h, mode);
    char first[32];
    snprintf(first, sizeof first, "jeq id, %d, 2", tasklets - 1);
    char jump[32];
    snprintf(jump, sizeof jump, "jump %d", tail_at);
    dh_load(h, (const char *const[]){ first, "boot id, 1", jump, NULL });
    dh_load_at(h, tail_at, tail);
    if (watched) CHECK_EQ(isk_watch_reads(h->dpu, -1, true), ISK_OK);
    CHECK_EQ(dh_run(h), ISK_FAULT);
}

static void test_iram_end(void)
{
    const struct { const char *const *tail; int at; } tails[] = {
        { PROG("add r0, r0, 1", "lw r1, r2, 0", "add r0, r0, 2"), 4093 },    /* off the end */
        { PROG("move r3, 5", "sub r3, r3, 1, nz, 4095"), 4094 },            /* a loop in the last word */
        { PROG("add r0, r0, 1", "jump 4096"), 100 },
        { PROG("add r0, r0, 1", "jump 0xffff"), 100 },
        { PROG("move r1, 0x1000", "call r23, r1, 0"), 100 },
    };
    static const char *const modes[] = { "functional", "cycle" };
    for (size_t t = 0; t < sizeof tails / sizeof *tails; t++)
        for (int m = 0; m < 2; m++)
            for (int tasklets = 1; tasklets <= 16; tasklets += 15) {
                dpu_harness round, general;
                run_off_the_end(modes[m], tasklets, tails[t].tail, tails[t].at, false, &round);
                run_off_the_end(modes[m], tasklets, tails[t].tail, tails[t].at, true, &general);
                CHECK_CONTAINS(isk_last_error(round.sys), "is outside the code memory");
                CHECK_STR(isk_last_error(round.sys), isk_last_error(general.sys));
                CHECK_EQ(isk_clock(round.sys), isk_clock(general.sys));
                isk_stats a, b;
                isk_inst_stats(round.dpu, &a);
                isk_inst_stats(general.dpu, &b);
                CHECK_EQ(a.instructions, b.instructions);
                for (int i = 0; i < tasklets; i++) {
                    CHECK_EQ(isk_context_of(round.dpu, i)->pc, isk_context_of(general.dpu, i)->pc);
                    CHECK_EQ(isk_context_of(round.dpu, i)->state, isk_context_of(general.dpu, i)->state);
                    CHECK_EQ(dh_reg(&round, i, 0), dh_reg(&general, i, 0));
                    CHECK_EQ(dh_reg(&round, i, 3), dh_reg(&general, i, 3));
                }
                dh_close(&round);
                dh_close(&general);
            }
}

int main(void)
{
    test_add_sub_flags();
    test_conditions();
    test_logic_shift();
    test_bits_mul();
    test_mul_step();
    test_div_step();
    test_pairs();
    test_wram();
    test_faults();
    test_call_jump();
    test_atomic();
    test_threads();
    test_dma();
    test_time();
    test_uncertain();
    test_iram_end();
    if (harness_model) isk_model_release(harness_model);
    return CHECK_DONE();
}
