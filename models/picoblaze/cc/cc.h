/* isekit cc: a compiler from a subset of C17 to PicoBlaze (KCPSM3/KCPSM6) .psm (docs/cc.md).
 * One compilation owns a cc_ctx: an arena for every node, type and symbol (freed at once, also
 * after an error unwinds by longjmp), the tokens, the symbols and the output text. */
#ifndef ISK_PB_CC_H
#define ISK_PB_CC_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cc_pos { const char *file; int line, col; } cc_pos;

/* A growing text buffer. */
typedef struct cc_buf { char *s; size_t len, cap; } cc_buf;
void cc_buf_add(cc_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cc_buf_free(cc_buf *b);

enum cc_tok { TK_EOF, TK_ID, TK_NUM, TK_CHAR, TK_STR, TK_PUNCT };
typedef struct cc_token {
    int kind;
    const char *text;   /* identifier / punctuator spelling / string contents */
    uint64_t val;       /* numbers and characters */
    bool is_unsigned, is_long;
    cc_pos pos;
} cc_token;

enum cc_tkind { TY_VOID, TY_BOOL, TY_INT, TY_PTR, TY_ARRAY, TY_STRUCT, TY_FUNC };
typedef struct cc_member { const char *name; struct cc_type *type; int offset; } cc_member;
typedef struct cc_type {
    int kind;
    int size;                      /* bytes; integers 1, 2 or 4; pointers 1 (the scratchpad) */
    bool is_unsigned;
    struct cc_type *base;          /* pointee, element, function result */
    int count;                     /* array elements (-1 = not given) */
    const char *tag;               /* struct tag */
    cc_member *members;            /* struct members, or function parameters */
    int nmembers;
    bool complete;
} cc_type;

enum cc_symkind { SY_GLOBAL, SY_LOCAL, SY_FUNC, SY_ENUM, SY_TYPEDEF };
typedef struct cc_func cc_func;
typedef struct cc_sym {
    const char *name;
    int kind;
    cc_type *type;
    int addr;                      /* globals: scratchpad address; locals: offset in the frame */
    cc_func *owner;                /* the function whose frame holds a local */
    int64_t value;                 /* enum constants */
    cc_func *func;                 /* functions */
    struct cc_node *init;          /* globals: initializer (constant expression or list) */
    cc_pos pos;
} cc_sym;

enum cc_op {
    N_NUM, N_VAR, N_ADDR, N_DEREF, N_MEMBER, N_CALL, N_CAST, N_NEG, N_NOT, N_LNOT,
    N_ADD, N_SUB, N_MUL, N_DIV, N_MOD, N_SHL, N_SHR, N_AND, N_OR, N_XOR,
    N_EQ, N_NE, N_LT, N_LE, N_GT, N_GE, N_LAND, N_LOR, N_COND, N_COMMA,
    N_ASSIGN, N_OPASSIGN, N_PREINC, N_PREDEC, N_POSTINC, N_POSTDEC,
    N_INPUT, N_OUTPUT, N_SETREG, N_GETREG, N_ASM, N_INTR, N_INITLIST,
    /* statements */
    S_EXPR, S_BLOCK, S_IF, S_WHILE, S_DO, S_FOR, S_SWITCH, S_CASE, S_DEFAULT, S_BREAK, S_CONTINUE,
    S_RETURN, S_GOTO, S_LABEL, S_DECL, S_EMPTY
};

typedef struct cc_node {
    int op;
    cc_type *type;
    struct cc_node *a, *b, *c, *d;  /* operands; statements: cond/then/else/body */
    struct cc_node **list;          /* block statements, call arguments, initializer lists */
    int n;
    int subop;                      /* N_OPASSIGN: the binary op */
    struct cc_type *optype;         /* N_OPASSIGN: the type the operation is done in */
    int64_t val;                    /* N_NUM, case values, member offsets, N_INTR on/off */
    cc_sym *sym;
    const char *text;               /* N_ASM text, labels */
    cc_pos pos;
} cc_node;

struct cc_func {
    cc_sym *sym;
    cc_node *body;                  /* NULL: a .psm routine (pbbcelib) */
    bool interrupt;
    int locals;                     /* bytes of parameters and locals */
    int frame;                      /* + temporaries + saved registers = the frame's size */
    int base;                       /* the frame's scratchpad address */
    cc_func **callees;
    int ncallees;
    int depth;                      /* call-stack levels it needs, itself included */
    int rtdepth;                    /* levels its calls of runtime and .psm routines need */
    int index;                      /* in cc_ctx.funcs */
    int state;                      /* call-graph walk */
    int tree;                       /* 1 main, 2 interrupt */
    cc_pos pos;
    cc_buf code;
};

typedef struct cc_arena_blk { struct cc_arena_blk *next; size_t used, cap; char data[]; } cc_arena_blk;

typedef struct cc_srcfile { const char *name; char **lines; int nlines; } cc_srcfile;

typedef struct cc_ctx {
    int core;                       /* 3 or 6 */
    unsigned scratchpad;            /* 64, 128 or 256 */
    int stack_depth;                /* 31 (KCPSM3) or 30 (KCPSM6) */
    cc_arena_blk *arena;
    jmp_buf fail;
    int errors;
    /* tokens */
    cc_token *toks;
    int ntoks, captoks, tp;
    /* scopes: a flat list searched from the end; scope_mark[] remembers where each began */
    cc_sym **syms;
    int nsyms, capsyms;
    cc_sym **tags;                  /* struct tags (kind SY_TYPEDEF, type = the struct) */
    int ntags, captags;
    cc_sym **globals;
    int nglobals, capglobals;
    int gsize;                      /* bytes of globals */
    uint8_t gimage[256];            /* initial values of globals */
    bool gset[256];                 /* bytes with an initializer other than 0 */
    cc_node **switches;             /* parsing: the enclosing switch statements */
    int nswitches, capswitches, loops;
    const char **labels, **gotos;   /* parsing: a function's labels and goto targets */
    cc_pos *gotopos;
    int nlabels, caplabels, ngotos, capgotos, capgotopos, ngotopos;
    cc_func **funcs;
    int nfuncs, capfuncs;
    cc_func *cur;                   /* function being parsed / generated */
    const char **libs;              /* .psm files to INCLUDE (command line and #pragma isekit library) */
    int nlibs, caplibs;
    cc_srcfile *srcs;
    int nsrcs, capsrcs;
    unsigned runtime;               /* runtime routines used (cc_runtime.c) */
    int label;                      /* next internal label */
    cc_buf out;
    cc_buf body;                    /* cc_gen_func's function body (here so an error frees it) */
} cc_ctx;

void *cc_alloc(cc_ctx *c, size_t n);
char *cc_strdup(cc_ctx *c, const char *s, size_t n);
void cc_error(cc_ctx *c, cc_pos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4), noreturn));
#define CC_PUSH(c, arr, n, cap, v) do { if ((n) == (cap)) { (cap) = (cap) ? 2 * (cap) : 16; \
    void *np_ = cc_alloc((c), sizeof *(arr) * (size_t)(cap)); if (n) memcpy(np_, (arr), sizeof *(arr) * (size_t)(n)); \
    (arr) = np_; } (arr)[(n)++] = (v); } while (0)

