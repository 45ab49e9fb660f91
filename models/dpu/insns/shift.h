/* Shifts and rotations (semantics.md 5): the amount is b[4:0] (an immediate or rb); the whole
 * of b is kept for the sh32/nsh32 conditions (bit 5 of the shift register). ZF only. */

static inline uint32_t rol32(uint32_t v, unsigned n) { n &= 31; return n ? (v << n) | (v >> (32 - n)) : v; }
static inline uint32_t ror32(uint32_t v, unsigned n) { n &= 31; return n ? (v >> n) | (v << (32 - n)) : v; }

#define DPU_SHIFT(name, expr) \
    DPU_OP(name) { (void)S; const unsigned n = b & 31; x->x = (expr); x->a = a; x->b = b; x->writes = W_Z; }
DPU_SHIFT(lsl, a << n)
DPU_SHIFT(lsr, a >> n)
DPU_SHIFT(asr, (uint32_t)((int32_t)a >> n))
DPU_SHIFT(rol, rol32(a, n))
DPU_SHIFT(ror, ror32(a, n))
/* lsl1/lsr1: the vacated bits are filled with ones */
DPU_SHIFT(lsl1, (a << n) | ((UINT32_C(1) << n) - 1))
DPU_SHIFT(lsr1, (a >> n) | ~(UINT32_C(0xffffffff) >> n))
/* lslx/lsrx: the bits a shift by n pushes out (for 64-bit shift sequences); 0 when n = 0 */
DPU_SHIFT(lslx, n ? a >> (32 - n) : 0)
DPU_SHIFT(lsrx, n ? a << (32 - n) : 0)
DPU_SHIFT(lsl1x, n ? (a >> (32 - n)) | ~(UINT32_C(0xffffffff) >> (32 - n)) : UINT32_C(0xffffffff))
DPU_SHIFT(lsr1x, n ? (a << (32 - n)) | ((UINT32_C(1) << (32 - n)) - 1) : UINT32_C(0xffffffff))

/* Shift-and-add, operands rc, rb, ra, n (semantics.md 5.3): rc = rb +- shift(ra, n); ZF comes
 * from the shifted value; CF is not written; the s* conditions test ra. */
static inline dpu_result dpu_shift_add(uint32_t ra, uint32_t shifted, uint32_t sum)
{
    return (dpu_result){ .x = { .x = shifted, .s = ra, .writes = W_Z }, .v = sum };
}
#define DPU_SHIFT_ADD(name, shifted, sum) \
    static inline dpu_result op_##name(uint32_t rb, uint32_t ra, int64_t n) \
    { const uint32_t sh = (shifted); return dpu_shift_add(ra, sh, (sum)); }
DPU_SHIFT_ADD(lsl_add, ra << (n & 31), rb + sh)
DPU_SHIFT_ADD(lsl_sub, ra << (n & 31), rb - sh)
DPU_SHIFT_ADD(lsr_add, ra >> (n & 31), rb + sh)
DPU_SHIFT_ADD(rol_add, rol32(ra, (unsigned)n), rb + sh)
