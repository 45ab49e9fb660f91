/* Input: a stack of frames (files, and the bodies of macros and repeats being expanded), read
 * one physical line at a time; comments; statements; messages with positions. */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "asm/asm_int.h"

/* ---- text helpers ------------------------------------------------------------------------ */

const char *asm_skip(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' || *s == '\v') s++;
    return s;
}

bool asm_at_end(const char *s)
{
    return *asm_skip(s) == 0;
}

const char *asm_intern_n(isk_asm *a, const char *s, size_t len)
{
    /* One copy per distinct text: a runaway macro makes millions of calls from a few lines. */
    int i;
    if (asm_map_get(&a->interned, s, len, &i)) return a->keep.data[i];
    char *copy = isk_xstrndup(s, len);
    VEC_PUSH(&a->keep, copy);
    asm_map_put(&a->interned, s, len, (int)a->keep.len - 1);
    return copy;
}

const char *asm_intern(isk_asm *a, const char *s)
{
    return asm_intern_n(a, s, strlen(s));
}

/* ---- messages ---------------------------------------------------------------------------- */

int asm_col(const isk_asm *a, const char *at)
{
    if (!at || !a->work) return 0;
    long c = at - a->work;
    return c >= 0 && c <= a->pos.text_len ? (int)c + 1 : 0;
}

static void report(isk_asm *a, isk_severity sev, const asm_pos *pos, int col, const char *fmt, va_list ap)
{
    isk_diag *d = a->diag;
    if (sev == ISK_ERROR && isk_diag_full(d)) {
        isk_diag_vreport(d, sev, NULL, fmt, ap);        /* counted, not shown */
        return;
    }
    isk_loc loc = { pos->file, pos->line, col, pos->text, pos->text_len };
    isk_diag_vreport(d, sev, pos->file ? &loc : NULL, fmt, ap);
    /* The innermost calls, then (past 8) the outermost one: the call the user wrote. */
    int e = pos->expansion;
    for (int shown = 0; e >= 0; e = a->expansions.data[e].call.expansion) {
        const asm_expansion *x = &a->expansions.data[e];
        if (shown == 8 && x->call.expansion >= 0) {
            int skipped = 0;
            while (a->expansions.data[e].call.expansion >= 0) e = a->expansions.data[e].call.expansion, skipped++;
            x = &a->expansions.data[e];
            isk_loc call = { x->call.file, x->call.line, x->col, x->call.text, x->call.text_len };
            isk_note(d, &call, "in expansion of macro '%s' (%d levels of expansion not shown)", x->name, skipped);
            break;
        }
        isk_loc call = { x->call.file, x->call.line, x->col, x->call.text, x->call.text_len };
        isk_note(d, &call, "in expansion of macro '%s'", x->name);
        shown++;
    }
}

void asm_error(isk_asm *a, const char *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(a, ISK_ERROR, &a->pos, asm_col(a, at), fmt, ap);
    va_end(ap);
}

void asm_warning(isk_asm *a, const char *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(a, ISK_WARNING, &a->pos, asm_col(a, at), fmt, ap);
    va_end(ap);
}

void asm_warning_pos(isk_asm *a, const asm_pos *pos, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(a, ISK_WARNING, pos, col, fmt, ap);
    va_end(ap);
}

void asm_error_pos(isk_asm *a, const asm_pos *pos, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(a, ISK_ERROR, pos, col, fmt, ap);
    va_end(ap);
}

/* ---- comments and statements ------------------------------------------------------------- */

/* Skip a string or character literal starting at s (a quote); returns the position after it. */
static char *skip_literal(char *s)
{
    if (*s == '\'') {
        /* GNU writes a character as 'c (no closing quote); 'c' is accepted too. */
        s++;
        if (*s == '\\' && s[1]) s += 2;
        else if (*s) s++;
        if (*s == '\'') s++;
        return s;
    }
    for (s++; *s && *s != '"'; s++)
        if (*s == '\\' && s[1]) s++;
    return *s ? s + 1 : s;
}

