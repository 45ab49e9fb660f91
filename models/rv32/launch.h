/* The launch command (docs/rv32.md, "Launch commands and the system"): the ISE article's
 * {opcode, accelerator number, accelerator instruction code} on RISC-V's custom-0 major opcode
 * as an I-type word, funct3 = 0 and rd = x0:
 *
 *     31          20 19   15 14 12 11  7 6       0
 *     accelerator N |  rs1  | 000 | 00000 | 0001011        launch N, rs1
 *
 * hands the 32-bit value of rs1 to accelerator N (0..4095, a system file's `accelerator =`),
 * which decodes it with its own formats (the example accelerator's 24-bit words). One issue,
 * like every instruction; the command starts in the same clock. C reaches it through
 * include/isekit/launch.h (isk_launch). */
#ifndef RV32_LAUNCH_H
#define RV32_LAUNCH_H

BEHAVIOUR(launch, n, a) { LAUNCH(n, XR(a)); }

#define RV_LAUNCH_INSTRUCTIONS \
    KIND_INT("accel", .min = 0, .max = 4095); \
    INSTRUCTION("nnnnnnnnnnnn-aaaaa-000-00000-0001011", launch, "launch {n:accel}, {a:x}");

#endif
