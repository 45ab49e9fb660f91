/* Instruction format strings, as the ISE article defines them, with the extensions the real
 * targets need.
 *
 *   "11-**-0000-0000-0001-LREG-GREG"
 *
 * Symbols: '0' '1' fixed bits, letters operand bits, '*' any bit, '-' a cosmetic separator.
 * The significant symbols (all but '-') must number exactly the word width. A run of letters is
 * one operand, named by the run ("LREG"), or by the letter when the run repeats one letter
 * ("iiii" is operand "i"). Runs with the same name are one operand split over several places,
 * concatenated most significant first. Operands are numbered right to left in the article; a
 * behaviour receives them in the order they first appear, left to right.
 *
 * An instruction may add explicit field maps (`.fields`), for operands whose bits are permuted
 * or replicated, and flags (signed, scaled):
 *
 *   "imm:s{23:12}=11:0 imm{11}=12 imm{10}=13; cc{4:0}=28:24"
 *
 * Value bits H..L come from word bits h..l. With segments, the letters of the format only mark
 * operand bits, and the fields come in the order of `.fields`. A bare "name:s" or "name:<<2"
 * only flags an operand of the format string.
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "engine/model_desc.h"

static uint64_t low_mask(int bits)
{
    return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

int64_t isk_field_extract(const isk_field *f, uint64_t word)
{
    uint64_t v = 0;
    for (int i = 0; i < f->nseg; i++) {
        const isk_segment *s = &f->seg[i];
        v |= ((word >> s->word_lo) & low_mask(s->width)) << s->value_lo;
    }
    int64_t x = isk_wrap((int64_t)v, f->value_bits, f->is_signed);
    const uint64_t operand = (uint64_t)x << f->scale;
    return (int64_t)(f->negate ? 0 - operand : operand);
}

bool isk_field_insert(const isk_field *f, int64_t value, uint64_t *word)
{
    /* arithmetic shift: GCC/Clang define it so */
    int64_t raw = (f->negate ? (int64_t)(0 - (uint64_t)value) : value) >> f->scale;
    uint64_t u = (uint64_t)raw;
    uint64_t w = *word & ~f->word_bits;
    for (int i = 0; i < f->nseg; i++) {
        const isk_segment *s = &f->seg[i];
        w |= ((u >> s->value_lo) & low_mask(s->width)) << s->word_lo;
    }
    *word = w;
    return isk_field_extract(f, w) == value;
}

