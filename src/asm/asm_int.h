/* Internal state of one assembler run, shared by the asm_*.c files:
 *
 *   asm.c          the driver: inputs, lines, statements, labels, conditionals
 *   asm_source.c   input frames (files, expansions), comments, statement splitting
 *   asm_expr.c     expressions: parsing into trees, evaluation
 *   asm_symbols.c  the symbol table and numeric local labels
 *   asm_macro.c    .macro/.rept/.irp bodies and their expansion
 *   asm_directives.c  the directive table
 *   asm_emit.c     sections, data, instructions, fixups
 *   asm_finish.c   the end: fixups, relocations, the object
 *   asm_cpp.c      the C preprocessor for .S files
 *   asm_lines.c    line information: which source line each instruction came from */
#ifndef ISK_ASM_ASM_INT_H
#define ISK_ASM_ASM_INT_H

#include "asm/asm.h"
#include "asm/map.h"
#include "asm/syntax.h"
#include "base/vec.h"

/* ---- positions ---- */

/* Where a statement came from. `text` is the whole line as shown in messages; it stays alive
 * while the statement is processed; positions kept longer (fixups) copy it. */
typedef struct asm_pos {
    const char *file;
    int line;
    const char *text;
    int text_len;
    int expansion;           /* index into isk_asm.expansions of the enclosing macro call, or -1 */
} asm_pos;

/* A macro call in progress or past, for "in expansion of macro X" notes. */
typedef struct asm_expansion {
    const char *name;
    asm_pos call;            /* where it was called */
    int col;
} asm_expansion;

/* ---- input ---- */

/* A line of a body. `text` is what is assembled (owned); pos.text is what messages show: the
 * same text, or for the rest of a line after a macro call the original line, whose columns
 * `text` keeps by blanking what was already done. */
typedef struct asm_body_line {
    char *text;
    char *display;           /* owned; NULL = show `text` */
    asm_pos pos;
} asm_body_line;
typedef VEC(asm_body_line) asm_body;
typedef VEC(char *) asm_strings;

enum { FRAME_FILE, FRAME_BODY };

typedef struct asm_frame {
    int kind;
    /* FRAME_FILE: a whole buffer, read line by line */
    const char *file;        /* name for positions (changes with cpp line markers) */
    const char *buf;
    size_t len, at;
    int line;                /* number of the line read last */
    bool cpp;                /* its lines carry `# N "file"` markers */
    /* FRAME_BODY: lines of an expansion or a repeat (owned by the frame) */
    asm_body_line *lines;
    size_t nlines, next;
    uint64_t reps;           /* times the lines are read (a .rept body) */
    bool is_macro;           /* .exitm ends it */
    int expansion;           /* for positions of its lines, or -1 */
    /* both */
    bool in_comment;         /* inside a block comment */
    size_t cond_depth;       /* conditional stack depth when the frame started */
} asm_frame;

/* ---- expressions ---- */

enum {
    X_NUM, X_SYM, X_LOC,
    X_NEG, X_COM, X_NOT,
    X_MUL, X_DIV, X_MOD, X_SHL, X_SHR,
    X_OR, X_AND, X_XOR, X_ORNOT,
    X_ADD, X_SUB,
    X_EQ, X_NE, X_LT, X_LE, X_GT, X_GE,
    X_LAND, X_LOR,
};

typedef struct asm_node {
    uint8_t op;
    int32_t a, b;            /* children (unary: a) */
    int64_t num;             /* X_NUM value, X_LOC offset */
    uint32_t ref;            /* X_SYM symbol index, X_LOC section */
    bool half;               /* X_NUM: the bits of a binary16 literal (1.0h), which '-' negates by its sign bit */
} asm_node;

enum { VAL_ABS, VAL_SEC, VAL_SYM };
/* VAL_ABS: k. VAL_SEC: offset k in section `sec` (through global symbol `sym` if nonzero).
 * VAL_SYM: undefined symbol `sym` + k. */
