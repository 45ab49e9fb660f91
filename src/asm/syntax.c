#include "asm/syntax.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/str.h"

bool isk_syntax_word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$' || c == '%';
}

size_t isk_syntax_mnemonic(const char *syntax, const char **start)
{
    const char *s = isk_skip_blanks(syntax);
    const char *e = s;
    while (*e && *e != ' ' && *e != '\t' && *e != '{') e++;
    *start = s;
    return (size_t)(e - s);
}

/* ---- the index ------------------------------------------------------------------------- */

typedef struct mnemonic_entry { char *mnemonic; int pattern; } mnemonic_entry;

struct isk_syntax_index {
    mnemonic_entry *insns;   /* sorted by mnemonic (lower case), then pattern */
    size_t ninsns;
    char **names;            /* every NAMES kind's names, lower case, sorted */
    size_t nnames;
};

static char *lower_dup(const char *s, size_t n)
{
    char *d = isk_xstrndup(s, n);
    for (size_t i = 0; i < n; i++) d[i] = (char)tolower((unsigned char)d[i]);
    return d;
}

static int cmp_insn(const void *a, const void *b)
{
    const mnemonic_entry *x = a, *y = b;
    int c = strcmp(x->mnemonic, y->mnemonic);
    return c ? c : (x->pattern > y->pattern) - (x->pattern < y->pattern);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

isk_syntax_index *isk_syntax_index_new(const isk_model *m)
{
    isk_syntax_index *ix = isk_xcalloc(1, sizeof *ix);
    ix->insns = isk_xcalloc(m->patterns.len + 1, sizeof *ix->insns);
    for (size_t i = 0; i < m->patterns.len; i++) {
        const char *syntax = m->patterns.data[i].info.syntax, *mn;
        if (!syntax) continue;
        size_t n = isk_syntax_mnemonic(syntax, &mn);
        ix->insns[ix->ninsns++] = (mnemonic_entry){ lower_dup(mn, n), (int)i };
    }
    qsort(ix->insns, ix->ninsns, sizeof *ix->insns, cmp_insn);
    size_t total = 0;
    for (size_t k = 0; k < m->kinds.len; k++)
        if (m->kinds.data[k].d.type == ISK_KIND_NAMES) total += m->kinds.data[k].names.len;
    ix->names = isk_xcalloc(total + 1, sizeof *ix->names);
    for (size_t k = 0; k < m->kinds.len; k++) {
        const isk_kind *kd = &m->kinds.data[k];
        if (kd->d.type != ISK_KIND_NAMES) continue;
        for (size_t j = 0; j < kd->names.len; j++)
            ix->names[ix->nnames++] = lower_dup(kd->names.data[j].name, strlen(kd->names.data[j].name));
    }
    qsort(ix->names, ix->nnames, sizeof *ix->names, cmp_str);
    return ix;
}

void isk_syntax_index_free(isk_syntax_index *ix)
{
    if (!ix) return;
    for (size_t i = 0; i < ix->ninsns; i++) free(ix->insns[i].mnemonic);
    for (size_t i = 0; i < ix->nnames; i++) free(ix->names[i]);
    free(ix->insns);
    free(ix->names);
    free(ix);
}

/* Compare a NUL-terminated lower-case string with [s, s+n) folded to lower case. */
static int cmp_folded(const char *lower, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int a = (unsigned char)lower[i], b = tolower((unsigned char)s[i]);
        if (!a) return -1;
        if (a != b) return a < b ? -1 : 1;
    }
    return lower[n] ? 1 : 0;
}

bool isk_syntax_is_name(const isk_model *m, const isk_syntax_index *ix, const char *s, size_t len)
{
    if (ix) {
        size_t lo = 0, hi = ix->nnames;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            int c = cmp_folded(ix->names[mid], s, len);
            if (c == 0) return true;
            if (c < 0) lo = mid + 1;
            else hi = mid;
        }
        return false;
    }
    for (size_t k = 0; k < m->kinds.len; k++) {
        const isk_kind *kd = &m->kinds.data[k];
        if (kd->d.type != ISK_KIND_NAMES) continue;
        for (size_t j = 0; j < kd->names.len; j++) {
            const char *n = kd->names.data[j].name;
            if (strlen(n) == len && strncasecmp(n, s, len) == 0) return true;
        }
    }
    return false;
}