static bool is_operand_letter(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* Give a field its segments in the format-string layout: runs in order, MSB first. */
static void add_run(isk_field *f, int msb, int width)
{
    /* Shift earlier runs up: the new run holds the less significant bits. */
    for (int i = 0; i < f->nseg; i++) f->seg[i].value_lo = (uint8_t)(f->seg[i].value_lo + width);
    f->seg[f->nseg++] = (isk_segment){ (uint8_t)(msb - width + 1), 0, (uint8_t)width };
    f->value_bits += width;
    f->word_bits |= low_mask(width) << (msb - width + 1);
}

static isk_field *find_field(isk_pattern *p, const char *name, size_t len)
{
    for (int i = 0; i < p->nfields; i++)
        if (strlen(p->field[i].name) == len && strncmp(p->field[i].name, name, len) == 0)
            return &p->field[i];
    return NULL;
}

static isk_field *new_field(isk_pattern *p, const char *name, size_t len, const char *fmt, isk_diag *diag)
{
    if (p->nfields == ISK_MAX_OPS) {
        isk_error(diag, NULL, "format '%s': more than %d operands", fmt, ISK_MAX_OPS);
        return NULL;
    }
    if (len >= sizeof p->field[0].name) {
        isk_error(diag, NULL, "format '%s': operand name '%.*s' is too long", fmt, (int)len, name);
        return NULL;
    }
    isk_field *f = &p->field[p->nfields++];
    memset(f, 0, sizeof *f);
    memcpy(f->name, name, len);
    f->kind = -1;
    return f;
}

/* Parse the format string proper: fixed bits, wildcards, operand runs. */
static bool parse_bits(isk_model *m, isk_pattern *p, const char *fmt, bool runs_are_fields, isk_diag *diag)
{
    int significant = 0;
    for (const char *c = fmt; *c; c++) {
        if (*c == '0' || *c == '1' || *c == '*' || is_operand_letter(*c)) significant++;
        else if (*c != '-') {
            isk_error(diag, NULL, "format '%s': '%c' at position %d is not 0, 1, a letter, '*' or '-'",
                      fmt, *c, (int)(c - fmt) + 1);
            return false;
        }
    }
    if (significant != m->word_bits) {
        isk_error(diag, NULL, "format '%s' has %d significant symbols but the instruction word is %d bits",
                  fmt, significant, m->word_bits);
        return false;
    }
    int bit = m->word_bits - 1;
    for (const char *c = fmt; *c;) {
        if (*c == '-') { c++; continue; }
        if (*c == '0' || *c == '1') {
            p->mask |= UINT64_C(1) << bit;
            if (*c == '1') p->match |= UINT64_C(1) << bit;
            bit--, c++;
            continue;
        }
        if (*c == '*') { bit--, c++; continue; }
        const char *start = c;
        while (is_operand_letter(*c)) c++;
        size_t len = (size_t)(c - start);
        p->operand_bits |= low_mask((int)len) << (bit - (int)len + 1);
        if (runs_are_fields) {
            bool one_letter = true;
            for (size_t i = 1; i < len; i++) one_letter &= start[i] == start[0];
            size_t name_len = one_letter ? 1 : len;
            isk_field *f = find_field(p, start, name_len);
            if (!f && !(f = new_field(p, start, name_len, fmt, diag))) return false;
            if (f->value_bits + (int)len > 64) {
                isk_error(diag, NULL, "format '%s': operand '%s' is wider than 64 bits", fmt, f->name);
                return false;
            }
            if (f->nseg == ISK_MAX_SEGMENTS) {
                isk_error(diag, NULL, "format '%s': operand '%s' has too many runs", fmt, f->name);
                return false;
            }
            add_run(f, bit, (int)len);
        }
        bit -= (int)len;
    }
    return true;
}

/* Flags after "name:": 's' signed, 'u' unsigned, 'n' negated, "<<N" scale. Returns the end of the flags. */
static const char *parse_flags(isk_field *f, const char *s, const char *fmt, isk_diag *diag, bool *ok)
{
    while (*s && *s != '{' && !isspace((unsigned char)*s) && *s != ';') {
        if (*s == 's') f->is_signed = true, s++;
        else if (*s == 'u') f->is_signed = false, s++;
        else if (*s == 'n') f->negate = true, s++;
        else if (s[0] == '<' && s[1] == '<' && isdigit((unsigned char)s[2])) {
            char *end;
            f->scale = (int)strtol(s + 2, &end, 10);
            s = end;
        } else {
            isk_error(diag, NULL, "fields of '%s': unknown flag '%c' (s = signed, u = unsigned, n = negated, <<N = scale)", fmt, *s);
            *ok = false;
            return s + 1;
        }
    }
    return s;
}

/* The decimal number of the digits at s, as strtol reads them (saturating at LONG_MAX), and
 * where they end: strtol's generality cost ~120 host instructions a call, and every format's
 * field maps make a few. */
static long parse_decimal(const char *s, const char **end)
{
    long v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        int d = *s - '0';
        v = v > LONG_MAX / 10 || (v == LONG_MAX / 10 && d > LONG_MAX % 10) ? LONG_MAX : v * 10 + d;
    }
    *end = s;
    return v;
}

static bool parse_bit_range(const char **sp, int *hi, int *lo)
{
    const char *s = *sp;
    if (!isdigit((unsigned char)*s)) return false;
    *hi = (int)parse_decimal(s, &s);
    if (*s == ':') {
        if (!isdigit((unsigned char)s[1])) return false;
        *lo = (int)parse_decimal(s + 1, &s);
    } else {
        *lo = *hi;
    }
    *sp = s;
    return true;
}

