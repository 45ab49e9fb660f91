/* Macros and repeats: collecting their bodies, and expanding them into frames of lines.
 *
 *   .macro NAME [p1[=default]][, p2:req] [rest:vararg]   ... \p1 ... \@ ...   .endm
 *   .rept COUNT ... .endr      .irp P, v1, v2 ... \P ... .endr      .irpc P, chars ... .endr
 *
 * Inside a macro body, \@ is a counter of the macro calls made so far (unique per call), and -
 * the style of Graphcore's IPU manual - a `@` right after a symbol name (`loop@:`, `bri loop@`)
 * appends the same number. A `@` after a register name (the IPU's `$m2@` operand) is left
 * alone. Arguments are separated by commas, or by spaces when the call has no comma
 * (`GET_PARAMS 0 1 2`); `name=value` sets a parameter by name. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "asm/asm_int.h"

#define MAX_REPT ISK_ASM_MAX_EXPANDED_LINES
#define MAX_EXPANDED_LINE 65536

void asm_body_free(asm_body *b)
{
    for (size_t i = 0; i < b->len; i++) {
        free(b->data[i].text);
        free(b->data[i].display);
    }
    VEC_FREE(b);
}

void asm_macro_free(asm_macro *m)
{
    free(m->name);
    for (size_t i = 0; i < m->params.len; i++) {
        free(m->params.data[i].name);
        free(m->params.data[i].def);
    }
    VEC_FREE(&m->params);
    asm_body_free(&m->body);
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

/* The directive a statement starts with, after any labels: its name and length, or 0. */
static size_t statement_directive(const char *s, const char **name)
{
    for (;;) {
        s = asm_skip(s);
        const char *start = s;
        while (ident_char(*s) || *s == '@' || *s == '\\') s++;
        if (s > start && *s == ':' && *start != '.') {
            s++;                         /* a label (possibly with @ or \@ in a macro body) */
            continue;
        }
        if (s > start && *start == '.') {
            *name = start;
            size_t n = 0;
            while (ident_char(start[n])) n++;
            return n;
        }
        return 0;
    }
}

static bool named(const char *name, size_t n, const char *what)
{
    return strlen(what) == n && strncasecmp(name, what, n) == 0;
}

static void add_body_line(asm_body *b, const char *work, size_t len, const asm_pos *pos)
{
    asm_body_line l = { .text = isk_xstrndup(work, len), .pos = *pos };
    if (pos->text) l.display = isk_xstrndup(pos->text, (size_t)pos->text_len);
    l.pos.text = NULL;
    VEC_PUSH(b, l);
}

static void finish_collect(isk_asm *a);

char *asm_collect_line(isk_asm *a, char *work)
{
    asm_collect *c = &a->collect;
    size_t len = (size_t)a->pos.text_len;
    /* Look at each statement of the line for nested starts and the end. */
    char *copy = isk_xstrndup(work, len), *rest = copy, *st;
    while ((st = asm_next_statement(&rest))) {
        const char *name;
        size_t n = statement_directive(st, &name);
        if (!n) continue;
        bool start, end;
        if (c->kind == COLLECT_MACRO) {
            start = named(name, n, ".macro");
            end = named(name, n, ".endm") || named(name, n, ".endmacro");
        } else {
            start = named(name, n, ".rept") || named(name, n, ".irp") || named(name, n, ".irpc");
            end = named(name, n, ".endr");
        }
        if (start) c->depth++;
        if (!end || --c->depth > 0) continue;
        /* The body ends here: what precedes the directive on this line (labels, earlier
         * statements) still belongs to it; what follows it is assembled normally. */
        size_t at = (size_t)(name - copy);
        char *body_part = isk_xstrndup(work, len);
        memset(body_part + at, ' ', len - at);
        if (!asm_at_end(body_part)) add_body_line(&c->body, body_part, len, &a->pos);
        free(body_part);
        size_t after = (size_t)(rest - copy);
        free(copy);
        finish_collect(a);
        if (after >= len) return NULL;
        memset(work, ' ', after);
        return work;
    }
    free(copy);
    add_body_line(&c->body, work, len, &a->pos);
    return NULL;
}

