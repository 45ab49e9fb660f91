/* isekit cc: the compilation's arena, text buffers and the error exit. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc.h"

void *cc_alloc(cc_ctx *c, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    cc_arena_blk *b = c->arena;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        b = malloc(sizeof *b + cap);
        if (!b) {
            fprintf(stderr, "isekit cc: out of memory\n");
            abort();
        }
        b->next = c->arena;
        b->used = 0;
        b->cap = cap;
        c->arena = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *cc_strdup(cc_ctx *c, const char *s, size_t n)
{
    char *d = cc_alloc(c, n + 1);
    memcpy(d, s, n);
    return d;
}

void cc_buf_add(cc_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + (size_t)n + 1) cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) abort();
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void cc_buf_free(cc_buf *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

void cc_error(cc_ctx *c, cc_pos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (pos.file) fprintf(stderr, "%s:%d:%d: error: ", pos.file, pos.line, pos.col);
    else fprintf(stderr, "isekit cc: error: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    c->errors++;
    longjmp(c->fail, 1);
}
