#include "base/vec.h"

#include <stdarg.h>
#include <stdio.h>

_Noreturn void isk_out_of_memory(size_t bytes, const char *what)
{
    fprintf(stderr, "isekit: out of memory: %zu bytes%s%s could not be had (is the address space limited? ulimit -v)\n",
            bytes, what ? " for " : "", what ? what : "");
    abort();
}

static void out_of_memory(size_t n)
{
    isk_out_of_memory(n, NULL);
}

void *isk_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) out_of_memory(n);
    return q;
}

void *isk_xcalloc(size_t n, size_t size)
{
    void *q = calloc(n ? n : 1, size ? size : 1);
    if (!q) out_of_memory(n * size);
    return q;
}

char *isk_xstrndup(const char *s, size_t n)
{
    char *q = isk_xrealloc(NULL, n + 1);
    memcpy(q, s, n);
    q[n] = 0;
    return q;
}

char *isk_xstrdup(const char *s)
{
    return isk_xstrndup(s, strlen(s));
}

char *isk_xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = isk_xrealloc(NULL, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}
