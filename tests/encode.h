/* Instruction words from assembly text, for tests that build programs from lines: a line the
 * model does not accept ends the test program with the reason (a broken test, not a failure). */
#ifndef ISK_TESTS_ENCODE_H
#define ISK_TESTS_ENCODE_H

#include <stdio.h>
#include <stdlib.h>

#include "asm/syntax.h"

/* The word of `text` placed at instruction address pc (for PC-relative operands). */
static inline uint64_t test_encode(const isk_model *m, const char *text, uint64_t pc)
{
    isk_encoded e;
    char err[200];
    int at;
    isk_syntax_env env = { .pc = pc };
    if (!isk_syntax_encode(m, text, &env, &e, err, sizeof err, &at)) {
        fprintf(stderr, "cannot encode '%s': %s (at %d)\n", text, err, at);
        exit(1);
    }
    return e.word;
}

#endif
