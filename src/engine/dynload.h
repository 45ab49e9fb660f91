/* Dynamic models: compile a model's C file with the system C compiler into a shared object. */
#ifndef ISK_ENGINE_DYNLOAD_H
#define ISK_ENGINE_DYNLOAD_H

#include "isekit/diag.h"

/* Compile `source` (if no up-to-date build is cached) and return the path of the shared
 * object (malloc'd), or NULL after reporting the compiler's messages to diag. The cache key is
 * the preprocessed source (so edits to included headers count), the flags and the model ABI. */
char *isk_dynload_compile(const char *source, isk_diag *diag);

#endif
