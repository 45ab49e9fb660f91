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
