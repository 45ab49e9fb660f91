#include "base/num.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* A digit's value, above every base for anything else. */
static int digit_value(int c)
{
    const int d = isk_hex_digit(c);
    return d < 0 ? 99 : d;
}

/* The multiplier of a unit suffix, or 0 if `s` is not one the unit allows. */
static uint64_t unit_scale(const char *s, isk_unit unit)
{
    static const struct { const char *suffix; isk_unit unit; uint64_t scale; } suffixes[] = {
        { "k", ISK_UNIT_COUNT, 1000ULL },           { "K", ISK_UNIT_COUNT, 1000ULL },
        { "M", ISK_UNIT_COUNT, 1000000ULL },        { "G", ISK_UNIT_COUNT, 1000000000ULL },
        { "T", ISK_UNIT_COUNT, 1000000000000ULL },
        { "K", ISK_UNIT_BYTES, 1ULL << 10 },        { "KiB", ISK_UNIT_BYTES, 1ULL << 10 },
        { "k", ISK_UNIT_BYTES, 1ULL << 10 },
        { "M", ISK_UNIT_BYTES, 1ULL << 20 },        { "MiB", ISK_UNIT_BYTES, 1ULL << 20 },
        { "G", ISK_UNIT_BYTES, 1ULL << 30 },        { "GiB", ISK_UNIT_BYTES, 1ULL << 30 },
    };
    if (!*s) return 1;
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
        if (suffixes[i].unit == unit && strcmp(s, suffixes[i].suffix) == 0) return suffixes[i].scale;
    return 0;
}

/* The magnitude of an optionally signed number; *negative tells the sign. */
static bool parse_magnitude(const char *text, isk_unit unit, uint64_t *out, bool *negative, char *why, size_t cap)
{
    const char *s = text;
    *negative = false;
    if (*s == '-' || *s == '+') *negative = *s++ == '-';
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B') && digit_value(s[2]) < 2) base = 2, s += 2;
    uint64_t v = 0;
    int digits = 0;
    for (;; s++) {
        if (*s == '_' && digits && digit_value(s[1]) < base) continue;
        int d = digit_value((unsigned char)*s);
        if (d >= base) break;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) {
            snprintf(why, cap, "'%s' does not fit in 64 bits", text);
            return false;
        }
        v = v * (uint64_t)base + (uint64_t)d;
        digits++;
    }
    uint64_t scale = digits ? unit_scale(s, unit) : 0;
    if (!scale) {
        if (!digits || unit == ISK_UNIT_NONE)
            snprintf(why, cap, "'%s' is not a number", text);
        else
            snprintf(why, cap, "'%s' is not a number (suffixes: %s)", text,
                     unit == ISK_UNIT_COUNT ? "k, M, G, T" : "K, M, G or KiB, MiB, GiB");
        return false;
    }
    if (v > UINT64_MAX / scale) {
        snprintf(why, cap, "'%s' does not fit in 64 bits", text);
        return false;
    }
    *out = v * scale;
    return true;
}

bool isk_parse_u64(const char *text, uint64_t min, uint64_t max, isk_unit unit, uint64_t *out, char *why,
                   size_t cap)
{
    uint64_t v;
    bool negative;
    if (!parse_magnitude(text, unit, &v, &negative, why, cap)) return false;
    if ((negative && v) || v < min || v > max) {
        snprintf(why, cap, "%s is out of range (%" PRIu64 " to %" PRIu64 ")", text, min, max);
        return false;
    }
    *out = v;
    return true;
}

bool isk_parse_i64(const char *text, int64_t min, int64_t max, isk_unit unit, int64_t *out, char *why,
                   size_t cap)
{
    uint64_t v;
    bool negative;
    if (!parse_magnitude(text, unit, &v, &negative, why, cap)) return false;
    bool fits = negative ? v <= (uint64_t)INT64_MAX + 1 : v <= (uint64_t)INT64_MAX;
    int64_t x = negative ? (int64_t)(0 - v) : (int64_t)v;
    if (!fits || x < min || x > max) {
        snprintf(why, cap, "%s is out of range (%" PRId64 " to %" PRId64 ")", text, min, max);
        return false;
    }
    *out = x;
    return true;
}
