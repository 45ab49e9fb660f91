/* Small string helpers every part uses. */
#ifndef ISK_BASE_STR_H
#define ISK_BASE_STR_H

#include <stdbool.h>
#include <string.h>

/* Does s end with suffix? */
static inline bool isk_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* s after its leading spaces and tabs. */
static inline const char *isk_skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

#endif