/* The range [first, end) of index entries with this mnemonic. */
static void index_lookup(const isk_syntax_index *ix, const char *mn, size_t n, size_t *first, size_t *end)
{
    size_t lo = 0, hi = ix->ninsns;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cmp_folded(ix->insns[mid].mnemonic, mn, n) < 0) lo = mid + 1;
        else hi = mid;
    }
    *first = lo;
    while (lo < ix->ninsns && cmp_folded(ix->insns[lo].mnemonic, mn, n) == 0) lo++;
    *end = lo;
}

/* ---- operands ---------------------------------------------------------------------------- */

/* Plain integer literal: [-+] decimal, 0x hex, 0b binary. */
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
    if (end == s || isk_syntax_word_char(*end)) return false;
    *value = neg ? (int64_t)(0 - v) : (int64_t)v;
    *p = end;
    return true;
}

void isk_syntax_field_range(const isk_model *m, const isk_field *f, int64_t *lo, int64_t *hi)
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
    if (f->scale && *hi < (INT64_MAX >> f->scale) && *lo > (INT64_MIN >> f->scale)) {
        *lo = (int64_t)((uint64_t)*lo << f->scale);
        *hi = (int64_t)((uint64_t)*hi << f->scale);
    }
    if (f->negate && *lo > INT64_MIN) {          /* the operand is minus what the field holds */
        const int64_t lo0 = *lo;
        *lo = -*hi;
        *hi = -lo0;
    }
}

bool isk_syntax_insert(const isk_model *m, const isk_field *f, int64_t value, uint64_t pc, uint64_t *word,
                       char *err, size_t errlen)
{
    const isk_kind *k = f->kind >= 0 ? &m->kinds.data[f->kind] : NULL;
    /* A range of unsigned 32-bit values reaching 2^31 takes a negative 32-bit value as its two's
     * complement, as 32-bit assemblers do (`or $m0, $mzero, ~0xFFFFFF`). */
    if (k && k->d.type == ISK_KIND_INT && k->d.min >= 0 && k->d.min < k->d.max && k->d.max >= INT64_C(1) << 31 &&
        k->d.max <= UINT32_MAX && value < 0 && value >= INT32_MIN)
        value += INT64_C(1) << 32;
    int64_t encoded = value;
    if (k && k->d.type == ISK_KIND_PCREL)
        encoded = (int64_t)((uint64_t)value - (pc + (uint64_t)k->d.pc_bias));
    int scale = f->scale + (k ? k->d.scale : 0);
    if (scale > 0 && scale < 63 && (encoded & ((INT64_C(1) << scale) - 1))) {
        snprintf(err, errlen, "operand %s: %" PRId64 " is not a multiple of %" PRId64, f->name, encoded,
                 INT64_C(1) << scale);
        return false;
    }
    if (k && k->d.scale > 0 && k->d.scale < 64) encoded >>= k->d.scale;
    int64_t lo, hi;
    isk_syntax_field_range(m, f, &lo, &hi);
    if (k && k->d.min < k->d.max) {
        /* An explicit range applies to the value as written (e.g. a target address, or the
         * DPU's "SU" immediates -2^(n-1)..2^n-1); the field then holds the encoded value modulo
         * 2^bits, so it must fit the bits as a signed or as an unsigned number. */
        if (value < lo || value > hi) goto out_of_range;
        const int bits = f->value_bits;
        if (bits < 64 && (encoded < -(INT64_C(1) << (bits - 1)) || encoded > (INT64_C(1) << bits) - 1)) {
            snprintf(err, errlen, "operand %s: %" PRId64 " does not fit the %d-bit field", f->name, value, bits);
            return false;
        }
        isk_field_insert(f, isk_wrap(encoded, bits, f->is_signed), word);
        return true;
    } else if (encoded < lo || encoded > hi) {
        goto out_of_range;
    }
    if (!isk_field_insert(f, encoded, word)) {
        /* In range but not representable as is: an unsigned field given a value that only fits
         * after wrapping (ranges from .min/.max such as [-2^31, 2^32-1]). */
        isk_field_insert(f, isk_wrap(encoded, f->value_bits, 0), word);
    }
    return true;
out_of_range:
    if (k && k->d.type == ISK_KIND_PCREL && !(k->d.min < k->d.max))
        snprintf(err, errlen, "operand %s: target 0x%" PRIx64 " is out of reach: offset %" PRId64
                 " is outside [%" PRId64 ", %" PRId64 "]", f->name, (uint64_t)value, encoded, lo, hi);
    else
        snprintf(err, errlen, "operand %s: %" PRId64 " is out of range [%" PRId64 ", %" PRId64 "]", f->name, value,
                 lo, hi);
    return false;
}

