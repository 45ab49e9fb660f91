/* Bit counting, extension, saturation, byte compare, hash (semantics.md 6). ZF only. */

DPU_OP(clz) { (void)S; (void)b; x->x = a ? (uint32_t)__builtin_clz(a) : 32; x->writes = W_Z; }
DPU_OP(clo) { (void)S; (void)b; x->x = ~a ? (uint32_t)__builtin_clz(~a) : 32; x->writes = W_Z; }
/* cls: leading bits equal to the sign bit, the sign bit included (cls(0) = 32; UNCERTAIN) */
DPU_OP(cls) { (void)b; if (a >> 31) op_clo(S, x, a, 0); else op_clz(S, x, a, 0); }
DPU_OP(cao) { (void)S; (void)b; x->x = (uint32_t)__builtin_popcount(a); x->writes = W_Z; }

DPU_OP(extsb) { (void)S; (void)b; x->x = (uint32_t)(int32_t)(int8_t)(uint8_t)a; x->writes = W_Z; }
DPU_OP(extsh) { (void)S; (void)b; x->x = (uint32_t)(int32_t)(int16_t)(uint16_t)a; x->writes = W_Z; }
DPU_OP(extub) { (void)S; (void)b; x->x = a & 0xff; x->writes = W_Z; }
DPU_OP(extuh) { (void)S; (void)b; x->x = a & 0xffff; x->writes = W_Z; }

/* cmpb4: byte i of X is 1 where byte i of a and b are equal */
DPU_OP(cmpb4)
{
    (void)S;
    uint32_t v = 0;
    for (int i = 0; i < 32; i += 8) v |= (uint32_t)(((a >> i) & 0xff) == ((b >> i) & 0xff)) << i;
    x->x = v;
    x->writes = W_Z;
}

/* sats and hash have no public definition (UNCERTAIN). The defaults below are our own choice,
 * documented in models/dpu/README.md; an embedding program may replace S->sats_hook and
 * S->hash_hook, and PARAM uncertain=fault makes them fault instead. */
static uint32_t dpu_default_sats(uint32_t ra)
{
    /* saturate the signed 32-bit value to the signed 16-bit range */
    const int32_t v = (int32_t)ra;
    return (uint32_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
}

static uint32_t dpu_default_hash(uint32_t ra, uint32_t k)
{
    /* a 4-bit-keyed mix: rotate by the key, then one round of a multiplicative hash */
    uint32_t v = rol32(ra, k & 15) ^ (k & 15) * UINT32_C(0x9e3779b9);
    v ^= v >> 16;
    v *= UINT32_C(0x85ebca6b);
    return v ^ (v >> 13);
}

static inline void dpu_uncertain(struct isk_state *S, const char *what)
{
    if (S->uncertain_fault)
        FAULT(DPU_FAULT_UNCERTAIN, "%s has no public definition (PARAM uncertain=fault)", what);
}

DPU_OP(sats) { (void)b; dpu_uncertain(S, "sats"); x->x = S->sats_hook(a); x->writes = W_Z; }
/* hash: only b[3:0] is used */
DPU_OP(hash) { dpu_uncertain(S, "hash"); x->x = S->hash_hook(a, b & 15); x->writes = W_Z; }
