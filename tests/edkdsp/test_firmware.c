/* The whole BCE: PicoBlaze firmware in .psm against our pbbcelib, the DFU, and a host program
 * using isekit/edkdsp.h, on one clock.
 *
 *  - the seed's example firmware (fw_seed.psm): WAL_OP_GETCAP and op 0x10, a VMUL over 0x100..
 *    with increments 1 and 2, on both cores; results and return codes;
 *  - fw_api.psm: every pbbcelib function; random DFU jobs of every operation and address mode
 *    checked element by element against the C reference; an operation set up while the previous
 *    one runs; a start refused while busy; counters, licence, CMEM accesses; GETID;
 *  - fw_lift4sa.psm: libdwt's 15-operation lifting step against the test vector of dfu.md 5;
 *  - the host API's errors: no firmware, not started, a wait that times out. */
#include <stdlib.h>

#include "dfu_harness.h"
#include "isekit/edkdsp.h"
#include "lift4sa_vector.h"

#define EXAMPLES ISEKIT_SOURCE_DIR "/models/edkdsp/examples/"
#define TESTS ISEKIT_SOURCE_DIR "/tests/edkdsp/"

static edk_bce *open_bce(const char *core, const char *firmware, const char *const *params, isk_diag *diag)
{
    edk_config cfg = { .core = core, .params = params, .diag = diag };
    edk_bce *bce = edk_open(&cfg);
    CHECK(bce != NULL);
    if (!bce) exit(1);
    CHECK_EQ(edk_set_firmware_file(bce, EDK_SLOT_P0, firmware), EDK_OK);
    CHECK_EQ(edk_start(bce, EDK_SLOT_P0), EDK_OK);
    CHECK_EQ(edk_status(bce) & EDK_STATUS_RUNNING, EDK_STATUS_RUNNING);
    return bce;
}

/* ---- the seed's example ----------------------------------------------------------------------- */

static void test_seed_example(const char *core)
{
    isk_diag diag;
    isk_diag_init(&diag);
    edk_bce *bce = open_bce(core, EXAMPLES "fw_seed.psm", NULL, &diag);
    uint32_t caps[8];
    CHECK_EQ(edk_get_capability(bce, caps), EDK_OK);
    CHECK_EQ(caps[0], 0x7F);                       /* VCOPY .. VMSUBAC */
    for (int i = 1; i < 8; i++) CHECK_EQ(caps[i], 0);

    enum { N = 40 };
    float b[2 * N], scalar = -0.75f, a[N];
    for (int i = 0; i < 2 * N; i++) b[i] = (float)(i * 7 % 13) / 3.0f - 2.0f;
    CHECK_EQ(edk_write_dmem_f32(bce, EDK_MEM_B, 0x08, b, 2 * N), EDK_OK);
    CHECK_EQ(edk_write_dmem_f32(bce, EDK_MEM_A, 0, &scalar, 1), EDK_OK);
    uint32_t rc = 0xEE;
    CHECK_EQ(edk_mb2pb(bce, 0x10), EDK_OK);
    CHECK_EQ(edk_mb2pb(bce, N), EDK_OK);
    CHECK_EQ(edk_pb2mb(bce, &rc), EDK_OK);
    CHECK_EQ(rc, 0);
    CHECK_EQ(edk_read_dmem_f32(bce, EDK_MEM_A, 0x100, a, N), EDK_OK);
    int wrong = 0;
    for (int i = 0; i < N; i++) wrong += a[i] != b[2 * i] * scalar;
    CHECK_EQ(wrong, 0);
    size_t n;
    const edk_dfu_record *log = edk_dfu_log(bce, &n);
    CHECK_EQ(n, 1);
    CHECK_EQ(log[0].op, EDK_VMUL);
    CHECK_EQ(log[0].n, N);
    CHECK_EQ(log[0].dfutime, 2 + N - 1 + 9);
    CHECK_EQ(edk_mb2pb(bce, 0x55), EDK_OK);        /* not an operation of this firmware */
    CHECK_EQ(edk_pb2mb(bce, &rc), EDK_OK);
    CHECK_EQ(rc, 0xFF);
    /* Every wait returns at the very clock its condition became true, so the total is exact
     * (the same as when waits stepped one clock at a time). */
    CHECK_EQ(edk_clock(bce), 847);
    printf("seed example on %s: GETCAP, VMUL of %d elements, unknown op: ok (%llu clocks)\n", core, N,
           (unsigned long long)edk_clock(bce));
    edk_close(bce);
}

