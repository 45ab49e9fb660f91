/* What the engine adds to the description (isekit/desc.h) while it builds and loads a model:
 * the builder's parts (decoder, formats, kinds, parameters). Internal to the engine. */
#ifndef ISK_ENGINE_MODEL_DESC_H
#define ISK_ENGINE_MODEL_DESC_H

#include "base/vec.h"
#include "isekit/desc.h"
#include "isekit/model.h"

/* The decoder (decode.c). */
isk_decoder *isk_decoder_build(isk_model *m, isk_diag *diag);
void isk_decoder_free(isk_decoder *d);

/* The address map (addrmap.c): build it from the regions and the processor (false after
 * reporting a REGION naming no storage), free it. */
bool isk_addrmap_build(isk_model *m, isk_diag *diag);
void isk_addrmap_free(isk_model *m);

/* Formats and fields (format.c). Returns false after reporting errors to diag. */
bool isk_parse_format(isk_model *m, isk_pattern *p, const isk_insn_decl *d, isk_diag *diag);

/* Operand kinds (kinds.c). */
bool isk_kind_add(isk_model *m, const isk_kind_decl *d, isk_diag *diag);

/* Parse a field map in the notation of INSTRUCTION .fields for a unit of `bits` bits. */
bool isk_parse_field_map(const char *spec, int bits, isk_field *out, isk_diag *diag);
/* Parameters (param.c): add a declaration (false after reporting why it is refused), parse a
 * value for it, free them. */
bool isk_param_add(isk_model *m, const isk_param_decl *d, char *why, size_t cap);
/* `*text` receives the spelling to keep: the declared word of an enumeration, "yes"/"no", or
 * `value` itself. */
bool isk_param_parse(const isk_param *p, const char *value, int64_t *number, const char **text, char *why,
                     size_t cap);
void isk_params_free(isk_model *m);

#endif
