#include "asm/syntax.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool is_word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$' || c == '%';
}

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

size_t isk_syntax_mnemonic(const char *syntax, const char **start)
{
    const char *s = skip_space(syntax);
    const char *e = s;
    while (*e && *e != ' ' && *e != '\t' && *e != '{') e++;
    *start = s;
    return (size_t)(e - s);
}

/* Plain integer literal: [-+] decimal, 0x hex, 0b binary, 0o/0 octal. */
static bool parse_literal(void *user, const char **p, int64_t *value, bool *deferred)
{
    (void)user;
    *deferred = false;
    const char *s = *p;
    bool neg = false;
    if (*s == '-' || *s == '+') neg = *s++ == '-';
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, s += 2;
    if (!isxdigit((unsigned char)*s)) return false;
    char *end;
    uint64_t v = strtoull(s, &end, base);
    if (end == s || is_word_char(*end)) return false;
    *value = neg ? -(int64_t)v : (int64_t)v;
    *p = end;
    return true;
}

/* The range a field accepts for values as written. */
static void field_range(const isk_model *m, const isk_field *f, int64_t *lo, int64_t *hi)
{
    const isk_kind *k = f->kind >= 0 ? &m->kinds.data[f->kind] : NULL;
    if (k && k->d.min < k->d.max) {
        *lo = k->d.min;
        *hi = k->d.max;
        return;
    }
    int bits = f->value_bits;
    if (f->is_signed) {
        *lo = bits >= 64 ? INT64_MIN : -(INT64_C(1) << (bits - 1));
        *hi = bits >= 64 ? INT64_MAX : (INT64_C(1) << (bits - 1)) - 1;
    } else {
        *lo = 0;
        *hi = bits >= 63 ? INT64_MAX : (INT64_C(1) << bits) - 1;
    }
    if (f->scale && *hi < (INT64_MAX >> f->scale)) {
        *lo = (int64_t)((uint64_t)*lo << f->scale);
        *hi = (int64_t)((uint64_t)*hi << f->scale);
    }
}

bool isk_syntax_insert(const isk_model *m, const isk_field *f, int64_t value, uint64_t pc, uint64_t *word,
                       char *err, size_t errlen)
{
    const isk_kind *k = f->kind >= 0 ? &m->kinds.data[f->kind] : NULL;
    int64_t encoded = value;
    if (k && k->d.type == ISK_KIND_PCREL) encoded = value - (int64_t)(pc + (uint64_t)k->d.pc_bias);
    int scale = f->scale + (k ? k->d.scale : 0);
    if (scale && (encoded & ((INT64_C(1) << scale) - 1))) {
        snprintf(err, errlen, "operand %s: %" PRId64 " is not a multiple of %d", f->name, encoded, 1 << scale);
        return false;
    }
    if (k && k->d.scale) encoded >>= k->d.scale;
    int64_t lo, hi;
    field_range(m, f, &lo, &hi);
    if (k && k->d.min < k->d.max) {
        /* An explicit range applies to the value as written (e.g. a target address). */
        if (value < lo || value > hi) goto out_of_range;
    } else if (encoded < lo || encoded > hi) {
        goto out_of_range;
    }
    isk_field_insert(f, encoded, word);
    return true;
out_of_range:
    snprintf(err, errlen, "operand %s: %" PRId64 " is out of range [%" PRId64 ", %" PRId64 "]", f->name,
             k && k->d.type == ISK_KIND_PCREL && !(k->d.min < k->d.max) ? encoded : value, lo, hi);
    return false;
}

/* Match a NAMES operand: the longest name that is a prefix of s and not followed by a word
 * character. */
static bool match_name(const isk_kind *k, const char *s, int64_t *value, const char **end)
{
    size_t best = 0;
    for (size_t i = 0; i < k->names.len; i++) {
        const char *n = k->names.data[i].name;
        size_t len = strlen(n);
        if (len <= best) continue;
        bool eq = k->d.exact_case ? strncmp(n, s, len) == 0 : strncasecmp(n, s, len) == 0;
        if (eq && !(is_word_char(s[len]) && is_word_char(n[len - 1]))) {
            best = len;
            *value = k->names.data[i].value;
        }
    }
    *end = s + best;
    return best > 0;
}

typedef struct attempt {
    const char *stop;        /* how far the text matched */
    char why[160];
} attempt;

