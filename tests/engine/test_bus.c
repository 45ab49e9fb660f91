/* A processor's bus (isk_map_storage, BUS_READ/BUS_WRITE; src/engine/bus.c): storages of other
 * instances in its byte address space, little endian, accesses split across cells, refusals of
 * unmapped accesses and of overlapping mappings, and the timing docs/semantics.md states: a
 * processor write is seen by a command launched the clock after at once (a host write, whatever
 * the storage's latency), a command's write when it commits. */
#define ISK_BUILTIN_MODEL 1
#include <stdio.h>

#include "check.h"
#include "encode.h"
#include "isekit/model.h"
#include "isekit/sim.h"

/* A toy load/store machine: X the address, A the value, D what loads read (-1: unmapped). */
STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(32, 0), 64) ROM;
    DECLARE_REGISTER(UINT(64)) A;
    DECLARE_REGISTER(UINT(32)) X;
    DECLARE_REGISTER(UINT(8)) F;                  /* stores refused */
    DECLARE_MEMORY(INT(64), 16) D;
STATE_END

BEHAVIOUR(Li, i)        { SET(A, i); }
BEHAVIOUR(Lhi, i)       { SET(A, (uint64_t)GET(A) | (uint64_t)i << 32); }
BEHAVIOUR(Lx, i)        { SET(X, i); }
BEHAVIOUR(Ld, n, d)
{
    uint64_t v;
    SET(D, d, BUS_READ(GET(X), (int)n, &v) ? (int64_t)v : -1);
}
BEHAVIOUR(St, n)        { if (!BUS_WRITE(GET(X), (int)n, GET(A))) SET(F, GET(F) + 1); }
BEHAVIOUR(Launch, n)    { LAUNCH(n, GET(A)); }
BEHAVIOUR(Halt)         { STOP_CONTEXT(CONTEXT); }

MODEL_BEGIN(bus_toy, "toy load/store processor on the bus")
    WORD_BITS(32);
    PROCESSOR(.code = "ROM", .contexts = 1, .issue = ISK_ISSUE_CPI, .cpi = 1);
    MEMORY(ROM, "code");
    REG(A, "A");
    REG(X, "X");
    REG(F, "F");
    MEMORY(D, "loads");
    INSTRUCTION("0001-0000-iiiiiiiiiiiiiiiiiiiiiiii", Li, "li {i}");
    INSTRUCTION("0010-0000-iiiiiiiiiiiiiiiiiiiiiiii", Lhi, "lhi {i}");
    INSTRUCTION("0011-0000-iiiiiiiiiiiiiiiiiiiiiiii", Lx, "lx {i}");
    INSTRUCTION("0100-nnnn-dddd-00000000000000000000", Ld, "ld {n}, d{d}");
    INSTRUCTION("0101-nnnn-000000000000000000000000", St, "st {n}");
    INSTRUCTION("0110-nnnn-000000000000000000000000", Launch, "launch {n}");
    INSTRUCTION("0111-0000-000000000000000000000000", Halt, "halt");
MODEL_END

typedef struct rig {
    isk_diag d;
    isk_diag_buffer out;
    isk_model *m, *ex;
    isk_system *sys;
    isk_inst *p, *acc;
} rig;

static void rig_open(rig *r)
{
    isk_diag_init(&r->d);
    isk_diag_capture(&r->d, &r->out);
    r->m = isk_model_from_entry(&isk_model_bus_toy, "test", &r->d);
    r->ex = isk_model_load("example", &r->d);
    r->sys = isk_system_new(&(isk_system_options){ .diag = &r->d });
    r->p = isk_system_add(r->sys, r->m, "cpu");
    r->acc = isk_system_add(r->sys, r->ex, "acc");
    isk_attach(r->sys, r->acc, 0);
}

static void rig_load(rig *r, const char *const *program)
{
    for (uint64_t pc = 0; program[pc]; pc++) isk_write(r->p, "ROM", pc, (int64_t)test_encode(r->m, program[pc], pc));
}

static void rig_close(rig *r)
{
    isk_system_free(r->sys);
    isk_model_release(r->m);
    isk_model_release(r->ex);
    isk_diag_buffer_free(&r->out);
}

static int64_t cell(isk_inst *inst, const char *name, uint64_t i)
{
    int64_t v = 0;
    isk_read(inst, name, i, &v);
    return v;
}

