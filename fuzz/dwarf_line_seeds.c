/* Seed corpus for fuzz/dwarf_line_fuzz.c, written by our own encoder (the repository holds no
 * binaries): `dwarf_line_seeds DIR` writes line tables of both byte orders, 4- and 8-byte
 * addresses, several sequences and files, long line and address jumps. The first byte of each
 * is the harness's selector (bit 0: big-endian; no string sections). */
#include <stdio.h>

#include "asm/dwarf_line.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: dwarf_line_seeds CORPUS_DIR\n");
        return 2;
    }
    const char *files[] = { "main.s", "lib/inc.h", "/abs/path.S" };
    isk_dwarf_erow r1[] = { { 0, 0, 1, 0 }, { 8, 0, 2, 4 }, { 16, 1, 70000, 0 }, { 4096, 2, 3, 1 } };
    isk_dwarf_erow r2[] = { { 0, 2, 9, 0 }, { 4, 0, 8, 0 } };
    isk_dwarf_seq seqs[] = { { r1, 4, 0x80000000u, 4104 }, { r2, 2, 0x40000, 8 } };
    int rc = 0;
    for (int k = 0; k < 4; k++) {
        int be = k & 1, addr = k & 2 ? 8 : 4;
        isk_bytes b = { 0 };
        VEC_PUSH(&b, (uint8_t)be);
        isk_dwarf_line_encode(&b, be, addr, k < 2 ? 4 : 1, files, 3, seqs, 2, NULL);
        char path[4096];
        snprintf(path, sizeof path, "%s/seed%d", argv[1], k);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(b.data, 1, b.len, f) != b.len) {
            fprintf(stderr, "dwarf_line_seeds: cannot write %s\n", path);
            rc = 1;
        }
        if (f && fclose(f)) rc = 1;
        VEC_FREE(&b);
    }
    return rc;
}
