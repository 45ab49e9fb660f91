/* isekit cc: the runtime routines, emitted once each when the program uses them. All work on
 * 32 bits: A = s3:s0, B = s7:s4; 16-bit operations widen first and keep the low half.
 *   _mul32   A = A * B (the low 32 bits; the same for signed and unsigned)
 *   _divu32  A = A / B, s8-sB = A % B (unsigned; shift-subtract, 32 steps)
 *   _divs32  the same, signed: C's truncation toward zero, the remainder has the dividend's sign */
#include "cc.h"

static const char mul32[] =
    "\n; _mul32: s3:s0 = s3:s0 * s7:s4 (low 32 bits). Uses s8-sC.\n"
    "_mul32:     LOAD s8, 00\n            LOAD s9, 00\n            LOAD sA, 00\n            LOAD sB, 00\n"
    "            LOAD sC, 20\n"
    "_mul32_l:   SL0 s8\n            SLA s9\n            SLA sA\n            SLA sB\n"
    "            SL0 s0\n            SLA s1\n            SLA s2\n            SLA s3\n"
    "            JUMP NC, _mul32_n\n"
    "            ADD s8, s4\n            ADDCY s9, s5\n            ADDCY sA, s6\n            ADDCY sB, s7\n"
    "_mul32_n:   SUB sC, 01\n            JUMP NZ, _mul32_l\n"
    "            LOAD s0, s8\n            LOAD s1, s9\n            LOAD s2, sA\n            LOAD s3, sB\n"
    "            RETURN\n";

static const char divu32[] =
    "\n; _divu32: s3:s0 = s3:s0 / s7:s4, sB:s8 = the remainder (unsigned). Uses s8-sC.\n"
    "_divu32:    LOAD s8, 00\n            LOAD s9, 00\n            LOAD sA, 00\n            LOAD sB, 00\n"
    "            LOAD sC, 20\n"
    "_divu32_l:  SL0 s0\n            SLA s1\n            SLA s2\n            SLA s3\n"
    "            SLA s8\n            SLA s9\n            SLA sA\n            SLA sB\n"
    "            JUMP C, _divu32_f                ; 33 bits: always at least B\n"
    "            SUB s8, s4\n            SUBCY s9, s5\n            SUBCY sA, s6\n            SUBCY sB, s7\n"
    "            JUMP C, _divu32_r\n"
    "            OR s0, 01\n            JUMP _divu32_n\n"
    "_divu32_f:  SUB s8, s4\n            SUBCY s9, s5\n            SUBCY sA, s6\n            SUBCY sB, s7\n"
    "            OR s0, 01\n            JUMP _divu32_n\n"
    "_divu32_r:  ADD s8, s4\n            ADDCY s9, s5\n            ADDCY sA, s6\n            ADDCY sB, s7\n"
    "_divu32_n:  SUB sC, 01\n            JUMP NZ, _divu32_l\n"
    "            RETURN\n";

static const char divs32[] =
    "\n; _divs32: signed s3:s0 / s7:s4 (quotient in s3:s0, remainder in sB:s8). Uses s8-sE.\n"
    "_divs32:    LOAD sD, s3\n            XOR sD, s7                     ; bit 7: the quotient's sign\n"
    "            LOAD sE, s3                     ; bit 7: the remainder's sign\n"
    "            TEST s3, 80\n            JUMP Z, _divs32_a\n"
    "            XOR s0, FF\n            XOR s1, FF\n            XOR s2, FF\n            XOR s3, FF\n"
    "            ADD s0, 01\n            ADDCY s1, 00\n            ADDCY s2, 00\n            ADDCY s3, 00\n"
    "_divs32_a:  TEST s7, 80\n            JUMP Z, _divs32_b\n"
    "            XOR s4, FF\n            XOR s5, FF\n            XOR s6, FF\n            XOR s7, FF\n"
    "            ADD s4, 01\n            ADDCY s5, 00\n            ADDCY s6, 00\n            ADDCY s7, 00\n"
    "_divs32_b:  CALL _divu32\n"
    "            TEST sD, 80\n            JUMP Z, _divs32_q\n"
    "            XOR s0, FF\n            XOR s1, FF\n            XOR s2, FF\n            XOR s3, FF\n"
    "            ADD s0, 01\n            ADDCY s1, 00\n            ADDCY s2, 00\n            ADDCY s3, 00\n"
    "_divs32_q:  TEST sE, 80\n            RETURN Z\n"
    "            XOR s8, FF\n            XOR s9, FF\n            XOR sA, FF\n            XOR sB, FF\n"
    "            ADD s8, 01\n            ADDCY s9, 00\n            ADDCY sA, 00\n            ADDCY sB, 00\n"
    "            RETURN\n";

void cc_emit_runtime(cc_ctx *c)
{
    if (c->runtime & RT_MUL32) cc_buf_add(&c->out, "%s", mul32);
    if (c->runtime & RT_DIVU32) cc_buf_add(&c->out, "%s", divu32);
    if (c->runtime & RT_DIVS32) cc_buf_add(&c->out, "%s", divs32);
}
