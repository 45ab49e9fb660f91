/* The M extension (unprivileged spec, chapter 7). Division never traps: by zero the quotient
 * is all ones and the remainder the dividend; INT_MIN / -1 gives INT_MIN and remainder 0. The
 * PARAMs mul_cycles and div_cycles give their cost in clocks (1 = no extra clock). */

static inline void rv_mul_cost(struct isk_state *S, uint32_t cycles)
{
    if (ISK_UNLIKELY(cycles > 1)) BLOCK_FOR(cycles);
}

#define RV_MUL(name, expr) \
    BEHAVIOUR(name, rs2, rs1, rd) { const uint32_t a = XR(rs1), b = XR(rs2); XW(rd, (expr)); rv_mul_cost(S, S->mul_cycles); }
RV_MUL(mul, a * b)
RV_MUL(mulh, (uint32_t)(((int64_t)(int32_t)a * (int64_t)(int32_t)b) >> 32))
RV_MUL(mulhsu, (uint32_t)(((int64_t)(int32_t)a * (int64_t)(uint64_t)b) >> 32))
RV_MUL(mulhu, (uint32_t)(((uint64_t)a * (uint64_t)b) >> 32))

static inline uint32_t rv_div(int32_t a, int32_t b)
{
    if (b == 0) return UINT32_MAX;
    if (a == INT32_MIN && b == -1) return (uint32_t)INT32_MIN;
    return (uint32_t)(a / b);
}
static inline uint32_t rv_rem(int32_t a, int32_t b)
{
    if (b == 0) return (uint32_t)a;
    if (a == INT32_MIN && b == -1) return 0;
    return (uint32_t)(a % b);
}

#define RV_DIV(name, expr) \
    BEHAVIOUR(name, rs2, rs1, rd) { const uint32_t a = XR(rs1), b = XR(rs2); XW(rd, (expr)); rv_mul_cost(S, S->div_cycles); }
RV_DIV(div_, rv_div((int32_t)a, (int32_t)b))
RV_DIV(divu, b ? a / b : UINT32_MAX)
RV_DIV(rem, rv_rem((int32_t)a, (int32_t)b))
RV_DIV(remu, b ? a % b : a)
