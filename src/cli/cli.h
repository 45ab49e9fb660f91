/* The isekit command: one function per subcommand. */
#ifndef ISK_CLI_H
#define ISK_CLI_H

#include <stdbool.h>
#include <stdio.h>

typedef struct isk_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);    /* argv[0] is the subcommand's name */
} isk_command;

/* Exit codes of every subcommand. */
enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

int cmd_info(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_debug(int argc, char **argv);          /* run_debug.c: isekit debug = isekit run --debug */
int cmd_as(int argc, char **argv);             /* cmd_as.c: the assembler */
int cmd_ld(int argc, char **argv);             /* cmd_ld.c: the linker */
int cmd_build(int argc, char **argv);          /* cmd_ld.c: assemble and link in one step */
int cmd_objdump(int argc, char **argv);        /* cmd_objdump.c: the disassembler (also `isekit dis`) */

/* A model folder adds to the command without the command naming it (docs/layers.md):
 *   CLI_COMMAND(fn, "psm", "summary")   a subcommand: isekit psm ...
 *   CLI_RUNNER(fn, "NAME", "summary")   the runner of `isekit run NAME ...`, for a model or system
 *                                       whose programs are not launch lists
 * Each puts a pointer to its isk_command in a section the linker gathers; linking the file is
 * all it takes. */
#define CLI_REGISTER_(section_, fn, cname, text) \
    static const isk_command fn##_registered = { (cname), (text), fn }; \
    __attribute__((used, section(#section_))) static const isk_command *const fn##_at = &fn##_registered
#define CLI_COMMAND(fn, cname, text) CLI_REGISTER_(isk_cli_commands, fn, cname, text)
#define CLI_RUNNER(fn, cname, text) CLI_REGISTER_(isk_cli_runners, fn, cname, text)

/* The i-th registered subcommand or runner (link order), NULL past the last. */
const isk_command *cli_command_at(int i);
const isk_command *cli_runner_at(int i);
/* The registered runner of that name, or NULL. */
const isk_command *cli_runner_find(const char *name);

/* True if argv has -h or --help (anywhere before a lone "--"). */
bool wants_help(int argc, char **argv);
/* How every subcommand starts: with -h or --help, print `usage` to stdout and return EXIT_OK;
 * else `parse` fills `opts` and, if it reported bad arguments, print `usage` to stderr and
 * return EXIT_USAGE. -1: go on. */
int cli_start(int argc, char **argv, void (*usage)(FILE *out), bool (*parse)(int argc, char **argv, void *opts),
              void *opts);

#endif
