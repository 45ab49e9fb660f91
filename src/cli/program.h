/* Putting a program into a processor instance, as `isekit run` and system descriptions do. */
#ifndef ISK_CLI_PROGRAM_H
#define ISK_CLI_PROGRAM_H

#include <stdbool.h>

#include "isekit/sim.h"

/* Load `path` into the processor `inst`. The model's declared assembly language decides how
 * (never its name): a model whose parameter `syntax` is `psm` takes a .psm source (the .psm
 * front end, whose INCLUDE finds the built-in files such as pbbcelib.psm) or a .hex, .mem,
 * .dec or .bin word image; any other processor an assembly source (.s, .S: assembled and linked
 * by the model's memory map) or an executable (ELF, Intel-HEX). False after reporting to diag. */
bool cli_load_program(isk_inst *inst, const char *path, isk_diag *diag);

#endif
