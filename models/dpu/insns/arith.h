/* Add and subtract (semantics.md 3). A subtraction A - B is the addition A + ~B + 1 (or + CF
 * for the chained forms): CF = 1 means no borrow (A >= B unsigned), the ARM convention. */

static inline void dpu_add(dpu_alu *x, uint32_t a, uint32_t b, uint32_t carry_in)
{
    const uint64_t sum = (uint64_t)a + b + carry_in;
    x->x = (uint32_t)sum;
    x->a = a;
    x->b = b;
    x->carry = (uint8_t)(sum >> 32);
    x->writes = W_ZC;
}

/* Without a carry in, the host's carry (or borrow: CF = !borrow) is the flag, with no 64-bit
 * sum to shift: a + ~b + 1 carries exactly when a >= b. */
static inline void dpu_sum(dpu_alu *x, uint32_t a, uint32_t b, uint32_t sum, bool carry)
{
    x->x = sum;
    x->a = a;
    x->b = b;
    x->carry = carry;
    x->writes = W_ZC;
}

DPU_OP(add)   { (void)S; uint32_t s; const bool c = __builtin_add_overflow(a, b, &s); dpu_sum(x, a, b, s, c); }
DPU_OP(addc)  { dpu_add(x, a, b, CF_IN); }         /* X = a + b + CF */
DPU_OP(sub)   { (void)S; uint32_t s; const bool bw = __builtin_sub_overflow(a, b, &s); dpu_sum(x, a, ~b, s, !bw); }
DPU_OP(subc)  { dpu_add(x, a, ~b, CF_IN); }        /* X = a + ~b + CF */
DPU_OP(rsub)  { (void)S; uint32_t s; const bool bw = __builtin_sub_overflow(b, a, &s); dpu_sum(x, b, ~a, s, !bw); }
DPU_OP(rsubc) { dpu_add(x, b, ~a, CF_IN); }        /* X = b + ~a + CF */

/* Safe add/sub on a stack descriptor (add:ssi, add:sss, sub:ssi, sub:sss; printed adds/subs):
 * bits 15:0 are the pointer. If pointer +- v leaves 0..65535, the result keeps bits 23:0 with
 * the thread id in bits 31:25, the flags come from that value, and a memory fault is raised. */
enum { DPU_SIGN_add = 1, DPU_SIGN_sub = -1 };
static inline bool dpu_safe_check(struct isk_state *S, dpu_alu *x, uint32_t sa, uint32_t v, int sign)
{
    const int64_t t = (int64_t)(sa & 0xffff) + sign * (int64_t)(int32_t)v;
    const bool bad = t < 0 || t > 0xffff;
    if (bad) x->x = (x->x & 0xffffff) | (TID << 25);
    return bad;
}

static void dpu_safe_fault(struct isk_state *S, uint32_t sc, uint32_t sa, uint32_t v, int sign)
{
    FAULT(DPU_FAULT_MEMORY, "memory fault: stack check of %s s%u: pointer 0x%x %c %d leaves 0..0xffff",
          sign > 0 ? "adds" : "subs", (unsigned)sc, (unsigned)(sa & 0xffff), sign > 0 ? '+' : '-', (int)v);
}

/* The form of adds/subs (DPU_FORM_safe_ssi, DPU_FORM_safe_sss): sc = sa +- v, then the check. */
ISK_INLINE void dpu_safe_alu(struct isk_state *S, dpu_op *op, int sign, int64_t sc, uint32_t sa, uint32_t v)
{
    dpu_result r = dpu_alu_value(S, op, sa, sa, v);
    const bool bad = dpu_safe_check(S, &r.x, sa, v, sign);
    const uint32_t t = TID;
    PUT_R(sc, r.x.x);
    dpu_flags(S, t, &r.x);
    if (bad) dpu_safe_fault(S, (uint32_t)sc, sa, v, sign);
}
