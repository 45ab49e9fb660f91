/* A made-up family for tests/dpu/test_variant.c: X = a ^ b with its 16-bit halves swapped; ZF
 * only. With the one row of xorswap.tsv, this is all it takes to add an instruction. */
DPU_OP(xorswap) { (void)S; x->x = rol32(a ^ b, 16); x->writes = W_Z; }