/* ---- fw_api.psm --------------------------------------------------------------------------------- */

static void write_job(edk_bce *bce, unsigned base, int op, unsigned n, unsigned rep, const ag_setup s[8])
{
    uint32_t w[19] = { (uint32_t)op | rep << 8 | n << 16 };
    for (int k = 0; k < 8; k++) {
        w[1 + 2 * k] = (uint32_t)(s[k].addr & 0xFFFF) | (uint32_t)(s[k].inc & 0xFFFF) << 16;
        w[2 + 2 * k] = (uint32_t)(s[k].lo & 0xFFFF) | (uint32_t)(s[k].hi & 0xFFFF) << 16;
        w[17 + k / 4] |= (uint32_t)(s[k].bank | s[k].flags << 4) << (8 * (k % 4));
    }
    CHECK_EQ(edk_write_cmem(bce, base, w, 19), EDK_OK);
}

static uint32_t request(edk_bce *bce, uint32_t op)
{
    uint32_t rc = 0xEE;
    CHECK_EQ(edk_mb2pb(bce, op), EDK_OK);
    CHECK_EQ(edk_pb2mb(bce, &rc), EDK_OK);
    return rc;
}

static int random_between(int lo, int hi) { return lo + rand() % (hi - lo + 1); }

static int compare(edk_bce *bce, const ref_mem *r)
{
    static uint32_t got[1024];
    int wrong = 0;
    for (int m = 0; m < 4; m++) {
        edk_read_dmem(bce, m, 0, got, 1024);
        for (int x = 0; x < 1024; x++) wrong += got[x] != r->w[m][x];
    }
    return wrong;
}

static void random_job(ag_setup s[8], int mode)
{
    for (int k = 0; k < 8; k++) {
        int lo = random_between(0, 300), hi = lo + random_between(10, 400);
        s[k] = (ag_setup){ random_between(0, 3), random_between(lo, hi), random_between(-3, 3), lo, hi, 0 };
        if (k >= 4) s[k].hi = s[k].lo + random_between(0, 6);
        if (k >= 4) s[k].addr = s[k].lo;
    }
    for (int k = 0; k < 4; k++) s[k].flags = mode;
    /* indices come from memory D, which holds small integers */
    for (int k = 4; k < 8; k++) s[k].bank = MEM_D;
}

