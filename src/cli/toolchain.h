/* What `isekit as`, `ld`, `build` and `objdump` share: their common options, loading the model,
 * reading inputs, linking and writing the output in the chosen format. */
#ifndef ISK_CLI_TOOLCHAIN_H
#define ISK_CLI_TOOLCHAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "asm/asm.h"
#include "asm/link_model.h"
#include "base/vec.h"
#include "elf/archive.h"

typedef VEC(const char *) tc_list;

/* Which of the common options a tool takes (tc_args.takes); the others are usage errors. */
enum { TC_OUTPUT = 1, TC_LINK = 2, TC_CPP = 4 };   /* -o; -O --region --region-start --defsym -L -l; -I -D -g */

typedef struct tc_args {
    const char *tool;        /* "as", "ld", ... for messages */
    unsigned takes;          /* TC_OUTPUT | ... : set by the tool before parsing */
    const char *model;       /* -m */
    const char *output;      /* -o */
    const char *format;      /* -O / --format */
    const char *region;      /* --region */
    tc_list inputs, include_dirs, defines, defsyms, region_starts, lib_dirs, libs;
    int max_errors;          /* --max-errors, -1 = not given (set by tc_parse) */
    bool lines;              /* -g: sources get line information (.debug_line) */
    /* A tool's own link step (a model's SDK-style driver): called instead of the plain
     * isk_model_link_objects, with ml already holding --defsym and --region-start. NULL = plain. */
    isk_obj *(*link)(void *user, isk_model_link *ml, isk_obj *const *objs, size_t nobjs, isk_archive *const *ars,
                     size_t nars, const char *output, isk_diag *diag);
    void *link_user;
} tc_args;

/* Parse -m, --max-errors N and the common options in a->takes; other options are errors.
 * Returns false after printing a message (a usage error). `extra` may claim tool-specific
 * options: it returns the number of arguments consumed (0 = not its option). */
bool tc_parse(int argc, char **argv, tc_args *a, int (*extra)(void *user, int argc, char **argv, int i), void *user);
void tc_free(tc_args *a);

/* Load -m MODEL (a built-in name or a model .c file). */
isk_model *tc_model(const tc_args *a, isk_diag *diag);

/* How `as`, `ld` and `build` start: --help, the options, at least one input, the model. Returns
 * the model, or NULL with *rc the exit status when the tool must stop there. */
isk_model *tc_start(int argc, char **argv, tc_args *a, void (*usage)(FILE *out, const char *tool), isk_diag *diag,
                    int *rc);

/* Assemble the sources among the inputs (.s, .S, .sx, .asm) into objects, read the others
 * (ELF objects, archives, -l libraries) and link them; writes the output. Exit status. */
int tc_build(const tc_args *a, isk_model *m, isk_diag *diag);

/* Write an executable in a format: elf, binary, ihex or mem. */
int tc_write_executable(const isk_model *m, const isk_obj *exe, const char *path, const char *format,
                        const char *region, isk_diag *diag);

bool tc_is_source(const char *path);

#endif
