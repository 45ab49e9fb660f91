/* The example accelerator, compiled in as a built-in model for asm_fuzz (no relocations), and
 * the fuzzer's table of built-in models (the example and the tiny test processor). */
#define ISK_BUILTIN_MODEL 1
#include "../models/example/example.c"

extern const struct isk_model_entry isk_model_tiny;
const struct isk_model_entry *const isk_builtin_models[] = { &isk_model_example, &isk_model_tiny, 0 };
static const char *const model_names[] = { "example", "tiny", 0 };
const char *const *isk_builtin_model_names(void);
const char *const *isk_builtin_model_names(void) { return model_names; }
