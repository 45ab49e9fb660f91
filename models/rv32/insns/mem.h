/* Loads and stores (unprivileged spec, chapter 2.6): 1, 2 and 4 bytes, little endian, aligned
 * (a misaligned address raises its exception, mtval = the address); core.h's rv_load/rv_store
 * reach the RAM and, for anything else, the bus. */

#define RV_LOAD(name, size, conv) \
    BEHAVIOUR(name, imm, rs1, rd) \
    { \
        uint32_t v; \
        if (rv_load(S, XR(rs1) + (uint32_t)imm, (size), &v)) XW(rd, conv); \
    }
RV_LOAD(lb, 1, (uint32_t)(int32_t)(int8_t)v)
RV_LOAD(lh, 2, (uint32_t)(int32_t)(int16_t)v)
RV_LOAD(lw, 4, v)
RV_LOAD(lbu, 1, v)
RV_LOAD(lhu, 2, v)

#define RV_STORE(name, size) \
    BEHAVIOUR(name, imm, rs2, rs1) { rv_store(S, XR(rs1) + (uint32_t)imm, (size), XR(rs2)); }
RV_STORE(sb, 1)
RV_STORE(sh, 2)
RV_STORE(sw, 4)

/* fence and fence.i order nothing in a model where every access completes at once; the decode
 * cache follows stores by itself (rv_store). */
BEHAVIOUR(fence) {}
