/* One strict number parser for options, parameters and directives.
 *
 * A number is decimal, 0x hexadecimal or 0b binary, with optional '_' between digits
 * (1_000_000), optionally followed by a unit suffix when the caller allows one:
 *   ISK_UNIT_COUNT  k, M, G, T: powers of 1000     (--max-clocks 5M)
 *   ISK_UNIT_BYTES  K/KiB, M/MiB, G/GiB: powers of 1024   (--stack 1M)
 * Nothing else may follow: "3abc", "1e1", "", " 5" and "-5" (for unsigned) are errors, and so
 * is a value outside [min, max] or one that overflows 64 bits. */
#ifndef ISK_BASE_NUM_H
#define ISK_BASE_NUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { ISK_UNIT_NONE, ISK_UNIT_COUNT, ISK_UNIT_BYTES } isk_unit;

/* Parse all of `text`. On failure, `why` receives a sentence fragment such as
 * "'abc' is not a number" or "5000 is out of range (1 to 24)". */
bool isk_parse_u64(const char *text, uint64_t min, uint64_t max, isk_unit unit, uint64_t *out, char *why,
                   size_t cap);
bool isk_parse_i64(const char *text, int64_t min, int64_t max, isk_unit unit, int64_t *out, char *why,
                   size_t cap);

/* The value of hexadecimal digit c (either case), or -1. Inline: image readers call it per
 * character. */
static inline int isk_hex_digit(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

#endif
