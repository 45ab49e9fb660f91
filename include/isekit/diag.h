/* Diagnostics shared by every part of isekit: one sink that counts errors and warnings and
 * formats them the same way everywhere:
 *
 *     file:line:column: error: message
 *         the source line
 *         ^
 *
 * or, for simulated programs, a location such as "clock 17, slot 2" supplied by the caller.
 * Control characters and bytes that are not UTF-8 are shown as \xNN, so a binary input never
 * reaches the terminal raw.
 * A sink is owned by whoever runs a job (a tool invocation, a test, a simulation); nothing here
 * is global. */
#ifndef ISEKIT_DIAG_H
#define ISEKIT_DIAG_H

#include <stdarg.h>
#include <stddef.h>

typedef enum { ISK_NOTE, ISK_WARNING, ISK_ERROR } isk_severity;

/* Where a message points. Any field may be empty: file NULL, line/col 0, text NULL. */
typedef struct isk_loc {
    const char *file;
    int line, col;          /* 1-based; 0 = unknown */
    const char *text;       /* the whole source line, for the caret display (no newline needed) */
    int text_len;           /* length of text, or -1 to stop at the first newline / NUL */
} isk_loc;

typedef struct isk_diag {
    int errors, warnings;
    int max_errors;          /* stop after this many errors (isk_diag_init: ISK_DIAG_MAX_ERRORS;
                                0 = no limit): later ones are counted, not shown, and the tools
                                stop working once isk_diag_stopped() says so */
    int max_file_errors;     /* the same for one input file (isk_diag_begin_file), after which
                                the tools go on with the next file (ISK_DIAG_MAX_FILE_ERRORS;
                                0 = no limit) */
    const char *file;        /* the input being read (isk_diag_begin_file), and its errors */
    int file_errors;
    /* Where formatted messages go; NULL = stderr. `msg` is one complete message with its
     * trailing newline, source line and caret included. */
    void (*emit)(void *user, isk_severity sev, const char *msg);
    void *user;
    char last[512];          /* the first line of the most recent error, for callers and tests */
} isk_diag;

/* The default error cap, as gcc's -fmax-errors: an input with thousands of mistakes (a binary
 * file, a runaway macro) says so once instead of flooding the terminal. */
#define ISK_DIAG_MAX_ERRORS 50
/* Per input file, as clang's -ferror-limit: a file full of mistakes (or not a source at all)
 * shows 20 of them, "too many errors in FILE; skipping the rest of it", and the other files
 * still get their turn within the total. */
#define ISK_DIAG_MAX_FILE_ERRORS 20

void isk_diag_init(isk_diag *d);
/* One number for both caps (what --max-errors N sets): up to n errors in all, and in one file
 * (0 = no cap). */
void isk_diag_set_max_errors(isk_diag *d, int n);
/* True once more than max_errors errors were reported: the sink has said "too many errors"
 * and whoever is working for it should stop. */
int isk_diag_stopped(const isk_diag *d);

/* Errors from now on are those of input `file` (the caller keeps the string alive until
 * isk_diag_end_file); they nest, as an included file inside its includer: */
typedef struct isk_diag_file { const char *file; int errors; } isk_diag_file;
isk_diag_file isk_diag_begin_file(isk_diag *d, const char *file);
void isk_diag_end_file(isk_diag *d, isk_diag_file outer);
/* True once the current file passed max_file_errors (the sink has said "too many errors in
 * FILE; skipping the rest of it": stop reading it) or the total cap was passed. */
int isk_diag_file_stopped(const isk_diag *d);
/* True if the next error would not be shown (a cap is reached): callers skip their notes. */
int isk_diag_full(const isk_diag *d);
void isk_diag_report(isk_diag *d, isk_severity sev, const isk_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void isk_diag_vreport(isk_diag *d, isk_severity sev, const isk_loc *loc, const char *fmt, va_list ap);

#define isk_error(d, loc, ...)   isk_diag_report((d), ISK_ERROR, (loc), __VA_ARGS__)
#define isk_warning(d, loc, ...) isk_diag_report((d), ISK_WARNING, (loc), __VA_ARGS__)
#define isk_note(d, loc, ...)    isk_diag_report((d), ISK_NOTE, (loc), __VA_ARGS__)

/* The most recent error without its "error: " (to repeat it as part of another message). */
const char *isk_diag_last_reason(const isk_diag *d, char *buf, size_t cap);

/* A sink that collects every message into one growing string (for tests and embedders). */
typedef struct isk_diag_buffer { char *text; size_t len, cap; } isk_diag_buffer;
void isk_diag_capture(isk_diag *d, isk_diag_buffer *buf);
void isk_diag_buffer_free(isk_diag_buffer *buf);

#endif
