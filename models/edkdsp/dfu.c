/* The data flow unit (DFU) of the UTIA EdkDSP basic computing element, API version 2 ("FP01"
 * generation), after the seed document (pbbcelib API v2) and dfu.md of the reference pack.
 *
 * Four data memories A-D feed a floating-point pipeline through a crossbar: an operation reads
 * virtual vectors M1..M3 and writes M0, each produced by an address generator (AG0..AG3, with
 * slave generators AG4..AG7 for indexed modes, see dfu_ag.h). The PicoBlaze writes the
 * operation's settings into registers (AG_*, CNT, REP) and starts it; the settings are latched
 * at the start, so the next operation can be prepared while one runs. One operation runs at a
 * time (one slot); the BCE refuses a start while busy (error 1, see docs/edkdsp.md).
 *
 * Timing (dfu.md section 11): element e enters the pipeline in clock T_start + e of the
 * operation (one element per clock), and the operation ends after the pipeline latency of its
 * last element:  T = T_start + N*REP - 1 + L_op  clocks from the start, the value of the 16-bit
 * operation-time counter DFUTIME afterwards (saturating). Results are written to the data
 * memory when their element enters the pipeline, so later elements of the same operation read
 * them (dfu.md 3.1 [interp]).
 *
 * Launch words (8 bits): the operation code 0..6 (VCOPY VADD VMUL VMAC DPROD VSUB VMSUBAC).
 */
#include <isekit/model.h>

#include "dfu_ag.h"
#include "dfu_arith.h"

#define DFU_MAX_WORDS 65536

enum dfu_status_bits { DFU_BUSY = 1, DFU_FAILED = 2, DFU_LICENCE_EXPIRED = 4 };
enum dfu_error { DFU_OK = 0, DFU_ERR_BUSY = 1, DFU_ERR_OPCODE = 2, DFU_ERR_LICENCE = 3, DFU_ERR_RANGE = 4 };
enum dfu_op { VCOPY, VADD, VMUL, VMAC, DPROD, VSUB, VMSUBAC, DFU_NOPS };

/* ---- storage -------------------------------------------------------------------------------- */

STATE_BEGIN
    DECLARE_MEMORY(UINT(32, 0), DFU_MAX_WORDS) DMA;     /* data memories; memory_words of each used */
    DECLARE_MEMORY(UINT(32, 0), DFU_MAX_WORDS) DMB;
    DECLARE_MEMORY(UINT(32, 0), DFU_MAX_WORDS) DMC;
    DECLARE_MEMORY(UINT(32, 0), DFU_MAX_WORDS) DMD;
    /* settings of the next operation, per address generator 0..7 (4..7 = slaves of 0..3) */
    DECLARE_REGISTERS_FILE(UINT(2, 0), 8) AG_BANK;      /* physical memory: 0 = A .. 3 = D */
    DECLARE_REGISTERS_FILE(UINT(16, 0), 8) AG_ADDR;     /* start address O */
    DECLARE_REGISTERS_FILE(INT(16, 0), 8) AG_INC;       /* increment I */
    DECLARE_REGISTERS_FILE(UINT(16, 0), 8) AG_LO;       /* lower bound L */
    DECLARE_REGISTERS_FILE(UINT(16, 0), 8) AG_HI;       /* upper bound U */
    DECLARE_REGISTERS_FILE(UINT(2, 0), 8) AG_FLAGS;     /* USE_IDX = 1, STEP_IDXBND = 2 (main AGs) */
    DECLARE_REGISTER(UINT(16, 0)) CNT;                  /* N: elements per repetition */
    DECLARE_REGISTER(UINT(8, 0)) REP;                   /* repetitions */
    /* status */
    DECLARE_REGISTER(UINT(8, 0)) STATUS;                /* enum dfu_status_bits */
    DECLARE_REGISTER(UINT(8, 0)) ERROR;                 /* enum dfu_error of the last operation */
    DECLARE_REGISTER(UINT(16, 0)) DFUTIME;              /* clocks of the last operation */
    DECLARE_REGISTER(UINT(64, 0)) STARTED;              /* the clock the last operation started */
    DECLARE_REGISTER(UINT(32, 0)) OPS;                  /* operations run (the licence counts them) */
    DECLARE_REGISTERS_FILE(UINT(32, 0), 8) CAPS;        /* 256-bit capability bitmap: bit n = op n */
    DECLARE_REGISTER(UINT(32, 0)) RANGE_WARNINGS;       /* addresses beyond memory_words, wrapped */
    DECLARE_MEMORY(UINT(32, 0), 256) CMEM;              /* control/status memory, shared with the host */
    /* configuration, from the PARAMs at reset */
    uint32_t words, mask;                               /* memory_words and memory_words - 1 */
    uint32_t t_start, latency[DFU_NOPS];
    uint32_t licence_ops;                               /* 0 = unlimited */
    bool index_is_float, range_is_error;
    dfu_numerics num;