/* SHM (INT(32) x 256: 4-byte cells) at 0x1000, LDM (INT(16) x 2048, latency 3: 2-byte cells) at
 * 0x4000: byte order, splitting, partial writes, refusals. */
static void test_bytes(void)
{
    rig r;
    rig_open(&r);
    char msg[256] = "";
    CHECK_EQ(isk_map_storage(r.p, 0x1000, r.acc, "SHM", msg, sizeof msg), ISK_OK);
    CHECK_EQ(isk_map_storage(r.p, 0x4000, r.acc, "ldm", msg, sizeof msg), ISK_OK);
    isk_write(r.acc, "SHM", 1, 0x11223344);
    isk_write(r.acc, "SHM", 2, 0x55667788);
    isk_write(r.acc, "SHM", 255, -2);
    isk_write(r.acc, "LDM", 0, -3);
    static const char *const prog[] = {
        "lx 0x1004", "ld 4, d0", "ld 8, d1",           /* whole cells */
        "lx 0x1006", "ld 4, d2",                      /* bytes 2, 3 of SHM[1], 0, 1 of SHM[2] */
        "lx 0x1007", "ld 1, d3",
        "lx 0x13fc", "ld 4, d4",                      /* the last cell: -2 as 32 bits */
        "lx 0x13fe", "ld 4, d5",                      /* runs past the mapping: refused */
        "lx 0x0ffe", "ld 4, d6",                      /* starts before it */
        "lx 0x4000", "ld 3, d7",                      /* LDM[0] = -3 (2 bytes) and LDM[1] = 0 */
        "li 0xabcdef", "lx 0x1009", "st 2",          /* SHM[2] bytes 1, 2 */
        "lhi 0x12345", "lx 0x13fe", "st 4",          /* partly unmapped: nothing written */
        "lx 0x4002", "st 3",                         /* LDM[1] = 0xcdef, LDM[2] low byte = 0xab */
        "halt", NULL,
    };
    rig_load(&r, prog);
    CHECK_EQ(isk_run(r.sys, 0), ISK_STOPPED);
    CHECK_EQ(cell(r.p, "D", 0), 0x11223344);
    CHECK_EQ(cell(r.p, "D", 1), 0x5566778811223344ll);
    CHECK_EQ(cell(r.p, "D", 2), 0x77881122);
    CHECK_EQ(cell(r.p, "D", 3), 0x11);
    CHECK_EQ(cell(r.p, "D", 4), 0xfffffffe);
    CHECK_EQ(cell(r.p, "D", 5), -1);
    CHECK_EQ(cell(r.p, "D", 6), -1);
    CHECK_EQ(cell(r.p, "D", 7), 0xfffd);
    CHECK_EQ(cell(r.acc, "SHM", 2), 0x55cdef88);
    CHECK_EQ(cell(r.acc, "SHM", 255), -2);
    CHECK_EQ(cell(r.p, "F", 0), 1);
    CHECK_EQ(cell(r.acc, "LDM", 1), (int16_t)0xcdef);   /* a signed 16-bit cell */
    CHECK_EQ(cell(r.acc, "LDM", 2), 0xab);
    rig_close(&r);
}

