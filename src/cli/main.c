/* isekit: toolkit for processors and accelerators described in C. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "isekit/sim.h"

static const isk_command commands[] = {
    { "info", "describe a model: storage, resources, instruction formats and syntax", cmd_info },
    { "run", "simulate a model running a program (a launch list for accelerators)", cmd_run },
    { "debug", "run as `run` does under a gdb-like debugger (docs/debugger.md)", cmd_debug },
    { "as", "assemble GNU-as style sources (.s, .S) into an object for a model", cmd_as },
    { "ld", "link objects and archives into an executable by the model's memory map", cmd_ld },
    { "build", "assemble and link in one step", cmd_build },
    { "objdump", "disassemble ELF files, binaries, HEX images and word lists", cmd_objdump },
    { "dis", "the same as objdump", cmd_objdump },
};

/* What model folders registered (cli.h); weak, as a build may link none. */
extern const isk_command *const __start_isk_cli_commands[] __attribute__((weak));
extern const isk_command *const __stop_isk_cli_commands[] __attribute__((weak));
extern const isk_command *const __start_isk_cli_runners[] __attribute__((weak));
extern const isk_command *const __stop_isk_cli_runners[] __attribute__((weak));

static const isk_command *registered(const isk_command *const *start, const isk_command *const *stop, int i)
{
    return start && i >= 0 && i < stop - start ? start[i] : NULL;
}

const isk_command *cli_command_at(int i)
{
    return registered(__start_isk_cli_commands, __stop_isk_cli_commands, i);
}

const isk_command *cli_runner_at(int i)
{
    return registered(__start_isk_cli_runners, __stop_isk_cli_runners, i);
}

const isk_command *cli_runner_find(const char *name)
{
    for (int i = 0; cli_runner_at(i); i++)
        if (strcmp(cli_runner_at(i)->name, name) == 0) return cli_runner_at(i);
    return NULL;
}

/* The i-th subcommand: the command's own, then the registered ones. */
static const isk_command *command_at(int i)
{
    int own = (int)(sizeof commands / sizeof *commands);
    return i < own ? &commands[i] : cli_command_at(i - own);
}

bool wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) return false;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) return true;
    }
    return false;
}

int cli_start(int argc, char **argv, void (*usage)(FILE *out), bool (*parse)(int argc, char **argv, void *opts),
              void *opts)
{
    if (wants_help(argc, argv)) {
        usage(stdout);
        return EXIT_OK;
    }
    if (!parse(argc, argv, opts)) {
        usage(stderr);
        return EXIT_USAGE;
    }
    return -1;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: isekit COMMAND [ARGS...]\n       isekit --version\n\ncommands:\n");
    for (int i = 0; command_at(i); i++) fprintf(out, "  %-8s %s\n", command_at(i)->name, command_at(i)->summary);
    fprintf(out, "\nMODEL is a built-in model (");
    for (int i = 0; isk_builtin_model_name(i); i++) fprintf(out, "%s%s", i ? ", " : "", isk_builtin_model_name(i));
    fprintf(out, ") or the path of a model's .c file, compiled on the fly.\n"
                 "Run 'isekit COMMAND --help' for a command's options.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("isekit %s (model ABI %d)\n", ISEKIT_VERSION, ISK_ABI_VERSION);
        return EXIT_OK;
    }
    for (int i = 0; command_at(i); i++)
        if (strcmp(argv[1], command_at(i)->name) == 0) return command_at(i)->run(argc - 1, argv + 1);
    fprintf(stderr, "isekit: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
