/* .psm values and names.
 *
 *   5A  5  0A5        hex, the default radix (any number of digits; range-checked where used)
 *   200'd  0101'b     decimal, binary
 *   "A"               a printable character
 *   ~value            the 8-bit complement
 *   name              a CONSTANT, a label or a predefined constant; a name wins over hex digits
 *   label'upper       bits 11:8 of a label; label'lower: bits 7:0
 *   %NAME             the value written in environment variable NAME (KCPSM6: %PSM_name)
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "psm/psm_int.h"

int psm_register_number(const char *s, int len)
{
    if (len != 2 || (s[0] != 's' && s[0] != 'S') || !isxdigit((unsigned char)s[1])) return -1;
    char c = (char)toupper((unsigned char)s[1]);
    return c <= '9' ? c - '0' : c - 'A' + 10;
}

static bool all_hex(const char *s, int len)
{
    for (int i = 0; i < len; i++)
        if (!isxdigit((unsigned char)s[i])) return false;
    return len > 0;
}

/* ".local" stands for "<the last global label>.local" (opbasm's local labels). */
static const char *full_name(psm_asm *a, const char *s, int *len, char *buf, size_t cap)
{
    if (*len < 1 || s[0] != '.') return s;
    int n = snprintf(buf, cap, "%s%.*s", a->context, *len, s);
    if (n < 0 || (size_t)n >= cap) return s;
    *len = n;
    return buf;
}

psm_symbol *psm_symbol_lookup(psm_asm *a, const char *s, int len)
{
    int i;
    char buf[256];
    s = full_name(a, s, &len, buf, sizeof buf);
    return asm_map_get(&a->symbol_map, s, (size_t)len, &i) ? &a->prog->symbols.data[i] : NULL;
}

/* A 0x-prefixed hex number (opbasm, through Python's int(text, 16)). */
static bool is_0x_hex(const char *s, int len)
{
    return len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && all_hex(s + 2, len - 2);
}


bool psm_check_name(psm_asm *a, const psm_line *l, const psm_span *s0, const char *what, char suffix)
{
    /* a label may carry opbasm's "&&" (macro) or "." (local) prefix; the rest is a plain name */
    psm_span rest = *s0;
    int prefix = strcmp(what, "label") != 0 ? 0 : (rest.len > 2 && rest.s[0] == '&' && rest.s[1] == '&') ? 2
                 : (rest.len > 1 && rest.s[0] == '.') ? 1 : 0;
    rest.s += prefix, rest.len -= prefix, rest.col += prefix;
    const psm_span *s = &rest;
    int len = s->len;
    if (suffix) {
        if (!len || s->s[len - 1] != suffix) {
            psm_error_at(a, l, s->col, "the name of a %s must end in '%c'", what, suffix);
            return false;
        }
        len--;
    }
    for (int i = 0; i < len; i++)
        if (!psm_is_name_char(s->s[i])) {
            psm_error_at(a, l, s->col + i, "'%c' is not allowed in the name of a %s (letters, digits and '_')",
                         s->s[i], what);
            return false;
        }
    if (!len) {
        psm_error_at(a, l, s->col, "expected the name of a %s", what);
        return false;
    }
    if (psm_register_number(s->s, len) >= 0) {
        psm_error_at(a, l, s->col, "'%.*s' is a register name; a %s needs another name", len, s->s, what);
        return false;
    }
    static const char *const conditions[] = { "Z", "NZ", "C", "NC" };
    for (size_t i = 0; i < sizeof conditions / sizeof *conditions; i++)
        if ((size_t)len == strlen(conditions[i]) && strncasecmp(s->s, conditions[i], (size_t)len) == 0) {
            psm_error_at(a, l, s->col, "'%.*s' is a condition name; a %s needs another name", len, s->s, what);
            return false;
        }
    if (!suffix && !prefix && ((all_hex(s->s, len) && len <= 5) || is_0x_hex(s->s, len))) {
        psm_error_at(a, l, s->col, "'%.*s' reads as a hex value; a %s needs another name", len, s->s, what);
        return false;
    }
    return true;
}