typedef struct asm_value {
    int kind;
    int64_t k;
    uint32_t sec, sym;
} asm_value;

enum { EV_OK, EV_PENDING, EV_ERROR };

/* ---- symbols ---- */

typedef struct asm_sym {
    char *name;
    uint32_t sec;            /* section, ISK_SHN_ABS, or 0 while undefined */
    int64_t value;
    int32_t expr;            /* >= 0: defined by an expression still to evaluate */
    uint8_t bind, type, vis;
    bool bind_set;           /* .global/.local/.weak seen */
    bool defined, is_set, temp, used, common, evaluating;
    uint64_t size, common_align;
    bool has_size;
    asm_pos pos;             /* definition, or first use */
    int col;
    uint32_t out;            /* index in the object */
} asm_sym;

/* ---- fixups ---- */

enum { FX_INSN, FX_DATA, FX_SIZE };
typedef struct asm_fixup {
    uint8_t kind, bytes;
    int16_t pattern, field;
    uint32_t sec, sym;
    uint64_t offset, pc;
    int32_t expr;
    asm_pos pos;             /* pos.text is a copy owned by the fixup */
    int col;
} asm_fixup;

/* ---- macros and conditionals ---- */

typedef struct asm_param { char *name, *def; bool required, vararg; } asm_param;
typedef struct asm_macro {
    char *name;
    VEC(asm_param) params;
    asm_body body;
    asm_pos pos;
    bool purged;
} asm_macro;

/* A body being collected (.macro ... .endm, .rept ... .endr). */
enum { COLLECT_NONE, COLLECT_MACRO, COLLECT_REPT, COLLECT_IRP };
typedef struct asm_collect {
    int kind;
    int depth;               /* nested blocks of the same family */
    asm_macro macro;         /* COLLECT_MACRO */
    uint64_t count;          /* COLLECT_REPT */
    char *irp_param;         /* COLLECT_IRP */
    asm_strings irp_values;
    asm_body body;
    asm_pos pos;
    int col;
} asm_collect;

typedef struct asm_cond {
    bool outer_active;       /* the enclosing state */
    bool active;             /* this branch is being assembled */
    bool taken;              /* some branch of this .if was taken */
    bool else_seen;
    asm_pos pos;
} asm_cond;

/* ---- line information ---- */

/* The instruction at `offset` of section `sec` (and those after it, up to the next row of the
 * section) came from line `line`, column `col` (0: unknown) of lines.files[file]. */
typedef struct asm_line_row { uint32_t sec, file, line, col; uint64_t offset; } asm_line_row;

/* ---- the assembler ---- */

struct isk_asm {
    const isk_model *m;
    isk_diag *diag;
    int errors_at_start;
    isk_asm_options opt;
    const isk_syntax_index *index;   /* opt.index, or own_index */
    isk_syntax_index *own_index;     /* made for this assembler alone (no opt.index), freed with it */
    isk_obj *obj;
    int insn_bytes, pc_unit;
    bool big_endian;
    int nop_pattern;         /* a "nop" without operands, for code padding, or -1 */

    /* input */
    VEC(asm_frame) frames;
    VEC(char *) keep;        /* buffers positions point into */
    asm_map interned;        /* text -> its copy in keep (asm_intern) */
    VEC(asm_expansion) expansions;
    uint64_t macro_counter;  /* \@ */
    uint64_t expanded_lines, expanded_bytes; /* runaway guards */
    bool ended;              /* .end seen in this input */

    /* the current statement, for messages */
    asm_pos pos;
    char *work;              /* the line as processed (same columns as pos.text) */

    /* sections */
    uint32_t sec, prev_sec;
    VEC(uint32_t) sec_stack;

    /* symbols */
    VEC(asm_sym) syms;       /* [0] unused */
    asm_map sym_map;
    asm_map local_counts;    /* numeric local label -> instances defined */

    /* expressions */
    VEC(asm_node) nodes;
    bool operand_mode;       /* register names are no symbols */

    VEC(asm_fixup) fixups;

