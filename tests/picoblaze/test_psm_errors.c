/* Bad .psm sources and bad images: every error is file:line:column with the source line and a
 * caret, or file:line:column of the image line, and never a crash. */
#include <string.h>

#include "psm_harness.h"

static void expect_error(const char *core, const char *text, const char *message)
{
    psm_run r;
    const char *out = psm_errors(&r, core, text);
    if (!strstr(out, message)) fprintf(stderr, "for:\n%s--- got:\n%s\n", text, out);
    CHECK_CONTAINS(out, message);
    psm_done(&r);
}

static void test_source_errors(void)
{
    expect_error("kcpsm3", "  LOAD s0, 100\n", "t.psm:1:12: error: operand k: 256 is out of range [0, 255]");
    expect_error("kcpsm3", "  LOAD s0, 100\n", "      LOAD s0, 100\n               ^");
    expect_error("kcpsm3", "  STAR s0, s1\n", "t.psm:1:3: error: unknown instruction 'STAR' for model 'kcpsm3'");
    expect_error("kcpsm3", "  JUMP nowhere\n", "t.psm:1:8: error: 'nowhere' is not defined");
    expect_error("kcpsm3", "  JUMP 400\n", "t.psm:1:8: error:");
    expect_error("kcpsm3", "  STORE s0, 40\n", "t.psm:1:13: error:");
    expect_error("kcpsm6", "  ADD s0\n", "t.psm:1:");
    expect_error("kcpsm6", "  ADD s0, s1, s2\n", "t.psm:1:");
    expect_error("kcpsm6", "x: LOAD s0, 00\nx: LOAD s1, 00\n", "t.psm:2:1: error: 'x' is already defined at t.psm:1");
    expect_error("kcpsm6", "ab: LOAD s0, 00\n", "t.psm:1:1: error: 'ab' reads as a hex value; a label needs another name");
    expect_error("kcpsm6", "s5: LOAD s0, 00\n", "'s5' is a register name");
    expect_error("kcpsm6", "  LOAD s0, 12'h\n", "t.psm:1:14: error: unknown suffix ''h'");
    expect_error("kcpsm6", "  LOAD s0, 1012'b\n", "not a binary number");
    expect_error("kcpsm6", "  LOAD s0, \"ab\"\n", "a character constant is one printable character in quotes");
    expect_error("kcpsm6", "  OUTPUTK 00, 10\n", "out of range");
    expect_error("kcpsm6", "  STRING s$, \"unterminated\n", "t.psm:1:");
    expect_error("kcpsm6", "  INCLUDE \"no-such-file.psm\"\n", "t.psm:1:12: error: cannot find the included file 'no-such-file.psm'");
    expect_error("kcpsm6", "  INST 40000\n", "INST takes an 18-bit word");
    expect_error("kcpsm6", "  DEFAULT_JUMP a1\n  DEFAULT_JUMP a1\na1: JUMP a1\n", "a second DEFAULT_JUMP");
    expect_error("kcpsm6", "  ADDRESS 010\n  LOAD s0, 00\n  ADDRESS 010\n  LOAD s1, 00\n",
                 "t.psm:4:3: error: address 010 is already used by t.psm:2");
    expect_error("kcpsm3", "  ADDRESS 3FF\n  LOAD s0, 00\n  LOAD s1, 00\n", "exceeds the 1024-word program space");
    expect_error("kcpsm6", "  NAMEREG s1, sum\n  NAMEREG s2, sum\n", "'sum' already names register s1");
    expect_error("kcpsm6", "  TABLE t#, [1, 2, 300]\n", "table elements are 8-bit values");
    expect_error("kcpsm6", "  LOAD s0, 00 extra\n", "t.psm:1:");
    expect_error("kcpsm6", "  @LOAD s0, 00\n", "t.psm:1:3: error: unknown instruction '@LOAD'");
    expect_error("kcpsm6", "  LOAD s0,, 00\n", "empty operand");
}

static void test_image_errors(void)
{
    isk_diag diag;
    isk_diag_buffer out = { 0 };
    isk_diag_init(&diag);
    isk_diag_capture(&diag, &out);
    uint32_t words[16];
    size_t n;
    const char bad_digit[] = "00000\n2A0G0\n";
    CHECK_EQ(psm_read_image_text("p.hex", bad_digit, strlen(bad_digit), PSM_HEX, words, 16, &n, &diag), -1);
    CHECK_CONTAINS(out.text, "p.hex:2:4: error: expected a hexadecimal word or @address");
    const char too_wide[] = "@00000000\n40000\n";
    CHECK_EQ(psm_read_image_text("p.mem", too_wide, strlen(too_wide), PSM_MEM, words, 16, &n, &diag), -1);
    CHECK_CONTAINS(out.text, "p.mem:2:1: error: the word 40000 is wider than 18 bits");
    const char beyond[] = "@10\n00001\n";
    CHECK_EQ(psm_read_image_text("p.mem", beyond, strlen(beyond), PSM_MEM, words, 16, &n, &diag), -1);
    CHECK_CONTAINS(out.text, "address 10 is outside the 16-word program space");
    const char odd[] = { 1, 2, 3 };
    CHECK_EQ(psm_read_image_text("p.bin", odd, 3, PSM_BIN, words, 16, &n, &diag), -1);
    CHECK_CONTAINS(out.text, "not a multiple of 4");
    const char good[] = "\r\n2C412\r\n@0004\r\n18401\r\n";
    CHECK_EQ(psm_read_image_text("p.hex", good, strlen(good), PSM_HEX, words, 16, &n, &diag), 0);
    CHECK_EQ(n, 5);
    CHECK_EQ(words[0], 0x2C412);
    CHECK_EQ(words[4], 0x18401);
    const char dec[] = " 181266 \n 0 \n";
    CHECK_EQ(psm_read_image_text("p.dec", dec, strlen(dec), PSM_DEC, words, 16, &n, &diag), 0);
    CHECK_EQ(words[0], 181266);
    isk_diag_buffer_free(&out);
}

int main(void)
{
    test_source_errors();
    test_image_errors();
    return CHECK_DONE();
}
