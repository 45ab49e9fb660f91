/* isekit as: GNU-as style sources -> one relocatable object for a model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/toolchain.h"
#include "elf/elf_file.h"

static void usage(FILE *out, const char *tool)
{
    (void)tool;
    fprintf(out,
            "usage: isekit as -m MODEL [options] FILE...\n\n"
            "Assemble GNU-as style sources for MODEL into one relocatable ELF object: labels, .L and\n"
            "numeric local labels (1b, 1f), expressions, sections, data, .macro/.rept/.irp, .if,\n"
            ".include, symbols; instructions in the model's own syntax. Files ending in .S or .sx\n"
            "go through the C preprocessor first. Every error of every file is reported as\n"
            "file:line:column with the source line. See docs/assembler.md.\n\n"
            "options:\n"
            "  -m MODEL       a built-in model or the path of a model's .c file\n"
            "  -o FILE        the object to write (default: the first input with .o instead of .s)\n"
            "  -I DIR         look for .include files (and #include for .S) in DIR\n"
            "  -D NAME[=VAL]  define a C preprocessor macro for .S files\n"
            "  -g             record the source line of every instruction (DWARF .debug_line; .file N\n"
            "                 and .loc directives win where present)\n"
            "  --max-errors N at most N errors per file and in all (default 20/50; 0 = no cap)\n"
            "  -h, --help     this text\n\n"
            "Exit status: 0 on success, 1 on errors in the sources, 2 on bad usage.\n");
}

static char *default_output(const char *input)
{
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    return isk_xasprintf("%.*s.o", (int)n, base);
}

int cmd_as(int argc, char **argv)
{
    tc_args a = { .tool = "as", .takes = TC_OUTPUT | TC_CPP };
    isk_diag diag;
    isk_diag_init(&diag);
    int rc;
    isk_model *m = tc_start(argc, argv, &a, usage, &diag, &rc);
    if (!m) {
        tc_free(&a);
        return rc;
    }
    char *output = a.output ? isk_xstrdup(a.output) : default_output(a.inputs.data[0]);
    isk_asm_options opt = { .include_dirs = a.include_dirs.data, .ninclude_dirs = a.include_dirs.len,
                            .defines = a.defines.data, .ndefines = a.defines.len, .no_lines = !a.lines };
    isk_obj *o = isk_assemble_files(m, a.inputs.data, a.inputs.len, output, &opt, &diag);
    rc = EXIT_FAILED;
    if (o && isk_elf_write_file(o, output, &diag) == 0) rc = EXIT_OK;
    if (diag.errors) fprintf(stderr, "isekit as: %d error%s\n", diag.errors, diag.errors == 1 ? "" : "s");
    isk_obj_free(o);
    free(output);
    isk_model_release(m);
    tc_free(&a);
    return rc;
}
