/* Flat images: extracting a region from an executable, raw binary, Intel-HEX (writer, reader,
 * round trip, malformed input) and .mem output. */
#include "check.h"
#include "elf/image.h"

#include <stdlib.h>
#include <string.h>

static isk_obj *exe(void)
{
    isk_obj *o = isk_obj_new("prog.elf", ELFCLASS32, 0, 0x7777, ET_EXEC);
    uint32_t t = isk_obj_add_section(o, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 4);
    uint32_t d = isk_obj_add_section(o, ".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 4);
    uint32_t b = isk_obj_add_section(o, ".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 4);
    uint32_t c = isk_obj_add_section(o, ".comment", SHT_PROGBITS, 0, 1);
    isk_obj_append(o, t, "\x11\x22\x33\x44\x55\x66\x77\x88", 8);
    isk_obj_append(o, d, "\xaa\xbb", 2);
    isk_obj_append(o, b, NULL, 4);
    isk_obj_append(o, c, "not loaded", 10);
    o->secs.data[t].addr = 0x100;
    o->secs.data[d].addr = 0x10c;
    o->secs.data[b].addr = 0x104 + 0x10;
    o->entry = 0x100;
    return o;
}

static void extract(void)
{
    isk_diag d;
    isk_diag_buffer buf;
    isk_diag_init(&d);
    isk_diag_capture(&d, &buf);
    isk_obj *o = exe();
    uint8_t *img;
    size_t n;
    CHECK_EQ(isk_image_extract(o, 0x100, 0, 0xff, &img, &n, &d), 0);
    CHECK_EQ(n, 14);                                    /* up to the end of .data; .bss adds nothing */
    CHECK(memcmp(img, "\x11\x22\x33\x44\x55\x66\x77\x88\xff\xff\xff\xff\xaa\xbb", 14) == 0);
    free(img);
    CHECK_EQ(isk_image_extract(o, 0x100, 0x20, 0xff, &img, &n, &d), 0);
    CHECK_EQ(n, 0x20);
    CHECK(img[0x14] == 0 && img[0x17] == 0 && img[0x18] == 0xff);   /* .bss is zero, the rest fill */
    free(img);
    CHECK_EQ(isk_image_extract(o, 0x104, 0x10, 0, &img, &n, &d), -1);
    CHECK_CONTAINS(d.last, "prog.elf: error: section '.text' (0x100..0x108) straddles the image range 0x104..0x114");
    CHECK_EQ(isk_image_extract(o, 0, 0x50000000, 0, &img, &n, &d), -1);
    CHECK_CONTAINS(d.last, "is too large");
    isk_obj_free(o);
    isk_diag_buffer_free(&buf);
}

static void ihex_write(void)
{
    isk_diag d;
    isk_diag_buffer sink;
    isk_diag_init(&d);
    isk_diag_capture(&d, &sink);
    char *t;
    size_t n;
    CHECK_EQ(isk_ihex_format((const uint8_t *)"\x01\x02\x03", 3, 0x10, 0, 0, &t, &n, &d), 0);
    CHECK_STR(t, ":03001000010203E7\n:00000001FF\n");
    CHECK_EQ(n, strlen(t));
    free(t);
    /* Crossing a 64 KiB page: the record is split and an extended linear address is given. */
    uint8_t data[16];
    for (int i = 0; i < 16; i++) data[i] = (uint8_t)i;
    CHECK_EQ(isk_ihex_format(data, 16, 0xfff8, 1, 0x12345678, &t, &n, &d), 0);
    CHECK_STR(t, ":08FFF8000001020304050607E5\n"
                 ":020000040001F9\n"
                 ":0800000008090A0B0C0D0E0F9C\n"
                 ":0400000512345678E3\n"
                 ":00000001FF\n");
    free(t);
    CHECK_EQ(isk_ihex_format(data, 16, 0xfffffff8u, 0, 0, &t, &n, &d), -1);
    CHECK_CONTAINS(d.last, "Intel-HEX cannot hold bytes at 0xfffffff8..0x100000008");
    isk_diag_buffer_free(&sink);
}

static void ihex_roundtrip(void)
{
    isk_diag d;
    isk_diag_init(&d);
    isk_obj *o = exe();
    o->secs.data[2].addr = 0x23456;                    /* .data far away: a second run, another page */
    char *t;
    size_t n;
    CHECK_EQ(isk_ihex_format_obj(o, &t, &n, &d), 0);
    isk_obj *b = isk_ihex_read_mem(t, n, "prog.hex", &d);
    CHECK(b != NULL);
    if (b) {
        CHECK_EQ(b->type, ET_EXEC);
        CHECK_EQ(b->entry, 0x100);
        CHECK_EQ(b->secs.len, 3);
        if (b->secs.len == 3) {
            CHECK_STR(b->secs.data[1].name, ".load0");
            CHECK_EQ(b->secs.data[1].addr, 0x100);
            CHECK_EQ(b->secs.data[1].size, 8);
            CHECK(memcmp(b->secs.data[1].data, "\x11\x22\x33\x44\x55\x66\x77\x88", 8) == 0);
            CHECK_EQ(b->secs.data[2].addr, 0x23456);
            CHECK(memcmp(b->secs.data[2].data, "\xaa\xbb", 2) == 0);
        }
    }
    isk_obj_free(b);
    free(t);
    isk_obj_free(o);
    /* Contiguous records merge into one section; lower case and CRLF are accepted. */
    const char *h = ":0200000011aa43\r\n:02000200bbcc75\r\n\r\n:00000001ff\r\n";
    b = isk_ihex_read_mem(h, strlen(h), "crlf.hex", &d);
    CHECK(b != NULL);
    if (b) {
        CHECK_EQ(b->secs.len, 2);
        CHECK_EQ(b->secs.data[1].size, 4);
        CHECK(memcmp(b->secs.data[1].data, "\x11\xaa\xbb\xcc", 4) == 0);
    }
    isk_obj_free(b);
}

static char msg[600];
static const char *refuse(const char *text)
{
    isk_diag d;
    isk_diag_buffer buf;
    isk_diag_init(&d);
    isk_diag_capture(&d, &buf);
    isk_obj *o = isk_ihex_read_mem(text, strlen(text), "bad.hex", &d);
    CHECK(o == NULL);
    CHECK_EQ(d.errors, 1);
    snprintf(msg, sizeof msg, "%s", d.last);
    isk_obj_free(o);
    isk_diag_buffer_free(&buf);
    return msg;
}

static void ihex_malformed(void)
{
    isk_diag d;
    isk_diag_init(&d);
    isk_obj *empty = isk_ihex_read_mem(":00000001FF\n", 12, "empty.hex", &d);   /* valid: no data at all */
    CHECK(empty != NULL && empty->secs.len == 1 && d.errors == 0);
    isk_obj_free(empty);
    CHECK_STR(refuse(":03001000010203E8\n:00000001FF\n"), "bad.hex:1:16: error: Intel-HEX checksum mismatch (expected 0xE7)");
    CHECK_STR(refuse(":03001000010G03E7\n:00000001FF\n"), "bad.hex:1:13: error: invalid hex digit");
    CHECK_STR(refuse(":0300100001020E7\n:00000001FF\n"), "bad.hex:1:17: error: odd number of hex digits");
    CHECK_STR(refuse(":0400100001020304\n:00000001FF\n"),
              "bad.hex:1:1: error: Intel-HEX record length mismatch: byte count 4, but 3 data bytes");
    CHECK_STR(refuse("\n0300100001020300\n"), "bad.hex:2:1: error: Intel-HEX record does not start with ':'");
    CHECK_STR(refuse(":03001000010203E7\n"), "bad.hex:1: error: missing Intel-HEX end-of-file record (truncated file?)");
    CHECK_STR(refuse(":00000009F7\n:00000001FF\n"), "bad.hex:1:8: error: unknown Intel-HEX record type 09");
    CHECK_STR(refuse(":0100000402F9\n:00000001FF\n"), "bad.hex:1:1: error: extended address record needs 2 data bytes, has 1");
    CHECK_STR(refuse(":020010000102EB\n:020011000304E6\n:00000001FF\n"),
              "bad.hex:2: error: data at 0x11 overlaps the record of line 1");
}

static void binary_and_mem(void)
{
    isk_diag d;
    isk_diag_buffer buf;
    isk_diag_init(&d);
    isk_diag_capture(&d, &buf);
    isk_obj *o = isk_binary_to_obj("\x01\x00\x02\x00\x03", 5, 0x4000, "rom.bin");
    CHECK_EQ(o->secs.len, 2);
    CHECK_EQ(o->secs.data[1].addr, 0x4000);
    CHECK_EQ(o->secs.data[1].size, 5);
    CHECK_EQ(o->entry, 0x4000);
    CHECK_STR(o->filename, "rom.bin");
    isk_obj_free(o);
    CHECK(isk_binary_read_file("/nonexistent.bin", 0, &d) == NULL);
    CHECK_CONTAINS(d.last, "/nonexistent.bin: error: cannot open");

    char *t;
    size_t n;
    isk_mem_opts m16 = { .word_bytes = 2 };
    CHECK_EQ(isk_mem_format((const uint8_t *)"\x01\x00\x02\x00\x03", 5, &m16, &t, &n, &d), 0);
    CHECK_STR(t, "0001\n0002\n0003\n");                 /* the short last word is padded */
    free(t);
    /* PicoBlaze-style: 18-bit instructions in 4-byte big-endian containers, with an address. */
    isk_mem_opts m18 = { .word_bytes = 4, .word_bits = 18, .big_endian = 1, .address_line = 1, .start_word = 0x10 };
    CHECK_EQ(isk_mem_format((const uint8_t *)"\x00\x03\xff\xff\x00\x00\x12\x34", 8, &m18, &t, &n, &d), 0);
    CHECK_STR(t, "@10\n3ffff\n01234\n");
    free(t);
    CHECK_EQ(isk_mem_format((const uint8_t *)"\x00\x04\x00\x00", 4, &m18, &t, &n, &d), -1);
    CHECK_CONTAINS(d.last, ".mem: word 0 (0x40000) has bits set above bit 17");
    isk_mem_opts bad = { .word_bytes = 9 };
    CHECK_EQ(isk_mem_format((const uint8_t *)"", 0, &bad, &t, &n, &d), -1);
    CHECK_CONTAINS(d.last, "invalid word size");
    isk_diag_buffer_free(&buf);
}

int main(void)
{
    extract();
    ihex_write();
    ihex_roundtrip();
    ihex_malformed();
    binary_and_mem();
    return CHECK_DONE();
}
