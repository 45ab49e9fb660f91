/* isekit ld: objects and archives -> an executable placed by the model's memory map. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/toolchain.h"

static void usage(FILE *out, const char *tool)
{
    bool build = strcmp(tool, "build") == 0;
    fprintf(out,
            "usage: isekit %s -m MODEL [options] FILE...\n\n", tool);
    if (build)
        fprintf(out,
                "Assemble the sources among FILE (.s, .S, .sx, .asm) and link them with the other FILEs\n"
                "(objects, .a archives) into an executable, in one step.\n\n");
    else
        fprintf(out,
                "Link relocatable objects and .a archives for MODEL into an executable: sections go to the\n"
                "model's REGIONs, relocations are resolved with the model's RELOCATION types and checked\n"
                "against their ranges, and the output carries the model's e_machine and e_flags. Objects\n"
                "of different ABI versions are refused. The entry point is _start if defined, else the\n"
                "start of the code region. Also accepts sources, as `isekit build` does.\n\n");
    fprintf(out,
            "options:\n"
            "  -m MODEL           a built-in model or the path of a model's .c file\n"
            "  -o FILE            the output (default a.out)\n"
            "  -O, --format F     elf (default), binary, ihex or mem (flat formats hold one region)\n"
            "  --region NAME      the region a binary or mem output holds (default: the code region)\n"
            "  --defsym NAME=N    define an absolute symbol unless an input defines it\n"
            "  --region-start NAME=ADDR  place region NAME from ADDR (inside it) instead of its base\n"
            "  -L DIR, -lNAME     look for libNAME.a in DIR\n"
            "  -I DIR             look for .include files of sources in DIR\n"
            "  -D NAME[=VAL]      define a C preprocessor macro for .S sources\n"
            "  -g                 sources get line information (DWARF .debug_line, see isekit as)\n"
            "  --max-errors N     at most N errors per file and in all (default 20/50; 0 = no cap)\n");
    fprintf(out,
            "  -h, --help         this text\n\n"
            "Exit status: 0 on success, 1 on errors, 2 on bad usage.\n");
}

static int link_main(int argc, char **argv, const char *tool)
{
    tc_args a = { .tool = tool, .takes = TC_OUTPUT | TC_LINK | TC_CPP };
    isk_diag diag;
    isk_diag_init(&diag);
    int rc;
    isk_model *m = tc_start(argc, argv, &a, usage, &diag, &rc);
    if (m) {
        rc = tc_build(&a, m, &diag);
        isk_model_release(m);
    }
    tc_free(&a);
    return rc;
}

int cmd_ld(int argc, char **argv) { return link_main(argc, argv, "ld"); }
int cmd_build(int argc, char **argv) { return link_main(argc, argv, "build"); }