psm_symbol *psm_symbol_define(psm_asm *a, const psm_line *l, const psm_span *s, int kind)
{
    psm_symbol *old = psm_symbol_lookup(a, s->s, s->len);
    if (old) {
        psm_error_at(a, l, s->col, "'%.*s' is already defined at %s:%d", s->len, s->s, old->file, old->line);
        return NULL;
    }
    char buf[256];
    int len = s->len;
    const char *name = full_name(a, s->s, &len, buf, sizeof buf);
    psm_symbol y = { .name = isk_xstrndup(name, (size_t)len), .kind = kind, .file = l->file, .line = l->line };
    VEC_PUSH(&a->prog->symbols, y);
    asm_map_put(&a->symbol_map, name, (size_t)len, (int)a->prog->symbols.len - 1);
    return &VEC_LAST(&a->prog->symbols);
}

/* The constants every Xilinx assembler knows. */
static bool predefined(psm_asm *a, const char *s, int len, int64_t *v)
{
    static const struct { const char *name; int value; } fixed[] = {
        { "NUL", 0x00 }, { "BEL", 0x07 }, { "BS", 0x08 }, { "HT", 0x09 }, { "LF", 0x0A }, { "VT", 0x0B },
        { "CR", 0x0D }, { "ESC", 0x1B }, { "DEL", 0x7F }, { "DCS", 0x90 }, { "ST", 0x9C },
    };
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        if (strlen(fixed[i].name) == (size_t)len && strncmp(fixed[i].name, s, (size_t)len) == 0) {
            *v = fixed[i].value;
            return true;
        }
    time_t t = (time_t)a->now;
    struct tm tm;
    gmtime_r(&t, &tm);
    const struct { const char *name; int value; } stamps[] = {
        { "timestamp_hours", tm.tm_hour }, { "timestamp_minutes", tm.tm_min }, { "timestamp_seconds", tm.tm_sec },
        { "datestamp_year", tm.tm_year % 100 }, { "datestamp_month", tm.tm_mon + 1 }, { "datestamp_day", tm.tm_mday },
    };
    for (size_t i = 0; i < sizeof stamps / sizeof *stamps; i++)
        if (strlen(stamps[i].name) == (size_t)len && strncmp(stamps[i].name, s, (size_t)len) == 0) {
            *v = stamps[i].value;
            return true;
        }
    return false;
}

static bool psm_value_at(psm_asm *a, const char **p, int64_t *v);

static bool refuse(psm_asm *a, const char *at, const char *fmt, const char *s, int len)
{
    snprintf(a->value_error, sizeof a->value_error, fmt, len, s);
    a->value_error_at = at;
    return false;
}

/* digits in `base` -> value; false if a digit is out of place or it overflows 32 bits */
static bool digits(const char *s, int len, int base, int64_t *v)
{
    int64_t x = 0;
    for (int i = 0; i < len; i++) {
        int c = toupper((unsigned char)s[i]);
        int d = isdigit(c) ? c - '0' : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : 99;
        if (d >= base) return false;
        x = x * base + d;
        if (x > 0xFFFFFFFF) return false;
    }
    *v = x;
    return len > 0;
}

static bool value_of_name(psm_asm *a, const char *s, int len, int64_t *v)
{
    psm_symbol *y = psm_symbol_lookup(a, s, len);
    if (y && y->invalid) {
        a->value_invalid = true;        /* its definition's error was reported: no second one */
        return refuse(a, s, "'%.*s' has no value (its definition failed)", s, len);
    }
    if (y && (y->kind == PSM_LABEL || y->kind == PSM_CONSTANT)) {
        *v = y->value;
        return true;
    }
    if (y) return refuse(a, s, "'%.*s' is a string or table; it is no value here", s, len);
    if (predefined(a, s, len, v)) return true;
    if (is_0x_hex(s, len)) {
        if (!digits(s + 2, len - 2, 16, v)) return refuse(a, s, "'%.*s' is too large", s, len);
        return true;
    }
    if (all_hex(s, len)) {
        if (!digits(s, len, 16, v)) return refuse(a, s, "'%.*s' is too large", s, len);
        return true;
    }
    if (psm_register_number(s, len) >= 0) return refuse(a, s, "'%.*s' is a register, not a value", s, len);
    return refuse(a, s, a->pass2 ? "'%.*s' is not defined" : "'%.*s' is not defined (yet)", s, len);
}

