/* Internal helpers of src/elf: byte-order access to raw images and libelf set-up. */
#ifndef ISK_ELF_UTIL_H
#define ISK_ELF_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Read/write an unsigned integer of `n` bytes (1..8) in the given byte order. */
static inline uint64_t isk_get_uint(const uint8_t *p, unsigned n, int big_endian)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= (uint64_t)p[big_endian ? n - 1 - i : i] << (8 * i);
    return v;
}

static inline void isk_put_uint(uint8_t *p, unsigned n, int big_endian, uint64_t v)
{
    for (unsigned i = 0; i < n; i++) p[big_endian ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* a + b <= limit without overflow. */
static inline int isk_fits(uint64_t a, uint64_t b, uint64_t limit)
{
    return a <= limit && b <= limit - a;
}

/* libelf needs elf_version() once per process; this does it thread-safely. Returns 0, or -1
 * if the library is unusable. */
int isk_libelf_init(void);

#endif
