/* One instruction <-> its text, driven by the model's syntax templates.
 *
 * A template is literal text with operands in braces: "move {GREG:gr}, {LREG:lr}". An operand
 * names a field of the instruction's format and optionally an operand kind (a register table,
 * an immediate, a PC-relative target). Spaces in a template match any amount of white space
 * (at least one between two word characters); other literals match exactly, ignoring case.
 * Everything above one instruction (labels, directives, expressions, relocations) belongs to
 * the assembler, which plugs its expression parser in through isk_syntax_env.
 *
 * Several patterns may accept one line (a short and a long immediate form, an alias and its
 * base). The encoder then picks, in this order:
 *   1. when an operand's value is not known yet (a symbol), the first declared pattern whose
 *      field for every such operand has a relocation or is PC-relative (so the value can still
 *      be filled in later), else the first declared pattern that matched;
 *   2. otherwise the first declared pattern whose template matches and whose operand values
 *      fit (so a model lists its short forms before its long ones, as vendor assemblers try
 *      their tables in order).
 * A word of the text that is a name of any NAMES kind (a register, a condition) is never read
 * as a symbol (isk_syntax_is_name), so "add r0, r1, r2" cannot match an immediate form. */
#ifndef ISK_ASM_SYNTAX_H
#define ISK_ASM_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elf/obj.h"
#include "isekit/desc.h"

/* An index of a model's templates by mnemonic and of its operand names, built once per tool
 * run so that encoding a line does not scan every pattern. */
typedef struct isk_syntax_index isk_syntax_index;
isk_syntax_index *isk_syntax_index_new(const isk_model *m);
void isk_syntax_index_free(isk_syntax_index *ix);

typedef struct isk_syntax_env {
    /* Parse a numeric operand at *p (for an INT/PCREL/ABS kind or a field without kind); on
     * success advance *p, set *value and return true. Set *deferred when the value is not known
     * yet (a symbol resolved later): *value is then the caller's handle for the expression, the
     * encoder skips range checks and encodes 0, and the caller records a fixup for that operand
     * of the chosen pattern. NULL = integer literals only. */
    bool (*parse_value)(void *user, const char **p, int64_t *value, bool *deferred);
    void *user;
    uint64_t pc;             /* address of this instruction, in PC units */
    const isk_syntax_index *index;   /* optional, for speed */
} isk_syntax_env;

typedef struct isk_encoded {
    uint64_t word;
    int pattern;
    int64_t ops[ISK_MAX_OPS];          /* operand values as written (targets, not offsets) */
    bool deferred[ISK_MAX_OPS];        /* operands whose value is not known yet (ops = handle) */
} isk_encoded;

/* Encode one instruction (no label or comment). On failure returns false with a message and
 * the byte offset in `text` where the best-matching template stopped. */
bool isk_syntax_encode(const isk_model *m, const char *text, const isk_syntax_env *env, isk_encoded *out,
                       char *err, size_t errlen, int *err_offset);

/* Fill field `f` of *word with `value` (a value as written: a PC-relative target is converted
 * with `pc`). False with a message if it does not fit. */
bool isk_syntax_insert(const isk_model *m, const isk_field *f, int64_t value, uint64_t pc, uint64_t *word,
                       char *err, size_t errlen);

/* The values a field accepts as written (before PC-relative conversion and scaling). */
void isk_syntax_field_range(const isk_model *m, const isk_field *f, int64_t *lo, int64_t *hi);

/* The pattern to print for a decoded word: an alias of `pattern` that matches it (the one with
 * the fewest operands), else `pattern` itself. */
int isk_syntax_display_pattern(const isk_model *m, int pattern, uint64_t word);

/* Print instruction `pattern` of `word` at address pc; returns false if it has no syntax. */
bool isk_syntax_print(const isk_model *m, int pattern, uint64_t word, uint64_t pc, char *out, size_t cap);

/* The value an operand of a printed instruction denotes: for a PC-relative field the target
 * (in PC units), otherwise the field value as written. */
int64_t isk_syntax_operand_value(const isk_model *m, const isk_field *f, uint64_t word, uint64_t pc);

/* The mnemonic (first word) of a template, for listings and error messages. */
size_t isk_syntax_mnemonic(const char *syntax, const char **start);

/* Is [s, s+len) a name of some NAMES kind of the model (ignoring case)? `ix` may be NULL. */
bool isk_syntax_is_name(const isk_model *m, const isk_syntax_index *ix, const char *s, size_t len);

/* Characters of register names, mnemonics and symbols. */
bool isk_syntax_word_char(char c);

#endif