/* ---- .macro ------------------------------------------------------------------------------- */

/* Start collecting the body of a .macro, .rept or .irp, from the current line on. */
static asm_collect *begin_collect(isk_asm *a, int kind)
{
    asm_collect *c = &a->collect;
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->depth = 1;
    c->pos = a->pos;
    c->pos.text = NULL;
    return c;
}

void asm_start_macro(isk_asm *a, const char *args)
{
    const char *p = asm_skip(args), *name;
    size_t n = 0;
    while (ident_char(p[n])) n++;
    name = p;
    if (!n) {
        asm_error(a, p, "expected a macro name");
        return;
    }
    asm_collect *c = begin_collect(a, COLLECT_MACRO);
    c->col = asm_col(a, name);
    c->macro.name = isk_xstrndup(name, n);
    c->macro.pos = c->pos;
    p += n;
    for (;;) {
        p = asm_skip(p);
        if (*p == ',') p = asm_skip(p + 1);
        if (!*p) break;
        const char *pn = p;
        while (ident_char(*p)) p++;
        if (p == pn) {
            asm_error(a, p, "expected a parameter name");
            break;
        }
        asm_param prm = { .name = isk_xstrndup(pn, (size_t)(p - pn)) };
        if (*p == ':') {
            const char *q = p + 1;
            size_t k = 0;
            while (ident_char(q[k])) k++;
            if (k == 3 && strncmp(q, "req", 3) == 0) prm.required = true;
            else if (k == 6 && strncmp(q, "vararg", 6) == 0) prm.vararg = true;
            else asm_error(a, p, "unknown parameter qualifier (use :req or :vararg)");
            p = q + k;
        }
        p = asm_skip(p);
        if (*p == '=') {
            p = asm_skip(p + 1);
            const char *d = p;
            if (*p == '"') {
                d = ++p;
                while (*p && *p != '"') p++;
                prm.def = isk_xstrndup(d, (size_t)(p - d));
                if (*p) p++;
            } else {
                while (*p && *p != ',' && *p != ' ' && *p != '\t') p++;
                prm.def = isk_xstrndup(d, (size_t)(p - d));
            }
        }
        VEC_PUSH(&c->macro.params, prm);
    }
}

void asm_purge_macro(isk_asm *a, const char *args)
{
    const char *p = asm_skip(args);
    size_t n = 0;
    while (ident_char(p[n])) n++;
    int i;
    if (!n || !asm_map_get(&a->macro_map, p, n, &i) || a->macros.data[i].purged) {
        asm_error(a, p, "no macro named '%.*s'", (int)n, p);
        return;
    }
    a->macros.data[i].purged = true;
}

/* ---- .rept / .irp -------------------------------------------------------------------------- */

void asm_start_rept(isk_asm *a, const char *args)
{
    const char *p = args;
    int64_t count = 0;
    bool ok = asm_expr_absolute(a, &p, &count);
    if (ok && !asm_at_end(p)) {
        asm_error(a, p, "unexpected text after the count");
        ok = false;
    }
    if (ok && (count < 0 || (uint64_t)count > MAX_REPT)) {
        asm_error(a, asm_skip(args), ".rept count %" PRId64 " is outside [0, %" PRIu64 "]", count, MAX_REPT);
        ok = false;
    }
    asm_collect *c = begin_collect(a, COLLECT_REPT);
    c->count = ok ? (uint64_t)count : 0;   /* after an error the body is still skipped */
}

/* Split arguments: by commas if there is a comma outside quotes and parentheses, else by
 * white space. Quotes around an argument are removed. Linear in the line: each argument is
 * built in one scratch buffer and copied at its own size. */