static void test_api_firmware(void)
{
    isk_diag diag;
    isk_diag_init(&diag);
    edk_bce *bce = open_bce("kcpsm3", TESTS "fw_api.psm", NULL, &diag);
    static ref_mem r;
    srand(99);
    for (int m = 0; m < 4; m++) {
        for (int x = 0; x < 1024; x++)
            r.w[m][x] = m == MEM_D ? (uint32_t)random_between(0, 50) : bits_of((float)random_between(-999, 999) / 8);
        CHECK_EQ(edk_write_dmem(bce, m, 0, r.w[m], 1024), EDK_OK);
    }
    /* every operation in every address mode, through the firmware */
    int jobs = 0;
    for (int op = VCOPY; op <= VMSUBAC; op++)
        for (int mode = 0; mode < 4; mode++) {
            ag_setup s[8];
            random_job(s, mode);
            unsigned n = (unsigned)random_between(1, 40), rep = (unsigned)random_between(1, 3);
            write_job(bce, 0x10, op, n, rep, s);
            CHECK_EQ(request(bce, 0x20), 0);
            ref_run(&r, op, s, n, rep);
            CHECK_EQ(compare(bce, &r), 0);
            size_t count;
            const edk_dfu_record *log = edk_dfu_log(bce, &count);
            static const unsigned latency[] = { 2, 12, 9, 21, 57, 12, 21 };
            CHECK_EQ(log[count - 1].dfutime, 2 + n * rep - 1 + latency[op]);
            jobs++;
        }
    printf("fw_api: %d DFU jobs (7 operations x 4 address modes) through pbbcelib: ok\n", jobs);

    /* prepared while running */
    ag_setup a[8], b[8];
    random_job(a, 0);
    random_job(b, 0);
    a[0] = (ag_setup){ MEM_C, 0, 1, 0, 0xFFFF, 0 };
    b[1] = (ag_setup){ MEM_C, 0, 1, 0, 0xFFFF, 0 };               /* the second reads the first's result */
    b[0] = (ag_setup){ MEM_B, 600, 1, 0, 0xFFFF, 0 };
    write_job(bce, 0x10, VMUL, 200, 1, a);
    write_job(bce, 0x30, VADD, 100, 2, b);
    CHECK_EQ(request(bce, 0x21), 0);
    ref_run(&r, VMUL, a, 200, 1);
    ref_run(&r, VADD, b, 100, 2);
    CHECK_EQ(compare(bce, &r), 0);

    /* pb2dfu_start_op */
    write_job(bce, 0x10, VSUB, 77, 1, a);
    CHECK_EQ(request(bce, 0x25), 0);
    ref_run(&r, VSUB, a, 77, 1);
    CHECK_EQ(compare(bce, &r), 0);

    /* a second start while busy is refused (error 1); the first runs to its end */
    write_job(bce, 0x10, VCOPY, 50, 1, a);
    CHECK_EQ(request(bce, 0x26), 1);
    ref_run(&r, VCOPY, a, 50, 1);
    CHECK_EQ(compare(bce, &r), 0);

    /* an unknown operation code is refused (error 2) */
    write_job(bce, 0x10, 9, 5, 1, a);
    CHECK_EQ(request(bce, 0x20), 2);

    /* counters: the last operation's time, the program time, the licence */
    write_job(bce, 0x10, VMUL, 30, 1, a);
    CHECK_EQ(request(bce, 0x20), 0);
    CHECK_EQ(request(bce, 0x24), 0);                            /* clear the program time */
    uint64_t cleared = edk_clock(bce);
    uint32_t bytes[7];
    CHECK_EQ(edk_mb2pb(bce, 0x22), EDK_OK);
    for (int i = 0; i < 7; i++) CHECK_EQ(edk_pb2mb(bce, &bytes[i]), EDK_OK);
    uint32_t rc = 0xEE;
    CHECK_EQ(edk_pb2mb(bce, &rc), EDK_OK);
    CHECK_EQ(rc, 0);
    CHECK_EQ(bytes[0] | bytes[1] << 8, 2 + 30 - 1 + 9);
    uint32_t prgtime = bytes[2] | bytes[3] << 8 | bytes[4] << 16 | bytes[5] << 24;
    CHECK(prgtime > 0 && prgtime < edk_clock(bce) - cleared + 20);
    CHECK_EQ(bytes[6], 0);

    /* CMEM: u8 and u16 reads, u16 writes into the output region */
    uint32_t word = 0xA1B2C3D4, back = 0;
    CHECK_EQ(edk_write_cmem(bce, 0x01, &word, 1), EDK_OK);
    CHECK_EQ(edk_mb2pb(bce, 0x23), EDK_OK);
    CHECK_EQ(edk_pb2mb(bce, &back), EDK_OK);
    CHECK_EQ(back, 0xA1);
    CHECK_EQ(edk_pb2mb(bce, &rc), EDK_OK);
    CHECK_EQ(rc, 0);
    CHECK_EQ(edk_read_cmem(bce, 0x90, &back, 1), EDK_OK);
    CHECK_EQ(back, 0xC3D4A1B2);

    uint32_t id = 0, caps[8];
    CHECK_EQ(edk_get_id(bce, &id), EDK_OK);
    CHECK_EQ(id, 0x5A);
    CHECK_EQ(edk_get_capability(bce, caps), EDK_OK);
    CHECK_EQ(caps[0], 0x7F);
    CHECK_EQ(edk_mb2pb(bce, WAL_OP_EXIT), EDK_OK);
    edk_close(bce);
}

static void test_licence(void)
{
    isk_diag diag;
    isk_diag_init(&diag);
    const char *params[] = { "licence_ops=1", NULL };
    edk_bce *bce = open_bce("kcpsm6", TESTS "fw_api.psm", params, &diag);
    ag_setup a[8];
    random_job(a, 0);
    write_job(bce, 0x10, VCOPY, 5, 1, a);
    CHECK_EQ(request(bce, 0x20), 0);
    CHECK_EQ(request(bce, 0x20), 3);                            /* licence run out */
    uint32_t bytes[7], rc;
    CHECK_EQ(edk_mb2pb(bce, 0x22), EDK_OK);
    for (int i = 0; i < 7; i++) CHECK_EQ(edk_pb2mb(bce, &bytes[i]), EDK_OK);
    CHECK_EQ(edk_pb2mb(bce, &rc), EDK_OK);
    CHECK_EQ(bytes[6], 1);                                      /* get_dfulic */
    edk_close(bce);
}