/* Parse `.fields`: explicit segments and/or flags. */
static bool parse_field_maps(int word_bits, isk_pattern *p, const char *fmt, const char *spec, bool explicit_maps,
                             isk_diag *diag)
{
    bool ok = true;
    const char *s = spec;
    while (*s) {
        if (isspace((unsigned char)*s) || *s == ';') { s++; continue; }
        const char *name = s;
        while (isalnum((unsigned char)*s) || *s == '_') s++;
        size_t len = (size_t)(s - name);
        if (!len) {
            isk_error(diag, NULL, "fields of '%s': expected an operand name at '%s'", fmt, s);
            return false;
        }
        isk_field *f = find_field(p, name, len);
        if (!f) {
            if (!explicit_maps) {
                isk_error(diag, NULL, "fields of '%s': no operand '%.*s' in the format", fmt, (int)len, name);
                return false;
            }
            if (!(f = new_field(p, name, len, fmt, diag))) return false;
        }
        if (*s == ':') s = parse_flags(f, s + 1, fmt, diag, &ok);
        if (*s != '{') continue;
        int vhi, vlo, whi, wlo;
        s++;
        if (!parse_bit_range(&s, &vhi, &vlo) || *s != '}' || s[1] != '=') goto syntax;
        s += 2;
        if (!parse_bit_range(&s, &whi, &wlo)) goto syntax;
        if (vhi < vlo || whi < wlo || vhi - vlo != whi - wlo || vhi > 63 || whi >= word_bits) {
            isk_error(diag, NULL, "fields of '%s': segment %.*s{%d:%d}=%d:%d has mismatched or out-of-range bits",
                      fmt, (int)len, name, vhi, vlo, whi, wlo);
            return false;
        }
        if (f->nseg == ISK_MAX_SEGMENTS) {
            isk_error(diag, NULL, "fields of '%s': operand '%s' has too many segments", fmt, f->name);
            return false;
        }
        f->seg[f->nseg++] = (isk_segment){ (uint8_t)wlo, (uint8_t)vlo, (uint8_t)(whi - wlo + 1) };
        if (vhi + 1 > f->value_bits) f->value_bits = vhi + 1;
        f->word_bits |= low_mask(whi - wlo + 1) << wlo;
        continue;
    syntax:
        isk_error(diag, NULL, "fields of '%s': expected name{H:L}=h:l at '%.*s'", fmt, (int)len, name);
        return false;
    }
    return ok;
}

static bool has_segments(const char *spec)
{
    return spec && strchr(spec, '{');
}

bool isk_parse_format(isk_model *m, isk_pattern *p, const isk_insn_decl *d, isk_diag *diag)
{
    const char *fmt = d->format ? d->format : "";
    bool explicit_maps = has_segments(d->fields);
    if (!parse_bits(m, p, fmt, !explicit_maps, diag)) return false;
    if (d->fields && !parse_field_maps(m->word_bits, p, fmt, d->fields, explicit_maps, diag)) return false;

    uint64_t covered = 0;
    for (int i = 0; i < p->nfields; i++) {
        isk_field *f = &p->field[i];
        if (f->word_bits & p->mask) {
            isk_error(diag, NULL, "format '%s': operand '%s' overlaps fixed bits (0x%llx)", fmt, f->name,
                      (unsigned long long)(f->word_bits & p->mask));
            return false;
        }
        if (f->value_bits + f->scale > 64) {
            isk_error(diag, NULL, "format '%s': operand '%s' scaled beyond 64 bits", fmt, f->name);
            return false;
        }
        covered |= f->word_bits;
    }
    if (explicit_maps && covered != p->operand_bits) {
        isk_error(diag, NULL, "format '%s': the operand letters mark bits 0x%llx but the field maps cover 0x%llx",
                  fmt, (unsigned long long)p->operand_bits, (unsigned long long)covered);
        return false;
    }
    return true;
}

bool isk_field_in_domain(const isk_model *m, const isk_field *f, int64_t value)
{
    if (f->kind < 0) return true;
    const isk_kind *k = &m->kinds.data[f->kind];
    if (k->d.type != ISK_KIND_NAMES) return true;
    if (k->has_domain)
        return value >= 0 && value < 256 && (k->domain[value >> 6] >> (value & 63) & 1);
    return isk_kind_name_of(k, value) != NULL;
}

bool isk_parse_field_map(const char *spec, int bits, isk_field *out, isk_diag *diag)
{
    isk_pattern p = { 0 };
    if (!parse_field_maps(bits, &p, spec, spec, true, diag)) return false;
    if (p.nfields != 1) {
        isk_error(diag, NULL, "field map '%s' must describe exactly one value", spec);
        return false;
    }
    *out = p.field[0];
    return true;
}
