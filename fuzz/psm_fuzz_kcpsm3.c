/* KCPSM3 compiled in as a built-in model for psm_fuzz, and the fuzzer's table of built-in models. */
#define ISK_BUILTIN_MODEL 1
#include "../models/picoblaze/kcpsm3.c"

extern const struct isk_model_entry isk_model_kcpsm6;
const struct isk_model_entry *const isk_builtin_models[] = { &isk_model_kcpsm3, &isk_model_kcpsm6, 0 };
static const char *const model_names[] = { "kcpsm3", "kcpsm6", 0 };
const char *const *isk_builtin_model_names(void);
const char *const *isk_builtin_model_names(void) { return model_names; }
