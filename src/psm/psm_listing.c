/* The assembler's listings: the .log (each line with its address, words and resolved operands,
 * then the symbol lists) and the .fmt (the source reformatted), after psm-syntax.md section 6:
 * KCPSM3.EXE's observed .fmt rules and the KCPSM6 log's documented contents. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "psm/psm_int.h"

typedef VEC(char) text_buf;

static void put_n(text_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) VEC_PUSH(b, s[i]);
}

static void put_s(text_buf *b, const char *s)
{
    put_n(b, s, strlen(s));
}

static char *finish(text_buf *b)
{
    VEC_PUSH(b, '\0');
    return b->data;
}

static bool is_symbol(psm_asm *a, const char *s, size_t len)
{
    return psm_symbol_lookup(a, s, (int)len) != NULL;
}

static bool all_hex(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!isxdigit((unsigned char)s[i])) return false;
    return len > 0;
}

/* The NAMEREG name of register r now, or NULL (only while assembling: a->reg_alias). */
static int alias_register(const psm_asm *a, const char *s, size_t len)
{
    for (int r = 0; r < 16; r++)
        if (a->reg_alias[r] && strlen(a->reg_alias[r]) == len && strncmp(a->reg_alias[r], s, len) == 0) return r;
    return -1;
}

/* One operand, normalised: no blanks outside quotes, ", " after commas inside brackets, default
 * registers as sX, hex literals and the condition/keyword operands in upper case. With `resolve`,
 * a NAMEREG name shows as sX[name]. */
static void put_operand(psm_asm *a, text_buf *b, const psm_span *op, bool resolve)
{
    static const char *const keywords[] = { "Z", "NZ", "C", "NC", "ENABLE", "DISABLE", "INTERRUPT", "A", "B" };
    for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++)
        if (psm_span_is(op, keywords[k]) && !is_symbol(a, op->s, (size_t)op->len)) {
            put_s(b, keywords[k]);
            return;
        }
    const char *s = op->s, *end = op->s + op->len;
    bool quoted = false;
    while (s < end) {
        if (*s == '"' || quoted) {
            if (*s == '"') quoted = !quoted;
            VEC_PUSH(b, *s++);
        } else if (*s == ' ' || *s == '\t') {
            s++;
        } else if (*s == ',') {
            put_s(b, ", ");
            s++;
        } else if (!psm_is_name_char(*s)) {
            VEC_PUSH(b, *s++);
        } else {
            const char *t = s;
            while (t < end && psm_is_name_char(*t)) t++;
            size_t n = (size_t)(t - s);
            bool literal_part = (t < end && (*t == '\'' || *t == '$' || *t == '#')) ||
                                (s > op->s && strchr("%'&.", s[-1]));
            int reg = literal_part ? -1 : psm_register_number(s, (int)n);
            int alias = literal_part || reg >= 0 ? -1 : alias_register(a, s, n);
            if (reg >= 0) {
                char r[3] = { 's', "0123456789ABCDEF"[reg], 0 };
                put_s(b, r);
            } else if (alias >= 0 && resolve) {
                char r[4] = { 's', "0123456789ABCDEF"[alias], '[', 0 };
                put_s(b, r);
                put_n(b, s, n);
                VEC_PUSH(b, ']');
            } else if (!literal_part && all_hex(s, n) && !is_symbol(a, s, n)) {
                for (size_t i = 0; i < n; i++) VEC_PUSH(b, (char)toupper((unsigned char)s[i]));
            } else {
                put_n(b, s, n);
            }
            s = t;
        }
    }
}

/* A value operand of an instruction as the KCPSM6 log shows it: value[as written] unless it was
 * written as a plain hex number. False if it is no value (a register, a string or table name). */
static bool put_value(psm_asm *a, text_buf *b, const psm_span *op, int digits)
{
    text_buf compact = { 0 };
    put_operand(a, &compact, op, false);
    char *text = finish(&compact);
    const char *p = text;
    int64_t v;
    bool ok = !strchr(text, '(') && psm_register_number(text, (int)strlen(text)) < 0 &&
              alias_register(a, text, strlen(text)) < 0 && psm_value(a, &p, &v) && !*p;
    if (ok) {
        char num[24];
        snprintf(num, sizeof num, "%0*llX", digits, (unsigned long long)v);
        put_s(b, num);
        if (!all_hex(text, strlen(text))) {
            VEC_PUSH(b, '[');
            put_s(b, text);
            VEC_PUSH(b, ']');
        }
    }
    free(text);
    return ok;
}