STATE_END

/* ---- configuration -------------------------------------------------------------------------- */

/* The parameters were checked when they were set (their declarations below). */
static void dfu_on_reset(isk_hdr *h)
{
    struct isk_state *S = (struct isk_state *)(void *)h;
    S->words = (uint32_t)GET_PARAM("memory_words");
    S->mask = S->words - 1;
    S->t_start = (uint32_t)GET_PARAM("t_start");
    S->latency[VCOPY] = (uint32_t)GET_PARAM("latency_vcopy");
    S->latency[VADD] = S->latency[VSUB] = (uint32_t)GET_PARAM("latency_vadd");
    S->latency[VMUL] = (uint32_t)GET_PARAM("latency_vmul");
    S->latency[VMAC] = S->latency[VMSUBAC] = (uint32_t)GET_PARAM("latency_vmac");
    S->latency[DPROD] = (uint32_t)GET_PARAM("latency_dprod");
    S->licence_ops = (uint32_t)GET_PARAM("licence_ops");
    S->num.format = GET_PARAM("word_format") ? DFU_INT32 : DFU_FP32;
    S->num.fused = GET_PARAM("mac_rounding");
    S->num.ftz = GET_PARAM("denormals");
    S->index_is_float = GET_PARAM("index_format");
    S->range_is_error = GET_PARAM("address_range");
    /* the defaults of the seed's Table 1 */
    for (int k = 0; k < 8; k++) CELLS(AG_HI)[k] = 0xFFFF;
    CELLS(REP)[0] = 1;
    CELLS(CAPS)[0] = (1u << DFU_NOPS) - 1;
}

/* ---- memories --------------------------------------------------------------------------------- */

typedef struct dfu_job {
    int op;
    uint32_t n, rep;
    dfu_ag ag[8];
    bool out_of_range;
    uint32_t range_warnings;     /* addresses beyond memory_words in this operation */
} dfu_job;

static uint32_t dm_read(STATE, unsigned bank, uint32_t a)
{
    switch (bank) {
    case 0: return GET(DMA, a);
    case 1: return GET(DMB, a);
    case 2: return GET(DMC, a);
    default: return GET(DMD, a);
    }
}

static void dm_write(STATE, unsigned bank, uint32_t a, uint32_t v)
{
    switch (bank) {
    case 0: SET(DMA, a, v); break;
    case 1: SET(DMB, a, v); break;
    case 2: SET(DMC, a, v); break;
    default: SET(DMD, a, v); break;
    }
}

/* An address for the memory: beyond memory_words it wraps (and is counted, or is an error). */
static uint32_t dm_address(STATE, dfu_job *j, int64_t a)
{
    if (a < 0 || a >= (int64_t)S->words) {
        j->range_warnings++;
        j->out_of_range = true;
    }
    return (uint32_t)((uint64_t)a & S->mask);
}

/* The address AG k gives the current element (dfu_ag.h: with USE_IDX the slave's data word is
 * added as an index). */
static uint32_t ag_address(STATE, dfu_job *j, int k)
{
    const dfu_ag *g = &j->ag[k];
    int64_t a = g->i;
    if (g->flags & DFU_AGFL_USE_IDX) {
        const dfu_ag *slave = &j->ag[k + 4];
        uint32_t word = dm_read(S, slave->bank, dm_address(S, j, slave->i));
        a += S->index_is_float ? (int64_t)dfu_f32(word) : (int64_t)word;
    }
    return dm_address(S, j, a);
}

static uint32_t operand(STATE, dfu_job *j, int k)
{
    return dm_read(S, j->ag[k].bank, ag_address(S, j, k));
}

/* ---- the operation ---------------------------------------------------------------------------- */

