// fuzz-sources: src/asm/dwarf_line.c src/elf/*.c src/base/*.c
// fuzz-seeds: fuzz/dwarf_line_seeds.c
// fuzz-libs: -lelf
/* libFuzzer harness for the .debug_line decoder (asm/dwarf_line.h), which reads untrusted
 * executables' line tables for the loader and objdump -l. The first byte picks the byte order
 * and how much of the rest stands for .debug_str/.debug_line_str (DWARF 5 names). Beyond "no
 * crash, no sanitizer report", it checks that a refusal says why, that every row's file is one
 * of the decoded files (or the marker of none) and that rows stay bounded by the input's size. */
#include <stdint.h>
#include <stdlib.h>

#include "asm/dwarf_line.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    bool be = data[0] & 1;
    size_t str = (data[0] >> 1) * size / 128;        /* the tail: the string sections */
    data++, size--;
    if (str > size) str = size;
    size_t n = size - str;
    isk_dwarf_lines d = { 0 };
    char err[200] = "";
    bool ok = isk_dwarf_line_decode(data, n, be, data + n, str, data + n, str, NULL, NULL, &d, err, sizeof err);
    if (!ok && !err[0]) abort();
    if (d.rows.len > n) abort();
    for (size_t i = 0; i < d.rows.len; i++)
        if (d.rows.data[i].file != UINT32_MAX && d.rows.data[i].file >= d.files.len) abort();
    isk_dwarf_lines_free(&d);
    return 0;
}
