/* Flat memory images, for targets whose boot tools take raw binary, Intel-HEX or `.mem`
 * (one word per line, as Verilog $readmemh reads) rather than ELF (PicoBlaze, IPU).
 *
 * Writers take bytes (usually a region of a linked executable, see isk_image_extract);
 * readers turn an image back into an executable isk_obj with one SHF_ALLOC section per
 * contiguous run of bytes, so the loader handles every format the same way. */
#ifndef ISK_ELF_IMAGE_H
#define ISK_ELF_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isekit/diag.h"
#include "elf/obj.h"

/* The bytes of addresses [base, base+size) of an executable: SHT_PROGBITS SHF_ALLOC section
 * contents, `fill` elsewhere (SHT_NOBITS sections included: loaders zero them). size 0 means
 * "up to the end of the last section contents at or after base". A section that straddles
 * the range is an error. *out is malloc'd. */
int isk_image_extract(const isk_obj *exe, uint64_t base, uint64_t size, uint8_t fill, uint8_t **out, size_t *len,
                      isk_diag *diag);

/* Intel-HEX text of `n` bytes placed at `addr` (extended linear address records above 64 KiB;
 * the whole range must lie below 4 GiB). If has_entry, a start-linear-address record is
 * added. *out is a malloc'd NUL-terminated string. */
int isk_ihex_format(const uint8_t *data, size_t n, uint64_t addr, int has_entry, uint32_t entry, char **out,
                    size_t *len, isk_diag *diag);
/* The same for all SHF_ALLOC SHT_PROGBITS sections of an executable, at their addresses, with
 * its entry point. */
int isk_ihex_format_obj(const isk_obj *exe, char **out, size_t *len, isk_diag *diag);

typedef struct isk_mem_opts {
    unsigned word_bytes;     /* bytes per word in `data`: 1..8 */
    unsigned word_bits;      /* bits printed per word (hex digits = ceil(bits/4)); 0 = 8 * word_bytes */
    int big_endian;          /* byte order of the words in `data` */
    int address_line;        /* start with "@<start_word in hex>" */
    uint64_t start_word;
    /* The Xilinx tools' dialect (PicoBlaze .hex/.mem): upper-case digits, the address line
     * zero-padded to 8 digits, CR LF line ends. */
    int upper_case, address_digits, crlf;
} isk_mem_opts;

/* One word per line, hex (lower case unless upper_case), zero-padded to the word width; a
 * short last word is padded with zero bytes. Bits above word_bits must be zero (else an error
 * names the word). */
int isk_mem_format(const uint8_t *data, size_t n, const isk_mem_opts *opts, char **out, size_t *len, isk_diag *diag);

/* Raw binary -> executable object with one section `.image` at `base`. */
isk_obj *isk_binary_to_obj(const void *data, size_t n, uint64_t base, const char *filename);
isk_obj *isk_binary_read_file(const char *path, uint64_t base, isk_diag *diag);

/* Intel-HEX text -> executable object: sections `.load0`, `.load1`, ... (one per contiguous
 * run, in address order), entry from a start-address record. Untrusted input: errors give
 * file:line:column. */
isk_obj *isk_ihex_read_mem(const char *text, size_t n, const char *filename, isk_diag *diag);

/* Word lists: the text images of word-addressed memories (.hex/.mem as Verilog $readmemh and
 * the Xilinx tools write them, KCPSM3's decimal .dec, objdump -b words). Words in hex (an
 * optional 0x) or decimal, any number per line; "@addr" (same radix) moves to a word address;
 * '#', ';' and "//" start comments. The one reader of the format: isekit psm -d, objdump and the
 * EdkDSP firmware loader all come here. Each word goes to `put` with its word address; a bad
 * digit, a word wider than word_bits, an address above 2^40 or a refusal of `put` (which reports
 * its own error at *loc and returns nonzero) is an error at file:line:column; the rest of that
 * line is skipped, and reading stops after 10 errors. 0, or -1 after errors. */
typedef int (*isk_word_put)(void *ctx, uint64_t addr, uint64_t word, const isk_loc *loc, isk_diag *diag);
int isk_words_parse(const char *text, size_t n, const char *filename, int radix, int word_bits, isk_word_put put,
                    void *ctx, isk_diag *diag);
/* Could these bytes be a hex word list (hex digits, white space, '@', 'x')? Not for empty data. */
bool isk_words_look_like(const uint8_t *data, size_t n);

#endif
