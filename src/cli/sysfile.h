/* Systems described in a file (`isekit run board.sys`, docs/systems.md): an INI-like text of
 * [system] and [instance NAME] sections with `key = value` and `key ARG = value` lines, read in
 * two steps so that the syntax can be checked (and fuzzed) apart from building:
 *
 *     sysfile *f = sysfile_parse(path, text, diag);      // sections, keys, duplicates
 *     sysfile_build(f, sys, wiring, &opts, diag);        // models, parameters, sharing, wiring,
 *                                                        // programs, into an empty system
 *
 * Every error names the file, line and column of what is wrong. */
#ifndef ISK_CLI_SYSFILE_H
#define ISK_CLI_SYSFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/vec.h"
#include "cli/ports.h"
#include "isekit/sim.h"

typedef struct sf_entry {
    char *key, *arg, *value;         /* arg: NULL unless the key takes one (param NAME = ...) */
    int line, key_col, arg_col, value_col;
} sf_entry;

typedef struct sf_section {
    char *name;                      /* the instance's; NULL for [system] */
    int line, col;                   /* of the name (or of the '[') */
    VEC(sf_entry) entries;
} sf_section;

typedef struct sysfile {
    char *path, *dir, *text;         /* dir: where relative paths start ("" = here) */
    VEC(const char *) lines;         /* the start of each line in text, for the caret display */
    sf_section system;
    VEC(sf_section) instances;
    uint64_t max_clocks;             /* [system] max_clocks, 0 = not given */
    bool port_log;                   /* [system] port_log = yes */
} sysfile;

/* NULL after reporting every syntax error. `text` is copied. */
sysfile *sysfile_parse(const char *path, const char *text, isk_diag *diag);
/* sysfile_parse of a file's text. */
sysfile *sysfile_read(const char *path, isk_diag *diag);
void sysfile_free(sysfile *f);

typedef struct sysfile_build_options {
    bool sandbox;                    /* built-in models only, no program files, no stdin/stdout
                                        (the fuzzing harness) */
} sysfile_build_options;

/* Add the instances to `sys` (made with explicit_sharing), share, attach, set parameters, wire
 * ports into `wiring` (every processor's: unwired reads give 0), route interrupt lines, load
 * programs. The models loaded are released
 * with the system's instances (each instance holds its own reference). False after
 * reporting; the system may then hold some of the instances. */
bool sysfile_build(const sysfile *f, isk_system *sys, port_wiring *wiring, const sysfile_build_options *o,
                   isk_diag *diag);

#endif
