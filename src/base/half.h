/* IEEE 754 binary16 ("half") as the host tools write and read it: the assembler's `1.0h`
 * literals and the IPU vertex runner's f16 tensors. (A model computing in f16 has its own
 * arithmetic with flags; these are the plain conversions.) */
#ifndef ISK_BASE_HALF_H
#define ISK_BASE_HALF_H

#include <stdint.h>

/* The binary16 bits of x, rounded to nearest even: subnormals kept, 65520 and beyond (in
 * magnitude) to infinity, the sign of zero kept, any NaN the quiet NaN 0x7E00 with x's sign. */
uint16_t isk_half_from_double(double x);
/* The value of binary16 bits h (exact in double). */
double isk_half_to_double(uint16_t h);

#endif