void asm_strip_comments(char *s, bool *in_comment)
{
    char *p = s;
    if (!*in_comment) {
        const char *first = asm_skip(s);
        if (*first == '#') {
            memset(s, ' ', strlen(s));
            return;
        }
    }
    while (*p) {
        if (*in_comment) {
            char *end = strstr(p, "*/");
            if (!end) {
                memset(p, ' ', strlen(p));
                return;
            }
            memset(p, ' ', (size_t)(end + 2 - p));
            p = end + 2;
            *in_comment = false;
            continue;
        }
        if (*p == '"' || *p == '\'') {
            p = skip_literal(p);
            continue;
        }
        if ((p[0] == '/' && p[1] == '/') || (p[0] == '#' && (p == s || p[-1] == ' ' || p[-1] == '\t'))) {
            memset(p, ' ', strlen(p));
            return;
        }
        if (p[0] == '/' && p[1] == '*') {
            *in_comment = true;
            p[0] = p[1] = ' ';
            p += 2;
            continue;
        }
        p++;
    }
}

char *asm_next_statement(char **rest)
{
    char *s = *rest;
    while (*s == ' ' || *s == '\t' || *s == '\r') s++;
    if (!*s) {
        *rest = s;
        return NULL;
    }
    char *start = s;
    int braces = 0;
    while (*s) {
        if (*s == '"' || *s == '\'') {
            s = skip_literal(s);
            continue;
        }
        if (*s == '{') braces++;
        else if (*s == '}' && braces) braces--;
        else if (*s == ';' && !braces) {
            *s = 0;
            *rest = s + 1;
            return start;
        }
        s++;
    }
    *rest = s;
    return start;
}

/* ---- frames ------------------------------------------------------------------------------ */

void asm_push_file(isk_asm *a, const char *name, const char *buf, size_t len, bool cpp)
{
    asm_frame f = { .kind = FRAME_FILE, .file = asm_intern(a, name), .buf = buf, .len = len, .cpp = cpp,
                    .expansion = -1, .cond_depth = a->conds.len };
    VEC_PUSH(&a->frames, f);
}

void asm_push_body(isk_asm *a, asm_body_line *lines, size_t n, uint64_t reps, bool is_macro, int expansion)
{
    asm_frame f = { .kind = FRAME_BODY, .lines = lines, .nlines = n, .reps = reps, .is_macro = is_macro,
                    .expansion = expansion, .cond_depth = a->conds.len };
    VEC_PUSH(&a->frames, f);
}

void asm_pop_frame(isk_asm *a)
{
    asm_frame *f = &VEC_LAST(&a->frames);
    if (a->conds.len > f->cond_depth) {
        const asm_cond *c = &a->conds.data[f->cond_depth];
        asm_error_pos(a, &c->pos, 0, f->kind == FRAME_FILE ? "this .if has no .endif before the end of the file"
                                                            : "this .if has no .endif before the end of the macro");
        a->conds.len = f->cond_depth;
    }
    if (f->kind == FRAME_BODY) {
        for (size_t i = 0; i < f->nlines; i++) {
            free(f->lines[i].text);
            free(f->lines[i].display);
        }
        free(f->lines);
    }
    a->frames.len--;
}

void asm_abandon_frames(isk_asm *a, size_t floor)
{
    while (a->frames.len > floor) {
        a->conds.len = VEC_LAST(&a->frames).cond_depth;   /* no "no .endif" for what was cut */
        asm_pop_frame(a);
    }
}

/* `# 12 "file.S" 2`: a line marker of the C preprocessor. */
static bool line_marker(isk_asm *a, asm_frame *f, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i >= n || s[i] != '#') return false;
    i++;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i + 5 <= n && strncmp(s + i, "line", 4) == 0 && (s[i + 4] == ' ' || s[i + 4] == '\t')) i += 5;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i >= n || !isdigit((unsigned char)s[i])) return false;
    long line = 0;
    while (i < n && isdigit((unsigned char)s[i]) && line < 100000000) line = line * 10 + (s[i++] - '0');
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i < n && s[i] == '"') {
        size_t j = i + 1;
        while (j < n && s[j] != '"') j++;
        char *name = isk_xstrndup(s + i + 1, j - i - 1);
        f->file = asm_intern(a, name);
        free(name);
    }
    f->line = (int)line - 1;
    return true;
}