/* How much of s spells the name n (0 if it does not). Blanks may stand on either side of a
 * punctuation character inside the name, as the C preprocessor leaves them: `$a4: 5` is the
 * pair `$a4:5` (a macro holding `a4:` and `5` on continued lines). */
static size_t name_prefix(const char *n, const char *s, bool exact_case)
{
    const char *s0 = s;
    for (size_t i = 0; n[i]; i++) {
        if (i > 0 && (!isk_syntax_word_char(n[i]) || (i >= 2 && !isk_syntax_word_char(n[i - 1]))))
            while (*s == ' ' || *s == '\t') s++;
        bool eq = exact_case ? *s == n[i] : tolower((unsigned char)*s) == tolower((unsigned char)n[i]);
        if (!eq) return 0;
        s++;
    }
    return (size_t)(s - s0);
}

/* Match a NAMES operand: the longest name that is a prefix of s and not followed by a word
 * character. */
static bool match_name(const isk_kind *k, const char *s, int64_t *value, const char **end)
{
    size_t best = 0, used = 0;
    for (size_t i = 0; i < k->names.len; i++) {
        const char *n = k->names.data[i].name;
        size_t len = strlen(n);
        if (len <= best) continue;
        size_t got = name_prefix(n, s, k->d.exact_case);
        if (got && !(isk_syntax_word_char(s[got]) && isk_syntax_word_char(n[len - 1]))) {
            best = len;
            used = got;
            *value = k->names.data[i].value;
        }
    }
    *end = s + used;
    return best > 0;
}

typedef struct attempt {
    const char *stop;        /* how far the text matched */
    bool value_rejected;     /* the operand had the right form but its value did not fit */
    const char *literal;     /* why is "expected 'WORD'": the template's WORD, literal_len long */
    int literal_len;
    char why[200];
} attempt;

/* The literal word of a template that starts at t: one leading punctuation character (the
 * DPU's `!little`) and the word characters after it, or that one character alone. */
static int literal_length(const char *t)
{
    int n = 1;
    while (isk_syntax_word_char(t[n])) n++;
    return n;
}

static const isk_field *template_field(const isk_pattern *p, const char *t, const char **close)
{
    *close = strchr(t, '}');
    const char *colon = memchr(t, ':', (size_t)(*close - t));
    size_t name_len = (size_t)((colon ? colon : *close) - t - 1);
    for (int i = 0; i < p->nfields; i++)
        if (strlen(p->field[i].name) == name_len && strncmp(p->field[i].name, t + 1, name_len) == 0)
            return &p->field[i];
    return NULL;
}

