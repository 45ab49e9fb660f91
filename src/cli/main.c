/* isekit: toolkit for processors and accelerators described in C. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "isekit/sim.h"

static const isk_command commands[] = {
    { "info", "describe a model: storage, resources, instruction formats and syntax", cmd_info },
    { "run", "simulate a model running a program (a launch list for accelerators)", cmd_run },
    { "as", "assemble GNU-as style sources (.s, .S) into an object for a model", cmd_as },
    { "ld", "link objects and archives into an executable by the model's memory map", cmd_ld },
    { "build", "assemble and link in one step", cmd_build },
    { "objdump", "disassemble ELF files, binaries, HEX images and word lists", cmd_objdump },
    { "dis", "the same as objdump", cmd_objdump },
    { "psm", "assemble or disassemble PicoBlaze .psm programs (KCPSM3, KCPSM6)", cmd_psm },
};

bool wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) return false;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) return true;
    }
    return false;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: isekit COMMAND [ARGS...]\n       isekit --version\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nMODEL is a built-in model (");
    const char *const *names = isk_builtin_model_names();
    for (int i = 0; names[i]; i++) fprintf(out, "%s%s", i ? ", " : "", names[i]);
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
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "isekit: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