/* ---- libdwt's lifting step: the test vector of dfu.md section 5 ---------------------------------- */

static void test_lifting(const char *core)
{
    isk_diag diag;
    isk_diag_init(&diag);
    edk_bce *bce = open_bce(core, EXAMPLES "fw_lift4sa.psm", NULL, &diag);
    float input[16];
    lift4sa_input(input);
    const uint32_t *coefficients = lift4sa_coefficients, *expected = lift4sa_expected;
    CHECK_EQ(edk_write_dmem_f32(bce, EDK_MEM_A, 0, input, 16), EDK_OK);
    CHECK_EQ(edk_write_dmem(bce, EDK_MEM_B, 0, coefficients, 12), EDK_OK);
    uint32_t steps = 6, out[16];
    CHECK_EQ(edk_write_cmem(bce, 0x01, &steps, 1), EDK_OK);
    uint64_t start = edk_clock(bce);
    CHECK_EQ(edk_mb2pb(bce, 1), EDK_OK);
    CHECK_EQ(edk_pb2mb(bce, NULL), EDK_OK);
    CHECK_EQ(edk_read_dmem(bce, EDK_MEM_C, 0, out, 16), EDK_OK);
    int wrong = 0;
    for (int i = 0; i < 16; i++)
        if (out[i] != expected[i]) {
            fprintf(stderr, "lifting: C[%d] = %08X, expected %08X\n", i, out[i], expected[i]);
            wrong++;
        }
    CHECK_EQ(wrong, 0);
    size_t n;
    edk_dfu_log(bce, &n);
    CHECK_EQ(n, 15);
    CHECK_EQ(edk_clock(bce) - start, 2710);
    printf("libdwt lifting step on %s: 15 DFU operations, C[0..15] bit-exact: ok (%llu clocks)\n", core,
           (unsigned long long)(edk_clock(bce) - start));
    CHECK_EQ(edk_mb2pb(bce, 0), EDK_OK);
    edk_close(bce);
}

/* ---- host API errors --------------------------------------------------------------------------- */

static void test_host_errors(void)
{
    isk_diag diag;
    isk_diag_buffer out = { 0 };
    isk_diag_init(&diag);
    isk_diag_capture(&diag, &out);
    edk_config cfg = { .diag = &diag, .timeout_clocks = 5000 };
    edk_bce *bce = edk_open(&cfg);
    CHECK(bce != NULL);
    CHECK_EQ(edk_start(bce, EDK_SLOT_P1), EDK_ERR_NOINIT);     /* no firmware there */
    CHECK_EQ(edk_mb2pb(bce, 1), EDK_ERR_NOINIT);               /* nothing runs */
    uint32_t too_wide = 0x40000;
    CHECK_EQ(edk_set_firmware(bce, EDK_SLOT_P0, &too_wide, 1), EDK_ERR_RANGE);
    float x = 0;
    CHECK_EQ(edk_write_dmem_f32(bce, EDK_MEM_A, 1023, &x, 2), EDK_ERR_RANGE);
    CHECK_EQ(edk_write_cmem(bce, 0x80, &too_wide, 1), EDK_ERR_RANGE);
    CHECK_EQ(edk_set_firmware_file(bce, EDK_SLOT_P0, TESTS "fw_api.psm"), EDK_OK);
    CHECK_EQ(edk_start(bce, EDK_SLOT_P0), EDK_OK);
    uint32_t v;
    CHECK_EQ(edk_pb2mb(bce, &v), EDK_OK);                      /* the firmware waits for an op: gets 0 ... */
    CHECK_EQ(edk_mb2pb(bce, 0x20), EDK_ERR_TIMEOUT);           /* ... WAL_OP_EXIT: it stops, never comes back */
    CHECK_CONTAINS(out.text, "timeout");
    edk_close(bce);
    isk_diag_buffer_free(&out);
}

int main(void)
{
    test_seed_example("kcpsm3");
    test_seed_example("kcpsm6");
    test_api_firmware();
    test_licence();
    test_lifting("kcpsm3");
    test_lifting("kcpsm6");
    test_host_errors();
    return CHECK_DONE();
}
