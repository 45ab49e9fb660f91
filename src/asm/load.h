/* The generic loader: an executable into the storages of a model instance, through the
 * model's REGIONs.
 *
 * Each allocated section must lie inside one REGION; its bytes go to the region's storage,
 * cell by cell: a code region holds one instruction per proc.code_bytes bytes (the container
 * of the instruction word, e.g. 8 bytes for the DPU's 48-bit words), a data region one cell
 * per ceil(width / 8) bytes rounded up to 1, 2, 4 or 8, in the ELF's byte order. NOBITS
 * sections are zeroed. A processor's context 0 is started at the entry point when a code
 * region holds it. Refused with a clear error: unreadable or malformed files, relocatable
 * objects, another e_machine, another ABI version, sections outside every region, programs
 * too large for a region or its storage. */
#ifndef ISK_ASM_LOAD_H
#define ISK_ASM_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "elf/obj.h"
#include "isekit/desc.h"

typedef struct isk_load_info {
    uint64_t entry;          /* e_entry */
    bool started;            /* context 0 was started at the entry */
    uint64_t entry_pc;       /* its PC (a code memory index) */
    uint64_t bytes;          /* loaded into storages */
} isk_load_info;

/* Load an ELF executable (or an Intel-HEX image: sections at the addresses of its records)
 * from a file. info may be NULL. Returns 0, or -1 after reporting the error to diag. */
int isk_load_executable(isk_inst *inst, const char *path, isk_diag *diag);
int isk_load_executable_info(isk_inst *inst, const char *path, isk_load_info *info, isk_diag *diag);
/* The same for an executable already in memory (its filename names it in messages). */
int isk_load_obj(isk_inst *inst, const isk_obj *exe, isk_load_info *info, isk_diag *diag);

#endif
