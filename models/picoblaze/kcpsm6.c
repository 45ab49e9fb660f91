/* PicoBlaze KCPSM6 (Spartan-6 / 7-series generation), after picoblaze-isa.md sections 1 and 3-9:
 * 18-bit instructions, two banks of 16 registers, a 64/128/256-byte scratchpad, a 4096-word
 * program space, a 30-level call stack whose overflow or underflow resets the core, flags and
 * bank saved on the stack by an interrupt, and a configurable interrupt vector. ADDCY, SUBCY,
 * COMPARECY and TESTCY chain Z (new Z = result zero AND old Z), so multi-byte results test as a
 * whole.
 *
 * Encoding: opcode in bits 17:12; EVEN opcodes take the register sY, odd ones the constant kk
 * (the opposite of KCPSM3). Opcodes 30-3F form the conditional group: bits 15:14 hold the
 * condition (Z, NZ, C, NC) and bits 13:12 the kind (CALL, RETURN, JUMP); 37 is REGBANK.
 * Register forms ignore bits 3:0, shifts bits 6:4; bit 7 of opcode 14 selects HWBUILD.
 * Below, each constant form is listed before its register form: when a line fits neither, the
 * assembler reports the first form's complaint, and "constant out of range" is the useful one.
 */
#define PB_CORE 6
#define PB_PC_BITS 12
#define PB_BANKS 2
#define PB_Z_CHAINS 1
#define PB_STACK_RESETS 1
#define PB_SHADOW_FLAGS 0

#include "pb_alu.h"
#include "pb_describe.h"
#include "pb_flow.h"
#include "pb_io.h"
#include "pb_k6.h"
#include "pb_shift.h"
#include "pb_run.h"

