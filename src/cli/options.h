/* Option parsing shared by every subcommand: one spelling per option, numbers through the one
 * strict parser (base/num.h) with a range, and one message format for bad usage:
 *
 *     isekit run dpu: --tasklets: 0 is out of range (1 to 24)
 *
 * Usage errors make the command exit with EXIT_USAGE (2). */
#ifndef ISK_CLI_OPTIONS_H
#define ISK_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/num.h"
#include "isekit/diag.h"

/* The arguments being walked: for (a.i = 1; a.i < a.argc && !a.bad; a.i++) ... */
typedef struct cli_args {
    const char *cmd;         /* "isekit run dpu", for messages */
    int argc;
    char **argv;
    int i;                   /* the argument being looked at */
    bool bad;                /* a usage error was printed */
} cli_args;

/* The name a run command goes by in messages: under the debugger (--debug, which `isekit debug`
 * appends) "isekit run dpu" is "isekit debug dpu", written into buf; else cmd. (`isekit run
 * --dap` keeps its name: that is how a DAP client starts it.) */
const char *cli_command_name(const char *cmd, bool debugging, char *buf, size_t cap);
/* The command line asks for the debugger: --debug anywhere in it. */
bool cli_debugging(const cli_args *a);

/* Print "CMD: message" to stderr (CMD as cli_command_name says) and mark the arguments bad. */
void cli_usage_error(cli_args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* argv[i] is exactly `name`. */
bool cli_flag(cli_args *a, const char *name);
/* argv[i] is option `name` taking a value, as "NAME VALUE" or "NAME=VALUE": true, *value set
 * (the index moves past it), or NULL after a usage error when the value is missing. */
bool cli_value(cli_args *a, const char *name, const char **value);
/* A number option: true if argv[i] is `name`; a missing, malformed or out-of-range value is a
 * usage error. */
bool cli_u64(cli_args *a, const char *name, uint64_t min, uint64_t max, isk_unit unit, uint64_t *out);
bool cli_int(cli_args *a, const char *name, int min, int max, int *out);      /* 0 <= min */

/* A number that is not an option's value (a positional argument, a parameter): the same
 * message, with `what` in place of the option name. */
bool cli_parse_u64(cli_args *a, const char *what, const char *text, uint64_t min, uint64_t max, isk_unit unit,
                   uint64_t *out);

/* --max-errors N, which every command that reports source errors takes: the cap per file and in
 * all (isk_diag_set_max_errors; 0 = no limit). */
#define CLI_MAX_ERRORS_HELP "  --max-errors N      at most N errors per file and in all (default 20/50; 0 = no cap)\n"
bool cli_max_errors(cli_args *a, int *max_errors);
/* A new sink with that cap; -1 = not given, the sink's default. */
void cli_diag_init(isk_diag *diag, int max_errors);

#endif
