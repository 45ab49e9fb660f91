/* One .psm instruction -> its word(s), through the model's syntax templates.
 *
 * The front end rewrites the line into the templates' canonical shape before encoding: NAMEREG
 * names become their sX, white space inside operands goes ("( s1 )" -> "(s1)", "sC  ," ->
 * "sC,"), operands are joined with ", ". Each character of the rewritten text remembers the
 * source column it came from, so that an error still points into the line as written. Values
 * (hex, 'd, 'b, "c", ~, names, 'upper/'lower) are parsed by the psm value hook. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "psm/psm_int.h"
#include "asm/syntax.h"

typedef struct rewritten {
    VEC(char) text;
    VEC(int) cols;
} rewritten;

static void put(rewritten *r, char c, int col)
{
    VEC_PUSH(&r->text, c);
    VEC_PUSH(&r->cols, col);
}

static void put_str(rewritten *r, const char *s, int col)
{
    while (*s) put(r, *s++, col);
}

static void rewritten_free(rewritten *r)
{
    VEC_FREE(&r->text);
    VEC_FREE(&r->cols);
}

static const char *const default_register[16] = {
    "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "sA", "sB", "sC", "sD", "sE", "sF",
};

/* The register a name stands for now (NAMEREG in program order), -1 if it names no register,
 * -2 (after an error) if it is a default name that NAMEREG has taken away. */
static int alias_of(const psm_asm *a, const char *s, int len)
{
    for (int r = 0; r < 16; r++)
        if (a->reg_alias[r] && strlen(a->reg_alias[r]) == (size_t)len && strncmp(a->reg_alias[r], s, (size_t)len) == 0)
            return r;
    return -1;
}

/* Does a name stand for a register (default or NAMEREG name)? No message: the encoding reports. */
static bool names_register(const psm_asm *a, const char *s, int len)
{
    return alias_of(a, s, len) >= 0 || psm_register_number(s, len) >= 0;
}

static int register_named(psm_asm *a, const psm_line *l, const char *s, int len, int col)
{
    int r = alias_of(a, s, len);
    if (r >= 0) return r;
    r = psm_register_number(s, len);
    if (r >= 0 && a->reg_alias[r]) {
        psm_error_at(a, l, col, "register %s has been renamed '%s' by NAMEREG; use that name", default_register[r],
                     a->reg_alias[r]);
        return -2;
    }
    return r;
}

/* Copy one operand without white space outside quotes, register names made canonical. */
static bool rewrite_operand(psm_asm *a, const psm_line *l, const psm_span *op, rewritten *r, bool default_only)
{
    const char *s = op->s, *end = op->s + op->len;
    bool quoted = false;
    while (s < end) {
        int col = op->col + (int)(s - op->s);
        if (*s == '"') quoted = !quoted;
        if (quoted || *s == '"') {
            put(r, *s++, col);
            continue;
        }
        if (*s == ' ' || *s == '\t') {
            s++;
            continue;
        }
        if (!psm_is_name_char(*s)) {
            put(r, *s++, col);
            continue;
        }
        const char *t = s;
        while (t < end && psm_is_name_char(*t)) t++;
        bool part_of_literal = (t < end && (*t == '\'' || *t == '$' || *t == '#')) ||
                               (s > op->s && (s[-1] == '%' || s[-1] == '\'' || s[-1] == '&' || s[-1] == '.'));
        int reg = part_of_literal ? -1 : register_named(a, l, s, (int)(t - s), col);
        if (reg == -2) return false;
        if (reg >= 0 && default_only && psm_register_number(s, (int)(t - s)) < 0) {
            psm_error_at(a, l, col, "STAR writes the inactive bank: name its register as s0..sF, not '%.*s'",
                         (int)(t - s), s);
            return false;
        }
        if (reg >= 0) put_str(r, default_register[reg], col);
        else
            for (const char *c = s; c < t; c++) put(r, *c, op->col + (int)(c - op->s));
        s = t;
    }
    return true;
}

static bool value_hook(void *user, const char **p, int64_t *value, bool *deferred)
{
    *deferred = false;
    return psm_value(user, p, value);
}

/* Does the hint's model take the line the model refused? */
static bool hint_fits(psm_asm *a, const char *text)
{
    const isk_model *h = a->opt->hint_model;
    if (!h || !a->opt->hint) return false;
    if (!a->hint_index) a->hint_index = isk_syntax_index_new(h);
    isk_syntax_env env = { .parse_value = value_hook, .user = a, .index = a->hint_index };
    isk_encoded enc;
    char err[200];
    int offset = 0;
    return isk_syntax_encode(h, text, &env, &enc, err, sizeof err, &offset);
}

