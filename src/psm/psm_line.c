/* Splitting a .psm line: [label:] [word [operand, operand ...]] [; comment]
 *
 * A ';' outside quotes starts the comment. On a STRING line the string runs from the first to
 * the last '"' (the KCPSM6 rule, which lets a string hold quotes), so its comment must not
 * contain one. Operands are separated by commas outside quotes, parentheses and brackets
 * ("JUMP@ (sX, sY)", "TABLE t#, [1, 2]" keep their inner commas). */
#include <ctype.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>

#include "psm/psm_int.h"
#include "base/str.h"

bool psm_is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

const char *psm_name_end(const char *s)
{
    const char *t = s[0] == '&' && s[1] == '&' ? s + 2 : s[0] == '.' ? s + 1 : s;
    if (!psm_is_name_char(*t)) return s;
    while (psm_is_name_char(*t) || (*t == '.' && psm_is_name_char(t[1]))) t++;
    return t;
}

static bool is_word_char(char c)
{
    return psm_is_name_char(c) || c == '&' || c == '@';
}

bool psm_span_is(const psm_span *s, const char *word)
{
    return strlen(word) == (size_t)s->len && strncasecmp(s->s, word, (size_t)s->len) == 0;
}

static void report(psm_asm *a, isk_severity sev, const psm_line *l, int col, const char *fmt, va_list ap)
{
    isk_loc loc = { l->file, l->line, col, l->text, -1 };
    isk_diag_vreport(a->diag, sev, &loc, fmt, ap);
}

void psm_error_at(psm_asm *a, const psm_line *l, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(a, ISK_ERROR, l, col, fmt, ap);
    va_end(ap);
}

static psm_span span(const psm_line *l, const char *s, const char *e)
{
    while (e > s && (e[-1] == ' ' || e[-1] == '\t')) e--;
    return (psm_span){ s, (int)(e - s), (int)(s - l->text) + 1 };
}

/* Where the statement ends (the comment or the end of the line). */
static const char *statement_end(const char *s, bool is_string_line)
{
    if (is_string_line) {
        const char *last = strrchr(s, '"');
        const char *from = last ? last + 1 : s;
        const char *semi = strchr(from, ';');
        return semi ? semi : s + strlen(s);
    }
    bool quoted = false;
    for (; *s; s++) {
        if (*s == '"') quoted = !quoted;
        else if (*s == ';' && !quoted) return s;
    }
    return s;
}

bool psm_split_line(psm_asm *a, const psm_line *l, psm_parsed *out)
{
    memset(out, 0, sizeof *out);
    const char *s = isk_skip_blanks(l->text);
    /* label: a name followed by ':' */
    const char *n = psm_name_end(s);
    const char *after = isk_skip_blanks(n);
    if (n > s && *after == ':') {
        out->label = span(l, s, n);
        s = isk_skip_blanks(after + 1);
    }
    if (*s == ';' || !*s) {
        if (*s) out->comment = span(l, s, s + strlen(s));
        return true;
    }
    const char *w = s;
    while (is_word_char(*w)) w++;
    if (w == s) {
        psm_error_at(a, l, (int)(s - l->text) + 1, "expected an instruction or a directive, not '%c'", *s);
        return false;
    }
    out->word = span(l, s, w);
    const char *end = statement_end(w, psm_span_is(&out->word, "STRING"));
    if (*end) out->comment = span(l, end, end + strlen(end));
    s = isk_skip_blanks(w);
    if (s >= end) return true;
    if (s == w && *s != '(') {
        psm_error_at(a, l, (int)(s - l->text) + 1, "expected a space after '%.*s'", out->word.len, out->word.s);
        return false;
    }
    if (psm_span_is(&out->word, "STRING")) {
        /* name$, "text": the text is everything after the first comma */
        const char *comma = memchr(s, ',', (size_t)(end - s));
        out->op[out->nops++] = span(l, s, comma ? comma : end);
        if (comma) out->op[out->nops++] = span(l, isk_skip_blanks(comma + 1), end);
        return true;
    }
    int depth = 0;
    bool quoted = false;
    const char *start = s;
    for (const char *p = s;; p++) {
        bool at_end = p >= end;
        if (!at_end) {
            if (*p == '"') quoted = !quoted;
            if (quoted) continue;
            if (*p == '(' || *p == '[') depth++;
            else if ((*p == ')' || *p == ']') && depth > 0) depth--;
            if (*p != ',' || depth > 0) continue;
        }
        psm_span op = span(l, isk_skip_blanks(start), p);
        if (!op.len) {
            psm_error_at(a, l, op.col, at_end && out->nops ? "expected an operand after ','" : "empty operand");
            return false;
        }
        if (out->nops == PSM_MAX_OPERANDS) {
            psm_error_at(a, l, op.col, "too many operands");
            return false;
        }
        out->op[out->nops++] = op;
        if (at_end) break;
        start = p + 1;
    }
    if (quoted) {
        psm_error_at(a, l, (int)(start - l->text) + 1, "a quote is not closed");
        return false;
    }
    return true;
}
