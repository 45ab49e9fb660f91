/* Seed corpus for asm_fuzz: small sources written for the example accelerator (first byte
 * even) and the tiny test processor (first byte odd), covering the directives, macros,
 * expressions and relocations. Usage: asm_seeds CORPUS_DIR */
#include "text_seeds.h"

static const char *const seeds[] = {
    "\0ldi lr1, 5\nmove gr0, lr1\nmac gr0, gr1\nconv acc, dm0[ar0], tm0[ar1]\n",
    "\0.macro st m, a, v\nldi lr1, \\v\nst\\m \\m\\()0[\\a], lr1\n.endm\n1: st dm, 0, 3\n2: setloop (2b-1b)/4\n",
    "\0.rept 3\nclracc\n.endr\n.irp x, 1, 2\ndelay \\x\n.endr\n.if 1 == 1\nflag shm[1], 2\n.else\n.endif\n",
    "\1.text\n.global f\nf: li r1, d\n1: addi r1, r1, -1\nbne r1, r0, 1b\ncall g\nret\n.size f, .-f\n"
    ".data\nd: .long f, d + 4, 'a\n.bss\n.space 16\n",
    "\1.macro M r\nbne \\r, r0, x@\nhalt\nx@: .endm\n.section .text.v, \"ax\"\n.align 8\nM r1\nM r2\n"
    "li r3, (2f - 1f)/8 - 1\n1: nop\nnop\n2: ret\n",
    "\1.set a, 1\n.equ b, a << 4\nc = b | 3\n.byte a, b, c, 1 ! 2, 5 % 3, ~0\n.ascii \"x\\n\\101\"\n.fill 3, 2, 0x1234\n"
    ".comm buf, 32, 8\n.lcomm p, 4\n.weak w\ncall w\n.pushsection .data\n.quad -1\n.popsection\n",
};

int main(int argc, char **argv)
{
    return write_text_seeds(argc, argv, "asm", seeds, sizeof seeds / sizeof *seeds);
}
