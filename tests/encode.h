/* Instruction words from assembly text, for tests that build programs from lines: a line the
 * model does not accept ends the test program with the reason (a broken test, not a failure). */
#ifndef ISK_TESTS_ENCODE_H
#define ISK_TESTS_ENCODE_H

#include <stdio.h>
#include <stdlib.h>

#include "asm/syntax.h"
#include "isekit/sim.h"

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

/* Writes program's lines into storage `code` of p: "addr: text" lines are placed at addr, the
 * others follow the previous one; "#hex" is a raw word. */
static inline void test_load_lines(isk_inst *p, const isk_model *m, const char *code, const char *const *program)
{
    uint64_t pc = 0;
    for (int i = 0; program[i]; i++, pc++) {
        const char *text = program[i];
        char *end;
        unsigned long at = strtoul(text, &end, 10);
        if (end != text && *end == ':') pc = at, text = end + 1;
        while (*text == ' ') text++;
        isk_write(p, code, pc, *text == '#' ? (int64_t)strtol(text + 1, NULL, 16) : (int64_t)test_encode(m, text, pc));
    }
}

#endif
