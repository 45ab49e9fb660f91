/* 8x8 multiplies mul_{A}{a}_{B}{b} (semantics.md 7): the first letter pair picks the byte of a
 * (l = 7:0, h = 15:8; s = signed, u = unsigned), the second that of b. X = byte(a) * byte(b).
 * Mixed signedness: each byte is extended by its own letter (UNCERTAIN). ZF only. */

#define MUL_BYTE_sl(v) ((int32_t)(int8_t)(uint8_t)(v))
#define MUL_BYTE_sh(v) ((int32_t)(int8_t)(uint8_t)((v) >> 8))
#define MUL_BYTE_ul(v) ((int32_t)((v) & 0xff))
#define MUL_BYTE_uh(v) ((int32_t)(((v) >> 8) & 0xff))
#define DPU_MUL(p, q) DPU_OP(mul_##p##_##q) \
    { (void)S; x->x = (uint32_t)(MUL_BYTE_##p(a) * MUL_BYTE_##q(b)); x->a = a; x->b = b; x->writes = W_Z; }
DPU_MUL(sh, sh) DPU_MUL(sh, sl) DPU_MUL(sh, uh) DPU_MUL(sh, ul)
DPU_MUL(sl, sh) DPU_MUL(sl, sl) DPU_MUL(sl, uh) DPU_MUL(sl, ul)
DPU_MUL(uh, uh) DPU_MUL(uh, ul) DPU_MUL(ul, uh) DPU_MUL(ul, ul)

/* mul_step dc, ra, db, n (semantics.md 8.1): one step of the shift-and-add multiply.
 *   t = db.e >> 1;  dc.o = db.o + (ra << n) if db.e is odd, else db.o;  dc.e = t
 * X = t (ZF and the boot_cc condition); S = ra. */
static inline dpu_result op_mul_step(uint32_t ra, uint64_t db, int64_t n)
{
    const uint32_t e = (uint32_t)(db >> 32), o = (uint32_t)db;
    const uint32_t t = e >> 1;
    const uint32_t lo = (e & 1) ? o + (ra << (n & 31)) : o;
    return (dpu_result){ .x = { .x = t, .s = ra, .writes = W_Z }, .v = ((uint64_t)t << 32) | lo };
}

/* div_step dc, ra, db, n (semantics.md 8.2): one step of the restoring divide.
 *   t = ra << n;  if db.o >= t: dc.e = (db.e << 1) | 1, dc.o = db.o - t;  else dc.e = db.e << 1
 * No flags; div_cc tests S = ra. */
static inline dpu_result op_div_step(uint32_t ra, uint64_t db, int64_t n)
{
    const uint32_t e = (uint32_t)(db >> 32), o = (uint32_t)db;
    const uint32_t t = ra << (n & 31);
    const dpu_alu x = { .s = ra, .writes = W_NONE };
    if (o >= t) return (dpu_result){ .x = x, .v = ((uint64_t)((e << 1) | 1) << 32) | (uint32_t)(o - t) };
    return (dpu_result){ .x = x, .v = ((uint64_t)(e << 1) << 32) | o };
}
