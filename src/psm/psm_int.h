/* Internals of the .psm front end (psm.h), shared by its source files. */
#ifndef ISK_ASM_PSM_INT_H
#define ISK_ASM_PSM_INT_H

#include "asm/map.h"
#include "psm/psm.h"
#include "asm/syntax.h"
#include "isekit/desc.h"

/* One source line after INCLUDE expansion. */
typedef struct psm_line {
    const char *file;            /* owned by the program's file list */
    int line;
    char *text;                  /* without the line end */
} psm_line;

/* A piece of a line: text and its 1-based column. */
typedef struct psm_span { const char *s; int len, col; } psm_span;

#define PSM_MAX_OPERANDS 8

typedef struct psm_parsed {
    psm_span label;              /* len 0: no label */
    psm_span word;               /* the mnemonic or directive; len 0: none */
    psm_span op[PSM_MAX_OPERANDS];
    int nops;
    psm_span comment;            /* from its ';'; len 0: none */
} psm_parsed;

typedef struct psm_asm {
    const psm_options *opt;
    isk_diag *diag;
    psm_program *prog;
    asm_map symbol_map;          /* name -> index in prog->symbols (200 k CONSTANTs stay linear) */
    isk_syntax_index *index;     /* the model's templates by mnemonic, for the encoder */
    isk_syntax_index *hint_index; /* the same for opt->hint_model, made when first needed */
    VEC(psm_line) lines;
    int include_depth;
    /* NAMEREG, in program order: the current name of each register (NULL = its default sX) */
    char *reg_alias[16];
    int64_t now;                 /* for the time stamps */
    bool pass2;
    /* the line being assembled, for messages */
    const psm_line *cur;
    /* the reason the value hook last refused an operand, and where */
    char value_error[160];
    const char *value_error_at;  /* where the problem is */
    const char *value_start;     /* where the refused value began */
    bool value_invalid;          /* the value named a symbol whose definition failed: no message */
    char context[128];           /* the last global label: the scope of ".local" labels (opbasm) */
    int default_jump_line;
    psm_span default_jump;
    const psm_line *default_jump_src;
} psm_asm;

/* psm_source.c: read a file (and, recursively, its INCLUDEs) into a->lines. */
bool psm_read_source(psm_asm *a, const char *path, const char *text, const psm_line *included_from,
                     const psm_span *where);

/* psm_line.c: split a line; false (after reporting) if it is malformed. */
bool psm_split_line(psm_asm *a, const psm_line *l, psm_parsed *out);
bool psm_span_is(const psm_span *s, const char *word);     /* case-insensitive */
bool psm_is_name_char(char c);
/* The end of a name at s (s itself if none): opbasm's label forms included, "&&name" (a macro's
 * label, which opens no scope) and ".name" (a local label of the last global one), and '.' inside
 * ("main.loop", a local label named in full). */
const char *psm_name_end(const char *s);

/* Report an error at a column of a line. */
void psm_error_at(psm_asm *a, const psm_line *l, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* psm_value.c: values. psm_value parses one at *p (advancing it); on failure it leaves a reason
 * in a->value_error and returns false. Register names are not values. */
bool psm_value(psm_asm *a, const char **p, int64_t *v);
bool psm_value_span(psm_asm *a, const psm_line *l, const psm_span *s, int64_t *v);
int psm_register_number(const char *s, int len);            /* s0..sF -> 0..15, else -1 */
bool psm_check_name(psm_asm *a, const psm_line *l, const psm_span *s, const char *what, char suffix);
psm_symbol *psm_symbol_lookup(psm_asm *a, const char *s, int len);
psm_symbol *psm_symbol_define(psm_asm *a, const psm_line *l, const psm_span *s, int kind);

/* psm_listing.c: keep a pass-2 line for the .log (psm_options.listing); `before` and `after`
 * are the addresses around it, `resolved` (owned, may be NULL) its statement as the log shows it. */
void psm_list_line(psm_asm *a, const psm_line *l, const psm_parsed *p, uint64_t before, uint64_t after,
                   char *resolved);
/* The statement of p as the log shows it: operands resolved to their values (in pass 2). */
char *psm_resolve_statement(psm_asm *a, const psm_parsed *p);

/* psm_encode.c: one instruction line (pass 2): the words it gives, or -1 after an error.
 * In pass 1 (emit = NULL) it only counts the words. */
int psm_instruction(psm_asm *a, const psm_line *l, const psm_parsed *p, uint32_t *emit, int cap);
bool psm_encode_text(psm_asm *a, const psm_line *l, const char *text, const int *cols, uint32_t *word,
                     int fallback_col);

#endif