/* Operand i of p is a condition or a keyword (JUMP NZ, .. / RETURN C / REGBANK A / ENABLE
 * INTERRUPT), not a value, even where it reads as hex. */
static bool keyword_slot(const psm_parsed *p, int i)
{
    const psm_span *w = &p->word;
    if (psm_span_is(w, "JUMP") || psm_span_is(w, "CALL")) return p->nops == 2 && i == 0;
    return psm_span_is(w, "RETURN") || psm_span_is(w, "RETURNI") || psm_span_is(w, "ENABLE") ||
           psm_span_is(w, "DISABLE") || psm_span_is(w, "REGBANK");
}

static bool is_directive(const psm_span *w)
{
    static const char *const names[] = { "CONSTANT", "NAMEREG", "ADDRESS", "INCLUDE", "STRING",
                                          "TABLE", "INST", "DEFAULT_JUMP" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (psm_span_is(w, names[i])) return true;
    return false;
}

/* The statement: the mnemonic in upper case, then the operands; resolved for the log. */
static char *statement_text(psm_asm *a, const psm_parsed *p, bool resolve)
{
    text_buf b = { 0 };
    for (int i = 0; i < p->word.len; i++) VEC_PUSH(&b, (char)toupper((unsigned char)p->word.s[i]));
    bool string = psm_span_is(&p->word, "STRING");
    bool values = resolve && !is_directive(&p->word);
    bool address = psm_span_is(&p->word, "JUMP") || psm_span_is(&p->word, "CALL");
    for (int i = 0; i < p->nops; i++) {
        put_s(&b, i ? ", " : " ");
        if (string && i == 1) put_n(&b, p->op[i].s, (size_t)p->op[i].len);
        else if (!values || keyword_slot(p, i) || !put_value(a, &b, &p->op[i], address && i == p->nops - 1 ? 3 : 2))
            put_operand(a, &b, &p->op[i], values);
    }
    return finish(&b);
}

char *psm_resolve_statement(psm_asm *a, const psm_parsed *p)
{
    return statement_text(a, p, true);
}

void psm_list_line(psm_asm *a, const psm_line *l, const psm_parsed *p, uint64_t before, uint64_t after,
                   char *resolved)
{
    if (!p->label.len && !p->word.len && !p->comment.len) {
        free(resolved);
        return;
    }
    bool places = p->word.len && (!is_directive(&p->word) || psm_span_is(&p->word, "INST"));
    psm_listed e = {
        .file = l->file,
        .line = l->line,
        .address = (uint32_t)(places ? before : after),
        .nwords = places && after > before ? (uint32_t)(after - before) : 0,
        .label = p->label.len ? isk_xstrndup(p->label.s, (size_t)p->label.len) : NULL,
        .statement = resolved,
        .comment = p->comment.len ? isk_xstrndup(p->comment.s, (size_t)p->comment.len) : NULL,
    };
    VEC_PUSH(&a->prog->listing, e);
}

/* ---- writing ------------------------------------------------------------------------------ */

typedef struct writer { FILE *out; const char *eol; } writer;

static void line_end(writer *w, text_buf *b)
{
    while (b->len && (b->data[b->len - 1] == ' ' || b->data[b->len - 1] == '\t')) b->len--;
    fwrite(b->data, 1, b->len, w->out);
    fputs(w->eol, w->out);
    b->len = 0;
}

static void pad_to(text_buf *b, size_t start, size_t width)
{
    while (b->len - start < width) VEC_PUSH(b, ' ');
}

static void put_f(text_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put_f(text_buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    put_s(b, tmp);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void symbol_list(writer *w, text_buf *b, const psm_program *p, int kind, const char *title,
                        const char *value_head)
{
    size_t width = 4;
    int n = 0;
    for (size_t i = 0; i < p->symbols.len; i++)
        if (p->symbols.data[i].kind == kind) {
            n++;
            if (strlen(p->symbols.data[i].name) > width) width = strlen(p->symbols.data[i].name);
        }
    if (!n) return;
    line_end(w, b);
    put_s(b, title);
    line_end(w, b);
    line_end(w, b);
    put_s(b, " Name");
    pad_to(b, 0, width + 3);
    put_s(b, value_head);
    put_s(b, "  Source PSM File");
    line_end(w, b);
    line_end(w, b);
    for (size_t i = 0; i < p->symbols.len; i++) {
        const psm_symbol *y = &p->symbols.data[i];
        if (y->kind != kind) continue;
        put_f(b, " %s", y->name);
        pad_to(b, 0, width + 3);
        size_t at = b->len;
        if (kind == PSM_LABEL) put_f(b, "%03llX", (unsigned long long)y->value);
        else if (kind == PSM_CONSTANT) put_f(b, "%02llX", (unsigned long long)(y->value & 0xFFF));
        else if (kind == PSM_STRING) {
            VEC_PUSH(b, '"');
            put_n(b, (const char *)y->bytes.data, y->bytes.len);
            VEC_PUSH(b, '"');
        } else {
            VEC_PUSH(b, '[');
            for (size_t k = 0; k < y->bytes.len; k++) put_f(b, k ? ", %02X" : "%02X", y->bytes.data[k]);
            VEC_PUSH(b, ']');
        }
        pad_to(b, at, strlen(value_head));
        put_f(b, "  %s", base_name(y->file));
        line_end(w, b);
    }
}

int psm_write_log(FILE *out, const psm_program *p, const char *source, const char *title, bool crlf)
{
    writer w = { out, crlf ? "\r\n" : "\n" };
    text_buf b = { 0 };
    char stamp[40];
    time_t now = (time_t)p->timestamp;
    struct tm tm;
    strftime(stamp, sizeof stamp, "%d %b %Y %H:%M:%S", gmtime_r(&now, &tm));
    size_t last = p->end ? p->end - 1 : 0;
    unsigned nominal = last < 0x400 ? 1 : last < 0x800 ? 2 : 4;
    put_f(&b, "%s Assembler log file for program '%s'.", title, source);
    line_end(&w, &b);
    put_f(&b, "Generated by isekit psm");
    line_end(&w, &b);
    line_end(&w, &b);
    put_f(&b, "Assembly timestamp: %s", stamp);
    line_end(&w, &b);
    line_end(&w, &b);
    put_f(&b, "Last occupied address: %03zX hex", last);
    line_end(&w, &b);
    put_f(&b, "Nominal program memory size: %uK (%u)   address(%u:0)", nominal, nominal * 1024,
          nominal == 1 ? 9u : nominal == 2 ? 10u : 11u);
    line_end(&w, &b);
    put_f(&b, "Occupied memory locations: %zu", p->count);
    line_end(&w, &b);
    line_end(&w, &b);
    size_t lw = 0;      /* the label field: the longest label and its ": " */
    for (size_t i = 0; i < p->listing.len; i++)
        if (p->listing.data[i].label && strlen(p->listing.data[i].label) + 2 > lw)
            lw = strlen(p->listing.data[i].label) + 2;
    put_s(&b, "Addr Code");
    pad_to(&b, 0, 11 + lw);
    put_s(&b, "Instruction");
    line_end(&w, &b);
    line_end(&w, &b);
    for (size_t i = 0; i < p->listing.len; i++) {
        const psm_listed *e = &p->listing.data[i];
        put_f(&b, "%03X  ", e->address);
        if (e->nwords) put_f(&b, "%05X  ", e->address < p->size ? p->words[e->address] : 0);
        else put_s(&b, "       ");
        size_t at = b.len;
        if (e->label) {
            pad_to(&b, at, lw - strlen(e->label) - 2);
            put_f(&b, "%s: ", e->label);
        }
        pad_to(&b, at, lw);
        if (e->statement) put_s(&b, e->statement);
        if (e->comment) {
            if (e->statement) VEC_PUSH(&b, ' ');
            put_s(&b, e->comment);
        }
        line_end(&w, &b);
        /* OUTPUTK name$ and LOAD&RETURN: one line for each further word */
        for (uint32_t k = 1; k < e->nwords && e->address + k < p->size; k++) {
            put_f(&b, "%03X  %05X", e->address + k, p->words[e->address + k]);
            line_end(&w, &b);
        }
    }
    line_end(&w, &b);
    put_s(&b, "List of PSM files that have been assembled");
    line_end(&w, &b);
    line_end(&w, &b);
    for (size_t i = 0; i < p->files.len; i++) {
        put_s(&b, p->files.data[i]);
        line_end(&w, &b);
    }
    symbol_list(&w, &b, p, PSM_CONSTANT, "List of defined constants", "Value");
    symbol_list(&w, &b, p, PSM_TABLE, "List of defined tables", "Value");
    symbol_list(&w, &b, p, PSM_STRING, "List of text strings", "Value");
    symbol_list(&w, &b, p, PSM_LABEL, "List of line labels", "Addr ");
    VEC_FREE(&b);
    return ferror(out) ? -1 : 0;
}

/* ---- .fmt --------------------------------------------------------------------------------- */

typedef struct fmt_line { psm_parsed p; char *stmt; } fmt_line;

int psm_write_fmt(FILE *out, const char *name, const char *text, const psm_program *p, bool crlf)
{
    isk_diag quiet;
    isk_diag_init(&quiet);
    isk_diag_buffer msg;
    isk_diag_capture(&quiet, &msg);
    psm_options opt;
    psm_options_init(&opt, NULL);
    psm_asm a = { .opt = &opt, .diag = &quiet, .prog = (psm_program *)p };
    for (size_t i = 0; i < p->symbols.len; i++)
        asm_map_put(&a.symbol_map, p->symbols.data[i].name, strlen(p->symbols.data[i].name), (int)i);
    /* split every line, keeping the text: the longest label and statement set the columns */
    VEC(psm_line) lines = { 0 };
    VEC(fmt_line) fl = { 0 };
    int number = 0;
    for (const char *s = text; *s;) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        if (n && s[n - 1] == '\r') n--;
        VEC_PUSH(&lines, ((psm_line){ name, ++number, isk_xstrndup(s, n) }));
        s = nl ? nl + 1 : s + strlen(s);
    }
    size_t lw = 0, sw = 0;
    for (size_t i = 0; i < lines.len; i++) {
        fmt_line f = { 0 };
        if (!psm_split_line(&a, &lines.data[i], &f.p)) {
            /* not split (the assembler would have refused it): kept as it is */
            f.p.comment = (psm_span){ lines.data[i].text, (int)strlen(lines.data[i].text), 1 };
        }
        if (f.p.word.len) f.stmt = statement_text(&a, &f.p, false);
        if (f.p.label.len && (size_t)f.p.label.len > lw) lw = (size_t)f.p.label.len;
        if (f.stmt && strlen(f.stmt) > sw) sw = strlen(f.stmt);
        VEC_PUSH(&fl, f);
    }
    writer w = { out, crlf ? "\r\n" : "\n" };
    text_buf b = { 0 };
    size_t indent = lw ? lw + 2 : 0;
    for (size_t i = 0; i < fl.len; i++) {
        const fmt_line *f = &fl.data[i];
        if (!f->p.label.len && !f->stmt && !f->p.comment.len) continue;     /* blank lines go */
        if (f->p.label.len || f->stmt) {
            pad_to(&b, 0, lw - (size_t)f->p.label.len);
            if (f->p.label.len) {
                put_n(&b, f->p.label.s, (size_t)f->p.label.len);
                put_s(&b, ": ");
            }
            pad_to(&b, 0, indent);
            if (f->stmt) put_s(&b, f->stmt);
            if (f->p.comment.len) pad_to(&b, 0, indent + sw + 1);
        }
        put_n(&b, f->p.comment.s, (size_t)f->p.comment.len);
        line_end(&w, &b);
    }
    VEC_FREE(&b);
    for (size_t i = 0; i < fl.len; i++) free(fl.data[i].stmt);
    VEC_FREE(&fl);
    for (size_t i = 0; i < lines.len; i++) free(lines.data[i].text);
    VEC_FREE(&lines);
    asm_map_free(&a.symbol_map);
    isk_diag_buffer_free(&msg);
    return ferror(out) ? -1 : 0;
}
