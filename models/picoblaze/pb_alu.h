/* Arithmetic, logic, test and compare (picoblaze-isa.md sections 2-4).
 *
 *   AND/OR/XOR    C = 0                     Z = (r == 0)
 *   TEST          C = parity(sX & op)       Z = ((sX & op) == 0)          sX unchanged
 *   ADD, SUB      C = carry / borrow        Z = (r == 0)
 *   ADDCY, SUBCY  C = carry / borrow with C Z = (r == 0), AND old Z where PB_Z_CHAINS (KCPSM6)
 *   COMPARE       C = borrow                Z = (t == 0)                  sX unchanged
 *   KCPSM6 only:  TESTCY    C = parity ^ old C,   Z = (t == 0) AND old Z
 *                 COMPARECY C = borrow with C,    Z = (t == 0) AND old Z
 *
 * Every operation has a register form (sX, sY) and a constant form (sX, kk); the encodings of
 * the two forms differ per core and live in kcpsm3.c / kcpsm6.c.
 */
#ifndef PB_ALU_H
#define PB_ALU_H

#include "pb_state.h"

/* Each operation reads its operands and the old flags before it writes anything: a byte store
 * might alias them for all the compiler knows, and would force reloads. The operations take the
 * cells (pb_cells_of) from their behaviour, which read them once. */

static inline unsigned pb_parity(unsigned v) { return (unsigned)__builtin_parity(v); }

static inline void pb_load(pb_cells r, unsigned x, unsigned v) { r.bank[x] = (uint8_t)v; }

static inline void pb_logic_result(pb_cells r, unsigned x, unsigned v)
{
    r.bank[x] = (uint8_t)v;
    r.control[PB_C] = 0;
    r.control[PB_Z] = v == 0;
}
static inline void pb_and(pb_cells r, unsigned x, unsigned v) { pb_logic_result(r, x, r.bank[x] & v); }
static inline void pb_or(pb_cells r, unsigned x, unsigned v) { pb_logic_result(r, x, r.bank[x] | v); }
static inline void pb_xor(pb_cells r, unsigned x, unsigned v) { pb_logic_result(r, x, r.bank[x] ^ v); }

static inline void pb_test(pb_cells r, unsigned x, unsigned v)
{
    unsigned t = r.bank[x] & v;
    r.control[PB_C] = (uint8_t)pb_parity(t);
    r.control[PB_Z] = t == 0;
}

/* The sum or difference s of two bytes (and a carry): 9 significant bits, bit 8 = carry/borrow. */
static inline void pb_arith_result(pb_cells r, unsigned x, unsigned s, int write, int chained)
{
    unsigned v = s & 0xFFu;
    unsigned zero = chained ? (v == 0) & r.control[PB_Z] : v == 0;
    if (write) r.bank[x] = (uint8_t)v;
    r.control[PB_C] = (uint8_t)(s >> 8 & 1u);
    r.control[PB_Z] = (uint8_t)zero;
}
static inline void pb_add(pb_cells r, unsigned x, unsigned v) { pb_arith_result(r, x, r.bank[x] + v, 1, 0); }
static inline void pb_addcy(pb_cells r, unsigned x, unsigned v)
{
    pb_arith_result(r, x, r.bank[x] + v + r.control[PB_C], 1, PB_Z_CHAINS);
}
static inline void pb_sub(pb_cells r, unsigned x, unsigned v) { pb_arith_result(r, x, r.bank[x] - v, 1, 0); }
static inline void pb_subcy(pb_cells r, unsigned x, unsigned v)
{
    pb_arith_result(r, x, r.bank[x] - v - r.control[PB_C], 1, PB_Z_CHAINS);
}
static inline void pb_compare(pb_cells r, unsigned x, unsigned v) { pb_arith_result(r, x, r.bank[x] - v, 0, 0); }

#if PB_CORE == 6
static inline void pb_testcy(pb_cells r, unsigned x, unsigned v)
{
    unsigned t = r.bank[x] & v;
    unsigned carry = pb_parity(t) ^ r.control[PB_C], zero = (t == 0) & r.control[PB_Z];
    r.control[PB_C] = (uint8_t)carry;
    r.control[PB_Z] = (uint8_t)zero;
}
static inline void pb_comparecy(pb_cells r, unsigned x, unsigned v)
{
    pb_arith_result(r, x, r.bank[x] - v - r.control[PB_C], 0, 1);
}
#endif

/* The two forms of an operation. */
#define PB_ALU_FORMS(NAME, operation) \
    PB_BEHAVIOUR(NAME##_sX_sY, x, y) { operation(r, (unsigned)x, r.bank[y]); } \
    PB_BEHAVIOUR(NAME##_sX_kk, x, k) { operation(r, (unsigned)x, (unsigned)k); }

PB_ALU_FORMS(LOAD, pb_load)
PB_ALU_FORMS(AND, pb_and)
PB_ALU_FORMS(OR, pb_or)
PB_ALU_FORMS(XOR, pb_xor)
PB_ALU_FORMS(TEST, pb_test)
PB_ALU_FORMS(ADD, pb_add)
PB_ALU_FORMS(ADDCY, pb_addcy)
PB_ALU_FORMS(SUB, pb_sub)
PB_ALU_FORMS(SUBCY, pb_subcy)
PB_ALU_FORMS(COMPARE, pb_compare)
#if PB_CORE == 6
PB_ALU_FORMS(TESTCY, pb_testcy)
PB_ALU_FORMS(COMPARECY, pb_comparecy)
#endif

#endif