    /* macros and conditionals */
    VEC(asm_macro) macros;
    asm_map macro_map;
    asm_collect collect;
    VEC(asm_cond) conds;

    /* an issue group "{ ... }" being assembled (asm_bundle.c) */
    struct {
        bool open;
        uint32_t sec;
        uint64_t start;      /* offset of its first word */
        int members;
        bool failed;         /* an error was reported: leave the words as they are */
        asm_pos pos;         /* of the '{' (text interned) */
        int col;
    } bundle;

    /* line information (asm_lines.c), unless opt.no_lines */
    struct {
        VEC(asm_line_row) rows;
        VEC(const char *) files;     /* interned names */
        VEC(int32_t) numbered;       /* `.file N`: N -> index in files, or -1 */
        bool loc;                    /* a `.loc` was seen: from then on it says where code comes from */
        uint32_t file, line, col;    /* the last `.loc` */
    } lines;
};

/* asm.c */
void asm_statement(isk_asm *a, char *s);
bool asm_active(const isk_asm *a);

/* asm_source.c */
void asm_push_file(isk_asm *a, const char *name, const char *buf, size_t len, bool cpp);
void asm_push_body(isk_asm *a, asm_body_line *lines, size_t n, uint64_t reps, bool is_macro, int expansion);
/* The next physical line: its text (comments blanked, NUL-terminated, owned by the caller)
 * and a.pos set. NULL at the end of the frames pushed since `floor`. */
char *asm_next_line(isk_asm *a, size_t floor);
/* Continue the current line's statements from `rest` after the frames pushed by its current
 * statement (a macro call, .include, ...): slides a one-line frame under them. */
void asm_defer_rest(isk_asm *a, size_t frames_before, const char *rest);
void asm_pop_frame(isk_asm *a);
/* Pop the frames above floor without reporting their open .if blocks (after a limit). */
void asm_abandon_frames(isk_asm *a, size_t floor);
/* Split a line into statements at ';' outside strings and braces: returns the next statement
 * and advances *rest, or NULL at the end. */
char *asm_next_statement(char **rest);
/* Blank the comments of a line in place; *in_comment carries block comments across lines. */
void asm_strip_comments(char *s, bool *in_comment);

