/* isekit cc: the lexer over the system preprocessor's output. Its line markers
 * (# LINE "FILE" FLAGS) give every token the file:line:column of the source it came from;
 * `#pragma isekit library "x.psm"` (pbbcelib.h has one) adds a .psm library to INCLUDE. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc.h"

static const char *intern_file(cc_ctx *c, const char *s, size_t n)
{
    for (int i = 0; i < c->nsrcs; i++)
        if (strlen(c->srcs[i].name) == n && memcmp(c->srcs[i].name, s, n) == 0) return c->srcs[i].name;
    cc_srcfile f = { cc_strdup(c, s, n), NULL, -1 };
    CC_PUSH(c, c->srcs, c->nsrcs, c->capsrcs, f);
    return f.name;
}

const char *cc_source_line(cc_ctx *c, const char *file, int line)
{
    for (int i = 0; i < c->nsrcs; i++) {
        cc_srcfile *f = &c->srcs[i];
        if (f->name != file) continue;
        if (f->nlines < 0) {
            f->nlines = 0;
            FILE *in = fopen(file, "r");
            if (!in) return NULL;
            int cap = 0;
            char buf[1024];
            while (fgets(buf, sizeof buf, in)) {
                size_t n = strcspn(buf, "\r\n");
                CC_PUSH(c, f->lines, f->nlines, cap, cc_strdup(c, buf, n));
            }
            fclose(in);
        }
        return line >= 1 && line <= f->nlines ? f->lines[line - 1] : NULL;
    }
    return NULL;
}

static const char *const puncts[] = {
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=",
    "/=", "%=", "&=", "|=", "^=", "{", "}", "(", ")", "[", "]", ";", ",", ":", "?", "=", "+", "-", "*",
    "/", "%", "&", "|", "^", "~", "!", "<", ">", ".", NULL,
};

static int escape(cc_ctx *c, const char **pp, cc_pos pos)
{
    const char *p = *pp;
    int v;
    switch (*p) {
    case 'n': v = '\n'; p++; break;
    case 't': v = '\t'; p++; break;
    case 'r': v = '\r'; p++; break;
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
        v = 0;
        for (int i = 0; i < 3 && *p >= '0' && *p <= '7'; i++) v = v * 8 + (*p++ - '0');
        break;
    case 'x':
        p++;
        v = 0;
        if (!isxdigit((unsigned char)*p)) cc_error(c, pos, "\\x with no hex digits");
        while (isxdigit((unsigned char)*p)) {
            v = v * 16 + (isdigit((unsigned char)*p) ? *p - '0' : (tolower((unsigned char)*p) - 'a' + 10));
            p++;
        }
        break;
    case 'a': v = 7; p++; break;
    case 'b': v = 8; p++; break;
    case 'f': v = 12; p++; break;
    case 'v': v = 11; p++; break;
    case '\\': case '\'': case '"': case '?': v = *p++; break;
    default: cc_error(c, pos, "unknown escape '\\%c'", *p);
    }
    *pp = p;
    return v & 0xFF;
}

void cc_lex(cc_ctx *c, const char *text)
{
    const char *p = text, *file = intern_file(c, "<stdin>", 7), *bol = p;
    int line = 1;
    bool at_bol = true;
    while (*p) {
        if (*p == '\n') {
            p++;
            line++;
            bol = p;
            at_bol = true;
            continue;
        }
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        cc_pos pos = { file, line, (int)(p - bol) + 1 };
        if (*p == '#' && at_bol) {
            /* "# 12 "file" 1 2" or "#pragma ..." */
            const char *e = strchr(p, '\n');
            if (!e) e = p + strlen(p);
            const char *q = p + 1;
            while (*q == ' ') q++;
            if (isdigit((unsigned char)*q)) {
                int n = (int)strtol(q, (char **)&q, 10);
                while (*q == ' ') q++;
                if (*q == '"') {
                    const char *s = ++q;
                    while (q < e && *q != '"') q++;
                    file = intern_file(c, s, (size_t)(q - s));
                }
                line = n - 1;
            } else if (strncmp(q, "pragma", 6) == 0) {
                q += 6;
                while (*q == ' ') q++;
                if (strncmp(q, "isekit", 6) == 0) {
                    q += 6;
                    while (*q == ' ') q++;
                    if (strncmp(q, "library", 7) != 0) cc_error(c, pos, "unknown '#pragma isekit' (known: library \"x.psm\")");
                    q = strchr(q, '"');
                    const char *s = q ? q + 1 : NULL, *t = s ? strchr(s, '"') : NULL;
                    if (!t || t > e) cc_error(c, pos, "#pragma isekit library needs a \"file.psm\"");
                    const char *lib = cc_strdup(c, s, (size_t)(t - s));
                    /* once, also when the command line names the same file by a path */
                    bool seen = false;
                    for (int i = 0; i < c->nlibs; i++) {
                        const char *b = strrchr(c->libs[i], '/');
                        seen |= strcmp(b ? b + 1 : c->libs[i], lib) == 0;
                    }
                    if (!seen) CC_PUSH(c, c->libs, c->nlibs, c->caplibs, lib);
                }
                /* other pragmas are ignored, as C allows */
            } else {
                cc_error(c, pos, "unexpected preprocessor line");
            }
            p = e;
            continue;
        }
        at_bol = false;
        cc_token t = { 0 };
        t.pos = pos;
        if (isalpha((unsigned char)*p) || *p == '_') {
            const char *s = p;
            while (isalnum((unsigned char)*p) || *p == '_') p++;
            t.kind = TK_ID;
            t.text = cc_strdup(c, s, (size_t)(p - s));
        } else if (isdigit((unsigned char)*p)) {
            const char *s = p;
            int base = 10;
            if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) base = 16, p += 2;
            else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) base = 2, p += 2;
            else if (p[0] == '0') base = 8;
            uint64_t v = 0;
            bool digits = false;
            while (isxdigit((unsigned char)*p)) {
                int d = isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10;
                if (d >= base) break;
                if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) cc_error(c, pos, "number too large");
                v = v * (uint64_t)base + (uint64_t)d;
                digits = true;
                p++;
            }
            if (!digits && base != 8) cc_error(c, pos, "number with no digits");
            for (;;) {
                if (*p == 'u' || *p == 'U') t.is_unsigned = true, p++;
                else if (*p == 'l' || *p == 'L') t.is_long = true, p++;
                else break;
            }
            if (isalnum((unsigned char)*p) || *p == '_' || *p == '.') {
                while (isalnum((unsigned char)*p) || *p == '_' || *p == '.') p++;
                cc_error(c, pos, "'%.*s' is not an integer constant (floating point is outside the subset)", (int)(p - s), s);
            }
            if (v > 0xFFFFFFFFu) cc_error(c, pos, "'%.*s' does not fit in 32 bits (long)", (int)(p - s), s);
            t.kind = TK_NUM;
            t.val = v;
            t.text = cc_strdup(c, s, (size_t)(p - s));
        } else if (*p == '\'') {
            p++;
            int v = *p == '\\' ? (p++, escape(c, &p, pos)) : (unsigned char)*p++;
            if (*p != '\'') cc_error(c, pos, "character constant of more than one character or unterminated");
            p++;
            t.kind = TK_CHAR;
            t.val = (uint64_t)(int64_t)(signed char)v;  /* char is signed, as on the host */
        } else if (*p == '"') {
            cc_buf b = { 0 };
            p++;
            while (*p && *p != '"' && *p != '\n') {
                int ch = *p == '\\' ? (p++, escape(c, &p, pos)) : (unsigned char)*p++;
                cc_buf_add(&b, "%c", ch ? ch : ' ');
            }
            if (*p != '"') {
                cc_buf_free(&b);
                cc_error(c, pos, "unterminated string");
            }
            p++;
            t.kind = TK_STR;
            t.text = cc_strdup(c, b.s ? b.s : "", b.len);
            cc_buf_free(&b);
        } else {
            for (int i = 0; puncts[i]; i++) {
                size_t n = strlen(puncts[i]);
                if (strncmp(p, puncts[i], n) == 0) {
                    t.kind = TK_PUNCT;
                    t.text = puncts[i];
                    p += n;
                    break;
                }
            }
            if (!t.kind) cc_error(c, pos, "stray '%c' in program", *p);
        }
        CC_PUSH(c, c->toks, c->ntoks, c->captoks, t);
    }
    cc_token e = { TK_EOF, "end of file", 0, false, false, { file, line, 1 } };
    CC_PUSH(c, c->toks, c->ntoks, c->captoks, e);
}