static void latch_settings(STATE, dfu_job *j, int op)
{
    j->op = op;
    j->n = GET(CNT);
    j->rep = GET(REP);
    j->out_of_range = false;
    j->range_warnings = 0;
    for (int k = 0; k < 8; k++)
        j->ag[k] = (dfu_ag){ .i = (int32_t)GET(AG_ADDR, k), .inc = (int32_t)GET(AG_INC, k),
                             .lo = (int32_t)GET(AG_LO, k), .hi = (int32_t)GET(AG_HI, k),
                             .bank = (unsigned)GET(AG_BANK, k), .flags = k < 4 ? (unsigned)GET(AG_FLAGS, k) : 0 };
}

/* One element of an element-wise operation: M0 = op(M1, M2, M3). */
static void element(STATE, dfu_job *j)
{
    const dfu_numerics *nm = &S->num;
    uint32_t r, a = operand(S, j, 1);
    switch (j->op) {
    case VCOPY: r = a; break;
    case VADD: r = dfu_add(nm, a, operand(S, j, 2)); break;
    case VSUB: r = dfu_sub(nm, a, operand(S, j, 2)); break;
    case VMUL: r = dfu_mul(nm, a, operand(S, j, 2)); break;
    default: {
        uint32_t b = operand(S, j, 2);
        r = dfu_mac(nm, operand(S, j, 3), a, b, j->op == VMAC ? 1 : -1);
        break;
    }
    }
    dm_write(S, j->ag[0].bank, ag_address(S, j, 0), r);
    int used = j->op == VCOPY ? 2 : j->op == VMAC || j->op == VMSUBAC ? 4 : 3;
    for (int k = 0; k < used; k++) dfu_ag_advance(&j->ag[k], &j->ag[k + 4]);
}

/* One element of DPROD: accumulate M1 * M2; the last element of a repetition writes the sum to
 * M0 and moves AG0 on (once per repetition). */
static void dprod_element(STATE, dfu_job *j, uint32_t *acc, bool last_of_rep)
{
    *acc = dfu_mac(&S->num, *acc, operand(S, j, 1), operand(S, j, 2), 1);
    dfu_ag_advance(&j->ag[1], &j->ag[5]);
    dfu_ag_advance(&j->ag[2], &j->ag[6]);
    if (!last_of_rep) return;
    dm_write(S, j->ag[0].bank, ag_address(S, j, 0), *acc);
    dfu_ag_advance(&j->ag[0], &j->ag[4]);
    *acc = 0;
}

/* The operation. Every storage is written at most once per clock (the engine checks it), so the
 * counters and flags the operation produces are kept in locals and written at its start or end. */
static void dfu_operation(STATE, int op)
{
    dfu_job j;
    latch_settings(S, &j, op);
    uint32_t ops = (uint32_t)GET(OPS);
    SET(STARTED, CLOCK);
    if (S->licence_ops && ops >= S->licence_ops) {
        SET(ERROR, DFU_ERR_LICENCE);                         /* the operation does not run */
        SET(STATUS, DFU_FAILED | DFU_LICENCE_EXPIRED);
        SET(DFUTIME, 1);
        return;
    }
    SET(OPS, ops + 1);
    uint64_t total = (uint64_t)j.n * j.rep;
    uint64_t clocks = total ? S->t_start + total - 1 + S->latency[op] : (S->t_start ? S->t_start : 1);
    if (clocks > 1) {
        SET(ERROR, DFU_OK);
        SET(STATUS, DFU_BUSY);
    }
    uint64_t now = 0;                                        /* clocks of this operation elapsed */
    uint32_t acc = 0;
    for (uint64_t e = 0; e < total; e++) {
        for (; now < S->t_start + e; now++) FinishCycle();
        if (op == DPROD) dprod_element(S, &j, &acc, (e + 1) % j.n == 0);
        else element(S, &j);
    }
    for (; now < clocks - 1; now++) FinishCycle();
    /* the last clock: results of the counters and the status */
    unsigned error = j.out_of_range && S->range_is_error ? DFU_ERR_RANGE : DFU_OK;
    if (error || clocks == 1) SET(ERROR, error);
    if (j.range_warnings) SET(RANGE_WARNINGS, GET(RANGE_WARNINGS) + j.range_warnings);
    unsigned status = (clocks == 1 ? error : GET(ERROR)) ? DFU_FAILED : 0;
    if (S->licence_ops && ops + 1 >= S->licence_ops) status |= DFU_LICENCE_EXPIRED;
    SET(STATUS, status);
    SET(DFUTIME, clocks > 0xFFFF ? 0xFFFF : clocks);
}

