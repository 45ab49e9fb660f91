/* The DFU's element arithmetic (dfu.md section 4).
 *
 * Default: IEEE-754 single precision, round to nearest even, each operation rounded (VMAC and
 * VMSUBAC: the product is rounded, then the sum: a separate multiplier and adder, as in
 * Xilinx floating-point pipelines). Options: a fused multiply-add, flushing subnormal inputs
 * and results to zero (as Xilinx FP cores do), and 32-bit two's complement integers instead of
 * floats. C's float arithmetic is IEEE single precision on every host isekit supports; the
 * pragma keeps compilers from fusing a*b+c on their own. */
#ifndef DFU_ARITH_H
#define DFU_ARITH_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* GCC in ISO C mode (-std=c17) never contracts; Clang needs to be told. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

enum dfu_word_format { DFU_FP32, DFU_INT32 };

typedef struct dfu_numerics {
    int format;              /* enum dfu_word_format */
    bool fused;              /* VMAC/VMSUBAC with one rounding */
    bool ftz;                /* subnormals -> 0 */
} dfu_numerics;

static inline float dfu_f32(uint32_t w)
{
    float f;
    memcpy(&f, &w, sizeof f);
    return f;
}

static inline uint32_t dfu_w32(float f)
{
    uint32_t w;
    memcpy(&w, &f, sizeof w);
    return w;
}

static inline float dfu_flush(const dfu_numerics *n, float x)
{
    return n->ftz && fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

static inline uint32_t dfu_add(const dfu_numerics *n, uint32_t a, uint32_t b)
{
    if (n->format == DFU_INT32) return a + b;
    return dfu_w32(dfu_flush(n, dfu_flush(n, dfu_f32(a)) + dfu_flush(n, dfu_f32(b))));
}

static inline uint32_t dfu_sub(const dfu_numerics *n, uint32_t a, uint32_t b)
{
    if (n->format == DFU_INT32) return a - b;
    return dfu_w32(dfu_flush(n, dfu_flush(n, dfu_f32(a)) - dfu_flush(n, dfu_f32(b))));
}

static inline uint32_t dfu_mul(const dfu_numerics *n, uint32_t a, uint32_t b)
{
    if (n->format == DFU_INT32) return (uint32_t)((uint64_t)a * b);
    return dfu_w32(dfu_flush(n, dfu_flush(n, dfu_f32(a)) * dfu_flush(n, dfu_f32(b))));
}

/* c + a*b (sign = +1) or c - a*b (sign = -1) */
static inline uint32_t dfu_mac(const dfu_numerics *n, uint32_t c, uint32_t a, uint32_t b, int sign)
{
    if (n->format == DFU_INT32) {
        uint32_t p = (uint32_t)((uint64_t)a * b);
        return sign > 0 ? c + p : c - p;
    }
    float fa = dfu_flush(n, dfu_f32(a)), fb = dfu_flush(n, dfu_f32(b)), fc = dfu_flush(n, dfu_f32(c));
    if (n->fused) return dfu_w32(dfu_flush(n, fmaf(sign > 0 ? fa : -fa, fb, fc)));
    float p = dfu_flush(n, fa * fb);
    return dfu_w32(dfu_flush(n, sign > 0 ? fc + p : fc - p));
}

#endif