static void split_args(const char *s, asm_strings *out)
{
    bool commas = false;
    int depth = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1]) p++;
            if (!*p) break;
        } else if (*p == '(' || *p == '[') depth++;
        else if ((*p == ')' || *p == ']') && depth) depth--;
        else if (*p == ',' && !depth) commas = true;
    }
    const char *p = asm_skip(s);
    if (!*p) return;
    char *arg = isk_xcalloc(1, strlen(p) + 1);
    for (;;) {
        depth = 0;
        size_t n = 0;
        while (*p) {
            if (*p == '"') {
                for (p++; *p && *p != '"'; p++) {
                    if (*p == '\\' && p[1]) arg[n++] = *p++;
                    arg[n++] = *p;
                }
                if (*p) p++;
                continue;
            }
            if (*p == '(' || *p == '[') depth++;
            else if ((*p == ')' || *p == ']') && depth) depth--;
            else if (!depth && (commas ? *p == ',' : (*p == ' ' || *p == '\t'))) break;
            arg[n++] = *p++;
        }
        while (n && (arg[n - 1] == ' ' || arg[n - 1] == '\t')) n--;
        VEC_PUSH(out, isk_xstrndup(arg, n));
        p = asm_skip(p);
        if (*p == ',') {
            p = asm_skip(p + 1);
            continue;
        }
        if (!*p) break;
    }
    free(arg);
}

static void free_args(asm_strings *v)
{
    for (size_t i = 0; i < v->len; i++) free(v->data[i]);
    VEC_FREE(v);
}

void asm_start_irp(isk_asm *a, const char *args, bool chars)
{
    asm_collect *c = begin_collect(a, COLLECT_IRP);
    const char *p = asm_skip(args);
    size_t n = 0;
    while (ident_char(p[n])) n++;
    if (!n) {
        asm_error(a, p, "expected a parameter name");
        c->count = 0;
        return;
    }
    c->irp_param = isk_xstrndup(p, n);
    p = asm_skip(p + n);
    if (*p == ',') p++;
    if (chars) {
        p = asm_skip(p);
        const char *e = p + strlen(p);
        while (e > p && (e[-1] == ' ' || e[-1] == '\t')) e--;
        if (*p == '"' && e > p + 1 && e[-1] == '"') p++, e--;
        for (; p < e; p++) VEC_PUSH(&c->irp_values, isk_xstrndup(p, 1));
    } else {
        split_args(p, &c->irp_values);
    }
    c->count = 1;
}

/* ---- substitution ------------------------------------------------------------------------- */

typedef struct binding { const char *name; const char *value; } binding;

/* Expand one body line: \name -> its value, \@ -> the call number, \() -> nothing, and the
 * IPU manual's `symbol@` -> symbol<number> (in macro bodies). */
static char *substitute(isk_asm *a, const char *text, const binding *b, size_t nb, uint64_t counter, bool ipu_at)
{
    VEC(char) out = { 0 };
    char num[24];
    int numlen = snprintf(num, sizeof num, "%" PRIu64, counter);
    for (const char *p = text; *p;) {
        if (out.len > MAX_EXPANDED_LINE) {
            /* Arguments that grow with each nested call would otherwise double the text at
             * every level. */
            asm_error(a, NULL, "a macro expansion gives a line longer than %d bytes; it is cut there",
                      MAX_EXPANDED_LINE);
            break;
        }
        if (*p == '\\') {
            if (p[1] == '@') {
                for (int i = 0; i < numlen; i++) VEC_PUSH(&out, num[i]);
                p += 2;
                continue;
            }
            if (p[1] == '(' && p[2] == ')') {
                p += 3;
                continue;
            }
            size_t n = 0;
            while (ident_char(p[1 + n]) && p[1 + n] != '.' && p[1 + n] != '$') n++;
            bool done = false;
            for (size_t i = 0; i < nb && !done; i++)
                if (strlen(b[i].name) == n && strncmp(b[i].name, p + 1, n) == 0) {
                    for (const char *v = b[i].value; *v; v++) VEC_PUSH(&out, *v);
                    p += 1 + n;
                    done = true;
                }
            if (done) continue;
        }
        if (ipu_at && *p == '@' && out.len && ident_char(out.data[out.len - 1])) {
            size_t k = out.len;
            while (k && ident_char(out.data[k - 1])) k--;
            const char *word = out.data + k;
            size_t wlen = out.len - k;
            bool register_like = *word == '$' || *word == '%' || isk_syntax_is_name(a->m, a->index, word, wlen) ||
                                 isdigit((unsigned char)*word);
            if (!register_like) {
                for (int i = 0; i < numlen; i++) VEC_PUSH(&out, num[i]);
                p++;
                continue;
            }
        }
        VEC_PUSH(&out, *p++);
    }
    VEC_PUSH(&out, 0);
    return out.data;
}