static bool match_template(const isk_model *m, const isk_pattern *p, const char *text, const isk_syntax_env *env,
                           isk_encoded *out, attempt *at)
{
    const char *t = p->info.syntax, *s = skip_space(text);
    uint64_t word = p->match;
    bool (*parse)(void *, const char **, int64_t *, bool *) = env && env->parse_value ? env->parse_value
                                                                                         : parse_literal;
    memset(out, 0, sizeof *out);
    t = skip_space(t);
    while (*t) {
        at->stop = s;
        if (*t == ' ' || *t == '\t') {
            /* Between two word characters a space is required: "move gr1", not "movegr1". */
            bool after_word = t > p->info.syntax && is_word_char(t[-1]);
            const char *after = skip_space(s);
            t = skip_space(t);
            if (after == s && after_word && is_word_char(*s)) {
                snprintf(at->why, sizeof at->why, "expected a space");
                return false;
            }
            s = after;
            continue;
        }
        if (*t != '{') {
            if (tolower((unsigned char)*t) != tolower((unsigned char)*s)) {
                snprintf(at->why, sizeof at->why, "expected '%c'", *t);
                return false;
            }
            t++, s++;
            continue;
        }
        const char *close = strchr(t, '}'), *colon = memchr(t, ':', (size_t)(close - t));
        size_t name_len = (size_t)((colon ? colon : close) - t - 1);
        int fi = 0;
        while (fi < p->nfields && !(strlen(p->field[fi].name) == name_len &&
                                    strncmp(p->field[fi].name, t + 1, name_len) == 0))
            fi++;
        const isk_field *f = &p->field[fi];
        const isk_kind *k = f->kind >= 0 ? &m->kinds.data[f->kind] : NULL;
        int64_t v = 0;
        if (k && k->d.type == ISK_KIND_NAMES) {
            const char *end;
            if (!match_name(k, s, &v, &end)) {
                snprintf(at->why, sizeof at->why, "expected %s (e.g. %s)", k->d.name, k->names.data[0].name);
                return false;
            }
            s = end;
            isk_field_insert(f, v, &word);
        } else {
            bool deferred = false;
            const char *start = s;
            if (!parse(env ? env->user : NULL, &s, &v, &deferred)) {
                at->stop = start;
                snprintf(at->why, sizeof at->why, "expected a number for %s", f->name);
                return false;
            }
            out->deferred[fi] = deferred;
            if (!deferred &&
                !isk_syntax_insert(m, f, v, env ? env->pc : 0, &word, at->why, sizeof at->why)) {
                at->stop = start;
                return false;
            }
        }
        out->ops[fi] = v;
        t = close + 1;
    }
    s = skip_space(s);
    if (*s) {
        at->stop = s;
        snprintf(at->why, sizeof at->why, "unexpected '%.20s'", s);
        return false;
    }
    out->word = word;
    out->pattern = (int)(p - m->patterns.data);
    return true;
}

bool isk_syntax_encode(const isk_model *m, const char *text, const isk_syntax_env *env, isk_encoded *out,
                       char *err, size_t errlen, int *err_offset)
{
    const char *mn;
    size_t mn_len = isk_syntax_mnemonic(text, &mn);
    attempt best = { .stop = NULL };
    bool known_mnemonic = false;
    for (size_t i = 0; i < m->patterns.len; i++) {
        const isk_pattern *p = &m->patterns.data[i];
        if (!p->info.syntax) continue;
        const char *pm;
        size_t pm_len = isk_syntax_mnemonic(p->info.syntax, &pm);
        if (pm_len != mn_len || strncasecmp(pm, mn, mn_len) != 0) continue;
        known_mnemonic = true;
        attempt at = { .stop = text };
        if (match_template(m, p, text, env, out, &at)) return true;
        if (!best.stop || at.stop > best.stop) best = at;
    }
    if (!known_mnemonic) {
        snprintf(err, errlen, "unknown instruction '%.*s' for model '%s'", (int)mn_len, mn, m->name);
        *err_offset = (int)(mn - text);
    } else {
        snprintf(err, errlen, "%s", best.why);
        *err_offset = (int)(best.stop - text);
    }
    return false;
}

int isk_syntax_display_pattern(const isk_model *m, int pattern, uint64_t word)
{
    int best = pattern, best_fields = ISK_MAX_OPS + 1;
    for (size_t i = 0; i < m->patterns.len; i++) {
        const isk_pattern *a = &m->patterns.data[i];
        if (!a->alias || a->base != pattern || !a->info.syntax || (word & a->mask) != a->match) continue;
        bool in_domain = true;
        for (int f = 0; f < a->nfields && in_domain; f++)
            in_domain = isk_field_in_domain(m, &a->field[f], isk_field_extract(&a->field[f], word));
        if (in_domain && a->nfields < best_fields) best = (int)i, best_fields = a->nfields;
    }
    return best;
}

bool isk_syntax_print(const isk_model *m, int pattern, uint64_t word, uint64_t pc, char *out, size_t cap)
{
    const isk_pattern *p = &m->patterns.data[pattern];
    if (!p->info.syntax || !cap) return false;
    size_t n = 0;
    for (const char *t = p->info.syntax; *t && n + 1 < cap;) {
        if (*t != '{') {
            out[n++] = *t++;
            continue;
        }
        const char *close = strchr(t, '}'), *colon = memchr(t, ':', (size_t)(close - t));
        size_t name_len = (size_t)((colon ? colon : close) - t - 1);
        const isk_field *f = NULL;
        for (int i = 0; i < p->nfields; i++)
            if (strlen(p->field[i].name) == name_len && strncmp(p->field[i].name, t + 1, name_len) == 0)
                f = &p->field[i];
        int64_t v = isk_field_extract(f, word);
        const isk_kind *k = f->kind >= 0 ? &m->kinds.data[f->kind] : NULL;
        char buf[64];
        const char *name = k && k->d.type == ISK_KIND_NAMES ? isk_kind_name_of(k, v) : NULL;
        if (name) {
            snprintf(buf, sizeof buf, "%s", name);
        } else if (k && k->d.type == ISK_KIND_PCREL) {
            int64_t target = (int64_t)(pc + (uint64_t)k->d.pc_bias) + (int64_t)((uint64_t)v << k->d.scale);
            snprintf(buf, sizeof buf, "0x%" PRIx64, (uint64_t)target);
        } else {
            if (k && k->d.scale) v = (int64_t)((uint64_t)v << k->d.scale);
            if (k && k->d.hex) snprintf(buf, sizeof buf, "0x%" PRIx64, (uint64_t)v);
            else snprintf(buf, sizeof buf, "%" PRId64, v);
        }
        n += (size_t)snprintf(out + n, cap - n, "%s", buf);
        if (n >= cap) n = cap - 1;
        t = close + 1;
    }
    out[n] = 0;
    return true;
}
