#include "base/half.h"

#include <math.h>

uint16_t isk_half_from_double(double x)
{
    const uint16_t sign = signbit(x) ? 0x8000u : 0;
    if (isnan(x)) return sign | 0x7E00u;
    x = fabs(x);
    if (x >= 65520.0) return sign | 0x7C00u;      /* the tie above 65504 rounds to even: infinity */
    if (x == 0) return sign;
    int e;
    frexp(x, &e);                                 /* x in [2^(e-1), 2^e) */
    int exp = e - 1 < -14 ? -14 : e - 1;          /* subnormals share the least normal's quantum */
    double n = nearbyint(ldexp(x, 10 - exp));     /* exact scaling, then one rounding */
    if (n >= 2048) n /= 2, exp++;                 /* rounded up into the next binade */
    if (n < 1024) return sign | (uint16_t)n;      /* subnormal (1024 is the least normal) */
    return sign | (uint16_t)((exp + 15) << 10 | ((unsigned)n - 1024));
}

double isk_half_to_double(uint16_t h)
{
    const int e = h >> 10 & 0x1F, m = h & 0x3FF;
    const double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return h & 0x8000 ? -v : v;
}
