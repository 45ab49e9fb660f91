/* WRAM loads and stores (semantics.md 10). Address = ra + off; the access must lie inside the
 * WRAM and be aligned to its size, else a memory fault. `endian` is !little (0, the default)
 * or !big (1); a pair is the 8-byte value (de << 32) | do, so !little puts do at a..a+3. */

ISK_INLINE void dpu_wram_check(struct isk_state *S, uint32_t addr, unsigned size, const char *what)
{
    if (ISK_UNLIKELY(addr & (size - 1)))
        FAULT(DPU_FAULT_MEMORY, "memory fault: %s of %u bytes at WRAM address 0x%x is misaligned", what, size,
              (unsigned)addr);
    if (ISK_UNLIKELY((uint64_t)addr + size > S->wram_bytes))
        FAULT(DPU_FAULT_MEMORY, "memory fault: %s of %u bytes at WRAM address 0x%x is outside the WRAM "
              "(0x%x bytes)", what, size, (unsigned)addr, (unsigned)S->wram_bytes);
}

/* The bytes are accessed as raw cells (CELLS) once the check above has passed: the per-byte
 * GET/SET of a 4-byte load cost as much as the rest of the instruction (bench_dpu). A read
 * does not check: its callers do (dpu_load_plain, dpu_load_safe). */
ISK_INLINE uint64_t dpu_wram_read(struct isk_state *S, uint32_t addr, unsigned size, int big)
{
    const uint8_t *p = CELLS(WRAM) + addr;
    uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (!big) {
        switch (size) {
        case 1: return p[0];
        case 2: { uint16_t t; memcpy(&t, p, 2); return t; }
        case 4: { uint32_t t; memcpy(&t, p, 4); return t; }
        default: memcpy(&v, p, 8); return v;
        }
    }
#endif
    for (unsigned i = 0; i < size; i++) v |= (uint64_t)p[i] << (8 * (big ? size - 1 - i : i));
    return v;
}

/* An access that dpu_wram_check would refuse: misaligned, or past the WRAM's end; tested with
 * branches, each rarely taken (a sum of flags cost a load or store three instructions more). */
ISK_INLINE bool dpu_wram_bad(struct isk_state *S, uint32_t addr, unsigned size)
{
    return addr > S->wram_last[size] || (addr & (size - 1));
}

/* A store's fault (dpu_wram_bad said so), out of line: the fault's call in the behaviour cost
 * every store a frame. */
static ISK_NOINLINE ISK_NORETURN void dpu_store_fault(struct isk_state *S, uint32_t addr, unsigned size)
{
    dpu_wram_check(S, addr, size, "store");
    __builtin_unreachable();
}

/* The bytes of a checked store, one at a time in either order. */
ISK_INLINE void dpu_wram_put_bytes(uint8_t *p, unsigned size, uint64_t v, int big)
{
    for (unsigned i = 0; i < size; i++) p[i] = (uint8_t)(v >> (8 * (big ? size - 1 - i : i)));
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* A !big store, out of line: inlined, the compiler swapped the bytes of every store before it
 * tested the order (three host instructions per sw). It takes S and the address as the
 * behaviour has them, so that the tail call moves no register (a cell pointer cost two moves). */
static ISK_NOINLINE void dpu_wram_put_big(struct isk_state *S, uint32_t addr, unsigned size, uint64_t v)
{
    dpu_wram_put_bytes(CELLS(WRAM) + addr, size, v, 1);
}
#endif

ISK_INLINE void dpu_wram_write(struct isk_state *S, uint32_t addr, unsigned size, uint64_t v, int big)
{
    if (ISK_UNLIKELY(dpu_wram_bad(S, addr, size))) dpu_store_fault(S, addr, size);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (ISK_UNLIKELY(big)) {
        dpu_wram_put_big(S, addr, size, v);
        return;
    }
    uint8_t *p = CELLS(WRAM) + addr;
    switch (size) {
    case 1: p[0] = (uint8_t)v; return;
    case 2: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); return; }
    case 4: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); return; }
    default: memcpy(p, &v, 8); return;
    }
#else
    dpu_wram_put_bytes(CELLS(WRAM) + addr, size, v, big);
#endif
}

ISK_INLINE uint32_t dpu_load(struct isk_state *S, uint32_t addr, unsigned size, int sign, int big)
{
    const uint32_t v = (uint32_t)dpu_wram_read(S, addr, size, big);
    if (!sign) return v;
    return size == 1 ? (uint32_t)(int32_t)(int8_t)(uint8_t)v : (uint32_t)(int32_t)(int16_t)(uint16_t)v;
}

/* The families: op_<name>(S, address, endian) loads (from a checked address),
 * op_<name>(S, address, value, endian) stores; DPU_SIZE_<name> is the access size the stack check of the safe forms uses. */
#define DPU_LOAD_OP(name, size, sign) enum { DPU_SIZE_##name = (size) }; \
    static inline uint64_t op_##name(struct isk_state *S, uint32_t addr, int64_t endian) \
    { return (size) == 8 ? dpu_wram_read(S, addr, 8, (int)endian) : dpu_load(S, addr, (size), (sign), (int)endian); }