ACC_FUNCTION(DFU_VCOPY)   { dfu_operation(S, VCOPY); }
ACC_FUNCTION(DFU_VADD)    { dfu_operation(S, VADD); }
ACC_FUNCTION(DFU_VMUL)    { dfu_operation(S, VMUL); }
ACC_FUNCTION(DFU_VMAC)    { dfu_operation(S, VMAC); }
ACC_FUNCTION(DFU_DPROD)   { dfu_operation(S, DPROD); }
ACC_FUNCTION(DFU_VSUB)    { dfu_operation(S, VSUB); }
ACC_FUNCTION(DFU_VMSUBAC) { dfu_operation(S, VMSUBAC); }

/* ---- description ------------------------------------------------------------------------------ */

MODEL_BEGIN(edkdsp_dfu, "EdkDSP data flow unit (DFU, API v2)")
    WORD_BITS(8);
    SLOTS(1);
    PARAM_INT("memory_words", 1024, 1, DFU_MAX_WORDS, "words per data memory", .pow2 = 1);
    PARAM_ENUM("word_format", "fp32", "fp32 int32", "what the data words hold");
    PARAM_ENUM("index_format", "int", "int fp32", "USE_IDX reads the slave's word as an unsigned integer or a float");
    PARAM_ENUM("mac_rounding", "separate", "separate fused", "VMAC/VMSUBAC: two roundings or one");
    PARAM_ENUM("denormals", "ieee", "ieee ftz", "IEEE denormals, or flushed to zero");
    PARAM_ENUM("address_range", "wrap", "wrap error", "an address beyond memory_words wraps (counted) or is "
               "DFU error 4");
    PARAM_INT("licence_ops", 0, 0, UINT32_MAX, "operations before the licence runs out; 0 = never");
    PARAM_INT("t_start", 2, 0, 1000, "clocks from the start to the first element");
    PARAM_INT("latency_vcopy", 2, 1, 1000, "VCOPY pipeline latency, clocks");
    PARAM_INT("latency_vadd", 12, 1, 1000, "VADD and VSUB pipeline latency, clocks");
    PARAM_INT("latency_vmul", 9, 1, 1000, "VMUL pipeline latency, clocks");
    PARAM_INT("latency_vmac", 21, 1, 1000, "VMAC and VMSUBAC latency (multiplier, then adder), clocks");
    PARAM_INT("latency_dprod", 57, 1, 1000, "DPROD latency (multiplier and a 12-way adder tree), clocks");
    ON_RESET(dfu_on_reset);

    MEMORY(DMA, "Data memory A");
    MEMORY(DMB, "Data memory B");
    MEMORY(DMC, "Data memory C");
    MEMORY(DMD, "Data memory D");
    REGFILE_BEGIN(AG_BANK, "AG bank") REGFILE_END()
    REGFILE_BEGIN(AG_ADDR, "AG start address") REGFILE_END()
    REGFILE_BEGIN(AG_INC, "AG increment") REGFILE_END()
    REGFILE_BEGIN(AG_LO, "AG lower bound") REGFILE_END()
    REGFILE_BEGIN(AG_HI, "AG upper bound") REGFILE_END()
    REGFILE_BEGIN(AG_FLAGS, "AG flags") REGFILE_END()
    REG(CNT, "Vector length N");
    REG(REP, "Repetitions");
    REG(STATUS, "DFU status");
    REG(ERROR, "DFU error");
    REG(DFUTIME, "Operation time");
    REG(STARTED, "Start clock");
    REG(OPS, "Operations run");
    REGFILE_BEGIN(CAPS, "Capabilities") REGFILE_END()
    REG(RANGE_WARNINGS, "Address range warnings");
    SHARED_MEMORY(CMEM, "Control memory");

    INSTRUCTION("0000-0000", DFU_VCOPY, "vcopy");
    INSTRUCTION("0000-0001", DFU_VADD, "vadd");
    INSTRUCTION("0000-0010", DFU_VMUL, "vmul");
    INSTRUCTION("0000-0011", DFU_VMAC, "vmac");
    INSTRUCTION("0000-0100", DFU_DPROD, "dprod");
    INSTRUCTION("0000-0101", DFU_VSUB, "vsub");
    INSTRUCTION("0000-0110", DFU_VMSUBAC, "vmsubac");
MODEL_END