/* cc_lex.c: tokens from the preprocessed text (with its # line markers). */
void cc_lex(cc_ctx *c, const char *text);
/* The source line (for comments in the .psm), or NULL. */
const char *cc_source_line(cc_ctx *c, const char *file, int line);

/* cc_types.c */
cc_type *cc_int_type(cc_ctx *c, int size, bool is_unsigned);
cc_type *cc_new_type(cc_ctx *c, int kind, int size);
cc_type *cc_ptr_to(cc_ctx *c, cc_type *base);
bool cc_is_int(const cc_type *t);       /* integers and _Bool */
bool cc_is_scalar(const cc_type *t);
cc_type *cc_promote(cc_ctx *c, cc_type *t);
cc_type *cc_arith(cc_ctx *c, cc_type *a, cc_type *b);
const char *cc_type_name(const cc_type *t, char *buf, size_t cap);

/* cc_parse.c: the whole translation unit; types checked; functions and globals collected. */
void cc_parse(cc_ctx *c);
bool cc_const_value(const cc_node *n, int64_t *v);

/* cc_frames.c: the call graph, recursion, static frame placement, scratchpad and stack checks. */
void cc_frames(cc_ctx *c);

/* cc_gen.c: each function's code into its buffer. */
void cc_gen_func(cc_ctx *c, cc_func *f);
/* cc_gen.c: the whole .psm: start-up, functions (frame addresses filled in), runtime, libraries. */
void cc_emit_program(cc_ctx *c);

/* cc_runtime.c: the runtime routines (multiply, divide) used, once each. */
enum { RT_MUL32 = 1, RT_DIVU32 = 2, RT_DIVS32 = 4 };
void cc_emit_runtime(cc_ctx *c);

#endif
