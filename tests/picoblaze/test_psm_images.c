/* Program images: the Xilinx .hex/.mem layouts (whole program space, 5 upper-case hex digits per
 * line, .mem with "@00000000"), KCPSM3's .dec, the raw little-endian .bin and the C header; each
 * read back gives the words written. */
#include <stdlib.h>
#include <string.h>

#include "psm_harness.h"

static char *write_to_string(int format, const psm_program *p, bool crlf, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    CHECK_EQ(psm_write_image(f, format, p->words, p->size, p->end, "fw_exl.h", "fw_exl.psm", crlf), 0);
    fclose(f);
    return buf;
}

static void test_formats(void)
{
    psm_run r;
    psm_program *p = psm_try(&r, "kcpsm3", "start: LOAD s4, 00\nloop: OUTPUT s4, 12\nADD s4, 01\nJUMP NZ, loop\n");
    CHECK(p != NULL);
    if (!p) return;
    size_t len;
    char *hex = write_to_string(PSM_HEX, p, false, &len);
    CHECK_EQ(len, 1024 * 6);
    CHECK(strncmp(hex, "00400\n2C412\n18401\n35401\n00000\n", 30) == 0);
    char *crlf = write_to_string(PSM_HEX, p, true, &len);
    CHECK_EQ(len, 1024 * 7);
    CHECK(strncmp(crlf, "00400\r\n2C412\r\n", 14) == 0);
    char *mem = write_to_string(PSM_MEM, p, false, &len);
    CHECK_EQ(len, 10 + 1024 * 6);
    CHECK(strncmp(mem, "@00000000\n00400\n", 16) == 0);
    char *dec = write_to_string(PSM_DEC, p, false, &len);
    CHECK(strncmp(dec, " 1024 \n 181266 \n", 16) == 0);
    char *bin = write_to_string(PSM_BIN, p, false, &len);
    CHECK_EQ(len, 4096);
    CHECK(memcmp(bin, "\x00\x04\x00\x00\x12\xC4\x02\x00", 8) == 0);
    char *header = write_to_string(PSM_C_HEADER, p, false, &len);
    CHECK_CONTAINS(header, "#define FW_EXL_WORDS 4u");
    CHECK_CONTAINS(header, "static const uint32_t fw_exl[FW_EXL_WORDS] = {\n    0x00400, 0x2C412, 0x18401, 0x35401,\n};");

    /* read each back */
    const struct { const char *name; char *text; size_t len; int format; } back[] = {
        { "a.hex", hex, 1024 * 6, PSM_HEX }, { "a.hex", crlf, 1024 * 7, PSM_HEX }, { "a.mem", mem, 10 + 1024 * 6, PSM_MEM },
        { "a.dec", dec, strlen(dec), PSM_DEC }, { "a.bin", bin, 4096, PSM_BIN },
    };
    for (size_t i = 0; i < sizeof back / sizeof *back; i++) {
        uint32_t words[1024];
        size_t n = 0;
        CHECK_EQ(psm_read_image_text(back[i].name, back[i].text, back[i].len, back[i].format, words, 1024, &n,
                                     &r.diag), 0);
        CHECK_EQ(n, 1024);
        CHECK(memcmp(words, p->words, sizeof words) == 0);
    }
    free(hex);
    free(crlf);
    free(mem);
    free(dec);
    free(bin);
    free(header);
    psm_done(&r);
}

/* KCPSM6 images span 4096 words; DEFAULT_JUMP fills them. */
static void test_kcpsm6_size(void)
{
    psm_run r;
    psm_program *p = psm_try(&r, "kcpsm6", "DEFAULT_JUMP 000\nLOAD s0, 00\n");
    CHECK(p != NULL);
    if (!p) return;
    size_t len;
    char *hex = write_to_string(PSM_HEX, p, false, &len);
    CHECK_EQ(len, 4096 * 6);
    CHECK(strncmp(hex, "01000\n22000\n22000\n", 18) == 0);
    free(hex);
    psm_done(&r);
}

int main(void)
{
    test_formats();
    test_kcpsm6_size();
    return CHECK_DONE();
}
