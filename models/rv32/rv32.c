/* RV32IM + Zicsr, machine mode only, as an isekit model (docs/rv32.md).
 *
 *   storage        rv32.h: RAM (code and data, 32-bit words at 0x80000000), x0..x31, the CSRs
 *   behaviours     insns/core.h    registers, traps, interrupts, memory and the bus
 *                  insns/alu.h     RV32I computation        insns/muldiv.h  the M extension
 *                  insns/mem.h     loads, stores, fence     insns/flow.h    jumps and branches
 *                  insns/system.h  Zicsr, ecall, ebreak, mret, wfi
 *                  semihost.h      the semihosting calls of picolibc and QEMU
 *                  launch.h        the launch command (custom-0) to accelerators
 *   description    below: parameters, storage names, operand kinds, the instruction table in
 *                  the order of the unprivileged spec's opcode map, the toolchain's view
 */
#include "rv32.h"

#include "insns/core.h"
#include "semihost.h"
#include "insns/alu.h"
#include "insns/muldiv.h"
#include "insns/mem.h"
#include "insns/flow.h"
#include "insns/system.h"
#include "launch.h"

static void rv_reset(isk_hdr *h)
{
    struct isk_state *S = (struct isk_state *)(void *)h;
    S->mul_cycles = (uint32_t)GET_PARAM("mul_cycles");
    S->div_cycles = (uint32_t)GET_PARAM("div_cycles");
    S->load_cycles = (uint32_t)GET_PARAM("load_cycles");
    S->branch_cycles = (uint32_t)GET_PARAM("taken_branch_cycles");
    S->clock_hz = (uint64_t)GET_PARAM("clock_hz");
    memset(CELLS(X), 0, 32 * sizeof *CELLS(X));
    memset(CELLS(CSR), 0, RV_NCSR * sizeof *CELLS(CSR));
    CSRV(RV_MSTATUS) = RV_MSTATUS_MPP;
    CSRV(RV_MISA) = (1u << 30) | (1u << ('I' - 'A')) | (1u << ('M' - 'A'));   /* MXL = 32, I, M */
    S->mtimecmp = UINT64_MAX;
    S->mtime_base = S->cycle_base = S->instret_base = 0;
    S->msip = 0;
    for (int fd = 0; fd < RV_SEMIHOST_FILES; fd++)
        if (S->file_kind[fd] == SH_FILE) fclose(S->files[fd]);
    memset(S->file_kind, 0, sizeof S->file_kind);
    S->sh_errno = 0;
    rv_rearm(S);
}

/* The engine's own exceptions: a word no format decodes, and a pc past the end of the RAM. */
static void rv_engine_exception(isk_hdr *h, int cause, const char *message)
{
    struct isk_state *S = (struct isk_state *)(void *)h;
    (void)message;
    if (cause == ISK_EXC_ILLEGAL) rv_exception(S, RV_CAUSE_ILLEGAL, CELLS(RAM)[PC]);
    else rv_exception(S, RV_CAUSE_FETCH_FAULT, RV_PC);
}

/* Field maps of the formats whose immediates are scattered (spec, figure 2.4). Letters mark
 * operand bits; the maps say which value bit each holds. */
#define RV_B_OFF "off:s<<1{11}=31 off{9:4}=30:25 off{3:0}=11:8 off{10}=7"
#define RV_B_FIELDS "rs1{4:0}=19:15; rs2{4:0}=24:20; " RV_B_OFF
#define RV_BZ_FIELDS "rs1{4:0}=19:15; " RV_B_OFF
#define RV_J_FIELDS "off:s<<1{19}=31 off{9:0}=30:21 off{10}=20 off{18:11}=19:12"