static void test_refusals(void)
{
    rig r;
    rig_open(&r);
    char msg[256] = "";
    CHECK_EQ(isk_map_storage(r.p, 0x1000, r.acc, "SHM", msg, sizeof msg), ISK_OK);
    CHECK_EQ(isk_map_storage(r.p, 0x13fc, r.acc, "LDM", msg, sizeof msg), ISK_FAILED);
    CHECK_STR(msg, "acc.LDM at [0x13fc, 0x23fc) overlaps acc.SHM mapped at [0x1000, 0x1400)");
    CHECK_EQ(isk_map_storage(r.p, 0xf00, r.acc, "LDM", msg, sizeof msg), ISK_FAILED);
    CHECK_CONTAINS(msg, "overlaps acc.SHM");
    CHECK_EQ(isk_map_storage(r.p, 0x1400, r.acc, "SHM", msg, sizeof msg), ISK_OK);   /* adjacent; a storage twice */
    /* the toy's own code memory sits at 0..0x100 (64 words of 4 bytes) */
    CHECK_EQ(isk_map_storage(r.p, 0xfc, r.acc, "TM0", msg, sizeof msg), ISK_FAILED);
    CHECK_STR(msg, "acc.TM0 at [0xfc, 0x8fc) overlaps region ROM of cpu's own model 'bus_toy' at [0x0, 0x100)");
    CHECK_EQ(isk_map_storage(r.p, 0x100, r.acc, "TM0", msg, sizeof msg), ISK_OK);   /* just after */
    CHECK_EQ(isk_map_storage(r.p, 0x8000, r.acc, "NOPE", msg, sizeof msg), ISK_FAILED);
    CHECK_STR(msg, "acc (model 'example') has no storage 'NOPE'");
    CHECK_EQ(isk_map_storage(r.acc, 0x8000, r.p, "D", msg, sizeof msg), ISK_FAILED);
    CHECK_STR(msg, "acc (model 'example') is not a processor: only processors have a bus");
    CHECK_EQ(isk_map_storage(r.p, UINT64_MAX - 8, r.acc, "SHM", msg, sizeof msg), ISK_FAILED);
    CHECK_CONTAINS(msg, "runs past the end of the address space");
    static const char *const prog[] = { "halt", NULL };
    rig_load(&r, prog);
    CHECK_EQ(isk_step(r.sys, 1), ISK_OK);
    CHECK_EQ(isk_map_storage(r.p, 0x9000, r.acc, "SHM", msg, sizeof msg), ISK_FAILED);
    CHECK_STR(msg, "cpu: storages are mapped before the first clock, not at clock 1");
    rig_close(&r);
}

/* The timing of docs/semantics.md, "The bus". Clock by clock (CPI 1, the program starts at 0):
 * a command's write to SHM (latency 1) in clock t is read by the processor in clock t + 1, not
 * before; a command's latency-3 write (LDM) at t is read from t + 3 on; a
 * processor's write to LDM in clock t is read by a command launched in t + 1 although LDM has a
 * latency of 3 (a bus write is the host's, at once). */
static void test_timing(void)
{
    rig r;
    rig_open(&r);
    char msg[256] = "";
    CHECK_EQ(isk_map_storage(r.p, 0x1000, r.acc, "SHM", msg, sizeof msg), ISK_OK);
    CHECK_EQ(isk_map_storage(r.p, 0x4000, r.acc, "LDM", msg, sizeof msg), ISK_OK);
    isk_write(r.acc, "LDM", 5, 1);
    char flag[64], stm[64], ldm[64], words[3][40];
    snprintf(flag, sizeof flag, "%s", "flag shm[3], 7");
    snprintf(stm, sizeof stm, "%s", "stm ldm[5], lr1");     /* LR1 = 9, set by the host */
    snprintf(ldm, sizeof ldm, "%s", "ldm lr2, ldm[6]");
    const char *cmds[3] = { flag, stm, ldm };
    for (int i = 0; i < 3; i++)
        snprintf(words[i], sizeof words[i], "li %llu", (unsigned long long)test_encode(r.ex, cmds[i], 0));
    isk_write(r.acc, "LRF", 1, 9);
    const char *const prog[] = {
        "lx 0x100c", words[0], "ld 4, d0",          /* 0, 1, 2: SHM[3] still 0 */
        "launch 0",                                /* 3: flag written in clock 3 */
        "ld 4, d1",                                  /* 4: sees 7 */
        "lx 0x400a", words[1], "launch 0",         /* 5, 6, 7: LDM[5] = 9 written at 7, latency 3 */
        "ld 2, d2", "ld 2, d3", "ld 2, d4",              /* 8, 9: still 1; 10: 9 */
        "lx 0x400c", "li 42", "st 2",               /* 11, 12, 13: LDM[6] = 42 at once */
        words[2], "launch 0",                      /* 14, 15: the command reads 42 in clock 15 */
        "halt", NULL,
    };
    rig_load(&r, prog);
    CHECK_EQ(isk_run(r.sys, 0), ISK_STOPPED);
    CHECK_EQ(cell(r.p, "D", 0), 0);
    CHECK_EQ(cell(r.p, "D", 1), 7);
    CHECK_EQ(cell(r.p, "D", 2), 1);
    CHECK_EQ(cell(r.p, "D", 3), 1);
    CHECK_EQ(cell(r.p, "D", 4), 9);
    CHECK_EQ(cell(r.acc, "LRF", 2), 42);
    rig_close(&r);
}

int main(void)
{
    test_bytes();
    test_refusals();
    test_timing();
    return CHECK_DONE();
}