static bool match_template(const isk_model *m, const isk_pattern *p, const char *text, const isk_syntax_env *env,
                           isk_encoded *out, attempt *at)
{
    const char *start = p->info.syntax, *t = start, *s = isk_skip_blanks(text);
    uint64_t word = p->match;
    bool (*parse)(void *, const char **, int64_t *, bool *) = env && env->parse_value ? env->parse_value
                                                                                         : parse_literal;
    memset(out, 0, sizeof *out);
    t = isk_skip_blanks(t);
    /* where the template's current literal word began, and the text then: a mismatch inside it
     * is reported at its start, naming it whole ("expected '!little'", not "expected 'l'") */
    const char *word_t = NULL, *word_s = NULL;
    while (*t) {
        at->stop = s;
        if (*t == ' ' || *t == '\t') {
            /* Between two word characters a space is required: "move gr1", not "movegr1". */
            bool after_word = t > start && isk_syntax_word_char(t[-1]);
            const char *after = isk_skip_blanks(s);
            t = isk_skip_blanks(t);
            if (after == s && after_word && isk_syntax_word_char(*s) && (*t == '{' || isk_syntax_word_char(*t))) {
                snprintf(at->why, sizeof at->why, "expected a space");
                return false;
            }
            s = after;
            word_t = NULL;
            continue;
        }
        /* Spaces the template does not show are allowed around punctuation. */
        bool glued = t > start && isk_syntax_word_char(t[-1]) && (*t == '{' || isk_syntax_word_char(*t));
        if (!glued) s = isk_skip_blanks(s);
        at->stop = s;
        if (*t != '{') {
            if (!word_t || !isk_syntax_word_char(*t)) word_t = t, word_s = s;
            if (tolower((unsigned char)*t) != tolower((unsigned char)*s)) {
                at->stop = word_s;
                at->literal = word_t;
                at->literal_len = literal_length(word_t);
                snprintf(at->why, sizeof at->why, "expected '%.*s'", at->literal_len, word_t);
                return false;
            }
            t++, s++;
            continue;
        }
        word_t = NULL;
        const char *close;
        const isk_field *f = template_field(p, t, &close);
        if (!f) {
            snprintf(at->why, sizeof at->why, "bad template '%s'", p->info.syntax);
            return false;
        }
        int fi = (int)(f - p->field);
        const isk_kind *k = f->kind >= 0 ? &m->kinds.data[f->kind] : NULL;
        int64_t v = 0;
        if (k && k->d.type == ISK_KIND_NAMES) {
            const char *end;
            if (!match_name(k, s, &v, &end)) {
                snprintf(at->why, sizeof at->why, "expected %s (e.g. %s)", k->d.name, k->names.data[0].name);
                return false;
            }
            s = end;
            if (!isk_field_insert(f, v, &word)) {
                snprintf(at->why, sizeof at->why, "%s does not fit operand %s", k->names.data[0].name, f->name);
                return false;
            }
        } else {
            bool deferred = false;
            const char *before = s;
            if (!parse(env ? env->user : NULL, &s, &v, &deferred)) {
                at->stop = before;
                snprintf(at->why, sizeof at->why, "expected %s for operand %s",
                         k && k->d.type == ISK_KIND_PCREL ? "a target" : k && k->d.type == ISK_KIND_ABS
                             ? "an address" : "a number", f->name);
                return false;
            }
            out->deferred[fi] = deferred;
            if (!deferred && !isk_syntax_insert(m, f, v, env ? env->pc : 0, &word, at->why, sizeof at->why)) {
                at->stop = before;
                at->value_rejected = true;
                return false;
            }
        }
        out->ops[fi] = v;
        t = close + 1;
    }
    s = isk_skip_blanks(s);
    if (*s) {
        at->stop = s;
        snprintf(at->why, sizeof at->why, "unexpected '%.20s'", s);
        return false;
    }
    out->word = word;
    out->pattern = (int)(p - m->patterns.data);
    return true;
}

/* Whether `best`'s message already names the literal `at` expected. */
static bool names_literal(const attempt *best, const attempt *at)
{
    char quoted[64];
    snprintf(quoted, sizeof quoted, "'%.*s'", at->literal_len, at->literal);
    return strstr(best->why, quoted) != NULL;
}

/* Can every deferred operand of this encoding still be filled in later? */
static bool deferrable(const isk_model *m, const isk_encoded *e)
{
    const isk_pattern *p = &m->patterns.data[e->pattern];
    for (int i = 0; i < p->nfields; i++) {
        if (!e->deferred[i]) continue;
        const isk_field *f = &p->field[i];
        bool pcrel = f->kind >= 0 && m->kinds.data[f->kind].d.type == ISK_KIND_PCREL;
        if (p->reloc[i] < 0 && !pcrel) return false;
    }
    return true;
}

static bool any_deferred(const isk_encoded *e)
{
    for (int i = 0; i < ISK_MAX_OPS; i++)
        if (e->deferred[i]) return true;
    return false;
}

