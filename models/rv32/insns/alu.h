/* RV32I integer computation (unprivileged spec, chapter 2.4): register-immediate and
 * register-register operations, lui and auipc. Shifts use the low 5 bits of the amount. */

#define RV_OP_IMM(name, expr) \
    BEHAVIOUR(name, imm, rs1, rd) { const uint32_t a = XR(rs1), b = (uint32_t)imm; (void)a; (void)b; XW(rd, (expr)); }
RV_OP_IMM(addi, a + b)
RV_OP_IMM(slti, (int32_t)a < (int32_t)b)
RV_OP_IMM(sltiu, a < b)
RV_OP_IMM(xori, a ^ b)
RV_OP_IMM(ori, a | b)
RV_OP_IMM(andi, a & b)
RV_OP_IMM(slli, a << (b & 31))
RV_OP_IMM(srli, a >> (b & 31))
RV_OP_IMM(srai, (uint32_t)((int32_t)a >> (b & 31)))

#define RV_OP(name, expr) \
    BEHAVIOUR(name, rs2, rs1, rd) { const uint32_t a = XR(rs1), b = XR(rs2); XW(rd, (expr)); }
RV_OP(add, a + b)
RV_OP(sub, a - b)
RV_OP(sll, a << (b & 31))
RV_OP(slt, (int32_t)a < (int32_t)b)
RV_OP(sltu, a < b)
RV_OP(xor_, a ^ b)
RV_OP(srl, a >> (b & 31))
RV_OP(sra, (uint32_t)((int32_t)a >> (b & 31)))
RV_OP(or_, a | b)
RV_OP(and_, a & b)

BEHAVIOUR(lui, imm, rd) { XW(rd, (uint32_t)imm << 12); }
BEHAVIOUR(auipc, imm, rd) { XW(rd, RV_PC + ((uint32_t)imm << 12)); }