bool psm_encode_text(psm_asm *a, const psm_line *l, const char *text, const int *cols, uint32_t *word,
                     int fallback_col)
{
    const isk_model *m = a->opt->model;
    isk_syntax_env env = { .parse_value = value_hook, .user = a, .index = a->index };
    isk_encoded enc;
    char err[200];
    int offset = 0;
    a->value_error[0] = 0;
    a->value_error_at = a->value_start = NULL;
    a->value_invalid = false;
    size_t len = strlen(text);
    if (!isk_syntax_encode(m, text, &env, &enc, err, sizeof err, &offset)) {
        if (a->value_invalid) return false;     /* a failed definition, reported where it is */
        int col = offset >= 0 && (size_t)offset < len ? cols[offset] : fallback_col;
        if (offset >= 0 && (size_t)offset >= len) {
            /* the line ended too early ("FETCH s0, (s1"): point at the unfinished operand */
            size_t k = len;
            while (k > 0 && text[k - 1] != ',' && text[k - 1] != ' ') k--;
            if (k < len) col = cols[k];
        }
        if (hint_fits(a, text)) {
            psm_error_at(a, l, col, "%s; %s", err, a->opt->hint);
            return false;
        }
        const char *why = err;
        if (a->value_error[0] && a->value_start == text + offset) {
            /* the value hook refused the operand: its reason is the better message */
            why = a->value_error;
            size_t at = (size_t)(a->value_error_at - text);
            if (at < len) col = cols[at];
        }
        psm_error_at(a, l, col, "%s", why);
        return false;
    }
    /* direct scratchpad addresses: below the scratchpad size */
    const isk_pattern *pat = &m->patterns.data[enc.pattern];
    unsigned spm = a->opt->scratchpad_size ? a->opt->scratchpad_size : 256;
    for (int i = 0; i < pat->nfields; i++) {
        const isk_field *f = &pat->field[i];
        if (f->kind >= 0 && strcmp(m->kinds.data[f->kind].d.name, "ss") == 0 && enc.ops[i] >= (int64_t)spm) {
            psm_error_at(a, l, fallback_col, "scratchpad address %02llX is outside the %u-byte scratchpad",
                         (unsigned long long)enc.ops[i], spm);
            return false;
        }
    }
    *word = (uint32_t)enc.word;
    return true;
}

/* OUTPUTK name$, p / LOAD&RETURN sX, name$: the operand that names a string or table. */
static int expanded_operand(const psm_parsed *p)
{
    int at = psm_span_is(&p->word, "OUTPUTK") ? 0 : psm_span_is(&p->word, "LOAD&RETURN") ? 1 : -1;
    if (at < 0 || at >= p->nops) return -1;
    const psm_span *op = &p->op[at];
    char last = op->s[op->len - 1];
    return (last == '$' || last == '#') ? at : -1;
}

int psm_instruction(psm_asm *a, const psm_line *l, const psm_parsed *p, uint32_t *emit, int cap)
{
    int expand = expanded_operand(p);
    const psm_symbol *seq = NULL;
    if (expand >= 0) {
        const psm_span *op = &p->op[expand];
        seq = psm_symbol_lookup(a, op->s, op->len);
        if (!seq || (seq->kind != PSM_STRING && seq->kind != PSM_TABLE)) {
            psm_error_at(a, l, op->col, "'%.*s' is not a STRING or TABLE defined before this line", op->len, op->s);
            return -1;
        }
    }
    int count = seq ? (int)seq->bytes.len : 1;
    if (!emit) return count;
    if (count > cap) {
        psm_error_at(a, l, p->word.col, "the expansion does not fit the program space");
        return -1;
    }
    bool is_star = psm_span_is(&p->word, "STAR");
    /* opbasm's "FETCH sX, sY" (and STORE, INPUT, OUTPUT): a bare register as the second operand
     * is the indirect form "(sY)" */
    bool bare_indirect = p->nops == 2 && (psm_span_is(&p->word, "FETCH") || psm_span_is(&p->word, "STORE") ||
                                          psm_span_is(&p->word, "INPUT") || psm_span_is(&p->word, "OUTPUT"));
    if (bare_indirect) {
        const psm_span *y = &p->op[1];
        bare_indirect = psm_name_end(y->s) == y->s + y->len && names_register(a, y->s, y->len);
    }
    for (int k = 0; k < count; k++) {
        rewritten r = { 0 };
        for (int i = 0; i < p->word.len; i++) put(&r, p->word.s[i], p->word.col + i);
        bool ok = true;
        for (int i = 0; i < p->nops && ok; i++) {
            put_str(&r, i ? ", " : " ", p->op[i].col);
            if (i == expand) {
                char hex[8];
                snprintf(hex, sizeof hex, "%02X", seq->bytes.data[k]);
                put_str(&r, hex, p->op[i].col);
            } else if (i == 1 && bare_indirect) {
                put(&r, '(', p->op[i].col);
                ok = rewrite_operand(a, l, &p->op[i], &r, false);
                put(&r, ')', p->op[i].col + p->op[i].len - 1);
            } else {
                ok = rewrite_operand(a, l, &p->op[i], &r, is_star && i == 0);
            }
        }
        put(&r, 0, l->text ? (int)strlen(l->text) + 1 : 1);
        if (ok) ok = psm_encode_text(a, l, r.text.data, r.cols.data, &emit[k], p->word.col);
        rewritten_free(&r);
        if (!ok) return -1;
    }
    return count;
}