static void push_expansion(isk_asm *a, const asm_body *body, const binding *b, size_t nb, uint64_t counter,
                           bool ipu_at, size_t times, int expansion, asm_body_line **lines, size_t *nlines)
{
    for (size_t t = 0; t < times; t++)
        for (size_t i = 0; i < body->len; i++) {
            const asm_body_line *src = &body->data[i];
            asm_body_line l = { .text = substitute(a, src->text, b, nb, counter, ipu_at), .pos = src->pos };
            l.pos.expansion = expansion >= 0 ? expansion : src->pos.expansion;
            (*lines)[(*nlines)++] = l;
        }
}

static void finish_collect(isk_asm *a)
{
    asm_collect *c = &a->collect;
    int kind = c->kind;
    c->kind = COLLECT_NONE;
    if (kind == COLLECT_MACRO) {
        asm_macro m = c->macro;
        m.body = c->body;
        memset(&c->macro, 0, sizeof c->macro);
        memset(&c->body, 0, sizeof c->body);
        int i;
        if (asm_map_get(&a->macro_map, m.name, strlen(m.name), &i)) {
            if (!a->macros.data[i].purged) {
                asm_pos pos = m.pos;
                asm_error_pos(a, &pos, c->col, "macro '%s' is already defined (at %s:%d)", m.name,
                              a->macros.data[i].pos.file, a->macros.data[i].pos.line);
                asm_macro_free(&m);
                return;
            }
            asm_macro_free(&a->macros.data[i]);
            a->macros.data[i] = m;
            return;
        }
        VEC_PUSH(&a->macros, m);
        asm_map_put(&a->macro_map, m.name, strlen(m.name), (int)a->macros.len - 1);
        return;
    }
    if (kind == COLLECT_REPT) {
        if (c->count && c->body.len) asm_push_body(a, c->body.data, c->body.len, c->count, false, -1);
        else asm_body_free(&c->body);
        memset(&c->body, 0, sizeof c->body);
        return;
    }
    /* .irp: one copy of the body per value. */
    size_t total = c->body.len * c->irp_values.len;
    if (total && c->count) {
        asm_body_line *lines = isk_xcalloc(total, sizeof *lines);
        size_t n = 0;
        for (size_t v = 0; v < c->irp_values.len; v++) {
            binding b = { c->irp_param, c->irp_values.data[v] };
            push_expansion(a, &c->body, &b, 1, a->macro_counter, false, 1, -1, &lines, &n);
        }
        asm_push_body(a, lines, n, 1, false, -1);
    }
    asm_body_free(&c->body);
    free(c->irp_param);
    free_args(&c->irp_values);
    memset(c, 0, sizeof *c);
}

/* ---- calls ------------------------------------------------------------------------------- */

static int macro_depth(const isk_asm *a)
{
    int d = 0;
    for (size_t i = 0; i < a->frames.len; i++) d += a->frames.data[i].is_macro;
    return d;
}

