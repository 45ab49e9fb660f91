/* What the loader loaded into an instance, kept with it (isk_inst_set_data) for the tools that
 * come after the run starts: a debugger's `break SYMBOL`, a profile's functions, a trace's
 * labels. Data flows one way: these are the executable's own symbols, never re-derived. */
#ifndef ISK_ASM_LOADED_H
#define ISK_ASM_LOADED_H

#include <stdbool.h>
#include <stdint.h>

#include "base/vec.h"
#include "elf/obj.h"
#include "isekit/sim.h"

typedef struct isk_loaded_sym {
    char *name;
    uint64_t addr, size;     /* byte address in the model's address map; size 0: unknown */
    bool func;               /* STT_FUNC, or a label in a code region */
    bool code;               /* in a code region: pc is its instruction's index */
    uint64_t pc;
} isk_loaded_sym;

/* A row of the line table (DWARF .debug_line, decoded): the instructions from pc up to the next
 * row's pc come from line `line` of files.data[file]. */
typedef struct isk_line_row {
    uint64_t pc;                     /* the code memory index (the engine's PC) */
    uint32_t file, line, column;     /* file >= files.len: the table named no valid file */
    bool stmt;                       /* a statement's start: where `break FILE:LINE` stops */
} isk_line_row;

typedef struct isk_loaded {
    char *path;                      /* the executable's file name */
    uint64_t entry;
    VEC(isk_loaded_sym) syms;        /* named, defined symbols, sorted by address */
    VEC(size_t) routines;            /* isk_loaded_code_at's candidates: indexes of syms in code
                                        (not .L labels), by PC, a function first among equals */
    VEC(char *) files;               /* the line table's files, as the assembler named them */
    VEC(isk_line_row) lines;         /* sorted by pc; empty without line information; a row of
                                        line 0 ends a sequence (no line from its pc on) */
} isk_loaded;

/* Keep exe's symbols and line table with inst (the loader does, after a load). A malformed
 * .debug_line is a warning to diag (may be NULL) and leaves the line table empty. */
void isk_loaded_keep(isk_inst *inst, const isk_obj *exe, isk_diag *diag);
/* What the loader last loaded into inst, or NULL. */
const isk_loaded *isk_loaded_of(const isk_inst *inst);
/* The symbol called name, or NULL. */
const isk_loaded_sym *isk_loaded_find(const isk_loaded *l, const char *name);
/* The routine a PC lies in, for stops, frames, traces and profiles: the nearest code symbol at
 * or below it (a function before a label at the same PC; local .L labels never). Not the last
 * function: assembly programs start routines with plain labels (`fib:` after the runtime's
 * printf), and a function's size is often unknown. NULL if none. */
const isk_loaded_sym *isk_loaded_code_at(const isk_loaded *l, uint64_t pc);

/* The line-table row covering pc, or NULL. */
const isk_line_row *isk_loaded_line_at(const isk_loaded *l, uint64_t pc);
/* The PCs where line `line` of a file whose name is `file` or ends in "/file" starts (statement
 * rows), at most cap of them, in PC order; how many there are. */
int isk_loaded_line_pcs(const isk_loaded *l, const char *file, uint32_t line, uint64_t *pcs, int cap);

#endif
