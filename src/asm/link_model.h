/* The linker target of a model: src/elf's linker core driven by what the model declares with
 * ELF_FORMAT (identity, ABI version in e_flags), REGION (memory map, section placement) and
 * RELOCATION (field map, PC-relative, shift, range, convert hook).
 *
 *   - sections go to the first REGION whose `sections` globs match their names, in pattern
 *     order (".text.__bootstrap .text .text.*": the bootstrap first);
 *   - objects whose ABI versions differ are refused, naming both files and versions; objects
 *     that agree with each other but not with the model are refused too;
 *   - a RELOCATION computes v = convert(S + A) [- convert(P) if pcrel] (convert only for
 *     allocated sections, as debug data holds plain addresses), checks [min, max] when
 *     min < max, else that v >> shift fits the field (signed if the field map says `s`, any
 *     bit pattern of the unit when there is no field map), and replaces the field's bits;
 *   - the entry point is the global `_start` if defined, else the base of the first code
 *     region (else of the first region).
 */
#ifndef ISK_ASM_LINK_MODEL_H
#define ISK_ASM_LINK_MODEL_H

#include "elf/obj.h"
#include "isekit/desc.h"
#include "elf/link.h"

typedef struct isk_model_link isk_model_link;

/* NULL (after an error naming what is missing) if the model declares no ELF_FORMAT or no
 * REGION with sections. */
isk_model_link *isk_model_link_new(const isk_model *m, isk_diag *diag);
void isk_model_link_free(isk_model_link *ml);
const isk_link_target *isk_model_link_target(const isk_model_link *ml);
/* An absolute symbol the linker defines unless an input does (like ld --defsym). */
void isk_model_link_defsym(isk_model_link *ml, const char *name, int64_t value);
/* Any linker-defined symbol (a linker script's PROVIDE: a section's or region's start, end or
 * used end, plus offset, rounded up to align); ref names the section or region. */
void isk_model_link_symbol(isk_model_link *ml, const char *name, isk_link_symkind kind, const char *ref,
                           int64_t offset, uint64_t align);

/* Place region `name` from `start` instead of its base (like ld -Ttext): the region shrinks to
 * [start, base + size), so a program fits a chip whose memory starts higher (the IPU's ipu2
 * tile memory from 0x4C000). False after an error naming the region and its range. */
bool isk_model_link_region_start(isk_model_link *ml, const char *name, uint64_t start, isk_diag *diag);

/* Link objects and archives into an executable named output_name; NULL after errors. */
isk_obj *isk_model_link_objects(isk_model_link *ml, isk_obj *const *objs, size_t nobjs, isk_archive *const *archives,
                                size_t narchives, const char *output_name, isk_diag *diag);

/* The ABI version that e_flags carry for model m (0 if it declares none). */
uint32_t isk_model_abi_version(const isk_model *m, uint32_t e_flags);

#endif