bool asm_macro_call(isk_asm *a, const char *name, size_t len, const char *args)
{
    int mi;
    if (!a->macros.len || !asm_map_get(&a->macro_map, name, len, &mi) || a->macros.data[mi].purged) return false;
    const asm_macro *m = &a->macros.data[mi];
    int limit = a->opt.max_macro_depth > 0 ? a->opt.max_macro_depth : 100;
    if (macro_depth(a) >= limit) {
        asm_error(a, name, "macro '%s' nested more than %d deep (endless recursion?)", m->name, limit);
        return true;
    }
    asm_strings vals = { 0 };
    split_args(args, &vals);
    size_t np = m->params.len;
    const char **value = isk_xcalloc(np + 1, sizeof *value);
    char *vararg = NULL;
    bool ok = true;
    size_t positional = 0;
    for (size_t i = 0; i < vals.len; i++) {
        const char *v = vals.data[i];
        const char *eq = strchr(v, '=');
        bool keyword = false;
        if (eq && eq > v && eq[1] != '=' && eq[-1] != '!' && eq[-1] != '<' && eq[-1] != '>' && eq[-1] != '=') {
            for (size_t k = 0; k < np; k++)
                if (strlen(m->params.data[k].name) == (size_t)(eq - v) &&
                    strncmp(m->params.data[k].name, v, (size_t)(eq - v)) == 0) {
                    value[k] = eq + 1;
                    keyword = true;
                }
        }
        if (keyword) continue;
        while (positional < np && value[positional]) positional++;
        if (positional >= np) {
            asm_error(a, args, "macro '%s' takes %zu argument%s, given %zu", m->name, np, np == 1 ? "" : "s",
                      vals.len);
            ok = false;
            break;
        }
        if (m->params.data[positional].vararg) {
            size_t total = 0;
            for (size_t k = i; k < vals.len; k++) total += strlen(vals.data[k]) + 2;
            vararg = isk_xcalloc(1, total + 1);
            char *end = vararg;              /* not strcat: 100 k arguments must stay linear */
            for (size_t k = i; k < vals.len; k++) {
                if (k > i) *end++ = ',', *end++ = ' ';
                size_t len = strlen(vals.data[k]);
                memcpy(end, vals.data[k], len);
                end += len;
            }
            value[positional] = vararg;
            break;
        }
        value[positional++] = v;
    }
    for (size_t k = 0; ok && k < np; k++) {
        if (!value[k] && m->params.data[k].required) {
            asm_error(a, args, "macro '%s' needs a value for parameter '%s'", m->name, m->params.data[k].name);
            ok = false;
        }
        if (!value[k]) value[k] = m->params.data[k].def ? m->params.data[k].def : "";
    }
    if (ok) {
        binding *b = isk_xcalloc(np + 1, sizeof *b);
        for (size_t k = 0; k < np; k++) b[k] = (binding){ m->params.data[k].name, value[k] };
        asm_expansion x = { asm_intern(a, m->name), a->pos, asm_col(a, name) };
        /* The call line may not outlive its frame; notes show it later. */
        if (x.call.text) x.call.text = asm_intern_n(a, x.call.text, (size_t)x.call.text_len);
        VEC_PUSH(&a->expansions, x);
        int id = (int)a->expansions.len - 1;
        size_t n = 0;
        asm_body_line *lines = isk_xcalloc(m->body.len + 1, sizeof *lines);
        push_expansion(a, &m->body, b, np, a->macro_counter, true, 1, id, &lines, &n);
        a->macro_counter++;
        if (n) asm_push_body(a, lines, n, 1, true, id);
        else free(lines);
        free(b);
    }
    free(vararg);
    free(value);
    free_args(&vals);
    return true;
}

void asm_exit_macro(isk_asm *a)
{
    size_t i = a->frames.len;
    while (i > 0 && !a->frames.data[i - 1].is_macro) i--;
    if (i == 0) {
        asm_error(a, NULL, ".exitm outside a macro");
        return;
    }
    /* End the macro and anything it started; the frames are popped when next read. */
    for (size_t k = i - 1; k < a->frames.len; k++) {
        asm_frame *f = &a->frames.data[k];
        if (f->kind == FRAME_BODY) f->next = f->nlines, f->reps = 0;
        else f->at = f->len;
    }
}