DPU_LOAD_OP(lbs, 1, 1)
DPU_LOAD_OP(lbu, 1, 0)
DPU_LOAD_OP(lhs, 2, 1)
DPU_LOAD_OP(lhu, 2, 0)
DPU_LOAD_OP(lw, 4, 0)
DPU_LOAD_OP(ld, 8, 0)
#define DPU_STORE_OP(name, size) enum { DPU_SIZE_##name = (size) }; \
    static inline void op_##name(struct isk_state *S, uint32_t addr, uint64_t v, int64_t endian) \
    { dpu_wram_write(S, addr, (size), v, (int)endian); }
DPU_STORE_OP(sb, 1)
DPU_STORE_OP(sh, 2)
DPU_STORE_OP(sw, 4)
DPU_STORE_OP(sd, 8)

/* Safe (stack-checked) forms (semantics.md 10.2): sa is a stack descriptor, pointer p = sa[15:0],
 * limit = sa[31:16]. With c = p + off + k - limit (k = 0, 2, 4, 8 for 1, 2, 4, 8 bytes), c < 0
 * is a normal access at p + off; otherwise the access happens at p + off with the low bits
 * cleared to the access size, then a memory fault is raised. */
static inline bool dpu_safe_addr(uint32_t sa, int32_t off, unsigned size, uint32_t *addr)
{
    const uint32_t p = sa & 0xffff, limit = sa >> 16;
    const int64_t k = size == 1 ? 0 : size;
    *addr = p + (uint32_t)off;
    if ((int64_t)p + off + k - limit < 0) return false;
    *addr &= 0xffff & ~(uint32_t)(size - 1);
    return true;
}

static inline void dpu_stack_fault(struct isk_state *S, uint32_t sa, int32_t off, unsigned size)
{
    FAULT(DPU_FAULT_MEMORY, "memory fault: stack check failed: %u-byte access at offset %d from the descriptor "
          "0x%08x (pointer 0x%x, limit 0x%x)", size, (int)off, (unsigned)sa, (unsigned)(sa & 0xffff),
          (unsigned)(sa >> 16));
}

/* The safe forms (DPU_FORM_load_ersi, DPU_FORM_store_es*): the access, then the fault. */
typedef uint64_t dpu_load_op(struct isk_state *S, uint32_t addr, int64_t endian);
typedef void dpu_store_op(struct isk_state *S, uint32_t addr, uint64_t v, int64_t endian);

/* A plain load's slow path: a misaligned or outside address (the fault), or a watched read
 * (its NOTE_READ after the write-back). One function for every load, out of line. */
static ISK_NOINLINE void dpu_load_cold(struct isk_state *S, dpu_load_op *op, unsigned size, enum dpu_dest d,
                                       int64_t c, uint32_t addr, int64_t endian)
{
    dpu_wram_check(S, addr, size, "load");
    dpu_put(S, d, c, op(S, addr, endian));
    NOTE_READ(WRAM, addr, size);
}

/* A plain load takes its fast path only if it is aligned, inside the WRAM, unwatched (h->trap
 * is zero) and little-endian (a !big load takes the cold path), tested at once: the watch then
 * costs an unwatched load nothing beyond its bounds check (a NOTE_READ after the write-back cost
 * 1 % of every DPU instruction). `endian` is a constant (the decoder's _le and _be entries,
 * gen_isa.py), so the little-endian load tests no order. */
ISK_INLINE void dpu_load_plain(struct isk_state *S, dpu_load_op *op, unsigned size, enum dpu_dest d, int64_t c,
                               uint32_t addr, int64_t endian)
{
    if (ISK_UNLIKELY(dpu_wram_bad(S, addr, size) || (S->isk.trap | (uint32_t)endian))) {
        dpu_load_cold(S, op, size, d, c, addr, endian);
        return;
    }
    dpu_put(S, d, c, op(S, addr, 0));
}

ISK_INLINE void dpu_load_safe(struct isk_state *S, dpu_load_op *op, unsigned size, enum dpu_dest d, int64_t c,
                              uint32_t sa, int64_t off, int64_t endian)
{
    uint32_t addr;
    const bool bad = dpu_safe_addr(sa, (int32_t)off, size, &addr);
    dpu_wram_check(S, addr, size, "load");
    dpu_put(S, d, c, op(S, addr, endian));
    if (bad) dpu_stack_fault(S, sa, (int32_t)off, size);   /* a fault: no read to report */
    NOTE_READ(WRAM, addr, size);
}

ISK_INLINE void dpu_store_safe(struct isk_state *S, dpu_store_op *op, unsigned size, uint32_t sa, int64_t off,
                               uint64_t v, int64_t endian)
{
    uint32_t addr;
    const bool bad = dpu_safe_addr(sa, (int32_t)off, size, &addr);
    op(S, addr, v, endian);
    if (bad) dpu_stack_fault(S, sa, (int32_t)off, size);
}