MODEL_BEGIN(kcpsm6, "PicoBlaze KCPSM6")
    pb_describe_common(B);
    KIND_INT("ss", .hex = 1);                 /* checked against the scratchpad size at run time */
    KIND_INT("p", .hex = 1);                  /* OUTPUTK port, 0..F */
    KIND_NAMES("bank", "A=0 B=1");

    /*          opcode  sX   sY/kk/pp/ss                                                               */
    INSTRUCTION("000001-xxxx-kkkkkkkk",   LOAD_sX_kk,     "LOAD {x:reg}, {k:kk}");
    INSTRUCTION("000000-xxxx-yyyy-****",  LOAD_sX_sY,     "LOAD {x:reg}, {y:reg}");
    INSTRUCTION("000011-xxxx-kkkkkkkk",   AND_sX_kk,      "AND {x:reg}, {k:kk}");
    INSTRUCTION("000010-xxxx-yyyy-****",  AND_sX_sY,      "AND {x:reg}, {y:reg}");
    INSTRUCTION("000101-xxxx-kkkkkkkk",   OR_sX_kk,       "OR {x:reg}, {k:kk}");
    INSTRUCTION("000100-xxxx-yyyy-****",  OR_sX_sY,       "OR {x:reg}, {y:reg}");
    INSTRUCTION("000111-xxxx-kkkkkkkk",   XOR_sX_kk,      "XOR {x:reg}, {k:kk}");
    INSTRUCTION("000110-xxxx-yyyy-****",  XOR_sX_sY,      "XOR {x:reg}, {y:reg}");
    INSTRUCTION("001001-xxxx-pppppppp",   INPUT_sX_pp,    "INPUT {x:reg}, {p:kk}");
    INSTRUCTION("001000-xxxx-yyyy-****",  INPUT_sX_at_sY, "INPUT {x:reg}, ({y:reg})");
    INSTRUCTION("001011-xxxx-ssssssss",   FETCH_sX_ss,    "FETCH {x:reg}, {s:ss}");
    INSTRUCTION("001010-xxxx-yyyy-****",  FETCH_sX_at_sY, "FETCH {x:reg}, ({y:reg})");
    INSTRUCTION("001101-xxxx-kkkkkkkk",   TEST_sX_kk,     "TEST {x:reg}, {k:kk}");
    INSTRUCTION("001100-xxxx-yyyy-****",  TEST_sX_sY,     "TEST {x:reg}, {y:reg}");
    INSTRUCTION("001111-xxxx-kkkkkkkk",   TESTCY_sX_kk,   "TESTCY {x:reg}, {k:kk}");
    INSTRUCTION("001110-xxxx-yyyy-****",  TESTCY_sX_sY,   "TESTCY {x:reg}, {y:reg}");
    INSTRUCTION("010001-xxxx-kkkkkkkk",   ADD_sX_kk,      "ADD {x:reg}, {k:kk}");
    INSTRUCTION("010000-xxxx-yyyy-****",  ADD_sX_sY,      "ADD {x:reg}, {y:reg}");
    INSTRUCTION("010011-xxxx-kkkkkkkk",   ADDCY_sX_kk,    "ADDCY {x:reg}, {k:kk}");
    INSTRUCTION("010010-xxxx-yyyy-****",  ADDCY_sX_sY,    "ADDCY {x:reg}, {y:reg}");

    /*          shifts: opcode 14, selector in bits 3:0; bit 7 set = HWBUILD                           */
    INSTRUCTION("010100-xxxx-0***-0000",  SLA_sX,         "SLA {x:reg}");
    INSTRUCTION("010100-xxxx-0***-0010",  RL_sX,          "RL {x:reg}");
    INSTRUCTION("010100-xxxx-0***-0100",  SLX_sX,         "SLX {x:reg}");
    INSTRUCTION("010100-xxxx-0***-0110",  SL0_sX,         "SL0 {x:reg}");
    INSTRUCTION("010100-xxxx-0***-0111",  SL1_sX,         "SL1 {x:reg}");
    INSTRUCTION("010100-xxxx-0***-1000",  SRA_sX,         "SRA {x:reg}");
    INSTRUCTION("010100-xxxx-0***-1010",  SRX_sX,         "SRX {x:reg}");
    INSTRUCTION("010100-xxxx-0***-1100",  RR_sX,          "RR {x:reg}");
    INSTRUCTION("010100-xxxx-0***-1110",  SR0_sX,         "SR0 {x:reg}");
    INSTRUCTION("010100-xxxx-0***-1111",  SR1_sX,         "SR1 {x:reg}");
    INSTRUCTION("010100-xxxx-1***-****",  HWBUILD_sX,     "HWBUILD {x:reg}");

    INSTRUCTION("010111-xxxx-kkkkkkkk",   STAR_sX_kk,     "STAR {x:reg}, {k:kk}");
    INSTRUCTION("010110-xxxx-yyyy-****",  STAR_sX_sY,     "STAR {x:reg}, {y:reg}");
    INSTRUCTION("011001-xxxx-kkkkkkkk",   SUB_sX_kk,      "SUB {x:reg}, {k:kk}");
    INSTRUCTION("011000-xxxx-yyyy-****",  SUB_sX_sY,      "SUB {x:reg}, {y:reg}");
    INSTRUCTION("011011-xxxx-kkkkkkkk",   SUBCY_sX_kk,    "SUBCY {x:reg}, {k:kk}");
    INSTRUCTION("011010-xxxx-yyyy-****",  SUBCY_sX_sY,    "SUBCY {x:reg}, {y:reg}");
    INSTRUCTION("011101-xxxx-kkkkkkkk",   COMPARE_sX_kk,  "COMPARE {x:reg}, {k:kk}");
    INSTRUCTION("011100-xxxx-yyyy-****",  COMPARE_sX_sY,  "COMPARE {x:reg}, {y:reg}");
    INSTRUCTION("011111-xxxx-kkkkkkkk",   COMPARECY_sX_kk, "COMPARECY {x:reg}, {k:kk}");
    INSTRUCTION("011110-xxxx-yyyy-****",  COMPARECY_sX_sY, "COMPARECY {x:reg}, {y:reg}");

    /*          flow: a 12-bit address                                                                 */
    INSTRUCTION("100000-aaaaaaaaaaaa",    CALL_aaa,       "CALL {a:aaa}", .flow = ISK_FLOW_CALL);
    INSTRUCTION("100001-xxxx-kkkkkkkk",   LOAD_RETURN_sX_kk, "LOAD&RETURN {x:reg}, {k:kk}", .flow = ISK_FLOW_RETURN);
    INSTRUCTION("100010-aaaaaaaaaaaa",    JUMP_aaa,       "JUMP {a:aaa}");
    INSTRUCTION("100101-0000-0000-0000",  RETURN,         "RETURN", .flow = ISK_FLOW_RETURN);
    INSTRUCTION("100100-xxxx-yyyy-****",  CALL_at_sX_sY,  "CALL@ ({x:reg}, {y:reg})", .flow = ISK_FLOW_CALL);
    INSTRUCTION("100110-xxxx-yyyy-****",  JUMP_at_sX_sY,  "JUMP@ ({x:reg}, {y:reg})");
    INSTRUCTION("101000-0000-0000-0001",  ENABLE_INTERRUPT,  "ENABLE INTERRUPT");
    INSTRUCTION("101000-0000-0000-0000",  DISABLE_INTERRUPT, "DISABLE INTERRUPT");
    INSTRUCTION("101001-0000-0000-000e",  RETURNI,        "RETURNI {e:irq}", .flow = ISK_FLOW_RETURN);
    INSTRUCTION("101011-kkkkkkkk-pppp",   OUTPUTK_kk_p,   "OUTPUTK {k:kk}, {p:p}");
    INSTRUCTION("101101-xxxx-pppppppp",   OUTPUT_sX_pp,   "OUTPUT {x:reg}, {p:kk}");
    INSTRUCTION("101100-xxxx-yyyy-****",  OUTPUT_sX_at_sY, "OUTPUT {x:reg}, ({y:reg})");
    INSTRUCTION("101111-xxxx-ssssssss",   STORE_sX_ss,    "STORE {x:reg}, {s:ss}");
    INSTRUCTION("101110-xxxx-yyyy-****",  STORE_sX_at_sY, "STORE {x:reg}, ({y:reg})");

    /*          the conditional group: 11, condition, kind                                            */
    INSTRUCTION("11-cc-00-aaaaaaaaaaaa",  CALL_cc_aaa,    "CALL {c:cond}, {a:aaa}", .flow = ISK_FLOW_CALL);
    INSTRUCTION("11-cc-01-000000000000",  RETURN_cc,      "RETURN {c:cond}", .flow = ISK_FLOW_RETURN);
    INSTRUCTION("11-cc-10-aaaaaaaaaaaa",  JUMP_cc_aaa,    "JUMP {c:cond}, {a:aaa}");
    INSTRUCTION("110111-0000-0000-000b",  REGBANK,        "REGBANK {b:bank}");
MODEL_END
