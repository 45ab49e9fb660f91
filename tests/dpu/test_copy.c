/* Host-side copies (dpu_copy_symbol, dpu_copy_mram): the host writes a WRAM and an MRAM symbol,
 * the program combines them, the host reads the result back; then the errors (an unknown
 * symbol, past a symbol's size, past the memory, an MRAM offset past the end). */
#include "dpu_harness.h"
#include "../../models/dpu/dpu_host.h"

/* output = input + mbuf[0] + mbuf[1], mbuf read from MRAM by DMA */
static const char *const program =
    "    .data\n"
    "    .p2align 3\n"
    "    .globl input, output, wbuf, nosize\n"
    "input: .long 0\n"
    "    .size input, 4\n"
    "output: .long 0\n"
    "    .size output, 4\n"
    "wbuf: .space 8\n"
    "    .size wbuf, 8\n"
    "nosize: .long 0\n"
    "    .section .mram, \"aw\", @progbits\n"
    "    .p2align 3\n"
    "    .globl mbuf\n"
    "mbuf: .space 8\n"
    "    .size mbuf, 8\n"
    "    .text\n"
    "    .globl main\n"
    "main:\n"
    "    sd r22, 0, d22\n"
    "    add r22, r22, 8\n"
    "    move r0, mbuf\n"
    "    move r1, wbuf\n"
    "    move r2, 8\n"
    "    call r23, mram_read\n"
    "    lw r0, zero, input\n"
    "    lw r1, zero, wbuf\n"
    "    add r0, r0, r1\n"
    "    lw r1, zero, wbuf + 4\n"
    "    add r0, r0, r1\n"
    "    sw zero, output, r0\n"
    "    ld d22, r22, -8\n"
    "    jump r23\n";

static void test_copies(void)
{
    dpu_harness h;
    dh_open(&h, NULL);
    isk_obj *exe = dpu_build_text(h.model, "copy.s", program, 1, 0, &h.diag);
    if (!exe) fprintf(stderr, "%s\n", h.messages.text ? h.messages.text : "build failed");
    CHECK(exe != NULL);
    dpu_program p;
    CHECK_EQ(dpu_program_from_obj(&p, exe, &h.diag), 0);
    CHECK_EQ(dpu_program_load(h.dpu, &p, &h.diag), 0);

    uint32_t in = 1000, words[2] = { 20, 3 }, out = 0;
    CHECK_EQ(dpu_copy_symbol(h.dpu, &p, "input", 0, &in, 4, true, &h.diag), 0);
    /* mbuf[0] by symbol, mbuf[1] by its MRAM offset */
    CHECK_EQ(dpu_copy_symbol(h.dpu, &p, "mbuf", 0, &words[0], 4, true, &h.diag), 0);
    uint64_t addr;
    CHECK(dpu_symbol(&p, "mbuf", &addr));
    isk_addr_cell c;
    CHECK(isk_addr_to_cell(h.model, addr, &c));
    CHECK_EQ(dpu_copy_mram(h.dpu, (uint32_t)c.index + 4, &words[1], 4, true, &h.diag), 0);
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    CHECK_EQ(dpu_copy_symbol(h.dpu, &p, "output", 0, &out, 4, false, &h.diag), 0);
    CHECK_EQ(out, 1023);
    /* read back what went in, through the other path each time */
    uint32_t back[2] = { 0, 0 };
    CHECK_EQ(dpu_copy_mram(h.dpu, (uint32_t)c.index, back, 8, false, &h.diag), 0);
    CHECK_EQ(back[0], 20);
    CHECK_EQ(back[1], 3);
    back[1] = 0;
    CHECK_EQ(dpu_copy_symbol(h.dpu, &p, "mbuf", 4, &back[1], 4, false, &h.diag), 0);
    CHECK_EQ(back[1], 3);
    CHECK_EQ(h.diag.errors, 0);

    /* the errors name the symbol and say why */
    uint8_t big[16] = { 0 };
    isk_diag_buffer_free(&h.messages);
    CHECK_EQ(dpu_copy_symbol(h.dpu, &p, "nonesuch", 0, big, 4, true, &h.diag), -1);
    CHECK_CONTAINS(h.messages.text, "symbol 'nonesuch': the program defines no such symbol");
    isk_diag_buffer_free(&h.messages);
    CHECK_EQ(dpu_copy_symbol(h.dpu, &p, "input", 0, big, 8, true, &h.diag), -1);
    CHECK_CONTAINS(h.messages.text, "copy to symbol 'input': 8 bytes at offset 0 go past its 4 bytes");
    isk_diag_buffer_free(&h.messages);
    CHECK_EQ(dpu_copy_symbol(h.dpu, &p, "mbuf", 4, big, 8, false, &h.diag), -1);
    CHECK_CONTAINS(h.messages.text, "copy from symbol 'mbuf': 8 bytes at offset 4 go past its 8 bytes");
    /* a symbol without a size is bounded by its memory */
    CHECK_EQ(dpu_copy_symbol(h.dpu, &p, "nosize", 0, big, 16, false, &h.diag), 0);
    isk_diag_buffer_free(&h.messages);
    CHECK_EQ(dpu_copy_symbol(h.dpu, &p, "nosize", 70000, big, 4, true, &h.diag), -1);
    CHECK_CONTAINS(h.messages.text, "go past the end of the WRAM (65536 bytes");
    isk_diag_buffer_free(&h.messages);
    CHECK_EQ(dpu_copy_mram(h.dpu, (64u << 20) - 4, big, 8, true, &h.diag), -1);
    CHECK_CONTAINS(h.messages.text, "MRAM copy to offset 0x3fffffc of 8 bytes: past the end of the MRAM");
    /* the refused copies changed nothing */
    CHECK_EQ(dpu_copy_symbol(h.dpu, &p, "input", 0, &in, 4, false, &h.diag), 0);
    CHECK_EQ(in, 1000);
    dpu_program_close(&p);
    dh_close(&h);
}

int main(void)
{
    test_copies();
    if (harness_model) isk_model_release(harness_model);
    return CHECK_DONE();
}
