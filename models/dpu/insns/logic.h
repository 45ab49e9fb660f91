/* Logical operations (semantics.md 4): X from a and b (rb or the immediate); ZF only. */

#define DPU_LOGIC(name, expr) DPU_OP(name) { (void)S; x->x = (expr); x->writes = W_Z; }
DPU_LOGIC(and, a & b)
DPU_LOGIC(or, a | b)
DPU_LOGIC(xor, a ^ b)
DPU_LOGIC(nand, ~(a & b))
DPU_LOGIC(nor, ~(a | b))
DPU_LOGIC(nxor, ~(a ^ b))
DPU_LOGIC(andn, ~a & b)
DPU_LOGIC(orn, ~a | b)

/* Pair moves movd dc, db and swapd dc, db (the halves exchanged); their condition sees X = 0. */
static inline uint64_t op_movd(uint64_t db) { return db; }
static inline uint64_t op_swapd(uint64_t db) { return SWAP_HALVES(db); }
