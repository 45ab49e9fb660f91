/* "tiny": a small processor model for the toolchain's tests, loaded as a dynamic model.
 *
 * 32-bit instructions, 4 bytes each, PC in instructions; 16 registers; code at 0 (IMEM), data
 * at 0x10000 (DMEM, 32-bit cells). Calls are absolute (R_TINY_CALL, an instruction index),
 * branches PC-relative with an 8-bit offset from the next instruction (R_TINY_BR8), addresses
 * are loaded with a 20-bit immediate (R_TINY_ABS20), data holds 32-bit words (R_TINY_32).
 * The ABI version lives in e_flags bits 31:24 (TINY_ABI, default 1), as the DPU does it. */
#include <isekit/model.h>

#ifndef TINY_ABI
#define TINY_ABI 1
#endif

STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(32, 0), 1024) IMEM;
    DECLARE_MEMORY(UINT(32, 0), 1024) DMEM;
    DECLARE_REGISTERS_FILE(INT(32, 0), 16) R;
STATE_END

BEHAVIOUR(Li, rd, imm)          { SET(R, rd, imm); }
BEHAVIOUR(Add, rd, rs, rt)      { SET(R, rd, GET(R, rs) + GET(R, rt)); }
BEHAVIOUR(Addi, rd, rs, imm)    { SET(R, rd, GET(R, rs) + imm); }
BEHAVIOUR(Ld, rd, rs, off)      { SET(R, rd, GET(DMEM, (GET(R, rs) + off - 0x10000) / 4)); }
BEHAVIOUR(St, rd, rs, off)      { SET(DMEM, (GET(R, rs) + off - 0x10000) / 4, GET(R, rd)); }
BEHAVIOUR(Bne, rs, rt, off)     { if (GET(R, rs) != GET(R, rt)) JUMP(PC + 1 + off); }
BEHAVIOUR(Call, target)         { SET(R, 15, PC + 1); JUMP(target); }
BEHAVIOUR(Ret)                  { JUMP(GET(R, 15)); }
BEHAVIOUR(Halt)                 { STOP_CONTEXT(CONTEXT); }
BEHAVIOUR(Nop)                  { }

MODEL_BEGIN(tiny, "A tiny processor for the toolchain tests")
    WORD_BITS(32);
    MEMORY(IMEM, "Instruction memory");
    MEMORY(DMEM, "Data memory");
    REGFILE_BEGIN(R, "Registers")
        REGISTER(15, "LR");
    REGFILE_END()
    KIND_NAMES("reg", "r0..r15=0 lr=15");
    KIND_INT("imm20", .min = -524288, .max = 1048575, .reloc = "R_TINY_ABS20");
    KIND_INT("s12");
    KIND_PCREL("br8", .pc_bias = 1, .reloc = "R_TINY_BR8");
    KIND_ABS("target", .hex = 1, .reloc = "R_TINY_CALL");

    INSTRUCTION("0001-dddd-iiiiiiiiiiiiiiiiiiii-0000", Li, "li {d:reg}, {i:imm20}",
                .fields = "d{3:0}=27:24; i{19:0}=23:4");
    INSTRUCTION("0010-dddd-ssss-tttt-0000000000000000", Add, "add {d:reg}, {s:reg}, {t:reg}");
    INSTRUCTION("0010-dddd-ssss-0000-0000000000000000", Add, "mov {d:reg}, {s:reg}", .alias = 1);
    /* one operand written to two places: printed only for words whose two places agree */
    INSTRUCTION("0010-dddd-ssss-ssss-0000000000000000", Add, "dbl {d:reg}, {s:reg}", .alias = 1,
                .fields = "d{3:0}=27:24 s{3:0}=23:20 s{3:0}=19:16");
    INSTRUCTION("0011-dddd-ssss-iiiiiiiiiiii-00000000", Addi, "addi {d:reg}, {s:reg}, {i:s12}", .fields = "i:s");
    INSTRUCTION("0100-dddd-ssss-iiiiiiiiiiii-00000000", Ld, "ld {d:reg}, {i:s12}({s:reg})", .fields = "i:s");
    INSTRUCTION("0101-dddd-ssss-iiiiiiiiiiii-00000000", St, "st {d:reg}, {i:s12}({s:reg})", .fields = "i:s");
    INSTRUCTION("0110-ssss-tttt-0000-0000-0000-oooooooo", Bne, "bne {s:reg}, {t:reg}, {o:br8}", .fields = "o:s");
    INSTRUCTION("0111-0000-tttttttttttttttttttttttt", Call, "call {t:target}");
    INSTRUCTION("1000-0000-0000-0000-0000-0000-0000-0000", Ret, "ret");
    INSTRUCTION("1001-0000-0000-0000-0000-0000-0000-0000", Halt, "halt");
    INSTRUCTION("0000-0000-0000-0000-0000-0000-0000-0000", Nop, "nop");

    PROCESSOR(.code = "IMEM", .contexts = 1, .issue = ISK_ISSUE_CPI, .cpi = 1, .reset_pc = 0, .code_bytes = 4,
              .pc_unit_bytes = 4);
    ELF_FORMAT(.machine = 0x7e7, .elfclass = 32, .flags = (TINY_ABI << 24) | 0x00800000u, .abi_mask = 0xff000000u,
               .abi_shift = 24);
    REGION(.name = "IMEM", .base = 0, .size = 1024 * 4, .sections = ".text.start .text .text.*", .storage = "IMEM",
           .code = 1);
    REGION(.name = "DMEM", .base = 0x10000, .size = 1024 * 4, .sections = ".rodata .rodata.* .data .data.* .bss .bss.*",
           .storage = "DMEM");
    RELOCATION(.type = 1, .name = "R_TINY_32", .bytes = 4);
    RELOCATION(.type = 2, .name = "R_TINY_BR8", .bytes = 4, .fields = "v:s{7:0}=7:0", .pcrel = 1, .shift = 2);
    RELOCATION(.type = 3, .name = "R_TINY_CALL", .bytes = 4, .fields = "v{23:0}=23:0", .shift = 2);
    RELOCATION(.type = 4, .name = "R_TINY_ABS20", .bytes = 4, .fields = "v{19:0}=23:4");
MODEL_END
