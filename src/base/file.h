/* Whole files in and out. Errors go to diag as "PATH: what" and the result is -1.
 *
 * Inputs are bounded: at most isk_file_max_input() bytes (256 MiB, or $ISEKIT_MAX_INPUT with
 * a K/M/G suffix). A larger regular file is refused before it is read; a pipe or device is read
 * until it passes the limit. The environment, not an option, so that every command, library
 * call and .include/INCLUDE nested inside them obeys the same bound without threading a field
 * through every API. */
#ifndef ISK_BASE_FILE_H
#define ISK_BASE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "isekit/diag.h"

#define ISK_FILE_MAX_INPUT_ENV "ISEKIT_MAX_INPUT"
#define ISK_FILE_MAX_INPUT_DEFAULT (UINT64_C(256) << 20)

/* The bound in bytes; a bad $ISEKIT_MAX_INPUT is a warning to diag (if not NULL). */
uint64_t isk_file_max_input(isk_diag *diag);
/* *data is malloc'd and holds *size bytes (not NUL-terminated). */
int isk_file_read_all(const char *path, uint8_t **data, size_t *size, isk_diag *diag);
/* A text input of kind `what` ("assembly", "a launch list"): binary data is refused with "PATH:
 * this looks like a binary file, not WHAT" after the first block is read, and a NUL byte in
 * text is an error at its line and column. *text is malloc'd, NUL-terminated, *size bytes. */
int isk_file_read_source(const char *path, const char *what, char **text, size_t *size, isk_diag *diag);
/* isk_file_read_source for "text". */
int isk_file_read_text(const char *path, char **text, size_t *size, isk_diag *diag);
/* The same checks on text already in memory (len bytes): 0 if it is text. Readers of text
 * images (word lists, Intel-HEX, .mem) use it on what isk_file_read_all gave them. */
int isk_file_check_text(const char *path, const char *what, const char *text, size_t len, isk_diag *diag);
int isk_file_write_all(const char *path, const void *data, size_t size, isk_diag *diag);

#endif
