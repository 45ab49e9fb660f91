/* Whole files in and out. Errors go to diag as "PATH: what" and the result is -1. */
#ifndef ISK_BASE_FILE_H
#define ISK_BASE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "isekit/diag.h"

/* *data is malloc'd and holds *size bytes (not NUL-terminated). */
int isk_file_read_all(const char *path, uint8_t **data, size_t *size, isk_diag *diag);
/* A text input (a source, a launch list): isk_file_read_all, then binary data and NUL bytes
 * are refused with a clear error. *text is malloc'd, NUL-terminated, and holds *size bytes. */
int isk_file_read_text(const char *path, char **text, size_t *size, isk_diag *diag);
int isk_file_write_all(const char *path, const void *data, size_t size, isk_diag *diag);

#endif