char *asm_next_line(isk_asm *a, size_t floor)
{
    while (a->frames.len > floor) {
        asm_frame *f = &VEC_LAST(&a->frames);
        if (f->kind == FRAME_FILE) {
            if (f->at >= f->len) {
                asm_pop_frame(a);
                continue;
            }
            const char *start = f->buf + f->at;
            const char *nl = memchr(start, '\n', f->len - f->at);
            size_t n = nl ? (size_t)(nl - start) : f->len - f->at;
            f->at += n + (nl != NULL);
            f->line++;
            if (n && start[n - 1] == '\r') n--;         /* CR LF line ends */
            if (f->cpp && line_marker(a, f, start, n)) continue;
            char *work = isk_xstrndup(start, n);
            a->pos = (asm_pos){ f->file, f->line, start, (int)n, -1 };
            const char *nul = memchr(start, 0, n);
            if (nul) {
                /* Text from memory (files are checked when read): a NUL would end the line early. */
                asm_error_pos(a, &a->pos, (int)(nul - start) + 1, "a NUL byte: assembly cannot contain one");
                memset(work, ' ', n);
            }
            asm_strip_comments(work, &f->in_comment);
            return work;
        }
        if (f->next >= f->nlines) {
            if (f->reps > 1) {
                f->reps--;
                f->next = 0;
                continue;
            }
            asm_pop_frame(a);
            continue;
        }
        const asm_body_line *l = &f->lines[f->next++];
        size_t len = strlen(l->text);
        char *work = isk_xstrndup(l->text, len);
        a->pos = l->pos;
        a->pos.text = l->display ? l->display : l->text;
        a->pos.text_len = (int)strlen(a->pos.text);
        if (f->expansion >= 0) a->pos.expansion = f->expansion;
        asm_strip_comments(work, &f->in_comment);
        uint64_t limit = a->opt.max_expanded_lines ? a->opt.max_expanded_lines : ISK_ASM_MAX_EXPANDED_LINES;
        uint64_t bytes = a->opt.max_expanded_bytes ? a->opt.max_expanded_bytes : ISK_ASM_MAX_EXPANDED_BYTES;
        a->expanded_bytes += len + 1;
        bool too_many = ++a->expanded_lines > limit, too_long = a->expanded_bytes > bytes;
        if (too_many || too_long) {
            if (too_many)
                asm_error(a, NULL, "more than %" PRIu64 " lines expanded from macros and repeats; stopping", limit);
            else
                asm_error(a, NULL, "more than %" PRIu64 " bytes of text expanded from macros and repeats; stopping "
                          "(set %s to raise it)", bytes, ISK_ASM_MAX_EXPANSION_ENV);
            free(work);
            asm_abandon_frames(a, floor);
            return NULL;
        }
        return work;
    }
    return NULL;
}

void asm_defer_rest(isk_asm *a, size_t frames_before, const char *rest)
{
    if (asm_at_end(rest) || a->frames.len <= frames_before || !a->work) return;
    /* The rest keeps its columns: what was done already is blanked. */
    size_t n = (size_t)a->pos.text_len, done = (size_t)(rest - a->work);
    if (done > n) return;
    char *text = isk_xcalloc(1, n + 1);
    memset(text, ' ', done);
    memcpy(text + done, rest, n - done);
    asm_body_line *line = isk_xcalloc(1, sizeof *line);
    line->text = text;
    line->display = isk_xstrndup(a->pos.text ? a->pos.text : "", a->pos.text ? (size_t)a->pos.text_len : 0);
    line->pos = a->pos;
    line->pos.text = NULL;
    asm_frame f = { .kind = FRAME_BODY, .lines = line, .nlines = 1, .reps = 1, .expansion = a->pos.expansion,
                    .cond_depth = a->conds.len };
    VEC_PUSH(&a->frames, f);
    /* Slide it under the frames the statement pushed. */
    asm_frame tmp = VEC_LAST(&a->frames);
    memmove(&a->frames.data[frames_before + 1], &a->frames.data[frames_before],
            (a->frames.len - 1 - frames_before) * sizeof tmp);
    a->frames.data[frames_before] = tmp;
}
