/* Growable arrays: `VEC(T) v = {0}; VEC_PUSH(&v, x); v.data[i]; v.len; VEC_FREE(&v);`
 * Growth doubles, so pushes are amortised O(1). Allocation failure aborts with a message:
 * isekit treats running out of memory as fatal rather than threading it through every caller. */
#ifndef ISK_BASE_VEC_H
#define ISK_BASE_VEC_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define VEC(T) struct { T *data; size_t len, cap; }

void *isk_xrealloc(void *p, size_t n);
void *isk_xcalloc(size_t n, size_t size);
char *isk_xstrdup(const char *s);
char *isk_xstrndup(const char *s, size_t n);
char *isk_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The message and abort of an exhausted allocation, for memory got otherwise (mmap): `what`
 * says what it was for, so that a user who set a limit (ulimit -v) knows what hit it. */
_Noreturn void isk_out_of_memory(size_t bytes, const char *what);

#define VEC_RESERVE(v, n) do { \
    if ((v)->len + (n) > (v)->cap) { \
        size_t vec_cap_ = (v)->cap ? (v)->cap * 2 : 8; \
        while (vec_cap_ < (v)->len + (n)) vec_cap_ *= 2; \
        (v)->data = isk_xrealloc((v)->data, vec_cap_ * sizeof *(v)->data); \
        (v)->cap = vec_cap_; \
    } } while (0)

#define VEC_PUSH(v, ...) do { VEC_RESERVE((v), 1); (v)->data[(v)->len++] = (__VA_ARGS__); } while (0)
#define VEC_FREE(v) do { free((v)->data); (v)->data = NULL; (v)->len = (v)->cap = 0; } while (0)
#define VEC_LAST(v) ((v)->data[(v)->len - 1])

#endif
