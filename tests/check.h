/* Minimal assertions for isekit's test programs. CTest is the runner; a test program exits
 * non-zero if any check failed and prints each failure as file:line: expression. */
#ifndef ISEKIT_TEST_CHECK_H
#define ISEKIT_TEST_CHECK_H
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond) do { check_count++; if (!(cond)) { check_failures++; \
    fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)

#define CHECK_EQ(a, b) do { check_count++; long long check_a_ = (long long)(a), check_b_ = (long long)(b); \
    if (check_a_ != check_b_) { check_failures++; fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (%lld != %lld)\n", \
    __FILE__, __LINE__, #a, #b, check_a_, check_b_); } } while (0)

#define CHECK_STR(a, b) do { check_count++; const char *check_a_ = (a), *check_b_ = (b); \
    if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) { check_failures++; \
    fprintf(stderr, "%s:%d: CHECK_STR failed: %s == %s (\"%s\" != \"%s\")\n", __FILE__, __LINE__, #a, #b, \
    check_a_ ? check_a_ : "(null)", check_b_ ? check_b_ : "(null)"); } } while (0)

#define CHECK_CONTAINS(hay, needle) do { check_count++; const char *check_h_ = (hay), *check_n_ = (needle); \
    if (!check_h_ || !strstr(check_h_, check_n_)) { check_failures++; \
    fprintf(stderr, "%s:%d: CHECK_CONTAINS failed: \"%s\" not in \"%s\"\n", __FILE__, __LINE__, check_n_, \
    check_h_ ? check_h_ : "(null)"); } } while (0)

/* Print the tally and return the exit status for main(). */
#define CHECK_DONE() (printf("%d checks, %d failed\n", check_count, check_failures), check_failures ? 1 : 0)

#endif