/* Messages at column `at` (a pointer into a.work, or NULL) of the current statement. */
void asm_error(isk_asm *a, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void asm_warning(isk_asm *a, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same at a recorded position. */
void asm_error_pos(isk_asm *a, const asm_pos *pos, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void asm_warning_pos(isk_asm *a, const asm_pos *pos, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int asm_col(const isk_asm *a, const char *at);
/* A copy of s that lives as long as the assembler; equal texts share one copy. */
const char *asm_intern(isk_asm *a, const char *s);
const char *asm_intern_n(isk_asm *a, const char *s, size_t len);
const char *asm_skip(const char *s);
bool asm_at_end(const char *s);

/* asm_expr.c */
/* Parse an expression at *p; -1 after an error (reported unless quiet). */
int32_t asm_expr_parse(isk_asm *a, const char **p, bool quiet);
int asm_expr_eval(isk_asm *a, int32_t e, bool final, asm_value *out, char *err, size_t errlen);
/* Parse and evaluate an absolute expression now (directive arguments); false after an error. */
bool asm_expr_absolute(isk_asm *a, const char **p, int64_t *v);
int32_t asm_node_new(isk_asm *a, asm_node n);
/* The character a backslash escape at *p (just after the backslash) denotes; advances *p. */
int asm_escape(const char **p);

/* asm_symbols.c */
uint32_t asm_sym_ref(isk_asm *a, const char *name, size_t len);
uint32_t asm_sym_find(const isk_asm *a, const char *name, size_t len);
bool asm_define_label(isk_asm *a, const char *name, size_t len, const char *at);
void asm_define_set(isk_asm *a, const char *name, size_t len, const char *expr_at, bool equiv);
/* Numeric local label references "1b"/"1f": the symbol, or 0 after an error. */
uint32_t asm_local_ref(isk_asm *a, const char *digits, size_t len, bool forward, bool quiet);
const char *asm_sym_display(const asm_sym *s, char *buf, size_t cap);
/* A symbol name at *p (identifier or quoted), advancing *p; length 0 if none. */
size_t asm_parse_name(const char **p, const char **start);

/* asm_macro.c */
/* Feed a line to the body being collected; returns the text after the body's end on this
 * line (to assemble normally), or NULL. */
char *asm_collect_line(isk_asm *a, char *work);
bool asm_macro_call(isk_asm *a, const char *name, size_t len, const char *args);
void asm_start_macro(isk_asm *a, const char *args);
void asm_start_rept(isk_asm *a, const char *args);
void asm_start_irp(isk_asm *a, const char *args, bool chars);
void asm_purge_macro(isk_asm *a, const char *args);
void asm_exit_macro(isk_asm *a);
void asm_macro_free(asm_macro *m);
void asm_body_free(asm_body *b);

/* asm_directives.c */
bool asm_directive(isk_asm *a, const char *name, size_t len, const char *args);
bool asm_is_conditional(const char *name, size_t len);

/* asm_emit.c */
void asm_switch_section(isk_asm *a, const char *name, const char *flags, const char *type, bool have_flags);
void asm_emit_bytes(isk_asm *a, const void *bytes, size_t n);
/* May the current section grow by n bytes? Reports an error at `at` if not. */
bool asm_room(isk_asm *a, uint64_t n, const char *at);
void asm_emit_data(isk_asm *a, int bytes, int32_t expr, const char *at);
/* The pattern encoded, or -1 after an error. */
int asm_emit_instruction(isk_asm *a, const char *text);
void asm_emit_word(isk_asm *a, uint64_t word);
void asm_align(isk_asm *a, uint64_t align, bool have_fill, int64_t fill, uint64_t max_skip);
bool asm_section_is_nobits(const isk_asm *a);
uint64_t asm_offset(const isk_asm *a);
/* Put `word` into `bytes` bytes in the object's byte order. */
void asm_put_word(const isk_asm *a, uint8_t *p, int bytes, uint64_t word);
uint64_t asm_get_word(const isk_asm *a, const uint8_t *p, int bytes);

/* asm_bundle.c: issue groups "{ a ; b }" (PROCESSOR .group_bit), on one line or several */
/* A statement starting with '{', or any statement while a bundle is open. */
void asm_bundle_statement(isk_asm *a, char *s);
/* End of input: a bundle still open is an error. */
void asm_bundle_finish(isk_asm *a);

/* asm_finish.c */
/* Resolve a fixup if possible. Not final: only what is known now (absolute values, branches
 * within the section); final: everything, emitting relocations for the rest. True when the
 * fixup is done with (resolved, relocated or reported as an error). */
bool asm_fixup_resolve(isk_asm *a, asm_fixup *f, bool final);
isk_obj *asm_finish(isk_asm *a);

/* asm_lines.c */
/* An instruction word was just put at `offset` of the current section: note its source line. */
void asm_line_note(isk_asm *a, uint64_t offset);
/* `.file N "name"` and `.loc N LINE [COL]` (`at`: the file number, for messages). */
void asm_line_file(isk_asm *a, uint64_t n, const char *name, const char *at);
void asm_line_loc(isk_asm *a, uint64_t n, uint64_t line, uint64_t col, const char *at);
/* At the end: the .debug_line section (and its relocations) for the rows noted. */
void asm_line_finish(isk_asm *a);
void asm_line_free(isk_asm *a);
/* The model's relocation that writes a plain n-byte value (data and debug addresses), or -1. */
int asm_data_reloc(const isk_model *m, int n);

/* asm_cpp.c */
/* Run the C preprocessor on path; the output (malloc'd, NUL-terminated) or NULL after errors. */
char *asm_preprocess(const char *path, const isk_asm_options *opt, const char *model_name, isk_diag *diag,
                     size_t *len);

#endif