/* The text of an environment variable, parsed as a value. */
static bool environment_value(psm_asm *a, const char *s, int len, int64_t *v)
{
    char name[128];
    snprintf(name, sizeof name, "%.*s", len, s);
    const char *text = getenv(name);
    if (!text || !*text) return refuse(a, s - 1, "environment variable '%.*s' is not set", s, len);
    const char *p = text;
    while (*p == ' ') p++;
    /* A variable naming another (A=%A) would recurse without end. */
    bool ok = !strchr(p, '%') && psm_value(a, &p, v);
    if (strchr(p, '%')) snprintf(a->value_error, sizeof a->value_error, "it names another variable");
    while (ok && *p == ' ') p++;
    if (ok && !*p) return true;
    /* The reason points into the variable's text, not into the line: show the text instead and
     * point at the %NAME. */
    char why[sizeof a->value_error];
    snprintf(why, sizeof why, "%s", ok ? "it holds more than one value" : a->value_error);
    snprintf(a->value_error, sizeof a->value_error, "environment variable '%.*s' holds '%.20s', not a value: %.60s",
             len < 20 ? len : 20, s, text, why);
    a->value_error_at = s - 1;
    return false;
}

bool psm_value(psm_asm *a, const char **p, int64_t *v)
{
    const char *s = *p;
    bool ok = psm_value_at(a, p, v);
    if (!ok) a->value_start = s;
    return ok;
}

static bool psm_value_at(psm_asm *a, const char **p, int64_t *v)
{
    const char *s = *p;
    bool invert = false;
    if (*s == '~') invert = true, s++;
    if (*s == '"') {
        if (!isprint((unsigned char)s[1]) || s[2] != '"')
            return refuse(a, s, "a character constant is one printable character in quotes%.*s", "", 0);
        *v = (unsigned char)s[1];
        s += 3;
    } else {
        bool env = *s == '%';
        if (env) s++;
        const char *t = env ? s : psm_name_end(s);
        while (env && psm_is_name_char(*t)) t++;
        int len = (int)(t - s);
        if (!len) return refuse(a, s, "expected a value%.*s", "", 0);
        if (env) {
            if (!environment_value(a, s, len, v)) return false;
        } else if (*t == '\'') {
            const char *suffix = t + 1, *e = suffix;
            while (isalpha((unsigned char)*e)) e++;
            int slen = (int)(e - suffix);
            if (slen == 1 && (*suffix == 'd' || *suffix == 'D')) {
                if (!digits(s, len, 10, v)) return refuse(a, s, "'%.*s' is not a decimal number", s, len);
            } else if (slen == 1 && (*suffix == 'b' || *suffix == 'B')) {
                if (!digits(s, len, 2, v)) return refuse(a, s, "'%.*s' is not a binary number", s, len);
            } else if (slen == 5 && (strncasecmp(suffix, "upper", 5) == 0 || strncasecmp(suffix, "lower", 5) == 0)) {
                if (!value_of_name(a, s, len, v)) return false;
                *v = tolower((unsigned char)*suffix) == 'u' ? (*v >> 8) & 0xF : *v & 0xFF;
            } else {
                return refuse(a, t, "unknown suffix '%.*s' (use 'd, 'b, 'upper or 'lower)", t, slen + 1);
            }
            t = e;
        } else if (*t == '$' || *t == '#') {
            return refuse(a, s, "'%.*s' is a string or table; it is no value here", s, len + 1);
        } else if (!value_of_name(a, s, len, v)) {
            return false;
        }
        s = t;
    }
    if (invert) *v = ~*v & 0xFF;
    *p = s;
    return true;
}

bool psm_value_span(psm_asm *a, const psm_line *l, const psm_span *s, int64_t *v)
{
    char *text = isk_xstrndup(s->s, (size_t)s->len);
    const char *p = text;
    a->value_invalid = false;
    bool ok = psm_value(a, &p, v);
    if (ok && *p) {
        ok = false;
        snprintf(a->value_error, sizeof a->value_error, "unexpected '%s' after the value", p);
        a->value_error_at = p;
    }
    if (!ok && !a->value_invalid)
        psm_error_at(a, l, s->col + (int)(a->value_error_at - text), "%s", a->value_error);
    free(text);
    return ok;
}
