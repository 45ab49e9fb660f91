/* Checks for the host API tests: count, print failures, exit status. */
#ifndef TESTS_DPU_HOST_CHECK_H
#define TESTS_DPU_HOST_CHECK_H
#include <stdio.h>
static int checks, failures;
#define CHECK(c) do { checks++; if (!(c)) { failures++; fprintf(stdout, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); } } while (0)
#define CHECK_EQ(a, b) do { checks++; long long a_ = (long long)(a), b_ = (long long)(b); if (a_ != b_) { failures++; \
    fprintf(stdout, "%s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__, #a, a_, b_); } } while (0)
#define DONE() (printf("%d checks, %d failed\n", checks, failures), failures ? 1 : 0)
#endif
