/* A storage cell as people read and type it: by the declaration's sign, width, fraction bits
 * and display format (FLOAT). One rule for every tool that prints or sets cells (the debugger,
 * the DAP server, --show), so they cannot disagree. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/half.h"
#include "base/num.h"
#include "isekit/sim.h"

static uint64_t width_mask(int w) { return w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1; }

static double f32_of(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static double f64_of(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* Shortest text that reads back as the same value of the format (%g at the format's digits). */
static int float_text(char *out, size_t cap, int digits, double x)
{
    if (isnan(x)) return snprintf(out, cap, "%snan", signbit(x) ? "-" : "");
    return snprintf(out, cap, "%.*g", digits, x);
}

bool isk_format_float(const isk_storage_info *s, int display, int64_t v, char *out, size_t cap)
{
    uint64_t u = (uint64_t)v;
    if (display == ISK_DISPLAY_INT)
        display = s->width == 16 ? ISK_DISPLAY_F16 : s->width == 32 ? ISK_DISPLAY_F32
                : s->width == 64 ? ISK_DISPLAY_F64 : ISK_DISPLAY_INT;
    switch (display) {
    case ISK_DISPLAY_F16: float_text(out, cap, 5, isk_half_to_double((uint16_t)u)); return true;
    case ISK_DISPLAY_F32: float_text(out, cap, 9, f32_of((uint32_t)u)); return true;
    case ISK_DISPLAY_F64: float_text(out, cap, 17, f64_of(u)); return true;
    case ISK_DISPLAY_F16X2: {
        char lo[32], hi[32];
        float_text(lo, sizeof lo, 5, isk_half_to_double((uint16_t)u));
        float_text(hi, sizeof hi, 5, isk_half_to_double((uint16_t)(u >> 16)));
        snprintf(out, cap, "[%s, %s]", lo, hi);
        return true;
    }
    default: return false;
    }
}

void isk_format_cell(const isk_storage_info *s, int64_t v, char *out, size_t cap)
{
    int w = s->width >= 1 && s->width <= 64 ? s->width : 64;
    uint64_t bits = (uint64_t)v & width_mask(w);
    int64_t sv = s->sign && w < 64 && (bits >> (w - 1)) ? (int64_t)(bits | ~width_mask(w)) : (int64_t)bits;
    char hex[24];
    snprintf(hex, sizeof hex, "0x%0*" PRIx64, (w + 3) / 4, bits);
    char f[64];
    if (s->display != ISK_DISPLAY_INT && isk_format_float(s, s->display, (int64_t)bits, f, sizeof f))
        snprintf(out, cap, "%s (%s)", f, hex);
    else if (s->frac > 0)
        snprintf(out, cap, "%" PRId64 " (%s) = %.10g", s->sign ? sv : (int64_t)bits, hex,
                 (s->sign ? (double)sv : (double)bits) / ldexp(1.0, s->frac));
    else if (s->sign) snprintf(out, cap, "%" PRId64 " (%s)", sv, hex);
    else snprintf(out, cap, "%" PRIu64 " (%s)", bits, hex);
}

/* One float literal of a format into its bits; false with the reason. */
static bool parse_one_float(int display, const char *text, uint64_t *bits, char *why, size_t cap)
{
    while (isspace((unsigned char)*text)) text++;
    char *end;
    errno = 0;
    double d = *text ? strtod(text, &end) : 0.0;
    if (!*text || end == text) {
        snprintf(why, cap, "'%s' is not a float", text);
        return false;
    }
    while (isspace((unsigned char)*end)) end++;
    if (*end) {
        snprintf(why, cap, "'%s' is not a float", text);
        return false;
    }
    const char *name = display == ISK_DISPLAY_F64 ? "f64" : display == ISK_DISPLAY_F32 ? "f32" : "f16";
    double max = display == ISK_DISPLAY_F64 ? DBL_MAX : display == ISK_DISPLAY_F32 ? FLT_MAX : 65504.0;
    if ((errno == ERANGE && fabs(d) > 1.0) || (isfinite(d) && fabs(d) > max)) {
        snprintf(why, cap, "%s is beyond the %s range (largest %g)", text, name, max);
        return false;
    }
    if (display == ISK_DISPLAY_F64) {
        memcpy(bits, &d, sizeof d);
    } else if (display == ISK_DISPLAY_F32) {
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        *bits = b;
    } else {
        *bits = isk_half_from_double(d);
    }
    return true;
}

bool isk_parse_cell(const isk_storage_info *s, const char *text, int64_t *out, char *why, size_t cap)
{
    char scratch[128];
    if (!why) why = scratch, cap = sizeof scratch;
    int w = s->width >= 1 && s->width <= 64 ? s->width : 64;
    const char *t = text;
    if (*t == '-' || *t == '+') t++;
    bool raw = t[0] == '0' && (t[1] == 'x' || t[1] == 'X' || t[1] == 'b' || t[1] == 'B') && !strpbrk(t, ".pP");
    if (s->display == ISK_DISPLAY_INT || raw) {
        if (isk_parse_i64(text, INT64_MIN, INT64_MAX, ISK_UNIT_NONE, out, why, cap)) return true;
        uint64_t u;
        if (!isk_parse_u64(text, 0, UINT64_MAX, ISK_UNIT_NONE, &u, NULL, 0)) return false;
        *out = (int64_t)u;
        return true;
    }
    uint64_t bits;
    if (s->display == ISK_DISPLAY_F16X2) {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", text);
        char *b = buf, *e = buf + strlen(buf);
        while (isspace((unsigned char)*b)) b++;
        while (e > b && isspace((unsigned char)e[-1])) e--;
        *e = 0;
        if (*b == '[' && e > b && e[-1] == ']') b++, e[-1] = 0;
        char *comma = strchr(b, ',');
        if (!comma) {
            snprintf(why, cap, "'%s': write two f16 values, low half first: L, H", text);
            return false;
        }
        *comma = 0;
        uint64_t lo, hi;
        if (!parse_one_float(ISK_DISPLAY_F16, b, &lo, why, cap) ||
            !parse_one_float(ISK_DISPLAY_F16, comma + 1, &hi, why, cap))
            return false;
        bits = lo | hi << 16;
    } else if (!parse_one_float(s->display, text, &bits, why, cap)) {
        return false;
    }
    *out = (int64_t)(bits & width_mask(w));
    return true;
}