MODEL_BEGIN(rv32, "RV32IM + Zicsr, machine mode")
    WORD_BITS(32);
    PARAM_INT("mul_cycles", 1, 1, 64, "clocks a mul/mulh/mulhsu/mulhu takes");
    PARAM_INT("div_cycles", 1, 1, 64, "clocks a div/divu/rem/remu takes");
    PARAM_INT("load_cycles", 1, 1, 64, "clocks a load takes");
    PARAM_INT("taken_branch_cycles", 1, 1, 64, "clocks a taken branch or a jump takes");
    PARAM_INT("clock_hz", 100000000, 100, 1000000000000LL, "the clock's frequency, for semihosting's "
              "SYS_CLOCK, SYS_ELAPSED and SYS_TICKFREQ");
    PARAM_TEXT("cmdline", "", "what SYS_GET_CMDLINE gives the program");
    ON_RESET(rv_reset);
    ON_EXCEPTION(rv_engine_exception);

    MEMORY(RAM, "RAM");
    REGFILE_BEGIN(X, "Integer registers")
        REGISTER(0, "zero"); REGISTER(1, "ra"); REGISTER(2, "sp"); REGISTER(3, "gp"); REGISTER(4, "tp");
        REGISTER(5, "t0"); REGISTER(6, "t1"); REGISTER(7, "t2"); REGISTER(8, "s0"); REGISTER(9, "s1");
        for (int i = 0; i < 8; i++) { char n[4]; snprintf(n, sizeof n, "a%d", i); REGISTER(10 + i, n); }
        for (int i = 2; i < 12; i++) { char n[4]; snprintf(n, sizeof n, "s%d", i); REGISTER(16 + i, n); }
        for (int i = 3; i < 7; i++) { char n[4]; snprintf(n, sizeof n, "t%d", i); REGISTER(25 + i, n); }
    REGFILE_END()
    REGFILE_BEGIN(CSR, "Machine CSRs")
        REGISTER(RV_MSTATUS, "mstatus"); REGISTER(RV_MISA, "misa"); REGISTER(RV_MIE, "mie");
        REGISTER(RV_MTVEC, "mtvec"); REGISTER(RV_MSCRATCH, "mscratch"); REGISTER(RV_MEPC, "mepc");
        REGISTER(RV_MCAUSE, "mcause"); REGISTER(RV_MTVAL, "mtval"); REGISTER(RV_MIP, "mip");
        REGISTER(RV_MHARTID, "mhartid");
    REGFILE_END()

    KIND_NAMES("x", "zero=0 ra=1 sp=2 gp=3 tp=4 t0..t2=5 s0=8 fp=8 s1=9 a0..a7=10 s2..s11=18 t3..t6=28 x0..x31=0");
    KIND_NAMES("csr", "mstatus=0x300 misa=0x301 mie=0x304 mtvec=0x305 mscratch=0x340 mepc=0x341 mcause=0x342 "
               "mtval=0x343 mip=0x344 mvendorid=0xf11 marchid=0xf12 mimpid=0xf13 mhartid=0xf14 "
               "mcycle=0xb00 minstret=0xb02 mcycleh=0xb80 minstreth=0xb82 cycle=0xc00 time=0xc01 instret=0xc02 "
               "cycleh=0xc80 timeh=0xc81 instreth=0xc82");
    KIND_INT("hi20", .min = 0, .max = 0xfffff, .hex = 1, .reloc = "R_RISCV_HI20");
    KIND_INT("lo12", .min = -2048, .max = 2047, .reloc = "R_RISCV_LO12_I");
    KIND_INT("slo12", .min = -2048, .max = 2047, .reloc = "R_RISCV_LO12_S");
    KIND_INT("shamt", .min = 0, .max = 31);
    KIND_INT("uimm5", .min = 0, .max = 31);
    KIND_PCREL("btarget", .reloc = "R_RISCV_BRANCH");
    KIND_PCREL("jtarget", .reloc = "R_RISCV_JAL");

    /* U and J types */
    INSTRUCTION("iiiiiiiiiiiiiiiiiiii-ddddd-0110111", lui, "lui {d:x}, {i:hi20}");
    INSTRUCTION("iiiiiiiiiiiiiiiiiiii-ddddd-0010111", auipc, "auipc {d:x}, {i:hi20}");
    INSTRUCTION("oooooooooooooooooooo-ddddd-1101111", jal, "jal {rd:x}, {off:jtarget}",
                .fields = RV_J_FIELDS "; rd{4:0}=11:7");
    INSTRUCTION("oooooooooooooooooooo-00001-1101111", jal_ra, "jal {off:jtarget}", .fields = RV_J_FIELDS,
                .priority = 1, .flow = ISK_FLOW_CALL);
    INSTRUCTION("oooooooooooooooooooo-00000-1101111", jal, "j {off:jtarget}", .fields = RV_J_FIELDS,
                .alias = 1);
    INSTRUCTION("iiiiiiiiiiii-aaaaa-000-ddddd-1100111", jalr, "jalr {d:x}, {i:lo12}({a:x})", .fields = "i:s");
    INSTRUCTION("iiiiiiiiiiii-aaaaa-000-00001-1100111", jalr_ra, "jalr ra, {i:lo12}({a:x})", .fields = "i:s",
                .priority = 1, .flow = ISK_FLOW_CALL);
    INSTRUCTION("000000000000-00001-000-00000-1100111", ret, "ret", .priority = 2, .flow = ISK_FLOW_RETURN);
    INSTRUCTION("000000000000-aaaaa-000-00000-1100111", jalr, "jr {a:x}", .alias = 1);
    INSTRUCTION("000000000000-aaaaa-000-00001-1100111", jalr_ra, "jalr {a:x}", .alias = 1);

    /* B type */
    INSTRUCTION("ooooooo-bbbbb-aaaaa-000-ooooo-1100011", beq, "beq {rs1:x}, {rs2:x}, {off:btarget}", .fields = RV_B_FIELDS);
    INSTRUCTION("ooooooo-bbbbb-aaaaa-001-ooooo-1100011", bne, "bne {rs1:x}, {rs2:x}, {off:btarget}", .fields = RV_B_FIELDS);
    INSTRUCTION("ooooooo-bbbbb-aaaaa-100-ooooo-1100011", blt, "blt {rs1:x}, {rs2:x}, {off:btarget}", .fields = RV_B_FIELDS);
    INSTRUCTION("ooooooo-bbbbb-aaaaa-101-ooooo-1100011", bge, "bge {rs1:x}, {rs2:x}, {off:btarget}", .fields = RV_B_FIELDS);
    INSTRUCTION("ooooooo-bbbbb-aaaaa-110-ooooo-1100011", bltu, "bltu {rs1:x}, {rs2:x}, {off:btarget}", .fields = RV_B_FIELDS);
    INSTRUCTION("ooooooo-bbbbb-aaaaa-111-ooooo-1100011", bgeu, "bgeu {rs1:x}, {rs2:x}, {off:btarget}", .fields = RV_B_FIELDS);
    INSTRUCTION("ooooooo-00000-aaaaa-000-ooooo-1100011", beq, "beqz {rs1:x}, {off:btarget}", .fields = RV_BZ_FIELDS, .alias = 1);
    INSTRUCTION("ooooooo-00000-aaaaa-001-ooooo-1100011", bne, "bnez {rs1:x}, {off:btarget}", .fields = RV_BZ_FIELDS, .alias = 1);

    /* loads and stores */
    INSTRUCTION("iiiiiiiiiiii-aaaaa-000-ddddd-0000011", lb, "lb {d:x}, {i:lo12}({a:x})", .fields = "i:s");
    INSTRUCTION("iiiiiiiiiiii-aaaaa-001-ddddd-0000011", lh, "lh {d:x}, {i:lo12}({a:x})", .fields = "i:s");
    INSTRUCTION("iiiiiiiiiiii-aaaaa-010-ddddd-0000011", lw, "lw {d:x}, {i:lo12}({a:x})", .fields = "i:s");
    INSTRUCTION("iiiiiiiiiiii-aaaaa-100-ddddd-0000011", lbu, "lbu {d:x}, {i:lo12}({a:x})", .fields = "i:s");
    INSTRUCTION("iiiiiiiiiiii-aaaaa-101-ddddd-0000011", lhu, "lhu {d:x}, {i:lo12}({a:x})", .fields = "i:s");
    INSTRUCTION("iiiiiii-bbbbb-aaaaa-000-iiiii-0100011", sb, "sb {b:x}, {i:slo12}({a:x})", .fields = "i:s");
    INSTRUCTION("iiiiiii-bbbbb-aaaaa-001-iiiii-0100011", sh, "sh {b:x}, {i:slo12}({a:x})", .fields = "i:s");
    INSTRUCTION("iiiiiii-bbbbb-aaaaa-010-iiiii-0100011", sw, "sw {b:x}, {i:slo12}({a:x})", .fields = "i:s");

    /* register-immediate */
    INSTRUCTION("iiiiiiiiiiii-aaaaa-000-ddddd-0010011", addi, "addi {d:x}, {a:x}, {i:lo12}", .fields = "i:s");
    INSTRUCTION("iiiiiiiiiiii-aaaaa-010-ddddd-0010011", slti, "slti {d:x}, {a:x}, {i:lo12}", .fields = "i:s");
    INSTRUCTION("iiiiiiiiiiii-aaaaa-011-ddddd-0010011", sltiu, "sltiu {d:x}, {a:x}, {i:lo12}", .fields = "i:s");
    INSTRUCTION("iiiiiiiiiiii-aaaaa-100-ddddd-0010011", xori, "xori {d:x}, {a:x}, {i:lo12}", .fields = "i:s");
    INSTRUCTION("iiiiiiiiiiii-aaaaa-110-ddddd-0010011", ori, "ori {d:x}, {a:x}, {i:lo12}", .fields = "i:s");
    INSTRUCTION("iiiiiiiiiiii-aaaaa-111-ddddd-0010011", andi, "andi {d:x}, {a:x}, {i:lo12}", .fields = "i:s");
    INSTRUCTION("0000000-iiiii-aaaaa-001-ddddd-0010011", slli, "slli {d:x}, {a:x}, {i:shamt}");
    INSTRUCTION("0000000-iiiii-aaaaa-101-ddddd-0010011", srli, "srli {d:x}, {a:x}, {i:shamt}");
    INSTRUCTION("0100000-iiiii-aaaaa-101-ddddd-0010011", srai, "srai {d:x}, {a:x}, {i:shamt}");
    INSTRUCTION("000000000000-00000-000-00000-0010011", addi, "nop", .alias = 1);
    INSTRUCTION("iiiiiiiiiiii-00000-000-ddddd-0010011", addi, "li {d:x}, {i:lo12}", .fields = "i:s", .alias = 1);
    INSTRUCTION("000000000000-aaaaa-000-ddddd-0010011", addi, "mv {d:x}, {a:x}", .alias = 1);
    INSTRUCTION("111111111111-aaaaa-100-ddddd-0010011", xori, "not {d:x}, {a:x}", .alias = 1);
    INSTRUCTION("000000000001-aaaaa-011-ddddd-0010011", sltiu, "seqz {d:x}, {a:x}", .alias = 1);

    /* register-register */
    INSTRUCTION("0000000-bbbbb-aaaaa-000-ddddd-0110011", add, "add {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0100000-bbbbb-aaaaa-000-ddddd-0110011", sub, "sub {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0000000-bbbbb-aaaaa-001-ddddd-0110011", sll, "sll {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0000000-bbbbb-aaaaa-010-ddddd-0110011", slt, "slt {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0000000-bbbbb-aaaaa-011-ddddd-0110011", sltu, "sltu {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0000000-bbbbb-aaaaa-100-ddddd-0110011", xor_, "xor {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0000000-bbbbb-aaaaa-101-ddddd-0110011", srl, "srl {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0100000-bbbbb-aaaaa-101-ddddd-0110011", sra, "sra {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0000000-bbbbb-aaaaa-110-ddddd-0110011", or_, "or {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0000000-bbbbb-aaaaa-111-ddddd-0110011", and_, "and {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0100000-bbbbb-00000-000-ddddd-0110011", sub, "neg {d:x}, {b:x}", .alias = 1);
    INSTRUCTION("0000000-bbbbb-00000-011-ddddd-0110011", sltu, "snez {d:x}, {b:x}", .alias = 1);

    /* the M extension */
    INSTRUCTION("0000001-bbbbb-aaaaa-000-ddddd-0110011", mul, "mul {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0000001-bbbbb-aaaaa-001-ddddd-0110011", mulh, "mulh {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0000001-bbbbb-aaaaa-010-ddddd-0110011", mulhsu, "mulhsu {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0000001-bbbbb-aaaaa-011-ddddd-0110011", mulhu, "mulhu {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0000001-bbbbb-aaaaa-100-ddddd-0110011", div_, "div {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0000001-bbbbb-aaaaa-101-ddddd-0110011", divu, "divu {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0000001-bbbbb-aaaaa-110-ddddd-0110011", rem, "rem {d:x}, {a:x}, {b:x}");
    INSTRUCTION("0000001-bbbbb-aaaaa-111-ddddd-0110011", remu, "remu {d:x}, {a:x}, {b:x}");

    /* fences: fm, pred, succ, rs1 and rd are ignored (any value decodes) */
    INSTRUCTION("************-*****-000-*****-0001111", fence, "fence");
    INSTRUCTION("************-*****-001-*****-0001111", fence, "fence.i");

    /* system */
    INSTRUCTION("000000000000-00000-000-00000-1110011", ecall, "ecall");
    INSTRUCTION("000000000001-00000-000-00000-1110011", ebreak, "ebreak");
    INSTRUCTION("001100000010-00000-000-00000-1110011", mret, "mret", .flow = ISK_FLOW_RETURN);
    INSTRUCTION("000100000101-00000-000-00000-1110011", wfi, "wfi");
    INSTRUCTION("cccccccccccc-aaaaa-001-ddddd-1110011", csrrw, "csrrw {d:x}, {c:csr}, {a:x}");
    INSTRUCTION("cccccccccccc-aaaaa-010-ddddd-1110011", csrrs, "csrrs {d:x}, {c:csr}, {a:x}");
    INSTRUCTION("cccccccccccc-aaaaa-011-ddddd-1110011", csrrc, "csrrc {d:x}, {c:csr}, {a:x}");
    INSTRUCTION("cccccccccccc-uuuuu-101-ddddd-1110011", csrrwi, "csrrwi {d:x}, {c:csr}, {u:uimm5}");
    INSTRUCTION("cccccccccccc-uuuuu-110-ddddd-1110011", csrrsi, "csrrsi {d:x}, {c:csr}, {u:uimm5}");
    INSTRUCTION("cccccccccccc-uuuuu-111-ddddd-1110011", csrrci, "csrrci {d:x}, {c:csr}, {u:uimm5}");
    INSTRUCTION("cccccccccccc-00000-010-ddddd-1110011", csrrs, "csrr {d:x}, {c:csr}", .alias = 1);
    INSTRUCTION("cccccccccccc-aaaaa-001-00000-1110011", csrrw, "csrw {c:csr}, {a:x}", .alias = 1);
    INSTRUCTION("cccccccccccc-aaaaa-010-00000-1110011", csrrs, "csrs {c:csr}, {a:x}", .alias = 1);
    INSTRUCTION("cccccccccccc-aaaaa-011-00000-1110011", csrrc, "csrc {c:csr}, {a:x}", .alias = 1);
    INSTRUCTION("cccccccccccc-uuuuu-101-00000-1110011", csrrwi, "csrwi {c:csr}, {u:uimm5}", .alias = 1);
    INSTRUCTION("cccccccccccc-uuuuu-110-00000-1110011", csrrsi, "csrsi {c:csr}, {u:uimm5}", .alias = 1);
    INSTRUCTION("cccccccccccc-uuuuu-111-00000-1110011", csrrci, "csrci {c:csr}, {u:uimm5}", .alias = 1);

    /* launch commands to accelerators (launch.h) */
    RV_LAUNCH_INSTRUCTIONS

    /* One hart issuing an instruction per clock; the engine's PC is the RAM word index. */
    PROCESSOR(.code = "RAM", .contexts = 1, .issue = ISK_ISSUE_CPI, .cpi = 1, .reset_pc = 0, .code_bytes = 4,
              .pc_unit_bytes = 1);
    /* gdb knows the hart as riscv:rv32: its g packet holds x0..x31, then pc */
    GDB_TARGET(.arch = "riscv:rv32", .registers = "X[0..31] pc", .feature = "org.gnu.gdb.riscv.cpu");
    /* ELF: EM_RISCV, ELFCLASS32, little endian, as riscv64-unknown-elf-gcc -march=rv32im_zicsr
     * -mabi=ilp32 writes them. Everything lives in the RAM. */
    ELF_FORMAT(.machine = 243, .elfclass = 32, .big_endian = 0);
    REGION(.name = "RAM", .base = RV_RAM_BASE, .size = RV_RAM_BYTES,
           .sections = ".text.init .text .text.* .init .fini .rodata .rodata.* .srodata .srodata.* .data .data.* "
                       ".sdata .sdata.* .bss .bss.* .sbss .sbss.* COMMON",
           .storage = "RAM", .code = 1);
    /* Relocations of our own assembler's objects (psABI numbers): data words, lui/addi pairs
     * and the pc-relative branch and jump fields. */
    RELOCATION(.type = 1, .name = "R_RISCV_32", .bytes = 4);
    RELOCATION(.type = 16, .name = "R_RISCV_BRANCH", .bytes = 4, .pcrel = 1, .shift = 1,
               .fields = "v:s{11}=31 v{9:4}=30:25 v{3:0}=11:8 v{10}=7");
    RELOCATION(.type = 17, .name = "R_RISCV_JAL", .bytes = 4, .pcrel = 1, .shift = 1,
               .fields = "v:s{19}=31 v{9:0}=30:21 v{10}=20 v{18:11}=19:12");
    RELOCATION(.type = 26, .name = "R_RISCV_HI20", .bytes = 4, .fields = "v{19:0}=31:12", .shift = 12);
    RELOCATION(.type = 27, .name = "R_RISCV_LO12_I", .bytes = 4, .fields = "v:s{11:0}=31:20");
    RELOCATION(.type = 28, .name = "R_RISCV_LO12_S", .bytes = 4, .fields = "v:s{11:5}=31:25 v{4:0}=11:7");
MODEL_END
