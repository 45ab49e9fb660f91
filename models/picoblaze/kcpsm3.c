/* PicoBlaze KCPSM3 (Spartan-3 generation), after picoblaze-isa.md sections 1, 2 and 4-9:
 * 18-bit instructions, 16 registers, a 64-byte scratchpad, a 1024-word program space, a 31-level
 * call stack that wraps silently, one shadow register for the flags an interrupt saves, and the
 * interrupt vector at 3FF. ADDCY and SUBCY set Z from their own result only.
 *
 * Encoding: opcode in bits 17:12; odd opcodes take the register sY, even ones the constant kk.
 * The assemblers write 0 in bits 3:0 of register forms, and the core ignores them ('*'); the
 * shifts ignore bits 7:4. Every other bit not listed is 0, and a word outside these formats
 * stops the simulation as an illegal instruction.
 */
#define PB_CORE 3
#define PB_PC_BITS 10
#define PB_BANKS 1
#define PB_Z_CHAINS 0
#define PB_STACK_RESETS 0
#define PB_SHADOW_FLAGS 1

#include "pb_alu.h"
#include "pb_describe.h"
#include "pb_flow.h"
#include "pb_io.h"
#include "pb_shift.h"
#include "pb_run.h"

MODEL_BEGIN(kcpsm3, "PicoBlaze KCPSM3")
    pb_describe_common(B);
    KIND_INT("ss", .hex = 1, .min = 0, .max = 0x3F);      /* the assembler refuses addresses above 3F */

    /*          opcode  sX   sY/kk/pp/ss                                                               */
    INSTRUCTION("000000-xxxx-kkkkkkkk",   LOAD_sX_kk,     "LOAD {x:reg}, {k:kk}");
    INSTRUCTION("000001-xxxx-yyyy-****",  LOAD_sX_sY,     "LOAD {x:reg}, {y:reg}");
    INSTRUCTION("000100-xxxx-pppppppp",   INPUT_sX_pp,    "INPUT {x:reg}, {p:kk}");
    INSTRUCTION("000101-xxxx-yyyy-****",  INPUT_sX_at_sY, "INPUT {x:reg}, ({y:reg})");
    INSTRUCTION("000110-xxxx-ssssssss",   FETCH_sX_ss,    "FETCH {x:reg}, {s:ss}");
    INSTRUCTION("000111-xxxx-yyyy-****",  FETCH_sX_at_sY, "FETCH {x:reg}, ({y:reg})");
    INSTRUCTION("001010-xxxx-kkkkkkkk",   AND_sX_kk,      "AND {x:reg}, {k:kk}");
    INSTRUCTION("001011-xxxx-yyyy-****",  AND_sX_sY,      "AND {x:reg}, {y:reg}");
    INSTRUCTION("001100-xxxx-kkkkkkkk",   OR_sX_kk,       "OR {x:reg}, {k:kk}");
    INSTRUCTION("001101-xxxx-yyyy-****",  OR_sX_sY,       "OR {x:reg}, {y:reg}");
    INSTRUCTION("001110-xxxx-kkkkkkkk",   XOR_sX_kk,      "XOR {x:reg}, {k:kk}");
    INSTRUCTION("001111-xxxx-yyyy-****",  XOR_sX_sY,      "XOR {x:reg}, {y:reg}");
    INSTRUCTION("010010-xxxx-kkkkkkkk",   TEST_sX_kk,     "TEST {x:reg}, {k:kk}");
    INSTRUCTION("010011-xxxx-yyyy-****",  TEST_sX_sY,     "TEST {x:reg}, {y:reg}");
    INSTRUCTION("010100-xxxx-kkkkkkkk",   COMPARE_sX_kk,  "COMPARE {x:reg}, {k:kk}");
    INSTRUCTION("010101-xxxx-yyyy-****",  COMPARE_sX_sY,  "COMPARE {x:reg}, {y:reg}");
    INSTRUCTION("011000-xxxx-kkkkkkkk",   ADD_sX_kk,      "ADD {x:reg}, {k:kk}");
    INSTRUCTION("011001-xxxx-yyyy-****",  ADD_sX_sY,      "ADD {x:reg}, {y:reg}");
    INSTRUCTION("011010-xxxx-kkkkkkkk",   ADDCY_sX_kk,    "ADDCY {x:reg}, {k:kk}");
    INSTRUCTION("011011-xxxx-yyyy-****",  ADDCY_sX_sY,    "ADDCY {x:reg}, {y:reg}");
    INSTRUCTION("011100-xxxx-kkkkkkkk",   SUB_sX_kk,      "SUB {x:reg}, {k:kk}");
    INSTRUCTION("011101-xxxx-yyyy-****",  SUB_sX_sY,      "SUB {x:reg}, {y:reg}");
    INSTRUCTION("011110-xxxx-kkkkkkkk",   SUBCY_sX_kk,    "SUBCY {x:reg}, {k:kk}");
    INSTRUCTION("011111-xxxx-yyyy-****",  SUBCY_sX_sY,    "SUBCY {x:reg}, {y:reg}");

    /*          shifts: opcode 20, selector in bits 3:0                                                */
    INSTRUCTION("100000-xxxx-****-0000",  SLA_sX,         "SLA {x:reg}");
    INSTRUCTION("100000-xxxx-****-0010",  RL_sX,          "RL {x:reg}");
    INSTRUCTION("100000-xxxx-****-0100",  SLX_sX,         "SLX {x:reg}");
    INSTRUCTION("100000-xxxx-****-0110",  SL0_sX,         "SL0 {x:reg}");
    INSTRUCTION("100000-xxxx-****-0111",  SL1_sX,         "SL1 {x:reg}");
    INSTRUCTION("100000-xxxx-****-1000",  SRA_sX,         "SRA {x:reg}");
    INSTRUCTION("100000-xxxx-****-1010",  SRX_sX,         "SRX {x:reg}");
    INSTRUCTION("100000-xxxx-****-1100",  RR_sX,          "RR {x:reg}");
    INSTRUCTION("100000-xxxx-****-1110",  SR0_sX,         "SR0 {x:reg}");
    INSTRUCTION("100000-xxxx-****-1111",  SR1_sX,         "SR1 {x:reg}");

    INSTRUCTION("101010-0000-0000-0000",  RETURN,         "RETURN", .flow = ISK_FLOW_RETURN);
    INSTRUCTION("101011-cc-0000000000",   RETURN_cc,      "RETURN {c:cond}", .flow = ISK_FLOW_RETURN);
    INSTRUCTION("101100-xxxx-pppppppp",   OUTPUT_sX_pp,   "OUTPUT {x:reg}, {p:kk}");
    INSTRUCTION("101101-xxxx-yyyy-****",  OUTPUT_sX_at_sY, "OUTPUT {x:reg}, ({y:reg})");
    INSTRUCTION("101110-xxxx-ssssssss",   STORE_sX_ss,    "STORE {x:reg}, {s:ss}");
    INSTRUCTION("101111-xxxx-yyyy-****",  STORE_sX_at_sY, "STORE {x:reg}, ({y:reg})");
    /*          flow: a 10-bit address; the conditional forms put the condition in bits 11:10    */
    INSTRUCTION("110000-00-aaaaaaaaaa",   CALL_aaa,       "CALL {a:aaa}", .flow = ISK_FLOW_CALL);
    INSTRUCTION("110001-cc-aaaaaaaaaa",   CALL_cc_aaa,    "CALL {c:cond}, {a:aaa}", .flow = ISK_FLOW_CALL);
    INSTRUCTION("110100-00-aaaaaaaaaa",   JUMP_aaa,       "JUMP {a:aaa}");
    INSTRUCTION("110101-cc-aaaaaaaaaa",   JUMP_cc_aaa,    "JUMP {c:cond}, {a:aaa}");
    INSTRUCTION("111000-0000-0000-000e",  RETURNI,        "RETURNI {e:irq}", .flow = ISK_FLOW_RETURN);
    INSTRUCTION("111100-0000-0000-0001",  ENABLE_INTERRUPT,  "ENABLE INTERRUPT");
    INSTRUCTION("111100-0000-0000-0000",  DISABLE_INTERRUPT, "DISABLE INTERRUPT");
MODEL_END
