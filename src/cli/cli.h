/* The isekit command: one function per subcommand. */
#ifndef ISK_CLI_H
#define ISK_CLI_H

#include <stdbool.h>

typedef struct isk_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);    /* argv[0] is the subcommand's name */
} isk_command;

/* Exit codes of every subcommand. */
enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

int cmd_info(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_as(int argc, char **argv);             /* cmd_as.c: the assembler */
int cmd_ld(int argc, char **argv);             /* cmd_ld.c: the linker */
int cmd_build(int argc, char **argv);          /* cmd_ld.c: assemble and link in one step */
int cmd_objdump(int argc, char **argv);        /* cmd_objdump.c: the disassembler (also `isekit dis`) */
int cmd_psm(int argc, char **argv);            /* cmd_psm.c: PicoBlaze .psm assembler/disassembler */

/* Models whose programs are not launch lists have runners of their own (isekit run MODEL ...). */
int cmd_run_edkdsp(int argc, char **argv);     /* cmd_run_edkdsp.c: the BCE: firmware, DFU, host */
int cmd_run_dpu(int argc, char **argv);        /* cmd_run_dpu.c: DPU executables or sources */

/* True if argv has -h or --help (anywhere before a lone "--"). */
bool wants_help(int argc, char **argv);

#endif
