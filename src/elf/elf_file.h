/* Reading and writing isk_obj as ELF files (ET_REL or ET_EXEC; 32/64-bit; either byte order).
 *
 * The reader is the front door for untrusted input: any malformed file is refused with one
 * error through the isk_diag sink, naming the file and what is wrong (section index and name,
 * offsets, sizes), and never crashes. The accepted subset: ET_REL and ET_EXEC, RELA relocations,
 * one symbol table, fewer than 0xff00 sections. */
#ifndef ISK_ELF_FILE_H
#define ISK_ELF_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "isekit/diag.h"
#include "elf/obj.h"

/* Parse an ELF image. `filename` names it in messages and becomes obj->filename.
 * Returns NULL after reporting an error. The buffer is not kept. */
isk_obj *isk_elf_read_mem(const void *data, size_t size, const char *filename, isk_diag *diag);
isk_obj *isk_elf_read_file(const char *path, isk_diag *diag);

/* Serialise an object. On success *out is a malloc'd buffer of *size bytes; returns 0.
 * On error reports through diag and returns -1 (inconsistent models, values that do not fit
 * ELFCLASS32, too many sections, ...). */
int isk_elf_write_mem(const isk_obj *o, uint8_t **out, size_t *size, isk_diag *diag);
int isk_elf_write_file(const isk_obj *o, const char *path, isk_diag *diag);

#endif