bool isk_syntax_encode(const isk_model *m, const char *text, const isk_syntax_env *env, isk_encoded *out,
                       char *err, size_t errlen, int *err_offset)
{
    const char *mn;
    size_t mn_len = isk_syntax_mnemonic(text, &mn);
    attempt best = { .stop = NULL };
    bool known_mnemonic = false, have_first = false;
    isk_encoded first = { 0 }, cur;
    size_t k = 0, end = m->patterns.len;
    const isk_syntax_index *ix = env ? env->index : NULL;
    if (ix) index_lookup(ix, mn, mn_len, &k, &end);
    for (; k < end; k++) {
        size_t i = ix ? (size_t)ix->insns[k].pattern : k;
        const isk_pattern *p = &m->patterns.data[i];
        if (!p->info.syntax) continue;
        if (!ix) {
            const char *pm;
            size_t pm_len = isk_syntax_mnemonic(p->info.syntax, &pm);
            if (pm_len != mn_len || strncasecmp(pm, mn, mn_len) != 0) continue;
        }
        known_mnemonic = true;
        attempt at = { .stop = text };
        if (!match_template(m, p, text, env, &cur, &at)) {
            /* Report the template that got furthest; at a tie, one whose operand had the right
             * form but a value out of range says more than "expected a register". */
            if (!best.stop || at.stop > best.stop || (at.stop == best.stop && at.value_rejected && !best.value_rejected))
                best = at;
            else if (at.stop == best.stop && at.literal && best.literal && !names_literal(&best, &at))
                /* templates whose literals differ at one place: name them all ("expected '!little'
                 * or '!big'") */
                snprintf(best.why + strlen(best.why), sizeof best.why - strlen(best.why), " or '%.*s'",
                         at.literal_len, at.literal);
            continue;
        }
        if (!any_deferred(&cur) || deferrable(m, &cur)) {
            *out = cur;
            return true;
        }
        if (!have_first) first = cur, have_first = true;
    }
    if (have_first) {
        *out = first;
        return true;
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
        /* Each operand must be in its domain and re-encode to the word: an operand written to
         * two places (swap16 $d, $s = roll16 $d, $s, $s) only fits a word whose places agree. */
        bool in_domain = true;
        for (int f = 0; f < a->nfields && in_domain; f++) {
            const int64_t v = isk_field_extract(&a->field[f], word);
            uint64_t again = word;
            isk_field_insert(&a->field[f], v, &again);
            in_domain = isk_field_in_domain(m, &a->field[f], v) && again == word;
        }
        if (in_domain && a->nfields < best_fields) best = (int)i, best_fields = a->nfields;
    }
    return best;
}

int64_t isk_syntax_operand_value(const isk_model *m, const isk_field *f, uint64_t word, uint64_t pc)
{
    int64_t v = isk_field_extract(f, word);
    const isk_kind *k = f->kind >= 0 ? &m->kinds.data[f->kind] : NULL;
    if (k && k->d.scale > 0 && k->d.scale < 64) v = (int64_t)((uint64_t)v << k->d.scale);
    if (k && k->d.type == ISK_KIND_PCREL) v = (int64_t)(pc + (uint64_t)k->d.pc_bias + (uint64_t)v);
    return v;
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
        const char *close;
        const isk_field *f = template_field(p, t, &close);
        if (!f) break;
        const isk_kind *k = f->kind >= 0 ? &m->kinds.data[f->kind] : NULL;
        int64_t v = isk_syntax_operand_value(m, f, word, pc);
        char buf[64];
        const char *name = k && k->d.type == ISK_KIND_NAMES ? isk_kind_name_of(k, v) : NULL;
        if (name) snprintf(buf, sizeof buf, "%s", name);
        else if (k && (k->d.type == ISK_KIND_PCREL || k->d.hex) && (v >= 0 || k->d.type == ISK_KIND_PCREL))
            snprintf(buf, sizeof buf, "0x%" PRIx64, (uint64_t)v);
        else if (k && k->d.hex) snprintf(buf, sizeof buf, "-0x%" PRIx64, (uint64_t)0 - (uint64_t)v);
        else snprintf(buf, sizeof buf, "%" PRId64, v);
        n += (size_t)snprintf(out + n, cap - n, "%s", buf);
        if (n >= cap) n = cap - 1;
        t = close + 1;
    }
    out[n] = 0;
    return true;
}
